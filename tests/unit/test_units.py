"""engine.units: the unit table, number formatting and its round trip through the parser."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.answers import Parsed, parse_quantity
from engine.units import (
    DTYPE_BYTES,
    KINDS,
    UNITS,
    best_unit,
    fmt_number,
    fmt_parseable,
    fmt_plain,
    fmt_quantity,
    lookup,
)


@pytest.mark.parametrize("symbol, kind, factor, note", [
    ("GB", "bytes", 1e9, ""),
    ("GiB", "bytes", 2**30, ""),
    ("kB", "bytes", 1e3, ""),
    ("KB", "bytes", 1e3, ""),
    ("PiB", "bytes", 2**50, ""),
    ("Gb", "bytes", 1e9 / 8, "bits"),
    ("Gbit", "bytes", 1e9 / 8, "bits"),
    ("b", "bytes", 1 / 8, "bits"),
    ("TB/s", "bandwidth", 1e12, ""),
    ("Gbps", "bandwidth", 1e9 / 8, "bits"),
    ("GBps", "bandwidth", 1e9, ""),
    ("TFLOPS", "flop_rate", 1e12, ""),
    ("TFLOP/s", "flop_rate", 1e12, ""),
    ("PFLOP", "flop", 1e15, ""),
    ("EFLOPS", "flop_rate", 1e18, ""),
    ("FLOP/B", "intensity", 1.0, ""),
    ("FLOPs/Byte", "intensity", 1.0, ""),
    ("µs", "time", 1e-6, ""),
    ("min", "time", 60.0, ""),
    ("day", "time", 86400.0, ""),
    ("毫秒", "time", 1e-3, ""),
    ("tok/s", "tok_rate", 1.0, ""),
    ("Tokens/s", "tok_rate", 1.0, ""),
    ("%", "ratio", 0.01, ""),
    ("GPUs", "count", 1.0, ""),
    ("张", "count", 1.0, ""),
])
def test_unit_table(symbol, kind, factor, note):
    u = lookup(symbol)
    assert (u.kind, u.note) == (kind, note)
    assert u.factor == pytest.approx(factor)


def test_flops_spelling_has_two_readings_chosen_by_the_question():
    assert lookup("TFLOPs", "flop_rate").factor == 1e12 and lookup("TFLOPs", "flop_rate").note
    assert lookup("TFLOPs", "flop").kind == "flop" and not lookup("TFLOPs", "flop").note
    assert lookup("TFLOPS", "flop_rate").note == ""
    assert lookup("TFLOPS", "flop").kind == "flop"
    assert lookup("nope") is None


def test_units_are_case_sensitive_where_it_matters():
    assert lookup("MB").factor == 1e6 and lookup("mb") is None
    assert lookup("Mb").note == "bits"


def test_dtype_sizes_follow_the_spec():
    assert (DTYPE_BYTES["fp32"], DTYPE_BYTES["bf16"], DTYPE_BYTES["fp16"], DTYPE_BYTES["fp8"],
            DTYPE_BYTES["int8"], DTYPE_BYTES["int4"]) == (4, 2, 2, 1, 1, 0.5)


@pytest.mark.parametrize("x, text", [
    (1120, "1120"), (281.25, "281.3"), (138.888, "138.9"), (153.02, "153"), (0.46667, "0.4667"),
    (7e10, "7 × 10¹⁰"), (1e12, "10¹²"), (5e-6, "5 × 10⁻⁶"), (0, "0"), (-2.5, "-2.5"),
    (999999, "10⁶"), (float("nan"), "nan"), (float("inf"), "∞"),
])
def test_fmt_number(x, text):
    assert fmt_number(x) == text


def test_fmt_number_rounds_half_up_like_people():
    assert fmt_number(2250e12 / 8000e9) == "281.3"  # Python's float formatting would give 281.2
    assert fmt_number(0.125, 2) == "0.13"


@pytest.mark.parametrize("value, kind, text", [
    (1.12e12, "bytes", "1.12 TB"), (140e9, "bytes", "140 GB"), (3.35e12, "bandwidth", "3.35 TB/s"),
    (989e12, "flop_rate", "989 TFLOP/s"), (4.2e11, "flop", "420 GFLOP"), (295.22, "intensity", "295.2 FLOP/B"),
    (14.564, "tok_rate", "14.56 tok/s"), (0.4667, "ratio", "46.67 %"), (14, "count", "14"),
    (0.0032, "time", "3.2 ms"), (90, "time", "90 s"), (150, "time", "2.5 min"), (3 * 86400, "time", "3 day"),
])
def test_fmt_quantity_picks_the_unit_a_person_would(value, kind, text):
    assert fmt_quantity(value, kind) == text


def test_fmt_quantity_in_a_given_unit():
    assert fmt_quantity(1.12e12, "bytes", unit="GB") == "1120 GB"
    assert fmt_quantity(100 * 2**30, "bytes", unit="GiB") == "100 GiB"
    with pytest.raises(ValueError):
        fmt_quantity(1, "bytes", unit="parsecs")


def test_best_unit_never_rounds_up_into_the_wrong_prefix():
    # 999.96 GB rounds to 1000 GB at 4 significant figures: shown as 1 TB, not "1000 GB"
    assert best_unit(999.96e9, "bytes")[0] in ("GB", "TB")
    assert fmt_quantity(999.96e9, "bytes") == "1 TB"


def test_fmt_plain_is_ascii():
    assert fmt_plain(7e10) == "7e10"
    assert fmt_plain(1.5e-7) == "1.5e-7"
    assert fmt_plain(1120) == "1120"
    assert all(ord(c) < 128 for c in fmt_plain(-6.02e23))


finite = st.floats(min_value=1e-12, max_value=1e30, allow_nan=False, allow_infinity=False)


@given(value=finite, kind=st.sampled_from(sorted(KINDS)), negative=st.booleans())
def test_fmt_parseable_round_trips(value, kind, negative):
    v = -value if negative else value
    p = parse_quantity(fmt_parseable(v, kind), kind)
    assert isinstance(p, Parsed), (fmt_parseable(v, kind), p)
    assert math.isclose(p.value, v, rel_tol=6e-4)  # four significant figures


@given(value=finite, data=st.data())
def test_fmt_quantity_in_any_unit_round_trips(value, data):
    kind = data.draw(st.sampled_from(sorted(KINDS)))
    symbols = sorted(s for s, cands in UNITS.items() if any(u.kind == kind for u in cands))
    unit = data.draw(st.sampled_from(symbols))
    text = fmt_quantity(value, kind, sig=6, unit=unit)
    p = parse_quantity(text, kind)
    assert isinstance(p, Parsed), (text, p)
    assert math.isclose(p.value, value, rel_tol=6e-6)
