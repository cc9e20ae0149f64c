"""Disaggregated-serving templates: KV transfer and prefill / decode instance counts.

Disaggregated serving: sending a prompt's KV cache from a prefill to a decode instance over a
stated link, and how many prefill and decode instances a traffic mix needs (DistServe, Splitwise).  Request
shapes and arrival rates are drawn from the Azure LLM trace ranges (question_bank/data/ranges.toml).
"""

from __future__ import annotations

from engine import formulas
from engine.units import fmt_number, fmt_quantity

from ... import kit, models, ranges
from ...hardware import DTYPE_BYTES
from ...spec import Ask, Ref, Spec, World, given, settled_by_hand
from ...template import template

# Full-attention GQA models (no sliding window, chunked attention or MLA latent: KV/token is 2·L·n_kv·d_head·bytes)
_KEYS = ("llama3_8b", "llama3_70b", "llama31_8b", "llama31_70b", "llama3_405b", "qwen3_8b", "qwen3_32b",
         "qwen3_235b_a22b", "mixtral_8x7b")
NIC_GBPS = (400, 800)  # one scale-out NIC per GPU: ConnectX-7 / ConnectX-8 (range scaleout_nic_per_gpu)

CONV_EN = ("The decode instance needs the prompt's whole KV cache before its first step; the transfer is not "
           "overlapped with the prefill. The prefill instance's TP GPUs each hold their KV heads' shard and send it "
           "over their own NIC at the same time; with more GPUs than KV heads the heads are copies, and each distinct "
           "shard is sent once. KV per token = 2 (K and V) × layers × n_kv_heads × d_head × bytes. "
           "Gb/s = 10⁹ bits/s (8 bits a byte), GB/s = 10⁹ B/s.")
CONV_ZH = ("decode 实例在第一步之前要收到 prompt 的全部 KV Cache；传输不与 prefill 重叠。prefill 实例的每张 TP 卡持有自己那些 "
           "KV 头的分片，同时用自己的网卡发送；卡数多于 KV 头时多出的是副本，每个不同的分片只发送一次。"
           "每 token 的 KV = 2（K 和 V）× 层数 × "
           "n_kv_heads × d_head × 字节数。Gb/s = 10⁹ bit/s（1 字节 8 bit），GB/s = 10⁹ B/s。")
POOL_EN = ("Instances are sized by Little's law: busy instances = arrival rate × time each request holds one; a pool "
           "is planned at the stated utilisation and rounded up to whole instances.")
POOL_ZH = "实例数按利特尔法则估算：忙碌实例数 = 到达率 × 每个请求占用一个实例的时间；每个池按给定的利用率规划，并向上取整为整数个实例。"


def _model(rng) -> models.Model:
    return models.get(rng.choice(_KEYS))


def _kv_givens(m, dtype: str) -> tuple:
    return (given("model", "Model", "模型", m.name), kit.model(m, "layers"),
            kit.model(m, "n_kv_heads"),
            kit.model(m, "d_head"),
            given("dtype", "KV precision", "KV 精度", dtype))


def _kv_per_token(m, dtype: str) -> float:
    return formulas.get("kv_bytes_per_token").evaluate(**m.kv_inputs(), bytes_per_elem=DTYPE_BYTES[dtype])


INSTANCE_GPU_BYTES = 80e9  # an H100-class GPU of the prefill instance
INSTANCE_FILL = 0.8  # of its memory for the bf16 weights (the rest for KV and activations)


def instance_tp(m) -> int:
    """The prefill instance's TP degree: the fewest GPUs (a power of two, at most a node of 8) its bf16 weights fit."""
    return next((t for t in (1, 2, 4) if 2 * m.params <= INSTANCE_FILL * t * INSTANCE_GPU_BYTES), 8)


def _tp_inputs(m) -> dict:
    return {"kv_shards": min(instance_tp(m), m.n_kv_heads)}


def _tp_lines(m, lang_zh: bool = False) -> tuple[str, ...]:
    tp = instance_tp(m)
    shards = min(tp, m.n_kv_heads)
    if lang_zh:
        return (f"TP = {tp} 张卡分 {m.n_kv_heads} 个 KV 头：min({tp}, {m.n_kv_heads}) = {shards} 个不同分片，各走一块网卡",)
    return (f"TP = {tp} GPUs share {m.n_kv_heads} KV heads: min({tp}, {m.n_kv_heads}) = {shards} distinct shards, "
            "one NIC each",)


def _link(rng) -> tuple[int, float]:
    gbps = rng.choice(NIC_GBPS)
    return gbps, gbps * 1e9 / 8


def _kb(v: float) -> str:
    return fmt_quantity(v, "bytes", unit="kB")


@template("serving.kv_transfer_time", topic="serving", title="Disaggregated serving: KV transfer from prefill to decode",
          title_zh="预填充/解码分离：KV Cache 从 prefill 传到 decode 的时间", difficulty=2, target_seconds=120,
          source="zhong2024, patel2024")
def kv_transfer_time(rng):
    m, dtype = _model(rng), rng.choice(("bf16", "fp8"))
    prompt = int(ranges.draw(rng, "chat_prompt_tokens"))
    gbps, link = _link(rng)
    per_token = _kv_per_token(m, dtype)
    r = ranges.get("chat_prompt_tokens")
    return Spec(
        givens=_kv_givens(m, dtype) + (
            given("prompt_tokens", "Prompt tokens", "prompt token 数", prompt),
            given("tp", "Prefill instance TP degree", "prefill 实例的 TP 度", instance_tp(m)),
            given("link", "NIC per GPU, one way", "每卡网卡单向带宽", f"{gbps} Gb/s")),
        asks=(Ask(formula="kv_transfer_time", unit="ms",
                  inputs={"kv_bytes_per_token": per_token, "prompt_tokens": prompt, "link_bandwidth": link,
                          **_tp_inputs(m)},
                  prompt_en=f"{m.name} is served with prefill and decode on separate instances (prefill at TP = "
                            f"{instance_tp(m)}), linked by one {gbps} Gb/s NIC per GPU. A chat request brings {prompt:,} prompt tokens (a "
                            f"typical length in the {r.data_date[:4]} Azure trace); the KV cache is {dtype}. How long "
                            "does sending its KV cache to the decode instance take, in ms?",
                  prompt_zh=f"{m.name} 采用预填充/解码分离部署（prefill 实例 TP = {instance_tp(m)}），实例之间每张卡用一块 "
                            f"{gbps} Gb/s 网卡互联。一个对话请求带有 "
                            f"{prompt:,} 个 prompt token（{r.data_date[:4]} 年 Azure 真实流量中的典型长度）；"
                            f"KV Cache 为 {dtype}。把它的 KV Cache 发送到 decode 实例需要多少时间（ms）？",
                  explanation=(f"KV per token = 2 × {m.layers} × {m.n_kv_heads} × {m.d_head} × "
                               f"{fmt_number(DTYPE_BYTES[dtype])} B = {_kb(per_token)}",
                               f"{gbps} Gb/s ÷ 8 = {fmt_quantity(link, 'bandwidth', unit='GB/s')}") + _tp_lines(m),
                  explanation_zh=(f"每 token 的 KV = 2 × {m.layers} × {m.n_kv_heads} × {m.d_head} × "
                                  f"{fmt_number(DTYPE_BYTES[dtype])} B = {_kb(per_token)}",
                                  f"{gbps} Gb/s ÷ 8 = {fmt_quantity(link, 'bandwidth', unit='GB/s')}")
                                 + _tp_lines(m, lang_zh=True)),),
        conventions_en=CONV_EN, conventions_zh=CONV_ZH,
        world=World(model=m, kv=dtype, seq=prompt),
    )


def _traffic(rng) -> dict:
    """A traffic mix whose instance counts are settled by hand (see WHOLE_MARGIN)."""
    while True:
        rate = ranges.draw(rng, "arrival_rate_sampled_service")
        prefill_time = rng.choice((0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.8))
        util = rng.choice((0.6, 0.7, 0.75, 0.8))
        out = int(ranges.draw(rng, "chat_output_tokens"))
        tps = rng.choice((300, 400, 500, 600, 800, 1000))
        pre = {"arrival_rate": rate, "prefill_time": prefill_time, "utilisation": util}
        dec = {"arrival_rate": rate, "output_tokens": out, "tokens_per_s_per_instance": tps}
        if (settled_by_hand("prefill_instances", pre) and settled_by_hand("decode_instances", dec)
                and formulas.get("prefill_instances").evaluate(**pre) >= 2
                and formulas.get("decode_instances").evaluate(**dec) >= 2):
            return {"rate": rate, "prefill_time": prefill_time, "util": util, "out": out, "tps": tps}


def _rate(v: float) -> str:
    return f"{fmt_number(v)} req/s"


# Drawn last in the one-pool templates (60 % of the seeds), so the others keep their problem: long-document prompts
# (retrieval-augmented or code-repository context, tens of thousands of tokens) take 1-4 s of prefill, inside the
# 50 ms-5 s service times of the spec's serving range, planned at 50-90 % utilisation (its 0.5-0.95); a large model
# under a tight per-token latency target sustains only 100-250 tok/s per decode instance (a 405B model at TP 8 and
# batch 4-8 reads its weights 25-30 times a second).
WIDER_SHARE = 0.6
LONG_PREFILL_S = (1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0)
WIDE_UTILISATION = (0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9)
TIGHT_DECODE_TPS = (100, 150, 200, 250)


def _long_prompts(rng, t: dict) -> dict:
    """The traffic ``t`` with long-document prompts: a prefill time of 1-4 s, planned at 50-90 % utilisation."""
    while True:
        pre = {"arrival_rate": t["rate"], "prefill_time": rng.choice(LONG_PREFILL_S),
               "utilisation": rng.choice(WIDE_UTILISATION)}
        if settled_by_hand("prefill_instances", pre):
            return t | {"prefill_time": pre["prefill_time"], "util": pre["utilisation"], "long": True}


def _tight_decode(rng, t: dict) -> dict:
    """The traffic ``t`` served by decode instances of a large model under a tight latency target: 100-250 tok/s."""
    while True:
        dec = {"arrival_rate": t["rate"], "output_tokens": t["out"], "tokens_per_s_per_instance": rng.choice(TIGHT_DECODE_TPS)}
        if settled_by_hand("decode_instances", dec):
            return t | {"tps": dec["tokens_per_s_per_instance"], "tight": True}


@template("serving.prefill_instances", topic="serving", title="Disaggregated serving: prefill instances for a traffic mix",
          title_zh="预填充/解码分离：一种流量需要多少 prefill 实例", difficulty=2, target_seconds=90, source="zhong2024")
def prefill_instances(rng):
    t = _traffic(rng)
    if rng.random() < WIDER_SHARE:
        t = _long_prompts(rng, t)
    long_en, long_zh = ((", long-document requests whose retrieval-augmented prompts run to tens of thousands of tokens",
                         "，都是长文档请求（几万 token 的检索增强 prompt）") if t.get("long") else ("", ""))
    unit = "s" if t.get("long") else "ms"
    return Spec(
        givens=(given("arrival_rate", "Arrival rate λ", "到达率 λ", t["rate"], "req_rate", "req/s"),
                given("prefill_time", "Prefill time per request", "每个请求的 prefill 时间", t["prefill_time"], "time", unit),
                given("utilisation", "Planned utilisation", "计划利用率", t["util"], "ratio", "%")),
        asks=(Ask(formula="prefill_instances", integer=True, unit="",
                  inputs={"arrival_rate": t["rate"], "prefill_time": t["prefill_time"], "utilisation": t["util"]},
                  prompt_en=f"A disaggregated deployment receives λ = {_rate(t['rate'])} (a per-minute rate seen in the "
                            f"Azure LLM trace){long_en}. One prefill instance processes one prompt at a time in "
                            f"{fmt_quantity(t['prefill_time'], 'time', unit=unit)}. Planning for "
                            f"{fmt_number(t['util'] * 100)}% utilisation, how many prefill instances do you need?",
                  prompt_zh=f"一个预填充/解码分离的部署每秒收到 λ = {_rate(t['rate'])}"
                            f"（Azure LLM 流量中出现过的每分钟平均速率）{long_zh}。"
                            f"一个 prefill 实例一次处理一个 prompt，耗时 {fmt_quantity(t['prefill_time'], 'time', unit=unit)}。"
                            f"按 {fmt_number(t['util'] * 100)}% 的利用率规划，需要多少个 prefill 实例？"),),
        conventions_en=POOL_EN, conventions_zh=POOL_ZH,
    )


@template("serving.decode_instances", topic="serving", title="Disaggregated serving: decode instances for a traffic mix",
          title_zh="预填充/解码分离：一种流量需要多少 decode 实例", difficulty=2, target_seconds=90, source="zhong2024")
def decode_instances(rng):
    t = _traffic(rng)
    if rng.random() < WIDER_SHARE:
        t = _tight_decode(rng, t)
    tight_en, tight_zh = ((" (of a large model under a tight per-token latency target)", "（大模型，每 token 延迟目标很紧）")
                          if t.get("tight") else ("", ""))
    return Spec(
        givens=(given("arrival_rate", "Arrival rate λ", "到达率 λ", t["rate"], "req_rate", "req/s"),
                given("output_tokens", "Output tokens per request", "每个请求的输出 token 数", t["out"]),
                given("tokens_per_s_per_instance", "One decode instance's throughput", "单个 decode 实例的吞吐",
                      t["tps"], "tok_rate", "tok/s")),
        asks=(Ask(formula="decode_instances", integer=True, unit="",
                  inputs={"arrival_rate": t["rate"], "output_tokens": t["out"], "tokens_per_s_per_instance": t["tps"]},
                  prompt_en=f"A disaggregated deployment receives λ = {_rate(t['rate'])}; each request generates "
                            f"{t['out']} tokens (request shapes of the Azure LLM trace). One decode instance{tight_en} sustains "
                            f"{t['tps']} tok/s at its batch size and latency target. How many decode instances do you need?",
                  prompt_zh=f"一个预填充/解码分离的部署每秒收到 λ = {_rate(t['rate'])}；每个请求生成 {t['out']} 个 token"
                            f"（Azure LLM 流量中的请求形态）。一个 decode 实例{tight_zh}在其批大小和延迟目标下能持续输出 {t['tps']} tok/s。"
                            "需要多少个 decode 实例？"),),
        conventions_en=POOL_EN, conventions_zh=POOL_ZH,
    )


@template("serving.disagg_chain", topic="serving",
          title="Disaggregated serving: KV per token → transfer time → prefill pool → decode pool",
          title_zh="预填充/解码分离：每 token KV → 传输时间 → prefill 池 → decode 池", difficulty=3, target_seconds=360,
          source="zhong2024, patel2024")
def disagg_chain(rng):
    m, dtype = _model(rng), rng.choice(("bf16", "fp8"))
    prompt = int(ranges.draw(rng, "chat_prompt_tokens"))
    gbps, link = _link(rng)
    t = _traffic(rng)
    return Spec(
        scenario_en=f"You are splitting {m.name} serving into a prefill pool and a decode pool ({dtype} KV cache, "
                    f"prefill instances at TP = {instance_tp(m)}, one {gbps} Gb/s NIC per GPU between them). "
                    f"Traffic: λ = {_rate(t['rate'])}, "
                    f"{prompt:,} prompt tokens and {t['out']} output tokens per request (Azure LLM trace "
                    "shapes).",
        scenario_zh=f"你要把 {m.name} 的推理服务拆成 prefill 池和 decode 池（KV Cache 为 {dtype}，prefill 实例 TP = "
                    f"{instance_tp(m)}，两池之间每卡一块 {gbps} Gb/s 网卡）。"
                    f"流量：λ = {_rate(t['rate'])}，每个请求 {prompt:,} 个 prompt token、{t['out']} 个"
                    "输出 token（Azure LLM 流量中的请求形态）。",
        givens=_kv_givens(m, dtype) + (
            given("prompt_tokens", "Prompt tokens", "prompt token 数", prompt),
            given("tp", "Prefill instance TP degree", "prefill 实例的 TP 度", instance_tp(m)),
            given("link", "NIC per GPU, one way", "每卡网卡单向带宽", f"{gbps} Gb/s"),
            given("arrival_rate", "Arrival rate λ", "到达率 λ", t["rate"], "req_rate", "req/s"),
            given("prefill_time", "Prefill time per request", "每个请求的 prefill 时间", t["prefill_time"], "time", "ms"),
            given("utilisation", "Planned prefill utilisation", "prefill 计划利用率", t["util"], "ratio", "%"),
            given("output_tokens", "Output tokens per request", "每个请求的输出 token 数", t["out"]),
            given("tokens_per_s_per_instance", "One decode instance's throughput", "单个 decode 实例的吞吐",
                  t["tps"], "tok_rate", "tok/s")),
        asks=(Ask(formula="kv_bytes_per_token", unit="kB",
                  inputs={**m.kv_inputs(), "bytes_per_elem": DTYPE_BYTES[dtype]},
                  prompt_en=f"How many bytes of {dtype} KV cache does one token take, in kB?",
                  prompt_zh=f"一个 token 占多少 {dtype} KV Cache（kB）？"),
              Ask(formula="kv_transfer_time", unit="ms",
                  inputs={"kv_bytes_per_token": Ref(0), "prompt_tokens": prompt, "link_bandwidth": link,
                          **_tp_inputs(m)},
                  explanation=_tp_lines(m), explanation_zh=_tp_lines(m, lang_zh=True),
                  prompt_en="How long does sending one request's KV cache to the decode pool take, in ms?",
                  prompt_zh="把一个请求的 KV Cache 发送到 decode 池需要多少时间（ms）？"),
              Ask(formula="prefill_instances", integer=True, unit="",
                  inputs={"arrival_rate": t["rate"], "prefill_time": t["prefill_time"], "utilisation": t["util"]},
                  prompt_en=f"Each prefill takes {fmt_quantity(t['prefill_time'], 'time', unit='ms')} on one instance; "
                            f"planning for {fmt_number(t['util'] * 100)}% utilisation, how many prefill instances?",
                  prompt_zh=f"每次 prefill 在一个实例上耗时 {fmt_quantity(t['prefill_time'], 'time', unit='ms')}；"
                            f"按 {fmt_number(t['util'] * 100)}% 的利用率规划，需要多少个 prefill 实例？"),
              Ask(formula="decode_instances", integer=True, unit="",
                  inputs={"arrival_rate": t["rate"], "output_tokens": t["out"], "tokens_per_s_per_instance": t["tps"]},
                  prompt_en=f"One decode instance sustains {t['tps']} tok/s. How many decode instances?",
                  prompt_zh=f"一个 decode 实例能持续输出 {t['tps']} tok/s。需要多少个 decode 实例？")),
        conventions_en=CONV_EN + " " + POOL_EN, conventions_zh=CONV_ZH + POOL_ZH,
        world=World(model=m, kv=dtype, seq=prompt + t["out"]),
    )
