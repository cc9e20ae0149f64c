"""Reading what people type: ``1,120 GB``, ``2039/140``, ``16*70e9 B``, ``45%``, ``1.5k``.

:func:`parse_quantity` turns text into a value in base units of a kind, or an
:class:`Unreadable` with the reason (and what was understood so far).  The text
never reaches ``eval``/``sympify``: the number part goes through the checked
parser of :mod:`engine.expr`, the unit part is looked up in
:data:`engine.units.UNITS`.
"""

from __future__ import annotations

import itertools
import math
import re
import unicodedata
from functools import lru_cache

from engine.langs import EN, ZH
from engine.records import NamedTuple, frozen

from . import count_nouns as cn
from . import expr as ex
from . import noun_algebra, numerals
from .count_nouns import Noun
from .messages import Msg, Said, Twin, asked_dims, join, kind_name, reading_name, say
from .refusals import plain_refusal, shown_typed
from .units import (
    COUNT_SUFFIXES,
    KIND_DIMS,
    KIND_IN_DIMS,
    KINDS,
    UNIT_KINDS,
    UNIT_SYMBOLS,
    UNITS,
    Unit,
    dim_text,
    fmt_number,
    fmt_quantity,
    lookup,
)


@frozen
class Parsed:
    """A readable answer: ``value`` in base units of ``kind``.

    ``said`` are the notes on how it was read, in both languages
    (:mod:`engine.messages`); :attr:`notes` is their English.
    """

    text: str
    value: float
    kind: str
    unit: str  # the unit as understood ("" for a bare number)
    said: tuple[Said, ...] = ()
    bare: bool = False  # no unit typed: read in the question's unit
    # a number with a suffix and no unit (6.2T) is a multiple of the base unit; ``alt`` is its other reading,
    # the multiple of the question's unit (6.2T TFLOPS), shown when both are plausible (engine.grading)
    alt: float | None = None
    noun: str = ""  # a count: what the answer says it counts (engine.count_nouns.Noun), "" when it names nothing

    @property
    def notes(self) -> tuple[str, ...]:
        return self.notes_in(EN)

    @property
    def b_readings(self) -> tuple[tuple[str, str], ...]:
        """Each ``B`` tried both ways, as read: (``70B``, ``billion``), (``16 B``, ``bytes``)."""
        return tuple((str(dict(m.params)["typed"]), "billion" if m.code == "note.billion" else "bytes")
                     for m in self.said if isinstance(m, Msg) and m.code in ("note.billion", "note.bytes_b"))

    def notes_in(self, lang: str = EN) -> tuple[str, ...]:
        return tuple(n.text(lang) for n in self.said)

    @property
    def understood(self) -> str:
        """``= 1.12 × 10¹² B`` plus notes such as ``(b read as bits)``."""
        return self.understood_in(EN)

    def understood_in(self, lang: str = EN, shown: str = "") -> str:
        """:attr:`understood` in ``lang``; ``shown`` is the value as the question writes it, in the unit it
        asks for (``1357 TFLOPS``): shown instead of the unit the engine would pick (``1.357 PFLOP/s``)."""
        return self.understood_said(shown).text(lang)

    def understood_said(self, shown: str = "") -> Said:
        """:meth:`understood_in` as data, for a caller that words it in either language later."""
        number = shown or fmt_quantity(self.value, self.kind)
        quantity = Twin(*cn.counted(number, Noun(self.noun))) if self.noun else Twin(number)
        if not self.said:
            return Twin(f"= {quantity.en}", f"= {quantity.text(ZH)}")
        return say("understood_notes", quantity=quantity, notes=join(self.said))


@frozen
class Unreadable:
    """An answer that cannot be read: never graded, never recorded as wrong.

    ``why`` is the reason and ``so_far`` what was read before the problem (if
    anything), both as :mod:`engine.messages` data; :attr:`reason`,
    :attr:`understood` and :attr:`message` are their English, ``*_in(lang)``
    any language.
    """

    text: str
    why: Said
    so_far: Said | None = None

    @property
    def reason(self) -> str:
        return self.why.text()

    @property
    def understood(self) -> str:
        return self.so_far.text() if self.so_far is not None else ""

    @property
    def message(self) -> str:
        return self.message_in(EN)

    def reason_in(self, lang: str = EN) -> str:
        return self.why.text(lang)

    def message_in(self, lang: str = EN) -> str:
        """The reason and, when something was read before it, what that was."""
        return self.said.text(lang)

    @property
    def said(self) -> Said:
        """:meth:`message_in` as data, for a caller that words it in either language later."""
        return self.why if self.so_far is None else say("so_far", reason=self.why, so_far=self.so_far)


ParseResult = Parsed | Unreadable

# Patterns as text: the re module compiles (and caches) each on its first use, so importing the engine
# compiles none of them before the app's first frame (benchmarks/bench_startup.py).
# A prefix letter may stand apart (1120 G, 1.12 T: a prefix of the base unit); B only joined (16 B is bytes).
_SUFFIX_NUM = r"(?<![A-Za-z_.\d])(\d+(?:\.\d*)?|\.\d+)(?:\s(?=[kKMGTP]))?([kKMBGTP])(?![A-Za-z_\d])"
# For a quantity that is not a count, B is a byte (70B is 70 bytes), not a billion.
_SUFFIX_NUM_NOT_B = r"(?<![A-Za-z_.\d])(\d+(?:\.\d*)?|\.\d+)\s?([kKMGTP])(?![A-Za-z_\d])"


_NOT_FINITE = r"(?i)(?<![A-Za-z])(nan|inf|infinity)(?![A-Za-z])|∞"
_NUMBER = r"\d+(?:\.\d*)?(?:[eE][+-]?\d+)?"
_WORD = r"[^\W\d][\w/%µ]*|%"


def _unknown_word(word: str, kind: str) -> Msg:
    """``unknown unit 'gb' (units are case-sensitive: GB is bytes, Gb is bits)``."""
    if word in numerals.WORDS or word[:1] in "万亿":  # 2.6 × 亿: a number word with no number right before it
        return say("multiplier_alone" if UNIT_KINDS[kind].plain else "multiplier_alone_unit", word=word)
    same = sorted({s for s in UNIT_SYMBOLS if s.lower() == word.lower()})
    if same:
        readings = join(say("unit_reads_as", symbol=s, what=_reading(s, kind)) for s in same)
        return say("unknown_unit_case", word=word, readings=readings)
    return say("unknown_word", word=word)


def _reading(symbol: str, kind: str) -> Said:
    u = lookup(symbol, kind)
    assert u is not None
    if u.note == "bits":
        return say("bits")
    return reading_name(u.kind)


# Units in one answer: a worked answer has a few (989 TFLOPS / 3.35 TB/s has two; a memory breakdown, weights +
# gradients + optimizer states + activations, five or six); each one more is bound, read (two readings for TFLOPs)
# and checked, so 25 of them took a millisecond to refuse (benchmarks/bench_parse_grade.py).
MAX_UNITS = 8


_FLOPS_COUNT = r"read (\S+) as a FLOP count"


def unit_note(symbol: str, note: str) -> Msg:
    """The note of a unit reading (:attr:`engine.units.Unit.note`) as a message in both languages."""
    if note == "bits":
        return say("note.bits", symbol=symbol)
    m = re.fullmatch(_FLOPS_COUNT, note)
    if m:
        return say("note.flops_count", symbol=symbol, flops=m.group(1))
    if note == "read FLOPs as FLOP/s":
        return say("note.flops_rate", symbol=symbol)
    raise ValueError(f"unit note {note!r} has no message in engine.messages")  # tests check every unit


def _factor(f: float) -> str:
    """``1e9`` for ×10⁹ as the notes write it."""
    return f"{f:.0e}".replace("e+0", "e").replace("e+", "e")


def clean(text: str) -> str:
    """NFKC (full-width digits, µ), trimmed; the operators are normalised by engine.expr."""
    t = unicodedata.normalize("NFKC", ex.expand_superscripts(text))
    return t.replace("μ", "µ").strip()


_APPROX = r"(?i)^(?:[≈~∼≃=]|about|approx\.?|approximately|around|roughly|约|大约|大概|约为)\s*"


def _tidy(t: str) -> str:
    """``≈ 14.5``, ``about 1120 GB``, ``1120 GB.``: whiteboard decoration around the answer."""
    t = re.sub(_APPROX, "", t, count=1)
    if len(t) > 1 and t[-1] in ".。!！" and not t[-2].isdigit():
        t = t[:-1].rstrip()
    return t


# Unit symbols by their last character, longest first ("GB/s" before "B/s" before "s").
_ENDING_WITH: dict[str, tuple[str, ...]] = {}
for _sym in UNIT_SYMBOLS:
    _ENDING_WITH[_sym[-1]] = _ENDING_WITH.get(_sym[-1], ()) + (_sym,)


# "$12.5", "$1.2M", "$2.5/GPU-h": the dollar sign written before its number, as prices are
_DOLLAR_FIRST = (r"(?<![\w.$])\$\s*(\d[\d,]*(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+)(?:\s*([kKMB])(?![A-Za-z]))?"
                 r"(/[^\W\d_][\w-]*)?")
_DOLLAR_SUFFIX = {"k": "e3", "K": "e3", "M": "e6", "B": "e9"}


def _dollars_after(t: str) -> str:
    """``$12.5`` -> ``12.5 $``, ``$1.2M`` -> ``1.2e6 $``, ``$2.5/GPU-h`` -> ``2.5 $/GPU-h``."""
    if "$" not in t:
        return t

    def after(m: re.Match) -> str:
        number = m.group(1)
        if m.group(2):
            if re.search("[eE]", number):
                return m.group(0)  # $1e3k: not a price anyone writes; the reader says why
            number = number.replace(",", "") + _DOLLAR_SUFFIX[m.group(2)]
        return f"{number} ${m.group(3) or ''}"

    return re.sub(_DOLLAR_FIRST, after, t)


def split_unit(text: str, kind: str | None) -> tuple[str, Unit | None, str]:
    """Split ``"1120 GB"`` into (``"1120"``, GB, ``"GB"``).

    The unit is the longest known symbol at the end of the text that follows a
    digit, a space, ``)`` or ``.``.
    """
    for sym in _ENDING_WITH.get(text[-1:], ()):
        if text.endswith(sym):
            head = text[: len(text) - len(sym)]
            if not head.strip():
                continue
            prev = head[-1]
            if prev.isdigit() or prev in " )." or (sym == "%" and prev not in "*/+-"):
                return head.rstrip(), lookup(sym, kind), sym
    return text, None, ""


def parse_quantity(text: str, kind: str, default_unit: str | None = None, *, per_gpu: bool = False) -> ParseResult:
    """Read ``text`` as a quantity of ``kind``.

    A bare number is read in ``default_unit`` (the unit the question asks for),
    or in base units when none is given.  A unit of another kind is unreadable
    for this question, with a message that names both kinds.  ``per_gpu``: the
    question asks a per-GPU figure, so a trailing "per GPU" (``/GPU``, ``每卡``)
    is read (and said); otherwise it is refused with its reason.
    """
    if not isinstance(text, str):
        return Unreadable(str(text), say("not_text"))
    if len(text) > ex.MAX_TEXT:
        return Unreadable(text[:40] + "…", say("too_long", n=len(text), most=ex.MAX_TEXT))
    return _parse_quantity(text, kind, default_unit, per_gpu)


def forget_readings() -> None:
    """Empty the cache of texts read (:func:`parse_quantity`): benchmarks/bench_parse_grade.py times the reading."""
    _parse_quantity.cache_clear()


# Pure, and its result immutable: the same text is read again for the same question (the live reading previews the
# answer being typed, then grading reads it; a given's figure recurs from problem to problem).  Only texts of at
# most ex.MAX_TEXT characters are kept.
@lru_cache(maxsize=1 << 15)
def _parse_quantity(text: str, kind: str, default_unit: str | None, per_gpu: bool) -> ParseResult:
    t = clean(text)
    if not t:
        return Unreadable(text, say("empty"))
    if re.search(_NOT_FINITE, t):
        return Unreadable(text, say("not_finite_typed"))
    notes: list[Said] = []
    t = _dollars_after(_tidy(t))
    if not t:
        return Unreadable(text, say("no_number"))
    t, written = numerals.rewrite(t)  # 2600亿, 70 billion, 两张卡, 16 个请求: as the reader parses them
    notes.extend(written)
    if t in UNITS:  # "GB", "h", "x": a unit alone
        return Unreadable(text, say("number_missing", word=t))
    qualified = re.search(_PER_GPU, t)
    first = re.search(_PER_GPU_FIRST, t) if qualified is None else None
    if (qualified and qualified.start() > 0) or first:  # "33 GB per GPU": what a per-GPU question asks, said again
        if first:
            qualifier, t = first.group(0).strip().rstrip(":：").strip(), t[first.end():]
        else:
            assert qualified is not None  # the test above: no ``first``, so ``qualified`` matched
            qualifier = t[qualified.start():].strip()
            t = t[:qualified.start()].rstrip()
        if not per_gpu:  # a total (or a rate, a ratio) read as a per-GPU figure would be graded against the wrong thing
            return Unreadable(text, say("per_gpu_not_asked", quantity=t, qualifier=qualifier))
        notes.append(say("note.per_gpu", quantity=t))
    refused = plain_refusal(t)
    if refused is not None:
        return Unreadable(text, refused)
    found = _units_after_numbers(t)
    if len(found) > MAX_UNITS:  # bounded work: every unit is bound, read and checked, before anything is refused
        return Unreadable(text, say("too_many_units", n=len(found), most=MAX_UNITS))
    if (found and not (len(found) == 1 and found[0].end == len(t))) \
            or (not found and not UNIT_KINDS[kind].plain and re.search(_SUFFIX_NUM_NOT_B, t)):
        return _parse_dimensions(text, t, kind, default_unit, notes)
    head, unit, sym = split_unit(t, kind)
    multiplier = 1.0
    if unit is not None and unit.kind != kind and sym in COUNT_SUFFIXES and UNIT_KINDS[kind].plain \
            and head and head[-1].isdigit():
        # "70B" for a count means 70 billion, not 70 bytes
        unit = None
        multiplier = COUNT_SUFFIXES[sym]
        notes.append(say("note.suffix", symbol=sym, factor=_factor(COUNT_SUFFIXES[sym])))
    # 1.5k, 70B inside the number part: magnitude suffixes on bare numbers
    def _suffix(m: re.Match) -> str:
        notes.append(say("note.suffix_number", typed=m.group(0), number=m.group(1),
                         factor=_factor(COUNT_SUFFIXES[m.group(2)])))
        return f"({m.group(1)}*{COUNT_SUFFIXES[m.group(2)]!r})"

    head2 = re.sub(_SUFFIX_NUM, _suffix, head)
    try:
        node = ex.parse(head2, functions=ex.ROOTS)
        number = ex.evaluate(node) * multiplier
    except ex.ExprError as e:
        so_far = say("so_far_unit", symbol=sym) if unit is not None else None
        if e.said.code in _ABOUT_THE_TEXT:  # about the number or a character in it, not a word in it
            return Unreadable(text, e.said, so_far)
        words = re.findall(_WORD, re.sub(_NUMBER, " ", head))
        if words and words[-1] in UNITS:
            return Unreadable(text, say("unit_in_middle", word=words[-1]), so_far)
        if words:
            return Unreadable(text, _unknown_word(words[-1], kind), so_far)
        return Unreadable(text, _user_terms(e, t), so_far)
    if not math.isfinite(number):
        return Unreadable(text, say("not_finite"))
    if unit is None:
        if default_unit:
            u = lookup(default_unit, kind)
            if u is None:  # a template bug, not the user's
                raise ValueError(f"unknown default unit {default_unit!r}")
            if u.factor != 1.0 or default_unit not in ("", KINDS[kind]):
                notes.append(say("note.default_unit", unit=default_unit))
            return Parsed(text, u.to_base(number), kind, default_unit, tuple(notes), bare=True)
        return Parsed(text, number, kind, "", tuple(notes), bare=True)
    if unit.kind != kind:
        return Unreadable(text, say("wrong_kind", symbol=sym, kind=kind_name(unit.kind), asked=kind_name(kind)))
    if unit.note:
        notes.append(unit_note(sym, unit.note))
    nouns = cn.of_symbol(sym)
    noun = next(iter(nouns)) if list(nouns.values()) == [1] and kind == "count" else ""
    return Parsed(text, unit.to_base(number), kind, sym, tuple(notes), noun=noun)


# Refusals in the user's terms: what was not understood, as typed; never the reader's own rewriting.
_ABOUT_THE_TEXT = ("expr.decimal", "expr.number_too_small", "expr.hash", "expr.stray")
# "per GPU", "/GPU", "per device", "每卡": a qualifier the question already states (a note says it was read so)
_PER_GPU = (r"(?i)\s*(?:(?:\bper|/)\s*(?:gpu|device|card|accelerator|rank)s?|/\s*(?:张|块)?卡"
            r"|每\s*(?:张|个|块)?\s*(?:卡|GPU|设备))\s*$")
# ... or before it, as Chinese writes it: "每卡 33 GB"
_PER_GPU_FIRST = r"(?i)^(?:每\s*(?:张|个|块)?\s*(?:卡|GPU|设备)|per\s+(?:gpu|device|card|rank))\s*[:：]?\s*(?=[\d.(])"
def _user_terms(e: ex.ExprError, t: str) -> Said:
    """An expression error about the reader's rewritten text, told about the text as typed."""
    if e.said.code == "expr.syntax":
        return say("expr.syntax", text=shown_typed(t))
    return e.said


# --------------------------------------------------------------------------- #
# Expressions of quantities: 989 TFLOPS / 3.35 TB/s, 2039 GB/s / 140 GB, 6.2T


class _Found(NamedTuple):
    start: int  # where the space before the unit begins
    end: int
    symbol: str


# A word right after a number or ")": a unit candidate, looked up in UNITS (longest first at "/":
# "GB/s/140" is GB/s, then "/140").  A dict lookup per word, not a regex of every symbol: fast.
_AFTER_NUMBER = r"(?<=[\d.)])(\s*)(\$(?:/[^\W\d_]+(?:-[^\W\d_]+)*)?|[^\W\d_]+(?:[-/][^\W\d_]+)*|%)"  # GPU-h, $/GPU-h


def _units_after_numbers(t: str) -> list[_Found]:
    """Every unit symbol right after a number or ``)`` (``3.35 TB/s``, ``(1 + 2) GB``); ``x`` multiplies."""
    found = []
    for m in re.finditer(_AFTER_NUMBER, t):
        word = m.group(2)
        while word not in UNITS and ("/" in word or "-" in word):
            word = re.split(r"[-/](?=[^-/]*$)", word, maxsplit=1)[0]
        end = m.start(2) + len(word)
        if word in UNITS and word not in ("x", "×") and not (end < len(t) and (t[end].isalnum() or t[end] in "_µ")):
            found.append(_Found(m.start(), end, word))
    return found


_LAST_NUMBER = r"(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$"
_NUMBER_CHARS = frozenset(".eE+-\n")  # and the decimal digits (\d): what _LAST_NUMBER can match
_BASE = "_Z"  # placeholder names: identifiers no unit symbol or number can form
_SLOT = "_Q"


def _operand_start(src: str, end: str | int) -> int | None:
    """Where the operand a unit follows begins: a number, a (...) group, or a power ``10**9``."""
    j = int(end)
    while j > 0 and src[j - 1] == " ":
        j -= 1
    if j == 0:
        return None
    if src[j - 1] == ")":
        depth, i = 0, j - 1
        while i >= 0:
            c = src[i]
            if c == ")":
                depth += 1
            elif c == "(":
                depth -= 1
            if depth == 0:
                break
            i -= 1
        if i < 0:
            return None
    else:
        # The number is within the run of characters a number is written with (and a newline, which ``$``
        # matches before) that ends at j: search only that run, not the whole text again for every unit.
        run = j
        while run > 0 and (src[run - 1] in _NUMBER_CHARS or src[run - 1].isdecimal()):
            run -= 1
        m = re.search(_LAST_NUMBER, src[run:j])
        if m is None:
            return None
        i = run + m.start()
    k = i
    if k > 0 and src[k - 1] == "-" and src[max(0, k - 3):k - 1] == "**":
        k -= 1
    if src[max(0, k - 2):k] == "**":  # 10**9 B, 2^30 B: the unit is on the power
        base = _operand_start(src, k - 2)
        return i if base is None else base
    return i




def _parse_dimensions(text: str, t: str, kind: str, default_unit: str | None, notes: list[Said]) -> ParseResult:
    """Read an expression whose numbers carry units; its result must have the question's dimension.

    Each unit applies to the number (or parenthesised group, or power) right before it; a number
    with a suffix and no unit (6.2T) is that multiple of the question's base unit.  A symbol with
    two readings (TFLOPs: a count or a rate) takes the reading that gives the asked dimension.
    """
    counts = UNIT_KINDS[kind].plain

    pattern = _SUFFIX_NUM if counts else _SUFFIX_NUM_NOT_B
    typed_suffixes: list[re.Match] = []

    def suffix(m: re.Match) -> str:
        typed_suffixes.append(m)
        return f"({m.group(1)}*{COUNT_SUFFIXES[m.group(2)]!r}*{_BASE}{len(typed_suffixes) - 1})"

    src = re.sub(pattern, suffix, ex.normalise(t))
    slots: list[str] = []
    typed: list[str] = []  # each unit with its number, as typed (70B): said when B is read as a billion
    for m in reversed(_units_after_numbers(src)):
        start = _operand_start(src, m.start)
        if start is None:
            return Unreadable(text, say("unit_in_middle", word=m.symbol))
        operand = src[start:m.start].rstrip()
        on_suffix = re.search(rf"\*{_BASE}\d+\)$", operand) if _BASE in operand else None
        if on_suffix:  # 1.5k GB: the suffix multiplies the number before the unit
            operand = operand[:on_suffix.start()] + ")"
        slots.append(m.symbol)
        typed.append(src[start:m.end])
        src = f"{src[:start]}({operand}*{_SLOT}{len(slots) - 1}){src[m.end:]}"
    based = [i for i in range(len(typed_suffixes)) if f"{_BASE}{i})" in src]
    names = {f"{_SLOT}{i}": f"{_SLOT}{i}" for i in range(len(slots))}
    names.update((f"{_BASE}{i}", f"{_BASE}{i}") for i in based)
    try:
        node = ex.parse(src, names, functions=ex.ROOTS, max_len=4 * ex.MAX_TEXT)
    except ex.ExprError as e:
        if e.said.code in _ABOUT_THE_TEXT or e.said.code in ("expr.nested", "expr.complicated"):
            return Unreadable(text, e.said)
        words = re.findall(_WORD, re.sub(_NUMBER, " ", re.sub(rf"{_SLOT}\d+|{_BASE}\d+", " ", src)))
        if words and words[-1] in UNITS:
            return Unreadable(text, say("unit_in_middle", word=words[-1]))
        if words:
            return Unreadable(text, _unknown_word(words[-1], kind))
        return Unreadable(text, _user_terms(e, t))
    want = KIND_DIMS[kind]
    base = (KIND_IN_DIMS.get(kind, 1.0), want)
    readings = [sorted(UNITS[sym], key=lambda u: u.kind != kind) for sym in slots]
    first: tuple | None = None
    soft: tuple | None = None
    chosen: tuple | None = None
    other: float | None = None
    error: ex.ExprError | None = None
    # 3 symbols of two readings each: more is not a whiteboard answer
    combos = list(itertools.islice(itertools.product(*readings), 8))
    # B is bytes or a billion (70B × 16 B): the billion readings are tried after every reading of bytes, so an
    # answer read without them reads as before; a B joined to its number (70B) before one spaced from it (16 B).
    # On a count question a joined B is a billion already (a suffix); a spaced one stays bytes there.
    spaced = {i for i, t in enumerate(typed) if t[-2:-1].isspace()}
    billions = [i for i, sym in enumerate(slots) if sym == "B" and not (counts and i in spaced)]
    if billions and len(combos) < 8:
        with_billion = [r + [BILLION] if i in billions else r for i, r in enumerate(readings)]
        more = itertools.islice((c for c in itertools.product(*with_billion) if BILLION in c), 64)
        combos += sorted(more, key=lambda c: sum(u is BILLION for i, u in enumerate(c) if i in spaced))[:8 - len(combos)]
        readings = with_billion
    slot_names = [f"{_SLOT}{i}" for i in range(len(slots))]
    in_dims = {u: (u.factor * KIND_IN_DIMS.get(u.kind, 1.0), KIND_DIMS[u.kind]) for r in readings for u in r}
    envs = []
    for combo in combos:
        env = dict(zip(slot_names, map(in_dims.__getitem__, combo)))
        env.update((f"{_BASE}{i}", base) for i in based)
        envs.append(env)
    # every reading in one walk of the tree (a subtree the readings do not change is worked out once)
    for combo, result in zip(combos, ex.evaluate_quantities(node, envs)):
        if isinstance(result, ex.ExprError):
            error = error or result
            continue
        value, dim = result
        if dim == want:
            if chosen is None:
                chosen = (value, dim, combo, False)
                if BILLION not in combo:
                    break
            elif other is None and abs(value - chosen[0]) > 1e-9 * abs(chosen[0]):
                other = value  # a B read the other way gives another value of the asked dimension
            continue
        if soft is None and dim[1:] == want[1:] and abs(dim[0] - want[0]) == 1:
            soft = (value, dim, combo, True)
        first = first or (value, dim, combo, False)
    if chosen is None:  # no reading gives the asked dimension (or more than 8 readings to try)
        chosen = soft or first
        if chosen is None:
            assert error is not None
            return Unreadable(text, error.said)
        if not chosen[3]:
            shown = dim_text(chosen[1])
            return Unreadable(text, say("wrong_dims", typed=shown_typed(t),
                                        dims=Twin(shown, shown) if shown else say("dim.plain"),
                                        asked=_asked_dims(kind)))
    value, dim, combo, implied = chosen
    converted = _converted_by_hand(node, kind)
    if converted is not None:
        return Unreadable(text, say("units.converted_twice", literal=converted, unit=default_unit or KINDS[kind]))
    value /= KIND_IN_DIMS.get(kind, 1.0)
    if not math.isfinite(value):
        return Unreadable(text, say("not_finite"))
    for sym, u in zip(reversed(slots), reversed(combo)):
        if u.note and u is not BILLION:
            notes.append(unit_note(sym, u.note))
    if BILLION in combo:  # "70B = 7 × 10¹⁰ (billion); 16 B = bytes": both readings of B, said
        notes.extend(_billion_said(typed[i], u is BILLION) for i, u in reversed(list(enumerate(combo)))
                     if slots[i] == "B")
    for i, written in enumerate(typed_suffixes):
        factor = _factor(COUNT_SUFFIXES[written.group(2)])
        if i in based and not counts:
            notes.append(say("note.suffix_base", typed=written.group(0), number=written.group(1), factor=factor,
                             unit=KINDS[kind]))
        else:
            notes.append(say("note.suffix_number", typed=written.group(0), number=written.group(1), factor=factor))
    if implied:
        notes.append(say("note.flop_implied"))
    alt = None
    if based and not slots and default_unit:
        u = lookup(default_unit, kind)
        if u is None:
            raise ValueError(f"unknown default unit {default_unit!r}")
        if u.factor != 1.0:
            alt = u.to_base(value)
    if other is not None:  # a B read the other way gives another value: the grader refuses to choose when it matters
        alt = other / KIND_IN_DIMS.get(kind, 1.0)
    noun = noun_algebra.noun_of(node, dict(zip(slot_names, slots))) if kind == "count" else None
    return Parsed(text, value, kind, "", tuple(notes), alt=alt, noun=noun or "")


# B read as a billion (a count: 70B parameters) where bytes would not give the asked dimension
BILLION = Unit("B", "count", 1e9, "billion")


def _billion_said(typed: str, billion: bool) -> Said:
    """``70B = 7 × 10¹⁰ (billion)`` or ``16 B = bytes``."""
    shown = shown_typed(typed.strip())
    if not billion:
        return say("note.bytes_b", typed=shown)
    try:
        value = fmt_number(ex.evaluate(ex.parse(typed.strip()[:-1] or "1")) * 1e9)
    except ex.ExprError:
        value = "×10⁹"
    return say("note.billion", typed=shown, value=value)


# The factors people divide or multiply by to turn seconds into hours, J·s/h into MWh, $ per token into $/Mtok:
# with units typed, the units already convert, so the factor typed as a bare number would convert twice.
_BY_HAND = {3600.0: "3600", 1e6: "10⁶", 3.6e6: "3.6 × 10⁶", 3.6e9: "3.6 × 10⁹"}
_CONVERTED_KINDS = frozenset(k for k in KIND_IN_DIMS if k != "bits")


def _converted_by_hand(node: ex.Node, kind: str) -> str | None:
    """The conversion factor typed as a bare number in an expression with units (``… / 3600`` for GPU-hours), or None.

    Only for the kinds whose unit is a conversion away from its dimension's base unit (GPU-h, $/GPU-h, $/Mtok,
    MWh): ``7e6 GPU-h × 700 W / 10⁶`` is 7.8 × 10⁻³ MWh read by its units, 7800 MWh as meant; neither
    reading is graded, the user is told to drop one of the two conversions."""
    if kind not in _CONVERTED_KINDS:
        return None

    def bare(n: ex.Node):
        if isinstance(n, ex.Num):
            yield n.value
        elif isinstance(n, ex.Neg):
            yield from bare(n.operand)
        elif isinstance(n, ex.Bin):
            if n.op == "*" and isinstance(n.right, ex.Var) and n.right.name.startswith(_SLOT):
                return  # a number with its unit
            if n.op == "*" and isinstance(n.right, ex.Var):
                return  # a suffixed number (1.5k): a multiple of the base unit
            yield from bare(n.left)
            yield from bare(n.right)
        elif isinstance(n, ex.Call):
            for a in n.args:
                yield from bare(a)

    for v in bare(node):
        for factor, shown in _BY_HAND.items():
            if abs(v - factor) <= 1e-9 * factor:
                return shown
    return None


def _asked_dims(kind: str) -> Said:
    """What the question asks for, as a dimension: ``FLOP/B``, ``tok/s (1/s)``, ``a count``."""
    if UNIT_KINDS[kind].plain:
        return kind_name(kind)
    d = dim_text(KIND_DIMS[kind])
    return asked_dims(kind) or Twin(d, f" {d}")


def parse_list(text: str, kind: str) -> tuple[float, ...] | Unreadable:
    """Read a list of quantities: ``10ms,12ms,8ms``, ``[10,12,8]ms``, ``10, 12, 8 ms``.

    A unit after the closing bracket, or on the last item only, applies to
    every item; otherwise each item is read by :func:`parse_quantity` (a bare
    number in base units).  Commas separate items, so no thousands separators.
    """
    if not isinstance(text, str):
        return Unreadable(str(text), say("not_text"))
    if len(text) > ex.MAX_TEXT:
        return Unreadable(text[:40] + "…", say("too_long_list", n=len(text), most=ex.MAX_TEXT))
    t = clean(text)
    shared = ""
    m = re.fullmatch(r"\[(.*)\]\s*(.*)", t)
    if m:
        t, shared = m.group(1), m.group(2).strip()
    items = [i.strip() for i in re.split(r"[,;，；]", t)]
    if not t.strip() or not all(items):
        return Unreadable(text, say("list_expected"))
    if not shared:
        last = split_unit(items[-1], kind)
        if last[1] is not None and all(split_unit(i, kind)[1] is None for i in items[:-1]):
            shared = last[2]
            items[-1] = last[0]
    values = []
    for i, item in enumerate(items):
        p = parse_quantity(f"{item} {shared}" if shared else item, kind)
        if isinstance(p, Unreadable):
            return Unreadable(text, say("list_item", i=i + 1, item=item, reason=p.why))
        values.append(p.value)
    return tuple(values)
