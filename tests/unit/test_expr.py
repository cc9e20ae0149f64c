"""engine.expr: the whitelisted arithmetic language behind formulas and answers."""

import math
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import expr as ex


def value(text, **env):
    names = {n: n for n in env}
    return ex.evaluate(ex.parse(text, names, functions=ex.FUNCTIONS), env)


@pytest.mark.parametrize("text, expected", [
    ("1 + 2 * 3", 7), ("(1 + 2) * 3", 9), ("2^10", 1024), ("2**10", 1024), ("2^3^2", 512), ("-2^2", -4),
    ("2039/140", 2039 / 140), ("16*70e9", 1.12e12), ("3 × 4 ÷ 2 − 1", 5), ("10⁹", 1e9), ("1.12 × 10¹²", 1.12e12),
    ("1,120", 1120), ("1,000,000 / 4", 250000), ("（1＋2）×3", 9), ("½", 0.5),
])
def test_arithmetic(text, expected):
    from engine.answers import clean
    assert value(clean(text)) == pytest.approx(expected)


def test_names_and_functions_are_whitelisted():
    assert value("ceil(total/gpu)", total=1120, gpu=80) == 14
    assert value("ceil(total/gpu)", total=1121, gpu=80) == 15
    assert value("sum(t) / len(t) + max(t) - min(t)", t=(1, 2, 6)) == 3 + 5
    with pytest.raises(ex.ExprError, match="unknown name 'x'"):
        ex.parse("x + 1", {"phi": "phi"})
    with pytest.raises(ex.ExprError, match="expected a number"):
        ex.parse("x + 1")
    with pytest.raises(ex.ExprError, match="brackets right after a name"):
        ex.parse("ceil(2.5)")
    with pytest.raises(ex.ExprError, match="a stray"):
        ex.parse("__import__('os').system('true')")


@pytest.mark.parametrize("text, expected", [("2.0e1*Φ", "2.0e1*Φ"), ("2.0e1Φ", "2.0e1*Φ"), ("1e3Φ", "1e3*Φ"), ("2.5E-1 Φ", "2.5E-1*Φ"),
                                            ("3e2(Φ+1)", "3e2*(Φ+1)"), ("2Φ", "2*Φ"), ("2.5Φ N", "2.5*Φ*N")])
def test_implicit_products_keep_a_number_with_its_exponent_whole(text, expected):
    assert ex.insert_implicit_products(text) == expected


def test_an_exponent_literal_that_underflows_is_refused():
    with pytest.raises(ex.ExprError, match="1e-400 is too small: it would be read as 0"):
        ex.parse("1e-400")
    assert ex.evaluate(ex.parse("0e-400 + 1e-300")) == 1e-300


def test_hex_is_refused_before_x_is_read_as_times():
    for text in ("0x10", "0xff", "2 + 0x10"):
        with pytest.raises(ex.ExprError, match="only decimal numbers"):
            ex.parse(text)
    assert ex.evaluate(ex.parse("10x10")) == 100 and ex.evaluate(ex.parse("0 x 10")) == 0


def test_aliases_map_to_canonical_names():
    node = ex.parse("2*Phi + Φ", {"Phi": "phi", "Φ": "phi"})
    assert ex.names_in(node) == {"phi"}
    assert ex.evaluate(node, {"phi": 2}) == 6


@pytest.mark.parametrize("text, reason", [
    ("", "empty"), ("   ", "empty"), ("9**9**9**9", "exponent is too large"), ("10^10^10", "exponent is too large"),
    ("1" * 100_000, "too long"), ("(" * 30 + "1" + ")" * 30, "too deeply nested"), ("1/0", "division by zero"),
    ("0^-1", "division by zero"), ("1e308*10", "too large"), ("1e400", "too large"), ("9" * 199, "too large"),
    ("(-8)^(1/3)", "fractional power"), ("(1", "parentheses"), ("1 2", "can't read '1 2'"),
    ("0o10", "decimal"), ("1 < 2", "a stray '<'"), ("[1]", "a stray '\\['"), ("1,2", "comma"), ("'a'", "a stray \"'\""),
    ("True", "not a number"), ("-" * 150 + "1", "too complicated"), ("+".join(["1"] * 99), "too complicated"),
    ("lambda: 1", "a stray ':'"), ("1 # 2", "not part of an answer"),
])
def test_hostile_or_broken_text_gets_a_reason(text, reason):
    with pytest.raises(ex.ExprError, match=reason):
        ex.evaluate(ex.parse(ex.normalise(text) if text.strip() else text))


def test_list_values():
    with pytest.raises(ex.ExprError, match="list"):
        value("t + 1", t=(1, 2))
    with pytest.raises(ex.ExprError, match="list, not a number"):
        value("t", t=(1, 2))


@pytest.mark.parametrize("text, shown", [
    ("2*(n-1)/n*m", "2 × (n − 1) / n × m"),
    ("a/(b*c)", "a / (b × c)"),
    ("a-(b-c)", "a − (b − c)"),
    ("(a+b)^2", "(a + b)²"),
    ("-(a+b)", "−(a + b)"),
    ("min(a, b*c)", "min(a, b × c)"),
])
def test_render(text, shown):
    names = {n: n for n in "abcmn"}
    assert ex.render(ex.parse(text, names, functions=ex.FUNCTIONS)) == shown


def test_render_substitutes_numbers_with_safe_parentheses():
    node = ex.parse("f/bw", {"f": "f", "bw": "bw"})
    assert ex.render(node, {"f": "F"}) == "F / bw"
    assert ex.render(node, env={"f": 989e12, "bw": 3.35e12}) == "9.89 × 10¹⁴ / (3.35 × 10¹²)"
    assert ex.render(ex.parse("1 - x", {"x": "x"}), env={"x": -2}) == "1 − −2"


def test_implicit_products_for_symbolic_answers():
    assert ex.insert_implicit_products("2Phi + 14 Phi/N") == "2*Phi + 14*Phi/N"
    assert ex.insert_implicit_products("Phi N") == "Phi*N"
    assert ex.insert_implicit_products("2(n-1)/n M") == "2*(n-1)/n*M"
    assert ex.insert_implicit_products("(a)(b)") == "(a)*(b)"


def test_to_sympy_is_exact():
    import sympy

    node = ex.parse("2*phi + 14*phi/n", {"phi": "phi", "n": "n"})
    phi, n = sympy.symbols("phi n", positive=True)
    assert sympy.simplify(ex.to_sympy(node) - (2 * phi + 14 * phi / n)) == 0
    assert ex.to_sympy(ex.parse("0.1")) == sympy.Rational(1, 10)


# A random tree, rendered for people, must read back to the same value.
leaves = st.one_of(st.integers(min_value=0, max_value=999).map(str), st.sampled_from(["a", "b", "c"]))


def trees(depth=3):
    if depth == 0:
        return leaves
    sub = trees(depth - 1)
    return st.one_of(leaves,
                     st.tuples(sub, st.sampled_from(["+", "-", "*", "/"]), sub).map(lambda t: f"({t[0]}{t[1]}{t[2]})"),
                     sub.map(lambda s: f"(-{s})"),
                     st.tuples(sub, st.integers(0, 3)).map(lambda t: f"({t[0]})^{t[1]}"))


ENV = {"a": 3.0, "b": 7.0, "c": 11.0}
NAMES = {n: n for n in ENV}


@given(trees())
def test_render_reads_back_to_the_same_value(text):
    node = ex.parse(text, NAMES)
    try:
        v = ex.evaluate(node, ENV)
    except ex.ExprError:
        return
    again = ex.parse(ex.normalise(ex.render(node)), NAMES)
    assert math.isclose(ex.evaluate(again, ENV), v, rel_tol=1e-9, abs_tol=1e-12)


# --------------------------------------------------------------------------- reasons in Chinese

@pytest.mark.parametrize("text", ["", "9**9**9**9", "1" * 300, "(" * 30 + "1" + ")" * 30, "1/0", "(-8)^(1/3)", "(1",
                                  "1 2", "0o10", "1 < 2", "[1]", "1,2", "'a'", "x + 1", "ceil(2.5)", "1e400"])
def test_every_reason_has_a_chinese_twin(text):
    with pytest.raises(ex.ExprError) as e:
        ex.evaluate(ex.parse(ex.normalise(text) if text.strip() else text))
    zh = e.value.said.text("zh")
    assert re.search(r"[\u4e00-\u9fff]", zh) and str(e.value) == e.value.said.text("en") != zh


def test_chinese_reasons_name_what_was_typed():
    with pytest.raises(ex.ExprError) as e:
        ex.parse("x + 1", {"phi": "phi"})
    assert e.value.said.text("zh") == "未知的名称“x”（可用：phi）"
    with pytest.raises(ex.ExprError) as e:
        ex.parse("1 < 2")
    assert e.value.said.text("zh") == "多了一个“<”：只能识别数字、单位和 + - * / ^ ( )"


def test_a_number_shown_as_a_power_is_bracketed_when_raised_to_one():
    node = ex.parse("a / phi ^ 0.34", {"a": "a", "phi": "phi"})
    assert ex.render(node, env={"a": 406.4, "phi": 1e9}) == "406.4 / (10⁹)^0.34"  # not 10⁹^0.34: 10^(9^0.34)
    assert ex.render(node, env={"a": 406.4, "phi": 2e10}) == "406.4 / (2 × 10¹⁰)^0.34"
    assert ex.render(node, env={"a": 406.4, "phi": 7000}) == "406.4 / 7000^0.34"
    assert ex.render(ex.parse("a * phi", {"a": "a", "phi": "phi"}), env={"a": 2, "phi": 1e9}) == "2 × 10⁹"


# --------------------------------------------------------------------------- every reading of the units in one walk
_Q_NAMES = ("u0", "u1", "u2", "u3")
_Q_DIMS = ((0, 0, 0, 0, 0), (0, 1, 0, 0, 0), (1, 0, -1, 0, 0), (1, 0, 0, 0, 0), (0, 0, 1, 0, 0))


def _quantity_trees():
    leaves = st.one_of(
        st.sampled_from([0.0, 1.0, 2.0, -3.0, 0.5, 4.0, 1e9, 1e100]).map(lambda v: ex.Num(v, repr(v))),
        st.sampled_from(_Q_NAMES + ("missing",)).map(ex.Var))
    return st.recursive(leaves, lambda kids: st.one_of(
        kids.map(ex.Neg),
        st.tuples(st.sampled_from("+-*/^"), kids, kids).map(lambda t: ex.Bin(*t)),
        kids.map(lambda k: ex.Call("ceil", (k,)))), max_leaves=12)


_ENVS = st.lists(st.fixed_dictionaries({n: st.tuples(st.sampled_from([1.0, 1e12, 0.125, 0.0, 3600.0]),
                                                      st.sampled_from(_Q_DIMS)) for n in _Q_NAMES}),
                 min_size=1, max_size=8)


@settings(max_examples=300)
@given(_quantity_trees(), _ENVS)
def test_every_reading_in_one_walk_is_what_each_reading_gives_alone(node, envs):
    """evaluate_quantities (the readings of a typed answer's units, tried together): for each env the value and
    dimension that env gives evaluated alone, or the same first error."""
    for env, got in zip(envs, ex.evaluate_quantities(node, envs), strict=True):
        [want] = ex.evaluate_quantities(node, [env])
        if isinstance(want, ex.ExprError):
            assert isinstance(got, ex.ExprError) and got.said == want.said
        else:
            assert got == want
