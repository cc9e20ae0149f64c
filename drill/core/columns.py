"""Text columns for a terminal: a cell's width is its display width (a Chinese character takes two columns).

rich (which comes with textual) measures it: ``str.ljust`` counts characters, so a Chinese header or title
pushes every later column of its row out of line.
"""

from __future__ import annotations


def width(text: str) -> int:
    """Terminal columns ``text`` takes: CJK characters two, others one."""
    from rich.cells import cell_len  # imported when a table is printed: the CLI's start does not wait for rich

    return cell_len(text)


def pad(text: str, columns: int) -> str:
    """``text`` padded with spaces to ``columns`` terminal columns (as ``ljust`` does for ASCII)."""
    return text + " " * max(0, columns - width(text))
