"""FSRS fitted to the learner from both faces: `drill plan --optimize` and `--retention`, and Settings' retention
field and fit button (a worker thread that Esc cancels)."""

from __future__ import annotations

import json
import random
import threading

from drill.app import DrillApp
from drill.core import fsrs_tuning, settings
from drill.core.context import AppContext
from drill.screens.settings import SettingsScreen
from engine.schedule import fsrs_bridge, fsrs_fit
from engine.storage import Profile
from tests import cli
from tests.fsrs_learner import history, record
from tests.functional.app_support import sync, text_of


def profile_with(tmp_path, items: int):
    p = Profile.open(tmp_path)
    record(p, history(1, items=items, days=60 if items > 5 else 20))
    p.close()


def plan(tmp_path, *args):
    return cli.drill("--saves", str(tmp_path), "plan", *args)


def stored(tmp_path):
    p = Profile.open(tmp_path, read_only=True)
    try:
        return p.settings()
    finally:
        p.close()


def test_plan_optimize_below_the_minimum_says_how_many_more_and_keeps_the_defaults(tmp_path):
    profile_with(tmp_path, 5)
    r = plan(tmp_path, "--optimize")
    assert r.returncode == 0, r.stderr
    have = len(fsrs_fit.examples(history(1, items=5, days=20), fsrs_bridge.rating))
    assert "Fitting FSRS-6 weights" in r.stdout
    assert f"{have} of the {fsrs_fit.MIN_REVIEWS} it needs, {fsrs_fit.MIN_REVIEWS - have} more" in r.stdout
    assert "FSRS weights: the defaults" in r.stdout
    assert stored(tmp_path).get(settings.FSRS_WEIGHTS_KEY) is None


def test_plan_optimize_fits_saves_and_shows_the_weights_and_their_losses(tmp_path):
    profile_with(tmp_path, 40)
    r = plan(tmp_path, "--optimize", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)["fsrs_tuning"]
    fit = out["optimize"]
    assert fit["kept"] and fit["loss_after"] < fit["loss_before"] and fit["reviews"] >= fsrs_fit.MIN_REVIEWS
    saved = stored(tmp_path)[settings.FSRS_WEIGHTS_KEY]
    assert saved == out["weights"] == {k: v for k, v in fit.items() if k != "kept"}
    r = plan(tmp_path)
    assert (f"FSRS weights: fitted to your log on {saved['date']} ({saved['reviews']} reviews; log loss "
            f"{saved['loss_before']:.4f} -> {saved['loss_after']:.4f})") in r.stdout


def test_plan_retention_is_refused_outside_its_bounds_and_shows_its_workload(tmp_path):
    profile_with(tmp_path, 5)
    for bad in ("0.79", "0.98", "high"):
        r = plan(tmp_path, "--retention", bad)
        assert r.returncode == 2 and "--retention: a number from 0.80 to 0.97" in r.stderr
    assert stored(tmp_path).get(settings.RETENTION_KEY) is None
    r = plan(tmp_path, "--retention", "0.95", "--lang", "zh")
    assert r.returncode == 0 and "期望记忆保持率 0.95：每天约" in r.stdout
    assert stored(tmp_path)[settings.RETENTION_KEY] == 0.95
    out = json.loads(plan(tmp_path, "--json").stdout)["fsrs_tuning"]
    assert out["retention"] == 0.95 and out["expected_reviews_per_day"] > 0


@sync
async def test_settings_set_the_retention_and_fit_in_a_worker_that_esc_cancels(profile, clock, monkeypatch):
    app = DrillApp(AppContext(profile, "en", clock, random.Random(7)), start="home")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("comma")
        screen = app.screen
        assert isinstance(screen, SettingsScreen)
        box = screen.query_one(f"#input-{settings.RETENTION_KEY}")
        assert box.value == "0.90" and "reviews a day at 0.90" in text_of(screen, f"#hint-{settings.RETENTION_KEY}")
        box.focus()
        box.value = "0.99"
        await pilot.press("enter")
        assert "0.80 to 0.97" in text_of(screen, f"#hint-{settings.RETENTION_KEY}")
        box.value = "0.85"
        await pilot.press("enter")
        assert profile.settings()[settings.RETENTION_KEY] == 0.85
        assert "reviews a day at 0.85" in text_of(screen, f"#hint-{settings.RETENTION_KEY}")
        # an empty profile: the fit says how many reviews it still needs
        screen.query_one("#fsrs-optimize").press()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert f"0 of the {fsrs_fit.MIN_REVIEWS} it needs" in text_of(screen, "#fsrs-fit")
        # a fit still running: Esc cancels it (nothing saved) and the screen stays
        started, release = threading.Event(), threading.Event()

        def slow(profile, today, cancelled):
            started.set()
            release.wait(5)
            return None if cancelled() else fsrs_fit.TooFew(3)

        monkeypatch.setattr(fsrs_tuning, "compute", slow)
        screen.query_one("#fsrs-optimize").press()
        await pilot.pause()
        assert started.wait(5) and "Esc cancels" in text_of(screen, "#fsrs-fit")
        await pilot.press("escape")
        assert app.screen is screen and "cancelled" in text_of(screen, "#fsrs-fit")
        release.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "cancelled" in text_of(screen, "#fsrs-fit")
        assert profile.settings().get(settings.FSRS_WEIGHTS_KEY) is None
        await pilot.press("escape")
        assert not isinstance(app.screen, SettingsScreen)
