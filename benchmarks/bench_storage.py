"""Save-file speed as the history grows: recording one answer, opening a profile.

Builds profiles with 1,000 and 100,000 reviews in a temporary folder (through
``Profile.import_document``), then times ``Profile.record`` (median of many
answers; each one is durable: two fsynced file replacements), opening the
profile plus what Home needs (today's due items, today's answers, the streak
from the day index), and rebuilding that index from the log once, as for a
save made before it; then what Browse and a weighted mock read (each item's
latest answers, kept in the state file: ``browse_rows.bank_rows``, ``mock.weakness``)
against reading the whole log for them, as they did before.
"""

from __future__ import annotations

import json
import random
import statistics
import tempfile
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from drill.core import browse_rows, mock
from drill.core.context import AppContext
from engine import session, stats
from engine.mock import weakness_figures
from engine.sm2 import ItemState
from engine.storage import EXPORT_FORMAT, SCHEMA_VERSION, Profile
from question_bank import registry

TODAY = date(2026, 11, 29)
ITEMS = [(t.id, t.topic) for t in registry.all_templates()]  # the bank's templates, as Browse lists them
RECORDS = 200


def history(n: int, rng: random.Random) -> dict:
    """An export document with ``n`` scheduled reviews spread over the past years."""
    states: dict[str, ItemState] = {}
    rows = []
    start = TODAY - timedelta(days=max(1, n // 40))
    for i in range(n):
        item, topic = ITEMS[rng.randrange(len(ITEMS))]
        day = start + timedelta(days=i * (TODAY - start).days // n)
        when = datetime(day.year, day.month, day.day, 12, tzinfo=UTC)
        q = rng.choice((1, 3, 4, 4, 5, 5))
        row = session.review_row(item=item, topic=topic, seed=rng.randrange(2**31), quality=q,
                                 verdict="correct" if q >= 4 else "wrong", when=when, today=day,
                                 state=states.get(item), schedule=True, typed="12.5 GB", value=12.5e9,
                                 seconds=round(rng.uniform(5, 90), 1))
        states[item] = ItemState.from_dict(row.after)
        rows.append({"id": i + 1, **row.to_dict()})  # the export document holds the rows as stored
    return {"format": EXPORT_FORMAT, "schema": SCHEMA_VERSION, "settings": {},
            "states": {k: v.to_dict() for k, v in states.items()}, "reviews": rows, "mocks": []}


def time_records(profiles: list[Profile], rng: random.Random) -> list[float]:
    """Median seconds of one durable ``record`` call in each profile.

    The profiles take turns, so a burst of load on the machine slows them alike.
    """
    states = [p.states() for p in profiles]
    times: list[list[float]] = [[] for _ in profiles]
    now = datetime(TODAY.year, TODAY.month, TODAY.day, 12, tzinfo=UTC)
    for _ in range(RECORDS):
        item, topic = ITEMS[rng.randrange(len(ITEMS))]
        for p, st, ts in zip(profiles, states, times):
            row = session.review_row(item=item, topic=topic, seed=1, quality=4, verdict="correct", when=now,
                                     today=TODAY, state=st.get(item), schedule=True, typed="1", value=1.0)
            t = time.perf_counter()
            stored = p.record(row)
            ts.append(time.perf_counter() - t)
            st[item] = ItemState.from_dict(stored.after)
    return [statistics.median(ts) for ts in times]


def time_open_due(root: Path) -> float:
    t = time.perf_counter()
    with Profile.open(root) as p:
        session.due_items(p.states(), TODAY, ITEMS)
        session.introduced(p.reviews_today(TODAY))
        stats.streaks(p.study_days(), TODAY)
    return time.perf_counter() - t


def time_day_index_rebuild(root: Path) -> float:
    """``study_days`` on a save made before the day index and the segment digests: the whole log is read."""
    state = root / "default" / "state.json"
    tables = json.loads(state.read_text())
    del tables["days"]
    state.write_text(json.dumps(tables))
    for digest in (root / "default" / "reviews").glob("*.digest"):
        digest.unlink()
    with Profile.open(root) as p:
        t = time.perf_counter()
        p.study_days()
        return time.perf_counter() - t


def time_browse_and_mock(root: Path) -> dict[str, float]:
    """Best of 5 (seconds): Browse's rows and a mock's weakness figures from the kept figures, and the same
    from the whole log (as they were read before); the one-time rebuild of the figures for an older save."""
    def best(fn, repeat: int = 5) -> float:
        times = []
        for _ in range(repeat):
            t = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t)
        return min(times)

    with Profile.open(root) as p:
        ctx = AppContext(p)
        out = {"browse": best(lambda: browse_rows.bank_rows(ctx)), "weakness": best(lambda: mock.weakness(ctx)),
               "weakness_log": best(lambda: weakness_figures(p.reviews()), 2)}
    state = root / "default" / "state.json"
    tables = json.loads(state.read_text())
    del tables["recent"]  # a save made before the figures were kept
    state.write_text(json.dumps(tables))
    with Profile.open(root) as p:
        t = time.perf_counter()
        browse_rows.bank_rows(AppContext(p))
        out["rebuild"] = time.perf_counter() - t
    return out


def main() -> None:
    rng = random.Random(7)
    sizes = (1_000, 100_000)
    with tempfile.TemporaryDirectory(prefix="bench-storage-") as tmp:
        roots = {n: Path(tmp) / str(n) for n in sizes}
        for n, root in roots.items():
            with Profile.open(root) as p:
                p.import_document(history(n, rng))
        opened = statistics.median(time_open_due(roots[100_000]) for _ in range(5))
        browse = time_browse_and_mock(roots[100_000])
        rebuilt = time_day_index_rebuild(roots[100_000])
        profiles = [Profile.open(roots[n]) for n in sizes]
        try:
            r1, r100 = time_records(profiles, rng)
        finally:
            for p in profiles:
                p.close()
    print(f"storage: record one answer, median of {RECORDS}: {r1 * 1e3:.2f} ms at 1,000 reviews, "
          f"{r100 * 1e3:.2f} ms at 100,000 ({r100 / r1:.2f}x)")
    print(f"storage: open a profile of 100,000 reviews, find today's due items, answers and streak: "
          f"{opened * 1e3:.1f} ms (median of 5)")
    print(f"storage: Home's streak on an older save of 100,000 reviews (once: rebuilds the day index and "
          f"the segment digests from the log): {rebuilt * 1e3:.0f} ms")
    print(f"storage: Browse's rows (browse_rows.bank_rows) on a profile of 100,000 reviews: {browse['browse'] * 1e3:.2f} ms; "
          f"a weighted mock's weakness figures (mock.weakness): {browse['weakness'] * 1e3:.2f} ms "
          f"(from the whole log, as before: {browse['weakness_log'] * 1e3:.0f} ms)")
    print(f"storage: the same on an older save, once (rebuilds the kept figures from the segment digests): "
          f"{browse['rebuild'] * 1e3:.0f} ms")


if __name__ == "__main__":
    main()
