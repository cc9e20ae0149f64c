"""Grading: how exactly an answer is right or wrong.

:func:`grade` takes the text a person typed and an :class:`Expected` answer and
returns a :class:`Verdict`: ``correct`` / ``close`` / ``wrong`` / ``invalid``,
the relative error, the misconception it matches (if any), the band that
applied and the SM-2 quality.  An unreadable answer is ``invalid`` - never
``wrong`` - and carries the parser's reason.

Distance between an answer ``x`` and the expected ``e`` is
``|x - e| / max(|x|, |e|)``: symmetric (swapping them gives the same verdict)
and scale-invariant; every answer rounded to two significant figures is
within 5 % of the exact value.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from . import expr as ex
from .answers import Choice, Parsed, Unreadable, parse_choice, parse_expression, parse_quantity
from .units import fmt_parseable, fmt_plain, lookup

CORRECT, CLOSE, WRONG, INVALID = "correct", "close", "wrong", "invalid"
DEFAULT_TOLERANCE = 0.05
DEFAULT_CLOSE = 0.20


@dataclass(frozen=True)
class Miss:
    """A wrong answer people typically give, with the value it produces."""

    key: str
    label: str
    value: float


@dataclass(frozen=True)
class Expected:
    """The right answer of a problem (or of one step of a chain).

    ``kind`` is ``number``, ``choice`` or ``expression``.  For numbers,
    ``value`` is in base units of ``unit_kind`` and ``unit`` is the unit the
    question asks for (a bare typed number is read in it).
    """

    kind: str = "number"
    value: float | str = 0.0
    unit_kind: str = "ratio"
    unit: str = ""
    tolerance: float = DEFAULT_TOLERANCE
    close: float = DEFAULT_CLOSE
    misses: tuple[Miss, ...] = ()
    choices: tuple[Choice, ...] = ()
    # expression answers: canonical expression text and accepted spellings of names
    aliases: tuple[tuple[str, str], ...] = ()
    integer: bool = False  # counts such as "how many GPUs": must be the exact integer

    @property
    def display(self) -> str:
        """How a person would write the right answer (parseable back)."""
        if self.kind == "number":
            return display_number(float(self.value), self.unit_kind, self.unit, self.integer)
        return str(self.value)


def display_number(value: float, kind: str, unit: str = "", integer: bool = False) -> str:
    """A value as a person writes it, in ``unit`` when given; the parser reads it back."""
    if integer:
        value = float(round(value))
    if not unit:
        return fmt_parseable(value, kind)
    u = lookup(unit, kind)
    if u is None:
        raise ValueError(f"unknown unit {unit!r} for {kind}")
    if unit == "%":
        return f"{fmt_plain(value / u.factor)}%"
    return f"{fmt_plain(value / u.factor)} {unit}"


@dataclass(frozen=True)
class Verdict:
    status: str  # correct | close | wrong | invalid
    quality: int | None  # SM-2 quality 0-5; None when invalid (nothing to record)
    message: str
    expected: str  # the right answer, shown in the unit the question asks for
    given: str = ""  # the user's value in that same unit
    relative_error: float | None = None  # signed (x - e) / e
    diagnosis: str = ""  # the misconception matched, if any
    diagnosis_key: str = ""
    band: str = ""  # "±5 % correct, ±20 % close"
    parsed: Parsed | None = None
    notes: tuple[str, ...] = field(default=())

    @property
    def graded(self) -> bool:
        return self.status != INVALID


def distance(x: float, e: float) -> float:
    """``|x - e| / max(|x|, |e|)``: symmetric and scale-invariant."""
    if x == e:
        return 0.0
    return abs(x - e) / max(abs(x), abs(e))


def quality_for(status: str, *, misconception: bool = False, seconds: float | None = None,
                target_seconds: float | None = None, dont_know: bool = False) -> int | None:
    """The one mapping from a verdict to SM-2 quality (0-5).

    correct within the target time 5, correct 4, close 3, wrong matching a
    named misconception 2, wrong 1, "I don't know" 0; invalid -> None.
    """
    if dont_know:
        return 0
    if status == CORRECT:
        if seconds is not None and target_seconds is not None and seconds <= target_seconds:
            return 5
        return 4
    if status == CLOSE:
        return 3
    if status == WRONG:
        return 2 if misconception else 1
    return None


def _band(exp: Expected) -> str:
    return f"±{exp.tolerance * 100:g} % correct, ±{exp.close * 100:g} % close"


def bytes_misses(value: float) -> tuple[Miss, ...]:
    """GB/GiB and bits/bytes slips, checked for every bytes answer."""
    return (
        Miss("gib_for_gb", "typed a GiB figure where GB was meant (1 GiB = 1.074 GB)", value / 2**30 * 1e9),
        Miss("gb_for_gib", "typed a GB figure where GiB was meant", value / 1e9 * 2**30),
        Miss("bits_for_bytes", "gave bits instead of bytes (× 8)", value * 8),
        Miss("bytes_for_bits", "divided by 8 (bytes read as bits)", value / 8),
    )


def grade(text: str, exp: Expected, *, seconds: float | None = None,
          target_seconds: float | None = None) -> Verdict:
    """Grade the typed ``text`` against ``exp``."""
    if exp.kind == "choice":
        return _grade_choice(text, exp, seconds, target_seconds)
    if exp.kind == "expression":
        return _grade_expression(text, exp, seconds, target_seconds)
    return _grade_number(text, exp, seconds, target_seconds)


def _grade_number(text: str, exp: Expected, seconds, target) -> Verdict:
    e = float(exp.value)
    shown_exp = exp.display
    p = parse_quantity(text, exp.unit_kind, exp.unit or None)
    if isinstance(p, Unreadable):
        return Verdict(INVALID, None, f"Can't read this answer: {p.message}", shown_exp)
    x = p.value
    if exp.unit_kind == "ratio" and p.bare and exp.unit == "%":
        # a bare ratio may be a fraction (0.45) or a percentage (45): take the reading nearer the answer
        as_fraction = x * 100
        if distance(as_fraction, e) < distance(x, e):
            x = as_fraction
            p = Parsed(p.text, x, p.kind, "", ("read as a fraction, not a percentage",), bare=True)
    given = display_number(x, exp.unit_kind, exp.unit)
    rel = (x - e) / abs(e) if e else (0.0 if x == 0 else math.inf)
    d = distance(x, e)
    band = _band(exp)
    if exp.integer:
        ok = abs(x - e) < 1e-9 * max(1.0, abs(e))
        status = CORRECT if ok else (CLOSE if d <= exp.close else WRONG)
        band = "exact integer"
    else:
        status = CORRECT if d <= exp.tolerance else CLOSE if d <= exp.close else WRONG
    miss = None
    if status != CORRECT:
        misses = exp.misses + (bytes_misses(e) if exp.unit_kind == "bytes" else ())
        for m in misses:
            if m.value and distance(x, m.value) <= exp.tolerance and distance(m.value, e) > exp.tolerance:
                miss = m
                break
    q = quality_for(status, misconception=miss is not None, seconds=seconds, target_seconds=target)
    msg = {CORRECT: "Correct.", CLOSE: "Close, but outside the correct band.", WRONG: "Wrong."}[status]
    msg += f" You: {given}; expected: {shown_exp}"
    if math.isfinite(rel) and round(rel * 100, 1) != 0:
        msg += f" ({rel * 100:+.1f} %)"
    msg += "."
    if miss is not None:
        msg += f" Looks like you {miss.label}."
    return Verdict(status, q, msg, shown_exp, given, rel, miss.label if miss else "", miss.key if miss else "",
                   band, p, p.notes)


def _grade_choice(text: str, exp: Expected, seconds, target) -> Verdict:
    c = parse_choice(text, exp.choices)
    if isinstance(c, Unreadable):
        return Verdict(INVALID, None, f"Can't read this answer: {c.message}", str(exp.value))
    ok = c.key == exp.value
    status = CORRECT if ok else WRONG
    q = quality_for(status, seconds=seconds, target_seconds=target)
    msg = "Correct." if ok else f"Wrong. You: {c.key}; expected: {exp.value}."
    return Verdict(status, q, msg, str(exp.value), c.key, band="exact choice")


def _grade_expression(text: str, exp: Expected, seconds, target) -> Verdict:
    aliases = dict(exp.aliases)
    node = parse_expression(text, aliases)
    if isinstance(node, Unreadable):
        return Verdict(INVALID, None, f"Can't read this answer: {node.message}", str(exp.value))
    want = parse_expression(str(exp.value), aliases)
    assert not isinstance(want, Unreadable), want
    status = CORRECT if equivalent(node, want) else WRONG
    q = quality_for(status, seconds=seconds, target_seconds=target)
    shown = ex.render(node)
    msg = "Correct." if status == CORRECT else f"Wrong. You: {shown}; expected: {exp.value}."
    return Verdict(status, q, msg, str(exp.value), shown, band="symbolically equivalent")


def equivalent(a: ex.Node, b: ex.Node, trials: int = 5) -> bool:
    """Numeric spot checks at random positive points, then sympy for proof."""
    names = sorted(ex.names_in(a) | ex.names_in(b))
    rng = random.Random(1234)
    for _ in range(trials):
        env = {n: rng.uniform(1.5, 50.0) for n in names}
        try:
            va, vb = ex.evaluate(a, env), ex.evaluate(b, env)
        except ex.ExprError:
            return False
        if distance(va, vb) > 1e-9:
            return False
    try:
        import sympy

        return sympy.simplify(ex.to_sympy(a) - ex.to_sympy(b)) == 0
    except Exception:  # pragma: no cover - sympy could not decide: trust the spot checks
        return True
