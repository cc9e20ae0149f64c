"""A synthetic learner for the FSRS fitting tests and benchmark: forgetting of a known form, answering on the
days the scheduler gives.

Its memory is not FSRS's own shape: recall decays exponentially, ``0.9 ** (t / s)``, and a success multiplies
the stability by ``growth`` (a failure divides it by 3), so default FSRS weights mispredict it and fitted ones
should predict it better.  Seeded: the same arguments give the same log.
"""

from __future__ import annotations

import random
from datetime import date, timedelta

from engine.schedule import fsrs_bridge

START = date(2026, 1, 5)


def history(seed: int, items: int = 40, days: int = 60, first: float = 0.6,
            growth: float = 4.0) -> dict[str, list[tuple[date, int]]]:
    """Each item's scheduled reviews ``(day, quality)``, the items met a few a day from ``START``, each reviewed on
    the day FSRS (default weights) makes it due, for ``days`` days."""
    rng = random.Random(seed)
    out: dict[str, list[tuple[date, int]]] = {}
    end = START + timedelta(days=days)
    for n in range(items):
        item = f"item-{n:03d}"
        day = START + timedelta(days=n // 5)
        stability, memory, last = first * rng.uniform(0.7, 1.4), None, None
        rows: list[tuple[date, int]] = []
        while day < end:
            recall = 1.0 if last is None else 0.9 ** ((day - last).days / stability)
            ok = rng.random() < (0.7 if last is None else recall)
            quality = (5 if rng.random() < 0.15 else 4) if ok else rng.choice((1, 2))
            stability = stability * growth * rng.uniform(0.8, 1.2) if ok and last is not None else (
                stability if ok else max(0.3, stability / 3))
            rows.append((day, quality))
            memory = fsrs_bridge.step(memory, quality, day)
            last, day = day, day + timedelta(days=memory.interval)
        out[item] = rows
    return out


def record(profile, log: dict[str, list[tuple[date, int]]], scheduler: str = fsrs_bridge.Scheduler.FSRS) -> int:
    """Put the log in ``profile`` (replacing what it holds) as scheduled practice rows, day by day, each item named
    after a template of the bank in order, moved by ``scheduler``; returns the number of rows.  One import, not
    a write per row (a few hundred durable writes would cost seconds)."""
    from datetime import UTC, datetime, time

    from engine.session import review_row
    from engine.sm2 import ItemState
    from question_bank import registry

    templates = registry.all_templates()
    names = {item: templates[n] for n, item in enumerate(sorted(log))}
    memories: dict[str, fsrs_bridge.Memory | None] = {}
    states: dict[str, ItemState] = {}
    rows = []
    for day, item, quality in sorted((d, i, q) for i, reviews in log.items() for d, q in reviews):
        t = names[item]
        row = review_row(item=t.id, topic=t.topic, seed=1, quality=quality,
                         verdict="correct" if quality >= 3 else "wrong", when=datetime.combine(day, time(12), UTC),
                         today=day, state=states.get(t.id), schedule=True, scheduler=scheduler,
                         memory=memories.get(item)).to_dict()
        rows.append({**row, "id": len(rows) + 1})
        states[t.id] = ItemState.from_dict(row["after"])
        memories[item] = fsrs_bridge.step(memories.get(item), quality, day)
    doc = profile.export()
    doc.update(reviews=rows, states={i: s.to_dict() for i, s in sorted(states.items())})
    profile.import_document(doc)
    return len(rows)
