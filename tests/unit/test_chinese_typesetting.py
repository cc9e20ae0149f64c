"""Every template as a Chinese screen shows it is typeset as Chinese is written (engine/typography.py).

Each template's prompt, worked solution, answer display, title, ``ask --json`` fields, formula card and the
verdict lines of a few answers to it (right, near, a factor off, a named mistake) in Chinese: no English unit
word or plural after a number (``5.533 day``, ``2 GPUs``), no half-width punctuation next to a Chinese
character (``精度: fp8``), no prose bracket around Chinese in ASCII (``(当天…)``), % after a space as every
unit.  The same texts in English, verdict lines included: % after a space.  In both, a card's symbol table names
an input's unit once.  Seed 1 in ``make test``; seeds 1-3 in ``make test-deep``.
"""

from __future__ import annotations

import re
from functools import lru_cache

import pytest

from engine.grading import display_number, grade
from engine.langs import EN
from engine.typography import en_typeset, typeset, zh_typeset
from engine.verdicts import KindName
from question_bank import cards, registry
from tests import problems

ZH = "zh"
CJK = "\u4e00-\u9fff"
SEEDS = (1, 2, 3) if problems.lane == "deep" else (1,)
ENGLISH_UNIT = re.compile(r"\d (days?|hours?|hrs?|minutes?|mins?|seconds?|secs?|GPUs|nodes|requests|experts|cards"
                          r"|h|min|s|x)(?![\w/·²³⁻-])")
HALF_WIDTH = re.compile(rf"[{CJK}][:;,?!]|[:;,?!] ?[{CJK}]")
MATH = set("=×·+−-÷^*<>≈√²³_/")
PROSE_BRACKET = re.compile(r"\(([^()]*)\)")
PERCENT = re.compile(r"\d%")
UNIT_TWICE = re.compile(r"[(（]([^()（）]+)[)）] \[\1\]$")  # 峰值算力（FLOP/s） [FLOP/s]


def defects(text: str) -> list[str]:
    """What in ``text`` is not typeset as Chinese is written."""
    found = [f"English unit {m.group()!r}" for m in ENGLISH_UNIT.finditer(text)]
    found += [f"half-width {m.group()!r}" for m in HALF_WIDTH.finditer(text)]
    found += [f"ASCII bracket around Chinese {m.group()!r}" for m in PROSE_BRACKET.finditer(text)
              if re.search(f"[{CJK}]", m.group(1)) and not MATH & set(m.group(1))
              and not (m.start() and text[m.start() - 1].isalpha())  # min(峰值, …) is a function's call
              # a figure's bracket right before a full-width aside stays ASCII (engine/typography.py)
              and text[m.end():m.end() + 1] != "（"]
    found += [f"% without a space {m.group()!r}" for m in PERCENT.finditer(text)]
    return found


@lru_cache(maxsize=512)  # both tests read them: graded once
def _verdicts(tid: str, seed: int) -> tuple:
    """The verdicts of a few answers to each number step: right, 15 % off, 5× off, and each named mistake's value."""
    out = []
    for s in problems.problem(tid, seed).steps:
        e = s.expected
        if e.kind != KindName.NUMBER:
            continue
        values = [float(e.value) * f for f in (1.0, 0.85, 5.0)] + [m.value for m in e.misses]
        out += [grade(display_number(v, e.unit_kind, e.unit), e) for v in values]
    return tuple(out)


def _verdict_lines(tid: str, seed: int, lang: str) -> list[tuple[str, str]]:
    """A verdict as the app and ``drill check`` say it: the verdict line, the band, the mistake named, the notes."""
    out = []
    for v in _verdicts(tid, seed):
        out += [("verdict", v.message_in(lang)), ("band", v.band_in(lang)), ("diagnosis", v.diagnosis_in(lang))]
        out += [("note", n) for n in v.notes_in(lang)]
        out += [("verdict figure", v.given_in(lang)), ("verdict figure", v.expected_in(lang))]
    return out


def _texts(tid: str, seed: int, lang: str = ZH) -> list[tuple[str, str]]:
    p = problems.problem(tid, seed)
    d = p.to_dict(lang)
    out = [("prompt", p.prompt(lang)), ("title", d["title"])]
    for s, sd in zip(p.steps, d["steps"]):
        out += [("solution", line) for line in s.solution_lines(lang)]
        out += [("answer display", s.expected.display_in(lang)), ("json display", sd["answer"]["display"])]
        out += [("misconception", m["label"]) for m in sd["misconceptions"]]
    return out + _verdict_lines(tid, seed, lang)


@pytest.mark.parametrize("tid", sorted(registry.REGISTRY))
def test_every_template_is_typeset_as_chinese(tid):
    t = registry.get(tid)
    assert re.search(f"[{CJK}]", t.title_zh), f"{tid}: its Chinese title {t.title_zh!r} has no Chinese"
    texts = [("card", line) for line in cards.card_lines(t, ZH)]
    for seed in SEEDS:
        texts += [(f"{part} (seed {seed})", x) for part, x in _texts(tid, seed)]
    bad = [f"{part}: {found} in {line!r}" for part, text in texts for line in text.splitlines()
           for found in defects(line)]
    bad += [f"card: the unit twice in {line!r}" for part, line in texts if part == "card" and UNIT_TWICE.search(line)]
    assert not bad, f"{tid}:\n  " + "\n  ".join(bad[:12])
    assert re.search(f"[{CJK}]", problems.problem(tid, 1).to_dict(ZH)["title"])


@pytest.mark.parametrize("tid", sorted(registry.REGISTRY))
def test_every_template_spaces_percent_in_english(tid):
    """The bank's English writes "45% MFU" by hand and with f"{mfu:.0%}": every text a problem shows is typeset."""
    texts = [("card", line) for line in cards.card_lines(registry.get(tid), EN)]
    for seed in SEEDS:
        texts += [(f"{part} (seed {seed})", x) for part, x in _texts(tid, seed, EN)]
    bad = [f"{part}: % without a space in {line!r}" for part, text in texts for line in text.splitlines()
           if PERCENT.search(line)]
    bad += [f"card: the unit twice in {line!r}" for part, line in texts if part == "card" and UNIT_TWICE.search(line)]
    assert not bad, f"{tid}:\n  " + "\n  ".join(bad[:12])


@pytest.mark.parametrize("written, typeset_", [
    ("at 45% MFU", "at 45 % MFU"), ("plan at 60-80% utilisation, not 100%:", "plan at 60-80 % utilisation, not 100 %:"),
    ("MFU = 50.03%; HFU 66.7%", "MFU = 50.03 %; HFU 66.7 %"), ("PaLM 46%, 1,000%", "PaLM 46 %, 1,000 %"),
    ("~45%", "~45 %"), ("45 %", "45 %"),
    # kept: % after a name or inside a formula, a unit expression that starts with %, an escape in a link
    ("x2%y", "x2%y"), ("a%b", "a%b"), ("5%/h", "5%/h"), ("https://a.b/c%20d", "https://a.b/c%20d"), ("fp8%", "fp8%"),
])
def test_english_spaces_percent_after_a_number_only(written, typeset_):
    assert en_typeset(written) == typeset_
    assert zh_typeset(written) == typeset_  # one rule in both languages


def test_chinese_spaces_percent_before_a_chinese_word():
    assert zh_typeset("占 45%的时间") == "占 45 %的时间" and zh_typeset("利用率为80%。") == "利用率为80 %。"


@pytest.mark.parametrize("shown, written", [
    ("5.533 day", "5.533 天"), ("478000 s (5.533 day)", "478000 秒（5.533 天）"), ("2 GPUs", "2 张 GPU"),
    ("7.813 h", "7.813 小时"), ("2.825 min", "2.825 分钟"), ("2.095 x", "2.095 倍"), ("49.21%", "49.21 %"),
    ("精度: fp8", "精度：fp8"), ("(当天至少答过一道题才算一天)", "（当天至少答过一道题才算一天）"),
    ("平均无故障时间 (MTBF) 是多少?", "平均无故障时间（MTBF）是多少？"),
    # kept: a formula's brackets, a link's name, a compound unit, ms, a figure's bracket before a full-width one
    ("2(N − 1) 步", "2(N − 1) 步"), ("PCIe 5.0 x16，", "PCIe 5.0 x16，"), ("900 GB/s", "900 GB/s"),
    ("17.5 ms", "17.5 ms"), ("0.0175 s (17.5 ms)（带宽项）", "0.0175 秒 (17.5 ms)（带宽项）"),
    ("即 B ≥ F_peak / BW × bytes / (2g)时", "即 B ≥ F_peak / BW × bytes / (2g)时"),  # an operand's bracket
])
def test_chinese_is_typeset_by_one_rule(shown, written):
    assert zh_typeset(shown) == written and typeset(shown, ZH) == written
    assert typeset(shown, EN) == en_typeset(shown)  # English follows the % rule alone: 5.533 day stays
    assert not [d for d in defects(written) if "bracket" not in d or "带宽项" not in written]


def test_the_checks_catch_the_issue_examples():
    assert defects("正确答案：5.533 day") and defects("你的答案：2 GPUs") and defects("精度: fp8")
    assert defects("(当天至少答过一道题才算一天)") and defects("40.05%")
    assert not defects("正确答案：5.533 天；你的答案：2 张 GPU；精度：fp8；40.05 %")


def test_a_verdict_is_typeset_by_the_same_rule_in_both_languages():
    """A verdict's figures and words go through the rule the problem's texts do, whatever wrote them: a mistake's
    label written "100%" (engine/formulas), a convention's figure in minutes said in a Chinese sentence."""
    from engine.grading import Expected, Miss

    e = Expected("number", 1000.0, "time", "s", misses=(Miss("no_mfu", "assumed 100% utilisation (left out MFU)",
                                                              400.0, "假设了 100% 利用率（漏了 MFU）"),))
    v = grade("400 s", e)
    assert v.diagnosis_in(EN) == "assumed 100 % utilisation (left out MFU)"
    assert "assumed 100 % utilisation" in v.message_in(EN) and "100 % 利用率" in v.message_in(ZH)
    assert "about 2.5× too low" in v.message_in(EN) and "偏低约 2.5 倍" in v.message_in(ZH)
    assert v.expected_in(ZH) == "1000 秒" and not defects(v.message_in(ZH))
    refused = grade("45% × 2 GB", e)  # an answer that cannot be read is quoted as typed
    assert "45% × 2 GB is B" in refused.message_in(EN)
