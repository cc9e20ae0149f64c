"""drill sync DIR and drill import --merge on real save folders: two machines' different histories synced
through a shared folder in both orders and twice are equal and complete, drill doctor finds them whole, and a
crash at any write of a sync leaves the profile as it was or as merged (a later sync finishes the job)."""

import json
import shutil
from datetime import UTC, datetime, timedelta

import pytest

from drill.core.sync import sync_folder
from engine.storage import Profile, durable
from engine.storage.doctor import examine
from engine.storage.merging import content, origin_of
from tests.unit.storage_support import DAY, row
from tests.unit.test_storage_atomic import Crash, abandon, counting, quiet

START = datetime(2026, 11, 20, 9, tzinfo=UTC)


def history(p, items, offset):
    """A machine's own history: answers to ``items`` on alternate days (the two machines' interleave)."""
    for k, (item, q) in enumerate(items):
        p.record(row(p, item=item, q=q, day=DAY + timedelta(days=2 * k + offset)))


def machines(tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    with Profile.open(tmp_path / "a") as a:
        history(a, [("x", 5), ("y", 4), ("x", 2)], 0)
        a.set_settings({"new_per_day": 8}, when=START)
        a.add_mock({"ts": "2026-11-29T12:00:00Z", "questions": [{"item": "x"}], "score": {"correct": 1}})
    with Profile.open(tmp_path / "b") as b:
        history(b, [("x", 4), ("z", 3)], 1)
        b.set_settings({"new_per_day": 2}, when=START + timedelta(hours=1))  # later: this one wins
        b.set_settings({"reviews_per_day": 50}, when=START)
    return tmp_path / "a", tmp_path / "b", shared


def sync(saves, shared):
    with Profile.open(saves) as p:
        return sync_folder(p, shared)


def seen(saves) -> dict:
    with Profile.open(saves, read_only=True) as p:
        doc, replica = p.export(), p.replica
    return {"reviews": {(origin_of(r, replica), content(r)) for r in doc["reviews"]}, "n": len(doc["reviews"]),
            "states": doc["states"], "settings": doc["settings"], "changed": doc.get("settings_changed"),
            "mocks": [m["ts"] for m in doc["mocks"]]}


@pytest.mark.parametrize("order", ["ab", "ba"])
def test_two_save_folders_synced_in_both_orders_and_twice_are_equal_and_complete(tmp_path, order):
    a, b, shared = machines(tmp_path)
    folders = {"a": a, "b": b}
    for _ in range(2):
        for name in order:
            sync(folders[name], shared)
    sa, sb = seen(a), seen(b)
    assert sa == sb
    assert sa["n"] == len(sa["reviews"]) == 5 and sa["mocks"] == ["2026-11-29T12:00:00Z"]
    assert set(sa["states"]) == {"x", "y", "z"}
    assert {k: sa["settings"][k] for k in ("new_per_day", "reviews_per_day")} == {"new_per_day": 2,
                                                                                  "reviews_per_day": 50}
    assert sorted(f.name for f in shared.iterdir()) == sorted(f"{Profile.open(f, read_only=True).replica}.json"
                                                              for f in (a, b))
    for saves in (a, b):
        report = examine(saves / "default")  # drill doctor: a synced profile is checked like any other
        assert report.files > 0 and report.damaged == [] and report.stale_totals is None
    with Profile.open(a) as p:  # and the merged profile goes on recording
        p.record(row(p, item="x", q=4, day=DAY + timedelta(days=9)))


def test_a_file_that_is_not_an_export_is_left_out_and_named(tmp_path):
    a, b, shared = machines(tmp_path)
    (shared / "half.json").write_text('{"format": "infra-drill-profile", "rev')
    done = sync(a, shared)
    assert [name for name, _ in done.refused] == ["half.json"] and done.report.added == 0


def test_import_merge_merges_one_export(tmp_path, capsys):
    from drill.cli import main

    a, b, shared = machines(tmp_path)
    exported = tmp_path / "b.json"
    with Profile.open(b, read_only=True) as p:
        exported.write_text(json.dumps(p.export()))
    assert main(["--saves", str(a), "import", "--merge", str(exported)]) == 0
    assert "2 reviews" in capsys.readouterr().out
    assert seen(a)["n"] == 5
    assert main(["--saves", str(a), "import", "--merge", str(exported)]) == 0  # again: nothing new
    assert seen(a)["n"] == 5


def crash_sweep(tmp_path, monkeypatch, points):
    a, b, shared = machines(tmp_path)
    sync(a, shared)
    base = tmp_path / "base"
    shutil.copytree(b, base / "b")
    shutil.copytree(shared, base / "shared")
    old = seen(b)
    with Profile.open(b) as p:
        writes = counting(monkeypatch)  # the writes of the sync alone (opening writes too)
        sync_folder(p, shared)
        total = writes[0]
        monkeypatch.setattr(durable, "fault_point", quiet)
    new = seen(b)
    assert total >= 5 and new != old
    for at in points(total):
        run = tmp_path / f"crash{at}"
        shutil.copytree(base, run)
        p = Profile.open(run / "b")
        counting(monkeypatch, at, "crash")
        with pytest.raises(Crash):
            sync_folder(p, run / "shared")
        abandon(p)
        monkeypatch.setattr(durable, "fault_point", quiet)
        assert seen(run / "b") in (old, new), f"a crash at write {at} of {total} left neither"
        sync(run / "b", run / "shared")  # the next sync finishes it
        assert seen(run / "b") == new
        mine = [f for f in (run / "shared").glob("*.json") if f.name not in {x.name for x in shared.iterdir()}
                or f.read_bytes() != (shared / f.name).read_bytes()]
        assert mine == [], f"after a crash at {at} and a sync the shared folder differs: {mine}"
        shutil.rmtree(run)


def test_a_crash_at_the_first_and_last_write_of_a_sync(tmp_path, monkeypatch):
    crash_sweep(tmp_path, monkeypatch, lambda total: (1, total))


@pytest.mark.sweep
def test_a_crash_at_every_write_of_a_sync_leaves_the_profile_old_or_merged(tmp_path, monkeypatch):
    crash_sweep(tmp_path, monkeypatch, lambda total: range(2, total))


def test_drill_sync_says_what_it_merged_in_either_language(tmp_path, capsys):
    from drill.cli import main

    a, b, shared = machines(tmp_path)
    assert main(["--saves", str(a), "sync", str(shared)]) == 0
    assert main(["--saves", str(b), "--lang", "zh", "sync", str(shared)]) == 0
    out = capsys.readouterr().out
    assert "Wrote" in out and "新增 3 条复习记录、1 次模拟面试" in out
    assert main(["--saves", str(a), "sync", str(tmp_path / "nowhere")]) == 1
    assert "is not a folder" in capsys.readouterr().err


def test_the_manifest_lists_each_replicas_id_range_of_a_merged_log_file(tmp_path):
    from engine.storage import manifest

    a, b, shared = machines(tmp_path)
    sync(b, shared)
    sync(a, shared)
    m = manifest.read(a / "default")
    rb = Profile.open(b, read_only=True).replica
    assert m.parts["reviews/000001.json"]["ids"] == {m.replica: [1, 5], rb: [1, 2]}


def test_a_sync_with_nothing_new_leaves_its_own_file_alone(tmp_path):
    a, b, shared = machines(tmp_path)
    mine = sync(a, shared).written
    before = mine.stat().st_mtime_ns, mine.stat().st_ino
    done = sync(a, shared)
    assert not done.report.changed and (mine.stat().st_mtime_ns, mine.stat().st_ino) == before
