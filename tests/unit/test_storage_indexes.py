"""engine.storage: what the state file keeps beside the log - the day index (Home's streak) and each item's
latest answers (Browse, mocks) - kept in step with records, undo, crash repair and import."""

import json
from datetime import timedelta

import pytest

from engine import storage
from engine.review import Review
from engine.storage import DamagedSave, Profile
from tests.unit.storage_support import DAY, build, days_of, recent_of, record_days, row, state_tables

# --------------------------------------------------------------------------- the day index (Home's streak)


def test_study_days_count_the_rows_of_each_day_and_follow_undo(tmp_path):
    with Profile.open(tmp_path) as p:
        assert p.study_days() == {}
        record_days(p, {0: 2, 1: 1, 3: 3})
        assert p.study_days() == {DAY: 2, DAY + timedelta(days=1): 1, DAY + timedelta(days=3): 3}
        p.undo_last()
        p.undo_last()
        p.undo_last()
        assert p.study_days() == {DAY: 2, DAY + timedelta(days=1): 1}  # a day without rows is gone
    assert state_tables(tmp_path)["days"]["1"] == {"next_id": 7, "counts": {"2026-11-29": 2, "2026-11-30": 1}}
    with Profile.open(tmp_path) as p:
        assert p.study_days() == {DAY: 2, DAY + timedelta(days=1): 1}


def test_rows_the_state_file_has_not_seen_are_counted_on_open(tmp_path, small_segments):
    """The crash story of the schedule holds for the day index: it is saved with the state, replayed with it."""
    with Profile.open(tmp_path) as p:
        p.record(row(p))
    state = tmp_path / "default" / "state.json"
    saved = state.read_bytes()
    with Profile.open(tmp_path) as p:
        log = [*p.reviews(), *record_days(p, {0: 2, 1: 3, 2: 2})]  # across three segments
    state.write_bytes(saved)  # a crash before the state file was rewritten
    with Profile.open(tmp_path) as p:
        assert p.study_days() == days_of(log)


def test_an_undo_interrupted_after_saving_the_state_counts_the_row_once(tmp_path):
    with Profile.open(tmp_path) as p:
        record_days(p, {0: 1, 1: 1})
    seg = tmp_path / "default" / "reviews" / "000001.json"
    with_row = seg.read_bytes()
    with Profile.open(tmp_path) as p:
        p.undo_last()
    seg.write_bytes(with_row)  # crash: the state (and the day index) saved, the row not yet removed
    with Profile.open(tmp_path) as p:
        assert p.study_days() == {DAY: 1}


@pytest.mark.parametrize("change", [
    lambda t: t.pop("days"),  # a save from before the index
    lambda t: t["days"]["1"].update(next_id=2),  # out of step: rewritten by a drill that did not keep it
    lambda t: t["days"]["1"]["counts"].update({"2026-11-29": "two"}),  # not counts
    lambda t: t["days"]["1"]["counts"].update({"someday": 1}),
])
def test_a_missing_or_untrustworthy_day_index_is_rebuilt_from_the_log_and_saved(tmp_path, small_segments, change):
    with Profile.open(tmp_path) as p:
        log = record_days(p, {0: 2, 2: 3, 5: 1})
    tables = state_tables(tmp_path)
    change(tables)
    (tmp_path / "default" / "state.json").write_text(json.dumps(tables))
    with Profile.open(tmp_path) as p:
        assert p.states()  # the rest of the state file is read as ever
        assert p.study_days() == days_of(log)
        assert state_tables(tmp_path)["days"]["1"]["next_id"] == 7  # saved at once
        log.append(p.record(row(p, day=DAY + timedelta(days=6))))
    with Profile.open(tmp_path) as p:
        assert p.study_days() == days_of(log)


def test_a_damaged_old_segment_leaves_its_days_out_and_the_index_unsaved(tmp_path, small_segments):
    with Profile.open(tmp_path) as p:
        log = record_days(p, {0: 3, 1: 3, 2: 2})
    tables = state_tables(tmp_path)
    del tables["days"]  # an older save: the index must come from the log
    (tmp_path / "default" / "state.json").write_text(json.dumps(tables))
    seg = tmp_path / "default" / "reviews" / "000001.json"
    good = seg.read_bytes()
    seg.write_text("{ not json")
    with Profile.open(tmp_path) as p:
        assert p.study_days() == {DAY + timedelta(days=1): 3, DAY + timedelta(days=2): 2}  # no error
        assert p.reviews_today(DAY + timedelta(days=2)) == log[-2:]
        p.record(row(p, day=DAY + timedelta(days=2)))
    assert "days" not in state_tables(tmp_path)  # a partial index is never saved
    assert seg.read_text() == "{ not json"
    seg.write_bytes(good)  # restored as the message says
    with Profile.open(tmp_path) as p:
        assert p.study_days() == {DAY: 3, DAY + timedelta(days=1): 3, DAY + timedelta(days=2): 3}


def test_todays_rows_are_found_without_reading_older_segments(tmp_path, small_segments):
    with Profile.open(tmp_path) as p:
        log = record_days(p, {0: 3, 1: 3})  # segment 1: yesterday, segment 2: today
    (tmp_path / "default" / "reviews" / "000001.json").write_text("{ not json")
    with Profile.open(tmp_path) as p:  # the day index says segment 2 holds all 3 of today's rows
        assert p.reviews_today(DAY + timedelta(days=1)) == log[3:]
        assert p.reviews_today(DAY + timedelta(days=4)) == []
        assert p.damaged == {}
        # a day held by the damaged segment: counted without it (Home, practice and due still open), and named
        assert p.reviews_today(DAY) == []
        assert list(p.damaged) == [tmp_path / "default" / "reviews" / "000001.json"]
        assert isinstance(p.damaged[tmp_path / "default" / "reviews" / "000001.json"], DamagedSave)


# --------------------------------------------------------------------------- each item's latest answers (Browse, mocks)


def no_log_read(monkeypatch) -> None:
    monkeypatch.setattr(Profile, "_rows_of", lambda self, n: pytest.fail(f"log segment {n} was read"))
    monkeypatch.setattr(Profile, "_digest_of", lambda self, n, **kw: pytest.fail(f"digest {n} was read"))


def test_recent_keeps_the_last_five_qualities_and_the_last_whole_answer(tmp_path, small_segments, monkeypatch):
    with Profile.open(tmp_path) as p:
        log = [p.record(row(p, item="a", q=q, day=DAY + timedelta(days=k))) for k, q in enumerate([5, 4, 1, 2])]
        log += [p.record(row(p, item="a", q=q, schedule=False, mode="mock", step=k + 1)) for k, q in enumerate([0, 3])]
        log.append(p.record(row(p, item="b", q=3, schedule=False, mode="mock", step=1)))
        expected = {"a": storage.ItemRecent((4, 1, 2, 0, 3), "wrong", (DAY + timedelta(days=3)).isoformat(), 2),
                    "b": storage.ItemRecent((3,), None, None)}  # only a step of a chain: no whole answer yet
        assert p.recent() == expected == recent_of(log)
        p.undo_last()  # b's only row
        p.undo_last()  # a's step 2: its 5 before come back from the log (older segments)
        assert p.recent() == {"a": storage.ItemRecent((5, 4, 1, 2, 0), "wrong", expected["a"].date, 2)}
    with Profile.open(tmp_path) as p:
        no_log_read(monkeypatch)  # kept in the state file
        assert p.recent() == recent_of(log[:-2])


def test_rows_the_state_file_has_not_seen_are_in_recent_on_open(tmp_path, small_segments):
    with Profile.open(tmp_path) as p:
        p.record(row(p))
    state = tmp_path / "default" / "state.json"
    saved = state.read_bytes()
    with Profile.open(tmp_path) as p:
        log = [*p.reviews(), *record_days(p, {0: 2, 1: 3}), p.record(row(p, item="i00", q=1))]
    state.write_bytes(saved)  # a crash before the state file was rewritten
    with Profile.open(tmp_path) as p:
        assert p.recent() == recent_of(log)


@pytest.mark.parametrize("change", [
    lambda t: t.pop("recent"),  # a save from before them
    lambda t: t["recent"]["1"].update(next_id=2),  # out of step
    lambda t: t["recent"]["1"]["items"]["i00"].update(qualities=[9]),
    lambda t: t["recent"]["1"]["items"]["i00"].update(verdict="great"),
    lambda t: t["recent"]["1"]["items"]["i00"].update(date="yesterday"),
    lambda t: t["recent"]["1"]["items"]["i00"].update(quality=7),
    lambda t: t["recent"]["1"]["items"]["i00"].pop("quality"),  # a save from before it was kept
    lambda t: t["recent"]["1"]["items"].update(i00=[4]),
])
def test_missing_or_untrustworthy_recent_figures_are_rebuilt_from_the_log_and_saved(tmp_path, small_segments,
                                                                                    change, monkeypatch):
    with Profile.open(tmp_path) as p:
        log = record_days(p, {0: 2, 2: 3, 5: 1})
    tables = state_tables(tmp_path)
    change(tables)
    (tmp_path / "default" / "state.json").write_text(json.dumps(tables))
    with Profile.open(tmp_path) as p:
        assert p.states() and p.study_days() == days_of(log)  # the rest is read as ever
        assert p.recent() == recent_of(log)
        assert state_tables(tmp_path)["recent"]["1"]["next_id"] == 7  # saved at once
    with Profile.open(tmp_path) as p:
        no_log_read(monkeypatch)
        assert p.recent() == recent_of(log)


def test_a_damaged_old_segment_leaves_its_rows_out_of_recent_unsaved(tmp_path, small_segments):
    with Profile.open(tmp_path) as p:
        log = record_days(p, {0: 3, 1: 3, 2: 2})
    tables = state_tables(tmp_path)
    del tables["recent"]
    (tmp_path / "default" / "state.json").write_text(json.dumps(tables))
    seg = tmp_path / "default" / "reviews" / "000001.json"
    seg.write_text("{ not json")
    with Profile.open(tmp_path) as p:
        assert p.recent() == recent_of(log[3:])  # no error
        p.record(row(p, item="z"))
    assert "recent" not in state_tables(tmp_path) and seg.read_text() == "{ not json"


def test_import_writes_the_recent_figures(tmp_path, small_segments, monkeypatch):
    with Profile.open(tmp_path / "a") as p:
        build(p)
        doc = p.export()
    with Profile.open(tmp_path / "b") as q:
        q.import_document(doc)
        no_log_read(monkeypatch)
        assert q.recent() == recent_of([Review.of(r) for r in doc["reviews"]])


def test_import_writes_the_day_index(tmp_path, small_segments):
    with Profile.open(tmp_path / "a") as p:
        build(p)
        doc = p.export()
    with Profile.open(tmp_path / "b") as q:
        q.import_document(doc)
        assert q.study_days() == days_of(map(Review.of, doc["reviews"]))
    assert json.loads((tmp_path / "b" / "default" / "state.json").read_text())["days"]["1"]["next_id"] == 9
