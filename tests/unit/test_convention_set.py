"""A problem is identified by template, seed and convention set.

The learner's conventions (Settings → conventions, ``--convention key=value``) feed problem generation: the
problem states them, computes with them and records them; every review row says which set it was graded under.
"""

from __future__ import annotations

import json
from datetime import UTC

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drill import cli
from engine import convention_set as cs
from engine.formulas import conventions
from engine.storage import Profile
from engine.storage.validation import document_problem, row_problem
from question_bank import registry

# each choosable convention, a template that follows it, and a seed where the spec allows its other values
FOLLOWERS = {"bytes_per_param": ("memory.static", 3), "flops_per_param_token": ("mfu.train_flops", 3),
             "tokens_per_param": ("mfu.chinchilla_tokens", 1), "ring_factor": ("communication.allreduce_time", 0),
             "directions": ("communication.tpu_ici_ring", 3)}
# part 4's conventions are followed where a problem leaves them open, stated only off the default (no template
# names them at it); merge is an encoder's own (plain ViT 1, Qwen2-VL 2): every problem gives it, drill calc follows it
FOLLOWED = {"sender_copies": ("communication.rl_weight_sync", "1"), "count_local": ("moe.a2a_bytes_per_token", "false"),
            "latency_steps": ("communication.tp_decode_allreduce", "one_shot"),
            "bytes_per_token": ("mfu.data_pipeline_chain", "4"), "merge": ("inference.vision_tokens", "2"),
            "bytes_per_param": ("memory.zero_planning", "10_adam8bit")}


# templates whose draw checks that the training state fits a GPU, under the problem's bytes per parameter (a layout
# question's: that some layout fits its budget and plain data parallelism does not)
REDRAWN = {"memory.zero_given", "memory.zero_per_gpu", "memory.zero_planning", "parallelism.zero_parallel_given",
           "parallelism.zero_parallel", "parallelism.layout", "parallelism.layout_given", "parallelism.train_chain"}


def _follows(key):
    return [t for t in registry.all_templates() if key in t.conventions]


def test_each_choosable_convention_has_its_templates():
    assert set(FOLLOWERS) | set(FOLLOWED) == set(cs.BY_KEY)
    for key, (tid, value) in FOLLOWED.items():
        p = registry.get(tid).generate(1, conventions={key: value})
        assert p.chosen_conventions == ({} if key == "merge" else {key: value}), key
    merge = [registry.get("inference.vision_tokens").generate(s, conventions={"merge": "2"}) for s in range(12)]
    assert {"merge": "1"} in [p.fixed_conventions for p in merge]  # a plain ViT keeps its one token per patch
    for key, (tid, _) in FOLLOWERS.items():
        assert tid in {t.id for t in _follows(key)}
    # directions=2 only where beta is one way of one ring link (TPU ICI): never NVLink or a switch
    assert [t.id for t in _follows("directions")] == ["communication.tpu_ici_ring"]
    # 8Φ only where no MFU divides the FLOPs (8Φ with an MFU counts the recompute twice)
    assert [t.id for t in _follows("flops_per_param_token")] == ["mfu.train_flops"]


def test_the_same_seed_under_16_and_18_is_graded_by_its_own_setting(tmp_path, capsys):
    from engine.grading import grade

    t = registry.get("memory.static")
    p16, p18 = t.generate(3), t.generate(3, conventions={"bytes_per_param": "18"})
    assert p16.givens == p18.givens  # the same draw: only what is counted changes
    assert p16.convention_set == () and p18.chosen_conventions == {"bytes_per_param": "18"}
    assert grade("320 GB", p16.steps[0].expected).status == "correct"
    assert grade("360 GB", p18.steps[0].expected).status == "correct"
    assert grade("360 GB", p16.steps[0].expected).status != "correct"
    assert "ML Engineering" in p18.prompt("en") and "ML Engineering" in p18.prompt("zh")
    assert "ZeRO paper" in p16.prompt("en") and "ZeRO 论文" in p16.prompt("zh")
    # the same through drill check: the profile's default, then --convention
    saves = ["--saves", str(tmp_path)]  # a profile without conventions: the seeds'
    assert cli.main(saves + ["check", "memory.static", "--seed", "3", "320 GB", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "correct"
    assert cli.main(saves + ["check", "memory.static", "--seed", "3", "360 GB", "--json", "--convention",
                     "bytes_per_param=18"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["status"] == "correct" and doc["conventions"] == {"bytes_per_param": "18"}


@pytest.mark.parametrize("recipe", ["16", "18", "20"])
def test_bytes_per_param_sets_the_zero_recipe_too(recipe):
    t = registry.get("memory.zero_given")
    w, g, o = cs.RECIPE_SPLIT[recipe]  # 16: 4 + 12/d (ZeRO paper), 18: 6 + 12/d, 20: 4 + 16/d (Megatron-LM)
    per_stage = {1: lambda d: w + g + o / d, 2: lambda d: w + (g + o) / d, 3: lambda d: (w + g + o) / d}
    seen = set()
    for seed in range(30):
        p = t.generate(seed, conventions={"bytes_per_param": recipe})
        stage, i = int(p.steps[0].formula[4]), p.steps[0].inputs
        assert p.steps[0].expected.value == pytest.approx(per_stage[stage](i["n_dp"]) * i["phi"])
        assert {1: f"{w + g}Φ + {o}Φ/N_dp", 2: f"{w}Φ + {g + o}Φ/N_dp", 3: f"{w + g + o}Φ/N_dp"}[stage] in p.prompt("en")
        seen.add(stage)
    assert seen == {1, 2, 3}


def test_ring_factor_approx_only_from_8_ranks():
    t = registry.get("communication.allreduce_time")
    small = large = None
    for seed in range(60):
        p = t.generate(seed, conventions={"ring_factor": "approx"})
        n = p.steps[0].inputs["n"]
        if n < conventions.RING_MIN_N:
            small = small or p
        else:
            large = large or p
    assert small is not None and large is not None
    assert small.convention_set == () and "exact (N−1)/N" in small.prompt("en")  # below 8: the named slip stays
    assert large.chosen_conventions == {"ring_factor": "approx"} and "as 1" in large.prompt("en")
    i = large.steps[0].inputs
    assert large.steps[0].expected.value == pytest.approx(2 * (i["n"] - 1) * i["alpha"] + 2 * i["m"] / i["beta"])


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(sorted(FOLLOWERS)), st.integers(0, 10_000))
def test_every_value_of_a_convention_is_stated_and_counted_in_both_languages(key, seed):
    c = cs.BY_KEY[key]
    for t in _follows(key):
        base = t.generate(seed)
        for value in c.values[1:]:
            p = t.generate(seed, conventions={key: value})
            if key in p.chosen_conventions:  # the spec allowed it here: stated, and counted with
                for lang in ("en", "zh"):
                    assert c.statement(value, lang) in p.prompt(lang), (t.id, seed, lang)
                # a layout question counts with it in its rule (the same layout may be preferred under both)
                assert [(s.value, s.expected.layout) for s in p.steps] != \
                    [(s.value, s.expected.layout) for s in base.steps], (t.id, seed)
                assert p.givens == base.givens or t.id in REDRAWN  # the same draw unless it must fit
            else:  # refused (N < 8) or not counted here: the problem is the default one, saying what it keeps
                assert [s.value for s in p.steps] == [s.value for s in base.steps]
                kept = p.fixed_conventions.get(key)
                said = " " + cs.kept_statement(key, kept, cs.condition(key, value)) if kept else ""
                assert p.prompt("en").replace(said, "") == base.prompt("en")


def test_other_templates_ignore_the_conventions():
    for tid in ("roofline.ridge_point", "inference.weights_bytes"):
        t = registry.get(tid)
        assert t.generate(2, conventions={"bytes_per_param": "20"}) == t.generate(2)


def test_a_bad_convention_is_one_clear_error_naming_the_valid_ones(capsys):
    assert cli.main(["ask", "memory.static", "--seed", "1", "--convention", "bytes_per_param=17"]) == 2
    err = capsys.readouterr().err
    assert "bytes_per_param is one of 16, 18, 20" in err and err.count("\n") == 1
    assert cli.main(["check", "memory.static", "--seed", "1", "1 GB", "--convention", "bpp=16"]) == 2
    err = capsys.readouterr().err
    assert "no convention is named 'bpp'" in err and "bytes_per_param=16|18|20" in err and "directions=1|2" in err
    assert cli.main(["practice", "--convention", "ring_factor"]) == 2
    assert "key=value" in capsys.readouterr().err
    with pytest.raises(cs.ConventionError, match="10"):
        cs.read(["bytes_per_param=10"])  # 10 is recognised when graded, not chosen


def test_ask_prints_the_conventions_and_the_check_command_repeats_them(tmp_path, capsys):
    saves = ["--saves", str(tmp_path)]
    assert cli.main(saves + ["ask", "memory.static", "--seed", "3", "--convention", "bytes_per_param=20"]) == 0
    out = capsys.readouterr().out
    assert "Conventions: bytes per parameter 20" in out
    assert "drill check memory.static --seed 3 --convention bytes_per_param=20" in out
    assert cli.main(saves + ["ask", "memory.static", "--seed", "3", "--lang", "zh", "--convention",
                             "bytes_per_param=20"]) == 0
    assert "约定：每个参数的字节数 20" in capsys.readouterr().out
    assert cli.main(saves + ["ask", "memory.static", "--seed", "3"]) == 0
    assert "Conventions:" not in capsys.readouterr().out  # the defaults are not announced


def test_the_profile_conventions_feed_ask_and_check_and_rows_record_them(tmp_path, capsys):
    saves = ["--saves", str(tmp_path)]
    with Profile.open(tmp_path, "default") as profile:
        profile.set_setting("conventions", {"bytes_per_param": "18"})
    assert cli.main(saves + ["ask", "memory.static", "--seed", "3", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["conventions"] == {"bytes_per_param": "18"} and doc["answer"]["value"] == pytest.approx(3.6e11)
    assert cli.main(saves + ["check", "memory.static", "--seed", "3", "360 GB", "--record"]) == 0
    assert cli.main(saves + ["check", "memory.static", "--seed", "3", "320 GB", "--record", "--convention",
                             "bytes_per_param=16"]) == 0
    capsys.readouterr()
    with Profile.open(tmp_path, "default") as profile:
        rows = profile.reviews()
        assert [(r.verdict, r.conventions) for r in rows] == [
            ("correct", {"bytes_per_param": "18"}), ("correct", None)]
        doc = profile.export()
    assert document_problem(doc) is None
    assert doc["reviews"][0]["conventions"] == {"bytes_per_param": "18"} and "conventions" not in doc["reviews"][1]
    doc["reviews"][0]["conventions"] = {"bytes_per_param": "17"}
    assert "bytes_per_param is one of 16, 18, 20" in document_problem(doc)
    doc["reviews"][0]["conventions"] = {}
    assert "at least one" in document_problem(doc)


def test_a_row_without_conventions_is_as_before():
    from datetime import date, datetime

    from engine.session import review_row

    when = datetime(2026, 1, 2, 10, tzinfo=UTC)
    row = review_row(item="memory.static", topic="memory", seed=1, quality=5, verdict="correct", when=when,
                     today=date(2026, 1, 2), state=None, schedule=False)
    assert row.conventions is None and "conventions" not in row.to_dict()
    stored = {"id": 1, **row.to_dict()}
    assert row_problem(stored) is None
    assert row_problem({**stored, "conventions": {"ring_factor": "approx"}}) is None
    assert "unknown convention" in row_problem({**stored, "conventions": {"nope": "1"}})
    assert cs.problem({"bytes_per_param": 18}) is not None  # a value is its key, a string


def test_a_bad_saved_setting_is_refused_and_ignored(tmp_path):
    from engine.storage.validation import setting_problem

    assert setting_problem("conventions", {"bytes_per_param": "20", "ring_factor": "approx"}) is None
    assert "one of" in setting_problem("conventions", {"ring_factor": "sometimes"})


def test_practice_draws_under_the_learner_conventions_and_records_them(tmp_path):
    import random
    from datetime import datetime

    from drill.core import practice_run, sessions
    from drill.core.context import AppContext

    now = datetime(2026, 11, 29, 15, 0, tzinfo=UTC)
    with Profile.open(tmp_path) as profile:
        ctx = AppContext(profile, clock=lambda: now, rng=random.Random(1))
        ctx.conventions = {"bytes_per_param": "20"}
        run = practice_run.PracticeRun(ctx, sessions.items_session(ctx, ["memory.static", "memory.zero_planning"]))
        assert run.problem.chosen_conventions == {"bytes_per_param": "20"}
        a = run.submit(run.current_step.expected.display)
        assert a.status == "correct" and a.item_row.conventions == {"bytes_per_param": "20"}
        run.advance()
        a = run.submit(run.current_step.expected.display)  # a chain: its step rows record them too
        assert a.rows[0].conventions == {"bytes_per_param": "20"}
        assert all(r.conventions == {"bytes_per_param": "20"} for r in profile.reviews())


def test_the_option_help_names_every_choosable_key(capsys):
    with pytest.raises(SystemExit):
        cli.main(["ask", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert all(c.key in out for c in cs.CHOOSABLE)


@pytest.mark.parametrize("value", ["18", "20"])
def test_problems_under_more_bytes_per_parameter_still_fit_a_real_gpu(value):
    from question_bank import realism

    for t in _follows("bytes_per_param"):
        for seed in range(40):
            p = t.generate(seed, conventions={"bytes_per_param": value})
            assert realism.check(p) == [], (t.id, seed, value)
