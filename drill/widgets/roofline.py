"""A log-log roofline drawn with braille dots: the roof, and what the question is about.

A ridge-point question marks the ridge point alone; a question about a kernel marks the
kernel on its roof, and the ridge point too (both, when both exist).  The axes are labelled
by decades a reader knows: 1, 10, 100, 1k FLOP/B across; GFLOP/s, TFLOP/s, PFLOP/s up.

:func:`draw` is pure (testable without a terminal); :class:`RooflinePlot` colours
it and redraws when its size changes.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from rich.text import Text
from textual.widget import Widget

from engine import formulas
from engine.langs import EN
from engine.records import frozen
from engine.units import fmt_number, fmt_quantity

RIDGE, POINT = "◆", "●"
_DOTS = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))  # [row][col] of a 2x4 braille cell
_SI = ((1e18, "E"), (1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"), (1.0, ""))
X_UNIT = "FLOP/B"


def si(v: float) -> str:
    """``1e14`` -> ``100T``: short tick labels."""
    for f, p in _SI:
        if v >= f:
            return f"{fmt_number(v / f, 3)}{p}"
    return fmt_number(v, 3)


def rate_label(v: float) -> str:
    """A y tick: ``1e14`` -> ``100 TFLOP/s``, ``1e15`` -> ``1 PFLOP/s``."""
    for f, p in _SI[:-1]:
        if v >= f * 0.999:
            return f"{fmt_number(v / f, 3)} {p}FLOP/s"
    return f"{fmt_number(v, 3)} FLOP/s"


@frozen
class Plot:
    lines: list[str]
    ridge: tuple[int, int]  # (row, column) of the ridge marker
    point: tuple[int, int] | None  # (row, column) of the kernel marker; None: no kernel (a ridge question)
    margin: int  # columns of y-axis labels


def _decades(lo: float, hi: float) -> list[float]:
    """The powers of ten between ``lo`` and ``hi``: where the ticks go."""
    return [10.0 ** e for e in range(math.ceil(math.log10(lo) - 1e-9), math.floor(math.log10(hi) + 1e-9) + 1)]


def ridge_point(peak: float, bandwidth: float) -> float:
    """I* from the catalogue's ``ridge_point`` (one definition, shared with the grader)."""
    return formulas.get("ridge_point").evaluate(peak_flops=peak, bandwidth=bandwidth)


def attainable(peak: float, bandwidth: float, intensity: float) -> float:
    """The roof at ``intensity``: the catalogue's ``attainable_flops``."""
    return formulas.get("attainable_flops").evaluate(intensity=intensity, peak_flops=peak, bandwidth=bandwidth)


def draw(peak: float, bandwidth: float, intensity: float | None, width: int, height: int) -> Plot:
    """The roofline (``attainable_flops``) on log-log axes in ``width`` x ``height`` cells.

    ``intensity`` is the kernel's, or None for a question about the ridge point alone.  The
    x range spans whole decades around the ridge and the kernel; the last two rows are the x
    axis and its decade labels (FLOP/B); the left margin holds the y decades (FLOP/s).
    """
    ridge = ridge_point(peak, bandwidth)
    marks = [ridge] + ([intensity] if intensity is not None else [])
    x_lo = 10.0 ** math.floor(math.log10(min(marks) / 3))
    x_hi = 10.0 ** math.ceil(math.log10(max(marks) * 3))
    y_lo = 10.0 ** math.floor(math.log10(attainable(peak, bandwidth, x_lo)))
    y_hi = peak * 1.6
    y_ticks = _decades(y_lo, y_hi)
    margin = max(len(rate_label(v)) for v in y_ticks) + 1
    cw, ch = max(8, width - margin), max(4, height - 2)
    pw, ph = cw * 2, ch * 4
    grid = [[0] * cw for _ in range(ch)]

    def px(x: float) -> int:
        return round((math.log10(x) - math.log10(x_lo)) / (math.log10(x_hi) - math.log10(x_lo)) * (pw - 1))

    def py(y: float) -> int:  # 0 = top
        f = (math.log10(y) - math.log10(y_lo)) / (math.log10(y_hi) - math.log10(y_lo))
        return min(ph - 1, max(0, ph - 1 - round(f * (ph - 1))))

    def dot(x: int, y: int) -> None:
        grid[y // 4][x // 2] |= _DOTS[y % 4][x % 2]

    prev = None
    for i in range(pw):
        x = x_lo * (x_hi / x_lo) ** (i / (pw - 1))
        y = py(attainable(peak, bandwidth, x))
        for yy in range(min(y, prev if prev is not None else y), max(y, prev if prev is not None else y) + 1):
            dot(i, yy)
        prev = y
    rows = [[chr(0x2800 + b) if b else " " for b in r] for r in grid]

    def cell(x: float, y: float) -> tuple[int, int]:
        return py(y) // 4, px(x) // 2

    rc = cell(ridge, peak)
    rows[rc[0]][rc[1]] = RIDGE
    pc = None
    if intensity is not None:
        pc = cell(intensity, attainable(peak, bandwidth, intensity))
        if pc == rc:  # on the same cell: the kernel sits beside the ridge, on its side of it
            pc = (pc[0], min(cw - 1, pc[1] + 1) if intensity >= ridge else max(0, pc[1] - 1))
        rows[pc[0]][pc[1]] = POINT
    lines = []
    labelled: dict[int, str] = {}
    for v in y_ticks:  # a decade per row at most; the higher one wins a shared row
        labelled[py(v) // 4] = rate_label(v)
    for r, row in enumerate(rows):
        lines.append(labelled.get(r, "").rjust(margin - 1) + "│" + "".join(row))
    lines.append(" " * (margin - 1) + "└" + "─" * cw)
    axis = [" "] * (margin + cw)
    unit = f" {X_UNIT}"
    room = len(axis) - len(unit)
    for v in _decades(x_lo, x_hi):
        label, at = si(v), margin + px(v) // 2
        start = min(max(margin, at - len(label) // 2), room - len(label))
        if start >= margin and all(c == " " for c in axis[max(0, start - 1): start + len(label) + 1]):
            axis[start: start + len(label)] = label
    axis[room:] = unit
    lines.append("".join(axis).rstrip())
    return Plot(lines, (rc[0], rc[1] + margin), (pc[0], pc[1] + margin) if pc else None, margin)


def legend(peak: float, bandwidth: float, intensity: float | None, lang: str = EN) -> str:
    """What the marks are: the ridge point (and where it comes from); the kernel's point and its bound."""
    from drill.core.i18n import t

    ridge = ridge_point(peak, bandwidth)
    lines = [f"{RIDGE} {t('ridge', lang)} I* = {fmt_quantity(peak, 'flop_rate')} ÷ "
             f"{fmt_quantity(bandwidth, 'bandwidth')} = {fmt_number(ridge)} FLOP/B"]
    if intensity is not None:
        perf = attainable(peak, bandwidth, intensity)
        bound = t("roofline.bound", lang, bound=t(formulas.classify_bound(intensity, ridge), lang))
        lines.append(f"{POINT} {t('kernel', lang)} I = {fmt_number(intensity)} FLOP/B → "
                     f"{fmt_quantity(perf, 'flop_rate')} {bound}")
    return "\n".join(lines)


class RooflinePlot(Widget):
    """The roofline of one problem step: ``Step.roofline`` = {peak_flops, bandwidth[, intensity]}."""

    DEFAULT_CSS = """
    RooflinePlot { height: auto; width: 1fr; }
    """
    ROWS = 12  # plot rows, axis included

    def __init__(self, roofline: Mapping[str, Any], lang: str = EN, **kwargs) -> None:
        super().__init__(**kwargs)
        self.data = dict(roofline)
        self.lang = lang

    def render(self) -> Text:
        d = self.data
        w = self.content_size.width or 60
        intensity = d.get("intensity")
        plot = draw(d["peak_flops"], d["bandwidth"], intensity, min(w, 100), self.ROWS)
        text = Text()
        for r, line in enumerate(plot.lines):
            for c, ch in enumerate(line):
                if (r, c) == plot.ridge:
                    text.append(ch, style="bold yellow")
                elif (r, c) == plot.point:
                    text.append(ch, style="bold magenta")
                elif "\u2800" <= ch <= "\u28ff":
                    text.append(ch, style="cyan")
                else:
                    text.append(ch, style="dim")
            text.append("\n")
        text.append(legend(d["peak_flops"], d["bandwidth"], intensity, self.lang))
        return text
