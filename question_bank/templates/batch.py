"""Batch bookkeeping (issue #26): the gradient-accumulation steps that make a global batch on a 3D-parallel
cluster, and the global batch in tokens.  The global batch is always a whole number of micro-batches ×
data-parallel replicas: a setup that does not divide is never generated.
"""

from __future__ import annotations

from ..base import Ask, Ref, Spec, World, given, template

# (GPUs, TP, PP): data parallelism takes what tensor and pipeline parallelism leave
LAYOUTS = ((1024, 8, 4), (2048, 8, 8), (4096, 8, 8), (8192, 8, 16), (16384, 8, 16), (512, 8, 2), (3072, 8, 6))
SEQS = (4096, 8192)

CONV_EN = ("Conventions: data-parallel replicas N_dp = GPUs ÷ (TP × PP); the global batch is counted over all "
           "replicas and accumulation steps.")
CONV_ZH = "约定：数据并行副本数 N_dp = GPU 数 ÷（TP × PP）；全局批把所有副本和所有累积步都算在内。"


def _setup(rng):
    n, tp, pp = rng.choice(LAYOUTS)
    n_dp = n // (tp * pp)
    b = rng.choice((1, 2))
    k = rng.choice((2, 4, 8, 16, 32))
    seq = rng.choice(SEQS)
    return n, tp, pp, n_dp, b, k, seq


def _dp_lines(n: int, tp: int, pp: int, n_dp: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return ((f"data-parallel replicas: N_dp = {n:,} ÷ ({tp} × {pp}) = {n_dp}",),
            (f"数据并行副本数：N_dp = {n:,} ÷（{tp} × {pp}）= {n_dp}",))


@template("parallelism.grad_accum", topic="parallelism", title="Gradient-accumulation steps on a 3D-parallel cluster",
          title_zh="3D 并行集群上的梯度累积步数", difficulty=2, target_seconds=120, source="shoeybi2019, narayanan2021")
def grad_accum(rng):
    n, tp, pp, n_dp, b, k, seq = _setup(rng)
    global_seqs = b * k * n_dp
    en, zh = _dp_lines(n, tp, pp, n_dp)
    return Spec(
        givens=(given("n_gpus", "GPUs", "GPU 数", n), given("tp", "Tensor parallelism TP", "张量并行 TP", tp),
                given("pp", "Pipeline parallelism PP", "流水线并行 PP", pp),
                given("global_batch", "Global batch (sequences)", "全局批（序列数）", global_seqs),
                given("b", "Micro-batch (sequences)", "微批次（序列数）", b)),
        asks=(Ask(formula="grad_accum_steps", unit="",
                  inputs={"global_batch": global_seqs, "micro_batch": b, "n_dp": n_dp},
                  explanation=en, explanation_zh=zh,
                  prompt_en=f"A pre-training run on {n:,} GPUs uses TP = {tp} and PP = {pp}; data parallelism takes "
                            f"the rest. The global batch is {global_seqs:,} sequences of {seq:,} tokens and each "
                            f"replica runs micro-batches of {b}. How many gradient-accumulation steps does each "
                            "optimizer step take?",
                  prompt_zh=f"一次预训练在 {n:,} 张 GPU 上进行，TP = {tp}，PP = {pp}，其余为数据并行。全局批为 "
                            f"{global_seqs:,} 条 {seq:,} token 的序列，每个副本的微批次为 {b}。每个优化器步要做多少次"
                            "梯度累积？"),),
        conventions_en=CONV_EN, conventions_zh=CONV_ZH,
        world=World(n_gpus=tp * pp, tp=tp, pp=pp, seq=seq),
    )


@template("parallelism.batch_chain", topic="parallelism", title="Replicas → accumulation steps → batch in tokens",
          title_zh="副本数 → 累积步数 → 以 token 计的全局批", difficulty=3, target_seconds=240,
          source="shoeybi2019, narayanan2021, llama3_2024")
def batch_chain(rng):
    n, tp, pp, n_dp, b, k, seq = _setup(rng)
    global_seqs = b * k * n_dp
    en, zh = _dp_lines(n, tp, pp, n_dp)
    return Spec(
        scenario_en=f"A pre-training run on {n:,} GPUs uses TP = {tp} and PP = {pp} (data parallelism takes the "
                    f"rest), sequences of {seq:,} tokens, micro-batches of {b} sequence{'s' if b > 1 else ''} per "
                    "replica and a global "
                    f"batch of {global_seqs:,} sequences.",
        scenario_zh=f"一次预训练在 {n:,} 张 GPU 上进行，TP = {tp}，PP = {pp}（其余为数据并行），序列长 {seq:,} token，"
                    f"每个副本的微批次为 {b} 条序列，全局批为 {global_seqs:,} 条序列。",
        givens=(given("n_gpus", "GPUs", "GPU 数", n), given("tp", "Tensor parallelism TP", "张量并行 TP", tp),
                given("pp", "Pipeline parallelism PP", "流水线并行 PP", pp),
                given("seq", "Sequence length S", "序列长度 S", seq),
                given("b", "Micro-batch (sequences)", "微批次（序列数）", b),
                given("global_batch", "Global batch (sequences)", "全局批（序列数）", global_seqs)),
        asks=(Ask(formula="grad_accum_steps", unit="",
                  inputs={"global_batch": global_seqs, "micro_batch": b, "n_dp": n_dp},
                  explanation=en, explanation_zh=zh,
                  prompt_en="How many gradient-accumulation steps does each optimizer step take?",
                  prompt_zh="每个优化器步要做多少次梯度累积？"),
              Ask(formula="global_batch_tokens", unit="",
                  inputs={"micro_batch": b, "grad_accum": Ref(0), "n_dp": n_dp, "seq": seq},
                  explanation=en, explanation_zh=zh,
                  prompt_en="How many tokens does one optimizer step see (Llama 3 trained at up to 16M)?",
                  prompt_zh="一个优化器步处理多少个 token（Llama 3 最多用到 1600 万）？")),
        conventions_en=CONV_EN, conventions_zh=CONV_ZH,
        world=World(n_gpus=tp * pp, tp=tp, pp=pp, seq=seq),
    )
