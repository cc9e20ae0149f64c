"""Numbers as people write them, rewritten into the form the reader parses.

``70 billion``, ``1.5 trillion``, ``2600亿``, ``3.2万MB``, ``1.12万亿字节``, ``两张卡``, ``百分之45``,
``16 个请求``, ``每秒24个token``, ``70B params``, ``2 块 B200``: :func:`rewrite` turns each into a plain
number (``7e10``, ``2.6e11``), a count noun the unit table knows (``请求``, ``params``) or a unit
(``tok/s``), and says what it read in a note, so the live line under the answer box says it too.

A number word multiplies the number right before it and is written out exactly (``Decimal``: ``3.2万``
is ``3.2e4``, not a float product): it is a number, so a bare ``0.112万`` on a GB question is 1120 GB,
as ``1120`` is.  A count noun after a magnitude letter (``70B params``, ``15T tokens``) makes the letter
a count multiplier (billion, trillion), whatever the question asks.

Why our own rules, not a library (measured with cn2an 0.5.24, the most used of them): its
``transform`` leaves an Arabic number with 万 or 亿 as typed (``2600亿``, ``47.8万秒``, ``3.2万MB``)
and ``百分之45`` too, reads ``两两`` as 22, warns on the terminal for what it cannot read, and takes
0.26 s to import (the engine is imported before the app's first frame); pint and sympy read no number
words at all.  The rules below are a few patterns over at most 200 characters.
"""

from __future__ import annotations

import re
from decimal import Decimal

from .messages import Said, say
from .units import COUNT_NOUNS, fmt_number

# A number word -> its power of ten.  千 before 兆 or 瓦 is a prefix of a unit (千兆字节 is a GB, 千瓦 a kW).
WORDS: dict[str, int] = {"万亿": 12, "亿": 8, "万": 4, "千": 3, "thousand": 3, "million": 6, "billion": 9,
                         "bn": 9, "trillion": 12}
# A magnitude letter before a count noun: 70B params, 15T tokens, 1.5k GPUs.
LETTERS: dict[str, int] = {"k": 3, "K": 3, "M": 6, "B": 9, "G": 9, "T": 12}
_NUM = r"(?<![A-Za-z_.\d])(\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+)"
# (a Chinese word may touch the unit after it, 3.2万MB; an English one stands as a word)
_WORD = _NUM + r"\s*(万亿|亿|万|千(?![兆瓦])|(?:thousand|million|billion|bn|trillion)(?![A-Za-z]))"
_NOUN_ALT = "|".join(re.escape(n) for n in sorted(COUNT_NOUNS, key=len, reverse=True))
_LETTER_NOUN = _NUM + rf"\s*([kKMBGT])\s*(?=(?:{_NOUN_ALT})(?![A-Za-z]))"
# A chip or model name after a count (2 块 B200, 8 H100 GPUs): a name, not a unit nor a number
_NAME = _NUM + r"(\s*[个张块台]\s*|\s+)((?!E\d|FP\d|BF\d|TF\d|INT\d)(?:[A-Z]{1,3}|MI)\d{2,4}[A-Za-z]{0,2})(?![\w])(\s*(?:GPUs?|cards?|卡))?"
# A classifier between a number and its noun (2张GPU, 61条请求, 16 个请求): the noun is the unit
_CLASSIFIER = _NUM + r"\s*[个张块台条次步]\s*(?=[^\s\d+\-*/×().])"
_CN_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8,
              "九": 9}
_CN_RUN = "[零〇一二两三四五六七八九十百千万亿]*[零〇一二两三四五六七八九十][零〇一二两三四五六七八九十百千万亿]*"
_PERCENT = r"百分之\s*(\d+(?:\.\d*)?|\.\d+)"
# "每秒 24 个 token": a rate written before its number, as Chinese writes it; the noun makes the unit
_PER_SECOND = {"token": "tok/s", "tokens": "tok/s", "tok": "tok/s", "请求": "req/s", "requests": "req/s",
               "request": "req/s", "req": "req/s", "步": "step/s", "steps": "step/s", "step": "step/s"}


_SMALL = {"十": 10, "百": 100, "千": 1000}


def cn_integer(run: str) -> int | None:
    """``两千六百亿`` -> 260000000000, ``十六`` -> 16, ``一万亿`` -> 10**12: a Chinese numeral's value, or None
    for a run that is not one (``两两``, ``十十``: two digits or two tens in a row)."""
    total = section = digit = 0
    last_small, prev = 10**5, ""
    for c in run:
        if c in _CN_DIGITS:
            if prev in _CN_DIGITS and prev not in "零〇":
                return None
            digit = _CN_DIGITS[c]
        elif c in _SMALL:
            if _SMALL[c] >= last_small:
                return None
            section += (digit or 1) * _SMALL[c]
            digit, last_small = 0, _SMALL[c]
        elif c == "万":
            section = (section + digit) * 10**4
            digit, last_small = 0, 10**5
        else:  # 亿
            total = (total + section + digit) * 10**8
            section = digit = 0
            last_small = 10**5
        prev = c
    return total + section + digit


def _cn_number(m: re.Match) -> str:
    n = cn_integer(m.group(0))
    return m.group(0) if n is None else str(n)


def exact(number: str, power: int) -> str:
    """``3.2`` × 10⁴ written as a literal the expression reader takes exactly: ``3.2e4``."""
    d = Decimal(number).scaleb(power).normalize()
    sign, digits, exp = d.as_tuple()
    assert isinstance(exp, int)  # a finite number
    mantissa = "".join(map(str, digits))
    return f"{mantissa}e{exp}" if exp else mantissa


def _shown(literal: str) -> str:
    return fmt_number(float(literal))


def rewrite(t: str) -> tuple[str, list[Said]]:
    """``t`` (a cleaned answer) with the numbers people write rewritten for the reader, and notes on each."""
    notes: list[Said] = []
    if any(c >= "\u3000" for c in t):
        t = re.sub(_CN_RUN, _cn_number, t)
        t = re.sub(_PERCENT, r"\1%", t)
        if t.startswith("每秒") and t[2:].strip():
            t = _per_second(t[2:].strip())
        elif t.endswith("每秒") and (rate := _per_second(t[:-2].strip())).endswith("/s"):  # 24个token每秒
            t = rate

    def word(m: re.Match) -> str:
        literal = exact(m.group(1), WORDS[m.group(2)])
        notes.append(say("note.multiplier", typed=m.group(0).strip(), value=_shown(literal)))
        return literal

    def letter(m: re.Match) -> str:
        literal = exact(m.group(1), LETTERS[m.group(2)])
        notes.append(say("note.count_multiplier", typed=m.group(0).strip(), value=_shown(literal)))
        return literal + " "

    def name(m: re.Match) -> str:
        notes.append(say("note.name", name=m.group(3)))
        return m.group(1) + (" " + m.group(4).strip() if m.group(4) else "")

    t = re.sub(_WORD, word, t)
    t = re.sub(_LETTER_NOUN, letter, t)
    t = re.sub(_NAME, name, t)
    t = re.sub(_CLASSIFIER, r"\1 ", t)
    return t.strip(), notes


def _per_second(rest: str) -> str:
    """``24个token`` -> ``24 tok/s``; a bare number stays bare (read in the question's unit)."""
    rest = re.sub(_CLASSIFIER, r"\1 ", rest).strip()
    for noun, unit in _PER_SECOND.items():
        if rest.endswith(noun) and rest[:-len(noun)].rstrip()[-1:].isdigit():
            return f"{rest[:-len(noun)].rstrip()} {unit}"
    return rest
