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

import functools
import math
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from . import expr as ex
from .answers import Choice, Parsed, Unreadable, parse_choice, parse_expression, parse_quantity
from .messages import Msg, Said, Twin, say
from .units import KINDS, _BIN, _PREFIXED, fmt_parseable, fmt_plain, fmt_whole, lookup, whole_digits

CORRECT, CLOSE, WRONG, INVALID = "correct", "close", "wrong", "invalid"
DEFAULT_TOLERANCE = 0.05
DEFAULT_CLOSE = 0.20


class Miss(NamedTuple):  # immutable; cheaper to define at import than a frozen dataclass
    """A wrong answer people typically give, with the value it produces.

    ``label`` reads after "Looks like you ..."; ``label_zh`` after "看起来你…".
    """

    key: str
    label: str
    value: float
    label_zh: str = ""

    def label_in(self, lang: str = "en") -> str:
        return self.label_zh if lang == "zh" and self.label_zh else self.label


class Approximation(NamedTuple):
    """A simpler formula that gives (nearly) the right answer for these numbers: ``2 × M`` for 2(N−1)/N × M."""

    key: str
    label: str  # reads after "you": "dropped the (n-1)/n factor (2M is only the large-N limit)"
    label_zh: str
    value: float
    formula: str  # ``2 × M``


@dataclass(frozen=True)
class Expected:
    """The right answer of a problem (or of one step of a chain).

    ``kind`` is ``number``, ``choice``, ``expression`` or ``layout``.  For numbers,
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
    # misconceptions that land within tolerance here (question_bank Step.too_close): an answer that matches
    # one is correct, and the feedback says it is an approximation of ``formula`` (issue 10 §6)
    approximations: tuple["Approximation", ...] = ()
    formula: str = ""  # the exact formula as written (``2 × (N − 1) / N × M``)
    layout: Any = None  # layout answers: the engine.layout.LayoutRules any correct layout meets

    @functools.cached_property  # computed once per problem, not on every answer graded against it
    def display(self) -> str:
        """How a person would write the right answer (parseable back)."""
        if self.kind == "number":
            return display_number(float(self.value), self.unit_kind, self.unit, self.integer)
        if self.kind == "expression":
            node = parse_expression(str(self.value), dict(self.aliases))
            if not isinstance(node, Unreadable):
                return ex.render(node, _shown_names(self.aliases))
        return str(self.value)

    def display_in(self, lang: str = "en") -> str:
        """:attr:`display`, with a choice written as :meth:`Choice.shown` in ``lang``."""
        if self.kind == "choice":
            return _choice_shown(self.choices, str(self.value), lang)
        return self.display


def _choice_shown(choices: tuple[Choice, ...], key: str, lang: str) -> str:
    return next((c.shown(lang) for c in choices if c.key == key), key)


def _shown_names(aliases) -> dict[str, str]:
    """How canonical names are written back: the question's first spelling (``n_dp`` -> ``N``), Φ for phi."""
    return {**{v: k for k, v in reversed(tuple(aliases))}, "phi": "Φ"}


def display_number(value: float, kind: str, unit: str = "", integer: bool = False) -> str:
    """A value as a person writes it, in ``unit`` when given; the parser reads it back."""
    if integer:
        value = float(round(value))
    if not unit:
        if whole_digits(value) > 4 and kind in ("bytes", "count", "flop"):
            return f"{fmt_whole(value, grouped=False)} {KINDS[kind]}" if kind != "count" else fmt_whole(value, grouped=False)
        return fmt_parseable(value, kind)
    u = lookup(unit, kind)
    if u is None:
        raise ValueError(f"unknown unit {unit!r} for {kind}")
    if unit == "%":
        return f"{fmt_plain(u.from_base(value))}%"
    return f"{fmt_whole(u.from_base(value), grouped=False)} {unit}"


@dataclass(frozen=True)
class Verdict:
    """A graded (or unreadable) answer.

    The words are kept as :mod:`engine.messages` data: :attr:`message`,
    :attr:`diagnosis`, :attr:`band` and :attr:`notes` are the English, and
    ``message_in(lang)`` & co. the same in ``"en"`` or ``"zh"``.
    """

    status: str  # correct | close | wrong | invalid
    quality: int | None  # SM-2 quality 0-5; None when invalid (nothing to record)
    said: Said  # the one-line message
    expected: str  # the right answer, shown in the unit the question asks for
    given: str = ""  # the user's value in that same unit
    relative_error: float | None = None  # the judged error: distance(x, e), signed (+ when x > e)
    miss: Miss | None = None  # the misconception matched, if any
    band_said: Said | None = None  # "±5 % correct, ±20 % close"
    parsed: Parsed | None = None
    why: Said | None = None  # invalid: why the answer can't be read
    choices: tuple[Choice, ...] = field(default=())  # choice answers: how given/expected are written
    approximation: Said | None = None  # correct, but by an approximation: the exact formula and value

    @property
    def graded(self) -> bool:
        return self.status != INVALID

    @property
    def message(self) -> str:
        return self.said.text()

    @property
    def diagnosis(self) -> str:
        return self.miss.label if self.miss else ""

    @property
    def diagnosis_key(self) -> str:
        return self.miss.key if self.miss else ""

    @property
    def band(self) -> str:
        return self.band_said.text() if self.band_said else ""

    @property
    def notes(self) -> tuple[str, ...]:
        return self.notes_in("en")

    def message_in(self, lang: str = "en") -> str:
        return self.said.text(lang)

    def reason_in(self, lang: str = "en") -> str:
        """Why an unreadable answer can't be read (``""`` when it was graded)."""
        return self.why.text(lang) if self.why else ""

    def diagnosis_in(self, lang: str = "en") -> str:
        return self.miss.label_in(lang) if self.miss else ""

    def band_in(self, lang: str = "en") -> str:
        return self.band_said.text(lang) if self.band_said else ""

    def notes_in(self, lang: str = "en") -> tuple[str, ...]:
        """How the answer was read, then (for a correct approximation) the exact formula and value."""
        notes = self.parsed.notes_in(lang) if self.parsed is not None else ()
        return notes + ((self.approximation_in(lang),) if self.approximation is not None else ())

    def approximation_in(self, lang: str = "en") -> str:
        """``Exact is … = 3.875 GB; 4 GB is 2 × M, …`` for a correct answer given by an approximation, else ``""``."""
        return self.approximation.text(lang).strip() if self.approximation is not None else ""

    def given_in(self, lang: str = "en") -> str:
        return _choice_shown(self.choices, self.given, lang) if self.choices else self.given

    def expected_in(self, lang: str = "en") -> str:
        return _choice_shown(self.choices, self.expected, lang) if self.choices else self.expected


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


def _percent(x: float) -> str:
    return f"{x * 100:g}"


_BINARY = {"KiB": 2.0**10, "MiB": 2.0**20, "GiB": 2.0**30, "TiB": 2.0**40, "PiB": 2.0**50}
_DECIMAL_OF = {"KiB": ("kB", 1e3), "MiB": ("MB", 1e6), "GiB": ("GB", 1e9), "TiB": ("TB", 1e12), "PiB": ("PB", 1e15)}


def bytes_misses(value: float, unit: str = "GB") -> tuple[Miss, ...]:
    """The GB/GiB and bits/bytes slips, checked for every bytes answer.

    ``unit`` is the unit the question asks for: a question in GB (or B) can be
    answered with a GiB figure (x 0.931), a question in GiB with a GB figure.
    """
    if unit in _BINARY:
        dec, f = _DECIMAL_OF[unit]
        unit_slip = _miss("gb_for_gib", value / f * _BINARY[unit], dec=dec, unit=unit,
                          ratio=fmt_plain(_BINARY[unit] / f))
    else:
        unit_slip = _miss("gib_for_gb", value / 2**30 * 1e9)
    return unit_slip, _miss("bits_for_bytes", value * 8), _miss("bytes_for_bits", value / 8)


def _miss(key: str, value: float, **params: object) -> Miss:
    label = say("miss." + key, **params)
    return Miss(key, label.text("en"), value, label.text("zh"))


LOWERCASE_B = _miss("lowercase_b", 0.0)


def grade(text: str, exp: Expected, *, seconds: float | None = None,
          target_seconds: float | None = None) -> Verdict:
    """Grade the typed ``text`` against ``exp``."""
    if exp.kind == "choice":
        return _grade_choice(text, exp, seconds, target_seconds)
    if exp.kind == "expression":
        return _grade_expression(text, exp, seconds, target_seconds)
    if exp.kind == "layout":
        return _grade_layout(text, exp, seconds, target_seconds)
    return _grade_number(text, exp, seconds, target_seconds)


def understood(text: str, exp: Expected, lang: str = "en") -> tuple[bool, str]:
    """What the engine reads in ``text`` as an answer to ``exp``, without grading.

    ``(True, "= 140 GB")`` or ``(False, reason)``, in ``lang``: the live line
    under an answer box (practice and mock), a number in the unit the question
    asks for when it names one.  True exactly when :func:`grade` would grade
    the text rather than call it unreadable.
    """
    if exp.kind == "choice":
        c = parse_choice(text, exp.choices)
        return (False, c.message_in(lang)) if isinstance(c, Unreadable) else (True, f"= {c.shown(lang)}")
    if exp.kind == "expression":
        node = parse_expression(text, dict(exp.aliases))
        if isinstance(node, Unreadable):
            return False, node.message_in(lang)
        problem = _unevaluable(node)
        if problem is not None:
            return False, problem.text(lang)
        return True, "= " + ex.render(node, _shown_names(exp.aliases))
    if exp.kind == "layout":
        from .layout import understood_layout

        return understood_layout(text, lang)
    p = parse_quantity(text, exp.unit_kind, exp.unit or None)
    if isinstance(p, Unreadable):
        return False, p.message_in(lang)
    two = _two_readings(p, exp)
    if two is not None:
        return False, two.text(lang)
    return True, p.understood_in(lang, shown=display_number(p.value, exp.unit_kind, exp.unit) if exp.unit else "")


def misconception_label(label: str, lang: str = "en") -> str:
    """A misconception label kept in English (a saved mock's ``misconception``) in ``lang``.

    Labels of the formula catalogue and of the unit slips have a Chinese twin;
    any other label is shown as it is.
    """
    if lang != "zh":
        return label
    return MERGED_ZH.join(_labels_zh().get(part, part) for part in label.split(MERGED_EN))


@functools.cache
def _labels_zh() -> dict[str, str]:
    from .formulas import CATALOGUE  # only when a stored label is shown in Chinese

    table = {m.label: m.label_zh for f in CATALOGUE for m in f.misconceptions if m.label_zh}
    for unit in ("GB", *_BINARY):
        table.update((m.label, m.label_zh) for m in bytes_misses(1.0, unit))
    table[LOWERCASE_B.label] = LOWERCASE_B.label_zh
    from .layout import LABELS as LAYOUT_LABELS

    table.update((t.en, t.zh) for t in LAYOUT_LABELS.values())
    return table


def _grade_number(text: str, exp: Expected, seconds, target) -> Verdict:
    e = float(exp.value)
    shown_exp = exp.display
    p = parse_quantity(text, exp.unit_kind, exp.unit or None)
    if isinstance(p, Unreadable):
        return _unreadable(_why(p), shown_exp)
    two = _two_readings(p, exp)
    if two is not None:
        return _unreadable(two, shown_exp)
    x = p.value
    if exp.unit_kind == "ratio" and p.bare:
        # a bare ratio may be a fraction (0.45) or a percentage (45): take the reading nearer the answer
        other, note = ((x * 100, "note.fraction") if exp.unit == "%" else (x / 100, "note.percentage"))
        if distance(other, e) < distance(x, e):
            x = other
            p = Parsed(p.text, x, p.kind, "", (say(note),), bare=True)
    given = display_number(x, exp.unit_kind, exp.unit)
    d = distance(x, e)
    # the error shown is the one judged: the symmetric distance, signed (+ when the answer is larger)
    rel = math.copysign(d, x - e) if x != e else 0.0
    if exp.integer:
        ok = abs(x - e) < 1e-9 * max(1.0, abs(e))
        status = CORRECT if ok else (CLOSE if d <= exp.close else WRONG)
        band = say("band.integer", close=_percent(exp.close))
    else:
        status = CORRECT if d <= exp.tolerance else CLOSE if d <= exp.close else WRONG
        band = say("band.number", tol=_percent(exp.tolerance), close=_percent(exp.close))
    miss = None
    if status != CORRECT:
        miss = _misconception(x, e, p, exp)
    if exp.integer and status == CLOSE and miss is not None:
        status = WRONG  # 9 GPUs "rounded down" cannot hold the model: a named mistake, not a near miss
    q = quality_for(status, misconception=miss is not None, seconds=seconds, target_seconds=target)
    approx = _approximation(x, e, given, exp) if status == CORRECT else None
    error = say("verdict.error", error=f"{rel * 100:+.1f}") if math.isfinite(rel) and round(rel * 100, 1) != 0 else ""
    label = say("verdict.miss", label=Twin(miss.label, miss.label_zh)) if miss is not None else (approx or "")
    headline = say("verdict.wrong_miss") if status == WRONG and miss is not None and d <= exp.close \
        else _headline(status, exp)
    msg = say("verdict.number", headline=headline, given=given, expected=shown_exp, error=error, miss=label)
    return Verdict(status, q, msg, shown_exp, given, rel, miss, band, p, approximation=approx)


def _approximation(x: float, e: float, given: str, exp: Expected) -> Msg | None:
    """"Exact is 2 × (N − 1) / N × M = 3.875 GB; 4 GB is 2 × M ..." when a correct answer is an approximation's.

    Only for an approximation that differs from the exact value by more than rounding (a fifth of
    the tolerance: 1 %), and an answer nearer to it than to the exact value.
    """
    near = [a for a in exp.approximations
            if distance(a.value, e) > exp.tolerance / 5 and distance(x, a.value) < distance(x, e)]
    if not near or not exp.formula:
        return None
    a = min(near, key=lambda a: distance(x, a.value))
    exact = display_number(e, exp.unit_kind, exp.unit, exp.integer)
    tol = f"±{_percent(exp.tolerance)} %"
    return say("verdict.approx", formula=exp.formula, exact=exact, given=given, approx=a.formula,
               label=Twin(a.label, a.label_zh or a.label), tol=tol)


PLAUSIBLE = 0.9  # a reading within 10× of the answer is one a person may have meant


def _two_readings(p: Parsed, exp: Expected) -> Msg | None:
    """Why ``6.2k`` is refused when its two readings are both plausible and differ, else None.

    A suffix on a number without a unit multiplies the base unit (1.5k on a question in ms is
    1500 s); read in the question's unit instead it would be 1500 ms.  When both are within
    10× of the answer, or the second reading is the answer, the grader cannot tell which was
    meant: it says both and grades nothing.
    """
    if p.alt is None or distance(p.value, p.alt) <= exp.tolerance:
        return None
    e = float(exp.value)
    near = distance(p.alt, e) <= exp.close  # read in the question's unit it is (nearly) right: it may be meant
    if not near and (distance(p.value, e) > PLAUSIBLE or distance(p.alt, e) > PLAUSIBLE):
        return None
    one = f"{fmt_plain(p.value)} {KINDS[exp.unit_kind]}"
    two = display_number(p.alt, exp.unit_kind, exp.unit)
    return say("ambiguous", typed=p.text.strip(), one=one, two=two)


def _why(u: Unreadable) -> Said:
    """The reason of an unreadable answer, with what was read before it."""
    return u.why if u.so_far is None else say("so_far", reason=u.why, so_far=u.so_far)


def _unreadable(why: Said, shown_exp: str, choices: tuple[Choice, ...] = ()) -> Verdict:
    return Verdict(INVALID, None, say("verdict.unreadable", reason=why), shown_exp, why=why, choices=choices)


def _headline(status: str, exp: Expected) -> Msg:
    """The verdict with the band that applied."""
    tol, close = f"±{_percent(exp.tolerance)} %", f"±{_percent(exp.close)} %"
    if status == CORRECT:
        return say("verdict.correct") if exp.integer else say("verdict.correct_within", tol=tol)
    if status == CLOSE:
        return say("verdict.close_integer", close=close) if exp.integer else say("verdict.close", close=close, tol=tol)
    return say("verdict.wrong_by", close=close)


MERGED_EN, MERGED_ZH = " — or ", "，或者"


def merged(found: list[Miss]) -> Miss | None:
    """One :class:`Miss` naming every misconception an answer matches, in order.

    For a bf16 KV cache "forgot K and V" (÷ 2) and "counted elements, not
    bytes" (÷ 2 bytes) give the same number: the learner is told both.
    """
    unique = list({m.label: m for m in found}.values())
    if len(unique) <= 1:
        return unique[0] if unique else None
    return Miss("+".join(m.key for m in unique), MERGED_EN.join(m.label for m in unique), unique[0].value,
                MERGED_ZH.join(m.label_in("zh") for m in unique))


def _misconception(x: float, e: float, p: Parsed, exp: Expected) -> Miss | None:
    """The named mistakes a wrong answer matches, merged into one: the template's, else the unit slips."""
    typed = lookup(p.unit, exp.unit_kind) if p.unit and not p.bare else None
    if exp.unit_kind in ("bytes", "bandwidth") and typed is not None and typed.note == "bits" \
            and distance(x * 8, e) <= exp.tolerance:
        return LOWERCASE_B
    slips: tuple[Miss, ...] = ()
    if exp.unit_kind == "bytes":
        slips = bytes_misses(e, exp.unit or "B")
    elif exp.unit_kind == "bandwidth":
        slips = bytes_misses(e, exp.unit or "B/s")[1:]
    return merged(_matching(x, e, exp.misses, exp)) or merged(_matching(x, e, slips, exp)) \
        or _scale_slip(x, e, p, exp)


def _scale_slip(x: float, e: float, p: Parsed, exp: Expected) -> Miss | None:
    """An answer that is the right one times an exact power of 1000 or 1024: the slip, named.

    ``9.664e9`` typed for "in GB" is the figure in bytes; ``0.0045`` for 4.5 GB is the figure
    in TB; 1500 for 1.5 s asked in s is milliseconds.  Not for ratios (45 vs 0.45 is read
    either way) nor counts (no unit to slip).
    """
    kind = exp.unit_kind
    if kind in ("ratio", "count") or not e or not x or (x > 0) != (e > 0):
        return None
    best: tuple[float, float, int] | None = None
    for base in (1000.0, 1024.0):
        k = round(math.log(abs(x / e), base))
        if k == 0 or abs(k) > 6:
            continue
        d = distance(x, e * base**k)
        if d <= exp.tolerance and (best is None or d < best[0]):
            best = (d, base, k)
    if best is None:
        return None
    _, base, k = best
    asked = exp.unit or KINDS[kind]
    u = lookup(asked, kind)
    assert u is not None
    right = fmt_whole(u.from_base(e), grouped=False)
    typed = fmt_whole(u.from_base(x), grouped=False)
    factor = u.to_base(1.0) / base**k  # the unit the typed number is right in
    unit = _unit_with_factor(kind, factor, binary=base == 1024.0) if p.bare else None
    if unit is not None:
        return _miss("scale_unit", x, typed=typed, unit=unit, asked=asked, right=right)
    power = str(abs(k)).translate(_SUPERSCRIPT) if abs(k) > 1 else ""
    way = Twin("large", "大") if k > 0 else Twin("small", "小")
    return _miss("scale", x, n=f"{fmt_plain(base)}{power}", way=way, asked=asked, right=right)


_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def _unit_with_factor(kind: str, factor: float, binary: bool) -> str | None:
    """The unit of ``kind`` worth ``factor`` base units: 1e-3 s is ms, 2^30 B is GiB."""
    if binary:
        if kind not in ("bytes", "bandwidth"):
            return None
        steps = [(p + ("B" if kind == "bytes" else "B/s"), f) for p, f in _BIN.items()]
        steps.append(("B" if kind == "bytes" else "B/s", 1.0))
    else:
        steps = list(_PREFIXED.get(kind, ("", []))[1])
        if kind == "time":
            steps = [(s, f) for s, f in steps if f <= 1] + [("µs", 1e-6)]
    for sym, f in steps:
        if abs(f - factor) <= 1e-9 * f:
            return "µs" if sym == "us" else sym
    return None


def _matching(x: float, e: float, misses: tuple[Miss, ...], exp: Expected) -> list[Miss]:
    found = []
    for m in misses:
        if not m.value:
            continue
        if exp.integer:  # whole numbers: 13 GPUs matches "rounded down" exactly, or not at all
            if round(m.value) == m.value and x == m.value != e:
                found.append(m)
        elif distance(x, m.value) <= exp.tolerance and distance(m.value, e) > exp.tolerance:
            found.append(m)
    return found


def _grade_layout(text: str, exp: Expected, seconds, target) -> Verdict:
    """Any layout meeting ``exp.layout``'s constraints is correct; a wrong one names each broken constraint."""
    from .layout import BAND, LayoutUnreadable, parse_layout, verdict_words

    got = parse_layout(text)
    if isinstance(got, LayoutUnreadable):
        return _unreadable(got.why, str(exp.value))
    broken = exp.layout.broken(got)
    status = WRONG if broken else CORRECT
    miss = merged([Miss(b.key, b.label.en, 0.0, b.label.zh) for b in broken])
    q = quality_for(status, misconception=miss is not None, seconds=seconds, target_seconds=target)
    return Verdict(status, q, verdict_words(got, broken, str(exp.value)), str(exp.value), got.text, miss=miss,
                   band_said=BAND)


def _grade_choice(text: str, exp: Expected, seconds, target) -> Verdict:
    c = parse_choice(text, exp.choices)
    if isinstance(c, Unreadable):
        return _unreadable(_why(c), str(exp.value), exp.choices)
    ok = c.key == exp.value
    status = CORRECT if ok else WRONG
    q = quality_for(status, seconds=seconds, target_seconds=target)
    right = next((x for x in exp.choices if x.key == exp.value), Choice(str(exp.value)))
    msg = say("verdict.correct") if ok else say("verdict.wrong", given=Twin(c.key, c.shown("zh")),
                                                  expected=Twin(right.key, right.shown("zh")))
    return Verdict(status, q, msg, str(exp.value), c.key, band_said=say("band.choice"), choices=exp.choices)


def _grade_expression(text: str, exp: Expected, seconds, target) -> Verdict:
    aliases = dict(exp.aliases)
    want = parse_expression(str(exp.value), aliases)
    if isinstance(want, Unreadable):  # a template bug, not the learner's
        raise ValueError(f"expected expression {exp.value!r} does not parse: {want.reason}")
    shown_names = _shown_names(exp.aliases)
    shown_exp = ex.render(want, shown_names)
    node = parse_expression(text, aliases)
    if isinstance(node, Unreadable):
        return _unreadable(_why(node), shown_exp)
    problem = _unevaluable(node)
    if problem is not None:
        return _unreadable(problem, shown_exp)
    shown = ex.render(node, shown_names)
    from .symbolic import Undecided

    try:
        status = CORRECT if equivalent(node, want) else WRONG
    except Undecided as e:  # too complex, or a limit was reached: not graded, and said why
        return Verdict(INVALID, None, say("verdict.not_graded", reason=e.said), shown_exp, why=e.said)
    q = quality_for(status, seconds=seconds, target_seconds=target)
    msg = say("verdict.correct") if status == CORRECT else say("verdict.wrong", given=shown, expected=shown_exp)
    return Verdict(status, q, msg, shown_exp, shown, band_said=say("band.expression"))


_SPOT_POINTS = 5


def _points(names: set[str], n: int = _SPOT_POINTS) -> list[dict[str, float]]:
    import random  # only symbolic answers need it

    rng = random.Random(1234)
    return [{name: rng.uniform(1.5, 50.0) for name in sorted(names)} for _ in range(n)]


def _unevaluable(node: ex.Node) -> Msg | None:
    """Why an expression has no value anywhere it is checked (``9**9**9**9``, ``Φ/0``), or None."""
    try:
        for env in _points(ex.names_in(node), 2):
            ex.evaluate(node, env)
    except ex.ExprError as e:
        return e.said
    return None


def equivalent(a: ex.Node, b: ex.Node, trials: int = _SPOT_POINTS, checker=None) -> bool:
    """Numeric spot checks at random positive points, then sympy for proof.

    An answer beyond :func:`engine.symbolic.too_complex` raises
    :class:`engine.symbolic.Undecided` before anything else runs.  The proof
    runs in a worker process under a time and memory limit
    (:class:`engine.symbolic.Checker`; ``checker`` defaults to the shared one):
    past a limit, :class:`~engine.symbolic.Undecided`.  Rational expressions are
    decided exactly by ``cancel``; what sympy cannot decide either way is decided
    by the spot checks.
    """
    from . import symbolic

    problem = symbolic.too_complex(a, b)
    if problem is not None:
        raise symbolic.Undecided(problem)
    for env in _points(ex.names_in(a) | ex.names_in(b), trials):
        try:
            va, vb = ex.evaluate(a, env), ex.evaluate(b, env)
        except ex.ExprError:
            return False
        if distance(va, vb) > 1e-9:
            return False
    verdict = (checker or symbolic.checker()).equal(a, b)
    return verdict is not False  # undecided by sympy: trust the spot checks
