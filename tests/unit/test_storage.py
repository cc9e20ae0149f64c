"""engine.storage.Profile: records, undo, segments, crash repair, damaged files, locks, export/import."""

import json
import os
import shutil
import tempfile
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import storage
from engine.digest import Digest
from engine.sm2 import ItemState
from engine.storage import DamagedSave, InvalidDocument, Profile, ProfileLocked, layout
from tests.problems import examples
from tests.unit.storage_support import (
    DAY,
    as_imported,
    build,
    days_of,
    files,
    read_tables,
    recent_of,
    record_days,
    row,
    write_tables,
)


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
        assert (first.id, second.id) == (1, 2)
        assert first.typed == "295 FLOP/B" and first.before is None
    with Profile.open(tmp_path, "ann") as p:
        assert [r.id for r in p.reviews()] == [1, 2]
        assert p.states()["r1"] == ItemState(2.6, 6, 2, DAY + timedelta(days=6), DAY)
        assert p.reviews_today(DAY) == [first, second]
        assert p.last_review() == second


def test_returned_rows_are_copies(tmp_path):
    with Profile.open(tmp_path) as p:
        stored = p.record(row(p))
        stored.after["ef"] = 9.9
        next(p.reviews()).after["ef"] = 9.9
        assert p.last_review().after["ef"] == 2.5


def test_a_row_without_a_measured_time_is_kept_as_null(tmp_path, small_segments):
    with Profile.open(tmp_path) as p:
        log = [p.record(row(p, item=f"i{k}", mode="paper", seconds=None if k % 2 else 3.5)) for k in range(5)]
        assert [r.seconds for r in log] == [3.5, None, 3.5, None, 3.5]
        doc = p.export()
    with Profile.open(tmp_path) as p:  # read back from the segments and from a kept digest
        assert list(p.reviews()) == log
        assert p.digest() == Digest.of_reviews(log) and p.digest().seconds == [3.5, None, 3.5, None, 3.5]
    with Profile.open(tmp_path / "b") as q:
        q.import_document(doc)
        assert [r._replace(origin=None) for r in q.reviews()] == log  # (another replica's rows: their origin)


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
        assert p.undo_last().id == 1
        assert p.states() == {} and p.undo_last() is None
        assert p.record(row(p)).id == 3  # ids are never reused
    with Profile.open(tmp_path) as p:
        assert [r.id for r in p.reviews()] == [3]


def test_the_log_is_split_into_bounded_segments(tmp_path, small_segments):
    with Profile.open(tmp_path) as p:
        for i in range(8):
            p.record(row(p, item=f"i{i % 3}", day=DAY + timedelta(days=i // 3)))
        assert sorted(f.name for f in (tmp_path / "default" / "reviews").glob("*.json")) == [
            "000001.json", "000002.json", "000003.json"]
        assert [r.id for r in p.reviews()] == list(range(1, 9))
        assert [r.id for r in p.reviews_today(DAY + timedelta(days=1))] == [4, 5, 6]
        assert [r.id for r in p.reviews_today(DAY + timedelta(days=2))] == [7, 8]
        # undo across a segment boundary deletes the emptied segment
        for _ in range(3):
            p.undo_last()
        assert not (tmp_path / "default" / "reviews" / "000003.json").exists()
        assert p.last_review().id == 5
        assert p.record(row(p, item="z")).id == 9
    with Profile.open(tmp_path) as p:
        assert [r.id for r in p.reviews()] == [1, 2, 3, 4, 5, 9]
        assert sum(1 for _ in (tmp_path / "default" / "reviews").glob("*.json")) == 2


def test_every_write_keeps_the_previous_version_as_bak(tmp_path):
    with Profile.open(tmp_path) as p:
        p.record(row(p))
    with Profile.open(tmp_path) as p:
        p.record(row(p, item="m1"))
    state = tmp_path / "default" / "state.json"
    old = read_tables(tmp_path / "default" / "state.json.bak")
    assert len(old["states"]) == 1 and len(read_tables(state)["states"]) == 2
    seg = tmp_path / "default" / "reviews" / "000001.json"
    assert len(read_tables(seg.with_name("000001.json.bak"))["reviews"]) == 1
    assert len(read_tables(seg)["reviews"]) == 2
    assert not list((tmp_path / "default").rglob("*.tmp"))


def test_the_state_file_is_written_every_few_rows_and_on_close(tmp_path, monkeypatch):
    monkeypatch.setattr(layout, "STATE_EVERY", 3)
    state = tmp_path / "default" / "state.json"
    with Profile.open(tmp_path) as p:
        p.record(row(p))
        p.record(row(p))
        assert not state.exists()
        p.record(row(p))
        assert len(read_tables(state)["states"]) == 1
        p.record(row(p, item="m1"))
        assert len(read_tables(state)["states"]) == 1
    assert len(read_tables(state)["states"]) == 2


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
        assert p.record(row(p)).id == 9


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
        assert [r.id for r in p.reviews()] == [1]
        assert p.states() == expected


def test_a_lost_state_file_is_named_and_rebuilt_from_the_log_by_repair(tmp_path, small_segments):
    from engine.storage.doctor import examine, repair
    from engine.storage.errors import ProfileIncomplete

    with Profile.open(tmp_path) as p:
        for i in range(7):
            p.record(row(p, item=f"i{i % 2}", q=3 + i % 3))
        expected = p.states()
    (tmp_path / "default" / "state.json").unlink()
    with pytest.raises(ProfileIncomplete, match="state.json is missing"):  # the manifest lists it
        Profile.open(tmp_path)
    assert not (tmp_path / "default" / "state.json").exists()
    repair(examine(tmp_path / "default"))
    with Profile.open(tmp_path) as p:
        assert p.states() == expected
        assert p.record(row(p)).id == 8


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
    tables = read_tables(path)
    tables["meta"]["1"]["schema"] = schema
    write_tables(path, tables)


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
    with Profile.open(tmp_path) as p, pytest.raises(storage.NewerSave, match="upgrade infra-drill"):
        p.digest()
    assert read_tables(seg)["meta"]["1"]["schema"] == 3


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
    tables = read_tables(seg)
    tables["reviews"]["2"]["quality"] = "high"
    write_tables(seg, tables)
    with Profile.open(tmp_path) as p:  # opening reads only the newest segment
        with pytest.raises(DamagedSave) as e:
            list(p.reviews())
        assert e.value.path == seg and "bad review row 2 (quality must be a whole number 0-5" in e.value.reason
    seg.write_bytes(b"garbage")
    with Profile.open(tmp_path) as p, pytest.raises(DamagedSave, match="not valid JSON"):
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
        assert q.export() == as_imported(doc, q)
        assert q.record(row(q)).id == 9
    with Profile.open(tmp_path / "b", "other") as q:
        assert [r.id for r in q.reviews()] == list(range(1, 10))
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


@settings(max_examples=examples(25))
@given(ops, st.integers(1, 4), st.integers(1, 5))
def test_any_sequence_of_records_and_undos_survives_reopening(seq, segment_rows, state_every):
    """The schedule always equals the log replayed, and both survive closing and reopening."""
    saved = layout.SEGMENT_ROWS, layout.STATE_EVERY
    layout.SEGMENT_ROWS, layout.STATE_EVERY = segment_rows, state_every
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
                assert p.digest() == Digest.of_reviews(log)
            with Profile.open(Path(tmp)) as p:
                assert list(p.reviews()) == log
                assert p.states() == states
                assert p.study_days() == days_of(log)
                assert p.recent() == recent_of(log)
                assert p.digest() == Digest.of_reviews(log)
                replayed = {}
                for r in log:
                    if r.scheduled:
                        replayed[r.item] = ItemState.from_dict(r.after)
                assert states == replayed
    finally:
        layout.SEGMENT_ROWS, layout.STATE_EVERY = saved
