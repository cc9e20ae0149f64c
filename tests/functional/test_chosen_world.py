"""One source of the chosen world: what `drill plan` (or Settings) chooses applies to ask, check, calc and the
mock's plan; a flag wins; each says what it used."""

from __future__ import annotations

import json

from drill.core.world import ChosenWorld, chosen_world
from tests import cli


def drill(saves, *args):
    return cli.drill("--saves", str(saves), *args)


def test_the_world_chosen_with_drill_plan_applies_to_every_command(tmp_path):
    r = drill(tmp_path, "plan", "--convention", "bytes_per_param=18", "--hardware", "h100_sxm", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["world"] == {"hardware": "h100_sxm", "model": None,
                                             "conventions": {"bytes_per_param": "18"},
                                             "sources": {"hardware": "settings", "conventions": "settings"}}
    # check: 18 B per parameter from Settings (the 164 GB), said on the first line
    r = drill(tmp_path, "check", "memory.grpo_static", "--seed", "1", "164 GB")
    first, counted, verdict = r.stdout.splitlines()[:3]
    assert first == "Drawn in: hardware h100_sxm (Settings) · conventions bytes per parameter 18 (Settings)"
    assert counted == "Conventions: bytes per parameter 18" and verdict.startswith("Correct")
    r = drill(tmp_path, "--lang", "zh", "check", "memory.grpo_static", "--seed", "1", "164 GB")
    assert r.stdout.startswith("出题范围：硬件 h100_sxm（设置） · 约定 每个参数的字节数 18（设置）")
    # ask: the accelerator of Settings is drawn where the template draws one
    doc = json.loads(drill(tmp_path, "ask", "inference.decode_tps_given", "--seed", "2", "--json").stdout)
    assert doc["hardware"] == "h100_sxm" and doc["world"]["sources"]["hardware"] == "settings"
    # calc: the profile's 18, a typed value or a flag wins
    calc = json.loads(drill(tmp_path, "calc", "train_static_bytes", "phi=70B", "--json").stdout)
    assert calc["value"] == 18 * 70e9 and calc["conventions"] == {"bytes_per_param": "18"}
    calc = json.loads(drill(tmp_path, "calc", "train_static_bytes", "phi=70B", "--convention", "bytes_per_param=16",
                            "--json").stdout)
    assert calc["value"] == 16 * 70e9 and "conventions" not in calc
    r = drill(tmp_path, "calc", "train_static_bytes", "phi=70B")
    assert "Drawn in: conventions bytes per parameter 18 (Settings)" in r.stdout
    # the mock's plan: drawn in the same world, a flag wins
    plan = json.loads(drill(tmp_path, "mock", "--plan", "--questions", "2", "--seed", "5", "--hardware", "b200",
                            "--json").stdout)
    assert plan["world"]["hardware"] == "b200" and plan["world"]["sources"]["hardware"] == "flag"
    assert plan["settings"]["conventions"] == {"bytes_per_param": "18"}
    # cleared from the command line as Settings clears it
    r = drill(tmp_path, "plan", "--hardware", "none", "--convention", "bytes_per_param=16", "--json")
    assert json.loads(r.stdout)["world"] == {"hardware": None, "model": None, "conventions": {}, "sources": {}}


def test_drill_plan_refuses_an_unknown_choice(tmp_path):
    r = drill(tmp_path, "plan", "--hardware", "nope")
    assert r.returncode == 2 and "nope" in r.stderr
    r = drill(tmp_path, "plan", "--convention", "bytes_per_param=17")
    assert r.returncode == 2 and "16, 18, 20" in r.stderr


def test_the_mock_plan_uses_the_setup_the_mock_screen_saved(tmp_path):
    from drill.core.mock import SETTINGS_KEY
    from drill.core.paths import open_profile

    with open_profile(str(tmp_path), "default") as profile:  # as the mock screen saves its setup
        profile.set_setting(SETTINGS_KEY, {"minutes": None, "questions": 3, "topics": ["memory"], "chains": False})
    plan = json.loads(drill(tmp_path, "mock", "--plan", "--seed", "5", "--json").stdout)
    assert plan["settings"]["questions"] == 3 and plan["settings"]["topics"] == ["memory"]
    assert {q["topic"] for q in plan["questions"]} == {"memory"}
    plan = json.loads(drill(tmp_path, "mock", "--plan", "--seed", "5", "--questions", "2", "--json").stdout)
    assert plan["settings"]["questions"] == 2  # a flag wins


def test_the_world_line_in_both_languages():
    w = chosen_world({"hardware": "h100_sxm", "conventions": {"flops_per_param_token": "8"}}, model="llama3_8b")
    assert w == ChosenWorld("h100_sxm", "llama3_8b", {"flops_per_param_token": "8"},
                            {"hardware": "settings", "model": "flag", "conventions": "settings"})
    assert w.line("en") == ("Drawn in: hardware h100_sxm (Settings) · model llama3_8b (--model) · conventions "
                            "training FLOPs per parameter per token 8 (Settings)")
    assert w.line("zh").startswith("出题范围：硬件 h100_sxm（设置） · 模型 llama3_8b（--model）")
    assert not chosen_world({}).chosen and chosen_world({}).line("en").startswith("Drawn in: the catalogue's mix")


def test_a_mock_drawn_in_the_chosen_world_records_it_on_its_rows(tmp_path):
    import time

    from drill.core import mock as glue
    from drill.core.paths import open_profile
    from engine.mock import MockSettings
    from engine.status import Status

    now = time.time()
    world = ChosenWorld(None, None, {"bytes_per_param": "18"})
    for seed in range(1, 40):  # a one-question mock whose problem counts the training state
        plan = glue.make_plan(glue.make_settings(questions=1, topics=["memory"], chains=False, seed=seed, world=world))
        run, problems = glue.begin_run(plan, now)
        if problems[0].chosen_conventions:
            break
    assert problems[0].chosen_conventions == {"bytes_per_param": "18"}
    assert MockSettings.from_dict(plan.settings.to_dict()) == plan.settings  # the saved record keeps the world
    run.answer(problems[0].steps[0].expected.display, now + 10)
    run.finish(now + 20)
    profile = open_profile(str(tmp_path), None)
    try:
        glue.MockSave(profile, run).write(profile, lambda when: when.date())
        (row,) = profile.reviews()
        assert row.conventions == {"bytes_per_param": "18"} and row.verdict == Status.CORRECT
    finally:
        profile.close()
