"""The *layout* answer kind: "70B on 64 H100s, choose TP, PP and DP".

A layout is three parallelism degrees, tensor (TP), pipeline (PP) and data (DP).
Any layout that meets every constraint of the problem is correct
(:class:`LayoutRules`): TP × PP × DP uses exactly the GPUs, TP stays inside one
node (tensor-parallel AllReduces run on every layer and need NVLink), PP divides
the layers, and the static training state per GPU (an engine formula such as
``zero1_parallel_bytes``) fits the memory budget.  A layout that breaks one is
wrong, and the verdict names each broken constraint in English and Chinese.

People write a layout as ``tp=8 pp=2 dp=4``, ``TP8 PP2 DP4``, ``TP=8, DP=4,
PP=2`` (labels in any order) or ``8,2,4`` / ``8 × 2 × 4`` (bare: in the order TP,
PP, DP).  Anything else - a missing or repeated degree, a fraction, a zero,
stray words - is unreadable with the reason, never graded.

This is our own small parser rather than a grammar library: the language is
three labelled integers, and the reasons must be the engine's bilingual
messages.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cached_property

from engine.langs import EN
from engine.records import NamedTuple, frozen

from .messages import Twin
from .units import fmt_number, fmt_quantity

MAX_TEXT = 120  # a layout is short: longer text is refused before any work
MAX_DEGREE = 1_000_000
NAMES = ("tp", "pp", "dp")


class Layout(NamedTuple):
    tp: int
    pp: int
    dp: int

    @property
    def text(self) -> str:
        """``tp=8 pp=2 dp=4``: how the app writes a layout (and reads it back)."""
        return f"tp={self.tp} pp={self.pp} dp={self.dp}"


class LayoutUnreadable(NamedTuple):
    text: str
    why: Twin


def _refuse(text: str, en: str, zh: str) -> LayoutUnreadable:
    return LayoutUnreadable(text, Twin(en, zh))


_LABELLED = re.compile(r"(tp|pp|dp)\s*[=:]?\s*([0-9][0-9.]*)")
_SEPARATORS = re.compile(r"^[\s,;/×x*+&]*(?:and)?[\s,;/×x*+&]*$")
_BARE = re.compile(r"^\s*([0-9][0-9.]*)\s*(?:[,;/×x*]\s*|\s+)([0-9][0-9.]*)\s*(?:[,;/×x*]\s*|\s+)([0-9][0-9.]*)\s*$")
_WHERE = ("   (e.g. tp=8 pp=2 dp=4, TP8 PP2 DP4 or 8,2,4)", "（例如 tp=8 pp=2 dp=4、TP8 PP2 DP4 或 8,2,4）")


def _degree(text: str, name: str, raw: str) -> int | LayoutUnreadable:
    if not raw.isdigit():
        return _refuse(text, f"{name.upper()} = {raw} is not a whole number of GPUs",
                       f"{name.upper()} = {raw} 不是整数张卡")
    value = int(raw)
    if value < 1:
        return _refuse(text, f"{name.upper()} = {raw}: a parallel degree is at least 1",
                       f"{name.upper()} = {raw}：并行度至少为 1")
    if value > MAX_DEGREE:
        return _refuse(text, f"{name.upper()} = {raw} is too large to be a parallel degree",
                       f"{name.upper()} = {raw} 太大，不像并行度")
    return value


def parse_layout(text: str) -> Layout | LayoutUnreadable:
    """Read a typed layout (see the module docstring), or say why it can't be read."""
    if not isinstance(text, str):
        return _refuse(repr(text)[:40], "the answer is not text", "答案不是文本")
    if len(text) > MAX_TEXT:
        return _refuse(text[:40] + "…", f"too long to be a layout ({len(text)} characters; at most {MAX_TEXT})",
                       f"太长了，不像一个并行布局（{len(text)} 个字符，最多 {MAX_TEXT} 个）")
    t = unicodedata.normalize("NFKC", text).strip().lower()  # full-width ＝，８ -> =,8
    t = t.replace("、", ",")
    if not t:
        return _refuse(text, "the answer is empty", "答案为空")
    found = _LABELLED.findall(t)
    if found:
        rest = _LABELLED.sub(" ", t)
        if not _SEPARATORS.match(rest):
            stray = rest.strip(" ,;/×x*+&")
            return _refuse(text, f"can't read {stray!r} in a layout; write the three degrees{_WHERE[0]}",
                           f"无法识别并行布局中的“{stray}”；请写出三个并行度{_WHERE[1]}")
        degrees: dict[str, int] = {}
        for name, raw in found:
            if name in degrees:
                return _refuse(text, f"{name.upper()} is given twice", f"{name.upper()} 写了两次")
            d = _degree(text, name, raw)
            if isinstance(d, LayoutUnreadable):
                return d
            degrees[name] = d
        missing = [n.upper() for n in NAMES if n not in degrees]
        if missing:
            return _refuse(text, f"give all three degrees: {', '.join(missing)} is missing{_WHERE[0]}",
                           f"请写出全部三个并行度：缺少 {'、'.join(missing)}{_WHERE[1]}")
        return Layout(degrees["tp"], degrees["pp"], degrees["dp"])
    m = _BARE.match(t)
    if m:
        values = []
        for name, raw in zip(NAMES, m.groups()):
            d = _degree(text, name, raw)
            if isinstance(d, LayoutUnreadable):
                return d
            values.append(d)
        return Layout(*values)
    return _refuse(text, f"expected a layout: TP, PP and DP{_WHERE[0]}; bare numbers are read in the order TP, PP, DP",
                   f"应为一个并行布局：TP、PP、DP{_WHERE[1]}；不带标签的三个数按 TP、PP、DP 的顺序读取")


# --------------------------------------------------------------------------- #
# The constraints


class Broken(NamedTuple):
    """One constraint a layout breaks: ``key``, a static label (reads after "Looks like you ...") and the
    specific reason with this layout's numbers, each in English and Chinese."""

    key: str
    label: Twin
    reason: Twin


# Static labels (saved with a mock result; grading.misconception_label shows them in Chinese).
LABELS: dict[str, Twin] = {
    "layout_product": Twin("chose degrees whose product TP × PP × DP is not the number of GPUs",
                           "选的并行度乘积 TP × PP × DP 不等于总卡数"),
    "layout_tp_node": Twin("let tensor parallelism span more than one node",
                           "让张量并行跨出了单个节点"),
    "layout_pp_layers": Twin("chose a pipeline degree that does not divide the layers",
                             "选的流水线并行度不能整除层数"),
    "layout_memory": Twin("chose a layout whose static memory per GPU exceeds the budget",
                          "选的布局每卡静态显存超出了预算"),
}


@frozen
class LayoutRules:
    """The constraints of one layout question; any layout meeting all of them is correct.

    ``memory_formula`` is an engine formula with inputs ``phi, tp, pp, n_dp`` (``zero1_parallel_bytes``
    ...) and ``inputs`` its other ones (the bytes per parameter the problem counts: ``(("recipe", 20.0),)``); the
    static state per GPU it gives must be at most ``budget_bytes``.
    """

    n_gpus: int
    gpus_per_node: int
    layers: int
    phi: float
    memory_formula: str
    budget_bytes: float
    zero_name: str = "ZeRO-1"  # how the memory rule names the sharding
    inputs: tuple[tuple[str, float], ...] = ()  # the memory formula's other inputs (omitted: their defaults)

    def memory(self, layout: Layout) -> float:
        from .formulas import get

        return get(self.memory_formula).evaluate(phi=self.phi, tp=layout.tp, pp=layout.pp, n_dp=layout.dp,
                                                 **dict(self.inputs))

    def broken(self, layout: Layout) -> tuple[Broken, ...]:
        """Every constraint ``layout`` breaks (empty: a valid layout)."""
        out: list[Broken] = []
        tp, pp, dp = layout
        product = tp * pp * dp
        if product != self.n_gpus:
            out.append(Broken("layout_product", LABELS["layout_product"], Twin(
                f"TP × PP × DP = {tp} × {pp} × {dp} = {product}, not the {self.n_gpus} GPUs",
                f"TP × PP × DP = {tp} × {pp} × {dp} = {product}，不等于 {self.n_gpus} 张卡")))
        if tp > self.gpus_per_node or self.gpus_per_node % tp:
            out.append(Broken("layout_tp_node", LABELS["layout_tp_node"], Twin(
                f"TP = {tp} does not fit in one node of {self.gpus_per_node} GPUs: its AllReduces, two per layer, "
                "would leave NVLink",
                f"TP = {tp} 放不进一个 {self.gpus_per_node} 卡的节点：每层两次的 AllReduce 就要走出 NVLink")))
        if self.layers % pp:
            out.append(Broken("layout_pp_layers", LABELS["layout_pp_layers"], Twin(
                f"PP = {pp} does not divide the {self.layers} layers into equal stages",
                f"PP = {pp} 不能把 {self.layers} 层均分成若干阶段")))
        mem = self.memory(layout)
        if mem > self.budget_bytes * (1 + 1e-12):
            out.append(Broken("layout_memory", LABELS["layout_memory"], Twin(
                f"static memory per GPU with {self.zero_name} = {fmt_quantity(mem, 'bytes')}, over the "
                f"{fmt_quantity(self.budget_bytes, 'bytes')} budget",
                f"{self.zero_name} 下每卡静态显存 = {fmt_quantity(mem, 'bytes')}，超出了 "
                f"{fmt_quantity(self.budget_bytes, 'bytes')} 的预算")))
        return tuple(out)

    def meets(self, layout: Layout) -> bool:
        """Whether ``layout`` breaks no constraint (:meth:`broken` is empty), without wording the reasons: the
        memory formula is evaluated only for a layout that meets the others."""
        tp, pp, dp = layout
        return (tp * pp * dp == self.n_gpus and tp <= self.gpus_per_node and not self.gpus_per_node % tp
                and not self.layers % pp and self.memory(layout) <= self.budget_bytes * (1 + 1e-12))

    def valid(self) -> tuple[Layout, ...]:
        """Every valid layout, by TP then PP (small: the divisors of the GPU count)."""
        return self._valid

    @cached_property  # the rules are immutable: the preferred layout, the solution and the template read it again
    def _valid(self) -> tuple[Layout, ...]:
        out = []
        for tp in _divisors(self.n_gpus):
            for pp in _divisors(self.n_gpus // tp):
                layout = Layout(tp, pp, self.n_gpus // (tp * pp))
                if self.meets(layout):
                    out.append(layout)
        return tuple(out)

    def preferred(self) -> Layout | None:
        """The layout a practitioner reaches for first: TP fills a node (NVLink), then the fewest pipeline
        stages that fit, the rest data parallel (Narayanan et al. 2021, §3.3 takeaways)."""
        valid = self.valid()
        return min(valid, key=lambda v: (-v.tp, v.pp)) if valid else None

    def rule(self) -> Twin:
        """The rule a correct layout meets, as the expected answer explains it."""
        budget = fmt_quantity(self.budget_bytes, "bytes")
        return Twin(
            f"any layout with TP × PP × DP = {self.n_gpus}, TP ≤ {self.gpus_per_node} (one node) dividing "
            f"{self.gpus_per_node}, PP dividing {self.layers} layers and static memory per GPU "
            f"({self.zero_name}) ≤ {budget}",
            f"任一满足以下条件的布局：TP × PP × DP = {self.n_gpus}，TP ≤ {self.gpus_per_node}（单节点内）且整除 "
            f"{self.gpus_per_node}，PP 整除 {self.layers} 层，每卡静态显存（{self.zero_name}）≤ {budget}")

    def solution(self, example: Layout, lang: str = EN) -> tuple[str, ...]:
        """The worked check of ``example`` and the list of every valid layout."""
        from .formulas import get

        f = get(self.memory_formula)
        tp, pp, dp = example
        valid = self.valid()
        words = {k: Twin(*pair).text(lang) for k, pair in {
            "rule": ("Rule: ", "规则："), "node": (" (inside one node)", "（单节点内）"),
            "stage": (" layers per stage", " 层每阶段"), "budget": (" (budget)", "（预算）"),
            "valid": (f"Every valid layout ({len(valid)}): ", f"全部有效布局（{len(valid)} 个）："),
        }.items()}
        lines = [words["rule"] + self.rule().text(lang),
                 f"{example.text}:",
                 f"  TP × PP × DP = {tp} × {pp} × {dp} = {tp * pp * dp}",
                 f"  TP = {tp} ≤ {self.gpus_per_node}" + words["node"],
                 f"  {self.layers} / PP = {self.layers} / {pp} = {fmt_number(self.layers / pp)}" + words["stage"]]
        lines += ["  " + line for line in f.solution(phi=self.phi, tp=tp, pp=pp, n_dp=dp, **dict(self.inputs))]
        lines.append(f"  ≤ {fmt_quantity(self.budget_bytes, 'bytes')}" + words["budget"])
        shown = ", ".join(v.text for v in valid[:8]) + (" …" if len(valid) > 8 else "")
        lines.append(words["valid"] + shown)
        return tuple(lines)


def _divisors(n: int) -> list[int]:
    return [d for d in range(1, n + 1) if n % d == 0]


BAND = Twin("any layout meeting every constraint", "满足全部约束的任一布局")


def verdict_words(layout: Layout, broken: tuple[Broken, ...], example: str) -> Twin:
    """The verdict's message: correct, or wrong with every broken constraint and one valid layout."""
    if not broken:
        return Twin(f"Correct: {layout.text} meets every constraint.", f"正确：{layout.text} 满足全部约束。")
    why_en = "; ".join(b.reason.en for b in broken)
    why_zh = "；".join(b.reason.zh for b in broken)
    return Twin(f"Wrong: {why_en}. A valid layout: {example}.", f"错误：{why_zh}。一个有效布局：{example}。")
