"""The journal beside each log file: every review is in two places before it is acknowledged, so
putting an older copy of a log file back (``cp X.bak X``) keeps the newest review, and a damaged journal loses
nothing and is said."""

import shutil

import pytest

from engine.storage import Profile
from engine.storage.errors import JournalDamaged
from engine.storage.journal import read_journal
from engine.storage.layout import backup_paths, journal_path
from tests.unit.storage_support import everything, row


def test_every_review_is_in_the_journal_and_the_segment(tmp_path):
    with Profile.open(tmp_path) as p:
        rows = [p.record(row(p, item=f"i{k}")) for k in range(3)]
        p.undo_last()
    j = read_journal(journal_path(tmp_path / "default" / "reviews" / "000001.json"))
    assert j.problem is None and j.seq == 4 and list(j.rows_at().values()) == [r.to_dict() for r in rows[:2]]


@pytest.mark.parametrize("generation", [0, 1, 2])
def test_putting_a_backup_back_by_hand_keeps_the_newest_review(tmp_path, generation):
    with Profile.open(tmp_path) as p:
        for k in range(4):
            p.record(row(p, item=f"i{k}"))
    before = everything(tmp_path)
    seg = tmp_path / "default" / "reviews" / "000001.json"
    shutil.copyfile(backup_paths(seg)[generation], seg)  # what a user would do: cp 000001.json.bak 000001.json
    assert everything(tmp_path) == before  # a reader: from the journal
    with Profile.open(tmp_path) as p:
        assert [r.item for r in p.reviews()] == ["i0", "i1", "i2", "i3"] and not p.damaged
    assert everything(tmp_path) == before


def test_a_damaged_journal_loses_nothing_is_set_aside_and_said(tmp_path):
    with Profile.open(tmp_path) as p:
        for k in range(3):
            p.record(row(p, item=f"i{k}"))
    before = everything(tmp_path)
    jpath = journal_path(tmp_path / "default" / "reviews" / "000001.json")
    raw = jpath.read_bytes()
    jpath.write_bytes(raw[:60] + bytes([raw[60] ^ 4]) + raw[61:])
    with Profile.open(tmp_path, read_only=True) as r:  # a reader says it and changes nothing
        assert isinstance(r.damaged[jpath], JournalDamaged) and not r.damaged[jpath].healed
        assert "drill doctor --repair" in r.damaged[jpath].text("en")
    with Profile.open(tmp_path) as p:
        said = p.damaged[jpath]
        assert said.healed and "no review was lost" in said.text("en") and "没有丢失" in said.text("zh")
        p.record(row(p, item="i3"))
    assert jpath.with_name(jpath.name + ".damaged").read_bytes() == raw[:60] + bytes([raw[60] ^ 4]) + raw[61:]
    j = read_journal(jpath)
    assert j.problem is None and [r["item"] for r in j.rows_at().values()] == ["i0", "i1", "i2", "i3"]
    assert everything(tmp_path)["reviews"][:3] == before["reviews"]


def test_a_torn_last_line_was_never_acknowledged_and_is_cut_off(tmp_path):
    with Profile.open(tmp_path) as p:
        p.record(row(p, item="a"))
    jpath = journal_path(tmp_path / "default" / "reviews" / "000001.json")
    whole = jpath.read_bytes()
    jpath.write_bytes(whole + b'{"checksum":"0123')  # a crash in the middle of an append
    with Profile.open(tmp_path) as p:
        assert not p.damaged and [r.item for r in p.reviews()] == ["a"]
        p.record(row(p, item="b"))
    j = read_journal(jpath)
    assert j.problem is None and [r["item"] for r in j.rows_at().values()] == ["a", "b"]


def test_a_daily_snapshot_hard_links_the_profile_and_seven_are_kept(tmp_path, small_segments):
    from datetime import date, timedelta

    from engine.storage import snapshots
    from tests.unit.storage_support import build

    with Profile.open(tmp_path) as p:
        build(p)
        first = p.snapshot(date(2026, 12, 1))
        assert p.snapshot(date(2026, 12, 1)) is None  # one a day
    seg = tmp_path / "default" / "reviews" / "000001.json"
    assert (first / "reviews" / "000001.json").stat().st_ino == seg.stat().st_ino  # linked, not copied
    for name in ("reviews/000003.journal", "reviews/000003.json", "state.json", "mocks.json"):  # copied
        assert (first / name).stat().st_ino != (tmp_path / "default" / name).stat().st_ino
    with Profile.open(tmp_path) as p:
        p.record(row(p, item="later"))  # the snapshot does not change with the profile
        for k in range(1, 10):
            p.snapshot(date(2026, 12, 1) + timedelta(days=k))
    # seven kept; the days from the 2nd on hold the same profile, so their older copies went and the 1st,
    # which holds something else, stays
    assert [s.name for s in snapshots.snapshots(tmp_path, "default")] == \
        [(date(2026, 12, 10) - timedelta(days=k)).isoformat() for k in range(6)] + ["2026-12-01"]
    old = snapshots.snapshots(tmp_path, "default")[-1]
    # a snapshot copy is a whole profile: opened where it lies, it holds what the profile held that day
    shutil.copytree(old, tmp_path / "restored" / "default")
    assert len(everything(tmp_path / "restored")["reviews"]) == 8
    shutil.copytree(snapshots.snapshots(tmp_path, "default")[-2], tmp_path / "later" / "default")
    assert len(everything(tmp_path / "later")["reviews"]) == 9


@pytest.mark.parametrize("rows", [0, 1, 8])
def test_the_streamed_export_is_the_export_document_byte_for_byte(tmp_path, small_segments, rows):
    import json

    with Profile.open(tmp_path) as p:
        for k in range(rows):
            p.record(row(p, item=f"i{k % 3}", typed="新\x1b 12 GB"))
        if rows:
            p.add_mock({"ts": "2026-11-29T12:00:00Z", "questions": [{"item": "i1"}], "score": {"correct": 0}})
            p.set_setting("new_per_day", 3)
        counts = {}
        text = "".join(p.export_chunks(counts))
        assert text == json.dumps(p.export(), ensure_ascii=False, indent=1)
        assert counts["reviews"] == rows


def test_an_older_log_file_put_back_from_a_backup_is_never_read_as_fewer_rows(tmp_path, small_segments):
    from engine.storage import DamagedSave

    with Profile.open(tmp_path) as p:
        for k in range(7):  # log files of 3, 3 and 1 rows
            p.record(row(p, item=f"i{k}"))
    seg = tmp_path / "default" / "reviews" / "000001.json"
    shutil.copyfile(backup_paths(seg)[0], seg)  # its version before its third row
    with pytest.raises(DamagedSave) as e:
        everything(tmp_path)
    assert e.value.path == seg and "drill doctor --repair" in e.value.text("en")
    assert "drill doctor --repair" in e.value.text("zh")
