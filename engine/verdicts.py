"""What grading is made of: expected answers, verdicts, misconceptions, the distance and the quality.

:mod:`engine.grading` grades (and re-exports all of this); each answer kind of
:mod:`engine.kinds` builds its verdicts from these parts.  This module knows no
kind: an :class:`Expected` finds its kind's class in :data:`ANSWER_KINDS`, which
:mod:`engine.kinds` fills when :mod:`engine.grading` imports it (so the kinds can
build on this module without it importing them back).
"""

from __future__ import annotations

import functools
import math
from dataclasses import field
from enum import StrEnum
from typing import Any

from engine.langs import EN, ZH
from engine.records import NamedTuple, frozen

from . import expr as ex
from .answers import Parsed, Unreadable
from .choices import Choice
from .messages import Msg, Said, Twin, say
from .status import CLOSE, CONVENTION, CORRECT, INVALID, WRONG, Status
from .typography import typeset
from .units import UNIT_KINDS, fmt_number, fmt_parseable, fmt_plain, fmt_whole, lookup, whole_digits


class KindName(StrEnum):
    """The name of each answer kind of :mod:`engine.kinds`: :attr:`Expected.kind`, as save files and JSON hold it."""

    NUMBER = "number"  # a number in a unit: 1.12 TB
    CHOICE = "choice"  # one of a few words: memory-bound
    EXPRESSION = "expression"  # a symbolic expression: 2Φ + 14Φ/N
    LAYOUT = "layout"  # a parallel layout: tp=8 pp=2 dp=4


# answer kind name -> its class (engine.kinds registers each); Expected.kind is the name
ANSWER_KINDS: dict[str, Any] = {}  # engine.kinds.AnswerKind values: not imported here, it imports this module
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

    def label_in(self, lang: str = EN) -> str:
        return Twin(self.label, self.label_zh).text(lang)


class Approximation(NamedTuple):
    """A simpler formula that gives (nearly) the right answer for these numbers: ``2 × M`` for 2(N−1)/N × M."""

    key: str
    label: str  # reads after "you": "dropped the (n-1)/n factor (2M is only the large-N limit)"
    label_zh: str
    value: float
    formula: str  # ``2 × M``


class ByConvention(NamedTuple):
    """What the problem's own formula gives under another published convention (:mod:`engine.formulas.conventions`).

    ``row`` is the convention (a ``conventions.Convention``: its label, what it counts, who uses it), ``own`` the
    problem's own row of the same input (None when its value is not one of the table's), ``own_value`` that
    input's own value.  Built with the problem (question_bank.steps), read by the grader.
    """

    value: float
    row: Any
    own: Any
    own_value: float

    @property
    def key(self) -> str:
        """``bytes_per_param=18``: the input and the value, as ``drill calc`` reads them."""
        return f"{self.row.input}={self.row.key}"

    def own_words(self) -> Twin:
        """``16 B per parameter (bf16 weights and gradients + fp32 master, m, v)``: what the problem counts."""
        if self.own is None:
            return Twin(f"{self.row.input} = {self.own_value:g}")
        return Twin(f"{self.own.label} ({self.own.counts})", f"{self.own.label_zh}（{self.own.counts_zh}）")


@frozen
class Expected:
    """The right answer of a problem (or of one step of a chain).

    ``kind`` is the name of an answer kind of :mod:`engine.kinds` (``number``,
    ``choice``, ``expression``, ``layout``: the name is what save files and JSON
    hold); :attr:`answer_kind` is its class, which grades and shows the answer.
    For numbers, ``value`` is in base units of ``unit_kind`` and ``unit`` is the
    unit the question asks for (a bare typed number is read in it).
    """

    kind: str = KindName.NUMBER
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
    # one is correct, and the feedback says it is an approximation of ``formula``
    approximations: tuple[Approximation, ...] = ()
    formula: str = ""  # the exact formula as written (``2 × (N − 1) / N × M``)
    # the answers under the other published conventions of the formula's inputs: an answer matching
    # one, and not the problem's own, is graded ``convention`` and the convention is named
    conventions: tuple[ByConvention, ...] = ()
    layout: Any = None  # layout answers: the engine.layout.LayoutRules any correct layout meets
    per_gpu: bool = False  # number answers: a per-GPU figure is asked, so "33 GB per GPU" (每卡) is read, not refused
    # count answers: what the question counts (an engine.count_nouns.Noun value, "" for any count): an answer
    # typed with another noun (16 GPUs for a question counting requests) is refused, not graded
    noun: str = ""

    @property
    def answer_kind(self) -> Any:
        """The :class:`engine.kinds.AnswerKind` of :attr:`kind`: it reads, grades and shows the answer."""
        return ANSWER_KINDS[self.kind]

    @functools.cached_property  # computed once per problem, not on every answer graded against it
    def display(self) -> str:
        """How a person would write the right answer (parseable back)."""
        return self.answer_kind.display(self)

    def display_in(self, lang: str = EN) -> str:
        """:attr:`display` in ``lang`` (a choice is written as :meth:`Choice.shown` there)."""
        return self.answer_kind.display_in(self, lang)


def choice_shown(choices: tuple[Choice, ...], key: str, lang: str) -> str:
    return next((c.shown(lang) for c in choices if c.key == key), key)


def names_shown(aliases) -> dict[str, str]:
    """How canonical names are written back: the question's first spelling (``n_dp`` -> ``N``), Φ for phi."""
    return {**{v: k for k, v in reversed(tuple(aliases))}, "phi": "Φ"}


def display_number(value: float, kind: str, unit: str = "", integer: bool = False) -> str:
    """A value as a person writes it, in ``unit`` when given; the parser reads it back."""
    if integer:
        value = float(round(value))
    if not unit:
        if whole_digits(value) > 4 and UNIT_KINDS[kind].whole:
            return f"{fmt_whole(value, grouped=False)} {UNIT_KINDS[kind].written}".rstrip()
        return fmt_parseable(value, kind)
    u = lookup(unit, kind)
    if u is None:
        raise ValueError(f"unknown unit {unit!r} for {kind}")
    if unit == "%":  # a space before % as before any unit (engine/typography.py)
        return f"{fmt_plain(u.from_base(value))} %"
    return f"{fmt_whole(u.from_base(value), grouped=False)} {unit}"


@frozen
class Reading:
    """What a typed answer reads as, before it is graded: the one reading both the live line under the
    answer box and the grader use (:meth:`engine.kinds.AnswerKind.read`), so the line never shows one
    reading and the grade another.

    ``value`` is what is graded (a number in base units, a :class:`~engine.choices.Choice`, an expression's
    tree, a layout); ``said`` is the live line ("= 49.21%  (read as a fraction, not a percentage)"), or,
    when ``readable`` is false, why the answer cannot be graded.
    """

    readable: bool
    said: Said
    value: Any = None
    parsed: Parsed | None = None  # a number's reading: its unit and the notes on how it was read

    def text(self, lang: str = EN) -> str:
        # a reading is said with the figures as the language writes them ("= 5.532 天"); a refusal quotes what
        # was typed, which stays as typed
        said = self.said.text(lang)
        return typeset(said, lang) if self.readable else said


def unreadable_reading(why: Said) -> Reading:
    return Reading(False, why)


@frozen
class Verdict:
    """A graded (or unreadable) answer.

    The words are kept as :mod:`engine.messages` data: :attr:`message`,
    :attr:`diagnosis`, :attr:`band` and :attr:`notes` are the English, and
    ``message_in(lang)`` & co. the same in ``"en"`` or ``"zh"``.
    """

    status: Status  # correct | convention | close | wrong | invalid
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
    # the published conventions the answer follows (status convention, or a correct answer nearer another
    # convention's value than its own), and what is said about them
    convention: tuple[ByConvention, ...] = field(default=())
    convention_said: Said | None = None
    ratio: float | None = None  # answer ÷ expected, for a graded number
    reading: Reading | None = None  # what was graded, as the live line showed it (None: graded without one)
    # how far off, as said: "+12.3 %" within a factor of 2, "about 4.46× too high" beyond it; None when on the dot
    error_said: Said | None = None

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
        return self.notes_in(EN)

    def _said(self, text: str, lang: str) -> str:
        """A graded verdict's words typeset for ``lang`` (engine/typography.py: 45 %, 5.533 天 in Chinese); an
        unreadable answer's quote what was typed, as typed."""
        return typeset(text, lang) if self.graded else text

    def message_in(self, lang: str = EN) -> str:
        return self._said(self.said.text(lang), lang)

    def reason_in(self, lang: str = EN) -> str:
        """Why an unreadable answer can't be read (``""`` when it was graded)."""
        return self.why.text(lang) if self.why else ""

    def diagnosis_in(self, lang: str = EN) -> str:
        return self._said(self.miss.label_in(lang), lang) if self.miss else ""

    def band_in(self, lang: str = EN) -> str:
        return self._said(self.band_said.text(lang), lang) if self.band_said else ""

    def notes_in(self, lang: str = EN) -> tuple[str, ...]:
        """How the answer was read, then (for a correct approximation) the exact formula and value, then (for an
        answer by another published convention) the convention and what the problem's own gives."""
        notes = tuple(self._said(n, lang) for n in self.parsed.notes_in(lang)) if self.parsed is not None else ()
        notes += (self.approximation_in(lang),) if self.approximation is not None else ()
        return notes + ((self.convention_in(lang),) if self.convention_said is not None else ())

    def convention_in(self, lang: str = EN) -> str:
        """``That is 18 B per parameter: fp32 gradients, as in …; this problem counts 16 …: 320 GB.``, else ``""``."""
        return self._said(self.convention_said.text(lang).strip(), lang) if self.convention_said is not None else ""

    def convention_dict(self, lang: str = EN) -> dict[str, str] | None:
        """``{key, source, own_value, label}`` of the convention(s) the answer follows (``drill check --json``)."""
        if not self.convention:
            return None
        sep = Twin("; ", "；").text(lang)
        sources: list[str] = []
        for c in self.convention:
            for part in c.row.source_in(lang).split(sep):
                if part not in sources:
                    sources.append(part)
        return {"key": "+".join(c.key for c in self.convention), "source": sep.join(sources),
                "own_value": self.expected,
                "label": sep.join(c.row.named().text(lang) for c in self.convention)}

    def approximation_in(self, lang: str = EN) -> str:
        """``Exact is … = 3.875 GB; 4 GB is 2 × M, …`` for a correct answer given by an approximation, else ``""``."""
        return self._said(self.approximation.text(lang).strip(), lang) if self.approximation is not None else ""

    def given_in(self, lang: str = EN) -> str:
        return choice_shown(self.choices, self.given, lang) if self.choices else self._figure(self.given, lang)

    def expected_in(self, lang: str = EN) -> str:
        return choice_shown(self.choices, self.expected, lang) if self.choices else self._figure(self.expected, lang)

    def _figure(self, shown: str, lang: str) -> str:
        """A number's figure as ``lang`` writes it (5.533 天); an expression or a layout as it is."""
        return typeset(shown, lang) if self.parsed is not None and isinstance(shown, str) else shown


def distance(x: float, e: float) -> float:
    """``|x - e| / max(|x|, |e|)``: symmetric and scale-invariant."""
    if x == e:
        return 0.0
    return abs(x - e) / max(abs(x), abs(e))


def quality_for(status: Status, *, misconception: bool = False, seconds: float | None = None,
                target_seconds: float | None = None, dont_know: bool = False) -> int | None:
    """The one mapping from a verdict to SM-2 quality (0-5).

    correct within the target time 5, correct 4, right by another published
    convention 3 (a pass), close 3, wrong matching a named misconception 2,
    wrong 1, "I don't know" 0; invalid -> None.
    """
    if dont_know:
        return 0
    if status == CORRECT:
        if seconds is not None and target_seconds is not None and seconds <= target_seconds:
            return 5
        return 4
    if status in (CLOSE, CONVENTION):
        return 3
    if status == WRONG:
        return 2 if misconception else 1
    return None


def by_factor(ratio: float | None) -> bool:
    """Whether an answer is off by more than a factor of 2 (same sign), so its error is said as the factor.

    The symmetric distance saturates near 100 %: 250 h against 2.441 h is "+99.0 %", and 5,000 GB
    against 1,120 GB "+77.6 %"; people size such a miss by the factor ("about 102× too high").
    """
    return ratio is not None and math.isfinite(ratio) and ratio > 0 and (ratio > 2 or ratio < 0.5)


def factor_text(f: float) -> str:
    """A factor to three significant figures, grouped as people write it: ``4.46``, ``1,000``, ``4.46 × 10⁷``."""
    f = float(f"{f:.3g}")
    if 1000 <= f < 1e9:
        return f"{int(f):,}"
    return fmt_number(f, 3)


def percent_text(x: float) -> str:
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
        unit_slip = named_miss("gb_for_gib", value / f * _BINARY[unit], dec=dec, unit=unit,
                          ratio=fmt_plain(_BINARY[unit] / f))
    else:
        unit_slip = named_miss("gib_for_gb", value / 2**30 * 1e9)
    return unit_slip, named_miss("bits_for_bytes", value * 8), named_miss("bytes_for_bits", value / 8)


def named_miss(key: str, value: float, **params: object) -> Miss:
    label = say("miss." + key, **params)
    return Miss(key, label.text(EN), value, label.text(ZH))


LOWERCASE_B = named_miss("lowercase_b", 0.0)


def misconception_label(label: str, lang: str = EN) -> str:
    """A misconception label kept in English (a saved mock's ``misconception``) in ``lang``.

    Labels of the formula catalogue and of the unit slips have a Chinese twin;
    any other label is shown as it is.
    """
    return MERGED.text(lang).join(_labels(lang).get(part, part) for part in label.split(MERGED.en))


@functools.cache
def _labels(lang: str) -> dict[str, str]:
    """English label -> the label in ``lang``: what every misconception the engine names is called there."""
    from .formulas import CATALOGUE  # only when a stored label is shown

    twins = [Twin(m.label, m.label_zh) for f in CATALOGUE for m in f.misconceptions if m.label_zh]
    for unit in ("GB", *_BINARY):
        twins += [Twin(m.label, m.label_zh) for m in bytes_misses(1.0, unit)]
    twins.append(Twin(LOWERCASE_B.label, LOWERCASE_B.label_zh))
    from .layout import LABELS as LAYOUT_LABELS

    twins += LAYOUT_LABELS.values()
    return {t.en: t.text(lang) for t in twins}


def why_unreadable(u: Unreadable) -> Said:
    """The reason of an unreadable answer, with what was read before it."""
    return u.why if u.so_far is None else say("so_far", reason=u.why, so_far=u.so_far)


def unreadable_verdict(why: Said, shown_exp: str, choices: tuple[Choice, ...] = (),
                       reading: Reading | None = None) -> Verdict:
    return Verdict(INVALID, None, say("verdict.unreadable", reason=why), shown_exp, why=why, choices=choices,
                   reading=reading)


MERGED = Twin(" — or ", "，或者")  # between the misconceptions one answer matches
MERGED_EN, MERGED_ZH = MERGED.en, MERGED.zh


def merged(found: list[Miss]) -> Miss | None:
    """One :class:`Miss` naming every misconception an answer matches, in order.

    For a bf16 KV cache "forgot K and V" (÷ 2) and "counted elements, not
    bytes" (÷ 2 bytes) give the same number: the learner is told both.
    """
    unique = list({m.label: m for m in found}.values())
    if len(unique) <= 1:
        return unique[0] if unique else None
    return Miss("+".join(m.key for m in unique), MERGED_EN.join(m.label for m in unique), unique[0].value,
                MERGED_ZH.join(m.label_in(ZH) for m in unique))


_SPOT_POINTS = 5


def _points(names: set[str], n: int = _SPOT_POINTS) -> list[dict[str, float]]:
    import random  # only symbolic answers need it

    rng = random.Random(1234)
    return [{name: rng.uniform(1.5, 50.0) for name in sorted(names)} for _ in range(n)]


def unevaluable(node: ex.Node) -> Msg | None:
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
