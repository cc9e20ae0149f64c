"""Practising on one's own hardware: with a chip chosen (--hardware ID), the roofline, decode, ZeRO
and fit templates draw it, the problems stay realistic, and a problem is identified by template, seed and
hardware."""

from __future__ import annotations

import pytest

from question_bank import hardware, realism, registry, user_catalogue
from tests.unit.test_catalogue_validation import MY_GPU

DRAWING = ("roofline.ridge_point", "roofline.classify_gemm", "roofline.chain_interview", "roofline.chain_batching",
           "inference.decode_tps_given", "inference.decode_tps", "inference.fits_on_card", "inference.min_gpus_serving",
           "inference.prefill_time", "memory.zero_planning")


@pytest.fixture
def lab(tmp_path):
    (tmp_path / "catalogue").mkdir()
    (tmp_path / "catalogue" / "lab.toml").write_text(MY_GPU)
    user_catalogue.load(tmp_path)
    yield hardware.get("my_gpu")
    user_catalogue.load(tmp_path / "nowhere")  # unregister


@pytest.mark.parametrize("tid", DRAWING)
def test_the_chosen_chip_is_drawn_and_the_problem_stays_realistic(lab, tid):
    t = registry.get(tid)
    drawn = 0
    for seed in range(1, 25):
        p = t.generate(seed, hardware="my_gpu")
        assert realism.check(p) == [], (tid, seed)
        if p.hardware == "my_gpu":
            drawn += 1
            assert "My GPU" in p.prompt("en") + " ".join(g.display for g in p.givens if isinstance(g.value, str))
            assert p.to_dict()["hardware"] == "my_gpu"
        assert t.generate(seed, hardware="my_gpu") == p  # template, seed and hardware identify the problem
    assert drawn >= 8, f"{tid}: the chosen chip was drawn in {drawn} of 24 problems"


def test_without_a_choice_nothing_changes_and_other_templates_ignore_it(lab):
    for tid in ("roofline.ridge_point", "memory.zero_given", "moe.active_params"):
        t = registry.get(tid)
        for seed in range(5):
            plain = t.generate(seed)
            assert plain.hardware is None
            if tid != "roofline.ridge_point":
                assert t.generate(seed, hardware="my_gpu") == plain


def test_a_chip_no_template_can_use_falls_back_to_the_catalogue():
    # TPU v7: no fp32 / fp16 peak published; the templates draw their own chips and the problem records none
    for tid in DRAWING[:3]:
        p = registry.get(tid).generate(3, hardware="tpu_v7")
        assert p.hardware is None and p == registry.get(tid).generate(3)


def test_an_unknown_hardware_id_is_a_key_error_naming_the_choices():
    with pytest.raises(KeyError, match="h100_sxm"):
        registry.get("roofline.ridge_point").generate(1, hardware="no_such_chip")


def test_ask_and_check_take_hardware(tmp_path, capsys):
    import json

    from drill import cli
    from tests.unit.test_catalogue_validation import MY_GPU

    (tmp_path / "catalogue").mkdir()
    (tmp_path / "catalogue" / "lab.toml").write_text(MY_GPU)
    saves = ["--saves", str(tmp_path)]
    try:
        assert cli.main(saves + ["ask", "roofline.classify_gemm", "--seed", "3", "--hardware", "my_gpu"]) == 0
        out = capsys.readouterr().out
        assert "My GPU" in out and "--hardware my_gpu" in out
        assert cli.main(saves + ["ask", "roofline.classify_gemm", "--seed", "3", "--hardware", "my_gpu", "--json"]) == 0
        doc = json.loads(capsys.readouterr().out)
        assert doc["hardware"] == "my_gpu"
        answer = doc["answer"]["display"]
        assert cli.main(saves + ["check", "roofline.classify_gemm", "--seed", "3", "--hardware", "my_gpu", answer,
                                 "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["status"] == "correct"
        assert cli.main(saves + ["check", "roofline.classify_gemm", "--seed", "3", "--hardware", "my_gpu", answer,
                                 "--record"]) == 0
        capsys.readouterr()
        assert cli.main(saves + ["check", "roofline.classify_gemm", "--seed", "3", answer, "--record"]) == 0
        capsys.readouterr()
        from engine.storage import Profile

        with Profile.open(tmp_path, "default") as profile:  # the row names the chip: template, seed and hardware
            rows = profile.reviews()
            assert [r.hardware for r in rows] == ["my_gpu", None]
            doc = profile.export()
        assert doc["reviews"][0]["hardware"] == "my_gpu" and "hardware" not in doc["reviews"][1]
        from engine.storage.validation import document_problem

        assert document_problem(doc) is None
        doc["reviews"][0]["hardware"] = "Not An Id!"
        assert "hardware must be an accelerator id" in document_problem(doc)
        assert cli.main(saves + ["ask", "roofline.classify_gemm", "--hardware", "nope"]) == 2
        err = capsys.readouterr().err
        assert "nope" in err and "my_gpu" in err and err.count("\n") == 1
        assert cli.main(saves + ["practice", "--hardware", "nope"]) == 2  # refused before the app starts
    finally:
        user_catalogue.load(tmp_path / "nowhere")


def test_a_user_name_with_markup_is_shown_as_written(tmp_path):
    # Textual/rich markup in a user's name is text, not markup: the app draws problems as rich Text objects
    from drill.widgets.problem import givens_table

    (tmp_path / "catalogue").mkdir()
    (tmp_path / "catalogue" / "lab.toml").write_text(MY_GPU.replace('name = "My GPU"', 'name = "Lab [b]GPU[/b]"'))
    try:
        user_catalogue.load(tmp_path)
        p = next(p for p in (registry.get("roofline.classify_gemm").generate(s, hardware="my_gpu") for s in range(20))
                 if p.hardware)
        assert "Lab [b]GPU[/b]" in givens_table(p, "en").plain + p.steps[0].prompt("en")
    finally:
        user_catalogue.load(tmp_path / "nowhere")
