"""Checksums and strict reading: damage is reported naming the file, never read as fewer rows or
changed data; older saves without checksums still open; three backups; a save keeps its permission bits."""

import json
import os
import stat

import pytest

from engine.storage import DamagedSave, Profile, layout
from engine.storage.sealed import Broken, open_sealed, seal, unseal
from tests.unit.storage_support import build, everything, flip_sweep, read_tables, row

pytestmark = pytest.mark.usefixtures("no_read_wait")  # no writer runs beside these reads


def test_a_sealed_document_round_trips_and_any_changed_byte_is_caught():
    body = b'{"meta":{"1":{"schema":1}},"reviews":{}}'
    raw = seal(body)
    assert raw.startswith(b'{"checksum":"') and json.loads(raw)["reviews"] == {}
    assert unseal(raw) == (body, True) and open_sealed(seal(b"{}")) == ({}, True)
    for i in range(len(raw)):
        for bit in (0, 3, 6):
            bad = raw[:i] + bytes([raw[i] ^ (1 << bit)]) + raw[i + 1:]
            try:
                data, sealed = open_sealed(bad)
            except (Broken, ValueError):
                continue
            # still readable: only as an older save whose first key is no table of ours (the readers refuse it)
            assert not sealed and "checksum" not in data


def test_a_key_given_twice_is_damage_not_the_last_one_wins(tmp_path):
    with Profile.open(tmp_path) as p:
        for i in range(3):
            p.record(row(p, item=f"i{i}"))
    seg = tmp_path / "default" / "reviews" / "000001.json"
    body = unseal(seg.read_bytes())[0]
    seg.write_bytes(seal(body[:-1] + b',"reviews":{}}'))  # a second "reviews", sealed as if written so
    with pytest.raises(DamagedSave) as e:
        Profile.open(tmp_path)
    assert e.value.path == seg and "'reviews' appears twice" in str(e.value)


@pytest.mark.parametrize("name, table", [("reviews/000001.json", "reviews"), ("state.json", "settings"),
                                         ("state.json", "states"), ("mocks.json", "mocks")])
def test_a_renamed_table_is_damage_not_an_empty_one(tmp_path, name, table):
    with Profile.open(tmp_path) as p:
        build(p)
    path = tmp_path / "default" / name
    body = unseal(path.read_bytes())[0].replace(f'"{table}":'.encode(), f'"{table[:-1]}x":'.encode())
    for raw in (body, seal(body)):  # an older save (no checksum) too
        path.write_bytes(raw)
        with pytest.raises(DamagedSave) as e:
            everything(tmp_path)
        assert e.value.path == path and f"{table[:-1]}x" in str(e.value)


def test_a_damaged_state_file_names_itself_not_a_python_error(tmp_path):
    with Profile.open(tmp_path) as p:
        build(p)
    state = tmp_path / "default" / "state.json"
    raw = state.read_bytes()
    at = raw.index(b'"1":')  # a row number
    for damaged in (raw[:at + 2] + b":" + raw[at + 3:],  # sealed: the checksum catches it
                    unseal(raw)[0].replace(b'"1":{"item"', b'"1:":{"item"', 1)):  # an older save: the check does
        state.write_bytes(damaged)
        with pytest.raises(DamagedSave) as e:
            Profile.open(tmp_path)
        assert e.value.path == state and "invalid literal" not in str(e.value)
        # (the message points at drill doctor: tests/functional/test_doctor.py)


def test_an_older_save_without_checksums_opens_and_is_sealed_at_its_next_write(tmp_path):
    with Profile.open(tmp_path) as p:
        build(p)
    before = everything(tmp_path)
    paths = [p for p in (tmp_path / "default").rglob("*.json")]
    for path in paths:
        path.write_bytes(unseal(path.read_bytes())[0])  # as a drill before checksums wrote it
    assert everything(tmp_path) == before
    with Profile.open(tmp_path) as p:
        p.set_setting("new_per_day", 4)
        p.record(row(p, item="late"))
    assert (tmp_path / "default" / "state.json").read_bytes().startswith(b'{"checksum":')
    assert (tmp_path / "default" / "reviews" / "000001.json").read_bytes().startswith(b'{"checksum":')


def test_three_backups_are_kept_oldest_last(tmp_path):
    with Profile.open(tmp_path) as p:
        for i in range(5):
            p.set_setting("new_per_day", i)
    state = tmp_path / "default" / "state.json"
    kept = [read_tables(b)["settings"]["1"]["new_per_day"] for b in layout.backup_paths(state)]
    assert read_tables(state)["settings"]["1"]["new_per_day"] == 4 and kept == [3, 2, 1]
    assert not state.with_name("state.json.bak4").exists()


@pytest.mark.parametrize("mode", [0o600, 0o444, 0o640])
def test_a_save_keeps_its_permission_bits(tmp_path, mode):
    with Profile.open(tmp_path) as p:
        p.record(row(p))
    files = [tmp_path / "default" / "state.json", tmp_path / "default" / "reviews" / "000001.json"]
    for f in files:
        os.chmod(f, mode)
    with Profile.open(tmp_path) as p:
        p.set_setting("new_per_day", 2)
        p.record(row(p, item="r2"))
    assert [stat.S_IMODE(f.stat().st_mode) for f in files] == [mode, mode]


def test_bit_flips_in_every_save_file_are_reported_or_harmless_never_silent(tmp_path, small_segments):
    with Profile.open(tmp_path) as p:
        build(p)  # 8 rows: three segments of three, digests beside the full ones, settings, a mock
        p.digest()
    folder = tmp_path / "default"
    targets = sorted(p for p in folder.rglob("*") if p.is_file() and not p.name.endswith((".bak", ".bak2", ".bak3")))
    assert len(list((folder / "reviews").glob("*.json"))) >= 3 and any(t.suffix == ".digest" for t in targets)
    silent, reported, same = flip_sweep(tmp_path, targets, flips=30)
    assert silent == [] and reported > 0


def test_an_empty_profile_name_is_refused_not_the_default_profile(tmp_path, capsys):
    from drill.cli import main

    with pytest.raises(SystemExit) as e:
        main(["--saves", str(tmp_path), "--profile", "", "due"])
    assert e.value.code == 1 and "profile name ''" in capsys.readouterr().err
    assert not (tmp_path / "default").exists()


def test_a_reader_that_may_not_read_the_saves_says_cannot_read_not_cannot_write(tmp_path, monkeypatch):
    import errno
    import pathlib

    from engine.storage import ReadFailed

    with Profile.open(tmp_path) as p:
        p.record(row(p))
    real = pathlib.Path.iterdir

    def iterdir(self):
        if self.name == "reviews":
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real(self)

    monkeypatch.setattr(pathlib.Path, "iterdir", iterdir)
    with pytest.raises(ReadFailed) as e:
        Profile.open(tmp_path, read_only=True)
    assert e.value.text("en").startswith(f"cannot read {tmp_path / 'default' / 'reviews'}: permission denied")
    assert "无法读取" in e.value.text("zh") and "没有读取权限" in e.value.text("zh")
