"""`drill export --anki FILE.apkg` (the bank as Anki notes) and `drill export --csv FILE` (the review log).

The .apkg is opened as Anki would: a zip holding an SQLite collection, whose notes, decks and GUIDs are read.
"""

import csv
import html
import json
import os
import sqlite3
import zipfile
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from engine.session import review_row
from engine.status import Status
from engine.storage import Profile
from question_bank import registry
from tests import cli

pytestmark = pytest.mark.functional


def drill(*args):
    return cli.drill(*args, env={k: v for k, v in os.environ.items() if k != "DRILL_SAVES"})


def collection(apkg: Path, tmp_path: Path) -> sqlite3.Connection:
    with zipfile.ZipFile(apkg) as z:
        assert "collection.anki2" in z.namelist()
        z.extract("collection.anki2", tmp_path / apkg.stem)
    return sqlite3.connect(tmp_path / apkg.stem / "collection.anki2")


def notes(db: sqlite3.Connection) -> dict[str, list[str]]:
    return {guid: flds.split("\x1f") for guid, flds in db.execute("select guid, flds from notes")}


def deck_names(db: sqlite3.Connection) -> set[str]:
    return {d["name"] for d in json.loads(db.execute("select decks from col").fetchone()[0]).values()}


def test_one_note_per_problem_one_deck_per_topic_and_stable_guids(tmp_path):
    saves = str(tmp_path / "saves")
    first, again = tmp_path / "a.apkg", tmp_path / "b.apkg"
    r = drill("--saves", saves, "export", "--anki", str(first), "--topic", "serving", "--per-template", "2")
    assert r.returncode == 0, r.stderr
    assert "cannot grade within a tolerance" in r.stdout  # what Anki cannot do is said
    assert drill("--saves", saves, "export", "--anki", str(again), "--topic", "serving",
                 "--per-template", "2").returncode == 0
    db = collection(first, tmp_path)
    serving = [t for t in registry.all_templates() if t.topic == "serving"]
    got = notes(db)
    assert len(got) == 2 * len(serving)
    assert deck_names(db) >= {"infra-drill::Serving"}
    assert not any(n.startswith("infra-drill::") and n != "infra-drill::Serving" for n in deck_names(db))
    # a second export holds the same notes under the same GUIDs: Anki updates them instead of adding copies
    assert set(notes(collection(again, tmp_path))) == set(got)
    fields = {(f[5], f[6]): f for f in got.values()}
    t = serving[0]
    problem = t.generate(1)
    front, answer, solution, _takeaway, source = fields[(f"<span class=meta>{t.id}</span>",
                                                         "<span class=meta>1</span>")][:5]
    assert html.escape(t.title) in front
    assert html.escape(problem.steps[-1].to_dict()["answer"]["display"]) in answer
    assert solution.startswith("<div class=solution>") and len(solution) > 40
    assert source  # the problem's sources, cited


def test_language_and_conventions_are_their_own_notes(tmp_path):
    saves = str(tmp_path / "saves")
    en, zh, eight = (tmp_path / f"{n}.apkg" for n in ("en", "zh", "eight"))
    base = ("--saves", saves, "export", "--topic", "mfu", "--per-template", "1")
    assert drill(*base, "--anki", str(en)).returncode == 0
    r = drill(*base, "--anki", str(zh), "--lang", "zh")
    assert r.returncode == 0 and "Anki 只比较输入的文字" in r.stdout
    assert drill(*base, "--anki", str(eight), "--convention", "flops_per_param_token=8").returncode == 0
    en_notes, zh_notes = notes(collection(en, tmp_path)), notes(collection(zh, tmp_path))
    assert not set(en_notes) & set(zh_notes)
    eight_notes = notes(collection(eight, tmp_path))
    assert not set(en_notes) & set(eight_notes)  # another convention set: other notes (Anki keeps both)
    flops = next(f for f in eight_notes.values() if f[5] == "<span class=meta>mfu.train_flops</span>")
    assert "8" in flops[0] and flops != next(f for f in en_notes.values() if f[5] == flops[5])
    assert "infra-drill::MFU / HFU" in deck_names(collection(zh, tmp_path))
    assert any("的" in f[0] for f in zh_notes.values())  # the problem in Chinese


def test_export_takes_exactly_one_target(tmp_path):
    saves = str(tmp_path / "saves")
    assert drill("--saves", saves, "export").returncode == 2
    r = drill("--saves", saves, "export", "x.json", "--anki", str(tmp_path / "a.apkg"))
    assert r.returncode == 2 and "one of FILE" in r.stderr
    r = drill("--saves", saves, "export", str(tmp_path / "p.json"), "--topic", "mfu")
    assert r.returncode == 2 and "--anki" in r.stderr
    r = drill("--saves", saves, "export", "--anki", str(tmp_path / "a.apkg"), "--topic", "nosuch")
    assert r.returncode == 2 and "roofline" in r.stderr
    assert not (tmp_path / "a.apkg").exists()


def test_csv_holds_every_review_one_row_each(tmp_path):
    saves = tmp_path / "saves"
    day = date(2026, 12, 1)
    with Profile.open(saves, "default") as p:
        for i, item in enumerate(("serving.littles_law", "mfu.train_flops")):
            t = registry.get(item)
            p.record(review_row(item=item, topic=t.topic, seed=i, quality=5, verdict=Status.CORRECT,
                                when=datetime(2026, 12, 1, 12, tzinfo=UTC), today=day, state=p.state(item),
                                schedule=True, typed="26.1, \"quoted\""))
    out = tmp_path / "log.csv"
    r = drill("--saves", str(saves), "export", "--csv", str(out))
    assert r.returncode == 0, r.stderr
    assert "2 reviews" in r.stdout
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert [row["item"] for row in rows] == ["serving.littles_law", "mfu.train_flops"]
    assert rows[0]["typed"] == "26.1, \"quoted\"" and rows[0]["quality"] == "5"
    assert rows[0]["due_after"] > "2026-12-01"


def test_csv_of_a_profile_that_does_not_exist_is_refused(tmp_path):
    Profile.open(tmp_path / "saves", "default").close()
    r = drill("--saves", str(tmp_path / "saves"), "--profile", "nosuch", "export", "--csv", str(tmp_path / "l.csv"))
    assert r.returncode != 0 and "nosuch" in r.stderr
    assert not (tmp_path / "l.csv").exists()
