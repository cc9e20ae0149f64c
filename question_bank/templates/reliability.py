"""Failure and checkpoint templates: checkpoint size and time, failure rates, Young-Daly, goodput.

Failures and checkpoints at thousands of GPUs: how big a resumable checkpoint is, how long it
takes to write, how often a large job fails, the Young-Daly checkpoint interval, the time an interval wastes
and the goodput left once restarts are counted.

Node MTBFs and storage bandwidths come from dated ranges (question_bank/data/ranges.toml): Meta's Llama 3
run (2024) implies ~6,300 h per 8-GPU node; a job's checkpoint file system is sized as AWS sells one (FSx for Lustre:
capacity × 125-1,000 MB/s per TiB), so a synchronous checkpoint stalls 30-120 s, the stalls the goodput chain gives.
"""

from __future__ import annotations

from engine.units import fmt_quantity

from .. import ranges
from ..spec import Ask, Ref, Spec, World, given
from ..template import template
from .model_params import phi_text

GPUS_PER_NODE = 8
NODES = (128, 256, 512, 1024, 2048)
RESTART_MIN = (5, 10, 15, 20, 30)  # detect, reschedule, reload: minutes

CONV_EN = ("Conventions: failures are independent, so the job's MTBF = node MTBF ÷ nodes; a failure loses on "
           "average half an interval of work (first order); TB = 1e12 B.")
CONV_ZH = "约定：故障相互独立，作业的平均无故障时间 (MTBF) = 节点 MTBF ÷ 节点数；每次故障平均丢掉半个间隔的工作（一阶近似）；TB = 1e12 B。"
# The interval these problems ask for counts the restart (the convention's default, Daly): say so, or √(2δM) (Young,
# a named convention) reads as just as right from the text alone.
RESTART_EN = (" The best interval counts the restart: a failure comes once every M + R of wall time (Daly 2006), "
              "not every M.")
RESTART_ZH = "最优间隔计入重启：每 M + R 的墙钟时间出一次故障（Daly 2006），而不是每 M。"
CKPT_EN = (" A resumable checkpoint holds 14 B per parameter: bf16 weights + fp32 master weights, Adam m and v. "
           "GB = 1e9 B; a file system's throughput is AWS's rating per TiB of capacity.")
CKPT_ZH = "能恢复训练的检查点每参数 14 B：bf16 权重 + fp32 主权重、Adam 的 m 和 v。GB = 1e9 B；文件系统吞吐按 AWS 每 TiB 容量的额定值计。"


def _node_mtbf_h(rng) -> float:
    """A per-node MTBF in hours around the one Llama 3's run implies (the range's low end: ~6,300 h per node)."""
    implied = ranges.get("gpu_mtbf_derived_llama3").low
    return float(rng.choice((5000, 6000, round(implied, -2), 8000, 10000)))


def _mtbf_text(h: float) -> str:
    return f"{h:,.0f} h"


def _source_en() -> str:
    r = ranges.get("gpu_mtbf_derived_llama3")
    return f"(Llama 3's 2024 run implies ~{r.low:,.0f} h per 8-GPU node)"


def _source_zh() -> str:
    r = ranges.get("gpu_mtbf_derived_llama3")
    return f"（Llama 3 在 2024 年的训练推算出每个 8 卡节点约 {r.low:,.0f} h）"


# A job's own checkpoint file system, as AWS provisions FSx for Lustre (ranges.toml cloud_lustre_throughput_per_tib):
# throughput = capacity (TiB) × a PERSISTENT_2 tier (MB/s per TiB).  Meta's whole Llama 3 storage (2 TB/s sustained)
# is shared by every job on the cluster, so a job never writes at all of it.
CAPACITY_TIB = (100, 200, 300, 500)
TIERS_MB_S_PER_TIB = (250, 500, 1000)
# A synchronous checkpoint stalls training as long as the goodput chain's δ (30-120 s), never a blink
STALL_S = (30.0, 120.0)


def _job_storage(rng, checkpoint_bytes: float) -> tuple[int, int, float]:
    """(capacity TiB, tier MB/s per TiB, write bandwidth B/s) of a job's file system that writes the checkpoint
    in 30-120 s."""
    while True:
        tib, tier = rng.choice(CAPACITY_TIB), rng.choice(TIERS_MB_S_PER_TIB)
        bw = tib * tier * 1e6
        if STALL_S[0] <= checkpoint_bytes / bw <= STALL_S[1]:
            return tib, tier, bw


def _bw_text(bw: float) -> str:
    return fmt_quantity(bw, "bandwidth", unit="GB/s")


@template("reliability.young_daly", topic="reliability", title="How often to checkpoint a job of thousands of GPUs",
          title_zh="数千卡作业多久存一次检查点", difficulty=2, target_seconds=150, source="young1974, daly2006, llama3_2024")
def young_daly(rng):
    n = rng.choice(NODES)
    node_h = _node_mtbf_h(rng)
    delta = float(rng.choice((20, 30, 45, 60, 90, 120)))
    restart = rng.choice(RESTART_MIN) * 60.0
    mtbf = node_h * 3600 / n
    return Spec(
        givens=(given("n_nodes", "Nodes (8 GPUs each)", "节点数（每个 8 卡）", n),
                given("node_mtbf", "MTBF of one node", "单个节点的平均无故障时间", node_h * 3600, "time", "h"),
                given("checkpoint_time", "Checkpoint stall δ", "检查点暂停时间 δ", delta, "time", "s"),
                given("restart_time", "Restart time R", "重启时间 R", restart, "time", "min")),
        asks=(Ask(formula="young_daly_interval", unit="min",
                  inputs={"checkpoint_time": delta, "mtbf": mtbf, "restart_time": restart},
                  explanation=(f"the job fails when any node fails: M = {_mtbf_text(node_h)} ÷ {n:,} = "
                               f"{fmt_quantity(mtbf, 'time', unit='h')}",),
                  explanation_zh=(f"任何一个节点故障，作业就中断：M = {_mtbf_text(node_h)} ÷ {n:,} = "
                                  f"{fmt_quantity(mtbf, 'time', unit='h')}",),
                  prompt_en=f"A pre-training job runs on {n:,} nodes of {GPUS_PER_NODE} GPUs. One node fails on "
                            f"average every {_mtbf_text(node_h)} {_source_en()}; each checkpoint stalls training "
                            f"{delta:g} s and each failure costs {restart / 60:g} min to restart. At what interval "
                            "should the job checkpoint to lose the least time?",
                  prompt_zh=f"一个预训练作业跑在 {n:,} 个 {GPUS_PER_NODE} 卡节点上。单个节点平均每 {_mtbf_text(node_h)} "
                            f"出一次故障{_source_zh()}；每次存检查点训练暂停 {delta:g} s，每次故障重启要 "
                            f"{restart / 60:g} min。检查点间隔取多少，损失的时间最少？"),),
        conventions_en=CONV_EN + RESTART_EN, conventions_zh=CONV_ZH + RESTART_ZH,
        world=World(n_gpus=1),
    )


@template("reliability.checkpoint_chain", topic="reliability",
          title="Checkpoint size → write time → job MTBF → interval",
          title_zh="检查点大小 → 写入时间 → 作业 MTBF → 检查点间隔", difficulty=3, target_seconds=360,
          source="llama3_2024, young1974, daly2006")
def checkpoint_chain(rng):
    phi, moe = rng.choice(((175e9, False), (405e9, False), (671e9, True), (1e12, True)))
    kind_en = "mixture-of-experts model (every expert is saved)" if moe else "dense model"
    kind_zh = "混合专家模型（所有专家都要保存）" if moe else "稠密模型"
    n = rng.choice(NODES[2:])
    node_h = _node_mtbf_h(rng)
    tib, tier, bw = _job_storage(rng, 14 * phi)
    restart = rng.choice(RESTART_MIN) * 60.0
    return Spec(
        scenario_en=f"A {phi_text(phi)}-parameter {kind_en} is pre-trained on {n:,} nodes of {GPUS_PER_NODE} GPUs. "
                    f"Checkpoints go synchronously to the job's parallel file system, sized as AWS sells FSx for "
                    f"Lustre: {tib} TiB provisioned at {tier:,} MB/s per TiB, {_bw_text(bw)} of writes. One node "
                    f"fails on average every {_mtbf_text(node_h)} {_source_en()}; a restart takes {restart / 60:g} min.",
        scenario_zh=f"一个 {phi_text(phi)} 参数的{kind_zh}在 {n:,} 个 {GPUS_PER_NODE} 卡节点上预训练。检查点同步写入该作业自己的"
                    f"并行文件系统，按 AWS FSx（托管的 Lustre）的方式配置：{tib} TiB 容量、每 TiB {tier:,} MB/s，写入带宽 "
                    f"{_bw_text(bw)}。单个节点平均每 {_mtbf_text(node_h)} 出一次故障{_source_zh()}；一次重启要 "
                    f"{restart / 60:g} min。",
        givens=(given("phi", "Parameters Φ", "参数量 Φ", phi, "count", "params"),
                given("n_nodes", "Nodes (8 GPUs each)", "节点数（每个 8 卡）", n),
                given("write_bandwidth", "The job's write bandwidth", "作业的写入带宽", bw, "bandwidth", "GB/s"),
                given("node_mtbf", "MTBF of one node", "单个节点的平均无故障时间", node_h * 3600, "time", "h"),
                given("restart_time", "Restart time R", "重启时间 R", restart, "time", "min")),
        asks=(Ask(formula="checkpoint_bytes", inputs={"phi": phi, "bytes_per_param": 14}, unit="TB",
                  prompt_en="How large is one resumable checkpoint, in TB?",
                  prompt_zh="一个能恢复训练的检查点有多大（TB）？"),
              Ask(formula="checkpoint_write_time", inputs={"checkpoint_bytes": Ref(0), "write_bandwidth": bw},
                  unit="s",
                  prompt_en="How long does writing it stall training, in seconds?",
                  prompt_zh="写这个检查点让训练暂停多久（秒）？"),
              Ask(formula="cluster_mtbf", inputs={"node_mtbf": node_h * 3600, "n_nodes": n}, unit="h",
                  prompt_en="What is the whole job's mean time between failures, in hours?",
                  prompt_zh="整个作业的平均无故障时间 (MTBF) 是多少小时？"),
              Ask(formula="young_daly_interval",
                  inputs={"checkpoint_time": Ref(1), "mtbf": Ref(2), "restart_time": restart}, unit="min",
                  prompt_en="At what checkpoint interval is the lost time smallest (Young-Daly), in minutes?",
                  prompt_zh="检查点间隔取多少时损失的时间最少（Young-Daly），单位分钟？")),
        conventions_en=CONV_EN + RESTART_EN + CKPT_EN, conventions_zh=CONV_ZH + RESTART_ZH + CKPT_ZH,
        world=World(phi=phi),
    )


@template("reliability.waste", topic="reliability", title="What an hourly checkpoint wastes",
          title_zh="每小时一次检查点浪费多少时间", difficulty=2, target_seconds=150, source="young1974, llama3_2024")
def waste(rng):
    seen = ranges.get("llama3_job_interruption_interval").low
    while True:  # both terms matter (neither slip lands within tolerance of the answer)
        mtbf_h = float(rng.choice((2, 3, 4, 6, 8, 12)))
        delta = float(rng.choice((30, 60, 90, 120, 180, 300)))
        interval = rng.choice((15, 20, 30, 45, 60, 90, 120)) * 60.0
        save, redo = delta / interval, interval / (2 * mtbf_h * 3600)
        if min(save, redo) >= 0.15 * (save + redo):
            break
    mtbf = mtbf_h * 3600
    return Spec(
        givens=(given("checkpoint_time", "Checkpoint stall δ", "检查点暂停时间 δ", delta, "time", "s"),
                given("interval", "Checkpoint interval τ", "检查点间隔 τ", interval, "time", "min"),
                given("mtbf", "Job MTBF M", "作业的平均无故障时间 M", mtbf, "time", "h")),
        asks=(Ask(formula="checkpoint_waste", unit="%",
                  prompt_en=f"A large pre-training job fails on average every {mtbf_h:g} h (Llama 3's 16K-GPU run "
                            f"in 2024: one interruption every {seen:g} h). It checkpoints every {interval / 60:g} min and "
                            f"each checkpoint stalls training {delta:g} s. What share of the time is lost to "
                            "checkpoints and to work redone after failures (restarts aside)?",
                  prompt_zh=f"一个大规模预训练作业平均每 {mtbf_h:g} h 出一次故障（Llama 3 在 2024 年的 16K 卡训练："
                            f"每 {seen:g} h 中断一次）。它每 {interval / 60:g} min 存一次检查点，每次训练暂停 "
                            f"{delta:g} s。写检查点和故障后重做的工作一共损失多少比例的时间（不计重启）？"),),
        conventions_en=CONV_EN, conventions_zh=CONV_ZH,
        world=World(n_gpus=1),
    )


@template("reliability.goodput_chain", topic="reliability", title="Job MTBF → best interval → goodput",
          title_zh="作业 MTBF → 最优间隔 → 有效训练时间占比", difficulty=3, target_seconds=300,
          source="llama3_2024, young1974, daly2006")
def goodput_chain(rng):
    while True:  # restarts cost a visible share (leaving them out is a wrong answer, not a rounding)
        n = rng.choice(NODES[2:])
        node_h = _node_mtbf_h(rng)
        restart = rng.choice(RESTART_MIN) * 60.0
        if restart / (node_h * 3600 / n) >= 0.07:
            break
    delta = float(rng.choice((30, 60, 90, 120)))
    goal = ranges.get("effective_training_time").low
    return Spec(
        scenario_en=f"A job on {n:,} nodes of {GPUS_PER_NODE} GPUs: one node fails on average every "
                    f"{_mtbf_text(node_h)} {_source_en()}, a checkpoint stalls training {delta:g} s and a restart "
                    f"takes {restart / 60:g} min. Meta reports over {goal:.0%} effective training time for Llama 3.",
        scenario_zh=f"一个跑在 {n:,} 个 {GPUS_PER_NODE} 卡节点上的作业：单个节点平均每 {_mtbf_text(node_h)} 出一次故障"
                    f"{_source_zh()}，每次检查点训练暂停 {delta:g} s，一次重启 {restart / 60:g} min。Meta 报告 Llama 3 "
                    f"的有效训练时间占比 (goodput) 超过 {goal:.0%}。",
        givens=(given("n_nodes", "Nodes (8 GPUs each)", "节点数（每个 8 卡）", n),
                given("node_mtbf", "MTBF of one node", "单个节点的平均无故障时间", node_h * 3600, "time", "h"),
                given("checkpoint_time", "Checkpoint stall δ", "检查点暂停时间 δ", delta, "time", "s"),
                given("restart_time", "Restart time R", "重启时间 R", restart, "time", "min")),
        asks=(Ask(formula="cluster_mtbf", unit="h",
                  prompt_en="What is the job's mean time between failures, in hours?",
                  prompt_zh="作业的平均无故障时间 (MTBF) 是多少小时？"),
              Ask(formula="young_daly_interval", unit="min",
                  inputs={"checkpoint_time": delta, "mtbf": Ref(0), "restart_time": restart},
                  prompt_en="What checkpoint interval loses the least time (Young-Daly), in minutes?",
                  prompt_zh="检查点间隔取多少损失的时间最少（Young-Daly），单位分钟？"),
              Ask(formula="training_goodput", unit="%",
                  inputs={"checkpoint_time": delta, "interval": Ref(1), "mtbf": Ref(0), "restart_time": restart},
                  prompt_en="Checkpointing at that interval, what share of wall-clock time is useful training "
                            "(goodput), counting checkpoints, redone work and restarts?",
                  prompt_zh="按这个间隔存检查点，计入检查点、重做的工作和重启后，墙钟时间中有效训练的比例 (goodput) "
                            "是多少？")),
        conventions_en=CONV_EN + RESTART_EN, conventions_zh=CONV_ZH + RESTART_ZH,
        world=World(n_gpus=1),
    )
