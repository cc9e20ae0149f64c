"""engine.storage: records, undo, segments, crash repair, damaged files, locks, export/import."""

import json
import os
import shutil
import tempfile
import zlib
from collections import Counter
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import storage
from engine.session import review_row
from engine.sm2 import ItemState
from engine.stats import Digest
from engine.storage import DamagedSave, InvalidDocument, Profile, ProfileLocked

DAY = date(2026, 11, 29)


def row(p, item="r1", q=4, day=DAY, schedule=True, mode="practice", **kw):
    when = datetime(day.year, day.month, day.day, 12, tzinfo=timezone.utc)
    return review_row(item=item, topic="roofline", seed=3, quality=q, verdict="correct" if q >= 4 else "wrong",
                      when=when, today=day, state=p.state(item) if schedule else None, schedule=schedule,
                      mode=mode, **kw)


@pytest.fixture
def small_segments(monkeypatch):
    monkeypatch.setattr(storage, "SEGMENT_ROWS", 3)


def files(path):
    return {str(f.relative_to(path)): f.read_bytes() for f in sorted(path.rglob("*")) if f.is_file()}


def test_a_fresh_profile_is_empty_with_default_settings(tmp_path):
    with Profile.open(tmp_path) as p:
        assert p.states() == {} and list(p.reviews()) == [] and p.mocks() == [] and p.is_empty()
        assert p.settings() == {"new_per_day": 5}
        assert p.undo_last() is None and p.last_review() is None
    assert (tmp_path / "default.lock").read_text().strip() == str(os.getpid())


def test_records_survive_reopening(tmp_path):
    with Profile.open(tmp_path, "ann") as p:
        first = p.record(row(p, typed="295 FLOP/B", value=295.0, seconds=12.5))
        second = p.record(row(p, q=5))
        assert (first["id"], second["id"]) == (1, 2)
        assert first["typed"] == "295 FLOP/B" and first["before"] is None
    with Profile.open(tmp_path, "ann") as p:
        assert [r["id"] for r in p.reviews()] == [1, 2]
        assert p.states()["r1"] == ItemState(2.6, 6, 2, DAY + timedelta(days=6), DAY)
        assert p.reviews_today(DAY) == [first, second]
        assert p.last_review() == second


def test_returned_rows_are_copies(tmp_path):
    with Profile.open(tmp_path) as p:
        stored = p.record(row(p))
        stored["after"]["ef"] = 9.9
        next(p.reviews())["after"]["ef"] = 9.9
        assert p.last_review()["after"]["ef"] == 2.5


def test_a_row_without_a_measured_time_is_kept_as_null(tmp_path, small_segments):
    with Profile.open(tmp_path) as p:
        log = [p.record(row(p, item=f"i{k}", mode="paper", seconds=None if k % 2 else 3.5)) for k in range(5)]
        assert [r["seconds"] for r in log] == [3.5, None, 3.5, None, 3.5]
        doc = p.export()
    with Profile.open(tmp_path) as p:  # read back from the segments and from a kept digest
        assert list(p.reviews()) == log
        assert p.digest() == Digest.of_rows(log) and p.digest().seconds == [3.5, None, 3.5, None, 3.5]
    with Profile.open(tmp_path / "b") as q:
        q.import_document(doc)
        assert list(q.reviews()) == log


def test_an_unscheduled_row_leaves_the_schedule_alone(tmp_path):
    with Profile.open(tmp_path) as p:
        p.record(row(p, q=1))
        before = p.states()
        p.record(row(p, q=1, schedule=False, mode="redrill"))
        p.record(row(p, item="m1", q=5, schedule=False, mode="extra"))
        assert p.states() == before


def test_record_refuses_a_bad_row_and_stores_nothing(tmp_path):
    with Profile.open(tmp_path) as p:
        good = row(p)
        for bad, word in (({**good, "quality": 7}, "quality"), ({**good, "mode": "cram"}, "mode"),
                          ({**good, "value": float("inf")}, "value"), ({**good, "ts": "yesterday"}, "ts"),
                          ({k: v for k, v in good.items() if k != "seed"}, "seed"),
                          ({**good, "after": None}, "after"), ({**good, "colour": 1}, "colour"),
                          ({**good, "seconds": -1}, "seconds"), ({**good, "seconds": True}, "seconds"),
                          ({**good, "seconds": "12"}, "seconds"), ({**good, "seconds": float("nan")}, "seconds"),
                          ({**good, "after": {"ef": 1.0}}, "ef")):
            with pytest.raises(InvalidDocument, match=word):
                p.record(bad)
        assert list(p.reviews()) == [] and p.states() == {}


def test_undo_removes_the_row_and_restores_the_previous_state(tmp_path):
    with Profile.open(tmp_path) as p:
        p.record(row(p, q=5))
        after_first = p.states()
        last = p.record(row(p, q=1))
        assert p.undo_last() == last
        assert p.states() == after_first
        assert p.undo_last()["id"] == 1
        assert p.states() == {} and p.undo_last() is None
        assert p.record(row(p))["id"] == 3  # ids are never reused
    with Profile.open(tmp_path) as p:
        assert [r["id"] for r in p.reviews()] == [3]


def test_the_log_is_split_into_bounded_segments(tmp_path, small_segments):
    with Profile.open(tmp_path) as p:
        for i in range(8):
            p.record(row(p, item=f"i{i % 3}", day=DAY + timedelta(days=i // 3)))
        assert sorted(f.name for f in (tmp_path / "default" / "reviews").glob("*.json")) == [
            "000001.json", "000002.json", "000003.json"]
        assert [r["id"] for r in p.reviews()] == list(range(1, 9))
        assert [r["id"] for r in p.reviews_today(DAY + timedelta(days=1))] == [4, 5, 6]
        assert [r["id"] for r in p.reviews_today(DAY + timedelta(days=2))] == [7, 8]
        # undo across a segment boundary deletes the emptied segment
        for _ in range(3):
            p.undo_last()
        assert not (tmp_path / "default" / "reviews" / "000003.json").exists()
        assert p.last_review()["id"] == 5
        assert p.record(row(p, item="z"))["id"] == 9
    with Profile.open(tmp_path) as p:
        assert [r["id"] for r in p.reviews()] == [1, 2, 3, 4, 5, 9]
        assert sum(1 for _ in (tmp_path / "default" / "reviews").glob("*.json")) == 2


def test_every_write_keeps_the_previous_version_as_bak(tmp_path):
    with Profile.open(tmp_path) as p:
        p.record(row(p))
    with Profile.open(tmp_path) as p:
        p.record(row(p, item="m1"))
    state = tmp_path / "default" / "state.json"
    old = json.loads((tmp_path / "default" / "state.json.bak").read_text())
    assert len(old["states"]) == 1 and len(json.loads(state.read_text())["states"]) == 2
    seg = tmp_path / "default" / "reviews" / "000001.json"
    assert len(json.loads(seg.with_name("000001.json.bak").read_text())["reviews"]) == 1
    assert len(json.loads(seg.read_text())["reviews"]) == 2
    assert not list((tmp_path / "default").rglob("*.tmp"))


def test_the_state_file_is_written_every_few_rows_and_on_close(tmp_path, monkeypatch):
    monkeypatch.setattr(storage, "STATE_EVERY", 3)
    state = tmp_path / "default" / "state.json"
    with Profile.open(tmp_path) as p:
        p.record(row(p))
        p.record(row(p))
        assert not state.exists()
        p.record(row(p))
        assert len(json.loads(state.read_text())["states"]) == 1
        p.record(row(p, item="m1"))
        assert len(json.loads(state.read_text())["states"]) == 1
    assert len(json.loads(state.read_text())["states"]) == 2


# --------------------------------------------------------------------------- crash repair


def test_rows_the_state_file_has_not_seen_are_replayed_on_open(tmp_path, small_segments):
    """A crash after some records but before the state file was rewritten: the next open replays them."""
    with Profile.open(tmp_path) as p:
        p.record(row(p))
    state = tmp_path / "default" / "state.json"
    saved = state.read_bytes()
    with Profile.open(tmp_path) as p:
        for i in range(7):  # across three segments
            p.record(row(p, item=f"i{i % 2}", q=i % 6))
        expected = p.states()
    state.write_bytes(saved)  # the state file as it was before those records
    with Profile.open(tmp_path) as p:
        assert p.states() == expected
        assert p.record(row(p))["id"] == 9


def test_an_undo_interrupted_after_restoring_the_state_is_finished_on_open(tmp_path):
    with Profile.open(tmp_path) as p:
        p.record(row(p))
        p.record(row(p, q=1))
    seg = tmp_path / "default" / "reviews" / "000001.json"
    with_row = seg.read_bytes()
    with Profile.open(tmp_path) as p:
        p.undo_last()
        expected = p.states()
    seg.write_bytes(with_row)  # crash: the state was restored but the row not yet removed
    with Profile.open(tmp_path) as p:
        assert [r["id"] for r in p.reviews()] == [1]
        assert p.states() == expected


def test_a_lost_state_file_is_rebuilt_from_the_log(tmp_path, small_segments):
    with Profile.open(tmp_path) as p:
        for i in range(7):
            p.record(row(p, item=f"i{i % 2}", q=3 + i % 3))
        expected = p.states()
    (tmp_path / "default" / "state.json").unlink()
    with Profile.open(tmp_path) as p:
        assert p.states() == expected
        assert p.record(row(p))["id"] == 8


def test_leftover_temporary_files_are_removed_on_open(tmp_path):
    with Profile.open(tmp_path) as p:
        p.record(row(p))
    junk = tmp_path / "default" / ".state.json.999.tmp"
    junk.write_text('{"half": ')
    with Profile.open(tmp_path) as p:
        assert len(list(p.reviews())) == 1
    assert not junk.exists()


# --------------------------------------------------------------------------- damaged files


@pytest.mark.parametrize("name, content, reason", [
    ("state.json", b'{"meta": {"1": {"schema": 1, "ki', "not valid JSON"),
    ("state.json", b"\xff\xfe", "not valid JSON"),
    ("state.json", b"[1, 2]", "wrong layout"),
    ("state.json", b'{"meta": {"1": {"schema": 0, "kind": "state"}}}', "schema version 0 is not 1"),
    ("state.json", b'{"meta": {"1": {"schema": "2", "kind": "state"}}}', "schema version '2' is not 1"),
    ("state.json", b'{"states": {"1": {"item": "r1"}}}', "no schema version"),
    ("mocks.json", b'{"meta": {"1": {"schema": 1, "kind": "state"}}}', "holds 'state'"),
    ("reviews/000001.json", b'{"meta": {"1": {"schema": 1, "kind": "reviews"}}, "reviews": {"1": {"id": 1}}}',
     "bad review row"),
])
def test_a_damaged_file_is_reported_with_its_path_and_left_untouched(tmp_path, name, content, reason):
    for item in ("r1", "m1"):  # two sessions: every file has been written twice
        with Profile.open(tmp_path) as p:
            p.record(row(p, item=item))
            p.add_mock({"ts": "2026-11-29T12:00:00Z", "questions": [], "score": {}})
    target = tmp_path / "default" / name
    target.write_bytes(content)
    before = files(tmp_path / "default")
    with pytest.raises(DamagedSave) as e:
        Profile.open(tmp_path)
    assert e.value.path == target and reason in e.value.reason
    assert e.value.backup == target.with_name(target.name + ".bak")
    assert f"cp {e.value.backup} {target}" in str(e.value) and str(target) in str(e.value)
    assert files(tmp_path / "default") == before  # nothing written, nothing removed
    # the lock was released: restoring the backup as told makes the profile open again
    shutil.copyfile(e.value.backup, target)
    with Profile.open(tmp_path) as p:
        assert p.states()


def two_sessions(tmp_path) -> None:
    for item in ("r1", "m1"):  # every file has been written twice: each has a backup
        with Profile.open(tmp_path) as p:
            p.record(row(p, item=item))
            p.add_mock({"ts": "2026-11-29T12:00:00Z", "questions": [], "score": {}})


def set_schema(path: Path, schema) -> None:
    tables = json.loads(path.read_text())
    tables["meta"]["1"]["schema"] = schema
    path.write_text(json.dumps(tables))


@pytest.mark.parametrize("name", ["state.json", "mocks.json", "reviews/000001.json"])
def test_a_file_from_a_newer_drill_says_upgrade_and_offers_no_backup(tmp_path, name):
    two_sessions(tmp_path)
    target = tmp_path / "default" / name
    set_schema(target, 2)
    before = files(tmp_path / "default")
    with pytest.raises(storage.NewerSave) as e:
        Profile.open(tmp_path)
    msg = str(e.value)
    assert isinstance(e.value, DamagedSave) and e.value.path == target and e.value.backup is None
    assert f"save file {target} was written by a newer version of infra-drill" in msg and "upgrade" in msg
    assert "cp " not in msg and "mv " not in msg and "damaged" not in msg  # restoring the older backup loses data
    assert files(tmp_path / "default") == before


def test_an_older_segment_from_a_newer_drill_is_reported_when_read(tmp_path, small_segments):
    with Profile.open(tmp_path) as p:
        record_days(p, {0: 3, 1: 2})
    seg = tmp_path / "default" / "reviews" / "000001.json"
    set_schema(seg, 3)
    storage.digest_path(seg).unlink()
    with Profile.open(tmp_path) as p:
        with pytest.raises(storage.NewerSave, match="upgrade infra-drill"):
            p.digest()
    assert json.loads(seg.read_text())["meta"]["1"]["schema"] == 3


@pytest.mark.parametrize("spoil_backup, says", [
    (lambda bak: set_schema(bak, 2), "written by a newer version of infra-drill: upgrade infra-drill, then restore"),
    (lambda bak: set_schema(bak, 0), "There is no good copy of it"),
    (lambda bak: bak.write_text('{"meta": {"1": {"schema": 1, "kind": "mocks"}}}'), "There is no good copy of it"),
    (lambda bak: bak.write_text('{"states": {}}'), "There is no good copy of it"),
    (lambda bak: bak.write_text("{ not json"), "There is no good copy of it"),
])
def test_a_backup_is_offered_only_if_it_can_replace_the_file(tmp_path, spoil_backup, says):
    two_sessions(tmp_path)
    target = tmp_path / "default" / "state.json"
    spoil_backup(storage.backup_path(target))
    target.write_text("{ not json")
    before = files(tmp_path / "default")
    with pytest.raises(DamagedSave) as e:
        Profile.open(tmp_path)
    assert e.value.backup is None and "not valid JSON" in e.value.reason
    assert says in str(e.value)
    assert ("mv " in str(e.value)) == ("no good copy" in says)  # a newer backup is never to be thrown away
    assert files(tmp_path / "default") == before


def test_a_damaged_file_without_backup_says_how_to_start_afresh(tmp_path):
    (tmp_path / "default").mkdir()
    (tmp_path / "default" / "mocks.json").write_text("nope")
    with pytest.raises(DamagedSave) as e:
        Profile.open(tmp_path)
    assert e.value.backup is None and "mv " in str(e.value) and "mocks.json.damaged" in str(e.value)


def test_a_damaged_older_segment_is_reported_when_read(tmp_path, small_segments):
    with Profile.open(tmp_path) as p:
        for _ in range(5):
            p.record(row(p))
    seg = tmp_path / "default" / "reviews" / "000001.json"
    tables = json.loads(seg.read_text())
    tables["reviews"]["2"]["quality"] = "high"
    seg.write_text(json.dumps(tables))
    with Profile.open(tmp_path) as p:  # opening reads only the newest segment
        with pytest.raises(DamagedSave) as e:
            list(p.reviews())
        assert e.value.path == seg and "bad review row 2 (quality must be a whole number 0-5" in e.value.reason
    seg.write_bytes(b"garbage")
    with Profile.open(tmp_path) as p:
        with pytest.raises(DamagedSave, match="not valid JSON"):
            p.export()
    assert seg.read_bytes() == b"garbage"


# --------------------------------------------------------------------------- lock


def test_a_second_open_of_a_held_profile_names_the_profile_and_pid(tmp_path):
    with Profile.open(tmp_path, "ann"):
        with pytest.raises(ProfileLocked) as e:
            Profile.open(tmp_path, "ann", wait=0.1)
        assert (e.value.profile, e.value.pid) == ("ann", os.getpid())
        assert f"profile 'ann' is in use by process {os.getpid()}" in str(e.value)
        with Profile.open(tmp_path, "bob"):  # other profiles are independent
            pass
    with Profile.open(tmp_path, "ann"):  # released on close
        pass


@pytest.mark.parametrize("name", ["", ".hidden", "a/b", "x" * 65, "ann.lock", "../up"])
def test_bad_profile_names_are_refused(tmp_path, name):
    with pytest.raises(ValueError, match="profile name"):
        Profile.open(tmp_path, name)


def test_a_closed_profile_refuses_use(tmp_path):
    p = Profile.open(tmp_path)
    p.close()
    with pytest.raises(ValueError, match="closed"):
        p.record(row(p))


# --------------------------------------------------------------------------- settings, mocks


def test_settings_are_validated_and_kept(tmp_path):
    with Profile.open(tmp_path) as p:
        p.set_setting("new_per_day", 8)
        p.set_setting("lang", "zh")
        for key, value in (("new_per_day", -1), ("new_per_day", "5"), ("lang", "fr"), ("x", {1, 2}), ("", 1)):
            with pytest.raises(InvalidDocument):
                p.set_setting(key, value)
    with Profile.open(tmp_path) as p:
        assert p.settings() == {"new_per_day": 8, "lang": "zh"}


def test_mock_results_get_ids_and_are_validated(tmp_path):
    mock = {"ts": "2026-11-29T12:00:00Z", "seed": 1, "settings": {"minutes": 30}, "seconds_used": 1500,
            "questions": [{"item": "r1", "seed": 2, "step": None, "typed": "3", "verdict": "correct", "seconds": 40,
                           "expected": "3", "flagged": False}],
            "score": {"correct": 1, "close": 0, "wrong": 0, "unanswered": 0}}
    with Profile.open(tmp_path) as p:
        assert p.add_mock(mock)["id"] == 1
        assert p.add_mock(mock)["id"] == 2
        with pytest.raises(InvalidDocument, match="questions"):
            p.add_mock({**mock, "questions": "none"})
    with Profile.open(tmp_path) as p:
        assert [m["id"] for m in p.mocks()] == [1, 2]
        assert p.mocks()[0] == {**mock, "id": 1}


# --------------------------------------------------------------------------- export / import


def build(p):
    p.set_setting("new_per_day", 3)
    for i in range(7):
        p.record(row(p, item=f"i{i % 3}", q=i % 6, day=DAY + timedelta(days=i), typed="新 12 GB", value=1.5))
    p.record(row(p, item="i0", q=2, schedule=False, mode="redrill", step=2))
    p.add_mock({"ts": "2026-11-29T12:00:00Z", "questions": [{"item": "i1"}], "score": {"correct": 0}})


def test_export_import_round_trip(tmp_path, small_segments):
    with Profile.open(tmp_path / "a") as p:
        build(p)
        doc = p.export()
    text = json.dumps(doc, ensure_ascii=False)
    assert doc["format"] == "infra-drill-profile" and doc["schema"] == 1
    assert len(doc["reviews"]) == 8 and len(doc["states"]) == 3 and len(doc["mocks"]) == 1
    with Profile.open(tmp_path / "b", "other") as q:
        q.record(row(q, item="zz"))
        q.import_document(json.loads(text))
        assert q.export() == {**doc, "profile": "other"}
        assert q.record(row(q))["id"] == 9
    with Profile.open(tmp_path / "b", "other") as q:
        assert [r["id"] for r in q.reviews()] == list(range(1, 10))
        assert q.settings()["new_per_day"] == 3 and "zz" not in q.states()
    assert not list((tmp_path / "b").glob(".other.*"))


@pytest.mark.parametrize("mutate, problem", [
    (lambda d: d.update(format="other"), "format"),
    (lambda d: d.update(schema=2), "schema"),
    (lambda d: d.update(reviews={}), "reviews must be a JSON list"),
    (lambda d: d["reviews"][5].update(quality=9), "reviews[5]: quality"),
    (lambda d: d["reviews"][3].update(id=1), "reviews[3]: ids must increase"),
    (lambda d: d["reviews"][7].pop("typed"), "reviews[7]: missing field 'typed'"),
    (lambda d: d["states"]["i1"].update(ef=0.5), "states['i1']: ef"),
    (lambda d: d["settings"].update(new_per_day="many"), "settings.new_per_day"),
    (lambda d: d["mocks"].append(dict(d["mocks"][0])), "mocks[1]: id 1 appears twice"),
    (lambda d: d["mocks"][0].update(ts=5), "mocks[0]: ts"),
])
def test_an_invalid_document_names_its_first_problem_and_changes_nothing(tmp_path, mutate, problem):
    with Profile.open(tmp_path / "a") as p:
        build(p)
        doc = p.export()
    mutate(doc)
    with Profile.open(tmp_path / "b") as q:
        q.record(row(q, item="keep"))
        before = files(tmp_path / "b" / "default")
        with pytest.raises(InvalidDocument, match=problem.replace("[", r"\[").replace("]", r"\]")):
            q.import_document(doc)
        assert files(tmp_path / "b" / "default") == before
        assert list(q.states()) == ["keep"]


def test_an_import_interrupted_between_its_renames_is_rolled_back(tmp_path):
    with Profile.open(tmp_path) as p:
        p.record(row(p))
    os.replace(tmp_path / "default", tmp_path / ".default.old")  # crash right after the first rename
    (tmp_path / ".default.import").mkdir()
    with Profile.open(tmp_path) as p:
        assert len(list(p.reviews())) == 1
    assert not (tmp_path / ".default.old").exists() and not (tmp_path / ".default.import").exists()


# --------------------------------------------------------------------------- property


ops = st.lists(st.one_of(st.just(("undo",)), st.tuples(st.just("record"), st.sampled_from("abc"),
                                                         st.integers(0, 5), st.booleans(), st.integers(0, 3),
                                                         st.sampled_from((None, 1, 2)))),
               max_size=25)


@settings(max_examples=25)
@given(ops, st.integers(1, 4), st.integers(1, 5))
def test_any_sequence_of_records_and_undos_survives_reopening(seq, segment_rows, state_every):
    """The schedule always equals the log replayed, and both survive closing and reopening."""
    saved = storage.SEGMENT_ROWS, storage.STATE_EVERY
    storage.SEGMENT_ROWS, storage.STATE_EVERY = segment_rows, state_every
    try:
        with tempfile.TemporaryDirectory() as tmp:
            log: list[dict] = []
            with Profile.open(Path(tmp)) as p:
                for op in seq:
                    if op[0] == "undo":
                        assert p.undo_last() == (log.pop() if log else None)
                    else:
                        _, item, q, sched, days, step = op  # a step of a chain is never scheduled
                        log.append(p.record(row(p, item=item, q=q, day=DAY + timedelta(days=days), schedule=sched,
                                                mode="practice" if sched else "redrill",
                                                step=None if sched else step)))
                states = p.states()
                assert p.study_days() == days_of(log)
                assert p.recent() == recent_of(log)
                assert p.digest() == Digest.of_rows(log)
            with Profile.open(Path(tmp)) as p:
                assert list(p.reviews()) == log
                assert p.states() == states
                assert p.study_days() == days_of(log)
                assert p.recent() == recent_of(log)
                assert p.digest() == Digest.of_rows(log)
                replayed = {}
                for r in log:
                    if r["scheduled"]:
                        replayed[r["item"]] = ItemState.from_dict(r["after"])
                assert states == replayed
    finally:
        storage.SEGMENT_ROWS, storage.STATE_EVERY = saved


def days_of(rows) -> dict:
    return dict(Counter(date.fromisoformat(r["date"]) for r in rows))


def recent_of(rows) -> dict:
    """Each item's latest answers, by their definition: read straight from the rows."""
    out = {}
    for item in dict.fromkeys(r["item"] for r in rows):
        mine = [r for r in rows if r["item"] == item]
        whole = [r for r in mine if r["step"] is None]
        out[item] = storage.ItemRecent(tuple(r["quality"] for r in mine[-storage.RECENT_QUALITIES:]),
                                       whole[-1]["verdict"] if whole else None, whole[-1]["date"] if whole else None,
                                       whole[-1]["quality"] if whole else None)
    return out


# --------------------------------------------------------------------------- the day index (Home's streak)


def state_tables(tmp_path) -> dict:
    return json.loads((tmp_path / "default" / "state.json").read_text())


def record_days(p, days: dict[int, int]) -> list[dict]:
    """Rows on DAY + k for each k: n items."""
    return [p.record(row(p, item=f"i{k}{i}", day=DAY + timedelta(days=k))) for k, n in days.items()
            for i in range(n)]


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
        with pytest.raises(DamagedSave):
            p.reviews_today(DAY)


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
        assert q.recent() == recent_of(doc["reviews"])


def test_import_writes_the_day_index(tmp_path, small_segments):
    with Profile.open(tmp_path / "a") as p:
        build(p)
        doc = p.export()
    with Profile.open(tmp_path / "b") as q:
        q.import_document(doc)
        assert q.study_days() == days_of(doc["reviews"])
    assert json.loads((tmp_path / "b" / "default" / "state.json").read_text())["days"]["1"]["next_id"] == 9


# --------------------------------------------------------------------------- digests of closed segments


def digests(tmp_path) -> list[str]:
    return sorted(f.name for f in (tmp_path / "default" / "reviews").glob("*.digest"))


def test_a_segment_gets_its_digest_when_it_is_full(tmp_path, small_segments):
    with Profile.open(tmp_path) as p:
        record_days(p, {0: 3})
        assert digests(tmp_path) == []  # the newest segment changes: no digest
        record_days(p, {1: 4})
        assert digests(tmp_path) == ["000001.digest", "000002.digest"]
        assert p.digest() == Digest.of_rows(p.reviews())
        assert len(p.digest()) == 7
    assert not list((tmp_path / "default").rglob("*.tmp"))


def test_digests_are_read_instead_of_closed_segments(tmp_path, small_segments, monkeypatch):
    with Profile.open(tmp_path) as p:
        log = record_days(p, {0: 3, 1: 3, 2: 1})
    with Profile.open(tmp_path) as p:
        monkeypatch.setattr(Profile, "_rows_of", lambda self, n: pytest.fail(f"segment {n} was read"))
        assert p.digest() == Digest.of_rows(log)


def test_import_writes_the_digests_of_its_closed_segments(tmp_path, small_segments):
    with Profile.open(tmp_path / "a") as p:
        build(p)
        doc = p.export()
    with Profile.open(tmp_path / "b") as q:
        q.import_document(doc)
        assert digests(tmp_path / "b") == ["000001.digest", "000002.digest"]  # not the newest, 000003
        for n in (1, 2):
            seg = tmp_path / "b" / "default" / "reviews" / f"00000{n}.json"
            kept = storage.read_digest(storage.digest_path(seg), storage.file_identity(seg))
            assert kept == Digest.of_rows(doc["reviews"][3 * (n - 1):3 * n])
        assert q.digest() == Digest.of_rows(doc["reviews"])


def rewrite_body(path: Path, change) -> None:
    """Change a digest's columns and give it a matching checksum: only the values can tell."""
    head, _, body = path.read_bytes().partition(b"\n")
    columns = json.loads(body)
    change(columns)
    body = json.dumps(columns).encode()
    header = {**json.loads(head), "crc32": zlib.crc32(body)}
    path.write_bytes(json.dumps(header).encode() + b"\n" + body)


def touch_later(path: Path) -> None:
    st = os.stat(path)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))


@pytest.mark.parametrize("spoil", [
    pytest.param(lambda d, seg: d.unlink(), id="missing"),
    pytest.param(lambda d, seg: d.write_bytes(b""), id="empty"),
    pytest.param(lambda d, seg: d.write_bytes(d.read_bytes()[:-7]), id="truncated"),
    pytest.param(lambda d, seg: d.write_bytes(d.read_bytes().replace(b'"correct"', b'"wrong"', 1)), id="bit-rot"),
    pytest.param(lambda d, seg: d.write_bytes(b"\xff\xfe\n\x00"), id="not-utf8"),
    pytest.param(lambda d, seg: d.write_bytes(d.read_bytes().replace(b'"version":1', b'"version":0')), id="old-format"),
    pytest.param(lambda d, seg: d.write_bytes(d.read_bytes().replace(b'"interval"]', b'"interval","x"]', 1)),
                 id="other-fields"),
    pytest.param(lambda d, seg: touch_later(seg), id="segment-touched"),
    pytest.param(lambda d, seg: rewrite_body(d, lambda c: c["quality"].__setitem__(0, 9)), id="out-of-range"),
    pytest.param(lambda d, seg: rewrite_body(d, lambda c: c["item"].__setitem__(1, ["a"])), id="wrong-type"),
    pytest.param(lambda d, seg: rewrite_body(d, lambda c: c["seconds"].__setitem__(2, "NaN")), id="not-a-number"),
    pytest.param(lambda d, seg: rewrite_body(d, lambda c: c["date"].pop()), id="short-column"),
    pytest.param(lambda d, seg: rewrite_body(d, lambda c: c.pop("mode")), id="no-column"),
])
def test_a_stale_missing_or_damaged_digest_is_rebuilt_never_trusted(tmp_path, small_segments, spoil):
    with Profile.open(tmp_path) as p:
        log = record_days(p, {0: 3, 1: 3, 2: 1})
        p.undo_last()
        log[-1] = p.record(row(p, item="last", q=1, day=DAY + timedelta(days=2)))
    seg = tmp_path / "default" / "reviews" / "000001.json"
    spoil(storage.digest_path(seg), seg)
    with Profile.open(tmp_path) as p:
        assert p.digest() == Digest.of_rows(log)
    kept = storage.read_digest(storage.digest_path(seg), storage.file_identity(seg))
    assert kept == Digest.of_rows(log[:3])  # rebuilt and kept again
    assert not list((tmp_path / "default").rglob("*.tmp"))


def test_a_digest_follows_its_segment_when_the_segment_changes(tmp_path, small_segments):
    with Profile.open(tmp_path) as p:
        log = record_days(p, {0: 3, 1: 3, 2: 1})
    seg = tmp_path / "default" / "reviews" / "000001.json"
    tables = json.loads(seg.read_text())
    tables["reviews"]["2"].update(quality=0, verdict="dont_know")  # same length: only the times tell
    seg.write_text(json.dumps(tables))
    touch_later(seg)
    log[1].update(quality=0, verdict="dont_know")
    with Profile.open(tmp_path) as p:
        assert p.digest() == Digest.of_rows(log)


def test_the_digest_of_a_segment_that_reopens_is_dropped(tmp_path, small_segments):
    """Undo can empty the newest segment and reopen the full one before it: that one changes again."""
    with Profile.open(tmp_path) as p:
        log = record_days(p, {0: 3, 1: 1})
        assert digests(tmp_path) == ["000001.digest"]
        p.undo_last()  # segment 2 is gone, segment 1 is the newest again
        p.undo_last()
        assert digests(tmp_path) == []
        log = log[:2] + [p.record(row(p, item="new", q=2, day=DAY)), p.record(row(p, item="z", q=0))]
        assert p.digest() == Digest.of_rows(log)
    with Profile.open(tmp_path) as p:
        assert p.digest() == Digest.of_rows(log)


def test_a_digest_that_cannot_be_kept_changes_nothing(tmp_path, small_segments, monkeypatch):
    with Profile.open(tmp_path) as p:
        log = record_days(p, {0: 3, 1: 3, 2: 1})
    for d in (tmp_path / "default" / "reviews").glob("*.digest"):
        d.unlink()
    real = storage.atomic_write

    def refuse_digests(path, data, **kw):
        if Path(path).suffix == ".digest":
            raise OSError(28, "No space left on device")
        real(path, data, **kw)

    monkeypatch.setattr(storage, "atomic_write", refuse_digests)
    with Profile.open(tmp_path) as p:
        assert p.digest() == Digest.of_rows(log)
        log.append(p.record(row(p, day=DAY + timedelta(days=3))))
    assert digests(tmp_path) == []


def test_a_damaged_segment_is_reported_even_with_its_digest_gone_stale(tmp_path, small_segments):
    with Profile.open(tmp_path) as p:
        record_days(p, {0: 3, 1: 3, 2: 1})
    seg = tmp_path / "default" / "reviews" / "000002.json"
    seg.write_text("{ not json")
    with Profile.open(tmp_path) as p:
        with pytest.raises(DamagedSave) as e:
            p.digest()
        assert e.value.path == seg
    assert seg.read_text() == "{ not json"
