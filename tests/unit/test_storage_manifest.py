"""The manifest: a profile lists its parts, and a part deleted, cut short, swapped or copied is named with the
review ids it should hold; nothing is written to the profile until ``drill doctor --repair`` rebuilds the part,
keeping the newest review.  The profile is the one of the attack: 605 imported reviews in log files of 250, 250
and 105 rows."""

import shutil
from datetime import UTC, datetime, timedelta

import pytest

from engine.review import legacy_replica
from engine.session import review_row
from engine.storage import DamagedSave, Profile
from engine.storage import manifest as mf
from engine.storage.doctor import FindingKind, examine, repair
from engine.storage.errors import ProfileIncomplete
from tests.unit.storage_support import files, read_tables, row, write_tables

NOW = datetime(2026, 12, 7, 12, tzinfo=UTC)
ALL = 605


def export_doc(n: int) -> dict:
    rows = []
    for i in range(1, n + 1):
        when = datetime(2026, 11, 1, 12, tzinfo=UTC) + timedelta(minutes=i)
        r = review_row(item=f"t{i % 7}", topic="roofline", seed=i, quality=4, verdict="correct", when=when,
                       today=when.date(), state=None, schedule=False, mode="practice").to_dict()
        rows.append({"id": i, **r})
    mocks = [{"id": k, "ts": "2026-11-30T12:00:00Z", "seed": k, "settings": {}, "questions": [], "score": {},
              "seconds_used": 0} for k in (1, 2)]
    return {"format": "infra-drill-profile", "schema": 1, "profile": "default", "settings": {"new_per_day": 4},
            "states": {}, "reviews": rows, "mocks": mocks}


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    root = tmp_path_factory.mktemp("imported")
    with Profile.open(root) as p:
        assert p.import_document(export_doc(ALL), now=NOW)["reviews"] == ALL
        p.snapshot(NOW.date())  # as every writing command takes the day's (the state's settings have no other copy)
    return root


@pytest.fixture
def saves(imported, tmp_path):
    shutil.copytree(imported, tmp_path / "s")
    return tmp_path / "s"


def again(r) -> dict:
    """Review row ``r`` as a new answer (no id yet)."""
    return {k: v for k, v in r.to_dict().items() if k != "id"}


def seg(n: int) -> str:
    return f"reviews/{n:06d}.json"


def jour(n: int) -> str:
    return f"reviews/{n:06d}.journal"


SPANS = {1: (1, 250), 2: (251, 500), 3: (501, 605)}


def shorten(path, keep: int) -> None:
    """A whole log file (its checksum right) that holds only its first ``keep`` rows: cut short."""
    tables = read_tables(path)
    tables["reviews"] = dict(list(tables["reviews"].items())[:keep])
    write_tables(path, tables)


def delete(folder, part):
    (folder / part).unlink()


def truncate(folder, part):
    path = folder / part
    if part.endswith(".json") and part.startswith("reviews/"):
        shorten(path, 40)
    else:
        path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def swap(folder, part):
    other = OTHER[part]
    a, b = folder / part, folder / other
    tmp = a.with_name("swap.tmp")
    a.rename(tmp)
    b.rename(a)
    tmp.rename(b)


def duplicate(folder, part):
    target = folder / (seg(4) if part.startswith("reviews/") and part.endswith(".json") else OTHER[part])
    shutil.copyfile(folder / part, target)


OTHER = {seg(1): seg(2), seg(2): seg(3), seg(3): seg(1), jour(1): jour(2), jour(2): jour(3), jour(3): jour(1),
         "state.json": "mocks.json", "mocks.json": "state.json", "mocks.journal": jour(1)}
PARTS = [seg(1), seg(2), seg(3), jour(1), jour(2), jour(3), "state.json", "mocks.json", "mocks.journal"]


def test_an_import_lists_every_part_with_its_rows_ids_and_checksum(imported):
    m = mf.read(imported / "default")
    assert m is not None and len(m.replica) == 16 and m.next_id == ALL + 1
    old = legacy_replica(export_doc(1)["reviews"][0])  # (an export from before replica ids: its rows' own id)
    for n, (a, b) in SPANS.items():
        entry = m.parts[seg(n)]
        assert entry["rows"] == b - a + 1 and entry["ids"] == {m.replica: [a, b], old: [a, b]}
        assert entry["sum"] == mf.file_sum(imported / "default" / seg(n))
        assert jour(n) in m.parts
    assert "state.json" in m.parts and m.parts["mocks.json"] == m.parts["mocks.journal"] == {"rows": 2}


def test_deleting_the_last_log_file_is_refused_and_repaired_keeping_every_review(saves):
    """The issue's attack: opening rebuilt from the shorter log, and the next record wiped 105 rows."""
    folder = saves / "default"
    delete(folder, seg(3))
    before = files(folder)
    for read_only in (False, True):
        with pytest.raises(ProfileIncomplete) as e:
            Profile.open(saves, read_only=read_only)
        assert "reviews/000003.json is missing (it held reviews 501-605)" in e.value.text("en")
        assert "reviews/000003.json 不见了（其中原有复习记录 501-605）" in e.value.text("zh")
        assert "drill doctor --repair" in e.value.text("en") and e.value.path == folder / seg(3)
    assert files(folder) == before  # the journal that still holds the 105 rows is untouched
    report = examine(folder)
    assert [(f.path.name, f.kind, f.ids) for f in report.damaged] == [("000003.json", FindingKind.MISSING,
                                                                       (501, 605))]
    repair(report)
    with Profile.open(saves) as p:
        assert [r.id for r in p.reviews()] == list(range(1, ALL + 1))
        assert p.record(again(list(p.reviews())[-1])).id == ALL + 1


def refused_then_repaired(saves, part, attack):
    folder = saves / "default"
    attack(folder, part)
    before = files(folder)
    with pytest.raises(DamagedSave) as e:  # (ProfileIncomplete, or a file said as damaged)
        Profile.open(saves)
    said = e.value.text("en")
    named = {part, OTHER[part], seg(4)}
    assert any(name in said or str(folder / name) in said for name in named), said
    if isinstance(e.value, ProfileIncomplete) and part.startswith("reviews/") and attack is not duplicate:
        n = int(part[8:14])
        assert f"{SPANS[n][0]}-{SPANS[n][1]}" in said  # the ids it should hold
    assert files(folder) == before  # nothing written
    repair(examine(folder))
    with Profile.open(saves) as p:
        assert [r.id for r in p.reviews()] == list(range(1, ALL + 1))  # every row back, the newest too
        assert len(p.mocks()) == 2 and p.settings()["new_per_day"] == 4
    assert not examine(folder).damaged


# one attack on each kind of part here; every attack on every part in make test-deep
SAMPLE = [(seg(2), delete), (seg(1), truncate), (jour(3), swap), (seg(3), duplicate), ("state.json", delete),
          ("mocks.journal", truncate)]


@pytest.mark.parametrize(("part", "attack"), SAMPLE, ids=lambda v: getattr(v, "__name__", v))
def test_a_part_deleted_cut_short_swapped_or_copied_is_refused_then_repaired(saves, part, attack):
    refused_then_repaired(saves, part, attack)


@pytest.mark.deep
@pytest.mark.parametrize("attack", [delete, truncate, swap, duplicate], ids=lambda f: f.__name__)
@pytest.mark.parametrize("part", PARTS)
def test_each_part_deleted_cut_short_swapped_or_copied_is_refused_then_repaired(saves, part, attack):
    refused_then_repaired(saves, part, attack)


def test_a_profile_from_before_manifests_opens_and_gets_one(imported, tmp_path):
    shutil.copytree(imported, tmp_path / "s")
    folder = tmp_path / "s" / "default"
    kept = mf.read(folder)
    (folder / mf.NAME).unlink()
    with Profile.open(tmp_path / "s", read_only=True) as p:  # a reader writes nothing
        assert len(list(p.reviews())) == ALL
    assert not (folder / mf.NAME).exists()
    with Profile.open(tmp_path / "s"):
        pass
    m = mf.read(folder)
    assert m is not None and kept is not None and m.tables()["parts"] == mf.Manifest(
        m.replica, kept.next_id, {f: {**e, "ids": {m.replica if r == kept.replica else r: span
                                                   for r, span in e["ids"].items()}} if "ids" in e else e
                                  for f, e in kept.parts.items()}).tables()["parts"]


@pytest.mark.parametrize("n", [1, 3])
def test_a_profile_from_before_manifests_missing_a_log_file_is_refused_by_the_numbers_and_the_counter(imported,
                                                                                                   tmp_path, n):
    shutil.copytree(imported, tmp_path / "s")
    folder = tmp_path / "s" / "default"
    (folder / mf.NAME).unlink()
    delete(folder, seg(n))
    a, b = SPANS[n]
    with pytest.raises(ProfileIncomplete, match=rf"reviews/00000{n}\.json is missing \(it held reviews {a}-{b}\)"):
        Profile.open(tmp_path / "s")
    assert not (folder / mf.NAME).exists()
    repair(examine(folder))
    with Profile.open(tmp_path / "s") as p:
        assert len(list(p.reviews())) == ALL


def test_recording_keeps_the_manifest_level_and_undo_and_a_new_log_file_follow(tmp_path, small_segments):
    with Profile.open(tmp_path) as p:
        for _ in range(4):  # into a second log file (of 3 rows here)
            p.record(row(p))
        m = mf.read(tmp_path / "default")
        assert m is not None and (m.ids(1), m.ids(2), m.next_id) == ((1, 3), (4, 4), 5)
        p.undo_last()  # the second file goes
        p.add_mock({"ts": "2026-11-30T12:00:00Z", "questions": [], "score": {}})
    m = mf.read(tmp_path / "default")
    assert m is not None and m.segments() == [1] and m.parts["mocks.json"] == {"rows": 1}
    assert "state.json" in m.parts and mf.survey(tmp_path / "default", m, None, None) == []


def newest_entry(folder) -> tuple[int, list[int]]:
    """The newest log file's row count and id range as the manifest reads them, and as the file holds them."""
    m = mf.read(folder)
    assert m is not None
    n = m.segments()[-1]
    held = sorted(int(k) for k in read_tables(folder / seg(n))["reviews"])
    entry = m.parts[seg(n)]
    assert (entry["rows"], entry["ids"][m.replica]) == (len(held), [held[0], held[-1]])
    return entry["rows"], entry["ids"][m.replica]


def test_the_newest_log_files_entry_follows_every_record_regrade_and_undo(saves):
    """Written at every answer, re-grade and undo (manifest.NEWEST), while the manifest itself, whose size grows
    with the history, stays as it was."""
    folder = saves / "default"
    listed = (folder / mf.NAME).read_bytes()
    with Profile.open(saves) as p:
        last = p.record(again(p.last_review()))
        assert newest_entry(folder) == (106, [501, 606])
        with p.rewriting():  # a re-grade: the newest row taken back and recorded again
            p.undo_last()
            p.record({**again(last), "quality": 1, "verdict": "wrong"})
        assert newest_entry(folder) == (106, [501, 606])
        assert read_tables(folder / seg(3))["reviews"]["606"]["quality"] == 1
        p.undo_last()
        assert newest_entry(folder) == (105, [501, 605])
        assert (folder / mf.NAME).read_bytes() == listed
    assert mf.survey(folder, mf.read(folder), None, None) == []


def test_a_damaged_newest_entry_is_passed_over_named_by_the_doctor_and_written_again(saves):
    folder = saves / "default"
    (folder / mf.NEWEST).write_bytes(b"{not json")
    with Profile.open(saves, read_only=True) as p:  # the manifest and the journals vouch without it
        assert len(list(p.reviews())) == ALL
    report = examine(folder)
    assert [(f.path.name, f.kind) for f in report.damaged] == [(mf.NEWEST, FindingKind.DAMAGED)]
    repair(report)
    assert examine(folder).damaged == [] and newest_entry(folder) == (105, [501, 605])
