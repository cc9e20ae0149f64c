"""How a problem's givens are drawn, the same in practice and in a mock: one row per given, labels
aligned, values in bold."""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text


def givens_table(problem, lang: str) -> Text:
    """``▎ label   value`` per given of ``problem`` (a question_bank Problem), then a blank line; empty
    when it has no givens."""
    text = Text()
    rows = problem.given_rows(lang)
    if not rows:
        return text
    width = max(cell_len(label) for label, _ in rows)
    for label, shown in rows:
        text.append("▎ ", "blue")
        text.append(label + " " * (width - cell_len(label) + 2), "dim")
        text.append(shown + "\n", "bold")
    text.append("\n")
    return text
