"""The interview date and daily limits: Settings, Home's countdown and readiness, `drill plan`."""

from __future__ import annotations

import json
import random
from datetime import date, timedelta

from drill.app import DrillApp
from drill.core.context import AppContext
from drill.screens.home import HomeScreen
from drill.screens.settings import ConfirmPaceScreen, SettingsScreen
from engine.schedule.pace import pace
from engine.session import review_row
from question_bank import registry
from tests import cli
from tests.functional.app_support import sync, text_of


def make_app(profile, clock, lang="en"):
    return DrillApp(AppContext(profile, lang, clock, random.Random(7)), start="home")


async def type_into(pilot, screen, key, text):
    box = screen.query_one(f"#input-{key}")
    box.focus()
    box.value = ""
    await pilot.press(*list(text), "enter")


@sync
async def test_settings_save_in_the_profile_and_home_counts_down_with_readiness(profile, clock):
    today = clock().astimezone().date()
    item = registry.all_templates()[0]
    profile.record(review_row(item=item.id, topic=item.topic, seed=1, quality=5, verdict="correct", when=clock(),
                              today=today, state=None, schedule=True))
    app = make_app(profile, clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("comma")
        screen = app.screen
        assert isinstance(screen, SettingsScreen)
        assert screen.query_one("#input-new_per_day").value == "5"
        await type_into(pilot, screen, "new_per_day", "abc")
        assert "whole number 0-100" in text_of(screen, "#hint-new_per_day")
        assert profile.settings()["new_per_day"] == 5  # refused: nothing saved
        await type_into(pilot, screen, "new_per_day", "7")
        await type_into(pilot, screen, "reviews_per_day", "150")
        await type_into(pilot, screen, "interview", "2020-01-01")
        assert "after today" in text_of(screen, "#hint-interview")
        interview = today + timedelta(days=10)
        await type_into(pilot, screen, "interview", interview.isoformat())
        assert isinstance(app.screen, ConfirmPaceScreen)  # the pace is above the limit: asked, not imposed
        await pilot.press("n")
        assert app.screen is screen and "Kept 7 new items a day" in text_of(screen, "#hint-new_per_day")
        assert (profile.settings()["new_per_day"], profile.settings()["reviews_per_day"],
                profile.settings()["interview"]) == (7, 150, interview.isoformat())
        assert "Interview in 10 days" in text_of(screen, "#settings-plan")
        await type_into(pilot, screen, "scheduler", "anki")
        assert "sm2 or fsrs" in text_of(screen, "#hint-scheduler") and profile.settings().get("scheduler") is None
        await type_into(pilot, screen, "scheduler", "fsrs")
        assert profile.settings()["scheduler"] == "fsrs"
        await pilot.press("escape")
        home = app.screen
        assert isinstance(home, HomeScreen)
        shown = text_of(home, "#home-plan")
        assert f"Interview in 10 days ({interview.isoformat()})" in shown
        left = len(registry.all_templates()) - 1
        need = pace(left + 1, 10)  # the template met today counts: the pace is for the start of the day
        assert (f"{left} new items, 10 days left, new items done by day {need.done_by}: {need.per_day} a day "
                f"(your limit: 7 a day)") in shown
        assert profile.settings()["new_per_day"] == 7  # the pace is advice: the limit is the learner's
        await pilot.press("ctrl+t")
        assert "距面试还有 10 天" in text_of(home, "#home-plan") and "当前上限：每天 7 道" in text_of(home, "#home-plan")
        # clearing the date: plain SM-2, nothing shown
        await pilot.press("comma")
        await type_into(pilot, app.screen, "interview", "")
        assert profile.settings()["interview"] is None
        await pilot.press("escape")
        assert text_of(app.screen, "#home-plan") == ""


@sync
async def test_taking_the_pace_an_interview_date_needs_sets_the_daily_limit(profile, clock):
    today = clock().astimezone().date()
    app = make_app(profile, clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("comma")
        screen = app.screen
        await type_into(pilot, screen, "interview", (today + timedelta(days=30)).isoformat())
        need = pace(len(registry.all_templates()), 30)
        assert isinstance(app.screen, ConfirmPaceScreen)
        await pilot.press("y")
        assert profile.settings()["new_per_day"] == need.per_day
        assert screen.query_one("#input-new_per_day").value == str(need.per_day)
        assert "(your limit" not in text_of(screen, "#settings-plan")  # the limit meets the pace now


def drill(*args):
    return cli.drill(*args)


def test_drill_plan_sets_and_clears_the_interview_date(tmp_path):
    interview = (date.today() + timedelta(days=10)).isoformat()
    r = drill("--saves", str(tmp_path), "plan", "--interview", interview, "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["interview"]["date"] == interview and out["interview"]["days_left"] == 10
    need = pace(len(registry.all_templates()), 10)
    assert out["new_today"] == 5 and out["new_per_day"] == 5  # the limit is kept
    assert (out["interview"]["pace"], out["interview"]["done_by"]) == (need.per_day, need.done_by)
    r = drill("--saves", str(tmp_path), "plan", "--interview", "2020-01-01")
    assert r.returncode == 2 and "after today" in r.stderr
    r = drill("--saves", str(tmp_path), "plan", "--interview", "none")
    assert r.returncode == 0 and "No interview date" in r.stdout


@sync
async def test_settings_choose_the_accelerator_practice_draws(profile, clock):
    from question_bank import user_catalogue
    from tests.unit.test_catalogue_validation import MY_GPU

    (profile.root / "catalogue").mkdir()
    (profile.root / "catalogue" / "lab.toml").write_text(MY_GPU)
    app = make_app(profile, clock)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("comma")
            screen = app.screen
            await type_into(pilot, screen, "hardware", "nope")
            assert "no accelerator" in text_of(screen, "#hint-hardware")
            assert profile.settings().get("hardware") is None  # refused: nothing saved
            await type_into(pilot, screen, "hardware", "my_gpu")
            assert profile.settings()["hardware"] == "my_gpu" and app.ctx.hardware == "my_gpu"
            await type_into(pilot, screen, "hardware", "")
            assert profile.settings()["hardware"] is None and app.ctx.hardware is None
    finally:
        user_catalogue.load(profile.root / "nowhere")


@sync
async def test_settings_choose_the_conventions_problems_follow(profile, clock):
    # "bytes per parameter: 16 / 18 / 20" sets bytes_per_param and the ZeRO recipe together
    key = "convention-bytes_per_param"
    app = make_app(profile, clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("comma")
        screen = app.screen
        assert "16 the ZeRO paper" in text_of(screen, f"#hint-{key}") and "10" in text_of(screen, f"#hint-{key}")
        assert "bytes per parameter" in text_of(screen, f"#label-{key}")
        await type_into(pilot, screen, key, "10")  # recognised when graded, not chosen
        assert "one of 16 / 18 / 20" in text_of(screen, f"#hint-{key}")
        assert profile.settings().get("conventions") in (None, {})
        await type_into(pilot, screen, key, "18")
        assert profile.settings()["conventions"] == {"bytes_per_param": "18"}
        assert app.ctx.conventions == {"bytes_per_param": "18"}
        await type_into(pilot, screen, "convention-ring_factor", "approx")
        assert profile.settings()["conventions"] == {"bytes_per_param": "18", "ring_factor": "approx"}
        await type_into(pilot, screen, key, "16")  # the default: dropped from the set
        assert profile.settings()["conventions"] == {"ring_factor": "approx"}
    problem = registry.get("memory.static").generate(3, conventions=app.ctx.conventions)
    assert problem.convention_set == ()  # memory.static follows bytes_per_param only


@sync
async def test_the_conventions_fields_read_in_chinese(profile, clock):
    profile.set_setting("conventions", {"tokens_per_param": "21"})
    app = make_app(profile, clock, lang="zh")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("comma")
        screen = app.screen
        assert "约定：计算最优时每个参数的 token 数" in text_of(screen, "#label-convention-tokens_per_param")
        assert screen.query_one("#input-convention-tokens_per_param").value == "21"
        from engine.formulas import conventions

        row = next(r for r in conventions.rows("tokens_per_param") if r.key == "21")
        assert f"21 {row.who_in('zh')}" in text_of(screen, "#hint-convention-tokens_per_param")  # who uses it


@sync
async def test_settings_choose_the_model_practice_draws(profile, clock):
    from question_bank import registry, user_catalogue
    from tests.unit.test_catalogue_validation import MY_MODEL

    (profile.root / "catalogue").mkdir()
    (profile.root / "catalogue" / "lab.toml").write_text(MY_MODEL)
    app = make_app(profile, clock)
    try:
        async with app.run_test(size=(80, 30)) as pilot:
            await pilot.press("comma")
            screen = app.screen
            await type_into(pilot, screen, "model", "nope")
            assert "no model" in text_of(screen, "#hint-model")
            assert profile.settings().get("model") is None  # refused: nothing saved
            await type_into(pilot, screen, "model", "my_model")
            assert profile.settings()["model"] == "my_model" and app.ctx.model == "my_model"
            assert registry.get("inference.kv_cache_size").generate(1, model=app.ctx.model).model == "my_model"
            await type_into(pilot, screen, "model", "")
            assert profile.settings()["model"] is None and app.ctx.model is None
    finally:
        user_catalogue.load(profile.root / "nowhere")
