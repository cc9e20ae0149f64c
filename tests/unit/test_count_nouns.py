"""What a count counts: a count answer with the question's noun reads, with another noun it is refused.

A count is a plain number, so without nouns ``16 GPUs`` read as 16 on a question counting requests and was graded
as if it answered it.  Each count formula says what its result counts (engine.count_nouns.FORMULA_NOUNS), the reader
works out what the answer counts, expressions included, and the answer kind refuses a mismatch, never grading it.
"""

from __future__ import annotations

import json

import pytest

from engine import count_nouns as cn
from engine.answers import parse_quantity
from engine.count_nouns import Noun
from engine.formulas import registry as formulas
from engine.grading import Expected, grade, read, understood
from engine.langs import EN, ZH
from engine.status import INVALID
from tests import problems
from tests.cli import drill

REQUESTS = Expected("number", 16.0, "count", "", integer=True, noun=Noun.REQUESTS)
GPUS = Expected("number", 4096.0, "count", "", integer=True, noun=Noun.GPUS)
ANY = Expected("number", 16.0, "count", "", integer=True)


def test_every_count_formula_says_what_it_counts():
    counts = {f.name for f in formulas.catalogue() if f.unit == "count"}
    assert counts <= set(cn.FORMULA_NOUNS), sorted(counts - set(cn.FORMULA_NOUNS))
    assert set(cn.FORMULA_NOUNS) <= counts, "a row for a formula that is not a count"


def test_a_count_question_carries_its_noun():
    steps = problems.problem("serving.littles_law", 1).steps
    assert steps[0].expected.noun == Noun.REQUESTS


@pytest.mark.parametrize("text, en, zh", [
    ("16 requests", "= 16 requests", "= 16 个请求"), ("16 req", "= 16 requests", "= 16 个请求"),
    ("≈16 requests", "= 16 requests", "= 16 个请求"), ("16 个请求", "= 16 requests", "= 16 个请求"),
    ("16 seqs", "= 16 sequences", "= 16 条序列"),  # a decode batch's sequences are its requests
    ("16", "= 16", "= 16"), ("206 条", "= 206", "= 206"),  # no noun (a classifier alone): read as before
])
def test_the_questions_own_noun_reads_and_the_preview_says_it(text, en, zh):
    assert understood(text, REQUESTS, EN) == (True, en)
    assert understood(text, REQUESTS, ZH) == (True, zh)
    assert grade(text, REQUESTS).graded


@pytest.mark.parametrize("text, typed", [
    ("16 GPUs", Noun.GPUS), ("16 张", Noun.GPUS), ("16 tokens", Noun.TOKENS), ("16B params", Noun.PARAMS),
    ("8 GPUs/node × 2 nodes", Noun.GPUS), ("32 tok/s × 0.5 s", Noun.TOKENS),
])
def test_another_noun_is_refused_in_the_learners_language_and_never_graded(text, typed):
    v = grade(text, REQUESTS)
    assert v.status == INVALID and v.quality is None
    assert v.reason_in(EN).startswith(f"the question counts requests, not {typed.value}: write ")
    assert v.reason_in(ZH).startswith(f"题目数的是请求，不是{cn.name_zh(typed)}：写成 ")
    r = read(text, REQUESTS)
    assert not r.readable and r.parsed is not None and r.parsed.noun == typed
    assert grade(text, ANY).graded, "a question that counts no one thing reads any noun"


def test_a_latin_noun_is_spaced_from_the_chinese_around_it():
    assert grade("16 GPUs", Expected("number", 16.0, "count", "", noun=Noun.TOKENS)).reason_in(ZH) == \
        "题目数的是 token，不是 GPU：写成 16 或 16 个 token"


@pytest.mark.parametrize("text, value, noun", [
    ("8 GPUs/node × 512 nodes", 4096, Noun.GPUS),  # a count per count cancels
    ("512 nodes × 8 GPUs/node", 4096, Noun.GPUS),
    ("4096 GPUs × 2 nodes / (2 nodes)", 4096, Noun.GPUS),
    ("2048 GPUs + 2048 GPUs", 4096, Noun.GPUS),
    ("2048 GPUs + 2048 nodes", 4096, ""),  # a sum of two things names neither: read as before
    ("64 GPUs × 64 nodes", 4096, ""),  # nor does a product of two
    ("sqrt(4096 GPUs × 4096 GPUs)", 4096, Noun.GPUS),
    ("64 GPUs/rack × 64 racks", 4096, Noun.GPUS), ("8 GPUs/node × 4 nodes/rack × 128 racks", 4096, Noun.GPUS),
])
def test_nouns_combine_in_an_expression_as_on_a_whiteboard(text, value, noun):
    p = parse_quantity(text, "count")
    assert not hasattr(p, "why"), p
    assert p.value == value and p.noun == noun
    assert grade(text, GPUS).graded


def test_the_ratios_a_count_formula_multiplies_by_are_written_with_their_nouns():
    """D = 20 tokens/param × Φ as a whiteboard writes it: the tokens question reads it, the params one refuses it."""
    tokens = Expected("number", 1.4e12, "count", "", noun=Noun.TOKENS)
    assert grade("20 tokens/param × 70B params", tokens).status == "correct"
    assert understood("70B params × 20 tokens/param", tokens, EN) == (
        True, "= 1.4 × 10¹² tokens  (70B read as 7 × 10¹⁰ (a count))")
    assert understood("70B params × 20 tokens/param", tokens, ZH) == (True, "= 1.4 × 10¹² 个 token（70B 读作 7 × 10¹⁰（个数））")
    params = Expected("number", 7e10, "count", "", noun=Noun.PARAMS)
    assert grade("1.4T tokens / (20 tokens/param)", params).status == "correct"
    assert not grade("20 tokens/param × 70B params", params).graded


def test_nouns_on_a_question_of_another_kind_cancel_as_before():
    p = parse_quantity("16 B/param × 70B params", "bytes")
    assert p.value == 1.12e12 and p.noun == ""


def test_b_read_two_ways_never_gives_two_values_of_one_dimension():
    """Unreachable, and why: a form whose ``B`` reads as bytes or as a billion never has two readings of the asked
    dimension with different values, so there is never an "other" value to show beside the chosen one.

    Reading a ``B`` as a billion instead of a byte is the map ψ(v, B^k·D) = (v·10^(9k), D): it multiplies the value by
    10⁹ for every power of B it takes away.  ψ commutes with every operation an answer may use: ``*`` and ``/``
    add and subtract the powers, ``^`` and ``sqrt`` scale them, and ``+``/``-`` join only equal dimensions, so both
    sides are scaled alike.  So every reading of an expression is ψ⁻¹ of the one where every B is a billion: two
    readings with the same dimension (the asked one) have the same value.  Every other symbol with two readings
    (``TFLOPs``: FLOP or FLOP/s; ``b``: bytes or bits; ``x``: a count or a ratio) has the same factor in both, so
    only a B's reading trades a dimension for a value.  The other kinds of two readings
    (``1.5k``: a multiple of the base unit or of the asked one) are shown, and refused when both are plausible.
    """
    forms = {"bytes": ["70B × 16 B", "70B*16B", "16 bytes * 70B", "(70B + 16B × 2B) / 2B × 3B", "sqrt(4B × 9B) × 2B"],
             "ratio": ["70B / 7B", "(70B + 16B × 2B) / 2B", "7B / 2B × 3B / 1B"],
             "count": ["70B", "70B × 16 B / 8 B", "7B × 2 B / 1 B"]}
    for kind, texts in forms.items():
        for text in texts:
            p = parse_quantity(text, kind)
            assert not hasattr(p, "why"), (text, p)
            assert p.alt is None, (text, kind, p.alt)


def test_check_json_gives_the_nouns_and_the_two_readings(tmp_path):
    doc = json.loads(drill("--saves", str(tmp_path), "check", "serving.littles_law", "--seed", "1", "16 GPUs",
                           "--json").stdout)
    assert (doc["status"], doc["noun"], doc["asked_noun"], doc["ambiguity"]) == (INVALID, "GPUs", "requests", None)
    r = drill("--saves", str(tmp_path), "check", "serving.littles_law", "--seed", "1", "16 GPUs", "--record")
    assert r.returncode != 0 and "not recorded" in r.stderr
    assert not list(tmp_path.rglob("reviews/*.json")), "an answer counting another thing is never recorded"
    doc = json.loads(drill("--saves", str(tmp_path), "check", "memory.static_given", "--seed", "25", "--convention",
                           "bytes_per_param=16", "70B × 16 B", "--json").stdout)
    assert doc["status"] == "correct" and doc["noun"] is None
    assert doc["ambiguity"] == {"chosen": "1120 GB", "other": None,
                                "b_readings": [{"typed": "70B", "read_as": "billion"},
                                               {"typed": "16 B", "read_as": "bytes"}]}
