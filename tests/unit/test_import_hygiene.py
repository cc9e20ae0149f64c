"""engine/ and question_bank/ never import textual or drill; number grading never imports sympy."""

import json
import pkgutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _modules(package: str) -> list[str]:
    pkg_path = ROOT / package
    return [package] + [f"{package}.{m.name}" for m in pkgutil.walk_packages([str(pkg_path)])]


def _loaded_after(code: str) -> set[str]:
    script = code + "\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True)
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def test_engine_and_bank_never_import_ui_or_drill():
    mods = _modules("engine") + _modules("question_bank")
    loaded = _loaded_after("\n".join(f"import {m}" for m in mods))
    assert {m for m in loaded if m.split(".")[0] in ("textual", "drill", "rich")} == set()


def test_engine_never_imports_question_bank_or_drill():
    loaded = _loaded_after("\n".join(f"import {m}" for m in _modules("engine")))
    assert {m for m in loaded if m.split(".")[0] in ("question_bank", "drill", "textual")} == set()


def test_grading_a_number_does_not_import_sympy():
    loaded = _loaded_after(
        "from engine import formulas, grading\n"
        "v = formulas.get('ridge_point').evaluate(peak_flops=989e12, bandwidth=3.35e12)\n"
        "grading.grade('295', grading.Expected('number', v, 'intensity', 'FLOP/B'))\n"
        "formulas.get('ridge_point').solution(peak_flops=989e12, bandwidth=3.35e12)\n"
    )
    assert "sympy" not in loaded
