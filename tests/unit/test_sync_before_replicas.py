"""Histories from before replica ids: a save folder of drill 0.1.0 (no manifest) and an export it wrote (no
replica, rows with plain ids) sync with the copies made since, each review once, however often and in whatever
order the older export is merged."""

import json
from datetime import timedelta

from drill.cli import main
from drill.core.sync import sync_folder
from engine.review import legacy_replica
from engine.storage import Profile
from engine.storage import manifest as mf
from tests.unit.storage_support import DAY, row
from tests.unit.test_sync_folder import history, seen


def replica_of(saves) -> str:
    m = mf.read(saves / "default")
    assert m is not None
    return m.replica


def old_save(saves):
    """A save folder as drill 0.1.0 left it: three answers, and no manifest (no replica id)."""
    with Profile.open(saves) as p:
        history(p, [("x", 5), ("y", 4), ("x", 3)], 0)
    for f in (saves / "default").glob(mf.NAME + "*"):
        f.unlink()
    return saves


def test_a_save_and_an_export_from_before_replica_ids_sync_with_later_copies(tmp_path):
    a = old_save(tmp_path / "a")
    with Profile.open(a, read_only=True) as p:  # what drill export wrote then: the older layout
        doc = p.export()
    assert "replica" not in doc and all("origin" not in r for r in doc["reviews"])
    old = tmp_path / "old.json"
    old.write_text(json.dumps(doc))
    first = legacy_replica(doc["reviews"][0])
    with Profile.open(a) as p:  # the save opened by this drill: a replica id of its own, its rows named as before
        p.record(row(p, item="y", q=5, day=DAY + timedelta(days=8)))
    m = mf.read(a / "default")
    assert m is not None and m.legacy == (first, 3) and len(m.replica) == 16
    b, c, shared = tmp_path / "b", tmp_path / "c", tmp_path / "shared"
    shared.mkdir()
    with Profile.open(b) as p:  # a second machine set up from the older export, answering on
        p.import_document(doc)
        p.record(row(p, item="z", q=4, day=DAY + timedelta(days=9)))
    for saves in (c, c, a):  # the older export merged into a new copy, twice, and into its own save
        assert main(["--saves", str(saves), "import", "--merge", str(old)]) == 0
    folders = {"a": a, "b": b, "c": c}
    for order in ("abc", "cba"):  # every copy, in one order and then the other
        for name in order:
            with Profile.open(folders[name]) as p:
                assert sync_folder(p, shared).report.conflicts == ()
    views = [seen(f) for f in folders.values()]
    assert views[0] == views[1] == views[2]
    assert views[0]["n"] == len(views[0]["reviews"]) == 5  # the three old answers once, and one on each of a, b
    assert {o for (o, _), _c in views[0]["reviews"]} == {first, m.replica, replica_of(b)}
    assert main(["--saves", str(b), "import", "--merge", str(old)]) == 0  # and once more: nothing new
    assert seen(b) == views[1]
