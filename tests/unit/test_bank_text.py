"""The bank's text is data: small defects once found do not come back.

Every template's text over 40 seeds (titles, scenario, conventions, prompts, givens as shown, worked
solutions, choices), the topic names and the app's Chinese strings, checked for: a stray space between
two Chinese words ("计算 缩放平移", "切分） 训练"), "params" as a unit in Chinese, "1 FLOPs", a word said twice
("A 13B 13B-parameter"), two brackets in a row ("算力受限（compute-bound）（受限于峰值算力）"), the Roofline
model called 屋顶线 beside "Roofline 模型" (one term), and "出现的常见错误：没有出现已知的常见错误"; and a worked
solution's line in one family of byte units (MiB/GiB or MB/GB; a whole size said twice, "131,072 B (128 KiB)", is
one number).
"""

from __future__ import annotations

import re
from functools import cache

import pytest

from drill.core import i18n
from question_bank import registry
from question_bank.topics import TOPIC_NAMES
from tests import problems

SEEDS = range(40)  # the first seeds of the lane's (tests/problems.py), shared with the property tests
CJK = r"\u4e00-\u9fff"
STRAY_SPACE = re.compile(rf"[{CJK}）」] +[{CJK}（「]")  # "计算 缩放平移", "切分） 训练"
ONE_FLOPS = re.compile(r"(?<![\d.,])1 FLOPs\b")  # "1 FLOPs" (but "1 FLOP", "21 FLOPs")
DOUBLE_BRACKETS = re.compile(r"）（")
ROOFLINE_ZH = "屋顶线"  # the app says "Roofline 模型" / "Roofline"
TWICE = re.compile(r"\b([A-Za-z0-9][\w.]*) \1\b")  # a word said twice: "A 13B 13B-parameter model"
BINARY_BYTES = re.compile(r"(?<![A-Za-z])[KMGTP]iB\b")
DECIMAL_BYTES = re.compile(r"(?<![A-Za-z])[kKMGTP]B\b")


def _texts(p, lang: str) -> list[str]:
    t = p.template
    out = [t.title_zh if lang == "zh" else t.title, p.scenario(lang), p.conventions(lang)]
    out += [f"{label}: {shown}" for label, shown in p.given_rows(lang)]
    for s in p.steps:
        out += [s.prompt(lang), *s.solution_lines(lang), *(c.shown(lang) for c in s.expected.choices)]
    return [x for x in out if x]


@cache  # a text recurs (a formula's lines, takeaways, conventions): 423,363 checks of 106,914 texts over 40 seeds
def _defects(text: str, lang: str) -> tuple[str, ...]:
    found = []
    if lang == "zh":
        found += [f"stray space {m.group()!r}" for m in STRAY_SPACE.finditer(text)]
        found += ["'params' as a unit"] if re.search(r"\bparams\b", text) else []
        found += ["two brackets in a row"] if DOUBLE_BRACKETS.search(text) else []
        found += [f"{ROOFLINE_ZH} (the app says Roofline)"] if ROOFLINE_ZH in text else []
    found += ["'1 FLOPs'"] if ONE_FLOPS.search(text) else []
    found += [f"said twice: {m.group()!r}" for m in TWICE.finditer(text)]
    return tuple(found)


def _mixed_bytes(line: str) -> bool:
    """A solution line with both a binary (MiB) and a decimal (MB) byte unit; a size in B said again in KiB
    (engine.formulas.result_text's "131,072 B (128 KiB)") is one number in one family."""
    return bool(BINARY_BYTES.search(line) and DECIMAL_BYTES.search(line))


@pytest.mark.parametrize("tid", sorted(registry.REGISTRY))
def test_bank_text_has_none_of_the_known_defects(tid):
    for p in problems.each(tid, problems.seeds()[:len(SEEDS)]):
        seed = p.seed
        for lang in ("en", "zh"):
            for text in _texts(p, lang):
                assert not _defects(text, lang), f"seed {seed} ({lang}): {_defects(text, lang)} in {text!r}"
            for line in (x for s in p.steps for x in s.solution_lines(lang)):
                assert not _mixed_bytes(line), f"seed {seed} ({lang}): MiB and MB on one line: {line!r}"


def test_the_app_strings_have_none_of_the_known_defects():
    strings = [zh for _en, zh in i18n.STRINGS.values()] + [zh for _en, zh in TOPIC_NAMES.values()]
    for text in strings:
        if " · " in text:  # a key-hint bar: "回车 提交 · Ctrl+N 跳过" pairs a key with its action
            continue
        assert not _defects(text, "zh"), f"{_defects(text, 'zh')} in {text!r}"


def test_no_misconceptions_is_said_once():
    line = i18n.t("mock.misconceptions", "zh") + i18n.t("mock.no_misconceptions", "zh")
    assert line.count("常见错误") == 1, line
    assert i18n.t("mock.misconceptions", "en") + i18n.t("mock.no_misconceptions", "en") == \
        "Misconceptions seen: none of the known slips"


def test_the_defect_checks_catch_the_issue_examples():
    for text in ("一个独立 kernel 计算 缩放平移", "先做 残差相加", "ZeRO-1（切分优化器状态） 训练", "参数量 Φ: 69B params",
                 "= 算力受限（compute-bound）（受限于峰值算力）", "屋顶线下可达到的算力"):
        assert _defects(text, "zh"), text
    assert _defects("(1 FLOPs per element)", "en") and not _defects("(1 FLOP per element, 21 FLOPs)", "en")
    assert _defects("A 13B 13B-parameter dense model", "en") and not _defects("a 13B-parameter model, 13 B", "en")
    assert not _defects("在 H100 SXM 上用 ZeRO-1（切分优化器状态）训练一个 30B 参数的模型", "zh")
    assert _mixed_bytes("= 17,825,792 B (17 MiB) = 17.83 MB") and _mixed_bytes("SRAM 64 KiB, 17.83 MB of traffic")
    assert not _mixed_bytes("= 17,825,792 B (17 MiB)") and not _mixed_bytes("= 138,412,032 B（132 MiB）")
    assert not _mixed_bytes("134.2 MB of the 138.4 MB are S and P")
