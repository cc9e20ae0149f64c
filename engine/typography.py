"""How a shown text is typeset in each language: unit words, punctuation and the space before %.

The rules (docs/answering.md, "How figures are written"):

* A number and its unit are separated by one space, % included, in both languages: ``1.12 TB``,
  ``45 %``, ``5.533 天`` (ISO 80000-1 writes % as a unit; one rule, so ``40.05%`` and
  ``(40.05 %)`` never meet on one screen).  Only a % right after a number is spaced: not one after a name
  (``x%y`` in a formula) nor one that starts a unit expression (``%/h``).  English texts are typeset by this
  rule alone (:func:`en_typeset`), at the same points as the Chinese ones: a problem where it is built, a
  verdict, its notes and the live reading where they are said (engine.verdicts).
* In Chinese, units of time are written in Chinese (天, 小时, 分钟, 秒; ms, µs and ns stay symbols, as
  Chinese engineers write them), a count of GPUs takes the bank's classifier (``2 张 GPU``) and a factor
  is 倍 (``2.1 倍``).  Compound units (GB/s, FLOP/s, $/GPU-h) stay symbols.
* In Chinese, punctuation next to a Chinese character is full-width (``精度：fp8``, ``是多少？``), and a
  parenthesis of prose (``(MTBF)``, ``(5.533 天)``) next to or holding Chinese is full-width; a formula's
  brackets (``2(N − 1)``, ``min(峰值, I × BW)``) stay ASCII, and so does a figure's bracket right before a
  full-width one (``0.0175 秒 (17.5 ms)（带宽项）``: two full-width asides in a row read as one broken one).

Our own code rather than a library: the typesetting packages for Chinese (pangu and its ports) add or
remove spaces between Chinese and Latin text; none writes units in Chinese or tells a formula's brackets
from prose.  The patterns are compiled on first use: the first problem waits for the import
(benchmarks/bench_startup.py).
"""

from __future__ import annotations

import re
from functools import lru_cache

from engine.langs import ZH

# A unit symbol the formatting code writes after a number, and its Chinese.
ZH_UNIT_WORDS: dict[str, str] = {
    "day": "天", "days": "天", "h": "小时", "min": "分钟", "s": "秒",
    "GPUs": "张 GPU", "GPU": "张 GPU", "x": "倍",
}

_FULL = {":": "：", ";": "；", ",": "，", "?": "？", "!": "！"}
# characters that make a bracket a formula's: an operator, a nested bracket, a subscript
_MATH = set("=×·+−-÷^*<>≈√²³_()[]")
# an operator right before a bracket makes it an operand's (the hyphen left out: "4-16M (…)" is prose)
_OPERATORS = set("=×·+−÷^*/<>≈≥≤")

_PATTERNS: tuple[re.Pattern[str], ...] = ()  # unit, punctuation, bracket, percent: compiled on first use


def _patterns() -> tuple[re.Pattern[str], ...]:
    global _PATTERNS
    if not _PATTERNS:
        words = "|".join(sorted(map(re.escape, ZH_UNIT_WORDS), key=len, reverse=True))
        _PATTERNS = (
            # a unit written by the formatting code: after a number and one space, and not part of a longer symbol
            re.compile(rf"(?<=\d) ({words})(?![\w/·²³⁻-])"),
            # next to a non-ASCII character, told Chinese or not in _punct: a class of the CJK range takes
            # the re module over a millisecond to compile (question_bank/chinese.py)
            re.compile(r"(?<=[^\x00-\x7f])[:;,?!] ?|(?<=\S)[:;,?!] ?(?=[^\x00-\x7f])"),
            re.compile(r" ?\(([^()\n]*)\) ?"),
            # a number not part of a name (x2%), then % that starts no word and no unit expression (%/h); ASCII
            # classes only: a Chinese word may follow (45%的时间)
            re.compile(r"(?<![A-Za-z0-9_.])(\d+(?:[.,]\d+)*)%(?![A-Za-z0-9_/])"),
        )
    return _PATTERNS


def _is_cjk(c: str) -> bool:
    return "\u4e00" <= c <= "\u9fff"


def _chinese_side(c: str) -> bool:
    """A character a full-width bracket may touch: Chinese, or Chinese punctuation."""
    return _is_cjk(c) or c in "，。；：？！、（）「」“”"


def _paren(m: re.Match[str]) -> str:
    """``(MTBF)`` as ``（MTBF）`` when it is prose next to or holding Chinese; a formula's bracket as it is."""
    inner, whole, text = m.group(1), m.group(), m.string
    start = m.start() + (whole[0] == " ")  # where the "(" is
    attached = text[start - 1] if start > 0 and whole[0] != " " else ""
    if (not inner or _MATH & set(inner) or ("/" in inner and not inner[0].isdigit())  # 301.2 PFLOP/s is a unit
            or (attached.isalnum() and not _is_cjk(attached)) or (attached and attached in "^_)√")):
        return whole  # a formula's bracket, a function's call (min(a, b)) or an exponent: (C / 6)^(0.28 / 0.62)
    before = text[m.start() - 1] if m.start() > 0 else ""
    after = text[m.end()] if m.end() < len(text) else ""
    if before in _OPERATORS and before:
        return whole  # an operand of a formula: "bytes / (2g)时" keeps the formula's bracket
    if after == "（" or before == "）":
        return whole  # "（1.28 ms）（传输时间）" reads as one broken aside: the figure's bracket stays ASCII
    if any(_is_cjk(c) for c in inner) or _chinese_side(before) or _chinese_side(after):
        return f"（{inner}）"  # full-width brackets carry their own space
    return whole


def _punct(m: re.Match[str]) -> str:
    """``：`` for ``: `` next to a Chinese character (not next to another non-ASCII one: ``Φ: 8B``)."""
    text, i, j = m.string, m.start(), m.end()
    if (i > 0 and _is_cjk(text[i - 1])) or (j < len(text) and _is_cjk(text[j])):
        return _FULL[m.group()[0]]
    return m.group()


def unit_in(symbol: str, lang: str) -> str:
    """``symbol`` as written in ``lang`` after a number: ``day`` is 天 in Chinese; GB stays GB."""
    return ZH_UNIT_WORDS.get(symbol, symbol) if lang == ZH else symbol


# pure, and the same texts are typeset again and again: a given's value at every table, card and check that shows it,
# a step's prompt and solution lines, a misconception's label at every problem of its formula
@lru_cache(maxsize=1 << 16)
def zh_typeset(text: str) -> str:
    """A Chinese text typeset by the rules of the module docstring."""
    if not text:
        return text
    unit_re, punct_re, paren_re, pct_re = _patterns()
    text = unit_re.sub(lambda m: " " + ZH_UNIT_WORDS[m.group(1)], text)
    text = pct_re.sub(r"\1 %", text)
    text = paren_re.sub(_paren, text)
    return punct_re.sub(_punct, text)


def en_typeset(text: str) -> str:
    """An English problem text typeset by the rule it shares with Chinese: a space before % after a number
    (``45% MFU`` -> ``45 % MFU``).  Applied where a problem is built (question_bank), wherever the Chinese is
    typeset, so the templates' strings and f-strings (``f"{mfu:.0%}"``) need not say it."""
    if not text or "%" not in text:
        return text
    return _patterns()[3].sub(r"\1 %", text)


def typeset(text: str, lang: str) -> str:
    """``text`` typeset for ``lang``: the Chinese rules in Chinese, the % rule both languages share in English.
    A text that quotes what the learner typed (a refusal) is not typeset: it quotes the figure as typed."""
    return zh_typeset(text) if lang == ZH else en_typeset(text)
