"""The statistics as running totals: what ``engine.stats.compute`` finds in the whole log, kept up to date one
review row at a time, so the figures cost the same at 100 reviews and at 200,000.

:class:`Running` holds, for the rows added so far (oldest first):

- per day: the rows recorded (any answer: a day is studied) and the reviews counted (a chain once);
- per item: its topic, reviews, passed, total measured time, the passes of its latest
  ``RECENT_REVIEWS`` reviews, the date of its last, and its latest :data:`HISTORY_ROWS` reviews (the stats
  screen's history and trend of a template);
- per day of the last :data:`KEEP_DAYS` (counted from the newest day added): each item's reviews, passed,
  and whether its first scheduled review of the day was seen, and the day's first reviews of mature items
  and how many passed (the 30-day accuracy and true retention, for any today up to a month after the
  newest row);
- per topic: a histogram of measured times in tenths of a second (the median time);
- each item's chain steps not yet decided: steps are counted only when the item's next row shows that no
  whole-item row of theirs followed (``engine.stats.covered_steps``).

Every part grows with the bank, the days studied or the times' resolution, never with the number of reviews.
Pure and JSON-safe (:meth:`Running.to_dict`): ``engine.storage`` keeps it beside the log.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import date, timedelta
from typing import Any

from .answer_row import LAPSE
from .digest import DIGEST_FIELDS, Digest
from .stats import MATURE_DAYS, PASS_QUALITY, RECENT_REVIEWS, WINDOW_DAYS, Stats, Tally, assemble, tenths

HISTORY_ROWS = 40  # an item's latest reviews kept for the stats screen's history and trend
KEEP_DAYS = 2 * WINDOW_DAYS  # days of per-item counts kept behind the newest day (the window may start later)
VERSION = 3  # 2: lapses per item (leeches); 3: hints per topic; a file of another version is rebuilt from the log

Row = tuple  # one row's digest columns, in DIGEST_FIELDS order


def row_columns(row: Mapping[str, Any]) -> Row:
    """A stored review row (a dict) as the digest's columns (:meth:`engine.digest.Digest.of_rows`'s)."""
    before = row["before"]
    return (row["date"], row["item"], row["topic"], row["seed"], row["step"], row["verdict"], row["quality"],
            row["seconds"], row["mode"], before.get("interval", 0) if before else None,
            (row["after"] or {}).get("interval", 0) if row["scheduled"] else None, row.get("pressed") is True,
            row.get("hint"))


class Running:
    """The figures' running totals (see the module docstring); :meth:`add` one row, :meth:`figures` any day."""

    __slots__ = ("rows", "days", "items", "window", "retention", "times", "pending", "newest", "lapses", "hints")

    def __init__(self) -> None:
        self.rows = 0  # rows added
        self.days: dict[str, list[int]] = {}  # day: [rows, reviews counted]
        # item: {"topic", "reviews", "passed", "seconds", "last", "recent": [0/1...], "history": [[...], ...]}
        self.items: dict[str, dict[str, Any]] = {}
        self.window: dict[str, dict[str, list[int]]] = {}  # day: item: [reviews, passed, first scheduled seen]
        self.retention: dict[str, list[int]] = {}  # day: [first reviews of mature items, passed]
        self.times: dict[str, dict[str, int]] = {}  # topic: time in tenths of a second (its repr): count
        self.pending: dict[str, list] = {}  # item: [seed, [rows]]: chain steps waiting for their whole row
        self.newest: str | None = None  # the newest day counted
        self.lapses: dict[str, int] = {}  # item: its failed whole reviews (engine.leeches: a leech at 6)
        self.hints: dict[str, list[int]] = {}  # topic: [answers after hint 1, after hint 2] (engine.hints)

    # -- adding rows ------------------------------------------------------ #

    @classmethod
    def of_digest(cls, d: Digest) -> Running:
        """The totals of a whole log, from scratch."""
        out = cls()
        for r in zip(*(getattr(d, f) for f in DIGEST_FIELDS)):
            out.add(r)
        return out

    def add(self, r: Row) -> None:
        """Add the next row of the log (its digest columns: :func:`row_columns`)."""
        self.rows += 1
        day, item, seed, step = r[0], r[1], r[3], r[4]
        counts = self.days.get(day)
        if counts is None:
            counts = self.days[day] = [0, 0]
        counts[0] += 1
        if step is None and r[6] < LAPSE:  # a failed whole review, in any mode (engine.leeches.lapses)
            self.lapses[item] = self.lapses.get(item, 0) + 1
        if r[12] is not None:  # an answer given after a hint (a chain's step keeps its own)
            self.hints.setdefault(r[2], [0, 0])[r[12] - 1] += 1
        run = self.pending.get(item)
        if step is not None:  # a chain's step: counted once the item's next row shows no whole row covers it
            if run is not None and run[0] == seed:
                run[1].append(list(r))
                return
            if run is not None:
                self._commit(run[1])
            self.pending[item] = [seed, [list(r)]]
            return
        if run is not None:
            del self.pending[item]
            if run[0] != seed:
                self._commit(run[1])
        self._count(r)

    def _commit(self, rows: Iterable[Sequence]) -> None:
        for r in rows:
            self._count(r)

    def _count(self, r: Sequence) -> None:
        day, item, topic, _, step, verdict, q, seconds, mode, before, interval = r[:11]
        self.days[day][1] += 1
        ok = 1 if q >= PASS_QUALITY else 0
        it = self.items.get(item)
        if it is None:
            it = self.items[item] = {"topic": topic, "reviews": 0, "passed": 0, "seconds": 0.0, "last": None,
                                     "recent": [], "history": []}
        it["reviews"] += 1
        it["passed"] += ok
        it["last"] = day
        it["recent"] = (it["recent"] + [ok])[-RECENT_REVIEWS:]
        it["history"] = (it["history"] + [[day, verdict, q, seconds, mode, step, interval]])[-HISTORY_ROWS:]
        if seconds is not None:  # None: not measured
            it["seconds"] += seconds
            times = self.times.setdefault(it["topic"], {})
            key = repr(tenths(seconds))
            times[key] = times.get(key, 0) + 1
        if self.newest is None or day > self.newest:
            self.newest = day
            oldest = (date.fromisoformat(day) - timedelta(days=KEEP_DAYS)).isoformat()
            for old in [d for d in self.window if d < oldest]:
                del self.window[old]
                self.retention.pop(old, None)
        elif day < (date.fromisoformat(self.newest) - timedelta(days=KEEP_DAYS)).isoformat():
            return  # older than any window the figures may ask for
        w = self.window.setdefault(day, {}).get(item)
        if w is None:
            w = self.window[day][item] = [0, 0, 0]
        w[0] += 1
        w[1] += ok
        if interval is not None and not w[2]:  # the item's first scheduled review of the day
            w[2] = 1
            if before is not None and before >= MATURE_DAYS:
                ret = self.retention.setdefault(day, [0, 0])
                ret[0] += 1
                ret[1] += ok

    def _copy(self) -> Running:
        """A copy :meth:`_count` may change without changing this one (it replaces an item's lists, never
        changes them), without the pending steps."""
        out = Running()
        out.rows, out.newest = self.rows, self.newest
        out.days = {d: c[:] for d, c in self.days.items()}
        out.items = {i: dict(it) for i, it in self.items.items()}
        out.window = {d: {i: w[:] for i, w in per.items()} for d, per in self.window.items()}
        out.retention = {d: r[:] for d, r in self.retention.items()}
        out.times = {t: dict(c) for t, c in self.times.items()}
        out.lapses = dict(self.lapses)
        out.hints = {t: c[:] for t, c in self.hints.items()}
        return out

    # -- the figures ------------------------------------------------------ #

    def figures(self, states: Mapping[str, Any], mocks: Iterable[Mapping], templates: Iterable[tuple[str, str, str]],
                today: date, topics: Sequence[str] = ()) -> Stats:
        """Every figure of ``engine.stats.compute`` for the rows added, for ``today`` (at most
        ``KEEP_DAYS - WINDOW_DAYS`` days before the newest row's day, else the 30-day figures lack days); an
        item's history and trend cover its latest :data:`HISTORY_ROWS` reviews."""
        view = self
        if self.pending:  # steps not decided yet count on their own, as compute() counts them
            view = self._copy()
            for _, rows in self.pending.values():
                view._commit(rows)
        since = (today - timedelta(days=WINDOW_DAYS - 1)).isoformat()
        in_window: dict[str, list[int]] = {}
        ret = [0, 0]
        for day, per_item in view.window.items():
            if day >= since:
                for item, (n, ok, _) in per_item.items():
                    acc = in_window.setdefault(item, [0, 0])
                    acc[0] += n
                    acc[1] += ok
                if (r := view.retention.get(day)) is not None:
                    ret[0] += r[0]
                    ret[1] += r[1]
        tallies = {}
        history: list = []  # every item's kept reviews, item after item: the digest the screen reads them from
        items: list[str] = []
        topics_of: list[str] = []
        item_rows: dict[str, range] = {}
        for item, it in view.items.items():
            n30, ok30 = in_window.get(item, (0, 0))
            tallies[item] = Tally(it["topic"], it["reviews"], it["passed"], n30, ok30,
                                  [bool(b) for b in it["recent"]], it["last"], it["seconds"])
            h = it["history"]
            item_rows[item] = range(len(history), len(history) + len(h))
            history += h
            items += [item] * len(h)
            topics_of += [it["topic"]] * len(h)
        cols = [list(c) for c in zip(*history)] if history else [[] for _ in range(7)]
        columns = dict(zip(("date", "verdict", "quality", "seconds", "mode", "step", "interval"), cols))
        columns |= {"item": items, "topic": topics_of, "seed": [0] * len(items), "before": [None] * len(items),
                    "pressed": [False] * len(items), "hint": [None] * len(items)}
        return assemble(tallies, {d: c[1] for d, c in view.days.items() if c[1]},
                        [d for d, c in view.days.items() if c[0]], (ret[0], ret[1]), states, mocks, templates,
                        today, topics, digest=Digest(columns), item_rows=item_rows,
                        topic_times={t: {float(k): n for k, n in c.items()} for t, c in view.times.items()},
                        lapses=dict(view.lapses), hints={t: c[:] for t, c in view.hints.items()})

    # -- as JSON ---------------------------------------------------------- #

    def to_dict(self) -> dict[str, Any]:
        return {"version": VERSION, **{f: getattr(self, f) for f in self.__slots__}}

    @classmethod
    def from_dict(cls, d: Any) -> Running:
        """The totals as :meth:`to_dict` wrote them; ``ValueError`` when they are not (damaged, or another
        version's: the caller rebuilds them from the log)."""
        if not isinstance(d, dict) or d.get("version") != VERSION or d.keys() != {"version", *cls.__slots__}:
            raise ValueError("not the running statistics of this version")
        out = cls()
        kinds = {"rows": int, "days": dict, "items": dict, "window": dict, "retention": dict, "times": dict,
                 "pending": dict, "lapses": dict, "hints": dict}
        for f, kind in kinds.items():
            if type(d[f]) is not kind:
                raise ValueError(f"{f!r} is not a {kind.__name__}")
            setattr(out, f, d[f])
        if not (d["newest"] is None or isinstance(d["newest"], str)):
            raise ValueError("'newest' is not a date")
        out.newest = d["newest"]
        try:  # the shapes the figures read: a value of another shape is damage, not a figure
            for day, c in out.days.items():
                _ = (day < "", c[0] + c[1] + 0)
            for it in out.items.values():
                _ = (it["topic"] < "", it["reviews"] + it["passed"] + it["seconds"], len(it["recent"]),
                     [len(h) == 7 or _bad() for h in it["history"]])
            for per_item in out.window.values():
                for n, ok, seen in per_item.values():
                    _ = n + ok + seen
            for ret in out.retention.values():
                _ = ret[0] + ret[1]
            for counts in out.times.values():
                for k, n in counts.items():
                    _ = float(k) + n
            for n in out.lapses.values():
                _ = n + 0
            for c in out.hints.values():
                _ = c[0] + c[1]
            for run in out.pending.values():
                _ = [len(r) == len(DIGEST_FIELDS) or _bad() for r in run[1]]
        except (TypeError, KeyError, IndexError, ValueError, AttributeError):
            raise ValueError("a total of the wrong shape") from None
        return out

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Running) and self.to_dict() == other.to_dict()


def _bad() -> bool:
    raise ValueError("a row of the wrong length")
