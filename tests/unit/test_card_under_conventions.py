"""A card is written under the learner's conventions: its formula line reads the chosen value (``C = 8 × Φ × D``)
and where each factor comes from is the chosen row of the conventions table (``8Φ = 2Φ forward + 4Φ backward +
2Φ recompute``), or the card says the formula keeps the default and why; ``drill card --convention`` and the app's
card screen write it with the same function."""

from __future__ import annotations

import re

import pytest

from engine import convention_set, expr
from engine.formulas import conventions, folding
from engine.formulas import registry as catalogue
from engine.langs import EN, LANGS, ZH
from question_bank import cards, registry
from tests import problems

CHOICES = [(c.key, v) for c in convention_set.CHOOSABLE for v in c.values[1:]]  # every value off the default


def _read_back(f, line: str) -> expr.Node:
    """The right-hand side of a formula line parsed back into the formula's input names (Φ_policy -> phi_policy)."""
    rhs = line.split(" = ", 1)[1]
    symbols = sorted(f.symbols.items(), key=lambda kv: -len(kv[1]))
    pattern = re.compile("|".join(rf"(?<!\w){re.escape(s)}(?!\w)" for _, s in symbols))
    by_symbol = {s: n for n, s in symbols}
    text = pattern.sub(lambda m: by_symbol[m.group(0)], rhs)
    return expr.parse(text, {n: n for n in f.input_names}, functions=expr.FUNCTIONS)


def _card_formulas() -> dict[str, list[str]]:
    """Each template's card formulas (those of its sample problem's steps)."""
    out = {}
    for t in registry.all_templates():
        names = [n for s in problems.problem(t.id, 0).steps for n in s.card_formulas]
        out[t.id] = list(dict.fromkeys(names))
    return out


def test_every_card_formula_line_shows_each_chosen_value_or_says_it_is_kept():
    seen = kept = 0
    for tid, names in _card_formulas().items():
        for name in names:
            f = catalogue.by_name()[name]
            for key, value in CHOICES:
                if not convention_set.takes(key, f):
                    continue
                example = f.with_defaults(dict(f.example or {}))
                for lang in LANGS:
                    section = cards.formula_section(f, lang, {key: value})
                    if not convention_set.applies(key, value, example, formula=f):
                        kept += 1
                        assert section["formula"] == f.formula_text(), (tid, name, key, value)
                        assert section["kept"] and section["kept"][0].startswith(
                            "This problem keeps" if lang == EN else "无论选择哪种约定"), (tid, name, key, value)
                        continue
                    seen += 1
                    chosen = convention_set.input_values(key, value)
                    inputs = {**example, **{k: v for k, v in chosen.items() if k in f.input_names}}
                    # the line, read back, computes the chosen convention's value, not the default's
                    node = _read_back(f, section["formula"])
                    got, want = expr.evaluate(node, inputs), f.evaluate(**inputs)
                    assert got == pytest.approx(want, rel=1e-12), (tid, name, key, value, section["formula"])
                    assert section["formula"] != f.formula_text(), (tid, name, key, value)
                    assert not section["kept"], (tid, name, key, value)
                    rows = [r for g in convention_set.BY_KEY[key].groups for r in conventions.rows(g)
                            if r.key == value and r.input in convention_set.takes(key, f)]
                    assert [r.explained(lang) for r in rows] == section["factors"], (tid, name, key, value, lang)
    assert seen > 40 and kept > 2, (seen, kept)


@pytest.mark.parametrize("key, value, tid, line, factor", [
    ("flops_per_param_token", "8", "mfu.train_flops", "C = 8 × Φ × D", "8Φ = 2Φ forward + 4Φ backward + 2Φ recompute"),
    ("bytes_per_param", "18", "memory.static", "M_static = 18 × Φ", "18Φ = 2Φ bf16 weights + 4Φ fp32 gradients"),
    ("bytes_per_param", "18", "memory.zero_per_gpu", "M_ZeRO-1 = 6 × Φ + 12 × Φ / N_dp", "ZeRO-1 keeps 6Φ whole"),
    ("tokens_per_param", "21", "mfu.chinchilla_params", "N_opt = (C / 126)^0.5", "~21 tokens per parameter"),
])
def test_the_card_reads_the_chosen_value_in_both_languages(key, value, tid, line, factor):
    lines = cards.card_lines(registry.get(tid), EN, {key: value})
    text = "\n".join(lines)
    assert f"  {line}" in lines and factor in text
    zh = "\n".join(cards.card_lines(registry.get(tid), ZH, {key: value}))
    assert line in zh and (f"{value}Φ = " in zh if key != "tokens_per_param" else "每参数 21 个 token" in zh)
    # the default card is unchanged by the machinery: it reads the default's line
    assert f"  {line}" not in cards.card_lines(registry.get(tid), EN)


def test_a_formula_with_an_mfu_keeps_6_and_says_why():
    text = "\n".join(cards.card_lines(registry.get("mfu.train_time"), EN, {"flops_per_param_token": "8"}))
    assert "T = 6 × Φ × D / (N × F_peak × MFU)" in text and "MFU counts 6Φ per token by definition" in text


def test_the_zero_splits_give_what_the_formulas_keep_and_shard():
    """The ZeRO recipe rows' words ("ZeRO-1 keeps 6Φ whole and shards 12Φ") are the formulas' own numbers."""
    for row in conventions.rows("zero_recipe"):
        if not row.split:
            continue
        one, two, three = (catalogue.by_name()[f"zero{k}_bytes"] for k in (1, 2, 3))
        kept1 = one.evaluate(phi=1, n_dp=1e15, recipe=row.value)
        shard1 = one.evaluate(phi=1, n_dp=1, recipe=row.value) - kept1
        shard2 = two.evaluate(phi=1, n_dp=1, recipe=row.value) - 2
        assert f"ZeRO-1 keeps {round(kept1)}Φ whole and shards {round(shard1)}Φ" in row.split, row.key
        assert f"ZeRO-2 keeps 2Φ and shards {round(shard2)}Φ" in row.split, row.key
        assert f"ZeRO-3 shards all {round(three.evaluate(phi=1, n_dp=1, recipe=row.value))}Φ" in row.split
        assert row.split.startswith(f"{row.value:g}Φ = ") and row.split_zh.startswith(f"{row.value:g}Φ = ")


def test_folding_at_the_defaults_gives_the_plain_form():
    """The folded expression is the plain form the formula line shows at the defaults, for every formula a
    learner's convention reaches: the card's line under another value is the same form with that value."""
    for f in catalogue.catalogue():
        if not any(convention_set.takes(c.key, f) for c in convention_set.CHOOSABLE):
            continue
        full = f.with_defaults({})
        env = {i.name: float(full[i.name]) for i in f.inputs if i.quiet and i.name in full}
        assert f"{f.result_symbol or f.name} = {expr.render(folding.fold(f.node, env), f.symbols)}" \
            == f.formula_text(), f.name


def test_a_meaning_that_spells_the_default_out_keeps_only_its_name():
    def meaning(name: str, lang: str, chosen: dict[str, str]) -> str:
        return cards.formula_section(catalogue.by_name()[name], lang, chosen)["meaning"]

    assert meaning("train_static_bytes", EN, {"bytes_per_param": "18"}) == "static training memory"
    assert meaning("train_static_bytes", ZH, {"bytes_per_param": "18"}) == "静态训练显存"
    assert "(18 B per parameter)" in meaning("ppo_static_bytes", EN, {"bytes_per_param": "18"})
    assert meaning("train_flops", ZH, {"flops_per_param_token": "8"}) == "训练总 FLOPs（8ΦD）"
    assert "20" not in meaning("chinchilla_tokens", EN, {"tokens_per_param": "21"})
    assert meaning("train_static_bytes", EN, {}).startswith("static training memory: 2 params")
