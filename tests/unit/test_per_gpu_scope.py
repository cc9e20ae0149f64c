"""An answer of "33 GB per GPU" is read only where the question asks a per-GPU figure; elsewhere it is refused with
its reason in both languages, never graded, never recorded.  The scope is declared, not read from the prose: a
formula whose result is per device says so (engine.formulas.Formula.per_device), and an Ask may override it
(question_bank.spec.Ask.per_gpu)."""

from __future__ import annotations

import json

import pytest

from engine import formulas
from engine.grading import CORRECT, INVALID, grade, understood
from question_bank import registry
from question_bank.spec import Ask, Spec, given
from question_bank.template import Template, build_problem
from tests import problems
from tests.cli import drill

PER_GPU = "memory.zero_per_gpu"  # ZeRO-1 static memory per GPU
TOTAL = "memory.static"  # the whole model's static training memory


def _step(tid: str, seed: int = 0):
    return registry.get(tid).generate(seed).steps[0]


def test_the_formulas_of_per_gpu_figures_declare_it():
    per_device = {f.name for f in formulas.FORMULAS.values() if f.per_device}
    assert {"zero1_bytes", "zero3_bytes", "allreduce_bytes", "alltoall_bytes", "zero2_parallel_bytes",
            "activation_bytes_layer_tp", "ring_attention_kv_bytes", "moe_alltoall_bytes", "dp_min_batch_per_device",
            "ulysses_alltoall_bytes", "stage_activation_bytes", "comm_bytes_zero3_step"} <= per_device
    assert not per_device & {"train_static_bytes", "weights_bytes", "kv_cache_bytes", "train_flops", "mfu",
                             "allreduce_time", "gpu_hours"}


def test_every_step_of_a_per_device_formula_asks_a_per_gpu_figure():
    for t in registry.all_templates():
        for s in problems.problem(t.id, 0).steps:  # the bank's shared problems (tests/problems.py)
            if s.expected.kind == "number" and s.formula:
                assert s.expected.per_gpu == formulas.get(s.formula).per_device, (t.id, s.formula)


def test_per_gpu_on_a_per_gpu_question_is_graded():
    s = _step(PER_GPU)
    exact = s.expected.display
    for text in (f"{exact} per GPU", f"{exact} 每卡", f"{exact}/GPU"):
        v = grade(text, s.expected)
        assert v.status == CORRECT, (text, v.message)
        ok, line = understood(text, s.expected)
        assert ok and "per GPU" in line
        assert "按每卡" in understood(text, s.expected, "zh")[1]


def test_per_gpu_on_a_question_about_a_total_is_refused_not_graded():
    s = _step(TOTAL)
    assert not s.expected.per_gpu
    text = f"{s.expected.display} per GPU"
    v = grade(text, s.expected)
    assert v.status == INVALID and v.quality is None
    assert "this question does not ask for a per-GPU figure" in v.message_in("en")
    assert "这道题问的不是每卡的量" in v.message_in("zh")
    ok, line = understood(text, s.expected)
    assert not ok and "per-GPU" in line
    assert grade(s.expected.display, s.expected).status == CORRECT  # without the qualifier, as ever


def test_an_ask_may_declare_its_scope_over_the_formulas():
    def step(per_gpu):
        spec = Spec(asks=(Ask("Weights on each GPU with TP = 8?", "TP = 8 时每卡的权重？", formula="weights_bytes",
                              inputs={"phi": 70e9 / 8, "bytes_per_param": 2}, unit="GB", per_gpu=per_gpu),),
                    givens=(given("phi", "Parameters", "参数量", 70e9),))
        t = Template("test.per_gpu", "memory", "t", "t", 1, 60, lambda rng: spec)
        return build_problem(t, 0, spec).steps[0]

    assert grade("17.5 GB per GPU", step(True).expected).status == CORRECT
    assert grade("17.5 GB per GPU", step(None).expected).status == INVALID  # weights_bytes is not per device


def test_the_cli_refuses_it_and_records_nothing(tmp_path):
    s = _step(TOTAL, 3)
    text = f"{s.expected.display} per GPU"
    r = drill("--saves", str(tmp_path), "check", TOTAL, "--seed", "3", text, "--record")
    assert r.returncode != 0 and "per-GPU" in r.stdout + r.stderr and "not recorded" in r.stderr
    assert not list(tmp_path.rglob("reviews/*.json")), "an unreadable answer is never recorded"
    stats = drill("--saves", str(tmp_path), "stats", "--json")
    assert json.loads(stats.stdout)["reviews"] == 0
    # --json says the same, with no solution (as for any unreadable answer)
    j = drill("--saves", str(tmp_path), "check", TOTAL, "--seed", "3", text, "--json")
    doc = json.loads(j.stdout)
    assert doc["status"] == INVALID and "per-GPU" in json.dumps(doc) and not doc.get("solution")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_cli_says_it_in_the_users_language(lang, tmp_path):
    s = _step(TOTAL, 3)
    r = drill("--saves", str(tmp_path), "--lang", lang, "check", TOTAL, "--seed", "3", f"{s.expected.display} 每卡")
    assert ("这道题问的不是每卡的量" if lang == "zh" else "does not ask for a per-GPU figure") in r.stdout + r.stderr
