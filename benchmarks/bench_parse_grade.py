"""Answer parsing, grading and formula evaluation speed (one core).

Issue 2's target: at least 5,000 parse+grade operations per second, and nothing
on the number path may import sympy (about 0.7 s).  Prints:

* the import time of ``engine.formulas`` + ``engine.grading`` in a fresh
  interpreter, and whether sympy was loaded; a whole ``drill calc`` process;
* parse+grade throughput over a mix of realistic answers (right, close, wrong,
  misconceptions, GiB/bits slips, wrong units, unreadable text, unit expressions such
  as ``989 TFLOPS / 3.35 TB/s``, suffixes, scale slips);
* parse-only throughput; formula evaluation and worked-solution throughput
  over the whole catalogue;
* the slowest hostile input (``9**9**9**9``, 100,000 characters, ...);
* symbolic grading: the first answer (imports sympy) and the next ones.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

from engine.answers import MAX_UNITS

ROOT = Path(__file__).resolve().parents[1]

HOSTILE = ["9**9**9**9", "10^10^10", "1" * 100_000, "(" * 5000 + "1" + ")" * 5000, "(" * 90 + "1" + ")" * 90,
           "-" * 150 + "1", "+".join(["1"] * 99), "nan", "inf", "1/0", "", "1e400", "9" * 199,
           "__import__('os').system('true')", "2 ** ** 2",
           # unit expressions: many units to bind, readings to try, dimensions to refuse
 " / ".join(["1 TFLOPs"] * 16), "(" * 20 + "1 GB" + ") GB" * 20, "1 GB + " * 24 + "1 s",
           "2 ^ (1 GB)", "(1 GB)^400", "9**9**9 GB/s / 1 GB", "1.5k" * 40,
           # the most units an answer may have: two readings each, a suffix each
           " / ".join(["1 TFLOPs"] * MAX_UNITS), " + ".join(["1.5k GB"] * MAX_UNITS),
           # numbers as people write them (engine.numerals), gone wrong; B read two ways in every unit
           "两" * 199, "亿" * 199, "√" * 150, "每秒" * 90, "2张" * 90, "1万" * 60, "2 块 B200 " * 18,
           "√(" * 30 + "1 s" + ")" * 30, " × ".join(["70B"] * MAX_UNITS), "70B*" * 8 + "1 B"]


def _import_cost(runs: int = 5) -> tuple[float, bool]:
    code = ("import sys, time\nt = time.perf_counter()\nimport engine.formulas, engine.grading\n"
            "print(time.perf_counter() - t, 'sympy' in sys.modules)")
    times, sympy_loaded = [], False
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
        seconds, loaded = out.stdout.split()
        times.append(float(seconds))
        sympy_loaded |= loaded == "True"
    return statistics.median(times), sympy_loaded


def _rate(fn, items, min_seconds: float = 0.6) -> float:
    """Calls per second of ``fn(item)`` cycling over ``items`` for at least ``min_seconds``."""
    calls, start = 0, time.perf_counter()
    while True:
        for item in items:
            fn(item)
        calls += len(items)
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            return calls / elapsed


def _cases():
    from engine.choices import BOUND_CHOICES
    from engine.grading import Expected, Miss

    gb = Expected("number", 1.12e12, "bytes", "GB", misses=(Miss("weights_only", "counted only the weights", 140e9),))
    tok = Expected("number", 2039 / 140, "tok_rate", "tok/s")
    ridge = Expected("number", 989 / 3.35, "intensity", "FLOP/B")
    mfu = Expected("number", 0.45, "ratio", "%")
    time_ms = Expected("number", 3.2e-3, "time", "ms")
    gpus = Expected("number", 14, "count", "GPUs", integer=True)
    bound = Expected("choice", "memory-bound", choices=BOUND_CHOICES)
    return [
        ("1120", gb), ("1,120 GB", gb), ("1.12 TB", gb), ("1043 GiB", gb), ("1043", gb), ("140 GB", gb),
        ("8960 Gb", gb), ("16*70e9 B", gb), ("1.12e12", gb), ("14.5", tok), ("2039/140", tok), ("14.5 tok/s", tok),
        ("140 GB", tok), ("295", ridge), ("989/3.35", ridge), ("300 FLOP/B", ridge), ("45%", mfu), ("0.45", mfu),
        ("45", mfu), ("3.2 ms", time_ms), ("3200 us", time_ms), ("14", gpus), ("13 GPUs", gpus), ("abc", gb),
        ("1/0", tok), ("memory bound", bound), ("带宽受限", bound), ("compute", bound),
        # unit expressions: right, of the wrong dimension, suffixes, scale slips
        ("989 TFLOPS / 3.35 TB/s", ridge), ("989 TFLOPS × 3.35 TB/s", ridge), ("2039 GB/s / 140 GB", tok),
        ("8 GPUs × 140 GB", gb), ("6.2T", Expected("number", 6.2e12, "flop_rate", "TFLOPS")),
        ("1.12e12", gb), ("3.2", Expected("number", 3.2e-3, "time", "s")),
    ]


def _typical_inputs(f) -> dict:
    """The formula's own worked example where it has one (valid for its requirements: a whole number of
    micro-batches, a choice input's value), else 8 for every input."""
    if f.example:
        return dict(f.example)
    return {i.name: (0.010, 0.012, 0.008) if i.is_list else 8.0 for i in f.inputs}


def main() -> None:
    seconds, sympy_loaded = _import_cost()
    print(f"import engine.formulas + engine.grading: {seconds * 1000:.0f} ms (fresh interpreter, median of 5); "
          f"sympy imported: {'YES - regression' if sympy_loaded else 'no'}")

    calc = [sys.executable, "-m", "drill", "calc", "ridge_point", "peak_flops=989TFLOPS", "bandwidth=3.35TB/s"]
    wall = statistics.median(_time(lambda: subprocess.run(calc, cwd=ROOT, capture_output=True, check=True))
                             for _ in range(5))
    print(f"drill calc ridge_point ..., whole process: {wall * 1000:.0f} ms (median of 5)")

    from engine.answers import forget_readings, parse_quantity
    from engine.formulas import CATALOGUE
    from engine.grading import Expected, grade

    # engine.answers keeps the texts it has read: forgotten before each one here, so reading is what is timed
    cases = _cases()
    rate = _rate(lambda c: (forget_readings(), grade(c[0], c[1])), cases)
    verdict = "meets" if rate >= 5000 else "BELOW"
    print(f"parse+grade, {len(cases)}-answer mix: {rate:,.0f} ops/s on one core ({verdict} the 5,000 ops/s target)")
    texts = [(t, e.unit_kind if e.kind == "number" else "count") for t, e in cases]
    print(f"parse only: {_rate(lambda c: (forget_readings(), parse_quantity(c[0], c[1])), texts):,.0f} ops/s")

    formulas = [(f, _typical_inputs(f)) for f in CATALOGUE]
    print(f"formula evaluation, all {len(formulas)} formulas: {_rate(lambda c: c[0].evaluate(**c[1]), formulas):,.0f} ops/s")
    print(f"worked solution (3 lines): {_rate(lambda c: c[0].solution(**c[1]), formulas):,.0f} ops/s")

    worst, worst_text = 0.0, ""
    exp = Expected("number", 1.12e12, "bytes", "GB")
    for text in HOSTILE:
        best = min(_time(lambda text=text: (forget_readings(), grade(text, exp))) for _ in range(5))
        if best > worst:
            worst, worst_text = best, text
    print(f"hostile input, slowest of {len(HOSTILE)}: {worst * 1000:.3f} ms ({worst_text[:24]!r})")

    expr = Expected("expression", "2*phi + 14*phi/n_dp", aliases=(("N", "n_dp"),))
    first = _first_symbolic_grade()
    warm = _rate(lambda t: grade(t, expr), ["phi*(2 + 14/N)", "(2N + 14)Φ/N", "16Φ/N"], min_seconds=0.5)
    print(f"symbolic answer: first {first * 1000:.0f} ms (imports sympy), then {warm:,.0f} ops/s")


def _first_symbolic_grade() -> float:
    """The first expression answer in a fresh interpreter (other benchmarks may have imported sympy here)."""
    code = ("import time\nfrom engine.grading import Expected, grade\n"
            "e = Expected('expression', '2*phi + 14*phi/n_dp', aliases=(('N', 'n_dp'),))\n"
            "t = time.perf_counter()\ngrade('2Φ + 14Φ/N', e)\nprint(time.perf_counter() - t)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    return float(out.stdout)


def _time(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
