"""Pure domain code: formulas, answer parsing, grading, SM-2, storage, stats.

Imports neither ``question_bank`` nor ``drill``, and never textual; sympy only
on demand (symbolic comparison), never to evaluate or grade a number.
"""
