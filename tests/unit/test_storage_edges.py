"""engine.storage at its edges: settings of the wrong kind in a save file (written by hand or by another
version), a file nested too deep for the JSON reader, text that cannot be written as UTF-8 (a lone
surrogate), a setting whose write failed, the saves folder that is not a folder."""

import errno

import pytest

from drill.core.mock import SETTINGS_KEY as MOCK_KEY
from drill.core.teach import SEEN_KEY, SHOW_KEY
from engine.session import QUEUE_KEY
from engine.storage import (
    DEFAULT_SETTINGS,
    EXPORT_FORMAT,
    SCHEMA_VERSION,
    DamagedSave,
    InvalidDocument,
    Profile,
    SaveFailed,
    SavesUnusable,
    UnreadableSave,
    document_problem,
    setting_problem,
    validation,
)
from tests.unit.storage_support import edit_text, read_tables, row, state_tables, write_tables  # noqa: F401
from tests.unit.test_storage_faults import refuse_writes


def write_settings(tmp_path, **values):
    """A profile whose state file holds ``values`` as settings, as if edited by hand."""
    with Profile.open(tmp_path) as p:
        p.set_setting("new_per_day", 7)
        p.record(row(p))
    tables = state_tables(tmp_path)
    tables["settings"]["1"].update(values)
    write_tables((tmp_path / "default" / "state.json"), tables)


def test_every_setting_the_app_reads_has_its_check():
    assert {QUEUE_KEY, SEEN_KEY, SHOW_KEY, MOCK_KEY, "new_per_day", "reviews_per_day", "lang", "interview"} \
        <= set(validation.SETTINGS)


BAD_SETTINGS = [
    ("new_per_day", "abc"), ("new_per_day", 5.0), ("new_per_day", True), ("reviews_per_day", "10"),
    ("interview", 5), ("interview", "2026-13-01"), ("lang", 5), ("lang", "fr"),
    (QUEUE_KEY, 5), (QUEUE_KEY, {"a": 1}), (QUEUE_KEY, [[1]]), (QUEUE_KEY, [""]),
    (SEEN_KEY, {}), (SEEN_KEY, 5), (SEEN_KEY, "roofline.ridge"), (SHOW_KEY, "no"), (SHOW_KEY, 0),
    (MOCK_KEY, 5), (MOCK_KEY, {"topics": 5}), (MOCK_KEY, {"minutes": "x"}), (MOCK_KEY, {"questions": 0}),
    (MOCK_KEY, {"chains": "no"}), (MOCK_KEY, {"seed": 1}),
]


@pytest.mark.parametrize("key, value", BAD_SETTINGS)
def test_a_setting_of_the_wrong_kind_is_refused_when_set_and_when_imported(tmp_path, key, value):
    assert setting_problem(key, value) is not None and key in setting_problem(key, value)
    with Profile.open(tmp_path) as p:
        with pytest.raises(InvalidDocument, match=key):
            p.set_setting(key, value)
        doc = {**p.export(), "settings": {key: value}}
        assert document_problem(doc).startswith(f"settings.{key}: ")


@pytest.mark.parametrize("key, value", BAD_SETTINGS)
def test_a_stored_setting_of_the_wrong_kind_is_not_used_and_is_named(tmp_path, key, value):
    """Not a damaged profile: the default is used, the problem named, the file left as it is until it is set."""
    write_settings(tmp_path, **{key: value})
    for read_only in (True, False):
        with Profile.open(tmp_path, read_only=read_only) as p:
            assert key in p.ignored_settings and key in p.ignored_settings[key]
            assert p.settings().get(key) == DEFAULT_SETTINGS.get(key) and p.settings()["new_per_day"] in (7, 5)
            assert len(list(p.reviews())) == 1
            assert key not in p.export()["settings"]  # an export is importable
    with Profile.open(tmp_path) as p:
        p.record(row(p, item="r2"))
        p.set_setting("new_per_day" if key != "new_per_day" else "lang", 9 if key != "new_per_day" else "en")
    assert state_tables(tmp_path)["settings"]["1"][key] == value  # left as it was
    good = {"new_per_day": 3, "reviews_per_day": 10, "interview": None, "lang": "zh", QUEUE_KEY: ["a"],
            SEEN_KEY: ["a"], SHOW_KEY: False, MOCK_KEY: {"minutes": 30, "questions": None, "topics": [],
                                                        "chains": True}}[key]
    with Profile.open(tmp_path) as p:
        p.set_setting(key, good)
        assert p.ignored_settings == {}
    with Profile.open(tmp_path) as p:
        assert p.settings()[key] == good and p.ignored_settings == {}


def test_a_stored_setting_that_cannot_be_written_back_is_dropped_at_the_next_write(tmp_path):
    write_settings(tmp_path)
    edit_text(tmp_path / "default" / "state.json", '"new_per_day":7', '"new_per_day":NaN')
    with Profile.open(tmp_path) as p:
        assert "not finite" in p.ignored_settings["new_per_day"] and p.settings()["new_per_day"] == 5
        p.set_setting("lang", "zh")  # no ValueError: NaN is not written back
    assert state_tables(tmp_path)["settings"]["1"] == {"lang": "zh"}


def test_a_setting_refused_by_a_full_disk_is_not_saved_by_a_later_write(tmp_path, monkeypatch):
    with Profile.open(tmp_path) as p:
        p.set_setting("new_per_day", 3)
        refuse_writes(monkeypatch, match=lambda target: target == "state.json")
        with pytest.raises(SaveFailed):
            p.set_setting("lang", "zh")
        assert "lang" not in p.settings()
        monkeypatch.undo()
        p.set_setting("new_per_day", 4)
    with Profile.open(tmp_path) as p:
        assert p.settings() == {"new_per_day": 4}


@pytest.mark.parametrize("name", ["state.json", "mocks.json", "reviews/000001.json", "state.json.bak"])
def test_a_file_nested_too_deep_for_the_json_reader_is_damaged_not_a_crash(tmp_path, name):
    with Profile.open(tmp_path) as p:
        p.record(row(p))
        p.add_mock({"ts": "2026-11-29T12:00:00Z", "questions": [{"item": "i1"}], "score": {"correct": 0}})
    deep = b'{"meta": {"1": {"x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}}}"
    (tmp_path / "default" / name).write_bytes(deep)
    if name.endswith(".bak"):  # a backup is only read to offer it: never a crash
        (tmp_path / "default" / "state.json").write_bytes(b"{")
        name = "state.json"
    with pytest.raises(DamagedSave) as e:
        Profile.open(tmp_path)
    assert e.value.path == tmp_path / "default" / name


LONE = "12\ud800 GB"


@pytest.mark.parametrize("write", [
    lambda p: p.set_setting("x", LONE),
    lambda p: p.set_setting(LONE, 1),
    lambda p: p.add_mock({"ts": "2026-11-29T12:00:00Z", "questions": [{"item": "i1", "typed": LONE}],
                          "score": {"correct": 0}}),
    lambda p: p.record({**row(p), "typed": LONE}),  # (review_row escapes it: engine.session.stored_text)
    lambda p: p.record({**row(p), "value": LONE}),
])
def test_text_that_is_not_writable_as_utf8_is_refused_and_changes_nothing(tmp_path, write):
    with Profile.open(tmp_path) as p:
        with pytest.raises(InvalidDocument, match="surrogate|setting name"):
            write(p)
        assert p.settings() == DEFAULT_SETTINGS and p.mocks() == [] and list(p.reviews()) == []
        p.set_setting("lang", "zh")  # the files are still written
    with Profile.open(tmp_path) as p:
        assert p.settings()["lang"] == "zh"


def test_an_import_with_a_lone_surrogate_is_refused_with_the_field_named(tmp_path):
    with Profile.open(tmp_path) as p:
        r = {"id": 1, **row(p), "typed": LONE}
    doc = {"format": EXPORT_FORMAT, "schema": SCHEMA_VERSION, "profile": "p", "settings": {}, "states": {},
           "reviews": [r], "mocks": []}
    assert document_problem(doc).startswith("reviews[0]: typed holds a lone surrogate")


def test_a_stored_row_with_an_escaped_lone_surrogate_is_damaged_not_a_crash_at_the_next_write(tmp_path):
    with Profile.open(tmp_path) as p:
        p.record(row(p, typed="12 GB"))
    seg = tmp_path / "default" / "reviews" / "000001.json"
    edit_text(seg, '"12 GB"', '"12 \\ud800GB"')
    with pytest.raises(DamagedSave, match="surrogate"):
        Profile.open(tmp_path)


@pytest.mark.parametrize("read_only", [False, True])
@pytest.mark.parametrize("under", ["", "deeper/still"])
def test_a_saves_folder_that_is_a_file_is_named_not_taken_for_a_damaged_profile(tmp_path, read_only, under):
    afile = tmp_path / "afile"
    afile.write_text("x")
    root = afile / under if under else afile
    with pytest.raises(SavesUnusable) as e:
        Profile.open(root, read_only=read_only)
    assert e.value.path == root and e.value.file == afile and "is a file, not a folder" in str(e.value)
    assert "是一个文件，不是文件夹" in e.value.text("zh") and afile.read_text() == "x"


# --------------------------------------------------------------------------- a save file this user may not read


def refuse_reads(monkeypatch, name: str):
    """Reading the save file called ``name`` fails with EACCES (the suite runs as root: chmod would not)."""
    import pathlib

    real = pathlib.Path.read_bytes

    def read_bytes(self):
        if self.name == name:
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real(self)

    monkeypatch.setattr(pathlib.Path, "read_bytes", read_bytes)


@pytest.mark.parametrize("name", ["state.json", "mocks.json", "000002.json"])
def test_a_save_file_that_may_not_be_read_is_not_called_damaged_nor_offered_to_be_moved(tmp_path, small_segments,
                                                                                      monkeypatch, name):
    with Profile.open(tmp_path) as p:
        for k in range(4):
            p.record(row(p, item=f"i{k}"))
        p.add_mock({"ts": "2026-11-29T12:00:00Z", "questions": [{"item": "i1"}], "score": {"correct": 0}})
    refuse_reads(monkeypatch, name)
    with pytest.raises(UnreadableSave) as e:
        Profile.open(tmp_path)
    assert isinstance(e.value, DamagedSave) and e.value.path.name == name
    assert "cannot be read: permission denied" in str(e.value) and f"chmod u+rw {e.value.path}" in str(e.value)
    assert "damaged" not in str(e.value) and "mv " not in str(e.value) and e.value.backup is None


def test_an_older_log_file_that_may_not_be_read_is_left_out_of_todays_count_and_named(tmp_path, small_segments,
                                                                                    monkeypatch):
    from tests.unit.storage_support import DAY

    with Profile.open(tmp_path) as p:
        for k in range(5):
            p.record(row(p, item=f"i{k}"))
    refuse_reads(monkeypatch, "000001.json")
    with Profile.open(tmp_path) as p:
        assert len(p.reviews_today(DAY)) == 2
        [e] = p.damaged.values()
        assert isinstance(e, UnreadableSave) and e.fix.startswith("chmod u+rw ")


# --------------------------------------------------------------------------- undo whose row cannot be removed


def test_an_undone_row_that_cannot_be_removed_never_comes_back(tmp_path, monkeypatch):
    """The state file says the row is undone; its log file cannot be written (now, nor at the next open)."""
    seg = "000001.json"
    with Profile.open(tmp_path) as p:
        first = p.record(row(p, item="a"))
        p.record(row(p, item="b"))
        refuse_writes(monkeypatch, errno.EROFS, match=lambda target: target == seg)
        assert p.undo_last().item == "b"
        assert isinstance(p.state_behind, SaveFailed) and list(p.reviews()) == [first]
    with Profile.open(tmp_path) as p:  # still refused: opens all the same, the row left out
        assert list(p.reviews()) == [first] and isinstance(p.state_behind, SaveFailed)
        with pytest.raises(SaveFailed):
            p.record(row(p, item="c"))
        monkeypatch.undo()
        third = p.record(row(p, item="c"))
    with Profile.open(tmp_path) as p:
        assert [r.item for r in p.reviews()] == ["a", "c"] and list(p.reviews())[-1] == third
        assert set(p.states()) == {"a", "c"}


def test_an_undone_row_alone_in_its_log_file_whose_file_cannot_be_removed_never_comes_back(tmp_path, small_segments,
                                                                                            monkeypatch):
    import pathlib

    with Profile.open(tmp_path) as p:
        rows = [p.record(row(p, item=f"i{k}")) for k in range(4)]  # the fourth alone in 000002.json
        real = pathlib.Path.unlink

        def unlink(self, *a, **k):
            if self.name == "000002.json":
                raise PermissionError(errno.EACCES, "Permission denied", str(self))
            return real(self, *a, **k)

        monkeypatch.setattr(pathlib.Path, "unlink", unlink)
        assert p.undo_last() == rows[-1]
        assert list(p.reviews()) == rows[:3]
    with Profile.open(tmp_path) as p:
        assert list(p.reviews()) == rows[:3]
        new = p.record(row(p, item="x"))
    monkeypatch.undo()
    with Profile.open(tmp_path) as p:
        assert list(p.reviews()) == rows[:3] + [new] and "i3" not in p.states()


def test_undo_of_a_row_alone_in_its_file_after_a_damaged_one_empties_its_file_and_goes_on(tmp_path, small_segments):
    with Profile.open(tmp_path) as p:
        rows = [p.record(row(p, item=f"i{k}")) for k in range(4)]  # the fourth alone in 000002.json
    older = tmp_path / "default" / "reviews" / "000001.json"
    good = older.read_bytes()
    older.write_bytes(good[:40])  # damaged: it cannot become the newest file again
    with Profile.open(tmp_path) as p:
        assert p.undo_last() == rows[-1] and p.last_review() is None
        assert p.undo_last() is None  # nothing more to take back here: no crash, nothing changed
        with pytest.raises(DamagedSave):
            list(p.reviews())
    older.write_bytes(good)  # restored
    with Profile.open(tmp_path) as p:
        assert list(p.reviews()) == rows[:3] and "i3" not in p.states()
        new = p.record(row(p, item="x"))
    with Profile.open(tmp_path) as p:
        assert list(p.reviews()) == rows[:3] + [new]


@pytest.mark.parametrize("at", ["open", "write"])
def test_a_lock_file_that_cannot_be_written_is_named_and_the_lock_not_kept(tmp_path, monkeypatch, at):
    import os

    from engine.storage import lock

    Profile.open(tmp_path).close()
    real = getattr(os, at)

    def refused(*args, **kwargs):
        if at == "write" or str(args[0]).endswith(".lock"):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(*args, **kwargs)

    monkeypatch.setattr(lock.os, at, refused)
    with pytest.raises(SaveFailed) as e:
        Profile.open(tmp_path)
    assert e.value.path == tmp_path / "default.lock" and "the disk is full" in str(e.value)
    monkeypatch.undo()
    with Profile.open(tmp_path) as p:  # no descriptor left holding the lock: opens at once
        assert p.settings()["new_per_day"] == 5


def test_a_review_row_keeps_a_typed_answer_printable():
    from engine.session import stored_text

    assert stored_text("\t 1120 GB\x85\n") == "1120 GB"
    assert stored_text("12\x1b[31m GB") == "12\\x1b[31m GB" and stored_text("12\ud800") == "12\\ud800"
    assert stored_text("1120\u3000GB") == "1120\u3000GB" and stored_text("1120\xa0GB") == "1120\xa0GB"  # spaces stay
    assert row(None, schedule=False, typed="\x1b 3 \x07")["typed"] == "\\x1b 3 \\x07"
