"""engine.formulas as a package: inputs declared once, the registry and its order, enumeration inputs and
defaults (read, validated, stated in the worked solution, served by `drill calc`), ranges, file sizes."""

import ast
import json
from pathlib import Path

import pytest

from drill.cli import main
from engine import formulas
from engine.formulas import CATALOGUE, Choice, Formula, FormulaError, Input, conventions, inputs, registry
from tests import source

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "engine" / "formulas"
DECLARED = {name: v for name, v in vars(inputs).items() if isinstance(v, formulas.Input)}


# --------------------------------------------------------------------------- each meaning declared once

def _input_calls(path: Path) -> list[int]:
    return [n.lineno for n in source.nodes(path) if isinstance(n, ast.Call)
            and getattr(n.func, "id", getattr(n.func, "attr", None)) == "Input"]


def test_no_input_is_built_outside_the_inputs_module():
    # (drill/ is left out: its Input is textual's text box, and the UI never builds a formula)
    for path in [*ROOT.glob("engine/**/*.py"), *ROOT.glob("question_bank/**/*.py")]:
        if path != PACKAGE / "inputs.py":
            assert not _input_calls(path), f"{path.relative_to(ROOT)}: Input(...) at lines {_input_calls(path)}"


def test_each_meaning_is_declared_once():
    seen: dict[tuple, str] = {}
    for name, i in DECLARED.items():
        key = (i.kind, i.meaning)
        assert key not in seen, f"{name} and {seen[key]} declare the same meaning {i.meaning!r}"
        seen[key] = name


def test_every_formula_input_binds_a_declaration():
    """A bound input is its declaration under another name and symbol: nothing else may differ."""
    for f in CATALOGUE:
        for i in f.inputs:
            assert any(i._replace(name=d.name, symbol=d.symbol) == d for d in DECLARED.values()), (f.name, i.name)


def test_one_name_several_meanings_are_separate_declarations():
    """m is a message size, a GEMM's rows and a number of micro-batches; weight_bytes has four meanings (read per
    step, held, before quantisation, and at a rollout engine's precision for a weight sync)."""
    def meanings(name):
        return {i.meaning for f in CATALOGUE for i in f.inputs if i.name == name}
    assert len(meanings("m")) == 3 and len(meanings("n")) == 3 and len(meanings("weight_bytes")) == 4
    assert formulas.get("allreduce_bytes").input("m") == inputs.MESSAGE_BYTES
    assert formulas.get("bubble_1f1b").input("m") == inputs.MICRO_BATCHES
    assert formulas.get("gemm_intensity").input("m") == inputs.GEMM_M
    assert formulas.get("attention_intensity").input("n") == inputs.SEQ_LEN.as_("n", "N")


def test_every_chinese_meaning_is_given_where_the_english_is():
    missing = [name for name, i in DECLARED.items() if not i.meaning_zh]
    assert missing == []


# --------------------------------------------------------------------------- the registry

def test_the_catalogue_is_the_registry_in_its_listed_order():
    names = [f.name for f in CATALOGUE]
    assert names[:len(registry.LISTED_FIRST)] == list(registry.LISTED_FIRST)
    assert {f.name: f for f in CATALOGUE} == formulas.FORMULAS and list(formulas.FORMULAS) == names
    with pytest.raises(TypeError):
        formulas.FORMULAS["x"] = CATALOGUE[0]  # a read-only view


def test_a_formula_registered_twice_is_refused():
    with pytest.raises(ValueError, match="registered twice"):
        registry.register(formulas.get("ridge_point"))


def test_the_package_has_one_module_per_topic():
    assert {p.stem for p in PACKAGE.glob("*.py")} >= {
        "__init__", "core", "inputs", "registry", "memory", "parallelism", "communication", "compute", "inference",
        "serving", "quantisation", "roofline", "attention", "pipeline", "moe"}


def test_no_python_source_is_over_1000_lines():
    """Small modules named for what they hold."""
    too_long = {}
    for folder in ("engine", "question_bank", "drill", "tests", "benchmarks"):
        for path in (ROOT / folder).rglob("*.py"):
            if "__pycache__" in path.parts:
                continue
            n = path.read_text(encoding="utf-8").count("\n")
            if n > 1000:
                too_long[str(path.relative_to(ROOT))] = n
    assert not too_long


# --------------------------------------------------------------------------- enumerations, defaults, ranges

# the ring factor as a plain enumeration, without who uses which (drill calc's toy formula below)
RING_FACTOR = Input("ring_factor", "count", "ring factor: the exact (n−1)/n, or 1 as for large n", "",
                    "环形因子：精确的 (n−1)/n，或 n 很大时取 1", default="exact",
                    choices=tuple(Choice(c.key, c.value, c.counts, c.counts_zh) for c in conventions.rows("ring_factor")))


def _toy() -> Formula:
    """A formula with an enumeration and a numeric default, built only from declarations."""
    return Formula("toy_ring", (inputs.MESSAGE_BYTES.as_("m", "M"), inputs.N_RANKS, RING_FACTOR,
                                inputs.BYTES_PER_PARAM._replace(default=16.0)),
                   "m*((n-1)/n*ring_factor + (1 - ring_factor))*bytes_per_param", "bytes",
                   "a toy formula exercising convention inputs", "test")


def test_an_enumeration_reads_its_keys_and_refuses_others_in_both_languages():
    f = _toy()
    values, notes = f.read_inputs({"m": "1GB", "n": "8", "ring_factor": "APPROX", "bytes_per_param": "2"})
    assert values["ring_factor"] == 0 and notes[-1:] != ()
    with pytest.raises(FormulaError) as e:
        f.read_inputs({"m": "1GB", "n": "8", "ring_factor": "roughly"})
    assert "ring_factor is one of: exact ((n−1)/n kept), approx ((n−1)/n taken as 1 (large n))" in str(e.value)
    assert "ring_factor 只能是以下之一：exact（保留 (n−1)/n）、approx（把 (n−1)/n 取作 1（n 很大时））" in e.value.text("zh")


def test_an_omitted_input_takes_its_default_with_a_note():
    f = _toy()
    values, notes = f.read_inputs({"m": "1GB", "n": "8"})
    assert values["ring_factor"] == 1 and values["bytes_per_param"] == 16
    said = [n.text("en") for n in notes]
    assert "ring_factor: not given: the default exact is used" in said
    assert "bytes_per_param：未给出：使用默认值 16 B" in [n.text("zh") for n in notes]
    assert f.evaluate(m=1e9, n=8) == pytest.approx(1e9 * 7 / 8 * 16)  # evaluate fills defaults too
    with pytest.raises(FormulaError, match="missing input n"):
        f.evaluate(m=1e9)


def test_the_worked_solution_states_each_convention():
    f = _toy()
    en = f.worked({"m": 1e9, "n": 8}, "en")
    assert "  ring_factor = exact: (n−1)/n kept (default)" in en
    assert "  bytes = 16 B (default)" in en
    zh = f.worked({"m": 1e9, "n": 8, "ring_factor": 0, "bytes_per_param": 18}, "zh")
    assert "  ring_factor = approx：把 (n−1)/n 取作 1（n 很大时）（默认：exact）" in zh
    assert "  bytes = 18 B（默认：16 B）" in zh


def test_a_default_that_is_not_a_choice_is_a_bug():
    with pytest.raises(ValueError, match="not one of its choices"):
        Formula("bad", (inputs.RECIPE._replace(default="17"),), "recipe", "count", "", "")


def test_recipe_choices_are_the_megatron_table():
    assert [(c.key, c.value) for c in inputs.RECIPE.choices] == [("16", 16), ("18", 18), ("20", 20), ("10_adam8bit", 10),
                                                                  ("12_one_state", 12)]
    assert inputs.RECIPE.default_value == 16 and RING_FACTOR.default_value == 1


def test_drill_calc_round_trips_an_enumeration_and_a_default(capsys, monkeypatch):
    toy = _toy()
    real = formulas.get
    monkeypatch.setattr(formulas, "get", lambda name: toy if name == "toy_ring" else real(name))
    assert main(["calc", "toy_ring", "m=1GB", "n=8", "ring_factor=approx", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["value"] == pytest.approx(16e9)
    assert "  ring_factor = approx: (n−1)/n taken as 1 (large n) (default: exact)" in doc["steps"]
    assert "bytes_per_param: not given: the default 16 B is used" in doc["notes"]
    assert main(["calc", "toy_ring", "m=1GB", "n=8", "--lang", "zh"]) == 0
    out = capsys.readouterr().out
    assert "  ring_factor     = exact" in out and "（默认）" in out
    assert main(["calc", "toy_ring", "m=1GB", "n=8", "ring_factor=half"]) == 2
    assert "ring_factor is one of: exact" in capsys.readouterr().err


def test_drill_calc_lists_choices_and_defaults(capsys, monkeypatch):
    toy = _toy()
    monkeypatch.setattr(formulas, "CATALOGUE", (toy,))
    assert main(["calc", "--list"]) == 0
    assert "ring_factor [exact|approx, default exact], bytes_per_param [B, default 16 B]" in capsys.readouterr().out
    assert main(["calc", "--list", "--json", "--lang", "zh"]) == 0
    ring = json.loads(capsys.readouterr().out)[0]["inputs"][2]
    assert ring["default"] == "exact" and ring["choices"][1] == {"key": "approx", "meaning": "把 (n−1)/n 取作 1（n 很大时）"}


@pytest.mark.parametrize("typed, en, zh", [
    ("150%", "mfu must be at most 1", "mfu 不能大于 1"),
    ("-5%", "mfu cannot be negative", "mfu 不能为负数"),
])
def test_a_value_outside_its_range_is_refused(typed, en, zh):
    f = formulas.get("train_time")
    texts = {"phi": "70B", "tokens": "2T", "n_gpus": "2048", "peak_flops": "989TFLOPS", "mfu": typed}
    with pytest.raises(FormulaError) as e:
        f.read_inputs(texts)
    assert en in str(e.value) and zh in e.value.text("zh")
