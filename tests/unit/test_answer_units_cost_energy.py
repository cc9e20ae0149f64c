"""The answer reader reads the units of the 2026 formulas: dollars, prices per GPU-hour and per
million tokens, GPU-hours, request and step rates, watts, joules and watt-hours, with dimensions (FLOP, B, s,
$, J), so an answer of the wrong dimension is refused with its reason and never graded."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.answers import Parsed, Unreadable, parse_quantity
from engine.grading import CORRECT, INVALID, Expected, grade
from engine.units import fmt_plain

money = st.floats(min_value=0.01, max_value=1e9, allow_nan=False, allow_infinity=False)
amount = st.floats(min_value=1e-3, max_value=1e7, allow_nan=False, allow_infinity=False)


def _value(text: str, kind: str, unit: str | None = None) -> float:
    p = parse_quantity(text, kind, unit)
    assert isinstance(p, Parsed), (text, p.message_in("en"))
    return p.value


@pytest.mark.parametrize("text, kind, value", [
    ("$12.5", "dollars", 12.5), ("12.5 $", "dollars", 12.5), ("12.5$", "dollars", 12.5), ("12.5 USD", "dollars", 12.5),
    ("$1.2M", "dollars", 1.2e6), ("$3.4B", "dollars", 3.4e9), ("$2k", "dollars", 2e3), ("$1,200", "dollars", 1200),
    ("2.5 $/GPU-h", "usd_per_gpu_hour", 2.5), ("$2.5/GPU-h", "usd_per_gpu_hour", 2.5),
    ("$2.5/h", "usd_per_gpu_hour", 2.5), ("2.5 $/GPU-hour", "usd_per_gpu_hour", 2.5),
    ("0.42 $/Mtok", "usd_per_mtok", 0.42), ("$0.42/Mtok", "usd_per_mtok", 0.42),
    ("7e6 GPU-h", "gpu_hours", 7e6), ("30 req/s", "req_rate", 30), ("87 step/s", "step_rate", 87),
    ("1500 tok/s", "tok_rate", 1500),
    ("700 W", "power", 700), ("10.2 kW", "power", 10.2e3), ("1.5 MW", "power", 1.5e6),
    ("0.25 J/token", "energy_per_token", 0.25), ("250 mJ/token", "energy_per_token", 0.25),
    ("7791 MWh", "mwh", 7791), ("7.791e6 kWh", "mwh", 7791), ("3.6e9 J", "mwh", 1), ("3.6e6 kJ", "mwh", 1),
])
def test_the_units_of_cost_capacity_and_energy_are_read(text, kind, value):
    assert _value(text, kind) == pytest.approx(value)


@pytest.mark.parametrize("text, kind, value", [
    ("7e6 GPU-h × 700 W × 1.59", "mwh", 7e6 * 700 * 1.59 / 1e6),  # GPU-h × W is Wh
    ("700 W × 8 × 1.2 / (20000 tok/s)", "energy_per_token", 700 * 8 * 1.2 / 20000),  # J/s ÷ 1/s
    ("6.1 $/GPU-h × 4 / (6000 tok/s)", "usd_per_mtok", 6.1 * 4 / (3600 * 6000) * 1e6),
    ("$6.1/GPU-h × 4 / (6000 tok/s)", "usd_per_mtok", 6.1 * 4 / (3600 * 6000) * 1e6),
    ("758341 GPU-h × $3.8/GPU-h", "dollars", 758341 * 3.8), ("1024 GPUs × 720 h", "gpu_hours", 1024 * 720),
    ("1.08e24 FLOP / (989 TFLOPS × 40 %)", "gpu_hours", 1.08e24 / (989e12 * 0.4) / 3600),
    ("2.3 req/s × 2 s", "count", 4.6), ("18.2 GB × 87 step/s / (3.35 TB/s)", "ratio", 18.2e9 * 87 / 3.35e12),
    ("1.2 MW × 24 h", "mwh", 28.8), ("$2/h × 8 × 24 h", "dollars", 384),
])
def test_expressions_of_those_units_combine_by_their_dimensions(text, kind, value):
    assert _value(text, kind) == pytest.approx(value)


@pytest.mark.parametrize("text, kind, en, zh", [
    ("700 W × 8 / (20000 GB/s)", "energy_per_token", "is J/B, the question asks for J/token (J)", "J/token（J）"),
    ("1.2 MW × 24", "mwh", "is J/s, the question asks for MWh (an energy: J)", "的量纲是 J/s"),
    ("6.1 $/GPU-h × 4", "dollars", "is $/s, the question asks for $", "但题目问的是 $"),
    ("12.5 $ + 3 GB", "dollars", "$ and B cannot be added or subtracted", "$ 和 B 量纲不同"),
    ("12 kW", "mwh", "kW is a power (W), not an energy (MWh)", "kW 是功率（W）"),
    ("3600 s", "gpu_hours", "s is a time, not a number of GPU-hours", "s 是时间"),
    ("30 tok/s", "req_rate", "tok/s is a token rate (tok/s), not a request rate (req/s)", "请求速率"),
])
def test_a_wrong_dimension_is_refused_with_its_reason(text, kind, en, zh):
    p = parse_quantity(text, kind)
    assert isinstance(p, Unreadable)
    assert en in p.message_in("en") and zh in p.message_in("zh")


@pytest.mark.parametrize("text, kind, unit, literal", [
    ("1.08e24 FLOP / (989 TFLOPS × 40 %) / 3600", "gpu_hours", "GPU-h", "3600"),
    ("7e6 GPU-h × 700 W × 1.59 / 1e6", "mwh", "MWh", "10⁶"),
    ("1e6 × 6.1 $/GPU-h × 4 / (3600 × 6000 tok/s)", "usd_per_mtok", "$/Mtok", "10⁶"),
])
def test_a_conversion_typed_by_hand_on_top_of_the_units_is_refused_not_graded(text, kind, unit, literal):
    """÷ 3600 with units that already convert would be read 3600 times off: said, never graded."""
    v = grade(text, Expected("number", 1.0, kind, unit))
    assert v.status == INVALID and v.quality is None
    assert f"{literal} converts to {unit} by hand" in v.message_in("en")
    assert f"{literal} 是手工换算成 {unit} 的系数" in v.message_in("zh")
    # without units the formula as shown is read in the asked unit, as before
    bare = text.replace(" FLOP", "").replace(" TFLOPS", "e12").replace(" %", "e-2").replace(" GPU-h", "") \
        .replace(" W", "").replace(" $/GPU-h", "").replace(" tok/s", "")
    assert isinstance(parse_quantity(bare, kind, unit), Parsed), bare


# --------------------------------------------------------------------------- round trips (Hypothesis)

PART3 = [("dollars", "$"), ("usd_per_gpu_hour", "$/GPU-h"), ("usd_per_mtok", "$/Mtok"), ("gpu_hours", "GPU-h"),
         ("req_rate", "req/s"), ("step_rate", "step/s"), ("tok_rate", "tok/s"), ("power", "W"), ("power", "kW"),
         ("power", "MW"), ("energy_per_token", "J/token"), ("mwh", "MWh"), ("mwh", "kWh"), ("mwh", "kJ"), ("mwh", "J")]


@given(x=money, written=st.sampled_from(["${}", "{} $", "{}$", "{} USD"]))
def test_a_dollar_amount_round_trips_written_either_side(x, written):
    text = written.format(fmt_plain(x, 6))
    assert math.isclose(_value(text, "dollars", "$"), float(fmt_plain(x, 6)), rel_tol=1e-9)


@given(x=amount, pair=st.sampled_from(PART3), spaced=st.booleans())
def test_each_new_unit_round_trips(x, pair, spaced):
    from engine.units import lookup

    kind, unit = pair
    number = fmt_plain(x, 6)
    text = f"{number}{' ' if spaced or unit[0].isalpha() else ''}{unit}"
    assert math.isclose(_value(text, kind), lookup(unit, kind).to_base(float(number)), rel_tol=1e-9)


@given(hours=amount, price=st.floats(min_value=0.1, max_value=20), watts=st.floats(min_value=50, max_value=2000))
def test_a_bill_and_an_energy_combine_from_their_givens(hours, price, watts):
    h, p, w = fmt_plain(hours, 6), fmt_plain(price, 4), fmt_plain(watts, 4)
    assert math.isclose(_value(f"{h} GPU-h × ${p}/GPU-h", "dollars"), float(h) * float(p), rel_tol=1e-9)
    assert math.isclose(_value(f"{h} GPU-h × {w} W", "mwh"), float(h) * float(w) / 1e6, rel_tol=1e-9)
    # the wrong dimension is refused, whatever the numbers
    for text, kind in ((f"{h} GPU-h × {w} W", "dollars"), (f"{h} GPU-h × ${p}/GPU-h", "mwh"),
                       (f"{w} W / ({h} tok/s)", "usd_per_mtok")):
        assert isinstance(parse_quantity(text, kind), Unreadable), text
    assert grade(f"{h} GPU-h × ${p}/GPU-h", Expected("number", float(h) * float(p), "dollars", "$")).status == CORRECT
