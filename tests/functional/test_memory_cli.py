"""`drill due`, `drill export`, `drill import` end to end, and the saves-folder rules."""

import json
import os
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from drill.core import sessions
from drill.core.paths import saves_dir
from engine.session import review_row
from engine.storage import Profile
from question_bank import drills, registry
from tests import cli
from tests.unit.storage_support import read_tables, write_tables

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.functional


def drill(*args, env=None, input=None):
    e = {k: v for k, v in os.environ.items() if k != "DRILL_SAVES"}
    e.update(env or {})
    return cli.drill(*args, env=e, input=input)


def review(p, item, day, q=4):
    t = registry.get(item)
    when = datetime(day.year, day.month, day.day, 12, tzinfo=UTC)
    return p.record(review_row(item=item, topic=t.topic, seed=1, quality=q, verdict="correct" if q >= 4 else "wrong",
                               when=when, today=day, state=p.state(item), schedule=True))


def test_saves_dir_rules(monkeypatch, tmp_path):
    monkeypatch.setenv("DRILL_SAVES", str(tmp_path / "env"))
    assert saves_dir(str(tmp_path / "cli")) == tmp_path / "cli"
    assert saves_dir(None) == tmp_path / "env"
    monkeypatch.delenv("DRILL_SAVES")
    assert saves_dir(None) == ROOT / "saves"  # run from the checkout (an editable install): its saves/
    monkeypatch.setattr("drill.core.paths.checkout_saves", lambda: None)  # an installed drill: the user's folder
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert saves_dir(None) == tmp_path / "xdg" / "infra-drill"


def test_due_lists_overdue_items_first_and_the_new_items_of_the_day(tmp_path):
    today = date.today()
    bank = [t.id for t in registry.all_templates()]
    with Profile.open(tmp_path, "ann") as p:
        review(p, bank[0], today - timedelta(days=4))  # due 3 days ago (interval 1)
        review(p, bank[1], today - timedelta(days=1))  # due today
        review(p, bank[2], today)  # introduced today, due tomorrow
        p.set_setting("new_per_day", 3)
    r = drill("--saves", str(tmp_path), "--profile", "ann", "due", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert [(d["item"], d["overdue_days"]) for d in out["due"]] == [(bank[0], 3), (bank[1], 0)]
    assert out["due"][0]["title"] == registry.get(bank[0]).title
    # breadth-first: the next topics' first templates, not more roofline
    first = {}
    for t in registry.all_templates():
        if not t.is_chain:
            first.setdefault(t.topic, t.id)
    assert out["new_available"] == 2 and [n["item"] for n in out["new"]] == [first["memory"], first["communication"]]
    assert out["profile"] == "ann" and out["date"] == today.isoformat()
    text = drill("--saves", str(tmp_path), "--profile", "ann", "due")
    assert text.returncode == 0
    assert "3 days overdue" in text.stdout and "due today" in text.stdout
    assert "New items available today: 2 (limit 3 a day)" in text.stdout


def test_due_uses_drill_saves_from_the_environment(tmp_path):
    with Profile.open(tmp_path) as p:
        review(p, registry.all_templates()[0].id, date.today())
    r = drill("due", "--json", env={"DRILL_SAVES": str(tmp_path)})
    out = json.loads(r.stdout)
    assert out["due"] == [] and out["next_due"] == (date.today() + timedelta(days=1)).isoformat()


def test_export_then_import_round_trips(tmp_path):
    today = date.today()
    bank = [t.id for t in registry.all_templates()]
    with Profile.open(tmp_path, "ann") as p:
        for i, item in enumerate(bank[:4]):
            review(p, item, today - timedelta(days=i), q=3 + i % 3)
        p.add_mock({"ts": "2026-11-29T12:00:00Z", "questions": [], "score": {"correct": 0}})
        original = p.export()
    out = tmp_path / "ann.json"
    r = drill("--saves", str(tmp_path), "--profile", "ann", "export", str(out))
    assert r.returncode == 0, r.stderr
    assert "4 items, 4 reviews, 1 mock interview" in r.stdout
    r = drill("--saves", str(tmp_path), "--profile", "bob", "import", str(out))
    assert r.returncode == 0, r.stderr
    with Profile.open(tmp_path, "bob") as p:  # bob is another replica: ann's rows keep their origin
        ann = original["replica"]
        assert p.export() == {**original, "profile": "bob", "replica": p.replica,
                              "reviews": [{**r, "origin": {"replica": ann, "id": r["id"]}}
                                          for r in original["reviews"]]}
    # a profile with a history is only replaced on request
    r = drill("--saves", str(tmp_path), "--profile", "bob", "import", str(out))
    assert r.returncode == 1 and "already holds a history" in r.stderr and "--replace" in r.stderr
    assert drill("--saves", str(tmp_path), "--profile", "bob", "import", "--replace", str(out)).returncode == 0
    r = drill("--saves", str(tmp_path), "--profile", "ann", "export", "-")
    assert json.loads(r.stdout) == original


def test_import_of_an_invalid_document_changes_nothing(tmp_path):
    with Profile.open(tmp_path) as p:
        review(p, registry.all_templates()[0].id, date.today())
        doc = p.export()
    before = {f: f.read_bytes() for f in (tmp_path / "default").rglob("*") if f.is_file()}
    doc["reviews"][0]["verdict"] = "great"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    r = drill("--saves", str(tmp_path), "import", "--replace", str(bad))
    assert r.returncode == 1
    assert "reviews[0]: verdict must be one of" in r.stderr and "nothing was imported" in r.stderr
    bad.write_text("{not json")
    r = drill("--saves", str(tmp_path), "import", "--replace", str(bad))
    assert r.returncode == 1 and "is not valid JSON" in r.stderr
    assert {f: f.read_bytes() for f in (tmp_path / "default").rglob("*") if f.is_file()} == before


def test_a_damaged_save_file_stops_the_command_without_touching_it(tmp_path):
    for t in registry.all_templates()[:2]:  # two sessions: the state file was written twice
        with Profile.open(tmp_path) as p:
            review(p, t.id, date.today())
    state = tmp_path / "default" / "state.json"
    state.write_bytes(b'{"meta": {"1": {"sch')
    for args in (("due",), ("export", str(tmp_path / "x.json"))):
        r = drill("--saves", str(tmp_path), *args)
        assert r.returncode == 1
        assert f"save file {state} is damaged" in r.stderr
        assert f"cp {state}.bak {state}" in r.stderr
        assert state.read_bytes() == b'{"meta": {"1": {"sch'
    assert not (tmp_path / "x.json").exists()
    os.replace(f"{state}.bak", state)  # the restore the message describes
    assert drill("--saves", str(tmp_path), "due").returncode == 0


def test_due_can_change_the_daily_new_item_limit(tmp_path):
    r = drill("--saves", str(tmp_path), "due", "--json", "--new-per-day", "2")
    assert json.loads(r.stdout)["new_available"] == 2
    assert json.loads(drill("--saves", str(tmp_path), "due", "--json").stdout)["new_per_day"] == 2
    r = drill("--saves", str(tmp_path), "due", "--new-per-day", "-1")
    assert r.returncode == 2 and "--new-per-day: must be a whole number 0-100" in r.stderr


def test_a_bad_profile_name_is_refused(tmp_path):
    r = drill("--saves", str(tmp_path), "--profile", "../x", "due")
    assert r.returncode == 1 and "profile name" in r.stderr


def test_a_save_from_a_newer_drill_says_upgrade_and_is_left_alone(tmp_path):
    with Profile.open(tmp_path) as p:
        review(p, "roofline.ridge_point", date.today())
    state = tmp_path / "default" / "state.json"
    tables = read_tables(state)
    tables["meta"]["1"]["schema"] = 9
    write_tables(state, tables)
    before = {f: f.read_bytes() for f in (tmp_path / "default").rglob("*") if f.is_file()}
    for command in (("due",), ("check", "roofline.ridge_point", "--seed", "1", "9.5", "--record"),
                    ("export", str(tmp_path / "out.json"))):
        r = drill("--saves", str(tmp_path), *command)
        assert r.returncode == 1 and "Traceback" not in r.stderr
        assert f"drill: save file {state} was written by a newer version of infra-drill" in r.stderr
        assert "upgrade infra-drill" in r.stderr and ".bak" not in r.stderr
    assert {f: f.read_bytes() for f in (tmp_path / "default").rglob("*") if f.is_file()} == before
    assert not (tmp_path / "out.json").exists()


def test_check_record_schedules_the_template_and_refuses_unreadable_answers(tmp_path):
    t = next(t for t in registry.all_templates() if not t.is_chain and t.answer_kind == "number")
    right = t.generate(11).steps[0].expected.display
    r = drill("--saves", str(tmp_path), "check", t.id, "--seed", "11", right, "--record")
    assert r.returncode == 0, r.stderr
    assert f"Recorded as review 1 of {t.id}" in r.stdout
    r = drill("--saves", str(tmp_path), "check", t.id, "--seed", "11", "banana", "--record")
    assert r.returncode == 1 and "not recorded: the answer could not be read" in r.stderr
    r = drill("--saves", str(tmp_path), "check", t.id, "--seed", "12", "1e30", "--record", "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["status"] == "wrong"  # stdout stays pure JSON
    assert "Recorded as review 2" in r.stderr
    with Profile.open(tmp_path) as p:
        rows = list(p.reviews())
        assert [(x.mode, x.scheduled, x.seed, x.verdict) for x in rows] == [
            ("paper", True, 11, "correct"), ("paper", True, 12, "wrong")]
        assert rows[0].typed == right and rows[0].value == pytest.approx(t.generate(11).steps[0].value, rel=0.01)  # as typed
        assert rows[1].before == rows[0].after
        assert p.states()[t.id].reps == 0  # the wrong answer reset it


def test_a_paper_answer_has_no_time_and_stays_out_of_the_time_figures(tmp_path):
    t = next(t for t in registry.all_templates() if not t.is_chain and t.answer_kind == "number")
    with Profile.open(tmp_path) as p:  # one answer timed in the app: 40 s
        p.record(review_row(item=t.id, topic=t.topic, seed=2, quality=5, verdict="correct",
                            when=datetime.now(UTC), today=date.today(), state=None, schedule=False,
                            mode="extra", seconds=40))
    for seed in (3, 4):
        r = drill("--saves", str(tmp_path), "check", t.id, "--seed", str(seed),
                  t.generate(seed).steps[0].expected.display, "--record")
        assert r.returncode == 0, r.stderr
    with Profile.open(tmp_path) as p:
        assert [(r.mode, r.seconds) for r in p.reviews()] == [("extra", 40), ("paper", None), ("paper", None)]
    d = json.loads(drill("--saves", str(tmp_path), "stats", "--json").stdout)
    assert d["reviews"] == 3 and d["seconds"] == 40  # two reviews more, no 0-second answers
    assert d["topics"][t.topic]["median_seconds"] == 40


def test_check_record_of_a_chain_step_leaves_the_schedule(tmp_path):
    t = registry.get("memory.activation_chain")
    first = t.generate(5).steps[0].expected.display
    r = drill("--saves", str(tmp_path), "check", t.id, "--seed", "5", first, "--step", "1", "--record")
    assert r.returncode == 0, r.stderr
    assert f"Recorded step 1 of 5 of {t.id} (seed 5) as review 1." in r.stdout
    assert f"to record steps 2, 3, 4 and 5 (drill check {t.id} --seed 5 --step K ANSWER --record)" in r.stdout
    with Profile.open(tmp_path) as p:
        (row,) = p.reviews()
        assert (row.step, row.scheduled, row.mode) == (1, False, "paper") and p.states() == {}


def _record_step(saves, t, seed, k, answer):
    r = drill("--saves", str(saves), "check", t.id, "--seed", str(seed), "--step", str(k), answer, "--record")
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_check_record_of_every_step_of_a_chain_reschedules_it_once_with_the_weakest_step(tmp_path):
    t = registry.get("roofline.chain_interview")
    p = t.generate(7)
    right = [s.expected.display for s in p.steps]
    assert p.steps[1].expected.kind == "number"
    wrong2 = "1e30"
    out = _record_step(tmp_path, t, 7, 3, right[2])  # any order
    assert "to record steps 1, 2 and 4" in out
    _record_step(tmp_path, t, 7, 2, right[1])
    out = _record_step(tmp_path, t, 7, 2, wrong2)  # done again: the latest answer of a step counts
    assert "to record steps 1 and 4" in out
    out = _record_step(tmp_path, t, 7, 4, right[3])
    assert "to record step 1 (" in out
    _record_step(tmp_path, t, 9, 1, t.generate(9).steps[0].expected.display)
    with Profile.open(tmp_path) as prof:
        assert prof.states() == {}  # another seed's step does not complete this chain
    out = _record_step(tmp_path, t, 7, 1, right[0])
    assert "Every step recorded: the chain is reviewed as a whole with quality" in out
    with Profile.open(tmp_path) as prof:
        rows = list(prof.reviews())
        steps, whole = rows[:-1], rows[-1]
        assert all(r.mode == "paper" and not r.scheduled and r.after is None for r in steps)
        assert [(r.seed, r.step) for r in steps] == [(7, 3), (7, 2), (7, 2), (7, 4), (9, 1), (7, 1)]
        assert (whole.step, whole.seed, whole.mode, whole.scheduled, whole.typed) == (
            None, 7, "paper", True, "")
        latest = [steps[0], steps[2], steps[3], steps[5]]  # steps 3, 2 (again), 4, 1 of seed 7
        assert whole.verdict == "wrong" and steps[2].quality <= 2 < steps[1].quality  # step 2 again
        # one slip (step 2) among right steps: a pass with quality 3, and step 2's template alone tomorrow
        assert whole.quality == sessions.chain_quality([r.quality for r in latest]) == 3
        assert prof.states()[t.id].reps == 1 and prof.state(t.id).due is not None
        single = drills.step_templates(t.id)[1]
        assert single is None or single in prof.settings()["step_drills"]
    # a new attempt at the same chain starts over: one step does not reschedule it again
    out = _record_step(tmp_path, t, 7, 1, right[0])
    assert "to record steps 2, 3 and 4" in out
    with Profile.open(tmp_path) as prof:
        assert sum(r.scheduled for r in prof.reviews()) == 1


def test_every_command_follows_lang_then_the_profiles_language(tmp_path):
    with Profile.open(tmp_path, "zh") as p:
        p.set_setting("lang", "zh")
    t = registry.all_templates()[0]
    base = ("--saves", str(tmp_path), "--profile", "zh")
    due = drill(*base, "due").stdout
    assert "今天到期" in due and "今天可学的新题" in due and "Due today" not in due
    ask = drill(*base, "ask", t.id, "--seed", "1").stdout
    assert t.title_zh in ask or "答案" in ask
    answer = t.generate(1).steps[0].expected.display
    check = drill(*base, "check", t.id, "--seed", "1", answer, "--record")
    assert check.returncode == 0, check.stderr
    assert "解答" in check.stdout and "已记为" in check.stdout and "Recorded" not in check.stdout
    assert "今天到期" not in drill(*base, "--lang", "en", "due").stdout  # --lang wins
    assert "Due today" in drill(*base, "due", "--lang", "en").stdout
    assert "距面试" in drill(*base, "plan", "--interview", (date.today() + timedelta(days=5)).isoformat()).stdout


def everything_in(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


@pytest.mark.parametrize("content", [
    '{"format": "infra-drill-profile", "schema": 1, "settings": 3}',  # refused by its checks
    '{not json',
    '{"format": "infra-drill-profile", "reviews": [' + "[" * 100 + "]" * 100 + "]}",  # nested too deep
])
def test_a_failed_import_into_a_new_profile_leaves_no_folder_behind(tmp_path, content):
    saves, source = tmp_path / "saves", tmp_path / "doc.json"
    saves.mkdir()
    source.write_text(content)
    r = drill("--saves", str(saves), "--profile", "imp2", "import", str(source))
    assert r.returncode == 1 and ("nothing was imported" in r.stderr or "not valid JSON" in r.stderr), r.stderr
    assert everything_in(saves) == []  # no imp2/, imp2.lock, imp2.snapshots/
    r = drill("--saves", str(tmp_path / "new" / "deeper"), "import", str(source))
    assert r.returncode == 1
    assert everything_in(tmp_path) == ["doc.json", "saves"]  # nor the saves folder it would have made


def test_a_failed_import_into_a_new_profile_on_a_full_disk_leaves_no_folder_behind(tmp_path, monkeypatch):
    from tests.unit.test_storage_faults import refuse_writes

    with Profile.open(tmp_path / "a") as p:
        review(p, registry.all_templates()[0].id, date.today())
    assert drill("--saves", str(tmp_path / "a"), "export", str(tmp_path / "doc.json")).returncode == 0
    (tmp_path / "b").mkdir()
    refuse_writes(monkeypatch)
    r = drill("--saves", str(tmp_path / "b"), "--profile", "imp2", "import", str(tmp_path / "doc.json"))
    assert r.returncode == 1 and "Nothing was imported" in r.stderr and "the disk is full" in r.stderr
    monkeypatch.undo()
    assert everything_in(tmp_path / "b") == []
    r = drill("--saves", str(tmp_path / "b"), "--profile", "imp2", "import", str(tmp_path / "doc.json"))
    assert r.returncode == 0, r.stderr  # and the next try makes it
    assert {"imp2", "imp2.lock"} <= set(everything_in(tmp_path / "b"))


def test_a_failed_import_into_an_existing_empty_profile_keeps_it(tmp_path):
    source = tmp_path / "doc.json"
    source.write_text("{not json")
    Profile.open(tmp_path, "ann").close()
    before = everything_in(tmp_path)
    assert drill("--saves", str(tmp_path), "--profile", "ann", "import", str(source)).returncode == 1
    assert everything_in(tmp_path) == before
