"""Grading: how exactly an answer is right or wrong.

:func:`grade` takes the text a person typed and an :class:`Expected` answer and
returns a :class:`Verdict`: ``correct`` / ``convention`` / ``close`` / ``wrong`` /
``invalid``,
the relative error, the misconception it matches (if any), the band that
applied and the SM-2 quality.  An unreadable answer is ``invalid`` - never
``wrong`` - and carries the parser's reason.

Distance between an answer ``x`` and the expected ``e`` is
``|x - e| / max(|x|, |e|)``: symmetric (swapping them gives the same verdict)
and scale-invariant; every answer rounded to two significant figures is
within 5 % of the exact value.

Grading itself is each answer kind's (:mod:`engine.kinds`); this module is the
one door: :func:`grade`, :func:`read` and :func:`understood` ask the expected answer's kind,
and the parts they are made of (:mod:`engine.verdicts`) are re-exported here.
"""

from __future__ import annotations

from engine.langs import EN

from . import kinds as _kinds  # noqa: F401 (registers the answer kinds in ANSWER_KINDS)
from .status import CLOSE, CONVENTION, CORRECT, INVALID, PASSED, WRONG, Status
from .verdicts import (
    ANSWER_KINDS,
    DEFAULT_CLOSE,
    DEFAULT_TOLERANCE,
    LOWERCASE_B,
    MERGED,
    MERGED_EN,
    MERGED_ZH,
    Approximation,
    ByConvention,
    Expected,
    KindName,
    Miss,
    Reading,
    Verdict,
    bytes_misses,
    display_number,
    distance,
    equivalent,
    merged,
    misconception_label,
    quality_for,
)

__all__ = ["ANSWER_KINDS", "CLOSE", "CONVENTION", "CORRECT", "DEFAULT_CLOSE", "DEFAULT_TOLERANCE", "INVALID",
           "LOWERCASE_B", "MERGED", "MERGED_EN", "MERGED_ZH", "PASSED", "WRONG", "Approximation", "Status",
           "ByConvention", "Expected", "KindName", "Miss", "Reading", "Verdict", "bytes_misses",
           "display_number", "distance", "equivalent", "grade", "merged", "read", "misconception_label", "quality_for",
           "understood"]


def grade(text: str, exp: Expected, *, seconds: float | None = None,
          target_seconds: float | None = None) -> Verdict:
    """Grade the typed ``text`` against ``exp`` (its kind does: :mod:`engine.kinds`)."""
    return exp.answer_kind.grade(text, exp, seconds, target_seconds)


def read(text: str, exp: Expected) -> Reading:
    """What ``text`` reads as for ``exp``: the one reading :func:`grade` grades and :func:`understood` says
    (a bare ``0.4366`` on a question in % is 43.66 % in both)."""
    return exp.answer_kind.read(text, exp)


def understood(text: str, exp: Expected, lang: str = EN) -> tuple[bool, str]:
    """What the engine reads in ``text`` as an answer to ``exp``, without grading: :func:`read`, said.

    ``(True, "= 140 GB")`` or ``(False, reason)``, in ``lang``: the live line
    under an answer box (practice and mock), a number in the unit the question
    asks for when it names one.  True exactly when :func:`grade` would grade
    the text rather than call it unreadable (a symbolic proof that runs out of
    time is the one exception: it is not graded, and says so).
    """
    return exp.answer_kind.understood(text, exp, lang)
