"""``drill mock --plan``: the questions a mock would ask, without starting it; bad input exits 2."""

from __future__ import annotations

import json
import subprocess

import pytest

from question_bank import registry
from tests import cli

pytestmark = pytest.mark.functional


def drill(*args: str, saves) -> subprocess.CompletedProcess:
    return cli.drill("--saves", str(saves), *args)


def test_plan_json_is_deterministic_from_the_seed(tmp_path):
    a = drill("mock", "--questions", "6", "--seed", "7", "--plan", "--json", saves=tmp_path)
    assert a.returncode == 0, a.stderr
    b = drill("mock", "--questions", "6", "--seed", "7", "--plan", "--json", saves=tmp_path / "other")
    assert a.stdout == b.stdout  # anyone with the seed sits the same mock, whatever their history
    plan = json.loads(a.stdout)
    assert plan["seed"] == 7 and plan["settings"]["weighted"] is False and len(plan["questions"]) == 6
    for i, q in enumerate(plan["questions"], 1):
        assert q["index"] == i and q["steps"] == registry.get(q["template"]).chain_length
        assert len(registry.get(q["template"]).generate(q["seed"]).steps) == q["steps"]
    assert len({q["topic"] for q in plan["questions"]}) == 6  # six topics, one question each
    assert not (tmp_path / "other").exists()  # a seeded plan never touches a profile


def test_plan_text_and_options(tmp_path):
    r = drill("mock", "--minutes", "20", "--seed", "3", "--topics", "memory,roofline", "--no-chains", "--plan",
              saves=tmp_path)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("Mock plan · seed 3 · ") and "20 min" in lines[0]
    asked = lines[1:-1]
    assert asked and all(("memory." in line or "roofline." in line) and "chain" not in line for line in asked)
    assert "a miss restarts it" in lines[-1]


def test_an_unseeded_plan_draws_a_seed_and_uses_the_profile(tmp_path):
    r = drill("mock", "--questions", "3", "--plan", "--json", saves=tmp_path)
    assert r.returncode == 0, r.stderr
    plan = json.loads(r.stdout)
    assert plan["settings"]["weighted"] is True and plan["seed"] > 0 and len(plan["questions"]) == 3


@pytest.mark.parametrize("args, message", [
    (("--questions", "x", "--seed", "1", "--plan"), "drill: mock: questions must be a whole number, not 'x'"),
    (("--questions", "99", "--seed", "1", "--plan"), "drill: mock: questions must be a whole number from 1 to 40"),
    (("--minutes", "0", "--plan", "--seed", "1"), "drill: mock: minutes must be a whole number from 1 to 180"),
    (("--seed", "-4", "--plan"), "drill: mock: the seed must be a whole number from 0 to 9223372036854775807"),
    (("--topics", "roofline,cooking", "--seed", "1", "--plan"), "drill: mock: unknown topic 'cooking'"),
    (("--json",), "drill: mock: --json goes with --plan"),
    (("--questions", "x"), "drill: mock: questions must be a whole number"),  # refused before the app opens
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, args, message):
    r = drill("mock", *args, saves=tmp_path)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.strip().startswith(message) and len(r.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_five_minute_plan_is_several_short_questions_and_half_an_hour_has_a_chain(tmp_path, seed):
    def planned(minutes: str) -> tuple[list[dict], float]:
        r = drill("mock", "--minutes", minutes, "--seed", str(seed), "--plan", "--json", saves=tmp_path)
        assert r.returncode == 0, r.stderr
        qs = json.loads(r.stdout)["questions"]
        return qs, sum(2 * registry.get(q["template"]).target_seconds for q in qs)

    short, used = planned("5")
    assert len(short) >= 2 and len({q["topic"] for q in short}) >= 2 and used <= 300
    assert all(q["steps"] == 1 and 2 * registry.get(q["template"]).target_seconds <= 150 for q in short)
    half_hour, used = planned("30")
    assert len(half_hour) >= 5 and len({q["topic"] for q in half_hour}) >= 5 and used <= 1800
    assert any(q["steps"] > 1 for q in half_hour)


def test_a_mock_too_short_for_any_question_is_refused(tmp_path):
    r = drill("mock", "--minutes", "1", "--topics", "concepts", "--seed", "1", "--plan", saves=tmp_path)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.strip() == ("drill: mock: no question in concepts fits in 1 min: the shortest needs 2 min "
                                "(twice its target time)")


def test_the_plan_follows_lang(tmp_path):
    zh = drill("mock", "--questions", "2", "--seed", "3", "--plan", "--lang", "zh", saves=tmp_path)
    assert zh.returncode == 0, zh.stderr
    head, *rows, rule = zh.stdout.strip().splitlines()
    assert head.startswith("模拟面试计划 · 种子 3 · 2 道题 · ") and "共享种子" in head
    assert all("种子" in r for r in rows) and rule.startswith("模拟面试的答案会记入记录")
    en = drill("mock", "--questions", "2", "--seed", "3", "--plan", saves=tmp_path)
    assert en.stdout.startswith("Mock plan · seed 3 · 2 questions · ")
