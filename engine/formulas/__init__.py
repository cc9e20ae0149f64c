"""The formula catalogue: every formula of ``shared/spec/formulas.md``, defined once.

A :class:`Formula` is a name, typed inputs, one expression in the safe language
of :mod:`engine.expr`, and the wrong formulas people typically use instead.
That single definition serves every use:

* numeric evaluation (:meth:`Formula.evaluate`) - no sympy involved;
* the worked solution (:meth:`Formula.worked`): the whiteboard derivation - where
  each factor comes from, the intermediate values with their units, the formula,
  the numbers substituted, the result, the simplification, one takeaway - in
  English or Chinese; :meth:`Formula.solution` is its bare core (formula,
  substitution, result);
* misconception values (:meth:`Formula.misconception_values`) for the grader;
* the formula card (``question_bank.cards``): symbols, decomposition, a worked
  example with round numbers, the typical mistakes, the readable source;
* a symbolic form (:meth:`Formula.symbolic`), built lazily with sympy.

The package, by what changes together:

* :mod:`.core`: the machinery (:class:`Input`, :class:`Choice`, :class:`Part`,
  :class:`Misconception`, :class:`Formula` and its worked solution, :class:`FormulaError`);
* :mod:`.inputs`: every input, each meaning declared once (bilingual meaning, unit kind,
  symbol, valid range, default or choices); formulas bind them under their spec names;
* :mod:`.registry`: what the topic modules register into, and the catalogue's listed order;
* one module per topic, each a list of formulas: :mod:`.memory`, :mod:`.parallelism`,
  :mod:`.communication`, :mod:`.compute`, :mod:`.inference`, :mod:`.serving`,
  :mod:`.quantisation`, :mod:`.roofline`, :mod:`.attention`, :mod:`.pipeline`, :mod:`.moe`, and the
  2026 interview topics :mod:`.cost`, :mod:`.capacity`, :mod:`.disaggregation`,
  :mod:`.post_training`, :mod:`.checkpointing`, :mod:`.long_context`, :mod:`.network`, and part 4's
  :mod:`.queueing`, :mod:`.facility`, :mod:`.rl`, :mod:`.expert_parallel`, :mod:`.tensor_parallel`,
  :mod:`.fsdp`, :mod:`.data_pipeline`.

Adding a formula is one entry in the ``register(...)`` call of its topic module (a new
topic is a new module named in :data:`.registry.TOPICS`); its inputs come from :mod:`.inputs` (declare a new
meaning there, never an ``Input(...)`` inline).  ``CATALOGUE``, ``FORMULAS`` and :func:`get`
are read-only views of the registry; nothing outside the package needs to know the split.
A topic module is imported when one of its formulas is first asked for (:func:`get`) or the whole
catalogue is read (see :mod:`.registry`).

How to give a formula its teaching content (keyword arguments of :class:`Formula`;
tests/unit/test_teaching.py checks every formula a template uses):

* ``decomposition`` / ``decomposition_zh``: one or two lines saying where each factor
  comes from, in words and symbols ("2Φ bf16 weights + 2Φ bf16 gradients + 12Φ fp32
  AdamW states = 16Φ").  ``{name}`` is replaced by the value of an input, a part or
  ``result``, shown with its unit ("Φ = {phi}" -> "Φ = 7 × 10¹⁰").
* ``parts``: named intermediate values, each a :class:`Part` (name, shown symbol, an
  expression of the inputs and earlier parts, its unit kind, a label in both languages).
  Each is printed as ``KV/token = 2 × bytes × L × n_kv × d_head = 2 × 2 × 80 × 8 × 128 =
  327680 B (327.7 kB)  (K and V of every layer)`` before the formula.  ``via`` rewrites the
  formula with the parts ("kv_token*batch*seq"); its numbers are shown after the
  substitution, and build_problem checks it gives the same value.
* ``simplification`` / ``simplification_zh``: the limit or closed form a strong candidate
  mentions (2(N−1)/N → 2 for large N), placeholders as above.
* ``takeaway`` / ``takeaway_zh``: ONE line, what the interviewer wants to hear.
* ``example``: round-number inputs for the card's worked example (base units).
* ``refs``: readable sources beyond the seed sections of ``source``: keys of
  :data:`engine.sources.SOURCES`, comma-separated ("rajbhandari2020").  ``source``
  keeps the internal seed codes (R§/C§), which are never shown: users see
  :func:`engine.sources.cite` (:attr:`Formula.readable_source`).
* an input's Chinese meaning, range, default and choices: its declaration in :mod:`.inputs`.
A template can override the decomposition, simplification and takeaway per question
(``question_bank.spec.Ask``).
"""

from __future__ import annotations

from collections.abc import Mapping

from ..messages import join, say
from . import registry
from .core import (  # noqa: F401  (re-exported: engine.formulas is the one import path)
    GREEK,
    TAKEAWAY,
    Choice,
    Derivation,
    Formula,
    FormulaError,
    Input,
    Misconception,
    Part,
    Requirement,
    fill,
    result_text,
)
from .inputs import PHI, PREFILL_MFU  # noqa: F401  (tests build a formula from PHI; realism tells a prefill's MFU)
from .roofline import bound_solution, classify_bound, ridge_line  # noqa: F401

CATALOGUE: tuple[Formula, ...]  # every formula, in the listed order (imports every topic module when first read)
FORMULAS: Mapping[str, Formula]  # name -> formula, read-only, in that order (the same)


def __getattr__(name: str):
    """``CATALOGUE`` and ``FORMULAS``, made when first read: the first problem needs one topic module, not all."""
    if name == "CATALOGUE":
        value: tuple[Formula, ...] | Mapping[str, Formula] = registry.catalogue()
    elif name == "FORMULAS":
        value = registry.by_name()
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def get(name: str) -> Formula:
    """The formula called ``name`` (its topic module imported if it was not); an unknown name is a
    FormulaError suggesting the nearest ones."""
    found = registry.find(name)
    if found is not None:
        return found
    import difflib

    near = difflib.get_close_matches(name, [f.name for f in registry.catalogue()], n=3)
    hint = say("formula.did_you_mean", names=join(near, en=" or ", zh=" 或 ")) if near else ""
    raise FormulaError(say("formula.unknown", name=name, hint=hint))
