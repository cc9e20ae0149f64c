"""RL post-training systems templates: the trainer → rollout weight sync, the RL step with and without one-step
asynchrony, the rollout share of a GPU pool, and how many trajectories may run ahead of the trainer.

Ranges are the spec's 2026 ones: weights 16 GB (8B bf16) to 1 TB (1T fp8), one scale-out NIC per GPU of
400 Gb/s (H100, H200, B200, GB200) or 800 Gb/s (GB300, ConnectX-8; the catalogue's range scaleout_nic_per_gpu),
syncs of 1-30 s, a max staleness of 1-8.  The catalogue has no per-chip NIC field yet, so the NIC is the
range's 400 or 800 Gb/s by chip generation (B200 and GB200 are 400G per GPU, not 800G).
"""

from __future__ import annotations

from .. import hardware
from ..spec import Ask, Ref, Spec, World, given
from ..template import convention, template

GB = 1e9
# chip keys with an 800 Gb/s ConnectX-8 per GPU; the others of the pool have 400 Gb/s ConnectX-7
NIC_800G = frozenset({"gb300", "b300"})
RL_CHIPS = ("h100_sxm", "h200", "b200", "gb200", "gb300")
# parameters of the policy; the rollout engines run fp8 (1 B per parameter: the sender quantises the bf16 trainer's
# weights), so the weights sent are 16 GB to 1 TB (the spec's range) and "sent bf16" is a slip at every seed
RL_PARAMS = (16e9, 32e9, 70e9, 120e9, 235e9, 405e9, 671e9, 1e12)

SYNC_CONV_EN = ("Separate trainer and rollout pools; each GPU has one scale-out NIC, one way (400 Gb/s = 50 GB/s). "
                "Weights are sent at the rollout engine's precision (the sender quantises). Every replica is written "
                "point-to-point unless a broadcast is stated. GB = 10⁹ B.")
SYNC_CONV_ZH = ("训练池和 rollout 池分开；每张卡一块 scale-out 网卡，按单向计（400 Gb/s = 50 GB/s）。权重按 rollout "
                "引擎的精度发送（由发送端量化）。除非说明是广播，否则每个副本都点对点写入。GB = 10⁹ B。")


def _nic(gpu) -> float:
    return 100e9 if gpu.key in NIC_800G else 50e9


def _gbit(bw: float) -> str:
    return f"{bw * 8 / 1e9:.0f} Gb/s"


@template("communication.rl_weight_sync", topic="communication", title="RL weight sync: trainer to rollout replicas",
          title_zh="RL 权重同步：训练端到 rollout 副本", difficulty=2, target_seconds=150,
          source="perplexity2025, kimi_checkpoint_engine")
def rl_weight_sync(rng):
    gpu = hardware.get(rng.choice(RL_CHIPS))
    phi = rng.choice(RL_PARAMS)
    w = phi
    g = rng.choice([x for x in (4, 8, 16, 32) if w / x <= 0.6 * gpu.memory]) if w / 32 <= 0.6 * gpu.memory else 32
    replicas, senders = rng.choice((2, 4, 8, 16, 32)), rng.choice((32, 64, 128, 256, 512))
    # a broadcast drawn here, or the learner's convention (sender_copies=1): then the convention sets the copies
    chosen = convention("sender_copies") == "1"
    broadcast = rng.random() < 0.3 or chosen
    nic = _nic(gpu)
    inputs = {"weight_bytes": w, "gpus_per_replica": g, "replicas": replicas, "n_senders": senders,
              "link_bandwidth": nic, **({"sender_copies": 1} if broadcast and not chosen else {})}
    dtype = "fp8"
    how_en = "a pipelined broadcast tree (each byte leaves the trainer once)" if broadcast else "point-to-point writes"
    how_zh = "流水线广播树（每个字节只离开训练端一次）" if broadcast else "点对点写入"
    size = "1T" if phi >= 1e12 else f"{phi / 1e9:.0f}B"
    return Spec(
        givens=(given("weight_bytes", f"Weights at the engine's {dtype}", f"按引擎 {dtype} 计的权重", w, "bytes", "GB"),
                given("gpus_per_replica", "GPUs per rollout replica g", "每个 rollout 副本的 GPU 数 g", g),
                given("replicas", "Rollout replicas R", "rollout 副本数 R", replicas),
                given("n_senders", "Trainer GPUs sending n_send", "发送的训练卡数 n_send", senders),
                given("link_bandwidth", f"NIC per {gpu.name} GPU, one way ({_gbit(nic)})",
                      f"每张 {gpu.name} 的网卡，单向（{_gbit(nic)}）", nic, "bandwidth", "GB/s")),
        asks=(Ask(formula="weight_sync_time", inputs=inputs, unit="s",
                  prompt_en=f"An RL run trains a {size} model on {senders} {gpu.name} GPUs and serves rollouts from "
                            f"{replicas} {dtype} replicas of {g} GPUs each, in a separate pool. The new weights go by "
                            f"{how_en}. Ignoring set-up latency, how long until every replica has them, in seconds?",
                  prompt_zh=f"一个 RL 任务在 {senders} 张 {gpu.name} 上训练 {size} 模型，rollout 由另一个池里的 {replicas} 个 "
                            f"{dtype} 副本提供，每个副本 {g} 张卡。新权重通过{how_zh}发送。不计建立连接的延迟，所有副本都拿到"
                            "新权重需要多少秒？"),),
        conventions_en=SYNC_CONV_EN, conventions_zh=SYNC_CONV_ZH,
        world=World(gpu=gpu, n_gpus=g),
    )


@template("parallelism.rl_step_time", topic="parallelism", title="RL step time: sync or one-step async",
          title_zh="RL 步时间：同步还是一步异步", difficulty=2, target_seconds=90, source="noukhovitch2024, sheng2024")
def rl_step_time(rng):
    t_gen, t_train = rng.choice(range(40, 300, 10)), rng.choice(range(20, 150, 5))
    mode = rng.choice(("sync", "one_step_async"))
    phases = t_gen + t_train if mode == "sync" else max(t_gen, t_train)
    # a sync of 1-30 s (Perplexity 1.3 s, checkpoint-engine ~20 s) that is no rounding error of the step
    t_sync = rng.choice([x for x in (1.3, 2, 3, 5, 8, 12, 20, 30) if x > 0.08 * phases] or [30])
    how_en = ("generates, trains and syncs in turn on the same policy" if mode == "sync" else
              "runs one-step async: the rollout of the next batch overlaps training on this one, on separate GPUs")
    how_zh = "用同一个策略依次生成、训练、同步" if mode == "sync" else "一步异步运行：下一批的 rollout 与这一批的训练在不同的卡上重叠"
    return Spec(
        givens=(given("t_gen", "Rollout of one batch t_gen", "一批 rollout 的时间 t_gen", t_gen, "time", "s"),
                given("t_train", "Training on one batch t_train", "训练一批的时间 t_train", t_train, "time", "s"),
                given("t_sync", "Weight sync t_sync", "权重同步 t_sync", t_sync, "time", "s"),
                given("mode", "Schedule", "调度方式", "synchronous" if mode == "sync" else "one-step async",
                      value_zh="同步" if mode == "sync" else "一步异步")),
        asks=(Ask(formula="rl_step_time", inputs={"t_gen": t_gen, "t_train": t_train, "t_sync": t_sync,
                                                  "mode": 0 if mode == "sync" else 1}, unit="s",
                  prompt_en=f"An RL loop {how_en}. Rollout takes {t_gen} s, training {t_train} s and the weight sync "
                            f"{t_sync:g} s, not overlapped. How long is one RL step, in "
                            "seconds?",
                  prompt_zh=f"一个 RL 循环{how_zh}。rollout 需要 {t_gen} 秒，训练 {t_train} 秒，权重同步 "
                            f"{t_sync:g} 秒，同步不与其他阶段重叠。一个 RL 步需要多少秒？"),),
        conventions_en="Times are per batch; the weight sync is never overlapped.",
        conventions_zh="时间都按一批计；权重同步从不与其他阶段重叠。",
    )


@template("parallelism.rl_gen_gpu_share", topic="parallelism", title="RL: the rollout share of a GPU pool",
          title_zh="RL：GPU 池中 rollout 的份额", difficulty=2, target_seconds=90, source="noukhovitch2024")
def rl_gen_gpu_share(rng):
    pool = rng.choice((64, 128, 256, 512, 1024))
    t_gen, t_train = rng.choice(range(60, 600, 15)), rng.choice(range(20, 240, 10))
    g_gen, g_train = t_gen * pool / 2, t_train * pool / 2  # measured on half the pool each
    return Spec(
        givens=(given("gen_gpu_seconds", "Rollout of one batch (GPU-seconds)", "一批 rollout（GPU 秒）", g_gen, "time", "s"),
                given("train_gpu_seconds", "Training on one batch (GPU-seconds)", "训练一批（GPU 秒）", g_train, "time",
                      "s")),
        asks=(Ask(formula="rl_gen_gpu_share", unit="%",
                  prompt_en=f"On a pool of {pool} GPUs split in half, one batch's rollout took {t_gen} s and its "
                            f"training {t_train} s. For one-step-async RL, what share of the pool should rollout get so "
                            "that both phases take equally long (both scale linearly with GPUs), in %?",
                  prompt_zh=f"在 {pool} 张卡对半分的池子上，一批的 rollout 用了 {t_gen} 秒，训练用了 {t_train} 秒。"
                            "做一步异步 RL 时，应把池子的多大比例分给 rollout，才能让两个阶段耗时相等"
                            "（两者都随 GPU 数线性扩展），以 % 表示？"),),
        conventions_en="GPU-seconds = GPUs × seconds; both phases scale linearly with the GPUs they get.",
        conventions_zh="GPU 秒 = GPU 数 × 秒；两个阶段的速度都与分到的 GPU 数成正比。",
    )


@template("parallelism.async_max_inflight", topic="parallelism", title="Async RL: trajectories in flight",
          title_zh="异步 RL：在途轨迹数", difficulty=1, target_seconds=60, source="fu2025")
def async_max_inflight(rng):
    batch, eta = rng.choice((64, 128, 256, 384, 512, 768, 1024, 2048, 4096)), rng.choice(range(1, 9))
    return Spec(
        givens=(given("batch", "Trajectories per training step B", "每个训练步的轨迹数 B", batch),
                given("max_staleness", "Max staleness η (policy versions)", "最大陈旧度 η（策略版本数）", eta)),
        asks=(Ask(formula="async_max_inflight", unit="",
                  prompt_en=f"An asynchronous RL system trains on batches of {batch} trajectories and lets no consumed "
                            f"sample be more than {eta} policy versions old. At most how many trajectories may be "
                            "generated ahead of the trainer's current version?",
                  prompt_zh=f"一个异步 RL 系统每批训练 {batch} 条轨迹，被消耗的样本最多落后 {eta} 个策略版本。最多可以比训练端"
                            "当前版本提前生成多少条轨迹？"),),
        conventions_en="Staleness = the trainer's version minus the version that generated the sample (AReaL's bound; "
                       "the exact expression is not verified against the paper).",
        conventions_zh="陈旧度 = 训练端的版本减去生成该样本的版本（AReaL 的上限；具体表达式未与论文原文核对）。",
    )


@template("parallelism.rl_async_chain", topic="parallelism",
          title="Chain: RL weight sync → async step → rollout share",
          title_zh="追问链：RL 权重同步 → 异步步时间 → rollout 份额", difficulty=3, target_seconds=420,
          source="perplexity2025, noukhovitch2024")
def rl_async_chain(rng):
    while True:  # a sync of 1-30 s (the spec's range), which the step then dwarfs only partly
        gpu = hardware.get(rng.choice(RL_CHIPS))
        phi = rng.choice(RL_PARAMS)
        g = rng.choice([x for x in (8, 16, 32) if phi / x <= 0.6 * gpu.memory] or [32])
        replicas, senders = rng.choice((4, 8, 16, 32)), rng.choice((64, 128, 256, 512))
        nic = _nic(gpu)
        sync = max(phi / (g * nic), replicas * phi / (senders * nic))
        if 1 <= sync <= 30:
            break
    # rollout and training 2-12 × the sync: the sync is no rounding error of the step
    t_gen = rng.choice([t for t in range(10, 400, 10) if 2 * sync <= t <= 12 * sync] or [round(6 * sync)])
    t_train = rng.choice([t for t in range(5, 300, 5) if 2 * sync <= t <= 10 * sync] or [round(4 * sync)])
    size = "1T" if phi >= 1e12 else f"{phi / 1e9:.0f}B"
    broadcast = convention("sender_copies") == "1"  # the learner's convention: the scenario says how weights go
    how_en = "a pipelined broadcast tree (each byte leaves the trainer once)" if broadcast else "point-to-point writes"
    how_zh = "流水线广播树（每个字节只离开训练端一次）" if broadcast else "点对点写入"
    return Spec(
        scenario_en=f"\"Your trainer finishes a step on a {size} model: how long until the rollout pool has the new "
                    f"weights, and what does one-step async buy?\" {senders} {gpu.name} trainer GPUs, {replicas} fp8 "
                    f"rollout replicas of {g} GPUs, one {_gbit(nic)} NIC per GPU, {how_en}.",
        scenario_zh=f"「训练端在 {size} 模型上跑完一步：rollout 池多久能拿到新权重？一步异步能省多少？」训练端 {senders} 张 "
                    f"{gpu.name}，rollout 有 {replicas} 个 fp8 副本、每个 {g} 张卡，每卡一块 {_gbit(nic)} 网卡，{how_zh}。",
        givens=(given("weight_bytes", "Weights at the engine's fp8", "按引擎 fp8 计的权重", phi, "bytes", "GB"),
                given("gpus_per_replica", "GPUs per rollout replica g", "每个 rollout 副本的 GPU 数 g", g),
                given("replicas", "Rollout replicas R", "rollout 副本数 R", replicas),
                given("n_senders", "Trainer GPUs sending n_send", "发送的训练卡数 n_send", senders),
                given("link_bandwidth", f"NIC per {gpu.name} GPU, one way ({_gbit(nic)})",
                      f"每张 {gpu.name} 的网卡，单向（{_gbit(nic)}）", nic, "bandwidth", "GB/s"),
                given("t_gen", "Rollout of one batch t_gen", "一批 rollout 的时间 t_gen", t_gen, "time", "s"),
                given("t_train", "Training on one batch t_train", "训练一批的时间 t_train", t_train, "time", "s")),
        asks=(
            Ask(formula="weight_sync_time", unit="s",
                inputs={"weight_bytes": phi, "gpus_per_replica": g, "replicas": replicas, "n_senders": senders,
                        "link_bandwidth": nic},
                prompt_en="Ignoring set-up latency, how long until every replica has the new weights, in seconds?",
                prompt_zh="不计建立连接的延迟，所有副本都拿到新权重需要多少秒？"),
            Ask(formula="rl_step_time", unit="s",
                inputs={"t_gen": t_gen, "t_train": t_train, "t_sync": Ref(0), "mode": 1},
                prompt_en="Run one-step async on separate pools: the next batch's rollout overlaps this batch's "
                          "training, and the sync (step 1) is not overlapped. How long is one RL step, in seconds?",
                prompt_zh="在分开的池子上做一步异步：下一批的 rollout 与这一批的训练重叠，权重同步（第 1 步）不重叠。"
                          "一个 RL 步需要多少秒？"),
            Ask(formula="rl_gen_gpu_share", unit="%",
                inputs={"gen_gpu_seconds": t_gen * replicas * g, "train_gpu_seconds": t_train * senders},
                prompt_en=f"Measured on these pools, a batch costs t_gen × {replicas * g} rollout GPU-seconds and "
                          f"t_train × {senders} training GPU-seconds. If both scale linearly, what share of the GPUs "
                          "should rollout get so the two phases take equally long, in %?",
                prompt_zh=f"按这两个池子实测，一批需要 t_gen × {replicas * g} 个 rollout GPU 秒和 t_train × {senders} 个训练 "
                          "GPU 秒。若两者都线性扩展，应把多大比例的卡分给 rollout，才能让两个阶段耗时相等（%）？"),
        ),
        conventions_en=SYNC_CONV_EN, conventions_zh=SYNC_CONV_ZH,
        world=World(gpu=gpu, n_gpus=g),
    )
