"""An answer that follows another published convention is recognised and named.

The grader evaluates the problem's own formula with each other row of engine/formulas/conventions.py (the
problem's givens, one convention changed): an answer matching one within the correct band, and not the problem's
own, is ``convention`` (quality 3, a pass), named with its source and what the problem's own convention gives.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drill.cli import main
from engine.grading import CLOSE, CONVENTION, CORRECT, WRONG, display_number, distance, grade, quality_for
from engine.mock_report import score_percent
from engine.session import VERDICTS
from question_bank import registry
from tests import problems


def _check(template: str, seed: int, answer: str, step: int = 0):
    p = problems.problem(template, seed)
    return grade(answer, p.steps[step].expected)


def _keys(v) -> set[str]:
    return {c.key for c in v.convention}


# --------------------------------------------------------------------------- #
# The examples


def test_memory_static_seed_3_by_each_book():
    """20B parameters, 16 B per parameter (320 GB): 18, 20 and 10 B per parameter are other books' counts."""
    assert _check("memory.static", 3, "320 GB").status == CORRECT
    v = _check("memory.static", 3, "360 GB")
    assert (v.status, v.quality, _keys(v)) == (CONVENTION, 3, {"bytes_per_param=18"})
    en, zh = v.message_in("en"), v.message_in("zh")
    assert "18 B per parameter: fp32 gradients, as in ML Engineering (Bekman)" in en
    assert "this problem counts 16 B per parameter" in en and en.endswith(": 320 GB.")
    assert "每参数 18 B" in zh and "本题按每参数 16 B" in zh and "320 GB" in zh
    # two conventions give 400 GB: 20 B per parameter, and 16 B × 1.25 (Bekman's overhead): both are named
    v = _check("memory.static", 3, "400 GB")
    assert v.status == CONVENTION and _keys(v) == {"bytes_per_param=20", "overhead=0.25"}
    assert "Ultra-Scale Playbook" in v.message and "× 1.25 overhead" in v.message
    # 10 B per parameter (the JAX scaling book) is recognised, though no learner can choose it
    v = _check("memory.static", 3, "200 GB")
    assert v.status == CONVENTION and _keys(v) == {"bytes_per_param=10", "bytes_per_param=10_adam8bit"}
    assert "JAX scaling book" in v.message and "8-bit Adam" in v.message  # both recipes of 10 B are named


def test_a_misconception_still_wins_when_it_gives_a_conventions_value():
    """12 B per parameter is the QLoRA paper's count, and "counted only the AdamW states": the mistake is named."""
    v = _check("memory.static", 3, "240 GB")
    assert v.status == WRONG and v.diagnosis_key == "optimizer_only" and not v.convention
    assert "also 12 B per parameter" in v.message and "QLoRA" in v.message  # and the book that counts so is said
    # a weights-only 2Φ is a mistake, not a convention
    v = _check("memory.static", 3, "40 GB")
    assert v.status == WRONG and v.diagnosis_key == "weights_only"


def test_hardware_flops_with_full_recompute():
    p = problems.problem("mfu.train_flops", 0)
    s = p.steps[0]
    eight = s.inputs["phi"] * s.inputs["tokens"] * 8
    v = grade(f"{eight:.4g}", s.expected)
    assert v.status == CONVENTION and _keys(v) == {"flops_per_param_token=8"}
    assert "8Φ per token" in v.message and "Megatron-LM" in v.message and "每 token 8Φ" in v.message_in("zh")


def test_8_phi_with_an_mfu_stays_a_named_mistake():
    for p in problems.each("mfu.train_time", range(5)):
        s = p.steps[0]
        assert not s.expected.conventions
        v = grade(display_number(s.expected.value * 8 / 6, s.expected.unit_kind, s.expected.unit), s.expected)
        assert v.status in (CLOSE, WRONG) and v.diagnosis_key == "recompute_twice", p.seed


def test_chinchilla_table_3():
    v = _check("mfu.chinchilla_tokens", 1, "5.17e12")  # 22 tokens per parameter of a 235B model
    assert v.status == CONVENTION and _keys(v) == {"tokens_per_param=21"}
    assert "Chinchilla's Table 3" in v.message and "Chinchilla 表 3" in v.message_in("zh")
    # 21 tokens per parameter is within the band of 20: correct, and the convention is said beside it
    p = problems.problem("mfu.chinchilla_tokens", 1)
    v = grade(f"{p.steps[0].inputs['phi'] * 21:.4g}", p.steps[0].expected)
    assert v.status == CORRECT and _keys(v) == {"tokens_per_param=21"} and "That is also" in v.message


def _ring(template: str, small: bool):
    for p in problems.each(template):
        n = p.steps[0].inputs.get("n")
        if n is not None and (n < 8 if small else 8 <= n < 20):
            return p
    pytest.skip(f"no seed of {template} draws such a ring")


def test_dropping_the_ring_factor_is_a_convention_only_for_a_large_ring():
    small = _ring("communication.allreduce_bytes_given", small=True)
    e = small.steps[0].expected
    twice = 2 * small.steps[0].inputs["m"]
    v = grade(display_number(twice, e.unit_kind, e.unit), e)
    assert v.status != CONVENTION and v.diagnosis_key == "no_ring_factor"
    large = _ring("communication.allreduce_bytes_given", small=False)
    e = large.steps[0].expected
    v = grade(display_number(2 * large.steps[0].inputs["m"], e.unit_kind, e.unit), e)
    assert v.status == CONVENTION and _keys(v) == {"ring_factor=approx"} and "JAX scaling book" in v.message


def test_both_directions_of_a_link_only_on_a_torus():
    for p in problems.each("communication.tpu_ici_ring", range(10)):
        assert {c.key for c in p.steps[0].expected.conventions} >= {"directions=2"}
    for p in problems.each("communication.nvl72_allreduce", range(10)):
        assert "directions=2" not in {c.key for c in p.steps[0].expected.conventions}


def test_the_json_names_the_convention(capsys):
    assert main(["check", "memory.static", "--seed", "3", "360 GB", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["status"] == "convention" and d["quality"] == 3
    assert d["convention"]["key"] == "bytes_per_param=18" and d["convention"]["own_value"] == "320 GB"
    assert "ML Engineering (Bekman)" in d["convention"]["source"] and d["approximation"] == ""
    assert main(["check", "memory.static", "--seed", "3", "320 GB", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["convention"] is None
    assert main(["check", "memory.static", "--seed", "3", "360 GB", "--lang", "zh"]) == 0
    assert "按另一种公开的约定是对的" in capsys.readouterr().out


def test_a_convention_is_a_pass_everywhere():
    assert quality_for(CONVENTION) == 3 and "convention" in VERDICTS
    assert score_percent({"correct": 1, "convention": 1, "close": 1, "wrong": 1}) == pytest.approx(62.5)


# --------------------------------------------------------------------------- #
# Property: every template with a convention input, at the suite's fixed seeds (tests/problems.py)

def _with_conventions() -> list[str]:
    return [t.id for t in registry.all_templates()
            if any(s.expected.conventions for p in problems.each(t.id, problems.seeds()[:6]) for s in p.steps)]


def _same(a: float, b: float, e) -> bool:
    return round(a) == round(b) if e.integer else distance(a, b) <= e.tolerance


def _shadowed(c, e) -> bool:
    """A misconception gives the convention's value: the mistake is named (unless the convention's condition holds).
    Only one as near to that value as the convention's own (the grader names the nearer; 12 B per parameter of a
    GRPO policy with a policy-sized reward model lands near, not on, "counted only the policy")."""
    return not c.row.when and any(m.value and _same(m.value, c.value, e) and distance(m.value, c.value) < 1e-9
                                  for m in e.misses)


def _check_conventions(p) -> set[str]:
    """Grade every convention's value of ``p``; the keys recognised as a convention."""
    recognised = set()
    for s in p.steps:
        e = s.expected
        where = f"{p.template.id} seed {p.seed} step {s.index + 1}"
        assert grade(e.display, e).status == CORRECT, f"{where}: its own answer"
        for c in e.conventions:
            v = grade(display_number(c.value, e.unit_kind, e.unit, e.integer), e)
            if _same(c.value, float(e.value), e):
                if e.integer or distance(c.value, float(e.value)) < 0.98 * e.tolerance:  # clear of the display's rounding
                    assert v.status == CORRECT, f"{where}: {c.key} within the band of its own answer"
                continue
            if not e.integer and distance(c.value, float(e.value)) < 1.02 * e.tolerance:
                continue  # at the edge of the band: the display's rounding decides
            if _shadowed(c, e):
                assert v.status != CONVENTION and v.miss is not None, f"{where}: {c.key} is also a named mistake"
                continue
            assert v.status == CONVENTION and c.key in _keys(v), f"{where}: {c.key} gives {v.status}"
            assert c.row.label in v.message_in("en") and c.row.label_zh in v.message_in("zh"), where
            assert e.display in v.message_in("en") and e.display_in("zh") in v.message_in("zh"), where
            recognised.add(c.key)
            if e.integer:
                continue
            # 3 % beyond the convention's band is no longer that convention: Close or Wrong (or another answer)
            for x in (c.value * (1 + e.tolerance) * 1.03, c.value * (1 - e.tolerance) / 1.03):
                w = grade(display_number(x, e.unit_kind, e.unit), e)
                assert c.key not in _keys(w), f"{where}: {x:g} is still {c.key}"
                others = [float(e.value)] + [o.value for o in e.conventions if o.key != c.key]
                if not any(distance(x, o) <= e.tolerance * 1.01 for o in others):
                    assert w.status in (CLOSE, WRONG), f"{where}: {x:g} beyond {c.key}'s band gives {w.status}"
    return recognised


@pytest.fixture(scope="module")
def templates_with_conventions() -> list[str]:
    return _with_conventions()


def test_the_templates_with_conventions(templates_with_conventions):
    assert {"memory.static", "mfu.train_flops", "mfu.chinchilla_tokens", "communication.tpu_ici_ring"} <= \
        set(templates_with_conventions)


@settings(max_examples=problems.examples(25), deadline=None)
@given(data=st.data())
def test_every_convention_is_recognised_and_named(templates_with_conventions, data):
    tid = data.draw(st.sampled_from(templates_with_conventions), label="template")
    seed = data.draw(st.sampled_from(list(problems.seeds())), label="seed")
    _check_conventions(problems.problem(tid, seed))


def test_every_listed_convention_is_recognised_at_some_seed(templates_with_conventions):
    """Over the fixed seeds each template recognises each of its conventions somewhere, except where a named
    misconception always gives the same value (12 B per parameter: "counted only the AdamW states")."""
    for tid in templates_with_conventions:
        offered, recognised = set(), set()
        for p in problems.each(tid, problems.seeds()[:8]):
            recognised |= _check_conventions(p)
            offered |= {c.key for s in p.steps for c in s.expected.conventions
                        if not _shadowed(c, s.expected)
                        and not _same(c.value * 1.02, float(s.expected.value), s.expected)
                        and not _same(c.value / 1.02, float(s.expected.value), s.expected)}
        assert offered <= recognised, (tid, offered - recognised)
