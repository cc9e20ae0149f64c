"""A bare number that is the answer in another scale is not graded: "add a unit: 32000000000 B
is 32 GB"; nothing recorded, the text stays in the box, no solution shown, in practice, the mock and
``drill check --json``, as for an unreadable answer."""

from __future__ import annotations

import json

import pytest
from textual.widgets import Input

from drill.screens.practice import ASKING
from question_bank import registry
from tests.cli import drill
from tests.functional.app_support import submit, sync, text_of
from tests.functional.test_app_practice import make_app, rows
from tests.functional.test_mock_app import app_for, start

pytestmark = pytest.mark.functional

ITEM = "memory.static_given"  # seed 1: 32 GB, asked in GB
SEED = 5  # a mock of one memory question, asked in GB (memory.static)


def base_units(item: str, seed: int) -> str:
    exp = registry.get(item).generate(seed).steps[0].expected
    assert exp.unit == "GB"
    return str(int(round(float(exp.value))))


@pytest.mark.parametrize("lang, said", [("en", "add a unit:"), ("zh", "请加上单位：")])
@sync
async def test_practice_does_not_grade_a_bare_number_in_bytes(profile, clock, lang, said):
    app = make_app(profile, clock, lang=lang, items=[ITEM])
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        typed = base_units(ITEM, screen.run.problem.seed)
        await submit(pilot, typed)
        assert screen.state == ASKING
        assert screen.query_one("#answer", Input).value == typed
        line = text_of(screen, "#understood")
        assert said in line and f"{typed} B" in line, line
        await submit(pilot, typed + " B")  # with its unit: read and graded
        assert screen.state != ASKING
    assert len(rows(profile)) == 1


@sync
async def test_the_mock_does_not_submit_a_bare_number_in_another_scale(profile, clock):
    app = app_for(profile, clock, questions=1, seed=SEED, topics=["memory"], chains=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        exp = screen.run.slot.expected
        assert exp.kind == "number" and exp.unit in ("GB", "TB", "MB"), exp  # the seed is chosen for it
        screen.answer_box.value = f"{float(exp.value):.6g}"  # in bytes
        await pilot.pause()
        assert "add a unit" in text_of(screen, "#mock-reading")
        await pilot.press("enter")
        await pilot.pause()
        assert "Not submitted" in text_of(screen, "#mock-reading")
        assert screen.run.slot.status == "pending"


def test_check_json_does_not_grade_a_bare_number_in_bytes_nor_show_the_solution(tmp_path):
    typed = base_units(ITEM, 1)
    r = drill("--saves", str(tmp_path), "check", ITEM, "--seed", "1", typed, "--json")
    doc = json.loads(r.stdout)
    assert doc["status"] == "invalid" and doc["quality"] is None, doc
    assert f"add a unit: {typed} B is 32 GB" in doc["message"]
    assert not doc.get("solution")
    text = drill("--saves", str(tmp_path), "--lang", "zh", "check", ITEM, "--seed", "1", typed)
    assert "请加上单位" in text.stdout and "解答" not in text.stdout
