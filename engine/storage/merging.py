"""Merging replicas of one profile (``drill sync``, ``drill import --merge``): pure, on export documents.

Each copy of a profile is a *replica* (``manifest.new_replica``).  A review is known everywhere by its origin:
the replica it was first recorded in and its id there (a row's ``origin``, or, when absent, the replica whose
row it is and the row's own id).  :func:`merge` makes the union of the reviews: this side's rows stay as they
are, in their order and with their ids; every row of the others it lacks is appended, in arrival order, with
the next id here and its ``origin``.  Two rows are the same review when their origin and their content (all
but ``id`` and ``origin``) are equal, so merging is idempotent, commutative and associative as a set of
reviews.  Two rows with one origin and different content are a *conflict*: both are kept (nothing is dropped)
and reported.

Each item that gained rows is then replayed (:func:`replay`) from all its scheduled rows in time order: a row
whose ``before`` is the state replayed so far keeps the ``after`` the record path gave it (with the load and
cap it saw then); any other is scheduled again by the profile's scheduler from the replayed state, as
``engine.answer_row.review_row`` schedules an answer (without the day's load, which only that moment knew).
The states depend on the set of rows alone, so every replica that has the same rows has the same states.

Settings keep each one's change time (the export's ``settings_changed``): a merge takes each setting's latest.
A setting without a time (set before times were kept) is older than one with; two values of one time (or both
without, and both off the default) are a conflict, decided the same way everywhere and reported.  Mocks are
merged as the reviews are, by content.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from datetime import date
from typing import Any

from engine.records import NamedTuple

from ..answer_row import Rules
from ..schedule import fsrs_bridge
from ..schedule.fsrs_bridge import Scheduler
from ..sm2 import ItemState, review
from .layout import DEFAULT_SETTINGS

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


RulesOf = Callable[[Mapping[str, Any]], Rules]  # the scheduling rules the merged settings give (drill.core.sync)


def replay(rows: Iterable[Mapping[str, Any]], rules: Rules) -> ItemState | None:
    """One item's state from its rows (any order): its scheduled rows in time order (ties by content), each
    either kept (its ``before`` is the state so far) or scheduled again by ``rules`` (see the module)."""
    scheduled = sorted((r for r in rows if r["scheduled"] and r["step"] is None),
                       key=lambda r: (r["ts"], content(r)))
    fsrs, tuning = rules.scheduler == Scheduler.FSRS, rules.tuning
    interview_day, cap = rules.interview, rules.cap
    state: ItemState | None = None
    history: list[fsrs_bridge.Scheduled] = []
    for r in scheduled:
        day = date.fromisoformat(r["date"])
        if r["before"] == (state.to_dict() if state is not None else None):
            state = ItemState.from_dict(r["after"])
        elif fsrs:
            memory = fsrs_bridge.replay(sorted(history, key=lambda h: h[0]), tuning)
            if memory is not None and day < memory.last:
                day = memory.last  # (a local day behind the last one: another time zone)
            state = fsrs_bridge.review(state, memory, r["quality"], day, interview_day, None, cap, tuning,
                                       bool(r.get("pressed")))[0]
        else:
            state = review(state or ItemState(), r["quality"], day, interview_day, None, cap)
        history.append(fsrs_bridge.Scheduled(date.fromisoformat(r["date"]), r["quality"], bool(r.get("pressed"))))
    return state


def merge(local: Mapping[str, Any], replica: str, others: Iterable[tuple[str, Mapping[str, Any]]],
          rules_of: RulesOf) -> tuple[dict, Report]:
    """``local`` (this profile's export document, of replica ``replica``) with every review, state, setting and
    mock of ``others`` ((replica, export document) pairs) it lacks: the merged document and the :class:`Report`.
    ``rules_of``: the scheduling rules of the merged settings, for the replay."""
    others = list(others)
    rows = list(local["reviews"])
    seen: dict[tuple[Origin, str], None] = {}
    by_origin: dict[Origin, set[str]] = {}
    for r in rows:
        key = (origin_of(r, replica), content(r))
        seen[key] = None
        by_origin.setdefault(key[0], set()).add(key[1])
    next_id = max((r["id"] for r in rows), default=0) + 1
    touched: set[str] = set()
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
            touched.add(r["item"])
    added = len(rows) - len(local["reviews"])
    settings, times, setting_conflicts = _merge_settings([local] + [d for _, d in others])
    per_item: dict[str, list] = {}
    for r in rows:
        per_item.setdefault(r["item"], []).append(r)
    scheduled = {r["item"] for r in rows if r["scheduled"] and r["step"] is None}
    states = dict(local["states"])
    for _, doc in others:  # an item no row schedules (a state imported alone): the same one everywhere
        for item, st in doc["states"].items():
            if item not in scheduled and (item not in states or _canon(st) > _canon(states[item])):
                states[item] = st
    replayed = []
    items = touched if settings == local["settings"] else set(per_item)  # new rules: every item
    if items:
        rules = rules_of(settings)
        for item in sorted(items):
            st = replay(per_item[item], rules)
            if st is not None and st.to_dict() != states.get(item):
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
