"""Breaking text into lines by display width, the way a person would break it.

:func:`breaks` says where a line may be broken, :func:`wrap` breaks it; the app draws problems, worked
solutions' sentences and Help with them (``drill.widgets.formulas``, ``drill.widgets.problem``).  The rules:

* widths are display cells: a Chinese character takes two (``rich.cells``-compatible, without importing Rich);
* a line may break at a space (the space is dropped) and between two characters of which one is Chinese
  (Chinese is written without spaces), but never before a closing mark (``，。）``) nor after an opening one;
* a number stays with its unit (``3.35 TB/s``, ``10⁹ B``, ``70 B``), and a short formula around ``=`` stays
  whole (``TP = 8``, ``int4 = 0.5 B``): those spaces are broken only when nothing else fits;
* an identifier or a number is never split (``d_model``, ``1,610,000,000``) unless it alone is wider than the
  line;
* a continuation line hangs under the text of its bullet or numbered item (``- ``, ``• ``, ``1. ``, ``▎ ``) or
  under the line's indent.

Pure functions of the text: what is wrapped is never changed, only where its lines end.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

SHORT_FORMULA = 24  # cells: a formula around "=" up to this wide is kept on one line
NO_START = frozenset("，。；：、！？）」』”’》,.;:!?)]}%")
NO_END = frozenset("（「『“‘《([{")
RELATIONS = frozenset("=≈≤≥<>")
_SUPERSCRIPT_DIGITS = frozenset("⁰¹²³⁴⁵⁶⁷⁸⁹")
_BULLET = re.compile(r"^(\s*)((?:[-•·*▎]|\d{1,2}[.)]|[（(]\w[)）]|第 \d+ 步[，,]?)\s+)?")


@lru_cache(maxsize=4096)
def cell_width(ch: str) -> int:
    """Display cells of one character: 2 for East Asian wide and full-width, 0 for combining marks."""
    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def width(text: str) -> int:
    return sum(cell_width(ch) for ch in text)


def is_cjk(ch: str) -> bool:
    return cell_width(ch) == 2


@lru_cache(maxsize=1)
def _unit_symbols() -> frozenset[str]:
    from .units import UNITS

    return frozenset(UNITS) | {"FLOPs", "GPUs", "tokens", "layers", "bytes", "bits"}


def _number_end(word: str) -> bool:
    """Does ``word`` end with a number (``3.35``, ``10⁹``, ``1,024``, ``(70``)?"""
    w = word.rstrip()
    return bool(w) and (w[-1].isdigit() or w[-1] in _SUPERSCRIPT_DIGITS)


def _is_unit(word: str) -> bool:
    """Is ``word`` a unit symbol, perhaps followed by punctuation (``GB,``, ``TB/s)``, ``B；``)?"""
    m = re.match(r"[A-Za-zµ$%][A-Za-z0-9µ/$%_-]*", word)
    return m is not None and m.group(0).rstrip("-") in _unit_symbols()


def number_and_unit(text: str, i: int) -> bool:
    """Is the space at ``text[i]`` the one between a number and its unit (``10⁹ B``, ``3.35 TB/s``)?"""
    if text[i:i + 1] != " ":
        return False
    before = text[:i].rsplit(" ", 1)[-1]
    after = text[i + 1:].split(" ", 1)[0]
    return _number_end(before) and _is_unit(after)


def hang(line: str) -> int:
    """Cells a continuation of ``line`` is indented by: under the text of its bullet, else its own indent."""
    m = _BULLET.match(line)
    return width(m.group(0)) if m else 0


def breaks(line: str) -> list[tuple[int, int]]:
    """``(index, rank)`` of each place ``line`` may be broken before ``line[index]``: rank 0 a good place (a
    space between words, between Chinese characters), 1 a space inside a number-and-unit or a short
    formula (only when nothing else fits).  At a space, the index is the space's (it is dropped)."""
    out: list[tuple[int, int]] = []
    words = [(m.start(), m.end()) for m in re.finditer(r"\S+", line)]
    texts = [line[a:b] for a, b in words]
    start = len(line) - len(line.lstrip(" "))
    for k in range(len(words) - 1):
        before, after = texts[k], texts[k + 1]
        glued = _number_end(before) and _is_unit(after)
        relation = k + 1 if after in RELATIONS else k if before in RELATIONS else None
        if relation is not None and 0 < relation < len(words) - 1:  # TP = 8, int4 = 0.5 B: short, kept whole
            right = relation + 1
            if right + 1 < len(words) and _number_end(texts[right]) and _is_unit(texts[right + 1]):
                right += 1
            left_word, right_word = texts[relation - 1], texts[right]
            left = next((j + 1 for j in range(len(left_word) - 1, -1, -1) if is_cjk(left_word[j])), 0)
            end = next((j for j, c in enumerate(right_word) if is_cjk(c)), len(right_word))
            glued = width(line[words[relation - 1][0] + left:words[right][0] + end]) <= SHORT_FORMULA
        out.append((words[k][1], 1 if glued else 0))
    for i in range(start + 1, len(line)):
        prev, ch = line[i - 1], line[i]
        if prev == " " or ch == " ":
            continue
        if (is_cjk(prev) or is_cjk(ch)) and ch not in NO_START and prev not in NO_END:
            out.append((i, 0))
    return sorted(out)


def wrap(text: str, cells: int) -> list[str]:
    """``text`` in lines of at most ``cells`` display cells (each of its own lines wrapped on its own), by the
    rules of the module docstring; a word wider than the line is cut."""
    out: list[str] = []
    for line in text.split("\n"):
        out.extend(wrap_line(line, cells))
    return out


def wrap_line(line: str, cells: int) -> list[str]:
    if cells <= 0 or width(line) <= cells:
        return [line.rstrip() if line.strip() else line]
    indent = " " * min(hang(line), max(0, cells // 2))
    out: list[str] = []
    text, lead = line, ""
    while True:
        room = cells - width(lead)
        if width(text) <= room:
            out.append(lead + text)
            break
        cut = _cut(text, room)
        head, rest = text[:cut].rstrip(), text[cut:].lstrip(" ")
        out.append(lead + head)
        if not rest:
            break
        text, lead = rest, indent
    return out


def _cut(text: str, room: int) -> int:
    """Where to end a line of at most ``room`` cells of ``text``: the last good break that fits, else the
    last glued one, else the room's last character (a word wider than the line)."""
    fits, used = 0, 0
    for i, ch in enumerate(text):
        used += cell_width(ch)
        if used > room:
            break
        fits = i + 1
    start = len(text) - len(text.lstrip(" "))
    candidates = [(i, rank) for i, rank in breaks(text) if start < i <= fits]
    for wanted in (0, 1):
        ok = [i for i, rank in candidates if rank == wanted and text[:i].strip()]
        if ok:
            return max(ok)
    return max(fits, 1)
