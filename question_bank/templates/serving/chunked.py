"""Chunked prefill (Sarathi-Serve): how long a long prompt waits for its first token when it shares each
iteration's token budget with the running decodes."""

from __future__ import annotations

from ... import hardware, kit, models
from ...spec import Ask, Ref, Spec, World, given
from ...template import template
from ..model_params import nominal_phi, phi_text

BUDGETS = (512, 1024, 2048, 4096, 8192)
PROMPTS = (1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072)
CONV_EN = ("Stall-free batching: every iteration gives each running decode one token and fills the rest of the token "
           "budget with the prompt's next chunk; each iteration takes the same time; no queueing before the prompt "
           "starts.")
CONV_ZH = ("无停顿批处理：每次迭代给每个正在 decode 的序列一个 token，预算剩下的部分用来处理 prompt 的下一块；"
           "每次迭代耗时相同；prompt 开始前不排队。")


@template("serving.chunked_prefill_ttft", topic="serving", title="TTFT of a chunked prefill",
          title_zh="分块 prefill 的首 token 延迟", difficulty=2, target_seconds=90, source="agrawal2024")
def chunked_prefill_ttft(rng):
    # drawn again until the decodes' share of the budget costs the prompt a tenth more iterations (the lesson)
    while True:
        budget = rng.choice(BUDGETS)
        decodes = rng.choice([b for b in (16, 32, 48, 64, 96, 128, 192, 256) if b <= budget // 2])
        prompt = rng.choice([p for p in PROMPTS if p >= budget]) + rng.choice((0, 0, 100, 500))
        if -(-prompt // (budget - decodes)) >= 1.1 * -(-prompt // budget):
            break
    step = rng.choice((0.02, 0.025, 0.03, 0.04, 0.05, 0.06, 0.08))
    return Spec(
        givens=(given("prompt_tokens", "Prompt tokens", "prompt 的 token 数", prompt),
                given("token_budget", "Token budget per iteration", "每次迭代的 token 预算", budget),
                given("decode_batch", "Running decodes", "正在 decode 的序列数", decodes),
                given("step_time", "Time of one iteration", "一次迭代的时间", step, "time", "ms")),
        asks=(Ask(formula="chunked_prefill_ttft", unit="s",
                  prompt_en=f"A prompt of {prompt:,} tokens arrives at a replica running {decodes} decodes with a token "
                            f"budget of {budget:,} per iteration. How long until its first token, in s?",
                  prompt_zh=f"一个 {prompt:,} token 的 prompt 到达一个副本，副本上正有 {decodes} 个序列在 decode，"
                            f"每次迭代的 token 预算为 {budget:,}。它的首 token 要等多久（秒）？"),),
        conventions_en=CONV_EN, conventions_zh=CONV_ZH,
        world=World(),
    )


@template("serving.token_budget_chain", topic="serving", title="Token budget from a TPOT target → the mixed step's time",
          title_zh="由 TPOT 目标定 token 预算 → 混合迭代的耗时", difficulty=3, target_seconds=180, source="agrawal2024")
def token_budget_chain(rng):
    m = models.get(rng.choice(("llama3_8b", "llama2_13b", "qwen3_8b", "mistral_7b", "qwen3_32b")))
    gpu = hardware.get(rng.choice(("h100_sxm", "h200", "b200")))
    phi = nominal_phi(m)
    weights = 2 * phi
    # drawn again until memory and compute are within 10× of each other: adding them is then a mistake to name
    while True:
        tpot = rng.choice((0.03, 0.04, 0.05, 0.08, 0.1))
        mfu = rng.choice((0.4, 0.45, 0.5))  # at most 50 % (realism: an MFU the bank states)
        kv = weights * rng.choice((0.25, 0.5, 1.0))
        t_mem = (weights + kv) / gpu.bandwidth
        t_math = 2 * phi * (tpot * gpu.bf16 * mfu // (2 * phi)) / gpu.bf16
        if 0.1 <= t_math / t_mem <= 10:
            break
    return Spec(
        scenario_en=f"{m.name} (Φ = {phi_text(phi)}, bf16) is served on one {gpu.name} with chunked prefill; the "
                    f"time-per-output-token target is {tpot * 1000:g} ms and the kernels reach {mfu:.0%} MFU.",
        scenario_zh=f"{m.name}（Φ = {phi_text(phi)}，bf16）在一张 {gpu.name} 上用分块 prefill 服务；每 token 时间目标为 "
                    f"{tpot * 1000:g} ms，kernel 的 MFU 为 {mfu:.0%}。",
        givens=(given("phi", "Parameters Φ", "参数量 Φ", phi), kit.chip(gpu, "peak", dtype="bf16"), kit.chip(gpu, "bandwidth"),
                given("tpot_target", "TPOT target", "TPOT 目标", tpot, "time", "ms"),
                given("mfu", "MFU", "MFU", mfu, "ratio", "%"),
                given("weight_bytes", "Weights read per step", "每步读取的权重", weights, "bytes", "GB"),
                given("kv_bytes", "KV cache read per step", "每步读取的 KV Cache", kv, "bytes", "GB")),
        asks=(Ask(formula="token_budget", unit="",
                  inputs={"tpot_target": tpot, "phi": phi, "peak_flops": gpu.bf16, "mfu": mfu},
                  prompt_en="What is the largest token budget per iteration whose compute fits the TPOT target?",
                  prompt_zh="计算时间能满足 TPOT 目标的每次迭代最大 token 预算是多少？"),
              Ask(formula="chunked_step_time", unit="ms",
                  inputs={"weight_bytes": weights, "kv_bytes": kv, "bandwidth": gpu.bandwidth, "phi": phi,
                          "tokens_per_step": Ref(0), "peak_flops": gpu.bf16},
                  prompt_en="With the iteration filled to that budget, how long does one iteration take at the peak "
                            "FLOP/s (T = max(memory, compute)), in ms?",
                  prompt_zh="迭代填满这个预算时，按峰值算力算一次迭代要多久（T = max(访存, 计算)，毫秒）？")),
        conventions_en=CONV_EN + " TFLOPS = 10¹² FLOP/s, TB/s = 10¹² B/s, GB = 10⁹ B.",
        conventions_zh=CONV_ZH + "TFLOPS = 10¹² FLOP/s，TB/s = 10¹² B/s，GB = 10⁹ B。",
        world=World(model=m, gpu=gpu, precision="bf16"),
    )
