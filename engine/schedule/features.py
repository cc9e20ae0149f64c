"""The features readiness reads from a template's answers: passes, time away in units of the template's memory
stability, misses (:mod:`engine.schedule.readiness` says why these), as of any day, and the FSRS memory behind
the time away.

Pure: the caller passes the answers' days.
"""

from __future__ import annotations

import functools
import math
from bisect import bisect_left
from collections.abc import Iterable
from datetime import date, timedelta
from typing import Protocol

from . import fsrs_bridge


class Answered(Protocol):
    """An answer as the features read it (:class:`engine.schedule.readiness.Answer`)."""

    @property
    def day(self) -> date: ...
    @property
    def item(self) -> str: ...
    @property
    def passed(self) -> bool: ...


@functools.lru_cache(maxsize=65536)
def memory_after(before: tuple[float, float] | None, elapsed: int, passed: bool) -> tuple[float, float]:
    """An item's FSRS stability and difficulty (default weights) after a day's first answer ``elapsed`` days after
    the one before (``before``: its stability and difficulty then; None: the item's first answer), a right
    answer read as Good and a wrong one as Again.  Cached: histories repeat the same few steps."""
    day = date(2000, 1, 1)  # any day: FSRS's update depends on the days between answers alone
    memory = None if before is None else fsrs_bridge.Memory(before[0], before[1], day, 1)
    after = fsrs_bridge.step(memory, 4 if passed else 1, day + timedelta(days=elapsed if before else 0))
    return (after.stability, after.difficulty)


def time_away(days: int, memory: tuple[float, float]) -> float:
    """The time-away feature: ``log(1 + days / S)``, the days since the last answer in units of the item's
    stability ``S`` (so a template practised often, whose memory is stable, fades more slowly)."""
    return math.log1p(days / memory[0])


class Index:
    """Each item's answers (days and outcomes, oldest first), for features as of any day."""

    def __init__(self, answers: Iterable[Answered]) -> None:
        self.days: dict[str, list[int]] = {}
        self.passed: dict[str, list[int]] = {}
        self.memory: dict[str, list[tuple[float, float]]] = {}  # the FSRS memory after each answer
        for a in answers:
            self.add(a.item, a.day.toordinal(), a.passed)

    def features(self, item: str, day: int, upto: int | None = None) -> tuple[float, float, float]:
        """The features of ``item`` for a fresh answer on ``day`` (an ordinal) from its answers before that
        day - or its first ``upto`` answers when given."""
        days = self.days.get(item, ())
        n = bisect_left(days, day) if upto is None else upto
        if n == 0:
            return (0.0, 0.0, 0.0)
        passes = sum(self.passed[item][:n])
        return (math.log1p(passes), time_away(max(0, day - days[n - 1]), self.memory[item][n - 1]),
                math.log1p(n - passes))

    def add(self, item: str, day: int, passed: bool) -> None:
        days = self.days.setdefault(item, [])
        memories = self.memory.setdefault(item, [])
        if not days:
            memories.append(memory_after(None, 0, passed))
        elif days[-1] == day:  # a re-drill the same day: the memory stands
            memories.append(memories[-1])
        else:
            memories.append(memory_after(memories[-1], day - days[-1], passed))
        days.append(day)
        self.passed.setdefault(item, []).append(1 if passed else 0)

    def before(self, day: int) -> Index:
        """The index of the answers before ``day`` (an ordinal)."""
        out = Index(())
        for item, days in self.days.items():
            n = bisect_left(days, day)
            if n:
                out.days[item], out.passed[item] = days[:n], self.passed[item][:n]
                out.memory[item] = self.memory[item][:n]
        return out

    def copy(self) -> Index:
        out = Index(())
        out.days = {i: d[:] for i, d in self.days.items()}
        out.passed = {i: p[:] for i, p in self.passed.items()}
        out.memory = {i: m[:] for i, m in self.memory.items()}
        return out
