"""The statistics' running totals (engine.stats_running, kept in stats.json by engine.storage.totals): always
the figures a from-scratch computation over the whole log gives, whatever was done to the profile."""

from __future__ import annotations

import math
from datetime import UTC, date, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.bench_stats import synthetic_history
from engine import stats
from engine.digest import Digest
from engine.session import review_row
from engine.stats_running import HISTORY_ROWS, Running
from engine.storage import Profile, layout, totals
from engine.storage.doctor import FindingKind, examine, repair

DAY = date(2026, 11, 1)
TODAY = DAY + timedelta(days=40)
TOPICS = ("roofline", "memory")
BANK = [("roofline.a", "roofline", "A"), ("roofline.b", "roofline", "B"), ("memory.c", "memory", "C")]
ITEMS = ["roofline.a", "roofline.b", "memory.c", "memory.gone"]  # the last no longer in the bank


def same_figures(a: stats.Stats, b: stats.Stats) -> None:
    """``b`` (from running totals) shows what ``a`` (from the whole log) shows."""
    da, db = a.to_dict(), b.to_dict()
    assert math.isclose(da.pop("seconds"), db.pop("seconds"), abs_tol=0.11)  # summed in another order
    assert da == db
    for item in a.items:
        whole = a.history(item)
        assert b.history(item) == whole[-HISTORY_ROWS:]
        if len(whole) <= HISTORY_ROWS:
            assert b.trend(item) == a.trend(item)


def check(p: Profile, today: date = TODAY) -> None:
    d = p.digest()
    assert p.running() == Running.of_digest(d)  # kept up to date = made again from scratch
    same_figures(stats.compute(d, p.states(), p.mocks(), BANK, today, TOPICS),
                 p.running().figures(p.states(), p.mocks(), BANK, today, TOPICS))


def answer(p: Profile, item: str, q: int, day: date, *, seed: int = 1, step: int | None = None,
           mode: str = "practice", schedule: bool = True, seconds: float | None = 30.0,
           hint: int | None = None) -> dict:
    when = datetime(day.year, day.month, day.day, 12, tzinfo=UTC)
    return review_row(item=item, topic=item.split(".")[0], seed=seed, quality=q,
                      verdict="correct" if q >= 4 else "close" if q == 3 else "wrong", when=when, today=day,
                      state=p.state(item) if schedule else None, schedule=schedule, mode=mode, step=step,
                      seconds=seconds, typed="1", value=1.0, hint=hint).to_dict()


def record(p: Profile, kind: int, item: str, q: int, day: date, seed: int, seconds: float | None) -> None:
    if kind == 0:  # practice: moves the schedule (after a hint at some seeds: counted by topic)
        p.record(answer(p, item, q, day, seed=seed, seconds=seconds, hint=(None, 1, 2)[seed % 3]))
    elif kind == 1:  # extra practice: does not
        p.record(answer(p, item, q, day, seed=seed, mode="extra", schedule=False, seconds=seconds))
    elif kind == 2:  # a chain in practice: its steps, then its whole row of the same seed
        for step in (1, 2):
            p.record(answer(p, item, max(0, q - step), day, seed=seed, step=step, schedule=False, seconds=seconds,
                            hint=(None, 1, 2)[seed % 3] if step == 1 else None))
        p.record(answer(p, item, q, day, seed=seed, seconds=seconds))
    else:  # a mock asks a chain's steps as questions of their own (or a chain left half done)
        p.record(answer(p, item, q, day, seed=seed, step=1 + kind % 2, mode="mock", schedule=False,
                        seconds=seconds))


ops = st.lists(st.one_of(
    st.tuples(st.just("record"), st.integers(0, 4), st.sampled_from(ITEMS), st.integers(0, 5),
              st.integers(0, 40), st.integers(0, 2), st.sampled_from([None, 12.34, 30.0, 95.5])),
    st.just(("undo",)), st.tuples(st.just("regrade"), st.integers(0, 5)), st.just(("import",)),
    st.just(("reopen",))), min_size=1, max_size=14)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=ops)
def test_the_totals_equal_a_computation_from_scratch_after_any_changes(tmp_path_factory, monkeypatch, steps):
    monkeypatch.setattr(layout, "SEGMENT_ROWS", 4)  # catching up crosses log files
    monkeypatch.setattr(layout, "STATE_EVERY", 3)  # the file is written between the rows, not only at close
    root = tmp_path_factory.mktemp("running")
    p = Profile.open(root)
    try:
        for op in steps:
            if op[0] == "record":
                _, kind, item, q, offset, seed, seconds = op
                record(p, kind, item, q, DAY + timedelta(days=offset), seed, seconds)
            elif op[0] == "undo":
                p.undo_last()
            elif op[0] == "regrade" and (last := p.last_review()) is not None:
                with p.rewriting():  # as the app re-grades: the newest row taken back and recorded again
                    p.undo_last()
                    p.record({**last.to_dict(), "quality": op[1]})
            elif op[0] == "import":
                p.import_document(p.export(), now=datetime(2030, 1, 1, tzinfo=UTC))
            elif op[0] == "reopen":
                p.close()
                p = Profile.open(root)
        check(p)
        with Profile.open(root, read_only=True) as reader:  # what drill stats reads: the file, caught up
            check(reader)
    finally:
        p.close()
    with Profile.open(root, read_only=True) as reader:
        check(reader)


def test_the_totals_of_a_long_history_give_every_figure_of_the_whole_log():
    """Chains, mocks, re-drills and paper answers over a year, and today up to a month after the last row."""
    templates, rows, states, mocks = synthetic_history(4000, TODAY, n_templates=30)
    d = Digest.of_rows(rows)
    running = Running.of_digest(d)
    assert running == Running.from_dict(running.to_dict())
    for today in (TODAY, TODAY + timedelta(days=1), TODAY + timedelta(days=31)):
        same_figures(stats.compute(d, states, mocks, templates, today, TOPICS),
                     running.figures(states, mocks, templates, today, TOPICS))


def test_the_median_time_of_tenths_of_a_second():
    assert stats.median_of_counts({}) is None
    assert stats.median_of_counts({3.0: 1}) == 3.0
    assert stats.median_of_counts({1.0: 1, 2.5: 1}) == 1.75
    assert stats.median_of_counts({1.0: 2, 7.0: 1, 2.0: 1}) == 1.5
    assert stats.median_of_counts({1.0: 3, 7.0: 1}) == 1.0


@pytest.fixture
def profile_root(tmp_path, monkeypatch):
    monkeypatch.setattr(layout, "SEGMENT_ROWS", 4)
    with Profile.open(tmp_path) as p:
        for i in range(20):
            record(p, i % 4, ITEMS[i % 4], i % 6, DAY + timedelta(days=i), i % 3, 10.0 + i)
    return tmp_path


def test_a_deleted_totals_file_is_made_again_and_named_by_doctor(profile_root):
    path = layout.stats_path(profile_root / "default")
    path.unlink()
    with Profile.open(profile_root, read_only=True) as reader:  # a reader makes them in memory, writes nothing
        check(reader)
    assert not path.exists()
    report = examine(profile_root / "default")
    assert report.stale_totals is not None and report.stale_totals.path == path
    assert not report.damaged  # harmless: nothing blocks the profile
    with Profile.open(profile_root) as p:  # a writer makes them again on opening
        assert path.exists()
        check(p)
    assert examine(profile_root / "default").findings == []


def test_damaged_totals_are_named_by_doctor_and_made_again_by_repair(profile_root):
    path = layout.stats_path(profile_root / "default")
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x04
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="checksum|JSON"):
        totals.read(path)
    with Profile.open(profile_root, read_only=True) as reader:  # never trusted: made again from the log
        check(reader)
    report = examine(profile_root / "default")
    assert report.stale_totals is not None and report.stale_totals.kind == FindingKind.CACHE
    repair(report)  # as drill doctor --repair: removed, then made again by opening the profile
    Profile.open(profile_root).close()
    assert totals.read(path) is not None and examine(profile_root / "default").findings == []
    with Profile.open(profile_root, read_only=True) as reader:
        check(reader)


def test_totals_behind_the_log_are_caught_up_from_its_newest_files(profile_root):
    path = layout.stats_path(profile_root / "default")
    older = path.read_bytes()
    with Profile.open(profile_root) as p:
        for i in range(6):  # more than one log file of rows the old totals lack
            record(p, 0, ITEMS[i % 3], 4, DAY + timedelta(days=35), 7, 5.0)
    newest = path.read_bytes()
    path.write_bytes(older)
    kept = totals.read(path)
    assert kept is not None
    with Profile.open(profile_root, read_only=True) as reader:
        assert kept.next_id < reader.last_review().id
        assert totals.catch_up(kept, reader._next_id, reader._segments, reader._log_rows) is not None
        check(reader)
    with Profile.open(profile_root) as p:  # totals whose tip row was taken back since are made again
        p.undo_last()
        p.undo_last()
        record(p, 0, ITEMS[0], 1, DAY + timedelta(days=36), 9, 5.0)  # (after the rows the totals ended with)
        record(p, 0, ITEMS[1], 1, DAY + timedelta(days=36), 9, 5.0)
    path.write_bytes(newest)
    with Profile.open(profile_root, read_only=True) as reader:
        kept = totals.read(path)
        assert kept is not None and kept.next_id < reader._next_id
        assert totals.catch_up(kept, reader._next_id, reader._segments, reader._log_rows) is None
        check(reader)
