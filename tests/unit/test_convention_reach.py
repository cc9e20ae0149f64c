"""A chosen convention reaches every formula that takes it, in every template and every step.

For every template, every selectable value off the default and fixed seeds: each step whose formula takes the
convention's input counts with the chosen value, or the problem lists the convention in ``fixed_conventions``
(and says so), or it keeps the default at that step because MFU counts 6Φ by definition while another step
follows.  Titles, prompts and conventions text never show the default's token (6ΦD, 16Φ) while following
another value.  One seed in make test, three in the deep lane.
"""

from __future__ import annotations

import re

import pytest

from engine import convention_set as cs
from engine import formulas
from engine.langs import EN, ZH
from question_bank import realism, registry
from tests import problems

CHOICES = [(c.key, v) for c in cs.CHOOSABLE for v in c.values if v != c.default]


def _takers(tid: str) -> set[str]:
    """The convention keys some step's formula of ``tid`` takes, read from its seed-1 problem (make test draws it
    anyway; the formulas a template asks about do not change with the seed: each ZeRO stage takes the recipe)."""
    return {k for s in problems.problem(tid, 1).steps if s.formula is not None
            for k in cs.BY_KEY if cs.takes(k, formulas.get(s.formula))}


def _check(tid: str, key: str, value: str, seed: int) -> None:
    p = registry.get(tid).generate(seed, conventions={key: value})
    if key != "flops_per_param_token":  # (8Φ divides by HFU = MFU × 8/6, which the MFU rule reads as an MFU)
        assert realism.check(p) == [], (tid, seed, key, value)  # its text names only what it draws, and it fits
    default = problems.problem(tid, seed) if seed == 1 else registry.get(tid).generate(seed)
    sets = cs.input_values(key, value)
    where = f"{tid} seed {seed} {key}={value}"
    followed = fixed = False
    for s in p.steps:
        if s.formula is None:
            continue
        names = cs.takes(key, formulas.get(s.formula))
        if not names:
            continue
        if all(s.inputs.get(n) == sets[n] for n in names if n in sets):
            if key in p.chosen_conventions:
                followed = True
            else:  # the problem's own value is the chosen one (Qwen2-VL's merge 2; a chain's one-shot step)
                assert all(default.steps[s.index].inputs.get(n) == sets[n] for n in names if n in sets), where
        else:
            fixed = True
            assert key in p.fixed_conventions or (key in p.chosen_conventions and cs.condition(key, value)), where
    if not (followed or fixed):
        return  # no step of this draw takes it (a stage or branch without it)
    if key in p.fixed_conventions and not followed:
        assert p.fixed_conventions[key] != value, where
        said = cs.kept_statement(key, p.fixed_conventions[key], "", EN).split(":")[0]
        assert said in p.conventions(EN), where
        assert "fixed_conventions" in p.to_dict()
    if followed:
        assert p.chosen_conventions.get(key) == value, where
        assert cs.BY_KEY[key].statement(value, EN) in p.conventions(EN), where
        assert cs.BY_KEY[key].statement(value, ZH).rstrip("。") in p.conventions(ZH), where
        for pattern, _ in cs.TOKENS.get(key, ()):
            for lang in (EN, ZH):
                assert not re.search(pattern, p.title_in(lang)), (where, p.title_in(lang))
                if key in p.template.conventions:
                    continue  # a template that names the convention writes its own text under it (4Φ + 16Φ/N_dp)
                followers = [s for s in p.steps if s.formula is None
                             or all(s.inputs.get(n) == sets[n] for n in cs.takes(key, formulas.get(s.formula)))]
                for s in followers:
                    assert not re.search(pattern, s.prompt(lang)), (where, s.prompt(lang))


def _cases() -> list[tuple[str, str, str]]:
    return [(tid, key, value) for tid in problems.template_ids() for key, value in CHOICES if key in _takers(tid)]


@pytest.mark.parametrize(("tid", "key", "value"), _cases())
def test_a_chosen_convention_reaches_every_formula_that_takes_it(tid, key, value):
    _check(tid, key, value, 1)


@pytest.mark.deep
@pytest.mark.parametrize(("tid", "key", "value"), _cases())
def test_a_chosen_convention_reaches_every_formula_at_more_seeds(tid, key, value):
    for seed in (2, 3, 7):
        _check(tid, key, value, seed)


def test_the_templates_the_issue_names_follow_or_recognise():
    """The FLOPs chains follow 8Φ with the same time; the RL templates follow 18 B/param; a checkpoint's 12 B/param
    is recognised."""
    for tid in ("cost.training_run_chain", "cost.training_energy_chain", "mfu.budget_chain"):
        t = registry.get(tid)
        six, eight = t.generate(1), t.generate(1, conventions={"flops_per_param_token": "8"})
        assert eight.steps[0].value == pytest.approx(six.steps[0].value * 8 / 6)
        assert [s.value for s in eight.steps[1:]] == pytest.approx([s.value for s in six.steps[1:]])
        assert "8ΦD ÷ HFU = 6ΦD ÷ MFU" in eight.conventions(EN) and "8ΦD ÷ HFU = 6ΦD ÷ MFU" in eight.conventions(ZH)
        assert "6ΦD" not in eight.title_in(EN).replace("6ΦD ÷ MFU", "")
    for tid in ("memory.grpo_static", "memory.ppo_static", "memory.rl_memory_chain"):
        t = registry.get(tid)
        p = t.generate(1, conventions={"bytes_per_param": "18"})
        assert p.chosen_conventions == {"bytes_per_param": "18"}
        assert "18" in [c.row.key for c in t.generate(1).steps[0].expected.conventions]  # recognised at 16
    ckpt = registry.get("reliability.checkpoint_chain").generate(1).steps[0]
    assert "12" in [c.row.key for c in ckpt.expected.conventions]
    title = registry.get("mfu.train_flops").generate(1, conventions={"flops_per_param_token": "8"}).title_in(EN)
    assert title == "Total training FLOPs (8ΦD)"
    title = registry.get("memory.static_given").generate(1, conventions={"bytes_per_param": "18"}).title_in(ZH)
    assert "18Φ" in title and "16Φ" not in title


def test_a_kept_convention_is_listed_and_said():
    """mfu.train_time divides by an MFU: it keeps 6Φ whatever the choice, and says so in both languages."""
    p = registry.get("mfu.train_time").generate(1, conventions={"flops_per_param_token": "8"})
    assert p.fixed_conventions == {"flops_per_param_token": "6"} and p.chosen_conventions == {}
    assert p.to_dict()["fixed_conventions"] == {"flops_per_param_token": "6"}
    assert "keeps training FLOPs per parameter per token at 6" in p.conventions(EN)
    assert "都取 6" in p.conventions(ZH)
    assert registry.get("mfu.train_time").generate(1).fixed_conventions == {}  # nothing said at the defaults


def test_a_card_is_titled_under_the_chosen_conventions():
    from question_bank import cards

    t = registry.get("mfu.train_flops")
    assert cards.card(t, EN, {"flops_per_param_token": "8"})["title"] == "Total training FLOPs (8ΦD)"
    assert cards.card_lines(t, ZH, {"flops_per_param_token": "8"})[0] == "训练总计算量（8ΦD）"
    assert cards.card(t, EN)["title"] == "Total training FLOPs (6ΦD)"


@pytest.mark.parametrize("tid", ["parallelism.layout", "parallelism.layout_given", "parallelism.train_chain"])
def test_a_layout_counts_with_the_chosen_bytes_per_parameter(tid):
    """A layout question has no formula step, yet its memory rule and its reasoning follow 20 B per parameter:
    the sharded state is 16Φ/N (AdamW and the fp32 main gradient), not the default's 12Φ, and the problem says so."""
    p = registry.get(tid).generate(1, conventions={"bytes_per_param": "20"})
    rules = p.steps[0].expected.layout
    assert dict(rules.inputs) == {"recipe": 20.0} and p.chosen_conventions == {"bytes_per_param": "20"}
    lines = [*p.steps[0].solution_lines(EN), *p.steps[0].solution_lines(ZH), p.steps[0].prompt(EN), p.conventions(EN)]
    assert not any("12Φ" in x or "12 B fp32" in x for x in lines), lines
    assert any("16Φ/N" in x for x in lines)
    default = registry.get(tid).generate(1).steps[0]
    assert dict(default.expected.layout.inputs) == {"recipe": 16.0} and any("12Φ/N" in x for x in default.solution_lines(EN))
