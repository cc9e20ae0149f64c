"""Symbolic answers never hang: a bound on the whole expression, and a killable worker with limits."""

from __future__ import annotations

import subprocess
import sys
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import symbolic
from engine.grading import CORRECT, INVALID, WRONG, Expected, equivalent, grade
from engine.symbolic_answers import parse_expression
from tests.problems import examples

ALIASES = {"Φ": "phi", "N": "N"}
ZERO = Expected("expression", "phi + 20*phi/N", aliases=tuple(ALIASES.items()))
# each power within its cap, but nested powers multiply the degree, and it passes the spot checks
HOSTILE = ("Φ + 20Φ/N + ((Φ+N)^16+1)^4/((Φ+N+1)^16+1)^4 - "
           "((Φ^2+2Φ*N+N^2)^8+1)^4/(((Φ+N+1)^2)^8+1)^4")


def node(text: str):
    n = parse_expression(text, ALIASES)
    assert not hasattr(n, "reason"), n
    return n


def test_the_hostile_answer_of_the_issue_is_refused_at_once_not_graded():
    start = time.perf_counter()
    v = grade(HOSTILE, ZERO)
    assert time.perf_counter() - start < 1.0  # refused before any algebra (no sympy, no worker)
    assert v.status == INVALID and v.quality is None
    assert v.message == ("Not graded: too complex to check: of degree 130 once expanded (at most 32); "
                         "simplify it to the formula you mean")
    assert v.message_in("zh") == "未评分：太复杂，无法核对：展开后次数为 130（最多 32）；请化简成你想写的公式"


def test_the_estimate_follows_the_expression_as_one_fraction():
    assert symbolic.complexity(node("2Φ + 14Φ/N")) == (2, 2, 1, 1)
    assert symbolic.complexity(node("((Φ+N)^16+1)^4")).degree == 64
    assert symbolic.complexity(node("(Φ+N)^40 / (Φ+N)^38")) == (40, 41, 38, 39)
    assert symbolic.complexity(node("Φ^0.5")).degree == float("inf")  # not a polynomial power
    assert symbolic.complexity(node("2^0.5 Φ")).degree == 1  # a constant to a power is a constant
    assert symbolic.too_complex(node("Φ + 20Φ/N")) is None


def test_ordinary_answers_are_still_proved():
    assert grade("Φ + 20Φ/N", ZERO).status == CORRECT
    assert grade("Φ(1 + 20/N)", ZERO).status == CORRECT
    assert grade("(N + 20)Φ/N", ZERO).status == CORRECT
    assert grade("21Φ/N", ZERO).status == WRONG


@pytest.fixture
def unbounded(monkeypatch):
    """Lift the whole-expression bound, so the worker's own limits are what stops a proof."""
    monkeypatch.setattr(symbolic, "MAX_DEGREE", 10 ** 6)
    monkeypatch.setattr(symbolic, "MAX_TERMS", 10 ** 12)


@pytest.mark.sweep
def test_a_proof_past_its_time_limit_is_killed_and_not_graded(unbounded):
    checker = symbolic.Checker(time_limit=1.0)
    try:
        checker.equal(node("Φ"), node("Φ"))  # started: sympy imported, proofs are quick
        proc = checker._proc
        start = time.perf_counter()
        with pytest.raises(symbolic.Undecided) as err:
            equivalent(node(HOSTILE), node("Φ + 20Φ/N"), checker=checker)
        assert time.perf_counter() - start < 5.0
        assert "took longer than 1 s" in str(err.value)
        assert err.value.said.text("zh") == "符号核对超过 1 秒；请化简后再试"
        assert proc.poll() is not None  # the worker was killed, not left running
        assert checker.equal(node("2Φ"), node("Φ + Φ")) is True  # a new worker serves the next proof
    finally:
        checker.close()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/PID/limits")
def test_the_worker_runs_under_a_memory_limit(monkeypatch):
    monkeypatch.setenv("DRILL_SYMBOLIC_MEMORY", str(3 * 1024 ** 3))
    checker = symbolic.Checker()
    try:
        checker.equal(node("Φ"), node("Φ"))
        with open(f"/proc/{checker._proc.pid}/limits") as f:
            line = next(text for text in f if text.startswith("Max address space"))
        assert line.split()[3:5] == [str(3 * 1024 ** 3)] * 2
    finally:
        checker.close()


@pytest.mark.sweep
def test_closing_the_checker_ends_a_proof_in_progress_at_once(unbounded):
    """What the app does on Ctrl+Q or leaving the screen: the waiting thread returns straight away."""
    checker = symbolic.Checker(time_limit=60.0)
    checker.equal(node("Φ"), node("Φ"))
    outcome = []

    def prove():
        try:
            outcome.append(equivalent(node(HOSTILE), node("Φ + 20Φ/N"), checker=checker))
        except symbolic.Undecided as e:
            outcome.append(e)

    t = threading.Thread(target=prove)
    t.start()
    time.sleep(0.5)
    start = time.perf_counter()
    checker.close()
    t.join(10)
    assert not t.is_alive() and time.perf_counter() - start < 5.0
    assert isinstance(outcome[0], symbolic.Undecided)


def test_drill_check_refuses_the_issue_example_quickly():
    start = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "drill", "check", "memory.zero_expression", "--seed", "1", HOSTILE],
                       capture_output=True, text=True, timeout=60)
    assert time.perf_counter() - start < 30
    assert "Not graded: too complex to check" in r.stdout


# nested powers, products and quotients of Φ and N: every case ends within its limit, graded or refused
_leaf = st.sampled_from(["Φ", "N", "1", "2", "(Φ+N)", "(Φ+1)", "(N+2)"])
_expr = st.recursive(
    _leaf,
    lambda inner: st.one_of(
        st.tuples(inner, st.integers(0, 16)).map(lambda t: f"({t[0]})^{t[1]}"),
        st.tuples(inner, st.sampled_from(["+", "-", "*", "/"]), inner).map(lambda t: f"({t[0]}){t[1]}({t[2]})"),
    ),
    max_leaves=8,
)


@settings(max_examples=examples(25), deadline=None)
@given(_expr)
def test_fuzz_nested_powers_end_within_the_limit(text):
    checker = _fuzz_checker()
    answer = f"Φ + 20Φ/N + {text} - {text}"  # passes the spot checks wherever it has a value
    # the worker started (or started again after a case past its limit) first: its start has its own limit, and
    # under a loaded machine it once took 5.6 s, which failed a case that had no proof to do
    checker.equal(node("Φ"), node("Φ"))
    start = time.perf_counter()
    n = parse_expression(answer, ALIASES)
    if hasattr(n, "reason"):
        return  # unreadable (too long, too deep): refused by the parser
    try:
        equivalent(n, node("Φ + 20Φ/N"), checker=checker)
    except symbolic.Undecided:
        pass
    assert time.perf_counter() - start < checker.time_limit + 3.0


_FUZZ: list[symbolic.Checker] = []


def _fuzz_checker() -> symbolic.Checker:
    if not _FUZZ:
        _FUZZ.append(symbolic.Checker(time_limit=2.0))
    return _FUZZ[0]


def teardown_module() -> None:
    for c in _FUZZ:
        c.close()
