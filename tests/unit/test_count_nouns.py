"""What a count counts: a count answer with the question's noun reads, with another noun it is refused.

A count is a plain number, so without nouns ``16 GPUs`` read as 16 on a question counting requests and was graded
as if it answered it.  Each count formula says what its result counts (engine.count_nouns.FORMULA_NOUNS), the reader
works out what the answer counts, expressions included, and the answer kind refuses a mismatch, never grading it.
"""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import count_nouns as cn
from engine.answers import parse_quantity
from engine.count_nouns import NotCounted, Noun
from engine.formulas import inputs
from engine.formulas import registry as formulas
from engine.formulas.core import Input
from engine.grading import Expected, grade, read, understood
from engine.langs import EN, ZH
from engine.status import INVALID
from engine.units import UNIT_KINDS
from question_bank import registry
from question_bank.spec import Given
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


# --------------------------------------------------------------------------- what a given counts

def _count_givens(seeds=(1,)):
    """(template, seed, given) for every numeric count given of the bank."""
    for tid in sorted(registry.REGISTRY):
        for seed in seeds:
            for g in problems.problem(tid, seed).givens:
                if not isinstance(g.value, (str, list, tuple)) and UNIT_KINDS[g.kind].counted:
                    yield tid, seed, g


def test_every_count_input_says_what_it_counts():
    """The input table is the one source: each count declaration names its noun, or says it is a size, a factor,
    a duration or a switch (a convention's choice is one by itself)."""
    declared = [i for i in vars(inputs).values() if isinstance(i, Input)]
    bound = [i for f in formulas.catalogue() for i in f.inputs]
    missing = sorted({i.name for i in declared + bound if i.kind == "count" and i.counted is None})
    assert missing == [], f"count inputs that say nothing of what they count: {missing}"
    assert inputs.N_GPUS.noun == Noun.GPUS and inputs.HIDDEN.noun is None and inputs.HIDDEN.counted == NotCounted.SIZE
    assert inputs.RECIPE.counted == NotCounted.SWITCH


def test_every_count_given_of_every_template_declares_its_noun():
    """Each count given of each template (seed 1; seeds 1-3 in make test-deep) says what it counts, taken from the
    formula input it feeds (engine/formulas/inputs.py), and is shown with its noun in both languages."""
    seeds = (1, 2, 3) if problems.lane == "deep" else (1,)
    silent, shown = [], 0
    for tid, seed, g in _count_givens(seeds):
        if g.counts is None:
            silent.append(f"{tid} (seed {seed}): {g.name} ({g.label_en})")
        elif g.noun is not None:
            en, zh = cn.counted(g.display_in(EN).removesuffix(f" {g.noun.value}").removesuffix(f" {cn.SPELLINGS[g.noun][1]}"),
                                g.noun)
            assert g.display_in(EN) == en, (tid, g.display_in(EN))
            assert g.display_in(ZH) == zh, (tid, g.display_in(ZH))
            shown += 1
    assert not silent, "count givens that say nothing of what they count:\n  " + "\n  ".join(silent[:20])
    assert shown > 300


@pytest.mark.parametrize("tid, name, en, zh", [
    ("communication.ddp_overlap_chain", "n", "GPUs", "个 GPU"), ("inference.prefill_time", "tokens", "tokens", "个 token"),
    ("memory.activation_chain", "a", "heads", "个注意力头"), ("pipeline.bubble_1f1b_given", "m", "micro-batches", "个微批次"),
])
def test_a_count_given_is_shown_with_its_noun_as_an_answer_is(tid, name, en, zh):
    g = next(g for g in problems.problem(tid, 1).givens if g.name == name)
    number = f"{int(g.value):,}"
    assert g.display_in(EN) == f"{number} {en}" and g.display_in(ZH) == f"{number} {zh}"
    assert g.display == g.display_in(EN)


def test_a_given_of_one_is_singular_and_a_size_is_a_bare_number():
    one = Given("b", "Micro-batch size b", "微批次大小 b", 1.0, counts=Noun.SEQUENCES)
    assert (one.display_in(EN), one.display_in(ZH)) == ("1 sequence", "1 条序列")
    size = Given("h", "Hidden size h", "隐藏维度 h", 8192.0, counts=NotCounted.SIZE)
    assert (size.display_in(EN), size.display_in(ZH)) == ("8,192", "8,192")


def test_every_given_written_with_its_noun_reads_as_its_number():
    """What the table shows is what a learner copies: each count given as displayed, in either language, reads as its
    number and its noun, alone and inside an expression of another kind."""
    bad = []
    for tid, _, g in _count_givens():
        if g.noun is None:
            continue
        for lang in (EN, ZH):
            shown = g.display_in(lang)
            p = parse_quantity(shown, "count")
            if hasattr(p, "why") or not math.isclose(p.value, g.value, rel_tol=1e-3) or p.noun != g.noun:
                bad.append(f"{tid}: {shown!r} reads {p}")
            t = parse_quantity(f"{shown} × 2 s", "time")
            if hasattr(t, "why") or not math.isclose(t.value, 2 * g.value, rel_tol=1e-3):
                bad.append(f"{tid}: {shown!r} × 2 s reads {t}")
    assert not bad, "\n  ".join(bad[:12])


NUMBERS = st.integers(min_value=1, max_value=10**6)
NOUNS = st.sampled_from(sorted(Noun))


@settings(max_examples=problems.examples(40))
@given(NUMBERS, NOUNS, st.data())
def test_a_number_written_with_its_noun_reads_as_the_bare_number_in_an_expression(n, noun, data):
    """A given copied with its noun into a whiteboard expression (any spelling, either language) cancels: the
    expression reads as it does with the bare number, on a question of another kind and on a count question."""
    spelled = data.draw(st.sampled_from([*cn.SPELLINGS[noun], cn.counted(str(n), noun)[1]]))
    written = spelled if spelled.startswith(str(n)) else f"{n} {spelled}"
    for template, kind in (("{} × 989 TFLOPS", "flop_rate"), ("{} × 16 B", "bytes"), ("({}) / 4", "count")):
        bare, with_noun = (parse_quantity(template.format(x), kind) for x in (str(n), written))
        assert not hasattr(with_noun, "why"), (written, kind, with_noun)
        assert with_noun.value == bare.value, (written, kind)
    # a Chinese classifier alone (16 个块: 块 is one) names no noun: it reads on any count question
    word = written.split()[-1]
    word = word[1:] if len(word) > 1 and word[0] in cn.CLASSIFIERS else word
    assert parse_quantity(written, "count").noun == ("" if word in cn.CLASSIFIERS else noun)


@pytest.mark.parametrize("text, exp", [
    ("2048 GPUs × 989 TFLOPS", Expected("number", 2048 * 989e12, "flop_rate", "PFLOPS")),
    ("2048 个 GPU × 989 TFLOPS", Expected("number", 2048 * 989e12, "flop_rate", "PFLOPS")),
    ("70e9 params * 16 bytes/param", Expected("number", 1.12e12, "bytes", "GB")),
    ("70B 个参数 × 16 字节/参数", Expected("number", 1.12e12, "bytes", "GB")),
    ("512 prompts × 8 responses/prompt × 2048 tokens/response",
     Expected("number", 512 * 8 * 2048, "count", "", integer=True, noun=Noun.TOKENS)),
    ("4 micro-batches × 2 sequences", Expected("number", 8, "count", "", integer=True)),
])
def test_givens_nouns_cancel_as_on_a_whiteboard(text, exp):
    assert grade(text, exp).status == "correct", grade(text, exp).message_in(EN)
