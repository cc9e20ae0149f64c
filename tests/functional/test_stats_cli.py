"""`drill stats --json` and the piped text summary, end to end, from a hand-built history."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from drill.core.stats import SORT_COLUMNS
from engine.session import review_row
from engine.sm2 import ItemState
from engine.stats import TOPIC_SORTS
from engine.storage import EXPORT_FORMAT, SCHEMA_VERSION, Profile
from question_bank import registry
from question_bank.topics import TOPICS
from tests import cli
from tests.cli import drill_process

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.functional


def drill(*args, env=None):
    e = {k: v for k, v in os.environ.items() if k != "DRILL_SAVES"}
    e.update(env or {})
    return cli.drill(*args, env=e)


def ids(topic: str) -> list[str]:
    return [t.id for t in registry.all_templates() if t.topic == topic]


def row(item: str, day: date, q: int, *, state: ItemState | None = None, schedule: bool = True,
        mode: str = "practice", seconds: float = 30.0) -> dict:
    when = datetime(day.year, day.month, day.day, 12, tzinfo=UTC)
    return review_row(item=item, topic=registry.get(item).topic, seed=day.toordinal(), quality=q,
                      verdict="correct" if q >= 4 else "close" if q == 3 else "wrong", when=when, today=day,
                      state=state, schedule=schedule, mode=mode, typed="1", value=1.0, seconds=seconds).to_dict()


@pytest.fixture
def known(tmp_path):
    """A profile whose figures are known: see the comments."""
    t = date.today()
    r0, r1, r2 = ids("roofline")[:3]
    i0 = ids("inference")[0]
    rows = [
        row(r0, t - timedelta(days=3), 4),  # new item, passed
        row(r1, t - timedelta(days=1), 2, state=ItemState(2.5, 25, 3, t - timedelta(days=1), t - timedelta(days=26))),
        row(r1, t - timedelta(days=1), 5, schedule=False, mode="extra"),  # not a retention review
        row(r2, t, 5, state=ItemState(2.5, 40, 5, t, t - timedelta(days=40))),  # mature, passed
        row(i0, t, 3, schedule=False, mode="mock"),
    ]
    states = {
        r0: ItemState(2.5, 1, 1, t - timedelta(days=2), t - timedelta(days=3)),  # overdue: counts today
        r1: ItemState(2.18, 1, 0, t, t - timedelta(days=1)),  # lapsed, due today
        r2: ItemState(2.6, 100, 6, t + timedelta(days=5), t),
    }
    with Profile.open(tmp_path) as p:
        p.import_document({"format": EXPORT_FORMAT, "schema": SCHEMA_VERSION, "settings": {},
                           "states": {k: v.to_dict() for k, v in states.items()},
                           "reviews": [{"id": k + 1, **r} for k, r in enumerate(rows)], "mocks": []})
    return tmp_path


def test_json_figures_from_a_known_history(known):
    r = drill("--saves", str(known), "stats", "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["today"] == date.today().isoformat()
    assert (d["reviews"], d["reviews_today"], d["days_studied"]) == (5, 2, 3)
    assert (d["streak"], d["longest_streak"]) == (2, 2)  # the day before yesterday was missed
    assert d["retention_30d"] == pytest.approx(0.5) and d["retention_reviews_30d"] == 2
    assert d["accuracy_30d"] == pytest.approx(0.8)
    assert (d["due_today"], d["overdue"]) == (2, 1)
    assert len(d["forecast"]) == 30 and d["forecast"][5] == 1 and sum(d["forecast"]) == 3
    assert d["seconds"] == pytest.approx(150)
    assert list(d["topics"]) == list(TOPICS)
    roof, inf, mem = d["topics"]["roofline"], d["topics"]["inference"], d["topics"]["memory"]
    assert (roof["learned"], roof["total"], roof["reviews"]) == (2, len(ids("roofline")), 4)
    assert roof["accuracy_30d"] == pytest.approx(0.75) and roof["mean_ef"] == pytest.approx((2.5 + 2.18 + 2.6) / 3)
    assert roof["weakest"] == [ids("roofline")[1]]
    assert inf["accuracy_30d"] == pytest.approx(1.0) and inf["learned"] == 0
    assert (mem["reviews"], mem["accuracy_30d"], mem["mean_ef"], mem["median_seconds"]) == (0, None, None, None)
    assert d["mocks"] == []


def test_piped_summary_reads_as_text(known):
    r = drill("--saves", str(known), "stats")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "\x1b[" not in out  # no terminal codes when piped
    assert "Streak                2 d (longest 2 d)" in out
    assert "a day counts when at least one review was done that day" in out
    assert "50 % of 2 first reviews of mature items passed" in out
    assert "0 today" not in out and "2 today (1 overdue)" in out
    assert "No mock interview yet" in out
    lines = out.splitlines()
    topic_lines = [line for line in lines if line.startswith(("Roofline", "Inference", "Training memory"))]
    assert [line.split()[0] for line in topic_lines] == ["Roofline", "Training", "Inference"]
    weak = registry.get(ids("roofline")[1])  # the weakest by title, cut to fit
    assert weak.title == "Intensity of a square GEMM (formula given)"
    assert topic_lines[0].endswith("  Intensity of a square GEMM…") and weak.id not in out

    by_acc = drill("--saves", str(known), "stats", "--sort", "accuracy").stdout.splitlines()
    order = [line.split()[0] for line in by_acc if line.startswith(("Roofline", "Inference", "Training memory"))]
    assert order == ["Roofline", "Inference", "Training"]  # 75 %, 100 %, then topics without answers
    zh = drill("--saves", str(known), "--lang", "zh", "stats").stdout
    assert "连续天数" in zh and "当天至少答过一道题才算一天" in zh
    assert next(line for line in zh.splitlines() if line.startswith("Roofline")).endswith("  方阵 GEMM 的算术强度（给出…")


def test_empty_profile_json_and_text(tmp_path):
    r = drill("--saves", str(tmp_path), "stats", "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert (d["reviews"], d["streak"], d["retention_30d"], d["due_today"]) == (0, 0, None, 0)
    assert d["forecast"] == [0] * 30 and d["mocks"] == []
    text = drill("--saves", str(tmp_path), "stats").stdout
    assert "No reviews yet" in text


def test_readers_work_while_another_process_holds_the_writer_lock(tmp_path):
    """drill stats, due and export read the last durable state; only writers (import) are refused."""
    item = ids("roofline")[0]
    today = date.today()
    drill = drill_process  # the lock is another process's: a real process (a lock does not stop its own holder)
    with Profile.open(tmp_path) as writer:  # this process is the writer, as the open app would be
        writer.record(row(item, today, 4))  # durable, not yet in the state file (it is written every 25 rows)
        r = drill("--saves", str(tmp_path), "stats", "--json", env={"DRILL_LOCK_WAIT": "0"})
        assert r.returncode == 0, r.stderr
        assert json.loads(r.stdout)["reviews"] == 1
        r = drill("--saves", str(tmp_path), "due", "--json", env={"DRILL_LOCK_WAIT": "0"})
        assert r.returncode == 0, r.stderr
        assert item not in [n["item"] for n in json.loads(r.stdout)["new"]]  # it is scheduled now
        r = drill("--saves", str(tmp_path), "export", "-", env={"DRILL_LOCK_WAIT": "0"})
        assert r.returncode == 0, r.stderr
        assert [x["item"] for x in json.loads(r.stdout)["reviews"]] == [item]
        (tmp_path / "doc.json").write_text(r.stdout, encoding="utf-8")
        r = drill("--saves", str(tmp_path), "import", "--replace", str(tmp_path / "doc.json"),
                  env={"DRILL_LOCK_WAIT": "0"})
        assert r.returncode == 1 and "in use" in r.stderr and "Traceback" not in r.stderr
        writer.record(row(item, today, 5, state=writer.state(item)))  # the writer goes on as before
    r = drill("--saves", str(tmp_path), "stats", "--json")
    assert json.loads(r.stdout)["reviews"] == 2


def test_bad_sort_is_a_usage_error(tmp_path):
    r = drill("--saves", str(tmp_path), "stats", "--sort", "colour")
    assert r.returncode == 2 and "invalid choice" in r.stderr


def test_cli_sort_columns_are_the_engines():
    assert SORT_COLUMNS == TOPIC_SORTS


def test_json_and_text_never_load_textual_and_the_app_loads_plotext_only_for_stats(tmp_path):
    code = (
        "import sys, io, contextlib\n"
        "from drill.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    main(['--saves', {str(tmp_path)!r}, 'stats', '--json'])\n"
        f"    main(['--saves', {str(tmp_path)!r}, 'stats'])\n"
        "seen = lambda *names: sorted({m.split('.')[0] for m in sys.modules} & set(names))\n"
        "print(seen('textual', 'textual_plotext', 'plotext'))\n"
        "import drill.app, drill.screens.home\n"
        "print(seen('textual_plotext', 'plotext'))\n"
        "import drill.screens.stats\n"
        "print(seen('textual_plotext'))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["[]", "[]", "['textual_plotext']"]


def test_a_damaged_old_log_segment_exits_with_a_message(tmp_path):
    t = date.today()
    item = ids("roofline")[0]
    rows = [{"id": k + 1, **row(item, t - timedelta(days=k % 20), 4, schedule=False, mode="extra")}
            for k in range(600)]
    with Profile.open(tmp_path) as p:
        p.import_document({"format": EXPORT_FORMAT, "schema": SCHEMA_VERSION, "settings": {}, "states": {},
                           "reviews": rows, "mocks": []})
    (tmp_path / "default" / "reviews" / "000001.json").write_text("{ not json")
    r = drill("--saves", str(tmp_path), "stats", "--json")
    assert r.returncode == 1 and "000001.json" in r.stderr and "Traceback" not in r.stderr


def test_a_mock_with_a_chain_counts_its_questions_not_its_steps(tmp_path):
    from engine.mock_report import QuestionResult

    single, chain = ids("roofline")[0], "roofline.chain_interview"
    results = [QuestionResult(1, None, single, "roofline", 3, "1", "1", "correct", 30.0)]
    results += [QuestionResult(2, k, chain, "roofline", 5, "1", "1", v, 40.0)
                for k, v in enumerate(("correct", "close", "wrong", "unanswered"), 1)]
    with Profile.open(tmp_path) as p:
        p.add_mock({"ts": f"{date.today().isoformat()}T09:00:00Z", "seed": 1, "settings": {},
                    "questions": [r.to_dict() for r in results],
                    "score": {"correct": 2, "close": 1, "wrong": 1, "unanswered": 1}, "seconds_used": 190.0})
    m, = json.loads(drill("--saves", str(tmp_path), "stats", "--json").stdout)["mocks"]
    assert (m["questions"], m["answers"], m["percent"]) == (2, 5, pytest.approx(50.0))
    text = drill("--saves", str(tmp_path), "stats").stdout
    assert "Questions 2  2/1/1/1" in text
    assert "题数 2" in drill("--saves", str(tmp_path), "--lang", "zh", "stats").stdout
