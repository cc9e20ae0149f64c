"""Bubble time of the schedules after 1F1B (issue #26): zero-bubble ZB1P and DeepSeek's DualPipe against 1F1B,
in the notation of the DeepSeek-V3 technical report (Table 2): t_F a forward chunk, t_B a full backward chunk, t_W its
weight-gradient part, t_F&B a forward and a backward chunk run overlapped.  The bubble here is idle TIME per
stage per step, not a share of the step."""

from __future__ import annotations

from engine.units import fmt_quantity

from ..base import Ask, Spec, given, template
from .roofline import an

# DualPipe feeds micro-batches from both ends: an even number of stages.
STAGES = (4, 6, 8, 12, 16, 24, 32)
# With more than 16 stages p and p − 1 differ by less than the tolerance: 1F1B's p-for-(p − 1) slip would pass.
CHAIN_STAGES = (4, 6, 8, 12, 16)
T_F_MS = (2, 3, 4, 5, 6, 8, 10, 12, 15, 20)

CONV_EN = ("The notation of DeepSeek's 2024 technical report (Table 2): t_F = one forward chunk, t_B = one FULL backward chunk (input and "
           "weight gradients), t_W = the weight-gradient part of t_B, t_F&B = a forward and a backward chunk executed "
           "overlapped. The bubble is the idle time of a stage per step (a time, not a share); stages are balanced.")
CONV_ZH = ("沿用 DeepSeek 2024 年技术报告（表 2）的记法：t_F = 一个前向块，t_B = 一个完整的反向块（输入梯度和权重梯度），"
           "t_W = t_B 中的权重梯度部分，t_F&B = 重叠执行的一个前向块和一个反向块。气泡指每步中一个阶段的空闲时间"
           "（是时间，不是比例）；各阶段负载均衡。")


def _ms(v: float) -> str:
    return fmt_quantity(v, "time", unit="ms")


def _times(rng, stages: tuple[int, ...] = STAGES) -> dict:
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
    names = ("t_f", "t_b", "t_w")
    return Spec(
        givens=_givens(t, names),
        asks=(Ask(formula="bubble_time_zb1p", inputs=_inputs(t, names), unit="ms",
                  prompt_en=f"{an(str(t['p']) + '-stage', cap=True)} pipeline runs the zero-bubble ZB1P schedule: the weight-gradient passes "
                            f"are deferred into the fill and drain. With t_F = {_ms(t['t_f'])}, t_B = {_ms(t['t_b'])} "
                            f"and t_W = {_ms(t['t_w'])}, how long does each stage idle per step, in ms?",
                  prompt_zh=f"一个 {t['p']} 阶段的流水线采用零气泡 ZB1P 调度：权重梯度计算被推迟到填充和排空阶段。"
                            f"t_F = {_ms(t['t_f'])}，t_B = {_ms(t['t_b'])}，t_W = {_ms(t['t_w'])}，"
                            "每个阶段每步空闲多少时间（ms）？"),),
        conventions_en=CONV_EN, conventions_zh=CONV_ZH,
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
        conventions_en=CONV_EN, conventions_zh=CONV_ZH,
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
        conventions_en=CONV_EN, conventions_zh=CONV_ZH,
    )
