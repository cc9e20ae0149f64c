"""Why a quantity's text cannot be one answer, said in the words the user typed.

Split from :mod:`engine.answers` (the reader): these refusals look at the text's tokens before any unit is
bound, so they need only the unit table and the expression language's spellings.
"""

from __future__ import annotations

import functools
import re

from . import expr as ex
from .messages import Said, say
from .units import UNITS

_TOKEN = r"\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+|[^\W\d_][\w/%µ]*|%|\*\*|\S"
# A token and the spaces before it: only spaces are left out between tokens (\S takes any other character)
_SPACED_TOKEN = rf"(\s*)({_TOKEN})"


@functools.lru_cache(maxsize=1)
def odd_symbols() -> tuple[str, ...]:
    """Unit symbols written with characters an expression has no use for ($/GPU-h), longest first, as
    ``ex.normalise`` writes them (normalised once here, not for every answer read)."""
    return tuple(ex.normalise(u) for u in sorted((u for u in UNITS if re.search(r"[^\w/%µ ]", u)), key=len,
                                                  reverse=True))


def plain_refusal(t: str) -> Said | None:
    """Why ``t`` (cleaned, a quantity's text) cannot be one answer, in the words the user typed, or None:
    a character the language has no use for (``#`` is not a comment, a stray ``;``), two values side by
    side (``33 GB 34 GB``, ``33 GB, 34 GB``), a value right before ``(``, an operator with nothing after it."""
    src = ex.normalise(t)
    bare = src.replace("%", " ")  # a percent sign is a unit, and so are $/GPU-h and the like
    for symbol in odd_symbols():
        bare = bare.replace(symbol, " ")
    try:
        ex.stray_character(bare)
    except ex.ExprError as e:
        return e.said
    # (the spaces before, the token): the tokens follow one another from the start, so where one is can be
    # worked out when a refusal names it, not kept for every token of every answer
    tokens = re.findall(_SPACED_TOKEN, src)
    a = ""
    for i, (space, b) in enumerate(tokens):
        first = b[0]
        if a and (first.isdigit() or first == "." or b == "(") \
                and (a[0].isdigit() or a[0] == "." or a == ")" or a == "%" or (a in UNITS and a not in ("x", "×"))):
            if b == "(":
                return say("expr.times_before_bracket", before=shown_typed(src[:_token_end(tokens, i - 1)].strip()))
            if space or not a[0].isdigit():  # 1,5 (a comma between them) is the expression reader's to explain
                a_end = _token_end(tokens, i - 1)
                b_start = a_end + len(space)
                one, two = src[:a_end].strip(), src[b_start:].strip()
                if a.isdigit() and len(a) <= 3 and re.match(r"\d{3}(?!\d)", b):
                    return say("expr.spaced_digits", typed=shown_typed(src[:b_start + 3].strip()))
                return say("expr.two_values", one=shown_typed(one), two=shown_typed(two))
        a = b
    # "33 GB, 34 GB": a list of two answers (a thousands separator was taken out before)
    for i, (_, tok) in enumerate(tokens):
        if tok == "," and 0 < i < len(tokens) - 1 and re.match(r"[\d.(]", tokens[i + 1][1]) \
                and tokens[i + 1][0][:1] == " ":
            end = _token_end(tokens, i)
            return say("expr.two_values", one=shown_typed(src[:end - 1].strip()), two=shown_typed(src[end:].strip()))
    if tokens and tokens[-1][1] in ("+", "-", "*", "/", "**") and t.rstrip()[-1:] not in ("×", "x"):  # 2× is a unit
        return say("expr.dangling", op=shown_typed(tokens[-1][1]))
    return None


def _token_end(tokens: list[tuple[str, str]], i: int) -> int:
    """Where token ``i`` of ``re.findall(_SPACED_TOKEN, src)`` ends in ``src``."""
    return sum(len(space) + len(tok) for space, tok in tokens[:i + 1])

def shown_typed(t: str) -> str:
    s = t.replace("**", "^").replace("*", "×")
    return s if len(s) <= 60 else s[:59] + "…"
