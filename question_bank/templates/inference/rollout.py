"""RL rollout templates: the tokens a GRPO step generates and the time to generate them.

RL rollout templates: the tokens a GRPO step generates (prompts × samples per prompt × response tokens)
and the time the inference engines take to generate them: a short prefill (the G samples of a prompt share its
KV cache) and a long, memory-bound decode.

RL post-training is mostly generation: the rollout is a serving problem inside a training step.
"""

from __future__ import annotations

from engine import formulas
from engine.units import fmt_quantity

from ... import hardware, kit, models
from ...hardware import DTYPE_BYTES
from ...spec import Ask, Ref, Spec, World, given
from ...template import template
from ..model_params import nominal_phi, phi_text

POLICIES = ("llama31_8b", "qwen3_8b", "qwen3_32b")
ROLLOUT_GPUS = ("h100_sxm", "h200", "b200")
PROMPTS = (128, 256, 512, 1024)
GROUPS = (4, 8, 16, 32)
RESPONSE_TOKENS = (1024, 2048, 4096, 8192)
PROMPT_TOKENS = (256, 512, 1024)
# the token count alone: not every figure a power of two, so neighbouring seeds do not multiply to the same budget
TOKEN_PROMPTS = (128, 256, 384, 1024)
TOKEN_RESPONSES = (1024, 2048, 6144, 8192)
ENGINES = (8, 16, 32, 64)
# at most realism.MAX_MFU, a prefill too; 0.45 stands where 0.6 stood, so every other seed draws what it drew before
PREFILL_MFUS = (0.4, 0.5, 0.45)

TOKENS_EN = ("Conventions: every sampled response is counted at its full length (the rollout's token budget); a "
             "prompt's tokens are input, not generated.")
TOKENS_ZH = "约定：每个采样回答都按最大长度计（rollout 的 token 预算）；prompt 的 token 是输入，不算生成的。"
CHAIN_EN = ("Conventions: each inference engine is one GPU holding the policy in bf16 (KV cache bf16) and runs its "
            "share of the sequences as one batch; the G samples of a prompt share its prefilled KV cache (the prompt is "
            "prefilled once, 2Φ FLOPs per token at peak × MFU); every response runs to its full length, so the batch "
            "decodes in lockstep; a decode step is memory-bound: it reads the weights once and each sequence's KV cache, "
            "taken at its full length (prompt + response) as an upper bound; the rollout ends when the first token "
            "(after the prefill) is followed by n_resp − 1 more steps. kB = 1e3 B, GB = 1e9 B, TB/s = 1e12 B/s, TFLOPS = 1e12 "
            "FLOP/s.")
CHAIN_ZH = ("约定：每个推理引擎是一张 GPU，持有 bf16 的策略模型（KV Cache 为 bf16），把分到的序列作为一个 batch 运行；同一 prompt "
            "的 G 个采样共享它 prefill 出的 KV Cache（prompt 只 prefill 一次，每 token 2Φ FLOPs，按峰值 × MFU 计）；每个回答"
            "都生成到最大长度，所以整个 batch 同步 decode；decode 步访存受限：读一遍权重和每条序列的 KV Cache，KV 按完整长度"
            "（prompt + 回答）计，作为上限；rollout 在第一个 token（prefill 之后）再加 n_resp − 1 个 decode 步后结束。"
            "kB = 1e3 B，GB = 1e9 B，TB/s = 1e12 B/s，TFLOPS = 1e12 FLOP/s。")


def _group_text(g: int) -> tuple[str, str]:
    return f"{g} responses to each (the GRPO group)", f"每个 prompt 采样 {g} 个回答（GRPO 的组）"


@template("inference.rollout_tokens", topic="inference", title="RL rollout: the tokens a GRPO step generates",
          title_zh="RL rollout：一个 GRPO 步生成多少 token", difficulty=2, target_seconds=60, source="shao2024")
def rollout_tokens(rng):
    m = models.get(rng.choice(POLICIES))
    n_prompts, g, n_resp = rng.choice(TOKEN_PROMPTS), rng.choice(GROUPS), rng.choice(TOKEN_RESPONSES)
    g_en, g_zh = _group_text(g)
    return Spec(
        givens=(given("prompts", "Prompts per step", "每步的 prompt 数", n_prompts),
                given("group_size", "Responses per prompt G", "每个 prompt 的回答数 G", g),
                given("response_tokens", "Tokens per response (max)", "每个回答的 token 数（上限）", n_resp)),
        asks=(Ask(formula="rollout_tokens", unit="",
                  prompt_en=f"A GRPO step on {m.name} takes {n_prompts:,} math prompts and samples {g_en}, with "
                            f"responses of up to {n_resp:,} tokens. How many tokens does the rollout generate, at most?",
                  prompt_zh=f"在 {m.name} 上做一个 GRPO 步：取 {n_prompts:,} 道数学题，{g_zh}，每个回答最长 "
                            f"{n_resp:,} 个 token。这次 rollout 最多生成多少个 token？"),),
        conventions_en=TOKENS_EN, conventions_zh=TOKENS_ZH,
        world=World(model=m),
    )


def _decode_inputs(gpu, m, phi, kv_seq, batch) -> dict:
    return {"bandwidth": gpu.bandwidth, "weight_bytes": 2 * phi, "kv_bytes_per_seq": kv_seq, "batch": batch}


def _rollout_setup(rng) -> dict:
    """A rollout whose per-engine batch divides evenly, fits in memory next to the weights, stays within the
    model's context and decodes memory-bound (the step's FLOPs at peak take at most half its memory time)."""
    while True:
        m = models.get(rng.choice(POLICIES))
        gpu = hardware.get(rng.choice(ROLLOUT_GPUS))
        n_prompts, g, n_resp = rng.choice(PROMPTS), rng.choice(GROUPS), rng.choice(RESPONSE_TOKENS)
        prompt, engines = rng.choice(PROMPT_TOKENS), rng.choice(ENGINES)
        if n_prompts % engines or prompt + n_resp > m.max_seq:
            continue
        batch = n_prompts * g // engines
        phi = nominal_phi(m)
        kv_token = formulas.get("kv_bytes_per_token").evaluate(**m.kv_inputs(), bytes_per_elem=DTYPE_BYTES["bf16"])
        kv_seq = kv_token * (prompt + n_resp)
        step_bytes = 2 * phi + batch * kv_seq
        if step_bytes > 0.9 * gpu.memory or 2 * phi * batch / gpu.peak("bf16") > 0.5 * step_bytes / gpu.bandwidth:
            continue
        return {"m": m, "gpu": gpu, "phi": phi, "prompts": n_prompts, "g": g, "n_resp": n_resp, "prompt": prompt,
                "engines": engines, "batch": batch, "kv_token": kv_token, "kv_seq": kv_seq, "mfu": rng.choice(PREFILL_MFUS)}


@template("inference.rollout_chain", topic="inference",
          title="RL rollout: token budget → prefill → decode step → rollout time",
          title_zh="RL rollout：token 预算 → prefill → decode 步 → rollout 时间", difficulty=3, target_seconds=420,
          source="shao2024, pope2022, kipply2022")
def rollout_chain(rng):
    r = _rollout_setup(rng)
    m, gpu, phi = r["m"], r["gpu"], r["phi"]
    g_en, g_zh = _group_text(r["g"])
    per_engine = r["prompts"] // r["engines"]
    peak = gpu.peak("bf16")
    kv_token = fmt_quantity(r["kv_token"], "bytes", unit="kB")
    kv_seq = fmt_quantity(r["kv_seq"], "bytes", unit="GB")
    return Spec(
        scenario_en=f"A GRPO step on {m.name} (Φ = {phi_text(phi)}) takes {r['prompts']:,} prompts of {r['prompt']:,} "
                    f"tokens and samples {g_en}, responses up to {r['n_resp']:,} tokens. The rollout runs on "
                    f"{r['engines']} {gpu.name} GPUs, one inference engine each, every engine taking "
                    f"{per_engine} prompts (a batch of {r['batch']} sequences); prefill runs at {r['mfu']:.0%} MFU.",
        scenario_zh=f"在 {m.name}（Φ = {phi_text(phi)}）上做一个 GRPO 步：{r['prompts']:,} 个 prompt，每个 {r['prompt']:,} 个 token，"
                    f"{g_zh}，回答最长 {r['n_resp']:,} 个 token。rollout 跑在 {r['engines']} 张 {gpu.name} 上，每张卡一个推理"
                    f"引擎，每个引擎分到 {per_engine} 个 prompt（一个 {r['batch']} 条序列的 batch）；prefill 的 MFU 为 "
                    f"{r['mfu']:.0%}。",
        givens=(given("prompts", "Prompts per step", "每步的 prompt 数", r["prompts"]),
                given("group_size", "Responses per prompt G", "每个 prompt 的回答数 G", r["g"]),
                given("response_tokens", "Tokens per response (max)", "每个回答的 token 数（上限）", r["n_resp"]),
                given("prompt_tokens", "Prompt tokens", "prompt token 数", r["prompt"]),
                given("engines", "Engines (one GPU each)", "推理引擎数（每个一张 GPU）", r["engines"]),
                kit.model(m, "phi"), kit.chip(gpu, "peak", dtype="bf16"), kit.chip(gpu, "bandwidth"),
                given("mfu", "Prefill MFU", "prefill 的 MFU", r["mfu"], "ratio"),
                given("kv_bytes_per_token", "KV cache per token", "每 token 的 KV Cache", r["kv_token"], "bytes", "kB")),
        asks=(Ask(formula="rollout_tokens", unit="",
                  inputs={"prompts": r["prompts"], "group_size": r["g"], "response_tokens": r["n_resp"]},
                  prompt_en="How many tokens does the rollout generate, at most?",
                  prompt_zh="这次 rollout 最多生成多少个 token？"),
              Ask(formula="ttft", unit="ms",
                  inputs={"phi": phi, "prompt_tokens": per_engine * r["prompt"], "peak_flops": peak, "mfu": r["mfu"]},
                  explanation=(f"an engine prefills its {per_engine} distinct prompts once (their {r['g']} samples "
                               f"share the KV cache): {per_engine} × {r['prompt']} = {per_engine * r['prompt']:,} tokens",),
                  explanation_zh=(f"每个引擎只 prefill 它的 {per_engine} 个不同 prompt 一次（{r['g']} 个采样共享 KV Cache）："
                                  f"{per_engine} × {r['prompt']} = {per_engine * r['prompt']:,} 个 token",),
                  prompt_en="How long does one engine's prefill take, in ms?",
                  prompt_zh="一个引擎的 prefill 需要多少 ms？"),
              Ask(formula="decode_step_time", unit="ms", inputs=_decode_inputs(gpu, m, phi, r["kv_seq"], r["batch"]),
                  explanation=(f"weights: 2 B × {phi_text(phi)} = {fmt_gb(2 * phi)}",
                               f"KV per sequence: {kv_token} × ({r['prompt']} + {r['n_resp']:,}) = {kv_seq}"),
                  explanation_zh=(f"权重：2 B × {phi_text(phi)} = {fmt_gb(2 * phi)}",
                                  f"每条序列的 KV：{kv_token} × ({r['prompt']} + {r['n_resp']:,}) = {kv_seq}"),
                  prompt_en=f"How long does one decode step of the {r['batch']}-sequence batch take, in ms?",
                  prompt_zh=f"{r['batch']} 条序列的 batch 做一个 decode 步需要多少 ms？"),
              Ask(formula="request_latency", unit="s",
                  inputs={"ttft": Ref(1), "output_tokens": r["n_resp"], "tpot": Ref(2), "first_token_in_ttft": 1},
                  decomposition=("the prefill yields each sequence's first token (TTFT); each of the other n_resp − 1 "
                                 "tokens takes one decode step of the whole batch (TPOT): TTFT + (n − 1)·TPOT",),
                  decomposition_zh=("prefill 给出每条序列的第一个 token（TTFT）；其余 n_resp − 1 个 token 每个要整个 batch 做一个 "
                                    "decode 步（TPOT）：TTFT + (n − 1)·TPOT",),
                  takeaway="the rollout is mostly decode: one prefill, then n_resp memory-bound steps, so the generation "
                           "time of an RL step is set by bandwidth, batch and response length, which is why RL frameworks "
                           "run serving engines (vLLM, SGLang) for it and why long reasoning answers make RL slow.",
                  takeaway_zh="rollout 主要是 decode：一次 prefill 之后是 n_resp 个访存受限的 decode 步，所以 RL 一步里的生成时间"
                              "由带宽、batch 和回答长度决定；这就是 RL 框架用推理引擎（vLLM、SGLang）来做 rollout、而长推理回答"
                              "让 RL 变慢的原因。",
                  prompt_en="How long does the whole rollout take on each engine, in s?",
                  prompt_zh="每个引擎上整个 rollout 需要多少 s？")),
        conventions_en=CHAIN_EN, conventions_zh=CHAIN_ZH,
        world=World(model=m, gpu=gpu, precision="bf16", kv="bf16", seq=r["prompt"] + r["n_resp"], batch=r["batch"],
                    holds=("weights", "kv")),
    )


def fmt_gb(v: float) -> str:
    return f"{v / 1e9:g} GB"
