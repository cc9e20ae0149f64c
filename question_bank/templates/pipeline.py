"""Pipeline templates: bubbles of 1F1B, interleaved, ZB1P and DualPipe schedules, micro-batches.

Pipeline templates (C§6): the bubble of 1F1B, interleaved and asymmetric stages, micro-batches for a target,
the bubble time of ZB1P and DualPipe, 1F1B's in-flight micro-batches and interleaving's memory cost.

Every bubble share here is the idle share of the *total* step time, (P−1)/(m+P−1) in
the seeds; Narayanan et al. quote (P−1)/m relative to the ideal time instead,
so every prompt says which one it asks for (formulas.md, "conventions that differ").
The bubble times of ZB1P and DualPipe use the notation of the DeepSeek-V3 technical report (Table 2): t_F a
forward chunk, t_B a full backward chunk, t_W its weight-gradient part, t_F&B a forward and a backward chunk run
overlapped; they are idle TIME per stage per step, not a share of the step.
"""

from __future__ import annotations

from engine import formulas
from engine.count_nouns import Noun
from engine.grading import distance
from engine.units import fmt_number, fmt_quantity

from .. import models
from ..spec import Ask, Ref, Spec, World, given
from ..template import template
from .chip_givens import an
from .model_params import unit_for

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
            given("m", "Micro-batches per step m", "每步微批次数 m", m, counts=Noun.MICRO_BATCHES))


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
            given("m", "Micro-batches per step m", "每步微批次数 m", m, counts=Noun.MICRO_BATCHES))


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

# DualPipe feeds micro-batches from both ends: an even number of stages.
EVEN_STAGES = (4, 6, 8, 12, 16, 24, 32)
# With more than 16 stages p and p − 1 differ by less than the tolerance: 1F1B's p-for-(p − 1) slip would pass.
CHAIN_STAGES = (4, 6, 8, 12, 16)
T_F_MS = (2, 3, 4, 5, 6, 8, 10, 12, 15, 20)

SCHEDULES_CONV_EN = ("The notation of DeepSeek's 2024 technical report (Table 2): t_F = one forward chunk, "
           "t_B = one FULL backward chunk (input and weight gradients), t_W = the weight-gradient part of t_B, "
           "t_F&B = a forward and a backward chunk executed overlapped. The bubble is the idle time of a stage "
           "per step (a time, not a share); stages are balanced.")
SCHEDULES_CONV_ZH = ("沿用 DeepSeek 2024 年技术报告（表 2）的记法：t_F = 一个前向块，t_B = 一个完整的反向块（输入梯度和权重梯度），"
           "t_W = t_B 中的权重梯度部分，t_F&B = 重叠执行的一个前向块和一个反向块。气泡指每步中一个阶段的空闲时间"
           "（是时间，不是比例）；各阶段负载均衡。")


def _ms(v: float) -> str:
    return fmt_quantity(v, "time", unit="ms")


def _times(rng, stages: tuple[int, ...] = EVEN_STAGES) -> dict:
    """Balanced chunk times in seconds: backward about twice the forward, its weight-gradient part about half
    of it, the overlapped chunk between max(t_F, t_B) and t_F + t_B."""
    t_f = rng.choice(T_F_MS)
    t_b = round(t_f * rng.choice((1.8, 2.0, 2.2)), 1)
    t_w = round(t_b * rng.choice((0.4, 0.5)), 1)
    t_fb = round(rng.uniform(t_b, t_f + t_b), 1)
    t_fb = min(max(t_fb, t_b), t_f + t_b)
    return {"p": rng.choice(stages), "t_f": t_f / 1000, "t_b": t_b / 1000, "t_w": t_w / 1000, "t_fb": t_fb / 1000}


def _givens(t: dict, names: tuple[str, ...]) -> tuple:
    labels = {"t_f": ("Forward chunk t_F", "前向块 t_F"), "t_b": ("Full backward chunk t_B", "完整反向块 t_B"),
              "t_w": ("Weight-gradient part t_W", "权重梯度部分 t_W"),
              "t_fb": ("Overlapped forward + backward t_F&B", "重叠的前向 + 反向 t_F&B")}
    out = [given("p", "Pipeline stages p", "流水线阶段数 p", t["p"])]
    out += [given(n, *labels[n], t[n], "time", "ms") for n in names]
    return tuple(out)


def _inputs(t: dict, names: tuple[str, ...]) -> dict:
    return {"p": t["p"], **{n: t[n] for n in names}}


@template("pipeline.bubble_time_zb1p", topic="pipeline", title="Zero-bubble (ZB1P) bubble time",
          title_zh="零气泡（ZB1P）调度的气泡时间", difficulty=3, target_seconds=120, source="qi2023, deepseek_v3")
def bubble_time_zb1p(rng):
    t = _times(rng)
    # t_B and t_W drawn again from finer ratios (about 2 t_F and t_B / 2 still): the draw the other schedules share
    # is small enough that 40 seeds repeated a problem (seeds 1 and 2 were one)
    t["t_b"] = round(t["t_f"] * 1000 * rng.choice((1.8, 1.9, 2.0, 2.1, 2.2)), 1) / 1000
    t["t_w"] = round(t["t_b"] * 1000 * rng.choice((0.4, 0.45, 0.5)), 1) / 1000
    names = ("t_f", "t_b", "t_w")
    return Spec(
        givens=_givens(t, names),
        asks=(Ask(formula="bubble_time_zb1p", inputs=_inputs(t, names), unit="ms",
                  prompt_en=f"{an(str(t['p']) + '-stage', cap=True)} pipeline runs the zero-bubble ZB1P "
                            "schedule: the weight-gradient passes "
                            f"are deferred into the fill and drain. With t_F = {_ms(t['t_f'])}, t_B = {_ms(t['t_b'])} "
                            f"and t_W = {_ms(t['t_w'])}, how long does each stage idle per step, in ms?",
                  prompt_zh=f"一个 {t['p']} 阶段的流水线采用零气泡 ZB1P 调度：权重梯度计算被推迟到填充和排空阶段。"
                            f"t_F = {_ms(t['t_f'])}，t_B = {_ms(t['t_b'])}，t_W = {_ms(t['t_w'])}，"
                            "每个阶段每步空闲多少时间（ms）？"),),
        conventions_en=SCHEDULES_CONV_EN, conventions_zh=SCHEDULES_CONV_ZH,
    )


@template("pipeline.bubble_time_dualpipe", topic="pipeline", title="DualPipe bubble time",
          title_zh="DualPipe 的气泡时间", difficulty=3, target_seconds=120, source="deepseek_v3")
def bubble_time_dualpipe(rng):
    t = _times(rng)
    names = ("t_fb", "t_b", "t_w")
    return Spec(
        givens=_givens(t, names),
        asks=(Ask(formula="bubble_time_dualpipe", inputs=_inputs(t, names), unit="ms",
                  prompt_en=f"DeepSeek's DualPipe on {an(str(t['p']) + '-stage')} pipeline: micro-batches enter from both ends, each "
                            "step overlaps a forward and a backward chunk, and weight gradients are deferred. With "
                            f"t_F&B = {_ms(t['t_fb'])}, t_B = {_ms(t['t_b'])} and t_W = {_ms(t['t_w'])}, how long does "
                            "each stage idle per step, in ms?",
                  prompt_zh=f"在 {t['p']} 阶段的流水线上运行 DeepSeek 的 DualPipe：微批次从两端同时进入，每步把一个前向块和一个"
                            f"反向块重叠执行，权重梯度推迟计算。t_F&B = {_ms(t['t_fb'])}，t_B = {_ms(t['t_b'])}，"
                            f"t_W = {_ms(t['t_w'])}，每个阶段每步空闲多少时间（ms）？"),),
        conventions_en=SCHEDULES_CONV_EN, conventions_zh=SCHEDULES_CONV_ZH,
    )


@template("pipeline.schedules_bubble_chain", topic="pipeline", title="Bubble time: 1F1B → ZB1P → DualPipe",
          title_zh="气泡时间：1F1B → ZB1P → DualPipe", difficulty=3, target_seconds=300,
          source="narayanan2021, qi2023, deepseek_v3")
def schedules_bubble_chain(rng):
    t = _times(rng, CHAIN_STAGES)
    p = t["p"]
    return Spec(
        scenario_en=f"{an(f'{p}-stage', cap=True)} pipeline is being moved off 1F1B; the chunk times were profiled on one stage. "
                    "Compare the idle time per stage per step of three schedules.",
        scenario_zh=f"一个 {p} 阶段的流水线准备换掉 1F1B 调度；已在一个阶段上测得各块耗时。比较三种调度下每个阶段每步的空闲时间。",
        givens=_givens(t, ("t_f", "t_b", "t_w", "t_fb")),
        asks=(Ask(formula="bubble_time_1f1b", inputs=_inputs(t, ("t_f", "t_b")), unit="ms",
                  prompt_en="With 1F1B, how long does each stage idle per step, in ms?",
                  prompt_zh="采用 1F1B 时，每个阶段每步空闲多少时间（ms）？"),
              Ask(formula="bubble_time_zb1p", inputs=_inputs(t, ("t_f", "t_b", "t_w")), unit="ms",
                  prompt_en="With zero-bubble ZB1P (weight gradients deferred into the bubble), in ms?",
                  prompt_zh="采用零气泡 ZB1P（权重梯度推迟到气泡中计算）时呢（ms）？"),
              Ask(formula="bubble_time_dualpipe", inputs=_inputs(t, ("t_fb", "t_b", "t_w")), unit="ms",
                  prompt_en="With DualPipe (fed from both ends, forward and backward chunks overlapped), in ms?",
                  prompt_zh="采用 DualPipe（两端同时喂入，前向块与反向块重叠）时呢（ms）？",
                  takeaway="each schedule attacks the bubble differently: ZB1P fills it with weight-gradient work, "
                           "DualPipe also halves the fill by feeding both ends (at the cost of two copies of the "
                           "parameters); none of them changes the micro-batch count 1F1B needed.",
                  takeaway_zh="三种调度各用不同的办法缩小气泡：ZB1P 用权重梯度计算填满它，DualPipe 还通过两端喂入让填充减半"
                              "（代价是保存两份参数）；它们都不改变 1F1B 所需的微批次数。")),
        conventions_en=SCHEDULES_CONV_EN, conventions_zh=SCHEDULES_CONV_ZH,
    )


# --------------------------------------------------------------------------- #
# 1F1B in-flight micro-batches and interleaving memory (pipeline)

PIPE_EN = ("1F1B schedule with m ≥ P micro-batches: stage k (1 = first) runs P − k + 1 forwards before its first "
           "backward, so it holds that many micro-batches' activations at its peak (GPipe holds all m). The model "
           "splits evenly: L/P layers per stage. MB = 10⁶ B, GB = 10⁹ B.")
PIPE_ZH = ("1F1B 调度，微批次数 m ≥ P：第 k 个阶段（1 为第一个）在第一次反向之前先做 P − k + 1 次前向，因此峰值时保存这么多"
           "个微批次的激活值（GPipe 则保存全部 m 个）。模型均匀切分：每阶段 L/P 层。MB = 10⁶ B，GB = 10⁹ B。")


def _pipe_setup(rng):
    model = rng.choice([m for m in models.DENSE if m.layers % 8 == 0])
    p = rng.choice([x for x in (4, 8) if model.layers % x == 0])
    m = rng.choice((16, 32, 64))
    return model, p, m


@template("pipeline.inflight_1f1b", topic="pipeline", title="1F1B in-flight micro-batches on a stage",
          title_zh="1F1B 某阶段在途的微批次数", difficulty=2, target_seconds=60, source="narayanan2021")
def inflight_1f1b(rng):
    p = rng.choice((4, 6, 8, 12, 16))
    k, m = rng.randint(1, p), rng.choice((32, 48, 64))
    # half the deeper pipelines have twice the stages (24 or 32, as Megatron-LM's largest runs): answers to 32.
    # Drawn last, so the other seeds keep their problem
    if rng.random() < 0.5 and p >= 12:
        p, k = 2 * p, rng.randint(1, 2 * p)
    return Spec(
        givens=(given("p", "Pipeline stages P", "流水线阶段数 P", p), given("stage", "Stage k", "阶段 k", k),
                given("m", "Micro-batches per step m", "每步微批次数 m", m, counts=Noun.MICRO_BATCHES)),
        asks=(Ask(formula="inflight_microbatches_1f1b", inputs={"p": p, "stage": k}, integer=True, tolerance=0.001,
                  unit="", extras={"m": m},
                  prompt_en=f"A 1F1B pipeline of P = {p} stages runs m = {m} micro-batches per step. At its peak, "
                            f"how many micro-batches' activations does stage k = {k} hold?",
                  prompt_zh=f"一个 P = {p} 阶段的 1F1B 流水线每步跑 m = {m} 个微批次。峰值时，第 k = {k} 个阶段保存"
                            "多少个微批次的激活值？"),),
        conventions_en=PIPE_EN + " A whole number.", conventions_zh=PIPE_ZH + "答案为整数。",
    )


@template("pipeline.inflight_memory_chain", topic="pipeline",
          title="1F1B activation memory: in-flight micro-batches → first stage → GPipe",
          title_zh="1F1B 激活显存：在途微批次 → 第一阶段 → GPipe", difficulty=3, target_seconds=360,
          source="narayanan2021, huang2019, korthikanti2022")
def inflight_memory_chain(rng):
    model, p, m = _pipe_setup(rng)
    s = rng.choice([x for x in (2048, 4096) if x <= model.max_seq])
    layer = formulas.get("activation_bytes_layer_tp_sp").evaluate(s=s, b=1, h=model.d_model, a=model.n_heads, t=8)
    layer = float(f"{layer:.3g}")
    per = model.layers // p
    u1 = unit_for("stage_activation_bytes", inflight=p, stage_layers=per, layer_bytes=layer)
    u2 = unit_for("stage_activation_bytes", inflight=m, stage_layers=per, layer_bytes=layer)
    times = fmt_number(m / p)
    return Spec(
        scenario_en=f"{model.name} ({model.layers} layers) on a P = {p} pipeline, m = {m} micro-batches per step; one "
                    f"layer keeps {fmt_quantity(layer, 'bytes', unit='MB')} of activations per micro-batch on each GPU.",
        scenario_zh=f"{model.name}（{model.layers} 层）做 P = {p} 的流水线，每步 m = {m} 个微批次；每张卡上单层每个微批次"
                    f"保存 {fmt_quantity(layer, 'bytes', unit='MB')} 激活值。",
        givens=(*_pm_givens(p, m), given("layers", "Layers L", "层数 L", model.layers),
                given("layer_bytes", "Activations per layer and micro-batch", "每层每个微批次的激活值", layer, "bytes", "MB")),
        asks=(Ask(formula="inflight_microbatches_1f1b", inputs={"p": p, "stage": 1}, integer=True, tolerance=0.001,
                  unit="", extras={"m": m},
                  prompt_en="With 1F1B, how many micro-batches does the FIRST stage hold at its peak?",
                  prompt_zh="采用 1F1B 时，第一个阶段峰值时保存多少个微批次？"),
              Ask(formula="stage_activation_bytes", inputs={"inflight": Ref(0), "stage_layers": per, "layer_bytes": layer},
                  unit=u1,
                  prompt_en=f"Its {per} layers keep how much activation memory at that peak, in {u1}?",
                  prompt_zh=f"这个阶段的 {per} 层在峰值时保存多少激活显存（{u1}）？"),
              Ask(formula="stage_activation_bytes", inputs={"inflight": m, "stage_layers": per, "layer_bytes": layer},
                  unit=u2,
                  prompt_en=f"With GPipe (all forwards, then all backwards), how much would that stage hold, in {u2}?",
                  prompt_zh=f"若用 GPipe（先做完全部前向再做反向），这个阶段要保存多少（{u2}）？",
                  explanation=(f"GPipe runs all m forwards before the first backward: every micro-batch of the step is "
                               f"in flight, n_inflight = m = {m}",),
                  explanation_zh=(f"GPipe 在第一次反向之前做完全部 m 次前向：一步里的所有微批次都在途，n_inflight = m = {m}",),
                  takeaway=f"GPipe holds all m = {m} micro-batches, m/P = {times}× the 1F1B peak: the same bubble at "
                           f"{times}× the activation memory is why 1F1B replaced it.",
                  takeaway_zh=f"GPipe 保存全部 m = {m} 个微批次，是 1F1B 峰值的 m/P = {times} 倍：气泡一样大，激活显存却是 "
                              f"{times} 倍，这就是 1F1B 取代它的原因。")),
        conventions_en=PIPE_EN, conventions_zh=PIPE_ZH,
        world=World(model=model, precision="bf16", seq=s),
    )


INTERLEAVE_EN = ("Interleaved 1F1B: each GPU holds v non-adjacent model chunks; the bubble is the idle share of the "
                 "TOTAL step time. Korthikanti et al. 2022 (§4.2.3): the first stage's activation memory grows by the "
                 "factor 1 + (P − 1)/(P·v) over plain 1F1B.")
INTERLEAVE_ZH = ("交错式 1F1B：每张卡持有 v 个不相邻的模型块；气泡率指空闲时间占一步总时间的比例。Korthikanti 等 2022"
                 "（§4.2.3）：第一阶段的激活显存是普通 1F1B 的 1 + (P − 1)/(P·v) 倍。")


@template("pipeline.interleaving_tradeoff", topic="pipeline",
          title="Interleaving's trade-off: plain bubble → interleaved bubble → memory factor",
          title_zh="交错调度的代价：普通气泡 → 交错气泡 → 显存倍数", difficulty=3, target_seconds=300,
          source="narayanan2021, korthikanti2022")
def interleaving_tradeoff(rng):
    p = rng.choice((2, 4, 6, 8, 12, 16))
    m = rng.choice([x for x in (8, 12, 16, 24, 32, 48, 64) if x >= p])
    v = rng.choice((2, 3, 4))
    return Spec(
        scenario_en=f"A P = {p} pipeline runs m = {m} micro-batches per step; you consider v = {v} virtual stages per GPU.",
        scenario_zh=f"一个 P = {p} 的流水线每步 m = {m} 个微批次；你考虑每卡 v = {v} 个虚拟阶段。",
        givens=(given("p", "Pipeline stages P", "流水线阶段数 P", p), given("m", "Micro-batches per step m", "每步微批次数 m", m),
                given("v", "Virtual stages per GPU v", "每卡虚拟阶段数 v", v)),
        asks=(Ask(formula="bubble_1f1b", inputs={"p": p, "m": m}, unit="%",
                  prompt_en="With plain 1F1B, what is the bubble, in %?", prompt_zh="普通 1F1B 的气泡率是多少（%）？"),
              Ask(formula="bubble_interleaved", inputs={"p": p, "m": m, "v": v}, unit="%",
                  prompt_en=f"With interleaving (v = {v}), what is the bubble, in %?",
                  prompt_zh=f"交错调度（v = {v}）下气泡率是多少（%）？"),
              Ask(formula="interleaved_activation_factor", inputs={"p": p, "v": v}, unit="",
                  prompt_en="By what factor does the first stage's activation memory grow over plain 1F1B?",
                  prompt_zh="第一阶段的激活显存是普通 1F1B 的多少倍？")),
        conventions_en=INTERLEAVE_EN, conventions_zh=INTERLEAVE_ZH,
    )
