"""Answer kinds: what an answer is, and everything that depends on it.

A problem's step is answered with a number in a unit (``1.12 TB``), one of a few
choices (``memory-bound``), a symbolic expression (``2Φ + 14Φ/N``) or a parallel
layout (``tp=8 pp=2 dp=4``).  Each kind is a class here that knows how to read,
grade, show and explain an answer of its kind; everything else (the grader, the
bank, the app's answer box, ``drill ask``) asks the kind instead of testing its
name, so adding a kind is one class in this module (and its name in
:class:`engine.verdicts.KindName`).

:attr:`engine.grading.Expected.kind` stays the kind's *name*, which is what save
files and ``--json`` output hold; :func:`register` puts each class in
:data:`engine.verdicts.ANSWER_KINDS` under it, and :attr:`Expected.answer_kind`
gives it (:mod:`engine.grading` imports this module, so every kind is registered
before anything is graded).  The words a kind says live in the
text table (:mod:`engine.messages`), keyed by language.
"""

from __future__ import annotations

import math
import re
from typing import Any, ClassVar

from engine.langs import EN, ZH

from . import count_nouns as cn
from . import expr as ex
from .answers import Parsed, Unreadable, parse_quantity
from .choices import Choice, parse_choice
from .count_nouns import Noun
from .messages import Msg, Said, Twin, join, say
from .symbolic_answers import parse_expression
from .typography import typeset, unit_in
from .units import BIN, KINDS, PREFIXED, UNIT_KINDS, fmt_plain, fmt_whole, lookup
from .verdicts import (
    ANSWER_KINDS,
    CLOSE,
    CONVENTION,
    CORRECT,
    INVALID,
    LOWERCASE_B,
    WRONG,
    ByConvention,
    Expected,
    KindName,
    Miss,
    Reading,
    Verdict,
    by_factor,
    bytes_misses,
    choice_shown,
    display_number,
    distance,
    equivalent,
    factor_text,
    merged,
    named_miss,
    names_shown,
    percent_text,
    quality_for,
    unevaluable,
    unreadable_reading,
    unreadable_verdict,
    why_unreadable,
)

PLAUSIBLE = 0.9  # a reading within 10× of the answer is one a person may have meant
_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


class AnswerKind:
    """One kind of answer.  Subclasses set :attr:`name` and override what differs.

    The defaults fit a kind whose expected value is its own display (a choice key,
    a layout's text).
    """

    name: ClassVar[str] = ""
    # grading may take seconds (a symbolic proof): the app grades it off the UI thread
    slow: ClassVar[bool] = False
    # graded within a tolerance band, in a unit: the band and unit are shown and stored with the answer
    measured: ClassVar[bool] = False

    def grade(self, text: str, exp: Expected, seconds: float | None = None,
              target: float | None = None) -> Verdict:
        """The verdict on ``text`` (see :func:`engine.grading.grade`)."""
        raise NotImplementedError

    def read(self, text: str, exp: Expected) -> Reading:
        """What ``text`` reads as for ``exp``: the reading :meth:`grade` grades and the live line shows."""
        raise NotImplementedError

    def understood(self, text: str, exp: Expected, lang: str = EN) -> tuple[bool, str]:
        """What ``text`` reads as, without grading (see :func:`engine.grading.understood`): :meth:`read`, said."""
        r = self.read(text, exp)
        return r.readable, r.text(lang)

    def display(self, exp: Expected) -> str:
        """How a person would write the right answer (parseable back)."""
        return str(exp.value)

    def display_in(self, exp: Expected, lang: str = EN) -> str:
        """:meth:`display` in ``lang``."""
        return exp.display

    def recorded(self, verdict: Verdict) -> Any:
        """The value a review row keeps for a graded answer: what was typed, as understood."""
        return verdict.given

    def hint(self, exp: Expected) -> Said:
        """What the answer takes, for a prompt printed without an answer box (``drill ask``)."""
        raise NotImplementedError

    def placeholder(self, exp: Expected) -> Said | None:
        """The answer box's hint, or None for the screen's own (a number's example answer)."""
        return None


def register(cls: type[AnswerKind]) -> type[AnswerKind]:
    """Add an answer kind to :data:`ANSWER_KINDS` under its name (one instance: kinds hold no state)."""
    if not cls.name or cls.name in ANSWER_KINDS:
        raise ValueError(f"answer kind {cls.name!r} has no name or is registered twice")
    ANSWER_KINDS[cls.name] = cls()
    return cls


# --------------------------------------------------------------------------- #
# A number in a unit


@register
class NumberKind(AnswerKind):
    """A quantity of a unit kind (``1.12 TB``, ``45 %``, ``14 GPUs``), right within a tolerance band.

    Whiteboard answers are read (``989 TFLOPS / 3.35 TB/s``); an answer that reads two plausible
    ways is refused, not graded; a wrong one is matched against the template's misconceptions,
    then the unit slips (GB for GiB, bits for bytes, a prefix off by 1000).
    """

    name = KindName.NUMBER
    measured = True

    def read(self, text: str, exp: Expected) -> Reading:
        p = parse_quantity(text, exp.unit_kind, exp.unit or None, per_gpu=exp.per_gpu)
        if isinstance(p, Unreadable):
            return unreadable_reading(why_unreadable(p))
        if exp.noun and p.noun and not cn.accepts(Noun(exp.noun), Noun(p.noun)):  # 16 GPUs for a count of requests
            asked, typed = Noun(exp.noun), Noun(p.noun)
            number = fmt_plain(p.value)
            why = say("count_noun", asked=Twin(asked.value, cn.name_zh(asked)), typed=Twin(typed.value, cn.name_zh(typed)),
                      number=number, written=Twin(*cn.counted(number, asked)))
            return Reading(False, why, parsed=p)  # not graded; the reading is kept to say which noun was read
        two = _two_readings(p, exp) or _bare_scale(p, exp)
        if two is not None:
            return unreadable_reading(two)
        x = p.value
        if UNIT_KINDS[exp.unit_kind].percent and p.bare:
            # a bare ratio may be a fraction (0.45) or a percentage (45): take the reading nearer the answer
            e = float(exp.value)
            other, note = ((x * 100, "note.fraction") if exp.unit == "%" else (x / 100, "note.percentage"))
            if distance(other, e) < distance(x, e):
                x = other
                p = Parsed(p.text, x, p.kind, "", (say(note),), bare=True)
        shown = display_number(x, exp.unit_kind, exp.unit) if exp.unit else ""
        return Reading(True, p.understood_said(shown), x, p)

    def grade(self, text: str, exp: Expected, seconds=None, target=None) -> Verdict:
        e = float(exp.value)
        shown_exp = exp.display
        r = self.read(text, exp)
        if not r.readable or r.parsed is None:
            return unreadable_verdict(r.said, shown_exp, reading=r)
        p, x = r.parsed, float(r.value)
        given = display_number(x, exp.unit_kind, exp.unit)
        d = distance(x, e)
        # the error shown is the one judged: the symmetric distance, signed (+ when the answer is larger)
        rel = math.copysign(d, x - e) if x != e else 0.0
        if exp.integer:
            ok = abs(x - e) < 1e-9 * max(1.0, abs(e))
            status = CORRECT if ok else (CLOSE if d <= exp.close else WRONG)
            band = say("band.integer", close=percent_text(exp.close))
        else:
            status = CORRECT if d <= exp.tolerance else CLOSE if d <= exp.close else WRONG
            band = say("band.number", tol=percent_text(exp.tolerance), close=percent_text(exp.close))
        miss = None
        conv: tuple[ByConvention, ...] = ()
        if status != CORRECT:
            conv = _by_convention(x, e, exp)
            if conv:
                status = CONVENTION  # right by another published convention: named, and a pass
            else:
                miss = _misconception(x, e, p, exp)
        if exp.integer and status == CLOSE and miss is not None:
            status = WRONG  # 9 GPUs "rounded down" cannot hold the model: a named mistake, not a near miss
        q = quality_for(status, misconception=miss is not None, seconds=seconds, target_seconds=target)
        approx = _approximation(x, e, given, exp) if status == CORRECT else None
        if status == CORRECT and approx is None:
            conv = _also_convention(x, e, exp)  # correct, and nearer another convention's value: say so
        conv_said = _convention_words(conv, shown_exp, status) if conv else None
        ratio = x / e if e else None
        error_said = _error_said(x, e, rel, exp, slip_named=miss is not None)
        error = say("verdict.error", error=error_said) if error_said is not None else ""
        label: Said | str = say("verdict.miss", label=Twin(miss.label, miss.label_zh)) if miss is not None \
            else (approx or conv_said or "")
        if miss is not None and (shadowed := tuple(c for c in exp.conventions if _matches(x, c.value, exp))):
            # the mistake won over a convention with its value (12Φ: "only the AdamW states", QLoRA's count): say both
            label = join([label, _convention_words(shadowed, shown_exp, CORRECT)], en="", zh="")
        headline = say("verdict.wrong_miss") if status == WRONG and miss is not None and d <= exp.close \
            else _headline(status, exp)
        msg = say("verdict.number", headline=headline, given=Twin(typeset(given, EN), typeset(given, ZH)),
                  expected=Twin(typeset(shown_exp, EN), typeset(shown_exp, ZH)), error=error, miss=label)
        return Verdict(status, q, msg, shown_exp, given, rel, miss, band, p, approximation=approx,
                       convention=conv, convention_said=conv_said, ratio=ratio, error_said=error_said, reading=r)

    def display(self, exp: Expected) -> str:
        return display_number(float(exp.value), exp.unit_kind, exp.unit, exp.integer)

    def display_in(self, exp: Expected, lang: str = EN) -> str:
        return typeset(exp.display, lang)  # 5.533 天, 2 张 GPU in Chinese; 45 % in both

    def recorded(self, verdict: Verdict) -> Any:
        """The value in base units, whatever unit it was typed in."""
        return verdict.parsed.value if verdict.parsed is not None else None

    def hint(self, exp: Expected) -> Said:
        if exp.integer:
            return say("hint.integer")
        # the unit as the language writes it: 答案单位：天
        return say("hint.unit", unit=Twin(exp.unit, unit_in(exp.unit, ZH))) if exp.unit else say("hint.plain")


def _error_said(x: float, e: float, rel: float, exp: Expected, slip_named: bool) -> Said | None:
    """How far off ``x`` is, as people say it: "+12.3 %" within a factor of 2, "about 4.46× too high" beyond.

    A factor near a power of 1000 adds the unit slip it looks like ("about 1,000× too low: a GB/TB
    slip?"), unless a named mistake already says so.  None when the answer is on the dot.
    """
    if not math.isfinite(rel) or round(rel * 100, 1) == 0:
        return None
    ratio = x / e if e else math.inf
    if not by_factor(ratio):
        return Twin(f"{rel * 100:+.1f} %")  # the same in both languages
    high = ratio > 1
    n = factor_text(ratio if high else 1 / ratio)
    slip: Said | str = "" if slip_named else _slip_hint(ratio, exp)
    return say("error.high" if high else "error.low", n=n, slip=slip)


def _slip_hint(ratio: float, exp: Expected) -> Said | str:
    """": a GB/TB slip?" for a factor within the close band of a power of 1000, on a quantity with prefixes."""
    kind = exp.unit_kind
    if UNIT_KINDS[kind].plain:
        return ""
    k = round(math.log(ratio, 1000.0))
    if k == 0 or abs(k) > 6 or distance(ratio, 1000.0**k) > exp.close:
        return ""
    asked = exp.unit or KINDS[kind]
    u = lookup(asked, kind)
    other = _unit_with_factor(kind, u.to_base(1.0) / 1000.0**k, binary=False) if u is not None else None
    return say("error.slip", asked=asked, other=other) if other else say("error.slip_prefix")


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
    tol = f"±{percent_text(exp.tolerance)} %"
    return say("verdict.approx", formula=exp.formula, exact=exact, given=given, approx=a.formula,
               label=Twin(a.label, a.label_zh or a.label), tol=tol)


def _matches(x: float, value: float, exp: Expected) -> bool:
    """``x`` is ``value`` within the correct band (a whole-number answer: exactly)."""
    if exp.integer:
        return x == round(value)
    return distance(x, value) <= exp.tolerance


def _by_convention(x: float, e: float, exp: Expected) -> tuple[ByConvention, ...]:
    """The other published conventions whose answer ``x`` is (within the correct band), all of them when several
    give that value; none when a named misconception of the template is nearer (a mistake still wins).

    A misconception giving the same value as a convention is the one named (12 B per parameter is also "counted
    only the AdamW states"), unless the convention holds under a condition the problem meets: a large ring's
    dropped (n−1)/n is the JAX book's convention, not the slip "forgot (n−1)/n" it is below 8 GPUs.
    """
    found = tuple(c for c in exp.conventions if _matches(x, c.value, exp))
    if not found:
        return ()
    conditional = [c.value for c in found if c.row.when]
    mistakes = [m for m in exp.misses if m.value and _matches(x, m.value, exp)
                and not any(_same(m.value, v, exp) for v in conditional)]
    if mistakes and min(distance(x, m.value) for m in mistakes) <= min(distance(x, c.value) for c in found):
        return ()
    return found


def _same(a: float, b: float, exp: Expected) -> bool:
    """Two answers the grader cannot tell apart (within the band; whole numbers: equal)."""
    return round(a) == round(b) if exp.integer else distance(a, b) <= exp.tolerance


def _also_convention(x: float, e: float, exp: Expected) -> tuple[ByConvention, ...]:
    """A correct answer nearer another convention's value than the problem's own (21 tokens per parameter for the
    rule of thumb's 20): the convention is named beside the verdict, as an approximation is.  Only for a value
    that differs from the problem's by more than rounding (a fifth of the band)."""
    if exp.integer:
        return ()
    return tuple(c for c in exp.conventions
                 if distance(c.value, e) > exp.tolerance / 5 and distance(x, c.value) < distance(x, e)
                 and _matches(x, c.value, exp))


def _convention_words(conv: tuple[ByConvention, ...], own_value: str, status: str) -> Msg:
    """``That is 18 B per parameter: fp32 gradients, as in …; this problem counts 16 B per parameter (…): 320 GB.``"""
    named = join([c.row.named() for c in conv], en=" — or ", zh="，或者")
    owns = list({c.own_words().en: c.own_words() for c in conv}.values())
    own = join(owns, en=" and ", zh="和")
    code = "verdict.convention" if status == CONVENTION else "verdict.convention_also"
    return say(code, named=named, own=own, own_value=own_value)


def _bare_scale(p: Parsed, exp: Expected) -> Msg | None:
    """"add a unit: 320000000000 B is 320 GB" for a bare number that is the answer in another unit of its kind.

    A number without a unit is read in the question's unit (GB); when that reading is wrong but the same
    number in the base unit (bytes, FLOP, s) or a prefix away (MB, TB) is the answer, the learner wrote the
    right quantity in another scale and left the unit out: nothing is graded, the reading is said.  A number
    typed with a unit that is off by a prefix is graded (a named unit slip).
    """
    kind = exp.unit_kind
    if not p.bare or p.alt is not None or not exp.unit or kind not in PREFIXED:
        return None
    asked = lookup(exp.unit, kind)
    e = float(exp.value)
    if asked is None or distance(p.value, e) <= exp.close:
        return None
    typed = asked.from_base(p.value)
    units = list(PREFIXED[kind][1])
    if kind == "bytes":  # 128 for 131072 B is 128 KiB
        units += [(f"{prefix}B", factor) for prefix, factor in BIN.items()]
    near = [(distance(typed * factor, e), symbol, factor) for symbol, factor in units
            if factor != asked.factor and distance(typed * factor, e) <= exp.close]
    if not near:
        return None
    _, symbol, factor = min(near)
    return say("bare_scale", typed=p.text.strip(), unit=symbol, shown=display_number(typed * factor, kind, exp.unit))


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


def _headline(status: str, exp: Expected) -> Msg:
    """The verdict with the band that applied."""
    tol, close = f"±{percent_text(exp.tolerance)} %", f"±{percent_text(exp.close)} %"
    if status == CORRECT:
        return say("verdict.correct") if exp.integer else say("verdict.correct_within", tol=tol)
    if status == CONVENTION:
        return say("verdict.by_convention", tol=tol)
    if status == CLOSE:
        return say("verdict.close_integer", close=close) if exp.integer else say("verdict.close", close=close, tol=tol)
    return say("verdict.wrong_by", close=close)


def _misconception(x: float, e: float, p: Parsed, exp: Expected) -> Miss | None:
    """The named mistakes a wrong answer matches, merged into one: the template's, else the unit slips."""
    typed = lookup(p.unit, exp.unit_kind) if p.unit and not p.bare else None
    kind = UNIT_KINDS[exp.unit_kind]
    if kind.byte_unit and typed is not None and typed.note == "bits" and distance(x * 8, e) <= exp.tolerance:
        return LOWERCASE_B
    slips: tuple[Miss, ...] = ()
    if kind.byte_unit and not _rounded(x, e, p):  # the GB/GiB slip is named for a size, not for a bandwidth
        slips = bytes_misses(e, exp.unit or kind.byte_unit)[0 if kind.size else 1:]
    mistakes, unit_slips = _matching(x, e, exp.misses, exp), _matching(x, e, slips, exp)
    if mistakes and unit_slips and _nearest(x, unit_slips) < _nearest(x, mistakes):
        # an exact GiB figure that also lies 4 % from "counted the policy only": the unit slip is the likelier, said
        # first, and the template's mistake still after it
        return merged(unit_slips + mistakes)
    return merged(mistakes) or merged(unit_slips) or _scale_slip(x, e, p, exp)


def _nearest(x: float, misses: list[Miss]) -> float:
    return min(distance(x, m.value) for m in misses)


_DIGITS = re.compile(r"\d[\d,]*(?:\.\d*)?|\.\d+")


def _rounded(x: float, e: float, p: Parsed) -> bool:
    """The answer is the right one rounded to the figures typed (1 TB for 1,120 GB): the likelier slip is the
    rounding, not a unit mistake whose value happens to lie nearby."""
    m = _DIGITS.search(p.text)
    if m is None or not x or not e:
        return False
    figures = len(m[0].replace(",", "").replace(".", "").lstrip("0")) or 1
    return math.isclose(float(f"{e:.{figures}g}"), x, rel_tol=1e-9)


def _scale_slip(x: float, e: float, p: Parsed, exp: Expected) -> Miss | None:
    """An answer that is the right one times an exact power of 1000 or 1024: the slip, named.

    ``9.664e9`` typed for "in GB" is the figure in bytes; ``0.0045`` for 4.5 GB is the figure
    in TB; 1500 for 1.5 s asked in s is milliseconds.  Not for ratios (45 vs 0.45 is read
    either way) nor counts (no unit to slip).
    """
    kind = exp.unit_kind
    if UNIT_KINDS[kind].plain or not e or not x or (x > 0) != (e > 0):
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
        return named_miss("scale_unit", x, typed=typed, unit=unit, asked=asked, right=right)
    power = str(abs(k)).translate(_SUPERSCRIPT) if abs(k) > 1 else ""
    way = Twin("large", "大") if k > 0 else Twin("small", "小")
    return named_miss("scale", x, n=f"{fmt_plain(base)}{power}", way=way, asked=asked, right=right)


def _unit_with_factor(kind: str, factor: float, binary: bool) -> str | None:
    """The unit of ``kind`` worth ``factor`` base units: 1e-3 s is ms, 2^30 B is GiB."""
    byte_unit = UNIT_KINDS[kind].byte_unit
    if binary:
        if not byte_unit:
            return None
        steps = [(p + byte_unit, f) for p, f in BIN.items()]
        steps.append((byte_unit, 1.0))
    else:
        steps = list(PREFIXED.get(kind, ("", []))[1])
        if UNIT_KINDS[kind].clock:
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


# --------------------------------------------------------------------------- #
# One of a few choices


@register
class ChoiceKind(AnswerKind):
    """One of a question's :class:`~engine.choices.Choice` s, by key, alias, Chinese label or number."""

    name = KindName.CHOICE

    def read(self, text: str, exp: Expected) -> Reading:
        c = parse_choice(text, exp.choices)
        if isinstance(c, Unreadable):
            return unreadable_reading(why_unreadable(c))
        return Reading(True, Twin(f"= {c.shown(EN)}", f"= {c.shown(ZH)}"), c)

    def grade(self, text: str, exp: Expected, seconds=None, target=None) -> Verdict:
        r = self.read(text, exp)
        if not r.readable:
            return unreadable_verdict(r.said, str(exp.value), exp.choices, reading=r)
        c: Choice = r.value
        ok = c.key == exp.value
        status = CORRECT if ok else WRONG
        q = quality_for(status, seconds=seconds, target_seconds=target)
        right = next((x for x in exp.choices if x.key == exp.value), Choice(str(exp.value)))
        msg = say("verdict.correct") if ok else say("verdict.wrong", given=Twin(c.key, c.shown(ZH)),
                                                      expected=Twin(right.key, right.shown(ZH)))
        return Verdict(status, q, msg, str(exp.value), c.key, band_said=say("band.choice"), choices=exp.choices,
                       reading=r)

    def display_in(self, exp: Expected, lang: str = EN) -> str:
        """The choice as :meth:`Choice.shown` writes it in ``lang``."""
        return choice_shown(exp.choices, str(exp.value), lang)

    def hint(self, exp: Expected) -> Said:
        """The choices as :meth:`Choice.shown` writes them: the keys in English, the Chinese labels in Chinese
        (both are accepted answers)."""
        return say("hint.choice", keys=Twin(" / ".join(c.shown(EN) for c in exp.choices),
                                            " / ".join(c.shown(ZH) for c in exp.choices)))

    def placeholder(self, exp: Expected) -> Said:
        return say("placeholder.choice", choices=Twin(" / ".join(c.shown(EN) for c in exp.choices),
                                                       " / ".join(c.shown(ZH) for c in exp.choices)))


# --------------------------------------------------------------------------- #
# A symbolic expression


@register
class ExpressionKind(AnswerKind):
    """A formula in the question's names (``2Φ + 14Φ/N``), right when symbolically equal to the expected one.

    The proof runs in a worker under time and memory limits (:mod:`engine.symbolic`), so it may
    take seconds: :attr:`slow`.
    """

    name = KindName.EXPRESSION
    slow = True

    def grade(self, text: str, exp: Expected, seconds=None, target=None) -> Verdict:
        aliases = dict(exp.aliases)
        want = parse_expression(str(exp.value), aliases)
        if isinstance(want, Unreadable):  # a template bug, not the learner's
            raise ValueError(f"expected expression {exp.value!r} does not parse: {want.reason}")
        shown_names = names_shown(exp.aliases)
        shown_exp = ex.render(want, shown_names)
        r = self.read(text, exp)
        if not r.readable:
            return unreadable_verdict(r.said, shown_exp, reading=r)
        node: ex.Node = r.value
        shown = ex.render(node, shown_names)
        from .symbolic import Undecided

        try:
            status = CORRECT if equivalent(node, want) else WRONG
        except Undecided as e:  # too complex, or a limit was reached: not graded, and said why
            return Verdict(INVALID, None, say("verdict.not_graded", reason=e.said), shown_exp, why=e.said,
                           reading=r)
        q = quality_for(status, seconds=seconds, target_seconds=target)
        msg = say("verdict.correct") if status == CORRECT else say("verdict.wrong", given=shown, expected=shown_exp)
        return Verdict(status, q, msg, shown_exp, shown, band_said=say("band.expression"), reading=r)

    def read(self, text: str, exp: Expected) -> Reading:
        node = parse_expression(text, dict(exp.aliases))
        if isinstance(node, Unreadable):
            return unreadable_reading(why_unreadable(node))
        problem = unevaluable(node)
        if problem is not None:
            return unreadable_reading(problem)
        return Reading(True, Twin("= " + ex.render(node, names_shown(exp.aliases))), node)

    def display(self, exp: Expected) -> str:
        node = parse_expression(str(exp.value), dict(exp.aliases))
        if not isinstance(node, Unreadable):
            return ex.render(node, names_shown(exp.aliases))
        return str(exp.value)

    def hint(self, exp: Expected) -> Said:
        return say("hint.expression")

    def placeholder(self, exp: Expected) -> Said:
        return say("placeholder.expression")


# --------------------------------------------------------------------------- #
# A parallel layout


@register
class LayoutKind(AnswerKind):
    """Three parallelism degrees (``tp=8 pp=2 dp=4``); any layout meeting the constraints is right
    (:mod:`engine.layout`)."""

    name = KindName.LAYOUT

    def grade(self, text: str, exp: Expected, seconds=None, target=None) -> Verdict:
        """Any layout meeting ``exp.layout``'s constraints is correct; a wrong one names each broken constraint."""
        from .layout import BAND, verdict_words

        r = self.read(text, exp)
        if not r.readable:
            return unreadable_verdict(r.said, str(exp.value), reading=r)
        got = r.value
        broken = exp.layout.broken(got)
        status = WRONG if broken else CORRECT
        miss = merged([Miss(b.key, b.label.en, 0.0, b.label.zh) for b in broken])
        q = quality_for(status, misconception=miss is not None, seconds=seconds, target_seconds=target)
        return Verdict(status, q, verdict_words(got, broken, str(exp.value)), str(exp.value), got.text, miss=miss,
                       band_said=BAND, reading=r)

    def read(self, text: str, exp: Expected) -> Reading:
        from .layout import LayoutUnreadable, parse_layout

        got = parse_layout(text)
        if isinstance(got, LayoutUnreadable):
            return unreadable_reading(got.why)
        return Reading(True, Twin(f"= {got.text}"), got)

    def hint(self, exp: Expected) -> Said:
        return say("hint.layout")

    def placeholder(self, exp: Expected) -> Said:
        return say("placeholder.layout")
