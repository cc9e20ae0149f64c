"""Every kind of write is atomic: a fault at any file-system change it makes - a failed call (a full
disk) or a crash (the process dies there) - leaves the profile as it was before or as it is after, never
neither.  The faults are injected in-process at ``durable.fault_point``, which every change passes."""

import errno
import shutil

import pytest

from engine.storage import Profile, durable
from tests.unit.storage_support import build, everything, row

pytestmark = pytest.mark.usefixtures("no_read_wait")  # no writer runs beside these reads


class Crash(BaseException):
    """The process dying at a file-system change: nothing after it happens (not even clean-up writes)."""


def counting(monkeypatch, at: int | None = None, kind: str = "fail") -> list[int]:
    """Count the file-system changes; at the ``at``-th, fail (an OSError, as a full disk) or crash (this and
    every later change raises :class:`Crash`)."""
    seen = [0]

    def point(op, path):
        seen[0] += 1
        if at is None:
            return
        if kind == "crash" and seen[0] >= at:
            raise Crash(f"{op} {path}")
        if kind == "fail" and seen[0] == at:
            raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(durable, "fault_point", point)
    return seen


def quiet(op, path):
    pass


def abandon(p: Profile) -> None:
    """What a crash leaves of an open profile: its files as they are, its lock released by the kernel."""
    for attr in ("_state_db", "_mock_db", "_seg_db"):
        setattr(p, attr, None)
    p._lock.release()


def observe(root) -> dict:
    from engine.storage import DamagedSave

    try:
        seen = everything(root)
    except DamagedSave as e:  # (a profile with a damaged file, before drill doctor --repair)
        return {"damaged": str(e.path.relative_to(root))}
    seen.pop("digest")  # made from the rows (compared through them)
    return seen


def regrade(quality):
    def op(p):
        last = p.last_review()
        with p.rewriting():
            p.undo_last()
            p.record(row(p, item=last.item, q=quality))
    return op


def regrade_chain(p):
    with p.rewriting():
        p.undo_last()
        p.undo_last()
        p.record(row(p, item="c", q=1, schedule=False, step=2))
        p.record(row(p, item="c", q=1))


def with_chain(p):
    build(p)
    p.record(row(p, item="c", q=5, schedule=False, step=2))
    p.record(row(p, item="c", q=5))


def import_doc(p):
    doc = p.export()
    doc["settings"] = {"new_per_day": 9}
    doc["reviews"] = doc["reviews"][:4]
    p.import_document(doc)


def import_file(p):
    """drill import: the file read, checked and written a log file at a time (three of them here)."""
    import io
    import json

    doc = json.loads("".join(p.export_chunks()))
    doc["settings"] = {"new_per_day": 8}
    doc["reviews"] = doc["reviews"][1:]
    p.import_file(io.BytesIO(json.dumps(doc, indent=1).encode()))


def damaged(name):
    def setup(p):
        build(p)
        p.add_mock({"ts": "2026-11-30T12:00:00Z", "questions": [], "score": {}})
        p.close()
        path = p.path / name
        raw = bytearray(path.read_bytes())
        raw[len(raw) // 2] ^= 8
        path.write_bytes(bytes(raw))
    return setup


OPS = {
    "record": (build, lambda p: p.record(row(p, item="new", q=3))),
    "record-rolls-a-segment": (lambda p: (build(p), p.record(row(p, item="n0"))), lambda p: p.record(row(p))),
    "regrade": (build, regrade(1)),
    "regrade-chain": (with_chain, regrade_chain),
    "undo": (build, lambda p: p.undo_last()),
    "settings": (build, lambda p: p.set_settings({"new_per_day": 7, "lang": "zh"})),
    "mock": (build, lambda p: p.add_mock({"ts": "2026-11-30T12:00:00Z", "questions": [], "score": {}})),
    "import": (build, import_doc),
    "import-file": (build, import_file),
}


@pytest.mark.sweep
@pytest.mark.parametrize("kind", ["fail", "crash"])
@pytest.mark.parametrize("name", sorted(OPS))
def test_a_fault_at_every_write_leaves_the_old_or_the_new_state(tmp_path, monkeypatch, small_segments, name, kind):
    setup, op = OPS[name]
    base = tmp_path / "base"
    with Profile.open(base) as p:
        setup(p)
    old = observe(base)
    done = tmp_path / "done"
    shutil.copytree(base, done)
    seen = counting(monkeypatch)
    with Profile.open(done) as p:
        seen[0] = 0
        op(p)
    writes = seen[0]
    monkeypatch.setattr(durable, "fault_point", quiet)
    new = observe(done)
    assert new != old and writes >= 1
    for at in range(1, writes + 1):
        run = tmp_path / f"{kind}{at}"
        shutil.copytree(base, run)
        p = Profile.open(run)
        counting(monkeypatch, at, kind)
        try:
            op(p)
        except (OSError, Crash):
            pass
        if kind == "crash":
            abandon(p)
        else:
            try:
                p.close()
            except OSError:
                pass
        monkeypatch.setattr(durable, "fault_point", quiet)
        after = observe(run)
        differ = sorted(k for k in after if after[k] != old[k] and after[k] != new[k])
        assert after in (old, new), f"{name}: a {kind} at write {at} of {writes} left neither state ({differ})"
        shutil.rmtree(run)


@pytest.mark.sweep
@pytest.mark.parametrize("kind", ["fail", "crash"])
@pytest.mark.parametrize("name", ["reviews/000002.json", "reviews/000003.journal", "state.json", "mocks.json",
                                  "mocks.journal"])
def test_a_fault_at_every_write_of_a_repair_leaves_the_damaged_or_the_repaired_profile(tmp_path, monkeypatch,
                                                                                        small_segments, name, kind):
    from engine.storage.doctor import examine, repair

    base = tmp_path / "base"
    with Profile.open(base) as p:
        damaged(name)(p)
    old = observe(base)
    done = tmp_path / "done"
    shutil.copytree(base, done)
    seen = counting(monkeypatch)
    repair(examine(done / "default"))
    writes = seen[0]
    monkeypatch.setattr(durable, "fault_point", quiet)
    new = observe(done)
    assert "damaged" not in new and writes >= 1
    for at in range(1, writes + 1):
        run = tmp_path / f"{kind}{at}"
        shutil.copytree(base, run)
        counting(monkeypatch, at, kind)
        try:
            repair(examine(run / "default"))
        except Crash:
            pass
        monkeypatch.setattr(durable, "fault_point", quiet)
        after = observe(run)
        assert after in (old, new), f"{name}: a {kind} at write {at} of {writes} of a repair left neither state"
        shutil.rmtree(run)
