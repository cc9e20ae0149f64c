"""engine.storage under faults: a full or unwritable disk (injected OSError at the write call), misleading
layouts (a folder where a file should be, a broken link), a portable lock; nothing lost, nothing cryptic."""

import errno
import json
import os
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import stats
from engine.review import Review
from engine.sm2 import MAX_INTERVAL, ItemState
from engine.storage import (
    EXPORT_FORMAT,
    SCHEMA_VERSION,
    DamagedSave,
    InvalidDocument,
    LockUnusable,
    Profile,
    ProfileLocked,
    SaveFailed,
    document_problem,
    durable,
    layout,
    lock,
    validation,
)
from tests.problems import examples
from tests.unit.storage_support import DAY, build, files, row


class _Refusing:
    """A file opened for writing whose writes fail with ``err`` (the file itself was created)."""

    def __init__(self, f, err: int):
        self.f, self.err = f, err

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.f.close()

    def write(self, data):
        raise OSError(self.err, os.strerror(self.err))

    def flush(self):
        pass

    def fileno(self):
        return self.f.fileno()


def refuse_writes(monkeypatch, err: int = errno.ENOSPC, match=lambda target: True, times: int | None = None):
    """Writes made by ``atomic_write`` whose target file name passes ``match`` fail with ``err`` (each write
    creates its temporary file first, as a real full disk lets it); ``times``: only the first so many."""
    real_open = open
    left = [times]

    def fake_open(file, mode="r", *args, **kwargs):
        f = real_open(file, mode, *args, **kwargs)
        name = Path(file).name  # ".TARGET.PID.TID.tmp"
        target = name[1:].split(".tmp")[0].rsplit(".", 2)[0] if name.startswith(".") else name
        if "w" in mode and match(target) and (left[0] is None or left[0] > 0):
            if left[0] is not None:
                left[0] -= 1
            return _Refusing(f, err)
        return f

    monkeypatch.setattr(durable, "open", fake_open, raising=False)


def leftovers(path: Path) -> list[str]:
    return sorted(str(p.relative_to(path)) for p in path.rglob("*.tmp"))


# --------------------------------------------------------------------------- writes that fail


@pytest.mark.parametrize("err, en, zh", [
    (errno.ENOSPC, "the disk is full", "磁盘已满"),
    (errno.EACCES, "permission denied", "没有写入权限"),
    (errno.EROFS, "the file system is read-only", "文件系统是只读的"),
    (errno.EIO, "input/output error", "输入/输出错误"),
])
def test_a_review_that_cannot_be_written_is_not_stored_and_the_message_names_path_and_cause(tmp_path, monkeypatch,
                                                                                             err, en, zh):
    with Profile.open(tmp_path) as p:
        first = p.record(row(p))
        before = files(tmp_path / "default")
        refuse_writes(monkeypatch, err, match=lambda target: target.endswith("000001.json"))
        with pytest.raises(SaveFailed) as e:
            p.record(row(p, item="r2"))
        seg = tmp_path / "default" / "reviews" / "000001.json"
        assert e.value.errno == err and e.value.path == seg and isinstance(e.value, OSError)
        assert e.value.text("en") == f"cannot write {seg}: {e.value.cause.text('en')}" and en in e.value.text("en")
        assert str(seg) in e.value.text("zh") and zh in e.value.text("zh")
        assert files(tmp_path / "default") == before and leftovers(tmp_path) == []  # nothing changed, no temporary
        assert list(p.reviews()) == [first] and p.last_review() == first
        monkeypatch.undo()  # space freed: the same answer is recorded once
        second = p.record(row(p, item="r2"))
        assert second.id == 2
    with Profile.open(tmp_path) as p:
        assert [r.id for r in p.reviews()] == [1, 2] and set(p.states()) == {"r1", "r2"}


def test_a_state_file_that_cannot_be_written_never_fails_a_stored_row(tmp_path, monkeypatch):
    """The profile folder read-only but reviews/ writable: the row is durable, the state is replayed later."""
    monkeypatch.setattr(layout, "STATE_EVERY", 1)
    with Profile.open(tmp_path) as p:
        refuse_writes(monkeypatch, errno.EACCES, match=lambda target: target == "state.json")
        stored = p.record(row(p))  # no exception: the row is in the log
        assert isinstance(p.state_behind, SaveFailed) and p.state_behind.path == tmp_path / "default" / "state.json"
        assert "permission denied" in str(p.state_behind)
        assert p.states()["r1"].reps == 1
    assert leftovers(tmp_path) == [] and not (tmp_path / "default" / "state.json").exists()
    with Profile.open(tmp_path) as p:  # still refused: opened all the same, the state replayed from the log
        assert list(p.reviews()) == [stored] and p.states()["r1"].reps == 1
    monkeypatch.undo()
    with Profile.open(tmp_path) as p:
        assert list(p.reviews()) == [stored] and p.state_behind is None
    assert (tmp_path / "default" / "state.json").exists()


def test_a_setting_that_cannot_be_saved_is_not_changed(tmp_path, monkeypatch):
    with Profile.open(tmp_path) as p:
        refuse_writes(monkeypatch, match=lambda target: target == "state.json")
        with pytest.raises(SaveFailed):
            p.set_setting("new_per_day", 9)
        assert p.settings()["new_per_day"] == 5
        monkeypatch.undo()
    with Profile.open(tmp_path) as p:
        assert p.settings()["new_per_day"] == 5


def test_an_undo_that_cannot_be_saved_changes_nothing(tmp_path, monkeypatch):
    with Profile.open(tmp_path) as p:
        p.record(row(p))
        last = p.record(row(p, q=2, day=DAY + timedelta(days=1)))
        states, days, recent = p.states(), p.study_days(), p.recent()
        refuse_writes(monkeypatch, match=lambda target: target == "state.json")
        with pytest.raises(SaveFailed):
            p.undo_last()
        assert (p.last_review(), p.states(), p.study_days(), p.recent()) == (last, states, days, recent)
        monkeypatch.undo()
        assert p.undo_last() == last
    with Profile.open(tmp_path) as p:
        assert [r.id for r in p.reviews()] == [1]


def test_a_mock_result_that_cannot_be_saved_is_not_kept(tmp_path, monkeypatch):
    mock = {"ts": "2026-11-29T12:00:00Z", "questions": [{"item": "i1"}], "score": {"correct": 0}}
    with Profile.open(tmp_path) as p:
        refuse_writes(monkeypatch, errno.EIO, match=lambda target: target == "mocks.json")
        with pytest.raises(SaveFailed):
            p.add_mock(mock)
        assert p.mocks() == []
        monkeypatch.undo()
        assert p.add_mock(mock)["id"] == 1


def test_a_new_segment_that_cannot_be_written_leaves_the_full_one_newest(tmp_path, small_segments, monkeypatch):
    with Profile.open(tmp_path) as p:
        rows = [p.record(row(p, item=f"i{k}")) for k in range(3)]
        refuse_writes(monkeypatch, match=lambda target: target == "000002.json")
        with pytest.raises(SaveFailed):
            p.record(row(p, item="i3"))
        assert p.last_review() == rows[-1] and list(p.reviews()) == rows
        assert p.undo_last() == rows[-1]  # the full segment is still the newest
        monkeypatch.undo()
        rows[-1] = p.record(row(p, item="i3"))
    assert leftovers(tmp_path) == []
    with Profile.open(tmp_path) as p:
        assert list(p.reviews()) == rows


def test_an_import_that_cannot_be_written_changes_nothing_and_leaves_no_copy(tmp_path, monkeypatch):
    with Profile.open(tmp_path / "a") as p:
        build(p)
        doc = p.export()
    with Profile.open(tmp_path / "b") as q:
        q.record(row(q, item="keep"))
        before = files(tmp_path / "b")
        refuse_writes(monkeypatch, match=lambda target: target == "state.json")
        with pytest.raises(SaveFailed) as e:
            q.import_document(doc)
        assert e.value.path.name == "state.json" and "disk is full" in str(e.value)
        assert files(tmp_path / "b") == before and sorted(p.name for p in (tmp_path / "b").iterdir()) == [
            "default", "default.lock"]
        assert [r.item for r in q.reviews()] == ["keep"]


def test_a_failed_write_beside_an_export_leaves_no_temporary_file(tmp_path, monkeypatch):
    target = tmp_path / "out" / "profile.json"
    target.parent.mkdir()
    refuse_writes(monkeypatch)
    with pytest.raises(SaveFailed) as e:
        durable.atomic_write(target, b"{}", backup=False)
    assert e.value.path == target and list(target.parent.iterdir()) == []


def test_a_rename_refused_by_a_read_only_file_system_leaves_no_temporary_file(tmp_path, monkeypatch):
    with Profile.open(tmp_path) as p:
        p.record(row(p))
        before = files(tmp_path / "default")
        real = os.replace

        def read_only(src, dst, *a, **k):
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(dst))

        monkeypatch.setattr(os, "replace", read_only)
        with pytest.raises(SaveFailed) as e:
            p.record(row(p, item="r2"))
        monkeypatch.setattr(os, "replace", real)
        assert "read-only" in str(e.value)
        assert files(tmp_path / "default") == before and leftovers(tmp_path) == []


# --------------------------------------------------------------------------- errors that name the real problem


def test_a_reviews_folder_replaced_by_a_file_is_named(tmp_path):
    Profile.open(tmp_path).close()
    reviews = tmp_path / "default" / "reviews"
    reviews.rmdir()
    reviews.write_text("oops")
    with pytest.raises(DamagedSave) as e:
        Profile.open(tmp_path)
    assert e.value.path == reviews and "should be the review log's folder but is a file" in str(e.value)
    assert f"mv {reviews} {reviews}.damaged" in str(e.value)
    assert reviews.read_text() == "oops"


def test_a_lock_file_replaced_by_a_folder_is_named(tmp_path):
    Profile.open(tmp_path).close()
    (tmp_path / "default.lock").unlink()
    (tmp_path / "default.lock").mkdir()
    with pytest.raises(LockUnusable) as e:
        Profile.open(tmp_path)
    assert "default.lock of profile 'default' is a folder, not a file" in str(e.value)
    assert "Is a directory" not in str(e.value)


def test_a_log_file_that_is_a_broken_link_is_named(tmp_path):
    with Profile.open(tmp_path) as p:
        p.record(row(p))
    seg = tmp_path / "default" / "reviews" / "000001.json"
    seg.unlink()
    seg.symlink_to(tmp_path / "elsewhere.json")
    with pytest.raises(DamagedSave) as e:
        Profile.open(tmp_path)
    assert e.value.path == seg and "symbolic link to" in e.value.reason and "does not exist" in e.value.reason
    assert "no schema version" not in str(e.value)


def test_a_state_file_that_is_a_broken_link_is_not_taken_for_a_new_profile(tmp_path):
    with Profile.open(tmp_path) as p:
        p.record(row(p))
    state = tmp_path / "default" / "state.json"
    state.unlink()
    state.symlink_to(tmp_path / "gone.json")
    with pytest.raises(DamagedSave, match="symbolic link"):
        Profile.open(tmp_path)
    assert state.is_symlink()  # left as it was


class FakeMsvcrt:
    """Windows' msvcrt.locking as far as the lock uses it: mandatory byte locks, refused with EACCES when held."""

    LK_NBLCK, LK_UNLCK = 2, 0

    def __init__(self):
        self.held: dict[tuple[int, int], int] = {}  # (inode, offset) -> fd

    def locking(self, fd, mode, nbytes):
        assert nbytes == 1
        key = (os.fstat(fd).st_ino, os.lseek(fd, 0, os.SEEK_CUR))
        assert key[1] == lock._Msvcrt.AT  # the pid's bytes stay unlocked: the refused process reads them
        if mode == self.LK_UNLCK:
            assert self.held.pop(key) == fd
        elif key in self.held:
            raise OSError(errno.EACCES, "Permission denied")
        else:
            self.held[key] = fd


def test_the_windows_lock_branch_excludes_and_names_the_holder(tmp_path, monkeypatch):
    fake = FakeMsvcrt()
    monkeypatch.setattr(lock, "LOCKER", lock._Msvcrt(fake))
    with Profile.open(tmp_path) as p:
        p.record(row(p))
        with pytest.raises(ProfileLocked) as e:
            Profile.open(tmp_path)
        assert e.value.pid == os.getpid() and len(fake.held) == 1
    assert fake.held == {}  # released on close
    with Profile.open(tmp_path) as p:
        assert len(list(p.reviews())) == 1


def test_the_platform_lock_is_flock_here():
    assert isinstance(lock.platform_locker(), lock._Flock if os.name != "nt" else lock._Msvcrt)


def test_an_invalid_row_is_still_refused(tmp_path):
    with Profile.open(tmp_path) as p, pytest.raises(InvalidDocument):
        p.record({**row(p), "seconds": float("inf")})


# --------------------------------------------------------------------------- what validation admits stays safe

TODAY = date(2026, 11, 29)
EARLIEST = date.fromisoformat(validation.MIN_DAY)
days = st.dates(EARLIEST, TODAY)
states = st.builds(  # states SM-2 can reach (see ItemState.from_dict), at the bounds validation sets
    lambda ef, interval, reps, last, ahead: {"ef": ef, "interval": interval, "reps": reps, "last": last.isoformat(),
                                             "due": (last + timedelta(days=ahead)).isoformat()},
    st.floats(1.3, validation.MAX_EF), st.integers(1, MAX_INTERVAL), st.integers(1, validation.MAX_REPS), days,
    st.integers(0, MAX_INTERVAL))
rows = st.lists(st.tuples(days, st.sampled_from(("a", "b")), st.integers(0, 5),
                          st.one_of(st.none(), st.floats(0, validation.MAX_SECONDS)), st.booleans(), states),
                min_size=1, max_size=12)


@settings(max_examples=examples(30), deadline=None)
@given(rows)
def test_every_figure_is_finite_for_whatever_validation_admits(drawn):
    reviews = []
    for i, (day, item, q, sec, scheduled, after) in enumerate(sorted(drawn, key=lambda r: r[0])):
        reviews.append({"id": i + 1, "ts": f"{day.isoformat()}T12:00:00Z", "date": day.isoformat(), "item": item,
                        "topic": "roofline", "seed": i, "step": None, "typed": "1", "value": 1.0,
                        "verdict": "correct" if q >= 4 else "wrong", "quality": q, "seconds": sec,
                        "mode": "practice" if scheduled else "extra", "scheduled": scheduled, "before": None,
                        "after": after if scheduled else None})
    doc = {"format": EXPORT_FORMAT, "schema": SCHEMA_VERSION, "profile": "p", "settings": {},
           "states": {r["item"]: r["after"] for r in reviews if r["scheduled"]}, "reviews": reviews, "mocks": []}
    assert document_problem(doc, datetime(TODAY.year, TODAY.month, TODAY.day, 12, tzinfo=UTC)) is None
    states = {k: ItemState.from_dict(v) for k, v in doc["states"].items()}
    figures = stats.compute([Review.of(r) for r in reviews], states, [],
                            [("a", "roofline", "A"), ("b", "roofline", "B")], TODAY, ("roofline",))
    json.dumps(figures.to_dict(), allow_nan=False)  # every figure finite
