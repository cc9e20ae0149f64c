"""Conventions are inputs with a default (the spec's part 3 "Conventions are inputs").

Each convention is a quiet input: at its default the formula, its worked solution and ``drill calc`` read
exactly as before (tests/unit/test_unchanged_values.py pins the problems); given another value, ``drill calc``
and the worked solution state it with who uses it.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drill.cli import main
from engine import expr as ex
from engine.formulas import CATALOGUE, FormulaError, get

CONVENTIONAL = [f for f in CATALOGUE if any(i.quiet for i in f.inputs)]


def test_the_conventions_are_bound_where_the_spec_says():
    bound = {f.name: tuple(i.name for i in f.inputs if i.quiet) for f in CONVENTIONAL}
    assert bound["train_static_bytes"] == ("bytes_per_param", "overhead")
    assert bound["weights_bytes"] == ("overhead",)
    for stage in (1, 2, 3):
        assert bound[f"zero{stage}_bytes"] == ("recipe",)
        assert bound[f"zero{stage}_parallel_bytes"] == ("recipe",)
    assert bound["train_flops"] == bound["train_time"] == ("flops_per_param_token",)
    assert "flops_per_param_token" not in get("mfu").input_names  # MFU counts 6Φ by definition; 8Φ is HFU
    for name in ("allreduce_bytes", "reduce_scatter_bytes", "allgather_bytes"):
        assert bound[name] == ("ring_factor",)
    for name in ("allreduce_time", "reduce_scatter_time", "allgather_time"):
        assert bound[name] == ("ring_factor", "directions")
    assert bound["chinchilla_tokens"] == bound["chinchilla_params"] == ("tokens_per_param",)
    # convention inputs come after the spec's own inputs
    for f in CONVENTIONAL:
        quiet = [i.quiet for i in f.inputs]
        assert quiet == sorted(quiet), f.name


@pytest.mark.parametrize("f", CONVENTIONAL, ids=lambda f: f.name)
def test_the_defaults_leave_the_value_and_the_text_unchanged(f):
    example = dict(f.example)
    plain = ex.evaluate(f.plain_node, {**f.defaults, **example})
    assert f.evaluate(**example) == pytest.approx(plain, rel=1e-12)
    lines = f.worked(example)
    assert not any(i.shown + " = " in line and "default" in line for line in lines for i in f.inputs if i.quiet)
    assert f.formula_text() == f"{f.result_symbol or f.name} = {ex.render(f.plain_node, f.symbols)}"


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(CONVENTIONAL), st.floats(0.1, 10))
def test_the_defaults_agree_with_the_plain_form_at_scaled_examples(f, scale):
    values = {k: (v * scale if isinstance(v, (int, float)) and k in ("phi", "m", "tokens", "compute") else v)
              for k, v in f.example.items()}
    plain = ex.evaluate(f.plain_node, {**f.defaults, **values})
    assert f.evaluate(**values) == pytest.approx(plain, rel=1e-12)


def _calc(capsys, *args: str) -> str:
    assert main(["calc", *args]) == 0
    return capsys.readouterr().out


def test_train_static_bytes_at_18_bytes_per_param(capsys):
    out = _calc(capsys, "train_static_bytes", "phi=70B", "bytes_per_param=18")
    assert "1.26 TB" in out
    assert "18: fp32 gradients, as in ML Engineering (Bekman)" in out
    assert get("train_static_bytes").evaluate(phi=70e9, overhead=0.25) == pytest.approx(1.4e12)


def test_a_convention_at_its_default_is_not_said(capsys):
    out = _calc(capsys, "train_static_bytes", "phi=70B")
    assert "bytes_per_param" not in out and "overhead" not in out and "default" not in out
    assert "1.12 TB" in out


@pytest.mark.parametrize("recipe, per_gpu", [
    # phi = 1B, N_dp = 4: bytes per GPU of ZeRO-1, -2, -3
    ("16", (4e9 + 12e9 / 4, 2e9 + 14e9 / 4, 16e9 / 4)),   # ZeRO paper: 4 + 12/d
    ("18", (6e9 + 12e9 / 4, 2e9 + 16e9 / 4, 18e9 / 4)),   # Megatron-LM, fp32 gradients: 6 + 12/d
    ("20", (4e9 + 16e9 / 4, 2e9 + 18e9 / 4, 20e9 / 4)),   # Megatron-LM, fp32 main gradients sharded: 4 + 16/d
])
def test_each_recipe_gives_its_per_gpu_bytes(recipe, per_gpu):
    for stage, want in zip((1, 2, 3), per_gpu):
        f = get(f"zero{stage}_bytes")
        values, _ = f.read_inputs({"phi": "1B", "n_dp": "4", "recipe": recipe})
        assert f.evaluate(**values) == pytest.approx(want), (stage, recipe)
        g = get(f"zero{stage}_parallel_bytes")
        assert g.evaluate(phi=8e9, tp=4, pp=2, n_dp=4, recipe=float(recipe)) == pytest.approx(want), (stage, recipe)


def test_drill_calc_refuses_a_value_outside_the_choices(capsys):
    assert main(["calc", "train_static_bytes", "phi=70B", "bytes_per_param=17"]) != 0
    err = capsys.readouterr().err
    assert "bytes_per_param is one of" in err and "18 (fp32 gradients" in err and "10 (" in err
    with pytest.raises(FormulaError, match="recipe is one of"):
        get("zero1_bytes").read_inputs({"phi": "7B", "n_dp": "8", "recipe": "14"})


def test_train_flops_with_full_recompute(capsys):
    out = _calc(capsys, "train_flops", "phi=7B", "tokens=1T", "flops_per_param_token=8")
    assert "5.6 × 10²² FLOP" in out and "full recompute" in out
    assert "5.6 × 10²²" not in _calc(capsys, "train_flops", "phi=7B", "tokens=1T")
    f = get("train_time")
    base = dict(phi=7e9, tokens=1e12, n_gpus=128, peak_flops=1e15, mfu=0.4)
    assert f.evaluate(**base, flops_per_param_token=8) == pytest.approx(f.evaluate(**base) * 8 / 6)


def test_the_ring_factor_and_the_directions(capsys):
    assert "2 × 10⁹ B (2 GB)" in _calc(capsys, "allreduce_bytes", "m=1GB", "n=8", "ring_factor=approx")
    assert "1.75 × 10⁹ B (1.75 GB)" in _calc(capsys, "allreduce_bytes", "m=1GB", "n=8")
    out = _calc(capsys, "allreduce_time", "m=1GB", "n=8", "alpha=0", "beta=100GB/s", "directions=2")
    assert "8.75 ms" in out and "TPU ICI" in out
    assert "17.5 ms" in _calc(capsys, "allreduce_time", "m=1GB", "n=8", "alpha=0", "beta=100GB/s")
    for name in ("reduce_scatter_time", "allgather_time"):
        f = get(name)
        assert f.evaluate(m=1e9, n=8, alpha=0, beta=1e11, ring_factor=0, directions=2) == pytest.approx(5e-3)
    assert get("reduce_scatter_bytes").evaluate(m=1e9, n=4, ring_factor=0) == pytest.approx(1e9)
    with pytest.raises(FormulaError, match="directions is one of"):
        get("allreduce_time").read_inputs({"m": "1GB", "n": "8", "alpha": "0", "beta": "1GB/s", "directions": "3"})


def test_chinchilla_tokens_per_param(capsys):
    out = _calc(capsys, "chinchilla_tokens", "phi=70B", "tokens_per_param=21")
    assert "1.47 × 10¹²" in out
    f = get("chinchilla_params")
    assert f.evaluate(compute=5.88e23, tokens_per_param=21) == pytest.approx((5.88e23 / (6 * 21)) ** 0.5)
    assert f.evaluate(compute=5.88e23) == pytest.approx((5.88e23 / 120) ** 0.5)
