"""Reading what people type: ``1,120 GB``, ``2039/140``, ``16*70e9 B``, ``45%``, ``1.5k``.

:func:`parse_quantity` turns text into a value in base units of a kind, or an
:class:`Unreadable` with the reason (and what was understood so far).  The text
never reaches ``eval``/``sympify``: the number part goes through the checked
parser of :mod:`engine.expr`, the unit part is looked up in
:data:`engine.units.UNITS`.
"""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Mapping

from . import expr as ex
from .units import COUNT_SUFFIXES, KIND_NAMES, KINDS, UNIT_SYMBOLS, UNITS, Unit, fmt_quantity, lookup


@dataclass(frozen=True)
class Parsed:
    """A readable answer: ``value`` in base units of ``kind``."""

    text: str
    value: float
    kind: str
    unit: str  # the unit as understood ("" for a bare number)
    notes: tuple[str, ...] = ()
    bare: bool = False  # no unit typed: read in the question's unit

    @property
    def understood(self) -> str:
        """``= 1.12 × 10¹² B`` plus notes such as ``(b read as bits)``."""
        s = "= " + fmt_quantity(self.value, self.kind)
        return s + (f"  ({'; '.join(self.notes)})" if self.notes else "")


@dataclass(frozen=True)
class Unreadable:
    """An answer that cannot be read: never graded, never recorded as wrong."""

    text: str
    reason: str
    understood: str = ""  # what was read before the problem, if anything

    @property
    def message(self) -> str:
        return self.reason + (f" (understood so far: {self.understood})" if self.understood else "")


ParseResult = Parsed | Unreadable

_SUFFIX_NUM = re.compile(r"(?<![A-Za-z_.\d])(\d+(?:\.\d*)?|\.\d+)([kKMBGT])(?![A-Za-z_\d])")


_NOT_FINITE = re.compile(r"(?<![A-Za-z])(nan|inf|infinity)(?![A-Za-z])|∞", re.IGNORECASE)
_NUMBER = re.compile(r"\d+(?:\.\d*)?(?:[eE][+-]?\d+)?")
_WORD = re.compile(r"[^\W\d][\w/%µ]*|%")


def _unknown_word(word: str, kind: str) -> str:
    """``unknown unit 'gb' (units are case-sensitive: GB is bytes, Gb is bits)``."""
    same = sorted({s for s in UNIT_SYMBOLS if s.lower() == word.lower()})
    if same:
        kinds = "; ".join(f"{s} is {_reading(s, kind)}" for s in same)
        return f"unknown unit {word!r} (units are case-sensitive: {kinds})"
    return f"unknown unit or word {word!r}"


def _reading(symbol: str, kind: str) -> str:
    u = lookup(symbol, kind)
    assert u is not None
    if u.note == "bits":
        return "bits"
    return {"bytes": "bytes", "bandwidth": "bytes per second"}.get(u.kind, KIND_NAMES[u.kind])


def clean(text: str) -> str:
    """NFKC (full-width digits, µ), trimmed; the operators are normalised by engine.expr."""
    t = unicodedata.normalize("NFKC", ex.expand_superscripts(text))
    return t.replace("μ", "µ").strip()


_APPROX = re.compile(r"^(?:[≈~∼≃=]|about|approx\.?|approximately|around|roughly|约|大约|大概|约为)\s*", re.IGNORECASE)


def _tidy(t: str) -> str:
    """``≈ 14.5``, ``about 1120 GB``, ``1120 GB.``: whiteboard decoration around the answer."""
    t = _APPROX.sub("", t, count=1)
    if len(t) > 1 and t[-1] in ".。!！" and not t[-2].isdigit():
        t = t[:-1].rstrip()
    return t


@functools.cache
def _unit_in_middle() -> re.Pattern:
    syms = "|".join(re.escape(s) for s in UNIT_SYMBOLS if s not in ("x", "×", "%"))
    return re.compile(rf"(?<=[\d.)])\s*({syms})(?=\s*[*/×÷·)])")


def _unit_to_end(t: str) -> str:
    """``80 GB × 14`` -> ``80 × 14 GB``: one unit on a factor of a pure product moves to the end.

    Only when it is the only unit, there is no + or - (``1 GB + 1 GB``), and its number
    is not a divisor (``1120 / 80 GB × 2`` would be GB⁻¹).
    """
    if "+" in t or re.search(r"(?<=[\w)])\s*[-−]", t):
        return t
    found = list(_unit_in_middle().finditer(t))
    if len(found) != 1:
        return t
    m = found[0]
    before = re.sub(r"[\d.,]+(?:[eE][+-]?\d+)?\s*$", "", t[:m.start()]).rstrip()
    if before.endswith(("/", "÷")) or _WORD.search(_NUMBER.sub(" ", t[m.end():])):
        return t
    return f"{t[:m.start()]}{t[m.end():]} {m.group(1)}"


# Unit symbols by their last character, longest first ("GB/s" before "B/s" before "s").
_ENDING_WITH: dict[str, tuple[str, ...]] = {}
for _sym in UNIT_SYMBOLS:
    _ENDING_WITH[_sym[-1]] = _ENDING_WITH.get(_sym[-1], ()) + (_sym,)


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


def parse_quantity(text: str, kind: str, default_unit: str | None = None) -> ParseResult:
    """Read ``text`` as a quantity of ``kind``.

    A bare number is read in ``default_unit`` (the unit the question asks for),
    or in base units when none is given.  A unit of another kind is unreadable
    for this question, with a message that names both kinds.
    """
    if not isinstance(text, str):
        return Unreadable(str(text), "the answer is not text")
    if len(text) > ex.MAX_TEXT:
        return Unreadable(text[:40] + "…", f"too long to be an answer ({len(text)} characters; at most {ex.MAX_TEXT})")
    t = clean(text)
    if not t:
        return Unreadable(text, "the answer is empty")
    if _NOT_FINITE.search(t):
        return Unreadable(text, "not a finite number (nan or infinity)")
    notes: list[str] = []
    t = _tidy(t)
    if not t:
        return Unreadable(text, "the answer has no number")
    moved = _unit_to_end(t)
    if moved != t:
        notes.append(f"read as {moved}")
        t = moved
    head, unit, sym = split_unit(t, kind)
    multiplier = 1.0
    if unit is not None and unit.kind != kind and sym in COUNT_SUFFIXES and kind in ("count", "ratio") \
            and head and head[-1].isdigit():
        # "70B" for a count means 70 billion, not 70 bytes
        unit = None
        multiplier = COUNT_SUFFIXES[sym]
        notes.append(f"{sym} read as ×{COUNT_SUFFIXES[sym]:.0e}".replace("e+0", "e").replace("e+", "e"))
    # 1.5k, 70B inside the number part: magnitude suffixes on bare numbers
    def _suffix(m: re.Match) -> str:
        notes.append(f"{m.group(0)} read as {m.group(1)}×{COUNT_SUFFIXES[m.group(2)]:.0e}".replace("e+0", "e")
                     .replace("e+", "e"))
        return f"({m.group(1)}*{COUNT_SUFFIXES[m.group(2)]!r})"

    head2 = _SUFFIX_NUM.sub(_suffix, head)
    try:
        node = ex.parse(head2)
        number = ex.evaluate(node) * multiplier
    except ex.ExprError as e:
        understood = f"unit {sym}" if unit is not None else ""
        words = _WORD.findall(_NUMBER.sub(" ", head))
        if words and words[-1] in UNITS:
            return Unreadable(text, f"one unit, at the end: {words[-1]!r} in the middle cannot be read", understood)
        if words:
            return Unreadable(text, _unknown_word(words[-1], kind), understood)
        return Unreadable(text, str(e), understood)
    if not math.isfinite(number):
        return Unreadable(text, "not a finite number")
    if unit is None:
        if default_unit:
            u = lookup(default_unit, kind)
            if u is None:  # a template bug, not the user's
                raise ValueError(f"unknown default unit {default_unit!r}")
            if u.factor != 1.0 or default_unit not in ("", KINDS[kind]):
                notes.append(f"read in {default_unit}, the unit the question asks for")
            return Parsed(text, u.to_base(number), kind, default_unit, tuple(notes), bare=True)
        return Parsed(text, number, kind, "", tuple(notes), bare=True)
    if unit.kind != kind:
        return Unreadable(text, f"{sym} is {KIND_NAMES[unit.kind]}, not {KIND_NAMES[kind]}")
    if unit.note:
        if unit.note == "bits":
            notes.append(f"{sym}: lower-case b read as bits (B is bytes)")
        else:
            notes.append(f"{sym}: {unit.note}")
    return Parsed(text, unit.to_base(number), kind, sym, tuple(notes))


def parse_list(text: str, kind: str) -> tuple[float, ...] | Unreadable:
    """Read a list of quantities: ``10ms,12ms,8ms``, ``[10,12,8]ms``, ``10, 12, 8 ms``.

    A unit after the closing bracket, or on the last item only, applies to
    every item; otherwise each item is read by :func:`parse_quantity` (a bare
    number in base units).  Commas separate items, so no thousands separators.
    """
    if not isinstance(text, str):
        return Unreadable(str(text), "the answer is not text")
    if len(text) > ex.MAX_TEXT:
        return Unreadable(text[:40] + "…", f"too long to be a list ({len(text)} characters; at most {ex.MAX_TEXT})")
    t = clean(text)
    shared = ""
    m = re.fullmatch(r"\[(.*)\]\s*(.*)", t)
    if m:
        t, shared = m.group(1), m.group(2).strip()
    items = [i.strip() for i in re.split(r"[,;，；]", t)]
    if not t.strip() or not all(items):
        return Unreadable(text, "expected a list of values separated by commas, such as 10ms,12ms,8ms")
    if not shared:
        last = split_unit(items[-1], kind)
        if last[1] is not None and all(split_unit(i, kind)[1] is None for i in items[:-1]):
            shared = last[2]
            items[-1] = last[0]
    values = []
    for i, item in enumerate(items):
        p = parse_quantity(f"{item} {shared}" if shared else item, kind)
        if isinstance(p, Unreadable):
            return Unreadable(text, f"item {i + 1} ({item!r}): {p.reason}")
        values.append(p.value)
    return tuple(values)


# --------------------------------------------------------------------------- #
# Choices: "memory bound", "mem", "带宽受限" ...


def normalise_choice(text: str) -> str:
    """Case, spaces, hyphens and punctuation do not matter: ``Memory-Bound.`` == ``memory bound``."""
    t = unicodedata.normalize("NFKC", ex.expand_superscripts(text)).strip().lower()
    return re.sub(r"[\s\-_./·,;:!?。，；：！？、\"'“”‘’()（）]+", "", t)


@dataclass(frozen=True)
class Choice:
    """One accepted answer of a ``choice`` question, with the spellings people use."""

    key: str
    aliases: tuple[str, ...] = field(default=())
    label_zh: str = ""

    def matches(self, text: str) -> bool:
        n = normalise_choice(text)
        return bool(n) and n in {normalise_choice(a) for a in (self.key, *self.aliases, self.label_zh) if a}


def parse_choice(text: str, choices: tuple[Choice, ...]) -> Choice | Unreadable:
    if not text or not text.strip():
        return Unreadable(text, "the answer is empty")
    if len(text) > ex.MAX_TEXT:
        return Unreadable(text[:40] + "…", "too long to be an answer")
    for c in choices:
        if c.matches(text):
            return c
    if text.strip().isdigit() and 1 <= int(text.strip()) <= len(choices):
        return choices[int(text.strip()) - 1]  # numbered options
    return Unreadable(text, "expected one of: " + ", ".join(c.key for c in choices))


MEMORY_BOUND = Choice(
    "memory-bound",
    ("memory bound", "memory", "mem", "mem bound", "memory-limited", "bandwidth-bound", "bandwidth bound",
     "bandwidth", "bandwidth-limited", "bw", "bw-bound", "hbm-bound", "io-bound",
     "访存受限", "访存密集", "访存密集型", "内存受限", "显存带宽受限", "带宽瓶颈", "访存瓶颈", "带宽"),
    "带宽受限",
)
COMPUTE_BOUND = Choice(
    "compute-bound",
    ("compute bound", "compute", "comp", "compute-limited", "flops-bound", "flop-bound", "math-bound",
     "math bound", "算力受限", "计算受限", "计算密集", "计算密集型", "算力瓶颈", "计算瓶颈", "算力"),
    "算力受限",
)
# The two answers of every "which roof limits this kernel?" question (R§3, C§5).
BOUND_CHOICES: tuple[Choice, ...] = (MEMORY_BOUND, COMPUTE_BOUND)


# --------------------------------------------------------------------------- #
# Symbolic answers: "2*Phi + 14*Phi/N"


# Spellings of the parameter count that always name ``phi``.
PHI_ALIASES: dict[str, str] = {"Φ": "phi", "φ": "phi", "ϕ": "phi", "phi": "phi", "Phi": "phi", "PHI": "phi"}


def expression_names(aliases: Mapping[str, str]) -> dict[str, str]:
    """Every accepted spelling -> canonical name: ``aliases``, the canonical names themselves, Φ/phi/Phi."""
    names = dict(PHI_ALIASES)
    names.update({v: v for v in aliases.values()})
    names.update(aliases)
    return names


def parse_expression(text: str, aliases: Mapping[str, str]) -> ex.Node | Unreadable:
    """Parse a symbolic answer such as ``2Φ + 14Φ/N``.

    ``aliases`` maps spellings (``N``, ``N_dp``) to canonical names; the
    canonical names themselves and ``Φ``/``phi``/``Phi`` are always accepted.
    Implicit products (``2Φ``, ``2 phi``, ``Φ N``, ``2(n-1)``) are read as
    on a whiteboard.  No functions: only numbers, names and ``+ - * / ^``.
    """
    if not isinstance(text, str) or not text.strip():
        return Unreadable(str(text or ""), "the answer is empty")
    if len(text) > ex.MAX_TEXT:
        return Unreadable(text[:40] + "…", f"too long to be an answer ({len(text)} characters; at most {ex.MAX_TEXT})")
    t = ex.insert_implicit_products(ex.normalise(clean(text)))
    try:
        return ex.parse(t, expression_names(aliases))
    except ex.ExprError as e:
        return Unreadable(text, str(e))
