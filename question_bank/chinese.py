"""Chinese text as a problem shows it: no space between two Chinese words."""

from __future__ import annotations

from functools import lru_cache

from engine.typography import zh_typeset

# Chinese leaves no space between two Chinese words (a template that builds "计算 " + "缩放平移" or "切分）" + " 训练"
# from parts would): removed from every Chinese text a problem shows (build_problem), as tests/unit/test_bank_text.py
# checks.  A space next to Latin text or a number stays ("在 H100 上", "一个 30B 参数").
_ZH_GAP = None  # spaces between two non-ASCII characters; _drop_gap keeps those not between Chinese ones


def _drop_gap(m) -> str:
    # Chinese (U+4E00-U+9FFF) or a closing bracket before, Chinese or an opening bracket after.  Tested here rather
    # than in the pattern: a character class of that range takes the re module over a millisecond to compile,
    # and the first problem waits for it (benchmarks/bench_startup.py).
    before, after = m.string[m.start() - 1], m.string[m.end()]
    if ("\u4e00" <= before <= "\u9fff" or before in "）」") and ("\u4e00" <= after <= "\u9fff" or after in "（「"):
        return ""
    return m.group()


@lru_cache(maxsize=1 << 16)  # pure; a problem's Chinese texts recur (labels, takeaways, prompts at every seed)
def tidy_zh(text: str) -> str:
    """``text`` without the spaces between two Chinese characters (or a closing bracket and a Chinese one),
    typeset as Chinese is written (engine.typography: 天 not day, full-width punctuation next to Chinese)."""
    global _ZH_GAP
    if not text:
        return text
    if _ZH_GAP is None:
        import re

        _ZH_GAP = re.compile(r"(?<=[^\x00-\x7f]) +(?=[^\x00-\x7f])")
    return _ZH_GAP.sub(_drop_gap, zh_typeset(text))  # typeset first: "6 小时 出一次" loses its gap
