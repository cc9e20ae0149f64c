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
        if self.kind == "expression":
            node = parse_expression(str(self.value), dict(self.aliases))
            if not isinstance(node, Unreadable):
                return ex.render(node, _shown_names(self.aliases))
        return str(self.value)


def _shown_names(aliases) -> dict[str, str]:
    """How canonical names are written back: the question's first spelling (``n_dp`` -> ``N``), Φ for phi."""
    return {**{v: k for k, v in reversed(tuple(aliases))}, "phi": "Φ"}


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
        return f"{fmt_plain(u.from_base(value))}%"
    return f"{fmt_plain(u.from_base(value))} {unit}"


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


_BINARY = {"KiB": 2.0**10, "MiB": 2.0**20, "GiB": 2.0**30, "TiB": 2.0**40, "PiB": 2.0**50}
_DECIMAL_OF = {"KiB": ("kB", 1e3), "MiB": ("MB", 1e6), "GiB": ("GB", 1e9), "TiB": ("TB", 1e12), "PiB": ("PB", 1e15)}


def bytes_misses(value: float, unit: str = "GB") -> tuple[Miss, ...]:
    """The GB/GiB and bits/bytes slips, checked for every bytes answer.

    ``unit`` is the unit the question asks for: a question in GB (or B) can be
    answered with a GiB figure (x 0.931), a question in GiB with a GB figure.
    """
    if unit in _BINARY:
        dec, f = _DECIMAL_OF[unit]
        unit_slip = Miss("gb_for_gib", f"gave the {dec} figure where {unit} was asked "
                                       f"(1 {unit} = {fmt_plain(_BINARY[unit] / f)} {dec})", value / f * _BINARY[unit])
    else:
        unit_slip = Miss("gib_for_gb", "gave a GiB figure where GB was asked (1 GiB = 1.074 GB; GB = 1e9 B)",
                         value / 2**30 * 1e9)
    return (
        unit_slip,
        Miss("bits_for_bytes", "gave bits instead of bytes (× 8)", value * 8),
        Miss("bytes_for_bits", "divided by 8 somewhere (bits and bytes mixed up)", value / 8),
    )


LOWERCASE_B = Miss("lowercase_b", "wrote a lower-case b (bits) where B (bytes) was meant", 0.0)


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
    if exp.unit_kind == "ratio" and p.bare:
        # a bare ratio may be a fraction (0.45) or a percentage (45): take the reading nearer the answer
        other, note = ((x * 100, "read as a fraction, not a percentage") if exp.unit == "%"
                       else (x / 100, "read as a percentage"))
        if distance(other, e) < distance(x, e):
            x = other
            p = Parsed(p.text, x, p.kind, "", (note,), bare=True)
    given = display_number(x, exp.unit_kind, exp.unit)
    rel = (x - e) / abs(e) if e else (0.0 if x == 0 else math.inf)
    d = distance(x, e)
    band = _band(exp)
    if exp.integer:
        ok = abs(x - e) < 1e-9 * max(1.0, abs(e))
        status = CORRECT if ok else (CLOSE if d <= exp.close else WRONG)
        band = f"exact whole number correct, ±{exp.close * 100:g} % close"
    else:
        status = CORRECT if d <= exp.tolerance else CLOSE if d <= exp.close else WRONG
    miss = None
    if status != CORRECT:
        miss = _misconception(x, e, p, exp)
    q = quality_for(status, misconception=miss is not None, seconds=seconds, target_seconds=target)
    msg = _headline(status, exp) + f" You: {given}; expected: {shown_exp}"
    if math.isfinite(rel) and round(rel * 100, 1) != 0:
        msg += f" ({rel * 100:+.1f} %)"
    msg += "."
    if miss is not None:
        msg += f" Looks like you {miss.label}."
    return Verdict(status, q, msg, shown_exp, given, rel, miss.label if miss else "", miss.key if miss else "",
                   band, p, p.notes)


def _headline(status: str, exp: Expected) -> str:
    """The verdict with the band that applied."""
    tol, close = f"±{exp.tolerance * 100:g} %", f"±{exp.close * 100:g} %"
    if status == CORRECT:
        return "Correct." if exp.integer else f"Correct (within {tol})."
    if status == CLOSE:
        need = "the exact whole number" if exp.integer else tol
        return f"Close: within {close}, but correct needs {need}."
    return f"Wrong: more than {close} off."


def _misconception(x: float, e: float, p: Parsed, exp: Expected) -> Miss | None:
    """The named mistake a wrong answer matches: the template's first, then unit slips."""
    if exp.unit_kind in ("bytes", "bandwidth") and any("bits" in n for n in p.notes) \
            and distance(x * 8, e) <= exp.tolerance:
        return LOWERCASE_B
    misses = exp.misses
    if exp.unit_kind == "bytes":
        misses += bytes_misses(e, exp.unit or "B")
    elif exp.unit_kind == "bandwidth":
        misses += bytes_misses(e, exp.unit or "B/s")[1:]
    for m in misses:
        if not m.value:
            continue
        if exp.integer:  # whole numbers: 13 GPUs matches "rounded down" exactly, or not at all
            if round(m.value) == m.value and x == m.value != e:
                return m
        elif distance(x, m.value) <= exp.tolerance and distance(m.value, e) > exp.tolerance:
            return m
    return None


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
    want = parse_expression(str(exp.value), aliases)
    if isinstance(want, Unreadable):  # a template bug, not the learner's
        raise ValueError(f"expected expression {exp.value!r} does not parse: {want.reason}")
    shown_names = _shown_names(exp.aliases)
    shown_exp = ex.render(want, shown_names)
    node = parse_expression(text, aliases)
    if isinstance(node, Unreadable):
        return Verdict(INVALID, None, f"Can't read this answer: {node.message}", shown_exp)
    problem = _unevaluable(node)
    if problem:
        return Verdict(INVALID, None, f"Can't read this answer: {problem}", shown_exp)
    shown = ex.render(node, shown_names)
    status = CORRECT if equivalent(node, want) else WRONG
    q = quality_for(status, seconds=seconds, target_seconds=target)
    msg = "Correct." if status == CORRECT else f"Wrong. You: {shown}; expected: {shown_exp}."
    return Verdict(status, q, msg, shown_exp, shown, band="symbolically equivalent")


_SPOT_POINTS = 5
_MAX_SYMBOLIC_POWER = 16  # beyond this sympy may expand for seconds: the spot checks decide


def _points(names: set[str], n: int = _SPOT_POINTS) -> list[dict[str, float]]:
    import random  # only symbolic answers need it

    rng = random.Random(1234)
    return [{name: rng.uniform(1.5, 50.0) for name in sorted(names)} for _ in range(n)]


def _unevaluable(node: ex.Node) -> str:
    """Why an expression has no value anywhere it is checked (``9**9**9**9``, ``Φ/0``), or ``""``."""
    try:
        for env in _points(ex.names_in(node), 2):
            ex.evaluate(node, env)
    except ex.ExprError as e:
        return str(e)
    return ""


def _max_power(node: ex.Node) -> float:
    if isinstance(node, ex.Bin):
        own = abs(node.right.value) if node.op == "^" and isinstance(node.right, ex.Num) else 0.0
        if node.op == "^" and not isinstance(node.right, ex.Num):
            own = math.inf
        return max(own, _max_power(node.left), _max_power(node.right))
    if isinstance(node, ex.Neg):
        return _max_power(node.operand)
    return 0.0


def equivalent(a: ex.Node, b: ex.Node, trials: int = _SPOT_POINTS) -> bool:
    """Numeric spot checks at random positive points, then sympy for proof.

    sympy is imported only here (about 0.7 s the first time).  Rational
    expressions are decided exactly by ``cancel``; anything it cannot decide,
    or with powers so large that sympy could expand for seconds, is decided by
    the spot checks alone.
    """
    for env in _points(ex.names_in(a) | ex.names_in(b), trials):
        try:
            va, vb = ex.evaluate(a, env), ex.evaluate(b, env)
        except ex.ExprError:
            return False
        if distance(va, vb) > 1e-9:
            return False
    if max(_max_power(a), _max_power(b)) > _MAX_SYMBOLIC_POWER:
        return True
    import sympy

    diff = ex.to_sympy(a) - ex.to_sympy(b)
    if sympy.cancel(diff) == 0:
        return True
    verdict = sympy.simplify(diff).is_zero
    return verdict is not False  # undecided: trust the spot checks
