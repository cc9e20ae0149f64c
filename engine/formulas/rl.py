"""Reinforcement-learning systems: the trainer → rollout weight sync, the RL step with and without one-step
asynchrony, how to split a GPU pool between rollout and training, and how far rollouts may run ahead.

"Your trainer finishes a step on a 1T MoE; how long until 128 rollout GPUs have the new weights? Colocated or
separate pools? How stale may rollouts be?"  Bandwidths are one GPU's one-way NIC (400 Gb/s = 50 GB/s); the
weights are counted at the rollout engine's precision (the sender quantises before sending).
"""

from __future__ import annotations

from .core import Formula, Misconception, Part
from .inputs import (
    GEN_GPU_SECONDS,
    GPUS_PER_REPLICA,
    LINK_BW,
    MAX_STALENESS,
    N_SENDERS,
    RL_BATCH,
    RL_MODE,
    ROLLOUT_REPLICAS,
    SENDER_COPIES,
    SYNC_ALPHA,
    SYNC_WEIGHT_BYTES,
    T_GEN,
    T_SYNC,
    T_TRAIN,
    TRAIN_GPU_SECONDS,
)
from .registry import register

# The senders push no more copies than there are replicas: min(sender_copies, replicas) (sender_copies defaults to
# replicas, point-to-point; 1 is a broadcast tree).
SEND = "min(sender_copies, replicas)*weight_bytes/(n_senders*link_bandwidth)"
RECV = "weight_bytes/(gpus_per_replica*link_bandwidth)"
SYNC_EXPR = f"alpha + max({RECV}, {SEND})"

register(
    Formula("weight_sync_time",
            (SYNC_WEIGHT_BYTES, GPUS_PER_REPLICA, ROLLOUT_REPLICAS, N_SENDERS, LINK_BW, SYNC_ALPHA, SENDER_COPIES),
            SYNC_EXPR, "time",
            "time until every rollout replica holds the trainer's new weights (separate pools): each rollout GPU "
            "receives its 1/g shard through its own NIC, while the trainer's senders push sender_copies full copies; "
            "the slower side sets the time", "perplexity2025, kimi_checkpoint_engine",
            (Misconception("trainer_precision", "sent the trainer's bf16 bytes to an fp8 engine (the sender quantises "
                           "first)", "2*(" + SYNC_EXPR + ")", "把训练端的 bf16 字节发给了 fp8 引擎（发送端应先量化）"),
             Misconception("one_nic", "pushed the whole model through one NIC per replica",
                           f"alpha + max(weight_bytes/link_bandwidth, {SEND})",
                           "每个副本只用一张网卡接收整个模型"),
             Misconception("receiver_only", "forgot the sender-side limit (the trainer pushes every copy)",
                           f"alpha + {RECV}",
                           "忘了发送端的上限（每一份都要由训练端推出去）"),
             Misconception("gbit_as_gbyte", "took 400 Gb/s as 400 GB/s (bits are an eighth of bytes)",
                           f"alpha + max({RECV}, {SEND})/8",
                           "把 400 Gb/s 当成了 400 GB/s（比特是字节的八分之一）")),
            "T_sync",
            refs="sheng2024",
            decomposition=("receive side: each replica's g GPUs take their 1/g shard in parallel, all replicas at "
                           "once: W / (g × W_link)",
                           "send side: the n_send trainer GPUs together push copies × W (point-to-point: one copy per "
                           "replica; a broadcast tree: one; never more than the R replicas): min(copies, R) × W / (n_send × W_link); the "
                           "slower side wins"),
            decomposition_zh=("接收端：每个副本的 g 张卡并行接收各自 1/g 的分片，所有副本同时进行：W / (g × W_link)",
                              "发送端：n_send 张训练卡一起推出 copies × W（点对点每个副本一份；广播树只有一份；"
                              "不超过副本数 R）：min(copies, R) × W / (n_send × W_link)；取两者中较慢的"),
            parts=(Part("recv", "T_recv", RECV, "time",
                        "each rollout GPU takes its shard", "每张 rollout 卡接收自己的分片"),
                   Part("send", "T_send", SEND, "time",
                        "the trainer's GPUs push every copy", "训练端的卡推出每一份")),
            via="alpha + max(recv, send)",
            simplification=("W at the engine's precision: a 1T model for an fp8 engine is 1 TB, not the trainer's "
                            "2 TB of bf16; colocated pools (same GPUs) reshard over NVLink instead "
                            "(allgather_time with m = W / TP)",),
            simplification_zh=("W 按推理引擎的精度计：给 fp8 引擎的 1T 模型是 1 TB，而不是训练端 bf16 的 2 TB；"
                               "共置（同一批卡）时改为在 NVLink 上重新切分（allgather_time，m = W / TP）",),
            takeaway="the new weights arrive in {result}: receive {recv} vs send {send}, so spread the bytes over every "
                     "NIC on both sides (Perplexity moves Kimi-K2's 1T in 1.3 s this way).",
            takeaway_zh="新权重 {result} 后到达：接收端 {recv}、发送端 {send}，所以要让两端的每张网卡都分担字节"
                        "（Perplexity 就这样在 1.3 秒内传完 Kimi-K2 的 1T 参数）。",
            example={"weight_bytes": 1e12, "gpus_per_replica": 16, "replicas": 8, "n_senders": 256,
                     "link_bandwidth": 50e9, "alpha": 0, "sender_copies": 8},
            meaning_zh="每个 rollout 副本都拿到训练端新权重所需的时间（分开的 GPU 池）：每张 rollout 卡通过自己的网卡接收 1/g "
                       "分片，训练端的发送卡推出 sender_copies 份完整权重；由较慢的一端决定"),
    Formula("rl_step_time", (T_GEN, T_TRAIN, T_SYNC, RL_MODE),
            "(1 - mode)*(t_gen + t_train) + mode*max(t_gen, t_train) + t_sync", "time",
            "wall-clock time of one RL step: sync adds generation, training and the weight sync; one_step_async "
            "overlaps the next batch's rollout with training (separate GPUs), the sync still not overlapped",
            "noukhovitch2024, sheng2024",
            (Misconception("added_async", "added generation and training in the async case (they overlap)",
                           "t_gen + t_train + t_sync", "异步时把生成和训练相加了（它们是重叠的）"),
             Misconception("no_sync", "forgot the weight sync", "(1 - mode)*(t_gen + t_train) + mode*max(t_gen, t_train)",
                           "漏了权重同步的时间")),
            "T_step",
            decomposition=("sync: the same policy generates, then trains, then the weights move: t_gen + t_train + "
                           "t_sync; one_step_async: rollout of batch i+1 runs while batch i trains, so the slower of "
                           "the two sets the pace, and the sync between them is still paid: max(t_gen, t_train) + "
                           "t_sync",),
            decomposition_zh=("sync：同一个策略先生成、再训练、再同步权重：t_gen + t_train + t_sync；one_step_async："
                              "第 i+1 批的 rollout 与第 i 批的训练同时进行，较慢的那个决定节奏，中间的权重同步仍要付："
                              "max(t_gen, t_train) + t_sync",),
            takeaway="one RL step takes {result}: overlapping rollout with training hides the faster phase, at the "
                     "price of samples one policy version old.",
            takeaway_zh="一个 RL 步需要 {result}：让 rollout 与训练重叠可以藏住较快的那个阶段，代价是样本落后一个策略版本。",
            example={"t_gen": 60, "t_train": 40, "t_sync": 2, "mode": 1},
            meaning_zh="一个 RL 步的墙钟时间：sync 是生成、训练、权重同步相加；one_step_async 让下一批的 rollout 与训练重叠"
                       "（分开的 GPU），权重同步仍不重叠"),
    Formula("rl_gen_gpu_share", (GEN_GPU_SECONDS, TRAIN_GPU_SECONDS),
            "gen_gpu_seconds/(gen_gpu_seconds + train_gpu_seconds)", "ratio",
            "share of a fixed GPU pool to give rollout so that generation and training take equally long in "
            "one-step-async RL (both assumed to scale linearly with GPUs)", "noukhovitch2024",
            (Misconception("ratio_not_share", "gave the ratio rollout : training instead of rollout's share of the pool",
                           "gen_gpu_seconds/train_gpu_seconds", "给出了 rollout 与训练之比，而不是 rollout 占整个池的比例"),),
            "share_gen",
            decomposition=("with N GPUs, a share x for rollout: t_gen = G_gen / (x N), t_train = G_train / ((1 − x) N); "
                           "setting them equal gives x = G_gen / (G_gen + G_train)",),
            decomposition_zh=("共 N 张卡、rollout 占比 x：t_gen = G_gen / (x N)，t_train = G_train / ((1 − x) N)；"
                              "令两者相等得 x = G_gen / (G_gen + G_train)",),
            parts=(Part("total", "G_gen + G_train", "gen_gpu_seconds + train_gpu_seconds", "time",
                        "GPU-seconds of one whole step", "一整步的 GPU 秒数"),),
            via="gen_gpu_seconds/total",
            takeaway="give rollout {result} of the GPUs: RL with long reasoning traces is mostly generation, so most "
                     "of the pool serves, not trains.",
            takeaway_zh="把 {result} 的卡分给 rollout：长推理链的 RL 主要是生成，所以池子里大部分卡在做推理，而不是训练。",
            example={"gen_gpu_seconds": 3000, "train_gpu_seconds": 1000},
            meaning_zh="在 one-step-async RL 中，为使生成与训练耗时相等，固定 GPU 池中应分给 rollout 的比例"
                       "（假设两者都随 GPU 数线性扩展）"),
    Formula("async_max_inflight", (RL_BATCH, MAX_STALENESS), "(max_staleness + 1)*batch", "count",
            "most trajectories that may be generated ahead of the trainer's current policy version so that no "
            "consumed sample is more than max_staleness versions old (the expression is not verified against the "
            "AReaL paper's text)", "fu2025",
            (Misconception("no_current", "forgot the batch of the current version (staleness 0 still allows one batch)",
                           "max_staleness*batch", "漏了当前版本那一批（陈旧度为 0 时也允许一批在途）"),),
            "N_inflight",
            decomposition=("versions v_train − η .. v_train may still be consumed: η + 1 versions, each a batch of B "
                           "trajectories (this expression is not verified against the AReaL paper's text)",),
            decomposition_zh=("版本 v_train − η 到 v_train 的样本都还能用：共 η + 1 个版本，每个版本一批 B 条轨迹"
                              "（这个表达式未与 AReaL 论文原文核对）",),
            takeaway="at most {result} trajectories may be in flight: a larger staleness keeps the rollout GPUs busy "
                     "but trains on older policies (4 in most async recipes, not verified).",
            takeaway_zh="最多允许 {result} 条轨迹在途：陈旧度越大，rollout 卡越不空闲，但训练用的策略越旧"
                        "（多数异步方案取 4，未经核实）。",
            example={"batch": 512, "max_staleness": 4},
            meaning_zh="为使被消耗的样本最多落后 max_staleness 个版本，可比训练端当前策略提前生成的最多轨迹数"
                       "（该表达式未与 AReaL 论文原文核对）"),
)
