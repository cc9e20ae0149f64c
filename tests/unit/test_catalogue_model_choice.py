"""Practising on one's own model: with a model chosen (--model ID, or Settings), the weights,
fit, KV cache, decode, prefill, serving and ZeRO templates draw it where it suits the problem, the problems stay
realistic (the model fits or the parallelism is stated, the sequence within its context), and a problem is
identified by template, seed and model; review rows record it."""

from __future__ import annotations

import json

import pytest

from question_bank import models, realism, registry, user_catalogue
from tests.unit.test_catalogue_validation import MY_GPU, MY_MODEL

DRAWING = ("inference.weights_bytes", "inference.fits_on_card", "inference.kv_bytes_per_token",
           "inference.kv_cache_size", "inference.kv_cache_derive", "inference.decode_tps", "inference.decode_tps_batch",
           "inference.prefill_time", "inference.max_batch_fit", "inference.min_gpus_serving", "inference.chain_decode",
           "inference.chain_capacity", "memory.zero_planning")
MY_MOE = MY_MODEL.replace('id = "my_model"', 'id = "my_moe"').replace('name = "My-13B"', 'name = "My-MoE"') \
    .replace("params_total = 1.3e10", "params_total = 4.7e10\nparams_active = 1.3e10\nn_experts = 8\ntop_k = 2\n"
             "ffn_expert = 14336").replace("ffn = 13824\n", "")


@pytest.fixture
def lab(tmp_path):
    (tmp_path / "catalogue").mkdir()
    (tmp_path / "catalogue" / "lab.toml").write_text(MY_MODEL + MY_GPU)
    user_catalogue.load(tmp_path)
    yield tmp_path
    user_catalogue.load(tmp_path / "nowhere")  # unregister


@pytest.mark.parametrize("tid", DRAWING)
def test_the_chosen_model_is_drawn_and_the_problem_stays_realistic(lab, tid):
    t = registry.get(tid)
    drawn = 0
    for seed in range(1, 17):
        p = t.generate(seed, model="my_model")
        assert realism.check(p) == [], (tid, seed)
        if p.model == "my_model":
            drawn += 1
            assert "My-13B" in p.prompt("en") and p.to_dict()["model"] == "my_model"
            for w in p.worlds:
                assert w.model is None or w.model.key in ("my_model", "hypothetical")
                assert w.seq is None or w.seq <= 16384  # within its context
        else:
            assert p == t.generate(seed)  # not drawn: the catalogue's problem
        assert t.generate(seed, model="my_model") == p  # template, seed and model identify the problem
    assert drawn >= 6, f"{tid}: the chosen model was drawn in {drawn} of 16 problems"


def test_with_a_chip_and_a_model_chosen_both_are_drawn_and_recorded(lab):
    p = next(p for p in (registry.get("inference.min_gpus_serving").generate(s, hardware="my_gpu", model="my_model")
                         for s in range(30)) if p.hardware and p.model)
    assert realism.check(p) == [] and "My GPU" in p.prompt("en") and "My-13B" in p.prompt("en")
    assert {"hardware": "my_gpu", "model": "my_model"}.items() <= p.to_dict().items()


def test_without_a_choice_nothing_changes_and_other_templates_ignore_it(lab):
    for tid in ("roofline.ridge_point", "memory.zero_given", "moe.active_params"):
        t = registry.get(tid)
        for seed in range(4):
            plain = t.generate(seed)
            assert plain.model is None and t.generate(seed, model="my_model") == plain


def test_a_model_that_does_not_suit_a_pool_is_not_drawn_for_it(tmp_path):
    # a MoE model is no dense model: the dense-only templates (prefill, the serving setups) keep their own
    (tmp_path / "catalogue").mkdir()
    (tmp_path / "catalogue" / "moe.toml").write_text(MY_MOE)
    try:
        user_catalogue.load(tmp_path)
        assert models.get("my_moe").is_moe and not models.suits(models.get("my_moe"), models.DENSE)
        for seed in range(8):
            p = registry.get("inference.prefill_time").generate(seed, model="my_moe")
            assert p.model is None and p == registry.get("inference.prefill_time").generate(seed)
        drawn = [registry.get("inference.kv_cache_size").generate(s, model="my_moe") for s in range(8)]
        assert all(realism.check(p) == [] for p in drawn) and any(p.model == "my_moe" for p in drawn)
    finally:
        user_catalogue.load(tmp_path / "nowhere")


def test_an_unknown_model_id_is_a_key_error_naming_the_choices():
    with pytest.raises(KeyError, match="llama"):
        registry.get("inference.kv_cache_size").generate(1, model="no_such_model")


def test_ask_and_check_take_model_and_the_review_row_records_it(lab, capsys):
    from drill import cli
    from engine.storage import Profile
    from engine.storage.validation import document_problem

    saves = ["--saves", str(lab)]
    tid = "inference.kv_cache_size"
    assert cli.main(saves + ["ask", tid, "--seed", "3", "--model", "my_model"]) == 0
    out = capsys.readouterr().out
    assert "My-13B" in out and "--model my_model" in out
    assert cli.main(saves + ["ask", tid, "--seed", "3", "--model", "my_model", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["model"] == "my_model"
    answer = doc["answer"]["display"]
    assert cli.main(saves + ["check", tid, "--seed", "3", "--model", "my_model", answer, "--json"]) == 0
    checked = json.loads(capsys.readouterr().out)
    assert checked["status"] == "correct" and checked["model"] == "my_model"
    assert cli.main(saves + ["check", tid, "--seed", "3", "--model", "my_model", answer, "--record"]) == 0
    assert cli.main(saves + ["check", tid, "--seed", "3", answer, "--record"]) == 0  # (another problem: wrong)
    capsys.readouterr()
    with Profile.open(lab, "default") as profile:
        rows = list(profile.reviews())
        assert [r.model for r in rows] == ["my_model", None]
        assert rows[0].verdict == "correct"
        exported = profile.export()
    assert exported["reviews"][0]["model"] == "my_model" and document_problem(exported) is None
    with Profile.open(lab, "copy") as other:  # an export with the model imports with it
        other.import_document(exported)
        assert [r.model for r in other.reviews()] == ["my_model", None]
    exported["reviews"][0]["model"] = "Not An Id!"
    assert "model must be a model id" in document_problem(exported)
    assert cli.main(saves + ["ask", tid, "--model", "nope"]) == 2
    err = capsys.readouterr().err
    assert "nope" in err and "my_model" in err and err.count("\n") == 1
    assert cli.main(saves + ["practice", "--model", "nope"]) == 2  # refused before the app starts


def test_the_model_setting_takes_a_catalogue_id(lab):
    from datetime import date

    from drill.core import settings
    from engine.storage import setting_problem

    assert settings.parse_setting(settings.MODEL_KEY, " my_model ", date(2026, 12, 1), lab) == ("my_model", None)
    assert settings.parse_setting(settings.MODEL_KEY, "llama3_8b", date(2026, 12, 1), lab)[1] is None
    assert settings.parse_setting(settings.MODEL_KEY, "nope", date(2026, 12, 1), lab) == (None, "settings.bad_model")
    assert settings.parse_setting(settings.MODEL_KEY, "", date(2026, 12, 1), lab) == (None, None)
    assert setting_problem("model", "my_model") is None and setting_problem("model", 5) is not None
