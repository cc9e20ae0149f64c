"""Mock-interview results are as durable as reviews: each is written to its journal
(``mocks.journal``) and to ``mocks.json`` before it is acknowledged, so an older copy put back, a damaged mocks
file or a crash between the two writes keeps the newest result (the faults at every write point of a mock:
tests/unit/test_storage_atomic.py)."""

import shutil

import pytest

from engine.storage import Profile
from engine.storage.errors import JournalDamaged
from engine.storage.journal import read_journal
from engine.storage.layout import backup_paths
from tests.unit.storage_support import everything, files, read_tables, row, write_tables


def mock(k: int) -> dict:
    return {"ts": f"2026-11-2{k}T12:00:00Z", "questions": [{"item": f"i{k}"}], "score": {"correct": k}}


def add(tmp_path, n: int) -> list[dict]:
    with Profile.open(tmp_path) as p:
        p.record(row(p))
        return [p.add_mock(mock(k)) for k in range(n)]


def test_every_mock_result_is_in_the_journal_and_the_mocks_file(tmp_path):
    stored = add(tmp_path, 3)
    j = read_journal(tmp_path / "default" / "mocks.journal", "mocks")
    assert j.problem is None and j.seq == 3 and list(j.rows_at().values()) == stored
    assert everything(tmp_path)["mocks"] == stored


@pytest.mark.parametrize("generation", [0, 1, 2])
def test_putting_a_backup_back_by_hand_keeps_the_newest_mock(tmp_path, generation):
    stored = add(tmp_path, 4)
    path = tmp_path / "default" / "mocks.json"
    shutil.copyfile(backup_paths(path)[generation], path)  # cp mocks.json.bak mocks.json
    assert everything(tmp_path)["mocks"] == stored  # a reader: from the journal, in memory
    with Profile.open(tmp_path) as p:
        assert p.mocks() == stored and not p.damaged
    assert everything(tmp_path)["mocks"] == stored


def test_a_crash_between_the_journal_and_the_mocks_file_is_finished_at_the_next_open(tmp_path, monkeypatch):
    from engine.storage import durable

    stored = add(tmp_path, 1)

    def crash_at_the_file(op, path):
        if op == "write" and ".mocks.json." in path.name:
            raise KeyboardInterrupt  # (the process dies after the journal's fsynced line)
    monkeypatch.setattr(durable, "fault_point", crash_at_the_file)
    p = Profile.open(tmp_path)
    with pytest.raises(KeyboardInterrupt):
        p.add_mock(mock(5))
    p._lock.release()
    monkeypatch.undo()
    assert read_journal(tmp_path / "default" / "mocks.journal", "mocks").seq == 2
    with Profile.open(tmp_path) as q:
        assert [m["score"] for m in q.mocks()] == [m["score"] for m in stored] + [{"correct": 5}]
    assert read_journal(tmp_path / "default" / "mocks.journal", "mocks").seq == 2


def test_a_damaged_mocks_journal_loses_nothing_is_set_aside_and_said(tmp_path):
    stored = add(tmp_path, 2)
    jpath = tmp_path / "default" / "mocks.journal"
    raw = jpath.read_bytes()
    jpath.write_bytes(raw[:50] + bytes([raw[50] ^ 4]) + raw[51:])
    with Profile.open(tmp_path, read_only=True) as r:
        assert isinstance(r.damaged[jpath], JournalDamaged) and r.mocks() == stored
        assert "no mock interview is lost" in r.damaged[jpath].text("en")
    with Profile.open(tmp_path) as p:
        said = p.damaged[jpath]
        assert said.healed and "no mock interview was lost" in said.text("en") and "模拟面试" in said.text("zh")
        third = p.add_mock(mock(3))
    j = read_journal(jpath, "mocks")
    assert j.problem is None and list(j.rows_at().values()) == [*stored, third]
    assert jpath.with_name("mocks.journal.damaged").exists()


def test_a_mocks_file_from_before_the_journal_gets_a_whole_journal_at_its_next_write(tmp_path):
    stored = add(tmp_path, 2)
    folder = tmp_path / "default"
    (folder / "mocks.journal").unlink()
    (folder / "manifest.json").unlink()  # (nor a manifest)
    tables = read_tables(folder / "mocks.json")
    tables["meta"]["1"] = {"schema": 1, "kind": "mocks"}  # as an older drill wrote it: no journal line named
    write_tables(folder / "mocks.json", tables)
    with Profile.open(tmp_path) as p:
        assert p.mocks() == stored and not p.damaged
        third = p.add_mock(mock(3))
    j = read_journal(folder / "mocks.journal", "mocks")
    assert j.problem is None and j.seq == 1 and list(j.rows_at().values()) == [*stored, third]


def test_drill_doctor_repairs_a_damaged_mocks_file_from_its_journal(tmp_path):
    from engine.storage.doctor import examine, repair

    stored = add(tmp_path, 3)
    path = tmp_path / "default" / "mocks.json"
    for b in backup_paths(path):
        b.unlink(missing_ok=True)  # no backup at all: the journal alone
    raw = path.read_bytes()
    path.write_bytes(raw[:80] + bytes([raw[80] ^ 2]) + raw[81:])
    report = examine(tmp_path / "default")
    [f] = report.damaged
    assert f.path == path
    repair(report)
    assert f.lost is None and "every mock result written to it is back" in f.repaired.text("en")
    assert everything(tmp_path)["mocks"] == stored and not examine(tmp_path / "default").findings
    before = files(tmp_path / "default")
    assert not examine(tmp_path / "default").findings and files(tmp_path / "default") == before
