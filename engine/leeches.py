"""Leeches: the items that keep failing, from the review log alone.

A **lapse** is any failed review of an item (a whole-item row, ``step`` None, of quality below 3), in every
mode and whether or not the item was ever passed: an item failed six times before its first pass is as
stuck as one that lapsed six times after it (SM-2's "lapse" counts only the second kind, which never marks
an item that is simply not learnt).  An item with :data:`LEECH_LAPSES` lapses is a **leech** (Anki marks one
at 8 by default; a drill for one interview has fewer reviews to spend).  The learner may reset a leech: its
lapses are then counted from that point (``reset``: the item's lapse count when it was reset).

What becomes of a leech (marked in Browse and Stats, its formula card before its next drill, its weakest
step drilled alone, suspended or reset) is the app's: ``drill/core/leeches.py``.  Here, only pure functions
of the log's columns (``engine.digest.Digest`` holds them: each row's item, step and quality, oldest first),
so any aggregate over the log can call them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from .answer_row import LAPSE as FAILED  # a quality below this is a failed review

LEECH_LAPSES = 6  # lapses that make an item a leech


def lapses(items: Sequence[str], steps: Sequence[int | None], qualities: Sequence[int]) -> Counter[str]:
    """Each item's lapses: its whole-item rows (``step`` None) of quality below 3, in every mode."""
    return Counter(item for item, step, q in zip(items, steps, qualities) if step is None and q < FAILED)


def lapses_since(count: int, reset_at: int | None) -> int:
    """An item's lapses counted since it was reset (``reset_at``: its count then; None: never reset)."""
    return max(0, count - (reset_at or 0))


def leeches(counts: Mapping[str, int], reset: Mapping[str, int] | None = None) -> list[str]:
    """The ids of the items with at least :data:`LEECH_LAPSES` lapses since any reset, sorted."""
    reset = reset or {}
    return sorted(i for i, n in counts.items() if lapses_since(n, reset.get(i)) >= LEECH_LAPSES)


def weakest_step(items: Sequence[str], steps: Sequence[int | None], qualities: Sequence[int],
                 item: str) -> int | None:
    """The step (1-based) of the chain ``item`` that failed most often in the log, the earlier on a tie; None
    when no step of it ever failed (or it is a single template: its rows have no step)."""
    failed = Counter(s for i, s, q in zip(items, steps, qualities) if i == item and s is not None and q < FAILED)
    if not failed:
        return None
    return min(failed, key=lambda s: (-failed[s], s))


def card_due(count: int, reset_at: int | None, shown_at: int | None) -> bool:
    """Is a leech's formula card to be shown before its next drill?  Yes when it is a leech and has lapsed
    since the card was last shown (``shown_at``: its lapse count then; None: never): once a leech, the card
    comes back after each new lapse, never twice for the same one."""
    return lapses_since(count, reset_at) >= LEECH_LAPSES and (shown_at is None or count > shown_at)
