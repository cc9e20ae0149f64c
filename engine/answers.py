"""Reading what people type: ``1,120 GB``, ``2039/140``, ``16*70e9 B``, ``45%``, ``1.5k``.

:func:`parse_quantity` turns text into a value in base units of a kind, or an
:class:`Unreadable` with the reason (and what was understood so far).  The text
never reaches ``eval``/``sympify``: the number part goes through the checked
parser of :mod:`engine.expr`, the unit part is looked up in
:data:`engine.units.UNITS`.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass, field

from . import expr as ex
from .units import COUNT_SUFFIXES, KIND_NAMES, KINDS, UNIT_SYMBOLS, Unit, fmt_quantity, lookup


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


def clean(text: str) -> str:
    """NFKC (full-width digits, µ), trimmed; the operators are normalised by engine.expr."""
    t = unicodedata.normalize("NFKC", text)
    return t.replace("μ", "µ").strip()


def split_unit(text: str, kind: str | None) -> tuple[str, Unit | None, str]:
    """Split ``"1120 GB"`` into (``"1120"``, GB, ``"GB"``).

    The unit is the longest known symbol at the end of the text that follows a
    digit, a space, ``)`` or ``.``.
    """
    for sym in UNIT_SYMBOLS:
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
    low = t.lower()
    if low in ("nan", "inf", "infinity", "-inf", "+inf", "∞") or "nan" in low.split():
        return Unreadable(text, "not a finite number")
    notes: list[str] = []
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
        words = re.findall(r"[A-Za-z%µ][A-Za-z/%µ]*", re.sub(r"\d+(?:\.\d*)?(?:[eE][+-]?\d+)?", " ", head))
        if unit is None and words:
            return Unreadable(text, f"unknown unit or word {words[-1]!r}", understood)
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
            return Parsed(text, number * u.factor, kind, default_unit, tuple(notes), bare=True)
        return Parsed(text, number, kind, "", tuple(notes), bare=True)
    if unit.kind != kind:
        shown = f"{fmt_quantity(number * unit.factor, unit.kind)}"
        return Unreadable(text, f"{sym} is {KIND_NAMES[unit.kind]}, but the question asks for "
                                f"{KIND_NAMES[kind]}", f"{shown}")
    if unit.note:
        if unit.note == "bits":
            notes.append(f"{sym}: lower-case b read as bits (B is bytes)")
        else:
            notes.append(f"{sym}: {unit.note}")
    return Parsed(text, number * unit.factor, kind, sym, tuple(notes))


# --------------------------------------------------------------------------- #
# Choices: "memory bound", "mem", "带宽受限" ...


def normalise_choice(text: str) -> str:
    t = unicodedata.normalize("NFKC", text).strip().lower()
    return re.sub(r"[\s\-_./·]+", "", t)


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


# --------------------------------------------------------------------------- #
# Symbolic answers: "2*Phi + 14*Phi/N"


def parse_expression(text: str, aliases: dict[str, str]) -> ex.Node | Unreadable:
    """Parse a symbolic answer; ``aliases`` maps spellings (``Φ``, ``phi``, ``Phi``) to names."""
    if not text or not text.strip():
        return Unreadable(text, "the answer is empty")
    if len(text) > ex.MAX_TEXT:
        return Unreadable(text[:40] + "…", "too long to be an answer")
    t = ex.insert_implicit_products(ex.normalise(clean(text)))
    try:
        return ex.parse(t, aliases)
    except ex.ExprError as e:
        return Unreadable(text, str(e))
