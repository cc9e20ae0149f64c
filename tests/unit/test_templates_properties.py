"""Properties every registered template must have, over many seeds.

For each template: the problem is well-formed in English and Chinese (and the
Chinese givens and prompts are Chinese, not English with one CJK character), its
given values are finite, positive and shown exactly, every prefixed unit is
defined, the expected answer is what the engine formula gives for the step's
inputs *and* what the worked solution's substitution line gives with the numbers
as printed (the check that catches wrong inputs: exactly for whole numbers, which
are settled by hand), the answer's own display text grades ``correct``, no
misconception lies within tolerance of the right answer and typing one names it, no
wrong method was dropped for landing within tolerance (only an approximation may),
the same seed gives the same problem, and there are at least 50 distinct
problems.  Then the bank as a whole: at least 40 templates, at least 8 chains of
3-5 steps, every topic.

Seeds: every template at the lane's fixed seeds (tests/problems.py: 0-40 in ``make test``, one in
``make test-fast``, 0-199 in ``make test-deep``), its problems made once per worker and shared by every test
here; the ``deep`` twins of the Hypothesis properties draw fresh random seeds (``make test-deep``).
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import expr as ex
from engine import formulas
from engine.answers import Unreadable, parse_list, parse_quantity
from engine.grading import CONVENTION, CORRECT, display_number, distance, grade
from engine.units import DTYPE_BYTES, UNIT_SYMBOLS
from engine.verdicts import bytes_misses
from question_bank import hardware, models, registry
from question_bank.spec import WHOLE_MARGIN, Given, rounding_margin, settled_by_hand
from question_bank.templates import pipeline
from question_bank.topics import TOPICS
from tests import problems

TEMPLATES = registry.all_templates()
IDS = [t.id for t in TEMPLATES]
SEEDS = st.integers(min_value=0, max_value=2**31 - 1)  # the deep lane's fresh random seeds
EXAMPLES = settings(max_examples=25, deadline=None)
deep = pytest.mark.deep
CJK = re.compile(r"[\u4e00-\u9fff]")


def _numbers(value) -> list[float]:
    if isinstance(value, str):
        return []
    if isinstance(value, (list, tuple)):
        return [float(v) for v in value]
    return [float(value)]


@pytest.mark.parametrize("tid", IDS)
def test_problem_is_well_formed_in_both_languages(tid):
    for p in problems.each(tid):
        _check_well_formed(p)


@deep
@pytest.mark.parametrize("tid", IDS)
@EXAMPLES
@given(seed=SEEDS)
def test_problem_is_well_formed_in_both_languages_at_random_seeds(tid, seed):
    _check_well_formed(registry.get(tid).generate(seed))


def _check_well_formed(p) -> None:
    t = p.template
    assert p.steps, "a problem has at least one step"
    assert t.target_seconds > 0 and all(s.target_seconds > 0 for s in p.steps)
    for lang in ("en", "zh"):
        assert p.prompt(lang).strip()
        for s in p.steps:
            assert s.prompt(lang).strip(), f"step {s.index + 1} has no {lang} prompt"
    for s in p.steps:
        assert CJK.search(s.prompt("zh")), f"step {s.index + 1}: the Chinese prompt has no Chinese: {s.prompt('zh')!r}"
        assert not CJK.search(s.prompt("en")), f"step {s.index + 1}: Chinese in the English prompt"
    assert CJK.search(p.prompt("zh")) and not CJK.search(p.prompt("en"))
    assert bool(p.conventions("en").strip()) == bool(p.conventions("zh").strip()), "conventions in one language only"
    assert bool(p.scenario("en").strip()) == bool(p.scenario("zh").strip()), "scenario in one language only"
    for g in p.givens:
        assert g.label("en").strip() and g.label("zh").strip() and g.display.strip()
        for v in _numbers(g.value):
            assert math.isfinite(v) and v > 0, f"given {g.name} = {g.value!r} is not finite and positive"


# English that may stand in Chinese text: model and GPU names, unit symbols, precisions, and the names
# of operations and attention layouts that Chinese writing keeps in English.
TECH_TERMS = {"MHA", "GQA", "MQA", "LayerNorm", "RMSNorm", "Softmax", "GELU", "ReLU", "SiLU", "tanh", "axpy",
              "dropout", "mask", "max", "KV", "Cache", "Tensor", "Core", "MoE", "MLA", "NVLink",
              "AWS", "FSx", "Lustre",  # a storage product keeps its name
              # kernels, functions and formats keep their names, as do the papers, models and tools that named them
              "SwiGLU", "GeGLU", "RoPE", "adaLN", "DiT", "logit", "exp", "cos", "sin", "rotate", "Primer", "Nemotron",
              "Gemma", "GPTQ", "AWQ", "HQQ", "QLoRA", "NVFP", "MXFP", "llama", "cpp", "GEMM",
              # switches and their port standards keep their product names
              "NVIDIA", "Broadcom", "Tomahawk", "Spectrum", "Spectrum-3", "Spectrum-4", "Quantum", "Quantum-2",
              "Quantum-X800", "SN4700", "SN5600", "SN5610", "Q3200", "Q3400", "QM8700", "QM9700", "HDR", "NDR", "GbE"}
_NAMES = [m.name for m in models.ALL] + [g.name for g in hardware.ALL] \
    + [r.name for r in hardware.SEED_TABLE] \
    + list(UNIT_SYMBOLS) + list(DTYPE_BYTES)
VOCABULARY = TECH_TERMS | {w for name in _NAMES for w in re.findall(r"[A-Za-z]+", name) + name.split()}
ENGLISH_WORD = re.compile(r"[A-Za-z]{3,}")
WORD = r"[A-Za-z][A-Za-z0-9'\-]*"
ENGLISH_RUN = re.compile(rf"{WORD}(?:[ ]+{WORD}){{2,}}")


@pytest.mark.parametrize("tid", IDS)
def test_chinese_givens_and_prompts_are_in_chinese(tid):
    """In Chinese, a given's value has no English word (3+ letters) beyond names, units and technical
    terms ("a hypothetical accelerator", "(tensor parallel)" must be translated), and a prompt has no run of
    three or more English words: a choice question offers its choices by their Chinese labels (请回答「访存受限」
    或「算力受限」), which the grader reads, not by the English keys (``reduce memory traffic``)."""
    for p in problems.each(tid):
        seed = p.seed
        for label, shown in p.given_rows("zh"):
            english = [w for w in ENGLISH_WORD.findall(shown) if w not in VOCABULARY]
            assert not english, f"seed {seed}: given {label!r} shows {shown!r} in Chinese"
        for text in [p.scenario("zh"), p.conventions("zh")] + [s.prompt("zh") for s in p.steps]:
            for run in ENGLISH_RUN.findall(text):
                assert all(w in VOCABULARY for w in run.split()), f"seed {seed}: English {run!r} in {text!r}"


@pytest.mark.parametrize("tid", IDS)
def test_every_choice_is_offered_as_it_is_shown(tid):
    """A choice's answer is written (feedback, "expected: ...") as the prompt offers it, in both languages."""
    for p in problems.each(tid):
        seed = p.seed
        for s in p.steps:
            for c in s.expected.choices:
                for lang in ("en", "zh"):
                    assert c.shown(lang) in s.prompt(lang), f"seed {seed}: {c.shown(lang)!r} not offered"


# the app's one Chinese term for memory-bound (the cheat-sheet's); the roofline article's 带宽受限 is only read
MEMORY_BOUND_ZH, OTHER_ZH = "访存受限", "带宽受限"


def test_memory_bound_has_one_chinese_name():
    from drill.core.i18n import t
    from engine.choices import MEMORY_BOUND

    assert MEMORY_BOUND.shown("zh") == t("memory-bound", "zh") == MEMORY_BOUND_ZH
    assert MEMORY_BOUND.matches(OTHER_ZH)
    labels = [m.label_zh for f in formulas.CATALOGUE for m in f.misconceptions]
    assert not [x for x in labels if OTHER_ZH in x]


@pytest.mark.parametrize("tid", IDS)
def test_no_problem_says_memory_bound_the_other_way(tid):
    for p in problems.each(tid, problems.seeds()[:20]):
        texts = [p.prompt("zh")] + [line for s in p.steps for line in s.solution_lines("zh")] + \
            [c.shown("zh") for s in p.steps for c in s.expected.choices]
        assert not [x for x in texts if OTHER_ZH in x], f"{tid} seed {p.seed} says {OTHER_ZH}"


# "a"/"an" before a number or a precision (the matrix "A 8192×4096" is a name, not an article)
ARTICLE = re.compile(r"\b(an?|An?) (\d[\d,]*|(?:fp|bf|int)\d+)")


def _spoken_with_a_vowel(token: str) -> bool:
    """``8``, ``80``-``89``, ``800``, ``8,192``, ``11``, ``18``, ``11008``: eight…, eleven…, eighteen…;
    ``fp16``, ``int8``: ef…, in…; ``bf16``: bee…"""
    if not token[0].isdigit():
        return not token.startswith("bf")
    digits = token.replace(",", "")
    lead = int(digits[:len(digits) % 3 or 3])  # the leading group of thousands, as it is read
    return str(lead).startswith("8") or lead in (11, 18)


def test_spoken_articles():
    assert [_spoken_with_a_vowel(x) for x in ("8", "86", "800", "8,192", "11008", "18", "110", "16384", "1", "int8",
                                              "fp16", "bf16")] == [True] * 6 + [False] * 3 + [True, True, False]
    assert [pipeline.an(x) for x in ("RMSNorm", "LayerNorm", "8-stage", "16-stage", "11008×4096", "fp8")] == [
        "an RMSNorm", "a LayerNorm", "an 8-stage", "a 16-stage", "an 11008×4096", "an fp8"]


@pytest.mark.parametrize("tid", IDS)
def test_articles_before_numbers_and_precisions_are_spoken_right(tid):
    """``an 8-stage pipeline``, ``an 8,192 × 4096 tensor``, ``an fp16 kernel``, ``a 16-stage``, ``a bf16``."""
    for p in problems.each(tid):
        seed = p.seed
        texts = [p.prompt("en")] + [line for s in p.steps for line in s.solution_lines("en")]
        for text in texts:
            for m in ARTICLE.finditer(text):
                article, token = m.group(1).lower(), m.group(2)
                if m.group(1) == "A" and re.match(r"[\d,]+×", text[m.start(2):]):
                    continue  # the matrix A
                assert article == ("an" if _spoken_with_a_vowel(token) else "a"), f"seed {seed}: {m.group()!r}"


PREFIXED_UNIT = re.compile(r"(?<![\w/])([kMGTPE](?:B|FLOP)S?)(/s)?(?![\w/])")


@pytest.mark.parametrize("tid", IDS)
def test_every_prefixed_unit_in_the_givens_is_defined(tid):
    """A given shown in MB, TB or TFLOP has that unit defined in the problem's text (GB = 1e9 B ...)."""
    for p in problems.each(tid):
        seed = p.seed
        text = " ".join([p.conventions("en"), p.scenario("en")] + [s.prompt("en") for s in p.steps])
        for g in p.givens:
            if isinstance(g.value, str):
                continue
            for unit, rate in PREFIXED_UNIT.findall(g.display):
                defined = (f"{unit} = ", f"{unit}{rate} = ", f"{unit.rstrip('S')} = ", f"{unit.rstrip('S')}S = ")
                assert any(d in text for d in defined), f"seed {seed}: {g.display} but {unit} is not defined: {text!r}"


def test_profiled_intensities_are_realistic():
    t = registry.get("roofline.intensity_counts")
    values = [float(t.generate(seed).steps[0].expected.value) for seed in range(300)]
    assert min(values) >= 0.1 and max(values) <= 2000 and len(set(values)) > 50


# inputs that are 0 in a real world: a symmetric quantisation scheme stores no zero point
MAY_BE_ZERO = {"zero_bits", "overlap", "phi_reward"}  # overlap: a yes/no input (0 = the phases add); phi_reward: a
# rule-based reward has no reward model
# the enumerations whose first choice is 0: the sync RL schedule, every routed copy counted off, a ring all-reduce
MAY_BE_ZERO |= {"mode", "count_local", "latency_steps"}


@pytest.mark.parametrize("tid", IDS)
def test_answers_come_from_the_engine_and_grade_their_own_display(tid):
    for p in problems.each(tid):
        _check_answers(p)


@deep
@pytest.mark.parametrize("tid", IDS)
@EXAMPLES
@given(seed=SEEDS)
def test_answers_come_from_the_engine_and_grade_their_own_display_at_random_seeds(tid, seed):
    _check_answers(registry.get(tid).generate(seed))


def _check_answers(p) -> None:
    for s in p.steps:
        e = s.expected
        verdict = grade(e.display, e)
        assert verdict.status == CORRECT, f"step {s.index + 1}: {e.display!r} graded {verdict.status}: {verdict.message}"
        if e.kind != "number":
            continue
        assert s.formula, "a number answer names its engine formula"
        for k, v in s.inputs.items():
            for x in _numbers(v):
                assert math.isfinite(x) and (x > 0 or (x == 0 and k in MAY_BE_ZERO)), (
                    f"step {s.index + 1}: input {k} = {v!r} is not finite and positive")
        value = formulas.get(s.formula).evaluate(**s.inputs)
        if e.integer:
            value = float(round(value))
        assert math.isfinite(float(e.value)) and float(e.value) > 0
        assert distance(value, float(e.value)) < 1e-12, f"step {s.index + 1}: {s.formula} gives {value}, expected {e.value}"
        assert e.unit or e.integer or e.unit_kind == "count", f"step {s.index + 1} does not say its unit"
        assert formulas.get(s.formula).formula_text() in s.solution, "the worked solution shows the engine formula"
        for m in e.misses:
            if e.integer:  # whole numbers are graded exactly: only an exact coincidence is ambiguous
                assert round(m.value) != float(e.value), f"step {s.index + 1}: misconception {m.key} equals the answer"
                continue
            assert distance(m.value, float(e.value)) > e.tolerance, (
                f"step {s.index + 1}: misconception {m.key} ({m.value}) is within tolerance of {e.value}")


_LIST = re.compile(r"\[([^\[\]]*)\]")


def _substitution_value(line: str) -> float:
    """The worked solution's substitution line (``  = floor((3.2 × 10¹¹ − 1.38 × 10¹¹) / (1.678 × 10⁸))``)
    read back with engine.expr, lists (``sum([25, 60])``) bound to names."""
    text = line.strip()
    assert text.startswith("= "), line
    env: dict[str, tuple[float, ...]] = {}

    def bind(m: re.Match) -> str:
        name = f"list{len(env)}"
        env[name] = tuple(ex.evaluate(ex.parse(ex.normalise(x))) for x in m.group(1).split(", "))
        return name

    text = _LIST.sub(bind, text[2:])
    node = ex.parse(ex.normalise(text), {n: n for n in env}, functions=ex.FUNCTIONS, max_len=5000)
    return ex.evaluate(node, env)




def test_a_substitution_line_reads_back():
    assert _substitution_value("  = floor((3.2 × 10¹¹ − 1.38 × 10¹¹) / (1.678 × 10⁸))") == 1084  # the old bug
    assert _substitution_value("  = 1 − 4 × sum([25, 60]) / (len([25, 60]) × max([25, 60]))") == pytest.approx(
        1 - 4 * 85 / (2 * 60))


@pytest.mark.parametrize("tid", IDS)
def test_the_worked_substitution_gives_the_stated_answer(tid):
    """Line 2 of the formula's solution, with the numbers as printed (4 significant figures), evaluates to
    the answer: exactly for whole numbers (it printed 1084 for an answer of 1085), within tolerance else."""
    for p in problems.each(tid):
        _check_substitution(p)


def _check_substitution(p) -> None:
    for s in p.steps:
        if s.expected.kind != "number":
            continue
        lines = list(s.solution)
        i = lines.index(formulas.get(s.formula).formula_text())
        got, want = _substitution_value(lines[i + 1]), float(s.expected.value)
        if s.expected.integer:
            assert got == want, f"seed {p.seed} step {s.index + 1}: {lines[i + 1].strip()} gives {got:g}, not {want:g}"
        else:
            assert distance(got, want) <= s.expected.tolerance / 10, (p.seed, s.index + 1, lines[i + 1], got, want)


def _shown_value(g):
    read = parse_list(g.display, g.kind) if isinstance(g.value, (list, tuple)) else parse_quantity(g.display, g.kind)
    assert not isinstance(read, Unreadable), f"given {g.name} shown as {g.display!r} does not read back"
    return read if isinstance(g.value, (list, tuple)) else (read.value,)


@pytest.mark.parametrize("tid", IDS)
def test_problems_are_computed_from_the_givens_as_shown(tid):
    for p in problems.each(tid):
        _check_givens_as_shown(p)


def _check_givens_as_shown(p) -> None:
    """Every number in the givens table is shown exactly (the learner computes with what they see; a step
    whose inputs are only the givens then computes from exactly those) and a whole-number answer is
    settled by whiteboard arithmetic (base.WHOLE_MARGIN)."""
    for g in p.givens:
        if isinstance(g.value, str):
            continue
        values = [float(v) for v in g.value] if isinstance(g.value, (list, tuple)) else [float(g.value)]
        for shown, v in zip(_shown_value(g), values):
            assert distance(shown, v) < 1e-9, f"seed {p.seed}: given {g.name} = {v!r} is shown as {g.display!r}"
    for s in p.steps:
        if s.expected.kind == "number" and s.expected.integer:
            assert settled_by_hand(s.formula, s.inputs), (
                f"seed {p.seed} step {s.index + 1}: {s.formula}{dict(s.inputs)} is within {WHOLE_MARGIN:.1%} of a "
                "whole number")


def test_givens_are_shown_exactly_and_text_in_the_language_asked():
    assert Given("p", "", "", 362.05e12, "flop_rate", "TFLOPS").display == "362.05 TFLOPS"  # not 362.1
    assert Given("b", "", "", 16312e9, "bandwidth", "GB/s").display == "16312 GB/s"
    assert Given("k", "", "", 134217728.0, "bytes", "GB").display == "0.1342 GB"  # 9 figures: 4 shown (round it)
    g = Given("gpu", "GPU", "GPU", "2 × B200 (tensor parallel)", value_zh="2 × B200（张量并行）")
    assert (g.display, g.display_in("en"), g.display_in("zh")) == (
        "2 × B200 (tensor parallel)", "2 × B200 (tensor parallel)", "2 × B200（张量并行）")
    assert Given("dtype", "Precision", "精度", "bf16").display_in("zh") == "bf16"  # no twin: as it is
    p = registry.get("inference.decode_tps").generate(3)
    assert p.given_rows("zh") == [(g.label("zh"), g.display_in("zh")) for g in p.givens]
    assert [d["display"] for d in p.to_dict("zh")["givens"]] == [g.display_in("zh") for g in p.givens]


def test_a_whole_number_is_settled_by_hand_or_its_inputs_are_round():
    # Llama-2-70B's full Φ on 4 × H100: 1084.8 sequences, a whole number only 5-figure arithmetic decides
    assert not settled_by_hand("max_batch_fit", {"gpu_bytes": 320e9, "weight_bytes": 137953296384,
                                                 "kv_bytes_per_seq": 167772160})
    assert settled_by_hand("max_batch_fit", {"gpu_bytes": 160e9, "weight_bytes": 138e9, "kv_bytes_per_seq": 1342177280})
    assert settled_by_hand("micro_batches_for_bubble", {"p": 48, "target": 0.15})  # 266.33: exact fractions
    assert rounding_margin("min_gpus", {"total_bytes": 1120e9, "gpu_bytes": 80e9}) == 0.0


@pytest.mark.parametrize("tid", IDS)
def test_typing_a_misconception_names_it(tid):
    for p in problems.each(tid):
        _check_misconceptions(p)


@deep
@pytest.mark.parametrize("tid", IDS)
@EXAMPLES
@given(seed=SEEDS)
def test_typing_a_misconception_names_it_at_random_seeds(tid, seed):
    _check_misconceptions(registry.get(tid).generate(seed))


def _check_misconceptions(p) -> None:
    for s in p.steps:
        e = s.expected
        for m in e.misses:
            if not m.value:
                continue  # the grader never matches a zero
            v = grade(display_number(m.value, e.unit_kind, e.unit), e)
            assert v.status != CORRECT, f"step {s.index + 1}: misconception {m.key} grades correct"
            if v.status == CONVENTION:
                # a convention whose condition the problem meets gives this value (a ring of 8 or more
                # drops (n−1)/n by the JAX book's convention): it is named instead of the slip
                assert all(c.row.when for c in v.convention), f"step {s.index + 1}: {m.key} graded a convention"
                continue
            # misconceptions that give (nearly) the same value are named together; the slack covers the
            # rounding of the display to 4 significant figures
            same = {x.key for x in e.misses if distance(x.value, m.value) <= 2 * e.tolerance + 1e-3}
            # a unit slip of the right answer (GiB for GB, bits for bytes) landing on the same value is named too
            same |= {u.key for u in bytes_misses(e.value, e.unit or "GB")
                     if e.unit_kind == "bytes" and distance(u.value, m.value) <= 2 * e.tolerance + 1e-3}
            named = set(v.diagnosis_key.split("+"))
            assert m.key in named and named <= same, (
                f"step {s.index + 1}: typing {m.key}'s value diagnosed {v.diagnosis_key!r}")
            if e.integer:
                assert (v.status, v.quality) == ("wrong", 2), f"step {s.index + 1}: a named mistake must be wrong"


# Misconceptions that drop a negligible term or take a limit (the latency of a large message, or of all buckets
# but one, the ring's
# (n-1)/n at many ranks, the KV reads of a short context, writing C of a decode GEMM, (P-1)/m at many
# micro-batches, grouped K/V stored at full width next to a long sequence's as² scores, the group scales of
# quantised weights next to a large KV read): when one lands within tolerance of the answer, the approximation is
# a fine answer.
APPROXIMATIONS = {"no_latency", "latency_once", "no_ring_factor", "no_kv", "no_attention", "no_output", "ideal_time",
                  "limit", "mha_kv", "no_kv_step", "no_ring_factor_a2a", "no_group_overhead_decode",
                  "every_request",  # R for R − 1 requests sharing a prefix, at hundreds of requests
                  "no_ttft",  # a request of thousands of tokens (an RL rollout): n·TPOT swamps the TTFT
                  "queue_wait_percentile",
                  # an owned GPU-hour is mostly its purchase: its electricity's PUE, or the electricity against a
                  # rental price, is a few % at 2026 prices
                  "no_pue", "no_power"}  # at 85 %+ utilisation the wait is most of the response, tails alike


@pytest.mark.parametrize("tid", IDS)
def test_no_wrong_method_lands_within_tolerance(tid):
    """A misconception build_problem dropped as too close (``Step.too_close``) would grade a wrong method
    correct: the template must not draw such a case (the peak quoted for a kernel just below the ridge)."""
    for p in problems.each(tid):
        for s in p.steps:
            wrong = set(s.too_close) - APPROXIMATIONS
            assert not wrong, f"seed {p.seed}, step {s.index + 1}: {sorted(wrong)} within tolerance of the answer"


def test_the_attainable_intensity_is_clear_of_the_ridge():
    """Quoting the peak (memory-bound) or I × BW (compute-bound) is never graded correct."""
    t = registry.get("roofline.attainable")
    for seed in range(300):
        s = t.generate(seed).steps[0]
        e, i = s.expected, s.inputs["intensity"]
        assert abs(i / (s.inputs["peak_flops"] / s.inputs["bandwidth"]) - 1) > 0.15, f"seed {seed}: I = {i}"
        for wrong in (s.inputs["peak_flops"], i * s.inputs["bandwidth"]):
            if wrong != e.value:
                assert grade(display_number(wrong, e.unit_kind, e.unit), e).status != CORRECT, f"seed {seed}"


@pytest.mark.parametrize("tid", IDS)
def test_same_seed_same_problem(tid):
    """Made again, a problem is the same (the shared one was made first; tests/unit/test_unchanged_values.py pins
    seeds 1-40 across revisions). One seed: a generator that reads hidden state differs at any seed (the deep lane
    makes random seeds twice)."""
    t = registry.get(tid)
    for seed in problems.seeds()[:1]:
        again = t.generate(seed)
        for lang in ("en", "zh"):
            assert again.to_dict(lang) == problems.problem(tid, seed).to_dict(lang)


@deep
@pytest.mark.parametrize("tid", IDS)
@settings(max_examples=10, deadline=None)
@given(seed=SEEDS)
def test_same_seed_same_problem_at_random_seeds(tid, seed):
    t = registry.get(tid)
    assert t.generate(seed).to_dict("en") == t.generate(seed).to_dict("en")
    assert t.generate(seed).to_dict("zh") == t.generate(seed).to_dict("zh")


@pytest.mark.parametrize("tid", IDS)
def test_problems_vary_with_the_seed(tid):
    """Over the lane's seeds at least a third of the problems differ (at 41 seeds the bank's least varied
    template has 16 distinct), and never more than the 50 that ``make test-deep`` asks over its 200 seeds
    (test_at_least_50_distinct_problems: a third of 200 would ask 67, more than the deep lane's own bar)."""
    seeds = problems.seeds()
    prompts = {p.prompt("en") for p in problems.each(tid)}
    need = min(len(seeds) / 3, 50)
    assert len(prompts) >= need, f"{tid}: only {len(prompts)} distinct problems over {len(seeds)} seeds"


@pytest.mark.parametrize("tid", ["pipeline.bubble_time_zb1p", "memory.activation_tp_chain"])
def test_no_two_of_the_first_40_seeds_make_one_problem(tid):
    """Seeds 1-40 (the ones a learner meets first, and the record's) give 40 different problems."""
    seen: dict[str, int] = {}
    for seed in range(1, 41):
        text = problems.problem(tid, seed).prompt("en")
        assert text not in seen, f"{tid}: seeds {seen[text]} and {seed} give the same problem"
        seen[text] = seed

@deep
@pytest.mark.parametrize("tid", IDS)
def test_at_least_50_distinct_problems(tid):
    t = registry.get(tid)
    prompts = {t.generate(seed).prompt("en") for seed in range(200)}
    assert len(prompts) >= 50, f"{tid}: only {len(prompts)} distinct problems over 200 seeds"


@deep
@pytest.mark.parametrize("tid", ["cost.gpus_per_rack", "parallelism.grad_accum", "inference.sliding_window_kv",
                                 "memory.lora_params", "memory.lora_chain", "memory.qlora_chain",
                                 "roofline.attention_intensity", "roofline.flash_attention_hbm",
                                 "roofline.chain_flash_attention", "pipeline.inflight_1f1b", "serving.paged_waste",
                                 "inference.decode_attention_intensity", "roofline.norm_intensity",
                                 "roofline.elementwise_intensity", "serving.quant_bits", "serving.prefill_instances",
                                 "serving.decode_instances", "communication.fat_tree_hosts",
                                 "parallelism.dp_min_batch"])
def test_at_least_20_distinct_answers(tid):
    """The issue's bar, for the templates widened to meet it: 20 distinct answers (the steps' values) in 200 seeds."""
    t = registry.get(tid)
    answers = {tuple(str(s.expected.value) if s.expected.kind == "choice" else f"{float(s.expected.value):.6g}"
                     for s in t.generate(seed).steps) for seed in range(200)}
    assert len(answers) >= 20, f"{tid}: only {len(answers)} distinct answers over 200 seeds"


@deep
@pytest.mark.parametrize(("tid", "answers"), [("moe.decode_bound", 2), ("communication.tp_scaling", 2),
                                             ("concepts.phase_bound", 4)])
def test_each_choice_is_at_least_a_fifth_of_the_seeds(tid, answers):
    """A judgement question (memory- or network-bound, comms- or compute-bound, which phase) gives each answer in
    20 %+ of 200 seeds: guessing one answer does not pass."""
    t = registry.get(tid)
    keys = [s.expected.value for seed in range(200) for s in t.generate(seed).steps if s.expected.kind == "choice"]
    shares = {k: keys.count(k) / len(keys) for k in set(keys)}
    assert len(shares) == answers and min(shares.values()) >= 0.2, (tid, shares)


@deep
def test_dp_min_batch_gives_every_answer_the_catalogue_allows():
    """B_min depends only on the chip's peak and NIC, its NVLink domain and the gradient bytes: the catalogue's chips
    with a NIC field (8-GPU nodes, NVL72 racks) and the five recipes (fp8 GEMMs with fp32 gradient reduction last)
    make 20 distinct answers, the issue's bar; every one of them is drawn in 200 seeds."""
    from question_bank.templates.parallelism import _DP_CHIPS, DP_RACKS, DP_RECIPES, FP8_FP32_RECIPE

    f = formulas.get("dp_min_batch_per_device")
    allowed = {f"{f.evaluate(peak_flops=g.peak(p), link_bandwidth=g.scale_out_nic, bytes_per_param=b, gpus_per_node=g.scale_up_domain):.6g}"
               for g in (hardware.get(k) for k in _DP_CHIPS + DP_RACKS) for p, _, b in DP_RECIPES + (FP8_FP32_RECIPE,)
               if g.supports(p)}
    t = registry.get("parallelism.dp_min_batch")
    drawn = {f"{t.generate(seed).steps[0].expected.value:.6g}" for seed in range(200)}
    assert drawn == allowed and len(drawn) >= 20, sorted(allowed - drawn)


@deep
def test_fat_tree_hosts_draws_20_answers_its_switches_and_planes_allow():
    """Hosts = 2(k/2)^tiers x planes: the twelve real switch configurations (radices 32-512) in two tiers, a third
    only up to 144 ports, and 4 or 8 planes (one per GPU of a tray or node) on two tiers up to 256 ports: every
    answer drawn is one of those, and 200 seeds draw at least 20 of them, multi-plane ones among them."""
    from question_bank.templates.communication.network import (
        FABRIC_SWITCHES,
        MULTI_PLANE_MAX_RADIX,
        PLANES,
        THIRD_TIER_MAX_RADIX,
    )

    f = formulas.get("fat_tree_hosts")
    allowed = {f.evaluate(radix=k, tiers=t, planes=1) for _, k, _ in FABRIC_SWITCHES
               for t in ((2, 3) if k <= THIRD_TIER_MAX_RADIX else (2,))}
    allowed |= {f.evaluate(radix=k, tiers=2, planes=p) for _, k, _ in FABRIC_SWITCHES if k <= MULTI_PLANE_MAX_RADIX
                for p in PLANES}
    t = registry.get("communication.fat_tree_hosts")
    drawn = {t.generate(seed).steps[0].expected.value for seed in range(200)}
    assert drawn <= allowed and len(drawn) >= 20, sorted(drawn - allowed)
    assert 16384 in drawn  # DeepSeek-V3's 8 planes of two-tier 64-port trees


@deep
def test_faster_card_gives_every_card_that_can_win_a_fair_share():
    """Which of two cards is faster: the answer is one of the eight cards that can win (V100 cannot: it is never 10 %
    faster than another). Uniform would be 1/8 each; each card wins at least half that, 1/16 of 200 seeds, and the
    answer is card A in 20-80 % of them (naming one letter does not pass)."""
    t = registry.get("concepts.faster_card")
    winners, first = [], 0
    for seed in range(200):
        p = t.generate(seed)
        winners.append(p.steps[0].expected.value)
        first += p.steps[0].expected.value == next(g.value for g in p.givens if g.name == "gpu_a")
    counts = {w: winners.count(w) for w in set(winners)}
    assert len(counts) == 8 and min(counts.values()) >= 200 / 16, counts
    assert 0.2 <= first / 200 <= 0.8, first


# --------------------------------------------------------------------------- #
# The bank as a whole


def test_at_least_40_templates():
    assert len(TEMPLATES) >= 40, f"only {len(TEMPLATES)} templates"


def test_every_topic_is_represented():
    assert {t.topic for t in TEMPLATES} == set(TOPICS)


def test_chains_have_2_to_5_steps_and_there_are_at_least_8():
    """A chain is a follow-up: at least one question after the first (the LoRA and batch chains are two
    steps: the parameters, then the memory they take), at most five."""
    lengths = {t.id: t.chain_length for t in TEMPLATES}
    odd = {tid: n for tid, n in lengths.items() if n != 1 and not 2 <= n <= 5}
    assert not odd, f"chains must have 2-5 steps: {odd}"
    assert sum(1 for n in lengths.values() if n > 1) >= 8


def test_topics_have_more_than_one_difficulty():
    for topic in TOPICS:
        levels = {t.difficulty for t in TEMPLATES if t.topic == topic}
        if levels:
            assert len(levels) > 1, f"{topic}: every template is at difficulty {levels}"


def test_template_ids_start_with_their_topic():
    for t in TEMPLATES:
        assert t.id.split(".")[0] == t.topic, t.id


# --------------------------------------------------------------------------- #
# Pipeline: the micro-batch count is exact for every combination a template draws


@pytest.mark.parametrize("target", pipeline.TARGETS)
def test_micro_batches_for_bubble_is_exact(target):
    f = formulas.get("micro_batches_for_bubble")
    t = Fraction(str(target))
    for p in sorted(set(pipeline.STAGES) | {48, 64}):
        exact = math.ceil((p - 1) * (1 - t) / t)
        assert f.evaluate(p=p, target=target) == exact, (p, target)
        # and it is the smallest m that meets the target (share of total time)
        assert Fraction(p - 1, exact + p - 1) <= t < Fraction(p - 1, exact + p - 2)
