"""What the tests measure the product against, kept out of the product that never calls it.

* :func:`answers_of`: readiness's answers read from review rows one by one, the reference the fast
  reader of the log's columns (``engine.schedule.readiness.answers_of_digest``) must agree with;
* :func:`same_topic_neighbours` and :func:`fewest_same_topic_neighbours`: how well a day's reviews are
  interleaved (``engine.schedule.interleave``), and the best any order of their topics allows;
* :func:`sm2_replay`: an item's SM-2 state from its scheduled reviews, what switching back from FSRS must give;
* :func:`history_of`: each item's scheduled reviews read from review rows one by one, the reference for
  ``engine.schedule.fsrs_bridge.history_of_digest``;
* :func:`has_code`: whether a text shown to the learner leaks an internal seed code (``engine.sources``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import date
from typing import TypeVar

from engine.review import Review
from engine.review_mode import ReviewMode
from engine.schedule.readiness import PASS, Answer
from engine.sm2 import ItemState, review

T = TypeVar("T")


def answers_of(rows: Iterable[Review]) -> list[Answer]:
    """The answers readiness counts among review rows (oldest first): every whole answer (``step`` None) and
    each step asked in a mock (a mock asks a chain's steps as questions of their own); passed = quality >= 3."""
    return [Answer(date.fromisoformat(r.date), r.item, r.topic, r.quality >= PASS) for r in rows
            if r.step is None or r.mode == ReviewMode.MOCK]


def same_topic_neighbours(items: Sequence[T], topic: Callable[[T], str]) -> int:
    """How many neighbouring pairs of ``items`` share a topic."""
    return sum(1 for a, b in zip(items, items[1:]) if topic(a) == topic(b))


def fewest_same_topic_neighbours(topics: Sequence[str]) -> int:
    """The fewest neighbouring pairs sharing a topic any order of ``topics`` has: ``max(0, 2m - n - 1)``."""
    if not topics:
        return 0
    m = max(topics.count(t) for t in set(topics))
    return max(0, 2 * m - len(topics) - 1)


def has_code(text: str) -> bool:
    """True when ``text`` shows an internal seed code or the cheat-sheet's table by its internal name."""
    return "R§" in text or "C§" in text or "cheat-sheet table" in text.lower()


def sm2_replay(history: Iterable[tuple[date, int]]) -> ItemState | None:
    """An item's SM-2 state from its scheduled reviews ``(day, quality)`` (plain SM-2, no interview date)."""
    state = None
    for day, quality in history:
        state = review(state or ItemState(), quality, day)
    return state


def history_of(rows: Iterable[Review]) -> dict[str, list[tuple[date, int, bool]]]:
    """Each item's scheduled reviews ``(day, quality, pressed)``, oldest first, from review rows (oldest
    first): the rows that moved the schedule (``scheduled``; a chain's whole-item row)."""
    out: dict[str, list[tuple[date, int, bool]]] = {}
    for r in rows:
        if r.scheduled and r.step is None:
            out.setdefault(r.item, []).append((date.fromisoformat(r.date), r.quality, r.pressed is True))
    return out
