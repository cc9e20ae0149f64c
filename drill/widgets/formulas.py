"""Worked solutions drawn so that a formula is never broken where a line can hold it.

A terminal wraps text at any space, so ``= 2 × 2048 × 2048 / (4 × (2048 × 2048 + …))`` used to
break inside a product or inside brackets.  :func:`wrap_formula` keeps a line whole when the width
holds it; a longer one is broken before an operator at the shallowest bracket depth that fits, and
the rest is indented under it.  :class:`Solution` is a Rich renderable that does this at whatever
width it is drawn (a Static's content: it redraws when the column changes width).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich import containers
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text

# a line may be broken before one of these when a space comes before and after it: the loosest first
# (a relation, then a sum, then a product), as one breaks a formula by hand
RANK = {**dict.fromkeys("=≈<>≤≥→", 0), **dict.fromkeys("+−-", 1), **dict.fromkeys("×·/", 2)}
OPERATORS = frozenset(RANK)
OPENING, CLOSING = "([{（", ")]}）"
CONTINUATION = 4  # extra indent of a broken line's continuation


def _breaks(text: str, start: int) -> Iterable[tuple[tuple[int, int], int]]:
    """((bracket depth, operator rank), index) of each place ``text`` may be broken, from index ``start``:
    a space before an operator (the operator starts the next line) or before an opening bracket."""
    depth = 0
    for i, c in enumerate(text):
        if c in OPENING:
            depth += 1
        elif c in CLOSING:
            depth = max(0, depth - 1)
        if c != " " or i < start or i + 1 >= len(text):
            continue
        nxt = text[i + 1]
        if nxt in OPERATORS and (i + 2 >= len(text) or text[i + 2] == " "):
            yield (depth, RANK[nxt]), i
        elif nxt in OPENING and text[i - 1] not in OPERATORS:  # not between an operator and its operand
            yield (depth, 2), i


def _is_prose(line: str) -> bool:
    """A line of words, not a formula: a takeaway, or a sentence saying where the factors come from."""
    text = line.strip()
    if text.startswith(("Takeaway: ", "面试要点：")):
        return True
    if text.startswith("="):
        return False
    if sum("\u4e00" <= ch <= "\u9fff" for ch in text) > 20:  # a Chinese sentence, whatever it quotes
        return True
    words = text.split()
    if sum(w.strip(".,;:()").isalpha() and len(w) > 2 for w in words) * 2 > len(words) > 12:
        return True  # mostly words: an English sentence (a question's prompt) that quotes a formula
    if "：" not in text and ": " not in text:
        return False
    return len(words) > 12


def _cjk(ch: str) -> bool:
    return "\u4e00" <= ch <= "\u9fff" or "\u3000" <= ch <= "\u303f" or "\uff00" <= ch <= "\uffef"


# Chinese punctuation that must not begin a line, and brackets that must not end one
NO_START, NO_END = frozenset("，。；：、！？）」』”’》"), frozenset("（「『“‘《")


def _word_break(text: str, i: int) -> bool:
    """May ``text`` be broken before index ``i``?  At a space (the space is dropped), or between two
    characters of which one is Chinese (Chinese is written without spaces: a line may break between any
    two characters, but not before a closing or after an opening punctuation mark).  So a Chinese
    sentence breaks in its words, never inside the ``2Φ bf16`` of a formula it quotes."""
    if text[i] == " ":
        from engine.wrap import number_and_unit

        return not number_and_unit(text, i)  # 10⁹ B, 3.35 TB/s stay whole
    prev, ch = text[i - 1], text[i]
    if prev == " " or not (_cjk(prev) or _cjk(ch)):
        return False
    return ch not in NO_START and prev not in NO_END


def _break_rank(text: str, i: int) -> int:
    """How good a break before ``text[i]`` is in a sentence: 0 between two Chinese characters, 1 at a space
    beside one, 2 at a space between other words (all of an English sentence's breaks are 2)."""
    if text[i] != " ":
        return 0
    return 1 if _cjk(text[i - 1]) or (i + 1 < len(text) and _cjk(text[i + 1])) else 2


def _wrap_words(line: str, width: int) -> list[str]:
    """``line`` broken between words into pieces of at most ``width`` cells; a rest with no place to break
    stays longer (the terminal wraps it)."""
    indent = " " * (len(line) - len(line.lstrip(" ")) + 2)
    out, text, start = [], line, len(line) - len(line.lstrip(" "))
    while cell_len(text) > width:
        cut, used = 0, 0
        for i, ch in enumerate(text):
            used += cell_len(ch)
            if used > width:
                break
            cut = i + 1
        # the last break that leaves at most ``width`` cells on this line (text[cut] may start the next); in a
        # Chinese sentence the best kind of break in the line's second half: between two Chinese characters,
        # else at a space beside one, else at any space, so that ``12Φ fp32 AdamW`` and ``4Φ 主权重`` stay whole
        ats = [i for i in range(min(cut, len(text) - 1), start, -1) if _word_break(text, i)]
        half = start + (cut - start) // 2
        at = min(ats, key=lambda i: (i < half, _break_rank(text, i), -i)) if ats else 0
        if at <= start:
            break
        out.append(text[:at].rstrip())
        text = indent + text[at:].lstrip()
        start = len(indent)
        if cell_len(indent) >= width // 2:
            break
    out.append(text)
    return out


def wrap_formula(line: str, width: int) -> list[str]:
    """``line`` in lines of at most ``width`` cells where it can be: whole if it fits; else broken before
    the loosest operator of the shallowest bracket depth that fits (the last such one), the continuation
    indented.
    A piece with no place to break stays longer (the terminal then wraps it)."""
    if width <= 0 or cell_len(line) <= width:
        return [line]
    if _is_prose(line):  # a derivation's words (where a factor comes from, the takeaway): broken between words
        return _wrap_words(line, width)
    indent = " " * (len(line) - len(line.lstrip(" ")) + CONTINUATION)
    out, text, start = [], line, 0
    while cell_len(text) > width:
        fits = [(d, i) for d, i in _breaks(text, start) if cell_len(text[:i]) <= width and i > start + 1]
        if not fits:
            break
        depth = min(d for d, _ in fits)
        cut = max(i for d, i in fits if d == depth)
        out.append(text[:cut].rstrip())
        text = indent + text[cut:].lstrip()
        start = len(indent)
        if cell_len(indent) >= width // 2:  # no room left to indent into
            break
    out.append(text)
    if any(cell_len(part) > width for part in out):  # no operator to break at: between words (engine.wrap)
        from engine.wrap import wrap_line

        out = [piece for part in out for piece in wrap_line(part, width)]
    return out


def _lines(text: str) -> list[str]:
    """A text that holds line breaks (a question's prompt) as its lines, each indented as the first."""
    if "\n" not in text:
        return [text]
    first, *rest = text.split("\n")
    indent = first[:len(first) - len(first.lstrip(" "))]
    return [first, *(indent + r.lstrip(" ") if not r.startswith(indent) else r for r in rest)]


def _wrapped(lines: Sequence[tuple[str, str]], width: int) -> Iterable[Text]:
    """Each (text, style) broken into its lines, each wrapped by :func:`wrap_formula` at ``width``."""
    for text, style in lines:
        for line in _lines(text):
            for part in wrap_formula(line, width):
                yield Text(part, style)


class Lines:
    """Lines of text, each with a style, each wrapped by :func:`wrap_formula` at the width it is drawn in
    (a formula card: headings, formulas and the sentences between them); ``str()`` is the lines as they are."""

    def __init__(self, lines: Sequence[tuple[str, str]]) -> None:
        self.lines = list(lines)

    def __str__(self) -> str:
        return "\n".join(text for text, _ in self.lines)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield from _wrapped(self.lines, options.max_width)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widest = max([0, *(cell_len(text) for text, _ in self.lines)])
        return Measurement(min(widest, 20), widest)


class Solution:
    """A title and the lines of a worked solution, each wrapped by :func:`wrap_formula` at the width it is
    drawn in; ``str()`` is the lines as they are."""

    def __init__(self, title: Text, lines: Sequence[str]) -> None:
        self.title = title
        self.lines = list(lines)

    def __str__(self) -> str:
        return "\n".join([self.title.plain, *self.lines])

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        yield self.title
        yield from _wrapped([(text, "") for text in self.lines], width)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widest = max([self.title.cell_len, *map(cell_len, self.lines)])
        return Measurement(min(widest, 20), widest)


class Wrapped:
    """A Rich :class:`Text` (a problem: scenario, givens, conventions, the question; Help's sources) drawn in
    lines broken by :func:`engine.wrap.wrap_line` at the width it is drawn in: by display width, a number kept
    with its unit, Chinese broken between characters, a continuation under its bullet; the styles are kept."""

    def __init__(self, text: Text) -> None:
        self.text = text
        self._drawn: dict[int, list[Text]] = {}  # width -> the lines: Textual draws a text several times a frame

    def __str__(self) -> str:
        return self.text.plain

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        if width not in self._drawn:
            self._drawn[width] = list(self._cut(width))
        yield from self._drawn[width]

    def _cut(self, width: int):
        from engine.wrap import wrap_line

        lines: containers.Lines | list[Text] = self.text.split("\n", allow_blank=True)
        if self.text.plain.endswith("\n") and lines and not lines[-1].plain:
            lines = lines[:-1]
        for line in lines:
            plain, pos = line.plain, 0
            for k, piece in enumerate(wrap_line(plain, width)):
                body = piece.lstrip(" ") if k else piece
                start = plain.find(body, pos) if body else pos
                start = pos if start < 0 else start
                part = line[start:start + len(body)]
                pos = start + len(body)
                yield Text(" " * (len(piece) - len(body))) + part if k else part

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widest = max([0, *(cell_len(line) for line in self.text.plain.split("\n"))])
        return Measurement(min(widest, 20), widest)
