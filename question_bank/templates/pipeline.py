"""Pipeline-bubble templates (C§6): 1F1B, interleaved, asymmetric stages, micro-batches for a target.

Every bubble here is the idle share of the *total* step time, (P−1)/(m+P−1) in
the seeds; Narayanan et al. quote (P−1)/m relative to the ideal time instead,
so every prompt says which one it asks for (formulas.md, "conventions that differ").
"""

from __future__ import annotations

from engine import formulas
from engine.grading import distance

from ..base import Ask, Ref, Spec, given, template
from .roofline import an

STAGES = (2, 4, 6, 8, 12, 16, 24, 32)
MICRO = (4, 6, 8, 12, 16, 20, 24, 32, 40, 48, 64, 96, 128, 256)
# Targets whose 1/target is exact in floating point, so ceil() never lands one too high
# (tests/unit/test_templates_properties.py checks every combination against exact fractions).
TARGETS = (0.02, 0.04, 0.05, 0.08, 0.1, 0.125, 0.15, 0.2, 0.25)

CONV_EN = ("The bubble is the idle share of the TOTAL step time (idle / total), not idle time relative to "
           "the ideal bubble-free time. Forward and backward of a micro-batch take the same time on every stage.")
CONV_ZH = "气泡率指空闲时间占一步总时间的比例（空闲 / 总时间），不是相对于理想无气泡时间的比例。各阶段处理一个微批次的前向、反向耗时相同。"
ASYM_CONV_EN = ("The bubble is the idle share of the TOTAL step time (idle / total). The slowest stage sets the "
                "pace of the steady state; backward times scale like the forward times.")
ASYM_CONV_ZH = "气泡率指空闲时间占一步总时间的比例（空闲 / 总时间）。稳态节奏由最慢的阶段决定；反向耗时与前向耗时成比例。"


def _pm(rng) -> tuple[int, int]:
    """P stages and m ≥ P micro-batches (1F1B reaches its steady state)."""
    p = rng.choice(STAGES)
    return p, rng.choice([m for m in MICRO if m >= p])


def _pct(x: float) -> str:
    return f"{x * 100:g}%"


def _pm_givens(p: int, m: int) -> tuple:
    return (given("p", "Pipeline stages P", "流水线阶段数 P", p),
            given("m", "Micro-batches per step m", "每步微批次数 m", m))


@template("pipeline.bubble_1f1b_given", topic="pipeline", title="1F1B bubble (formula given)",
          title_zh="1F1B 气泡率（给出公式）", difficulty=1, target_seconds=45)
def bubble_1f1b_given(rng):
    p, m = _pm(rng)
    return Spec(
        givens=_pm_givens(p, m),
        asks=(Ask(formula="bubble_1f1b", unit="%",
                  prompt_en=f"A 1F1B pipeline has P = {p} stages and m = {m} micro-batches per step. Its bubble "
                            "is (P − 1) / (m + P − 1) of the total time. What is the bubble, in %?",
                  prompt_zh=f"一个 1F1B 流水线有 P = {p} 个阶段，每步 m = {m} 个微批次。气泡率为 (P − 1) / (m + P − 1)"
                            "（占总时间的比例）。气泡率是多少（%）？"),),
        conventions_en=CONV_EN, conventions_zh=CONV_ZH,
    )


@template("pipeline.bubble_1f1b", topic="pipeline", title="1F1B bubble", title_zh="1F1B 气泡率",
          difficulty=2, target_seconds=60)
def bubble_1f1b(rng):
    p, m = _pm(rng)
    return Spec(
        givens=_pm_givens(p, m),
        asks=(Ask(formula="bubble_1f1b", unit="%",
                  prompt_en=f"Pipeline parallelism with the 1F1B schedule: P = {p} stages, m = {m} micro-batches "
                            "per step. What share of the total step time is bubble, in %?",
                  prompt_zh=f"采用 1F1B 调度的流水线并行：P = {p} 个阶段，每步 m = {m} 个微批次。"
                            "气泡占一步总时间的百分之多少？"),),
        conventions_en=CONV_EN, conventions_zh=CONV_ZH,
    )


@template("pipeline.bubble_interleaved", topic="pipeline", title="Interleaved 1F1B bubble",
          title_zh="交错式 1F1B 气泡率", difficulty=2, target_seconds=75)
def bubble_interleaved(rng):
    p, m = _pm(rng)
    v = rng.choice((2, 3, 4, 6, 8))
    return Spec(
        givens=_pm_givens(p, m) + (given("v", "Virtual stages per GPU v", "每卡虚拟阶段数 v", v),),
        asks=(Ask(formula="bubble_interleaved", unit="%",
                  prompt_en=f"Interleaved 1F1B: P = {p} GPUs in the pipeline, each holding v = {v} non-adjacent "
                            f"virtual stages (model chunks), m = {m} micro-batches per step. "
                            "What share of the total step time is bubble, in %?",
                  prompt_zh=f"交错式（虚拟阶段）1F1B：流水线有 P = {p} 张卡，每张卡承担 v = {v} 个不相邻的虚拟阶段，"
                            f"每步 m = {m} 个微批次。气泡占一步总时间的百分之多少？"),),
        conventions_en=CONV_EN, conventions_zh=CONV_ZH,
    )


def _stage_times(rng) -> list[float]:
    """Uneven stage times in seconds (e.g. a heavy vision encoder or LM head, C§6.3)."""
    n = rng.choice((3, 4, 5, 6))
    while True:
        times = [rng.choice((10, 15, 20, 25, 30, 40, 50, 60)) for _ in range(n)]
        if max(times) >= 1.5 * min(times):
            return [t / 1000 for t in times]


def _uneven(rng) -> tuple[list[float], int]:
    """Stage times and m where the uniform 1F1B formula is clearly (>15 %) off: on nearly even
    stages it would land within tolerance and grade the wrong formula correct."""
    while True:
        times, m = _stage_times(rng), rng.choice((4, 8, 12, 16, 32))
        uniform = formulas.get("bubble_1f1b").evaluate(p=len(times), m=m)
        if distance(formulas.get("bubble_asymmetric").evaluate(**_asym_inputs(times, m)), uniform) > 0.15:
            return times, m


def _asym_givens(times: list[float], m: int) -> tuple:
    return (given("stage_times", "Forward time per micro-batch, stage by stage", "各阶段单个微批次前向耗时",
                  times, "time", "ms"),
            given("m", "Micro-batches per step m", "每步微批次数 m", m))


def _asym_inputs(times: list[float], m: int) -> dict:
    """Stage times in ms for the formula: the bubble is a ratio, and the solution then reads 25, 60, ..."""
    return {"stage_times": [round(t * 1000, 6) for t in times], "m": m}


def _times_text(times: list[float]) -> str:
    return ", ".join(f"{t * 1000:g}" for t in times) + " ms"


_ASYM_FORMULA = "1 − m·Σt / (P·(Σt + (m − 1)·max t))"


@template("pipeline.bubble_asymmetric_given", topic="pipeline", title="Bubble with uneven stages (formula given)",
          title_zh="非均质流水线气泡率（给出公式）", difficulty=1, target_seconds=120)
def bubble_asymmetric_given(rng):
    times, m = _uneven(rng)
    p = len(times)
    return Spec(
        givens=_asym_givens(times, m),
        asks=(Ask(formula="bubble_asymmetric", unit="%", inputs=_asym_inputs(times, m),
                  prompt_en=f"An unbalanced {p}-stage pipeline (e.g. a multimodal model) has forward times "
                            f"{_times_text(times)} per micro-batch and runs m = {m} micro-batches per step. "
                            f"With bubble = {_ASYM_FORMULA}, what is the bubble, in %?",
                  prompt_zh=f"一个负载不均的 {p} 阶段流水线（例如多模态模型）各阶段单个微批次前向耗时为 "
                            f"{_times_text(times)}，每步 m = {m} 个微批次。按气泡率 = {_ASYM_FORMULA}，"
                            "气泡率是多少（%）？"),),
        conventions_en=ASYM_CONV_EN, conventions_zh=ASYM_CONV_ZH,
    )


@template("pipeline.bubble_asymmetric", topic="pipeline", title="Bubble with uneven stages",
          title_zh="非均质流水线气泡率", difficulty=3, target_seconds=180)
def bubble_asymmetric(rng):
    times, m = _uneven(rng)
    p = len(times)
    return Spec(
        givens=_asym_givens(times, m),
        asks=(Ask(formula="bubble_asymmetric", unit="%", inputs=_asym_inputs(times, m),
                  prompt_en=f"{an(f'{p}-stage', cap=True)} pipeline is unbalanced: forward times per micro-batch are "
                            f"{_times_text(times)}. It runs m = {m} micro-batches per step. Derive the bubble "
                            "(idle share of all GPU time in a step, given that the slowest stage paces the "
                            "steady state), in %.",
                  prompt_zh=f"一个 {p} 阶段的流水线负载不均：各阶段单个微批次前向耗时为 {_times_text(times)}，"
                            f"每步 m = {m} 个微批次。已知稳态节奏由最慢阶段决定，推导气泡率"
                            "（一步中所有卡空闲时间占总卡时的比例），单位 %。"),),
        conventions_en=ASYM_CONV_EN, conventions_zh=ASYM_CONV_ZH,
    )


def _target_ask(p: int, target: float) -> Ask:
    return Ask(formula="micro_batches_for_bubble", inputs={"p": p, "target": target}, integer=True,
               tolerance=0.001, unit="",
               prompt_en=f"What is the smallest number of micro-batches m that keeps the plain 1F1B bubble of "
                         f"a P = {p} pipeline at or below {_pct(target)} of the total step time?",
               prompt_zh=f"对 P = {p} 的普通 1F1B 流水线，要让气泡率不超过一步总时间的 {_pct(target)}，"
                         "每步至少需要多少个微批次 m？")


@template("pipeline.micro_batches_for_target", topic="pipeline", title="Micro-batches for a bubble target",
          title_zh="满足气泡率目标的微批次数", difficulty=3, target_seconds=120)
def micro_batches_for_target(rng):
    p, target = rng.choice(STAGES + (48, 64)), rng.choice(TARGETS)
    return Spec(
        givens=(given("p", "Pipeline stages P", "流水线阶段数 P", p),
                given("target", "Bubble target (share of total time)", "气泡率目标（占总时间）", target, "ratio", "%")),
        asks=(_target_ask(p, target),),
        conventions_en=CONV_EN + " The answer is a whole number of micro-batches.",
        conventions_zh=CONV_ZH + "答案为整数个微批次。",
    )


@template("pipeline.schedule_chain", topic="pipeline", title="Pipeline schedule: 1F1B, interleaving, micro-batches",
          title_zh="流水线调度：1F1B、交错与微批次", difficulty=2, target_seconds=300)
def schedule_chain(rng):
    while True:  # the target needs more micro-batches than m: the chain's last steps really shrink the bubble
        p = rng.choice((4, 8, 16))
        m = rng.choice([x for x in MICRO if p <= x <= 64])
        v = rng.choice((2, 4))
        target = rng.choice((0.04, 0.05, 0.1))
        if formulas.get("micro_batches_for_bubble").evaluate(p=p, target=target) > m:
            break
    return Spec(
        scenario_en=f"You run {an(f'{p}-stage')} pipeline with {m} micro-batches per step and want to shrink the bubble.",
        scenario_zh=f"你在训练一个 {p} 阶段的流水线，每步 {m} 个微批次，想要缩小气泡。",
        givens=_pm_givens(p, m) + (given("v", "Virtual stages per GPU v", "每卡虚拟阶段数 v", v),
                                   given("target", "Bubble target", "气泡率目标", target, "ratio", "%")),
        asks=(Ask(formula="bubble_1f1b", unit="%",
                  prompt_en="With the plain 1F1B schedule, what share of the total step time is bubble, in %?",
                  prompt_zh="使用普通 1F1B 调度时，气泡占一步总时间的百分之多少？"),
              Ask(formula="bubble_interleaved", unit="%",
                  prompt_en=f"Switching to interleaved 1F1B with v = {v} virtual stages per GPU (same m): "
                            "what is the bubble now, in %?",
                  prompt_zh=f"改为交错式 1F1B，每卡 v = {v} 个虚拟阶段（m 不变），气泡率变为多少（%）？"),
              _target_ask(p, target),
              Ask(formula="bubble_1f1b", inputs={"p": p, "m": Ref(2)}, unit="%",
                  prompt_en="With that many micro-batches (plain 1F1B), what is the bubble, in %?",
                  prompt_zh="用上一问得到的微批次数（普通 1F1B），气泡率是多少（%）？")),
        conventions_en=CONV_EN, conventions_zh=CONV_ZH,
    )
