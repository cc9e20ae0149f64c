"""Merging replicas of one profile (``drill sync``, ``drill import --merge``): pure, on export documents.

Each copy of a profile is a *replica* (``manifest.new_replica``).  A review is known everywhere by its origin:
the replica it was first recorded in and its id there (a row's ``origin``, or, when absent, the replica whose
row it is and the row's own id; a history from before replica ids is named by the id its first row makes,
``engine.review.legacy_replica``).  :func:`merge` makes the union of the reviews: this side's rows stay as they
are, in their order and with their ids; every row of the others it lacks is appended, in arrival order, with
the next id here and its ``origin``.  Two rows are the same review when their origin and their content (all
but ``id`` and ``origin``) are equal, so merging is idempotent, commutative and associative as a set of
reviews.  Two rows with one origin and different content are a *conflict*: both are kept (nothing is dropped)
and reported.

At every merge the item states are then replayed (:func:`replay`) from all the scheduled rows in time order,
each recorded again through the one record path (``engine.answer_row.record``) from the states replayed so
far, by the profile's scheduler: the final stretch before an interview sees the reviews due each day on every
machine and the daily cap, so each item gets the due date it would have had if every answer had been given on
one machine in time order.  The states depend on the set of rows (and the merged settings) alone, so every
replica that has the same rows has the same states.

Settings keep each one's change time (the export's ``settings_changed``): a merge takes each setting's latest.
A setting without a time (set before times were kept) is older than one with; two values of one time (or both
without, and both off the default) are a conflict, decided the same way everywhere and reported.  Mocks are
merged as the reviews are, by content.
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, date, datetime
from typing import Any

from engine.records import NamedTuple

from ..answer_row import Book, Drawn, Moves, Rules, record
from ..schedule import fsrs_bridge
from ..schedule.fsrs_bridge import Scheduler
from ..schedule.pace import Catalog
from ..sm2 import ItemState
from .layout import DEFAULT_SETTINGS
from .recent import RECENT_QUALITIES

Origin = tuple[str, int]


class Report(NamedTuple):
    """What a merge did: the rows and mocks added, the items whose state changed (replayed), and the conflicts
    kept (the origins of reviews whose copies differ; the settings whose values differed with no later change
    to decide between them)."""

    added: int = 0
    mocks: int = 0
    replayed: tuple[str, ...] = ()
    conflicts: tuple[Origin, ...] = ()
    settings: tuple[str, ...] = ()
    settings_taken: bool = False  # a setting (or its change time) took another side's

    @property
    def changed(self) -> bool:
        return bool(self.added or self.mocks or self.replayed or self.settings_taken)


def _canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def origin_of(row: Mapping[str, Any], replica: str) -> Origin:
    """A row's origin: its ``origin`` field, or (``replica``, its id) for a row of the replica that holds it."""
    o = row.get("origin")
    return (o["replica"], o["id"]) if o else (replica, row["id"])


def content(row: Mapping[str, Any]) -> str:
    """A row's content, as compared: every field but ``id`` and ``origin``."""
    return _canon({k: v for k, v in row.items() if k not in ("id", "origin")})


def _merge_settings(docs: list[Mapping[str, Any]]) -> tuple[dict, dict, tuple[str, ...]]:
    """Each setting's latest value by its change time (``settings_changed``); a value without a time is older
    than any with one, a default older than a value off it; the rest (equal times) is decided by JSON order, the
    same way on every copy, and named.  Returns the settings, their change times and the settings so decided."""
    out: dict[str, Any] = {}
    times: dict[str, str] = {}
    conflicts = []
    for key in sorted({k for d in docs for k in d["settings"]}):
        ranked = sorted(((d.get("settings_changed") or {}).get(key, ""),
                         not (key in DEFAULT_SETTINGS and d["settings"][key] == DEFAULT_SETTINGS[key]),
                         _canon(d["settings"][key]), d["settings"][key]) for d in docs if key in d["settings"])
        best = ranked[-1]
        if any(r[:2] == best[:2] and r[2] != best[2] for r in ranked):
            conflicts.append(key)
        out[key] = best[3]
        if best[0]:
            times[key] = best[0]
    return out, times, tuple(conflicts)


class Context(NamedTuple):
    """What the replay reads besides the rows, as the record path reads it from the profile
    (``drill.core.recording.book_of``): the scheduling rules, the bank (the new items still to come count in the
    final stretch's load) and the templates retired given the states and each item's latest qualities (None:
    none)."""

    rules: Rules
    catalog: Catalog = ()
    retired: Callable[[Mapping[str, ItemState], Mapping[str, Sequence[int]]], frozenset[str]] | None = None


ContextOf = Callable[[Mapping[str, Any]], Context]  # the context the merged settings give (drill.core.sync)


def _instant(ts: str) -> datetime:
    return datetime.fromisoformat(ts).replace(tzinfo=UTC)  # (a row's ts is UTC: 2026-11-29T15:42:01Z)


def _in_time_order(rows: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The rows by time, rows of one time by content (the same order on every copy); content is asked only of
    rows that share a time (it is JSON text: costly for every row of a long history)."""
    out = sorted(rows, key=lambda r: r["ts"])
    k = 0
    while k < len(out):
        end = k + 1
        while end < len(out) and out[end]["ts"] == out[k]["ts"]:
            end += 1
        if end - k > 1:
            out[k:end] = sorted(out[k:end], key=content)
        k = end
    return out


def _known(memory: fsrs_bridge.Memory | None) -> Callable[[str], fsrs_bridge.Memory | None]:
    return lambda _item: memory  # (the book asks for the memory of the item answered alone)


def replay(rows: Iterable[Mapping[str, Any]], context: Context,
           unscheduled: Mapping[str, ItemState] | None = None) -> dict[str, ItemState]:
    """Every item's state from the rows (any order), as if every answer had been given on one machine in time
    order (ties by content): each scheduled row is recorded again through the record path
    (``engine.answer_row.record``) from the states replayed so far, so the final stretch sees the reviews due
    each day on every machine, the daily cap, the new items met that day and those still to come, and FSRS the
    item's memory from its rows by day.  ``unscheduled``: the states no row schedules (imported alone), in the
    load from the start.  The states depend on the set of rows alone."""
    rules = context.rules
    fsrs = rules.scheduler == Scheduler.FSRS
    states: dict[str, ItemState] = dict(unscheduled or {})
    history: dict[str, list[fsrs_bridge.Scheduled]] = {}
    memory: dict[str, fsrs_bridge.Memory] = {}
    recent: dict[str, list[int]] = {}  # each item's latest qualities, every row (the retired scaffolds read them)
    met: dict[date, set[str]] = {}  # the items first met each day (the day's new items, engine.session.met)
    for r in _in_time_order(rows):
        item, quality = r["item"], r["quality"]
        if r["scheduled"] and r["step"] is None:
            day = date.fromisoformat(r["date"])
            mem = memory.get(item)
            today = max(day, mem.last) if mem is not None else day  # (a local day behind the last: a time zone)
            retired = (context.retired(states, recent) if rules.interview is not None and context.retired
                       else frozenset())
            book = Book(states, rules, context.catalog, _known(mem), len(met.get(day, ())), retired)
            pressed = bool(r.get("pressed"))
            after = record(book, Drawn(item, r["topic"], r["seed"]), quality=quality, verdict=r["verdict"],
                           when=_instant(r["ts"]), today=today, mode=r["mode"], moves=Moves.ALWAYS,
                           pressed=pressed).after
            assert after is not None  # (a scheduled record has a state after it)
            if item not in states:
                met.setdefault(day, set()).add(item)
            states[item] = ItemState.from_dict(after)
            if fsrs:  # the item's memory, as fsrs_bridge.history_of_digest reads it: by day, a day's in order
                h = history.setdefault(item, [])
                done = fsrs_bridge.Scheduled(day, quality, pressed)
                if not h or day >= h[-1].day:
                    h.append(done)
                    memory[item] = fsrs_bridge.step(mem, quality, day, rules.tuning, pressed)
                else:
                    bisect.insort_right(h, done, key=lambda s: s.day)
                    again = fsrs_bridge.replay(h, rules.tuning)
                    assert again is not None  # (h holds this review)
                    memory[item] = again
        qs = recent.setdefault(item, [])
        qs.append(quality)
        if len(qs) > RECENT_QUALITIES:
            del qs[0]
    return states


def merge(local: Mapping[str, Any], replica: str, others: Iterable[tuple[str, Mapping[str, Any]]],
          context_of: ContextOf) -> tuple[dict, Report]:
    """``local`` (this profile's export document, of replica ``replica``) with every review, state, setting and
    mock of ``others`` ((replica, export document) pairs) it lacks: the merged document and the :class:`Report`.
    ``context_of``: the replay's :class:`Context` under the merged settings."""
    others = list(others)
    rows = list(local["reviews"])
    seen: dict[tuple[Origin, str], None] = {}
    by_origin: dict[Origin, set[str]] = {}
    for r in rows:
        key = (origin_of(r, replica), content(r))
        seen[key] = None
        by_origin.setdefault(key[0], set()).add(key[1])
    next_id = max((r["id"] for r in rows), default=0) + 1
    for other_replica, doc in others:
        for r in doc["reviews"]:
            o = origin_of(r, other_replica)
            key = (o, content(r))
            if key in seen:
                continue
            seen[key] = None
            by_origin.setdefault(o, set()).add(key[1])
            new = {k: v for k, v in r.items() if k != "origin"}
            new["id"] = next_id
            if o != (replica, next_id):
                new["origin"] = {"replica": o[0], "id": o[1]}
            next_id += 1
            rows.append(new)
    added = len(rows) - len(local["reviews"])
    settings, times, setting_conflicts = _merge_settings([local] + [d for _, d in others])
    scheduled = {r["item"] for r in rows if r["scheduled"] and r["step"] is None}
    states = dict(local["states"])
    for _, doc in others:  # an item no row schedules (a state imported alone): the same one everywhere
        for item, st in doc["states"].items():
            if item not in scheduled and (item not in states or _canon(st) > _canon(states[item])):
                states[item] = st
    # every item: a review on one item moves the load another's last review saw, and a copy's own states (recorded
    # as it went, under the settings of the day) become the same replay as every other copy's.  Not when nothing
    # came, the settings are the same and every other copy's states are these already (the usual sync with
    # nothing new): then the copies agree as they are, and the replay, the costly part, is spared.
    agree = not added and settings == local["settings"] and all(
        doc["states"].get(item) == states.get(item) for _, doc in others for item in scheduled)
    replayed = []
    if not agree:
        unscheduled = {item: ItemState.from_dict(st) for item, st in states.items() if item not in scheduled}
        for item, st in sorted(replay(rows, context_of(settings), unscheduled).items()):
            if item in scheduled and st.to_dict() != states.get(item):
                states[item] = st.to_dict()
                replayed.append(item)
    mocks = list(local["mocks"])
    known = {_canon({k: v for k, v in m.items() if k != "id"}) for m in mocks}
    next_mock = max((m["id"] for m in mocks), default=0) + 1
    for _, doc in others:
        for m in doc["mocks"]:
            c = _canon({k: v for k, v in m.items() if k != "id"})
            if c not in known:
                known.add(c)
                mocks.append({**m, "id": next_mock})
                next_mock += 1
    conflicts = tuple(sorted(o for o, contents in by_origin.items() if len(contents) > 1))
    merged = {**{k: v for k, v in local.items() if k != "settings_changed"}, "settings": settings,
              **({"settings_changed": times} if times else {}), "states": dict(sorted(states.items())),
              "reviews": rows, "mocks": mocks}
    report = Report(added, len(mocks) - len(local["mocks"]), tuple(replayed), conflicts, setting_conflicts,
                    settings != local["settings"] or times != (local.get("settings_changed") or {}))
    return merged, report
