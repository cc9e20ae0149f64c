"""Serving-capacity templates: Little's law, request latency, replicas and MBU.

Serving capacity: requests in flight by Little's law, a request's latency from TTFT and TPOT,
replicas for a traffic target at a planned utilisation, and the memory-bandwidth utilisation (MBU) of a
measured decode.

Arrival rates and output lengths come from the dated ranges (question_bank/data/ranges.toml: the Azure LLM
inference trace of 2023, a sampled service's per-deployment rate and its chat output lengths).
"""

from __future__ import annotations

import math

from engine.units import fmt_quantity

from ... import hardware, kit, models, ranges
from ...spec import Ask, Ref, Spec, World, given, settled_by_hand
from ...template import template

CONV_EN = ("Conventions: a request's latency counts the first output token in TTFT: TTFT + (n − 1)·TPOT; "
           "the system is in a steady state.")
CONV_ZH = "约定：请求延迟把第一个输出 token 算在 TTFT 里：TTFT + (n − 1)·TPOT；系统处于稳态。"
TRACE_EN = "Azure's 2023 chat trace"
TRACE_ZH = "Azure 2023 年的对话请求记录"


def _rate(rng) -> float:
    """A per-deployment arrival rate (req/s) drawn from the sampled service's dated range, at least 1 req/s."""
    while True:
        lam = ranges.draw(rng, "arrival_rate_sampled_service")
        if lam >= 1:
            return lam


def _output_tokens(rng) -> int:
    """Output tokens of a chat request, inside the trace's p10-p90 range (54-424)."""
    r = ranges.get("chat_output_tokens")
    return rng.choice([n for n in (64, 100, 128, 200, 256, 300, 400) if r.low <= n <= r.high])


def _ms(t: float) -> str:
    return fmt_quantity(t, "time", unit="ms")


@template("serving.littles_law", topic="serving", title="Requests in flight (Little's law)",
          title_zh="同时在途的请求数（利特尔法则）", difficulty=1, target_seconds=90, source="little1961")
def littles_law(rng):
    lam = _rate(rng)
    w = float(rng.choice((2, 3, 4, 5, 6, 8, 10, 12)))
    return Spec(
        givens=(given("arrival_rate", "Arrival rate λ", "到达率 λ", lam, "req_rate", "req/s"),
                given("latency", "Average request latency W", "平均请求延迟 W", w, "time", "s")),
        asks=(Ask(formula="concurrency", unit="",
                  prompt_en=f"A chat deployment receives {lam:g} requests per second (a per-minute rate seen in "
                            f"{TRACE_EN}), and a request spends {w:g} s in the system on average, from arrival to "
                            "its last token. On average, how many requests are in flight at once (the batch the "
                            "servers hold)?",
                  prompt_zh=f"一个对话服务每秒收到 {lam:g} 个请求（{TRACE_ZH}中出现过的每分钟平均速率），每个请求从到达到"
                            f"最后一个 token 平均在系统中停留 {w:g} s。平均同时有多少个请求在途（服务器要容纳的批大小）？"),),
        conventions_en="Conventions: the system is in a steady state.",
        conventions_zh="约定：系统处于稳态。",
    )


@template("serving.capacity_chain", topic="serving", title="Request latency → requests in flight → replicas",
          title_zh="请求延迟 → 在途请求数 → 副本数", difficulty=3, target_seconds=300,
          source="vllm_metrics, little1961, databricks2023")
def capacity_chain(rng):
    while True:
        lam = _rate(rng)
        n = _output_tokens(rng)
        ttft = rng.choice((0.2, 0.3, 0.4, 0.5, 0.8))
        tpot = rng.choice((0.02, 0.025, 0.03, 0.04, 0.05))
        per_replica = float(rng.choice((300, 400, 500, 600, 800, 1000, 1200)))
        u = rng.choice((0.6, 0.7, 0.75, 0.8))
        inputs = {"arrival_rate": lam, "tokens_per_request": n, "tokens_per_s_per_replica": per_replica,
                  "utilisation": u}
        demand = lam * n / (per_replica * u)
        latency = ttft + (n - 1) * tpot  # TTFT must weigh: leaving it out is a wrong answer, not a rounding
        if (ttft - tpot) >= 0.08 * latency and 1.3 <= demand <= 12 and settled_by_hand("replicas_needed", inputs) and \
                math.ceil(demand) != math.ceil(lam * n / per_replica):
            break
    return Spec(
        scenario_en=f"A chat service receives λ = {lam:g} requests per second (a rate seen in {TRACE_EN}); each "
                    f"request generates {n} tokens, its first token arrives after a TTFT of {_ms(ttft)} and each "
                    f"further token takes a TPOT of {_ms(tpot)}. One replica sustains {per_replica:,.0f} generated "
                    f"tokens per second; the team plans replicas at {u:.0%} utilisation, keeping the rest for bursts.",
        scenario_zh=f"一个对话服务每秒收到 λ = {lam:g} 个请求（{TRACE_ZH}中出现过的速率）；每个请求生成 {n} 个 token，"
                    f"首 token 在 TTFT = {_ms(ttft)} 后到达，之后每个 token 一个 TPOT = {_ms(tpot)}。单个副本能持续输出 "
                    f"{per_replica:,.0f} token/s；团队按 {u:.0%} 的利用率规划副本，其余留给突发流量。",
        givens=(given("arrival_rate", "Arrival rate λ", "到达率 λ", lam, "req_rate", "req/s"),
                given("output_tokens", "Output tokens per request n", "每个请求的输出 token 数 n", n),
                given("ttft", "TTFT", "TTFT", ttft, "time", "ms"),
                given("tpot", "TPOT", "TPOT", tpot, "time", "ms"),
                given("tokens_per_s_per_replica", "Tokens per second per replica", "单副本 token/s", per_replica,
                      "tok_rate", "tok/s"),
                given("utilisation", "Planned utilisation u", "计划利用率 u", u, "ratio")),
        asks=(Ask(formula="request_latency", unit="s",
                  inputs={"ttft": ttft, "output_tokens": n, "tpot": tpot, "first_token_in_ttft": 1},
                  prompt_en="How long does one request take from arrival to its last token, in seconds?",
                  prompt_zh="一个请求从到达到最后一个 token 需要多少秒？"),
              Ask(formula="concurrency", unit="", inputs={"arrival_rate": lam, "latency": Ref(0)},
                  prompt_en="On average, how many requests are in flight at once?",
                  prompt_zh="平均同时有多少个请求在途？"),
              Ask(formula="replicas_needed", unit="", integer=True, inputs=inputs,
                  prompt_en="How many replicas does the service need?",
                  prompt_zh="这个服务需要多少个副本？")),
        conventions_en=CONV_EN + " A fraction of a replica is a whole replica.",
        conventions_zh=CONV_ZH + "不足一个副本也按一个算。",
    )


@template("serving.mbu", topic="serving", title="MBU of a measured decode", title_zh="实测 decode 的带宽利用率 (MBU)",
          difficulty=2, target_seconds=150, source="databricks2023")
def mbu(rng):
    gpu = hardware.get(rng.choice(("h100_sxm", "h200", "b200")))
    batch = rng.choice((8, 16, 32))
    seq = rng.choice((1024, 2048, 4096))
    m = models.get("llama3_8b")
    weights = 16.06e9  # Llama-3-8B in bf16: 8.03B parameters × 2 B
    kv_token = 2 * 32 * 8 * 128 * 2  # K and V × 32 layers × 8 KV heads × 128 × 2 B = 131,072 B
    kv = batch * seq * kv_token
    step = weights + kv
    target = rng.uniform(0.45, 0.8)
    steps = float(round(target * gpu.bandwidth / step))
    tps = steps * batch
    return Spec(
        givens=(given("gpu", "GPU", "GPU", gpu.name),
                kit.chip(gpu, "bandwidth", label=("HBM bandwidth", "显存带宽"), unit="TB/s"),
                given("weights", "bf16 weights", "bf16 权重", weights, "bytes", "GB"),
                given("kv_per_token", "KV cache per token", "每个 token 的 KV Cache", kv_token, "bytes", "KB"),
                given("batch", "Batch B", "batch 大小 B", batch),
                given("seq", "Context per sequence", "每条序列的上下文", seq),
                given("tps", "Measured generation rate", "实测生成速度", tps, "tok_rate", "tok/s")),
        asks=(Ask(formula="mbu", unit="%", inputs={"bytes_per_step": step, "steps_per_s": steps,
                                                   "bandwidth": gpu.bandwidth},
                  extras={"batch": batch},
                  explanation=(f"bytes per step = weights + B × S × KV per token = {fmt_quantity(weights, 'bytes', unit='GB')}"
                               f" + {batch} × {seq:,} × {kv_token:,} B = {fmt_quantity(step, 'bytes', unit='GB')}",
                               f"one step makes one token for each of the {batch} sequences: steps/s = "
                               f"{tps:,.0f} ÷ {batch} = {steps:g}"),
                  explanation_zh=(f"每步字节数 = 权重 + B × S × 每 token 的 KV = "
                                  f"{fmt_quantity(weights, 'bytes', unit='GB')} + {batch} × {seq:,} × {kv_token:,} B = "
                                  f"{fmt_quantity(step, 'bytes', unit='GB')}",
                                  f"每一步为 {batch} 条序列各生成一个 token：每秒步数 = {tps:,.0f} ÷ {batch} = {steps:g}"),
                  prompt_en=f"{m.name} (bf16, GQA: 32 layers, 8 KV heads of dimension 128) decodes on one "
                            f"{gpu.name} at batch {batch}, each sequence holding {seq:,} tokens of context. The server "
                            f"measures {tps:,.0f} generated tokens per second in total. What memory-bandwidth "
                            "utilisation (MBU) does the decode reach?",
                  prompt_zh=f"{m.name}（bf16，GQA：32 层，8 个维度为 128 的 KV 头）在一张 {gpu.name} 上以 batch {batch} "
                            f"做 decode，每条序列有 {seq:,} 个 token 的上下文。服务器实测整体每秒生成 {tps:,.0f} 个 token。"
                            "这个 decode 的带宽利用率 (MBU) 是多少？"),),
        conventions_en="Conventions: GB = 1e9 B, KB = 1e3 B, TB/s = 1e12 B/s; a decode step reads the weights once "
                       "and every sequence's KV cache once; activations are ignored.",
        conventions_zh="约定：GB = 1e9 B，KB = 1e3 B，TB/s = 1e12 B/s；一个 decode 步把权重读一遍、每条序列的 KV Cache "
                       "各读一遍；忽略激活。",
        world=World(model=m, gpu=gpu, precision="bf16", seq=seq, batch=batch, holds=("weights",)),
    )
