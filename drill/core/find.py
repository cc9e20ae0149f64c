"""Finding templates by what people type: the command palette and Browse's filter share this.

A query is split into words; a text matches when every word occurs in it, in any order, ignoring
case and the punctuation ids and titles are written with (``kv cache`` finds ``KV-cache size``
and ``inference.kv_cache``; ``显存`` finds a Chinese title).  Textual's fuzzy matcher (8.2.8) wants
the query's letters in order, spaces included, so ``kv cache`` finds nothing in ``KV-cache size``:
hence this small matcher.  Queries are bounded (:data:`MAX_QUERY`) before any matching.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from engine.records import NamedTuple

MAX_QUERY = 80  # characters of a query that are read; what is typed beyond them is ignored
_SEPARATORS = re.compile(r"[\s\-_./·:,;()（）、，：]+")


def normalize(text: str) -> str:
    """Lower case, the separators of ids and titles (``- _ . /`` …) as one space, trimmed."""
    return _SEPARATORS.sub(" ", text.lower()).strip()


def words(query: str) -> list[str]:
    """The words of ``query`` (at most :data:`MAX_QUERY` characters of it), duplicates dropped."""
    return list(dict.fromkeys(normalize(query[:MAX_QUERY]).split()))


class Found(NamedTuple):
    score: float  # higher is better; 0 never returned (no match is None)
    spans: list[tuple[int, int]]  # where the words are in the first text (start, end), for highlighting


def match(query: str, texts: Iterable[str]) -> Found | None:
    """Does every word of ``query`` occur in one of ``texts``?  None if not (an empty query matches all,
    with score 0).  The score favours words found at the start of a word, and in the first text (what
    is shown); ``spans`` locate the words in the first text."""
    texts = list(texts)
    wanted = words(query)
    if not wanted:
        return Found(0.0, [])
    shown = texts[0].lower() if texts else ""
    haystacks = [normalize(t) for t in texts]
    score, spans = 0.0, []
    for w in wanted:
        best = 0.0
        for i, h in enumerate(haystacks):
            at = h.find(w)
            if at < 0:
                continue
            start = at == 0 or h[at - 1] == " " or not w.isascii()  # CJK has no word starts
            best = max(best, len(w) * (2.0 if start else 1.0) * (1.5 if i == 0 else 1.0))
        if not best:
            return None
        score += best
        at = shown.find(w)
        if at >= 0:
            spans.append((at, at + len(w)))
    return Found(score, spans)
