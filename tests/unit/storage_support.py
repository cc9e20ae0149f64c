"""What the storage tests share: a review row, small segments, days of rows, a built profile."""

from collections import Counter
from datetime import UTC, date, datetime, timedelta

import pytest

from engine import storage
from engine.session import review_row
from engine.storage import layout

DAY = date(2026, 11, 29)


def row(p, item="r1", q=4, day=DAY, schedule=True, mode="practice", **kw):
    when = datetime(day.year, day.month, day.day, 12, tzinfo=UTC)
    return review_row(item=item, topic="roofline", seed=3, quality=q, verdict="correct" if q >= 4 else "wrong",
                      when=when, today=day, state=p.state(item) if schedule else None, schedule=schedule,
                      mode=mode, **kw).to_dict()


@pytest.fixture
def small_segments(monkeypatch):
    monkeypatch.setattr(layout, "SEGMENT_ROWS", 3)


def files(path):
    return {str(f.relative_to(path)): f.read_bytes() for f in sorted(path.rglob("*")) if f.is_file()}


def build(p):
    p.set_setting("new_per_day", 3)
    for i in range(7):
        p.record(row(p, item=f"i{i % 3}", q=i % 6, day=DAY + timedelta(days=i), typed="新 12 GB", value=1.5))
    p.record(row(p, item="i0", q=2, schedule=False, mode="redrill", step=2))
    p.add_mock({"ts": "2026-11-29T12:00:00Z", "questions": [{"item": "i1"}], "score": {"correct": 0}})


def state_tables(tmp_path) -> dict:
    return read_tables(tmp_path / "default" / "state.json")


def record_days(p, days: dict[int, int]) -> list:
    """Rows on DAY + k for each k: n items."""
    return [p.record(row(p, item=f"i{k}{i}", day=DAY + timedelta(days=k))) for k, n in days.items()
            for i in range(n)]


def days_of(rows) -> dict:
    return dict(Counter(date.fromisoformat(r.date) for r in rows))


def recent_of(rows) -> dict:
    """Each item's latest answers, by their definition: read straight from the rows."""
    out = {}
    for item in dict.fromkeys(r.item for r in rows):
        mine = [r for r in rows if r.item == item]
        whole = [r for r in mine if r.step is None]
        out[item] = storage.ItemRecent(tuple(r.quality for r in mine[-storage.RECENT_QUALITIES:]),
                                       whole[-1].verdict if whole else None, whole[-1].date if whole else None,
                                       whole[-1].quality if whole else None)
    return out


def read_tables(path) -> dict:
    """A save file's tables as a program would see them (its checksum taken off)."""
    from engine.storage.sealed import open_sealed

    return open_sealed(path.read_bytes())[0]


def write_tables(path, tables: dict) -> None:
    """Write ``tables`` as a save file, with the checksum of what is written (as a drill, perhaps a newer one,
    writes it: a change made this way is not damage)."""
    from engine.storage.sealed import dumps, seal

    path.write_bytes(seal(dumps(tables)))


def edit_text(path, old: str, new: str, *, sealed: bool = True) -> None:
    """Replace ``old`` by ``new`` in a save file's JSON text: resealed (as a drill writes it), or without a
    checksum (``sealed=False``: as an older drill, before checksums, kept it)."""
    from engine.storage.sealed import seal, unseal

    text = unseal(path.read_bytes())[0].decode("utf-8")
    assert old in text, f"{old!r} not in {path}"
    body = text.replace(old, new).encode("utf-8")
    path.write_bytes(seal(body) if sealed else body)


def everything(root, name="default"):
    """All a profile holds, as every reader sees it (``DamagedSave`` when it cannot be read whole)."""
    from engine.storage import Profile

    with Profile.open(root, name, read_only=True) as p:
        return {"settings": p.settings(), "states": p.states(), "reviews": list(p.reviews()), "mocks": p.mocks(),
                "days": p.study_days(), "recent": p.recent(), "digest": p.digest().columns()}


def flip_sweep(root, targets, flips: int, seed: int = 1, name="default"):
    """Flip one bit at ``flips`` sampled places of the files ``targets`` (paths under ``root/name``), one at a
    time, each restored after: returns the places (file, byte, bit) where the profile read back changed
    without a DamagedSave (a silent change), and how many were reported / harmless."""
    import random

    from engine.storage import DamagedSave

    rng = random.Random(seed)
    base = everything(root, name)
    sizes = [(t, t.stat().st_size) for t in targets]
    total = sum(n for _, n in sizes)
    silent, reported, same = [], 0, 0
    for _ in range(flips):
        k = rng.randrange(total)
        for path, n in sizes:  # noqa: B007 - read after the loop: the file the break stopped at
            if k < n:
                break
            k -= n
        bit = rng.randrange(8)
        raw = path.read_bytes()
        try:
            path.write_bytes(raw[:k] + bytes([raw[k] ^ (1 << bit)]) + raw[k + 1:])
            try:
                now = everything(root, name)
            except DamagedSave:
                reported += 1
            else:
                if now == base:
                    same += 1
                else:
                    silent.append((str(path), k, bit))
        finally:
            path.write_bytes(raw)
    return silent, reported, same


def as_imported(doc: dict, into) -> dict:
    """The export of profile ``into`` once it imported ``doc``, an export of another replica: the rows keep their
    origin (that replica and their id there, engine.storage.merging), and the export names ``into``'s replica."""
    src = doc.get("replica")
    rows = doc["reviews"] if src is None or src == into.replica else [
        {**r, "origin": r.get("origin", {"replica": src, "id": r["id"]})} for r in doc["reviews"]]
    return {**doc, "profile": into.name, "replica": into.replica, "reviews": rows}
