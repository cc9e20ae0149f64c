"""The order of a day's reviews: topics interleaved, the most overdue first.

Interleaving (reviews of different topics mixed rather than one topic after another) helps the learner tell
which method a problem needs, which is what an interview asks.  Two rules:

* **Urgency first**: an item more than :data:`URGENT_DAYS` day overdue is never placed after a less overdue
  one of another topic.  So the items are taken in bands: each overdue figure above one day is a band of its
  own (most overdue first), and everything at most a day overdue is the last band.
* **Within a band, topics alternate**: each next item comes from the topic with the most items left in the
  band that is not the previous item's topic (the topic met first in the input on a tie; within a topic the
  input order is kept).  This greedy choice gives the fewest neighbours that share a topic a multiset of topics
  allows: ``max(0, 2m - n - 1)`` for ``n`` items of which ``m`` share the commonest topic.

:func:`interleave` is pure and keeps every item exactly once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")
URGENT_DAYS = 1  # an item more than this many days overdue keeps its place before less overdue ones


def band(overdue: int) -> int:
    """The urgency band of an item ``overdue`` days overdue (0: at most a day)."""
    return overdue if overdue > URGENT_DAYS else 0


def interleave(items: Sequence[T], topic: Callable[[T], str], overdue: Callable[[T], int]) -> list[T]:
    """``items`` reordered: urgency bands (most overdue first), topics alternating within each band."""
    bands: dict[int, list[T]] = {}
    for it in items:
        bands.setdefault(band(overdue(it)), []).append(it)
    out: list[T] = []
    previous: str | None = None
    for b in sorted(bands, reverse=True):
        queues: dict[str, list[T]] = {}
        for it in bands[b]:
            queues.setdefault(topic(it), []).append(it)
        rank = {t: k for k, t in enumerate(queues)}
        heads = {t: 0 for t in queues}
        left = {t: len(q) for t, q in queues.items()}
        for _ in range(len(bands[b])):
            open_ = [t for t in queues if left[t]]
            choices = [t for t in open_ if t != previous] or open_
            t = min(choices, key=lambda x: (-left[x], rank[x]))
            out.append(queues[t][heads[t]])
            heads[t] += 1
            left[t] -= 1
            previous = t
    return out
