"""The hint ladder's rules: what a hint costs an answer's grade, and how many the log holds.

Before the solution a learner may take hint 1 (which formula, and the quantity asked, named) and then
hint 2 (the formula with the problem's numbers substituted, never the result); the next step up is the
solution itself.  A hint is help the interview would not give, so it caps the grade (:data:`CAPS`): after
hint 1 a right answer is at most 4 (a pass, never "easy"), after hint 2 at most 3 (passed with help).  The
cap is applied where every answer is recorded (:func:`engine.answer_row.record`), so the app, a chain's
step and ``drill check --record --hint N`` keep the same rule; the row keeps the hint taken (``hint``).

The hints' text is the bank's (``question_bank/hints.py``): it needs a problem's step.  Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

LEVELS = (1, 2)  # the hints of the ladder, in the order they are given
CAPS: Mapping[int, int] = {1: 4, 2: 3}  # the highest grade of an answer given after each hint


def hint_problem(hint: Any) -> str | None:
    """Why ``hint`` is not a hint level a review row may hold (None: it is one)."""
    if type(hint) is int and hint in LEVELS:
        return None
    return f"hint must be 1 or 2 (absent: no hint taken), not {hint!r:.80}"


def capped(quality: int, hint: int | None) -> int:
    """``quality`` capped by the hint taken (None: no hint, the quality as it is)."""
    if hint is None:
        return quality
    if (p := hint_problem(hint)) is not None:
        raise ValueError(p)
    return min(quality, CAPS[hint])


def hint_counts(topics: Sequence[str], hints: Sequence[int | None]) -> dict[str, list[int]]:
    """The answers given after each hint, by topic, over the log's columns (each row's topic and hint, as
    ``engine.digest.Digest`` holds them): ``{topic: [after hint 1, after hint 2]}`` (what ``Stats.hints`` and
    the running totals keep)."""
    out: dict[str, list[int]] = {}
    for t, h in zip(topics, hints):
        if h is not None:
            out.setdefault(t, [0, 0])[h - 1] += 1
    return out


def hints_taken(counts: Mapping[str, Sequence[int]]) -> dict[str, Any]:
    """The figure of :func:`hint_counts`: ``{"answers": n, "hint1": n1, "hint2": n2, "by_topic": {topic: n}}``,
    ``answers`` the answers given with a hint (each counted once, at the highest hint taken)."""
    one, two = sum(c[0] for c in counts.values()), sum(c[1] for c in counts.values())
    return {"answers": one + two, "hint1": one, "hint2": two,
            "by_topic": {t: c[0] + c[1] for t, c in sorted(counts.items())}}
