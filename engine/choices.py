"""Choice answers: a choice with the spellings people use ("memory bound", "mem", "访存受限"), and reading one."""

from __future__ import annotations

import re
import unicodedata

from engine.langs import EN, ZH
from engine.records import NamedTuple

from . import expr as ex
from .answers import Unreadable
from .messages import Twin, say


def normalise_choice(text: str) -> str:
    """Case, spaces, hyphens and punctuation do not matter: ``Memory-Bound.`` == ``memory bound``."""
    t = unicodedata.normalize("NFKC", ex.expand_superscripts(text)).strip().lower()
    return re.sub(r"[\s\-_./·,;:!?。，；：！？、\"'“”‘’()（）]+", "", t)


class Choice(NamedTuple):  # immutable; cheaper to define at import than a frozen dataclass
    """One accepted answer of a ``choice`` question, with the spellings people use."""

    key: str
    aliases: tuple[str, ...] = ()
    label_zh: str = ""

    def shown(self, lang: str = EN) -> str:
        """How the choice is written to people: the key, or its Chinese label in Chinese."""
        return Twin(self.key, self.label_zh).text(lang)

    def matches(self, text: str) -> bool:
        n = normalise_choice(text)
        return bool(n) and n in {normalise_choice(a) for a in (self.key, *self.aliases, self.label_zh) if a}


def parse_choice(text: str, choices: tuple[Choice, ...]) -> Choice | Unreadable:
    if not text or not text.strip():
        return Unreadable(text, say("empty"))
    if len(text) > ex.MAX_TEXT:
        return Unreadable(text[:40] + "…", say("too_long_short"))
    for c in choices:
        if c.matches(text):
            return c
    if text.strip().isdecimal() and 1 <= int(text.strip()) <= len(choices):  # "¹" is a digit, not a number
        return choices[int(text.strip()) - 1]  # numbered options
    names = Twin(", ".join(c.shown(EN) for c in choices), "、".join(c.shown(ZH) for c in choices))
    return Unreadable(text, say("choice_expected", choices=names))


MEMORY_BOUND = Choice(
    "memory-bound",
    ("memory bound", "memory", "mem", "mem bound", "memory-limited", "bandwidth-bound", "bandwidth bound",
     "bandwidth", "bandwidth-limited", "bw", "bw-bound", "hbm-bound", "io-bound",
     "带宽受限", "访存密集", "访存密集型", "内存受限", "显存带宽受限", "带宽瓶颈", "访存瓶颈", "带宽"),
    "访存受限",  # the app's one Chinese term (the cheat-sheet's); the roofline article's 带宽受限 is accepted
)
COMPUTE_BOUND = Choice(
    "compute-bound",
    ("compute bound", "compute", "comp", "compute-limited", "flops-bound", "flop-bound", "math-bound",
     "math bound", "算力受限", "计算受限", "计算密集", "计算密集型", "算力瓶颈", "计算瓶颈", "算力"),
    "算力受限",
)
# The two answers of every "which roof limits this kernel?" question (R§3, C§5).
BOUND_CHOICES: tuple[Choice, ...] = (MEMORY_BOUND, COMPUTE_BOUND)
