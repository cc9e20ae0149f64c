"""``drill doctor``: checks every file of a profile and says what it found in plain words, in both
languages; ``--repair`` restores each damaged file from the newest good source without losing the newest
review, and says what could not be recovered.  Any command that meets damage names the file and the doctor."""

import json
import shutil
from datetime import UTC

import pytest

from drill.cli import main
from engine.storage import Profile, layout
from engine.storage.layout import backup_paths, journal_path
from tests.unit.storage_support import build, everything, row


def drill(*argv):
    try:
        return main(list(argv))
    except SystemExit as e:
        return e.code


def flip(path, at=None):
    raw = bytearray(path.read_bytes())
    at = len(raw) // 2 if at is None else at
    raw[at] ^= 0x08
    path.write_bytes(bytes(raw))


@pytest.fixture
def saves(tmp_path, small_segments):
    with Profile.open(tmp_path) as p:
        build(p)  # three log files of 3, 3 and 2 rows, settings, a mock
        p.add_mock({"ts": "2026-11-30T12:00:00Z", "questions": [], "score": {}})  # (the mocks file has a backup)
    return tmp_path


def test_a_whole_profile_is_said_whole(saves, capsys):
    assert drill("--saves", str(saves), "doctor") == 0
    assert "are whole" in capsys.readouterr().out
    assert drill("--saves", str(saves), "doctor", "--lang", "zh") == 0
    assert "都完好" in capsys.readouterr().out


@pytest.mark.parametrize("name", ["reviews/000001.json", "reviews/000003.json", "state.json", "mocks.json"])
def test_damage_is_named_by_every_command_and_repaired_keeping_the_newest_review(saves, capsys, name):
    before = everything(saves)
    target = saves / "default" / name
    flip(target)
    # (--json: the readiness reads the whole log; the other figures come from the totals beside it)
    assert drill("--saves", str(saves), "stats", "--json") == 1 or name == "mocks.json"
    err = capsys.readouterr().err
    if name != "mocks.json":
        assert str(target) in err and "drill doctor --repair" in err and "invalid literal" not in err
    assert drill("--saves", str(saves), "doctor", "--lang", "zh") == 1
    out = capsys.readouterr().out
    assert f"{target} 已损坏" in out and "drill doctor --repair" in out
    assert drill("--saves", str(saves), "doctor", "--repair") == 0
    out = capsys.readouterr().out
    assert "repaired:" in out and "not recovered" not in out
    assert target.with_name(target.name + ".damaged").exists()
    after = everything(saves)
    assert after["reviews"] == before["reviews"] and after["states"] == before["states"]
    assert after["settings"] == before["settings"]
    assert after["mocks"] == before["mocks"]  # mock results too are kept in a journal: the newest is back
    assert drill("--saves", str(saves), "doctor") == 0


def test_a_log_file_and_its_journal_both_damaged_come_back_from_a_backup_and_the_loss_is_said(saves, capsys):
    seg = saves / "default" / "reviews" / "000003.json"
    flip(seg)
    flip(journal_path(seg), at=len(journal_path(seg).read_bytes()) - 20)  # its last line
    assert drill("--saves", str(saves), "doctor", "--repair", "--json") == 1
    doc = json.loads(capsys.readouterr().out)
    found = {f["path"]: f for f in doc["findings"]}
    assert "backup" in found[str(seg)]["repaired"] and "could not be recovered" in found[str(seg)]["not_recovered"]


def test_an_older_log_file_put_back_from_its_backup_is_behind_its_journal_and_repaired(saves, capsys):
    seg = saves / "default" / "reviews" / "000001.json"
    before = everything(saves)
    shutil.copyfile(backup_paths(seg)[0], seg)  # cp 000001.json.bak 000001.json: one row fewer
    assert drill("--saves", str(saves), "doctor") == 1
    assert "behind its journal" in capsys.readouterr().out
    assert drill("--saves", str(saves), "doctor", "--repair") == 0
    assert everything(saves)["reviews"] == before["reviews"]


def test_repair_waits_for_no_one_a_profile_in_use_is_said(saves, capsys):
    flip(saves / "default" / "reviews" / "000001.json")
    with Profile.open(saves, read_only=True):
        pass
    from engine.storage import ProfileLock

    held = ProfileLock.acquire(saves / "default.lock", "default", 0.0)
    try:
        assert drill("--saves", str(saves), "doctor", "--repair") == 1
        assert "in use" in capsys.readouterr().err
    finally:
        held.release()


def test_the_newest_review_survives_any_one_damaged_file(saves):
    """Every review is in two places: the newest log file and its journal; damage one, and it comes back."""
    with Profile.open(saves) as p:
        newest = p.record(row(p, item="newest"))
    seg = saves / "default" / "reviews" / f"{(newest.id - 1) // layout.SEGMENT_ROWS + 1:06d}.json"
    for damaged in (seg, journal_path(seg)):
        kept = damaged.read_bytes()
        flip(damaged)
        assert drill("--saves", str(saves), "doctor", "--repair") == 0
        with Profile.open(saves) as p:
            assert p.last_review() == newest
        damaged.with_name(damaged.name + ".damaged").unlink()
        assert kept  # (the file was there to damage)


def test_a_writer_takes_the_days_snapshot_by_the_injected_clock_and_doctor_reads_it(saves, monkeypatch, capsys):
    from datetime import datetime

    from drill.core import paths

    monkeypatch.setattr(paths, "local_now", lambda: datetime(2026, 12, 24, 23, 59, tzinfo=UTC))
    assert drill("--saves", str(saves), "due", "--new-per-day", "4") == 0
    snap = saves / "default.snapshots" / "2026-12-24"
    assert (snap / "state.json").is_file() and (snap / "reviews" / "000001.json").is_file()
    mocks = saves / "default" / "mocks.json"
    for b in [*backup_paths(mocks), mocks.with_name("mocks.journal")]:  # no journal, no backup: the snapshot
        b.unlink(missing_ok=True)
    flip(mocks)
    assert drill("--saves", str(saves), "doctor", "--repair") == 0
    assert "default.snapshots/2026-12-24/mocks.json" in capsys.readouterr().out


def backups_of(saves):
    folder = saves / "default"
    files = [folder / "state.json", folder / "mocks.json", *sorted((folder / "reviews").glob("[0-9]*.json"))]
    return [b for f in files for b in backup_paths(f) if b.exists()]


def test_every_backup_is_checked_and_a_damaged_one_named_and_moved_aside(saves, capsys):
    found = backups_of(saves)
    assert len(found) >= 5  # state, mocks and log files have backups to check
    for b in found:
        kept = b.read_bytes()
        flip(b)
        assert drill("--saves", str(saves), "doctor") == 1
        out = capsys.readouterr().out
        assert f"{b} (a backup: an earlier version of its file) is damaged: " in out, out
        assert "1 problem(s) found" in out and "drill doctor --repair" in out
        assert drill("--saves", str(saves), "doctor", "--lang", "zh") == 1
        assert f"{b}（备份：该文件的较早版本）已损坏：" in capsys.readouterr().out
        assert drill("--saves", str(saves), "doctor", "--repair") == 0
        assert f"moved aside as {b}.damaged, out of the backups" in capsys.readouterr().out
        assert not b.exists() and drill("--saves", str(saves), "doctor") == 0
        b.with_name(b.name + ".damaged").rename(b)
        b.write_bytes(kept)
    assert drill("--saves", str(saves), "doctor", "--json") == 0


def test_a_damaged_backup_is_never_used_to_restore(saves, capsys):
    state = saves / "default" / "state.json"
    for limit in ("4", "5"):  # two more writes of the state file: two backups
        assert drill("--saves", str(saves), "due", "--new-per-day", limit) == 0
    capsys.readouterr()
    newest, older = backup_paths(state)[:2]
    assert newest.exists() and older.exists()
    flip(newest)
    flip(state)
    assert drill("--saves", str(saves), "doctor", "--repair", "--json") == 0
    found = {f["path"]: f for f in json.loads(capsys.readouterr().out)["findings"]}
    assert found[str(newest)]["kind"] == "backup" and found[str(newest)]["repaired"]
    assert f"its backup {older} (saved" in found[str(state)]["repaired"]  # the whole one: not the newer .bak


def test_the_damaged_file_s_message_never_offers_a_damaged_backup(saves, capsys):
    seg = saves / "default" / "reviews" / "000001.json"
    flip(backup_paths(seg)[0])
    flip(seg)
    assert drill("--saves", str(saves), "stats", "--json") == 1  # (the readiness reads the whole log)
    err = capsys.readouterr().err
    assert str(seg) in err and f"cp {backup_paths(seg)[0]}" not in err
