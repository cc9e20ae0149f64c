"""KV-reuse templates: prefix caching and offloaded KV caches against recomputing by prefill.

Reusing a KV cache instead of recomputing it: the prefill FLOPs and the TTFT a prefix cache saves
for a shared system prompt (vLLM automatic prefix caching, SGLang RadixAttention), and the time to bring an
offloaded KV cache back from host memory over PCIe or Grace's NVLink-C2C, against recomputing it by prefill.

Link figures come from the dated ranges (question_bank/data/ranges.toml: pcie_x16_one_way, grace_c2c) and
are shown as vendors quote them (both directions together); the copy goes one way.
"""

from __future__ import annotations

from engine import formulas
from engine.langs import EN, ZH
from engine.units import fmt_number, fmt_quantity, round_sig

from ... import hardware, kit, models, ranges
from ...hardware import DTYPE_BYTES
from ...spec import Ask, Ref, Spec, World, given
from ...template import template
from ..model_params import nominal_phi, phi_text

# Dense full-attention GQA models served on one GPU in bf16 (KV/token = 2·L·n_kv·d_head·bytes)
ONE_GPU_MODELS = ("llama31_8b", "qwen3_8b", "qwen3_32b", "llama31_70b")
# at most realism.MAX_MFU, a prefill too; 0.42 and 0.48 stand where 0.55 and 0.6 stood, so every other seed draws
# what it drew before
PREFILL_MFUS = (0.4, 0.45, 0.5, 0.42, 0.48)


def _fits(gpu, m, seq: int, batch: int = 1) -> bool:
    kv = formulas.get("kv_cache_bytes").evaluate(batch=batch, seq=seq, **m.kv_inputs(), bytes_per_elem=2)
    return 2 * m.params + kv <= 0.9 * gpu.memory


# --------------------------------------------------------------------------- #
# Prefix caching

PREFIX_TOKENS = (1200, 1500, 2000, 2500, 3000, 4000, 5000, 6000, 8000)  # a system prompt with tool definitions
USER_TOKENS = (50, 80, 100, 150, 200, 300, 400)
REQUESTS = (200, 500, 1000, 2000, 5000, 10000, 20000, 50000)
PREFIX_GPUS = ("h100_sxm", "h200", "b200", "mi300x", "h100_nvl")
PREFIX_EN = ("Conventions: a forward pass costs 2Φ FLOPs per token (attention over the prompt aside); with prefix "
             "caching the first request prefills the shared prefix and keeps its KV cache, later requests reuse it and "
             "prefill only their own tokens; TTFT = the prefill at peak × MFU (queueing and the first decode step "
             "aside); TFLOPS = 1e12 FLOP/s.")
PREFIX_ZH = ("约定：前向每 token 2Φ FLOPs（不计对 prompt 的注意力计算）；开启前缀缓存时，第一个请求 prefill 共享前缀并保留其 "
             "KV Cache，之后的请求复用它，只 prefill 自己的 token；TTFT = 按峰值 × MFU 计的 prefill 时间（不计排队和第一个 "
             "decode 步）；TFLOPS = 1e12 FLOP/s。")
# the chain also prices the weight read: a prefill of a few dozen tokens is bound by it, not by its FLOPs
PREFIX_CHAIN_EN = PREFIX_EN.replace(
    "TTFT = the prefill at peak × MFU", "TTFT = the slower of the prefill's FLOPs at peak × MFU and reading the bf16 "
    "weights once, 2Φ bytes at the memory bandwidth, which overlap").replace(
    "TFLOPS = 1e12 FLOP/s.", "TFLOPS = 1e12 FLOP/s, GB/s = 1e9 B/s, TB/s = 1e12 B/s.")
PREFIX_CHAIN_ZH = PREFIX_ZH.replace(
    "TTFT = 按峰值 × MFU 计的 prefill 时间", "TTFT = prefill 按峰值 × MFU 计的算力时间与读一遍 bf16 权重的时间（2Φ 字节按显存带宽计，"
    "两者重叠）中较慢的那个").replace(
    "TFLOPS = 1e12 FLOP/s。", "TFLOPS = 1e12 FLOP/s，GB/s = 1e9 B/s，TB/s = 1e12 B/s。")


def _prefix_setup(rng):
    m = models.get(rng.choice(ONE_GPU_MODELS))
    prefix, user, requests = rng.choice(PREFIX_TOKENS), rng.choice(USER_TOKENS), rng.choice(REQUESTS)
    return m, nominal_phi(m), prefix, user, requests


@template("serving.prefix_cache_flops", topic="serving", title="Prefix caching: prefill FLOPs a shared system prompt saves",
          title_zh="前缀缓存：共享系统提示省下的 prefill FLOPs", difficulty=2, target_seconds=120,
          source="kwon2023, zheng2024")
def prefix_cache_flops(rng):
    m, phi, prefix, user, requests = _prefix_setup(rng)
    return Spec(
        givens=(given("model", "Model", "模型", m.name), kit.model(m, "phi"),
                given("prefix_tokens", "Shared system prompt (tokens)", "共享系统提示的 token 数", prefix),
                given("requests", "Requests sharing it", "共享它的请求数", requests)),
        asks=(Ask(formula="prefix_cache_saved_flops", unit="FLOP",
                  inputs={"phi": phi, "prefix_tokens": prefix, "requests": requests},
                  prompt_en=f"An agent built on {m.name} (Φ = {phi_text(phi)}) opens every request with the same "
                            f"{prefix:,}-token system prompt (instructions and tool definitions), followed by about "
                            f"{user} tokens of its own. Over {requests:,} requests, how many prefill FLOPs does prefix "
                            "caching save?",
                  prompt_zh=f"一个基于 {m.name}（Φ = {phi_text(phi)}）的智能体，每个请求都以同一段 {prefix:,} token 的系统提示"
                            f"（指令和工具定义）开头，后面约 {user} 个 token 是请求自己的。{requests:,} 个请求下来，前缀缓存"
                            "一共省下多少 prefill FLOPs？"),),
        conventions_en=PREFIX_EN, conventions_zh=PREFIX_ZH,
        world=World(model=m, seq=prefix + user),
    )


def _near_ridge(rng, phi: float, user: int, gpu) -> bool:
    """Whether the cached prefill's compute and weight read at the MFU this draw goes on to take lie within 10 % of each
    other (then leaving the weight read out could not be told from the right answer).  The MFU is read ahead
    without moving the draw: a copy of the generator's state."""
    ahead = rng.__class__()
    ahead.setstate(rng.getstate())
    mfu = ahead.choice(PREFILL_MFUS)
    compute, weights = 2 * phi * user / (gpu.peak("bf16") * mfu), 2 * phi / gpu.bandwidth
    return abs(compute / weights - 1) < 0.1


def _prefix_takeaway(floor: dict, prefix: int, user: int) -> tuple[str, str]:
    """How far TTFT falls with the cache, computed from the problem: by the prefix's share only while the request's
    own tokens are still compute-bound."""
    f = formulas.get("ttft_floor")
    before, after = f.evaluate(prompt_tokens=prefix + user, **floor), f.evaluate(prompt_tokens=user, **floor)
    compute = f.part_values({"prompt_tokens": user, **floor})["t_compute"]
    times = fmt_number(round_sig(before / after, 2))
    tail_en = ("it pays only while the prefix's KV cache stays resident, so keep the shared part at the start and "
               "byte-identical.")
    tail_zh = "前提是前缀的 KV Cache 一直留在显存里，所以共享部分要放在开头、逐字节一致。"
    if after > compute:  # the request's own tokens are too few to be compute-bound: the weight read sets TTFT
        share = fmt_number(round_sig((prefix + user) / user, 2))
        return (f"a cache hit prefills only the new tokens, yet TTFT falls {times}×, not the {share}× of the tokens: "
                f"{user} tokens are too few to be compute-bound, and reading the weights once sets the floor; " + tail_en,
                f"命中缓存时只 prefill 新 token，但 TTFT 只降到 1/{times}，而不是按 token 数的 1/{share}：{user} 个 token "
                "太少，算力跑不满，读一遍权重的时间就是下限；" + tail_zh)
    return (f"a cache hit prefills only the new tokens: TTFT falls {times}×, by the prefix's share of the prompt, and "
            "the GPU time saved serves other requests; " + tail_en,
            f"命中缓存时只 prefill 新 token：TTFT 降到 1/{times}，按前缀占 prompt 的比例下降，省下的 GPU 时间可以服务别的请求；"
            + tail_zh)


@template("serving.prefix_cache_chain", topic="serving",
          title="Prefix caching: FLOPs saved → TTFT without the cache → TTFT with it",
          title_zh="前缀缓存：省下的 FLOPs → 无缓存时的 TTFT → 有缓存时的 TTFT", difficulty=3, target_seconds=300,
          source="kwon2023, zheng2024, pope2022")
def prefix_cache_chain(rng):
    while True:  # not at the ridge: the cached prefill is clearly compute- or clearly weight-bound
        m, phi, prefix, user, requests = _prefix_setup(rng)
        gpu = hardware.get(rng.choice(PREFIX_GPUS))
        if _fits(gpu, m, prefix + user, batch=8) and not _near_ridge(rng, phi, user, gpu):
            break
    mfu = rng.choice(PREFILL_MFUS)
    peak = gpu.peak("bf16")
    floor = {"phi": phi, "peak_flops": peak, "mfu": mfu, "bandwidth": gpu.bandwidth, "bytes_per_param": 2}
    take_en, take_zh = _prefix_takeaway(floor, prefix, user)
    return Spec(
        scenario_en=f"An agent built on {m.name} (Φ = {phi_text(phi)}, bf16) is served on one {gpu.name}. Every request "
                    f"opens with the same {prefix:,}-token system prompt (instructions and tool definitions), followed "
                    f"by {user} tokens of its own; prefill runs at {mfu:.0%} MFU.",
        scenario_zh=f"一个基于 {m.name}（Φ = {phi_text(phi)}，bf16）的智能体部署在一张 {gpu.name} 上。每个请求都以同一段 "
                    f"{prefix:,} token 的系统提示（指令和工具定义）开头，后面 {user} 个 token 是请求自己的；prefill 的 MFU 为 "
                    f"{mfu:.0%}。",
        givens=(given("model", "Model", "模型", m.name), kit.model(m, "phi"),
                given("prefix_tokens", "Shared system prompt (tokens)", "共享系统提示的 token 数", prefix),
                given("user_tokens", "Tokens of each request's own", "每个请求自己的 token 数", user),
                given("requests", "Requests sharing the prompt", "共享系统提示的请求数", requests),
                kit.chip(gpu, "peak", dtype="bf16"), given("mfu", "Prefill MFU", "prefill 的 MFU", mfu, "ratio"),
                kit.chip(gpu, "bandwidth")),
        asks=(Ask(formula="prefix_cache_saved_flops", unit="FLOP",
                  inputs={"phi": phi, "prefix_tokens": prefix, "requests": requests},
                  prompt_en=f"Over {requests:,} requests, how many prefill FLOPs does prefix caching save?",
                  prompt_zh=f"{requests:,} 个请求下来，前缀缓存一共省下多少 prefill FLOPs？"),
              Ask(formula="ttft_floor", unit="ms", inputs={"prompt_tokens": prefix + user, **floor},
                  explanation=(f"prompt = {prefix:,} + {user} = {prefix + user:,} tokens",),
                  explanation_zh=(f"prompt = {prefix:,} + {user} = {prefix + user:,} 个 token",),
                  prompt_en="Without the cache, what is a request's TTFT, in ms?",
                  prompt_zh="没有前缀缓存时，一个请求的 TTFT 是多少 ms？"),
              Ask(formula="ttft_floor", unit="ms", inputs={"prompt_tokens": user, **floor},
                  explanation=(f"the {prefix:,} cached tokens are not prefilled again: only the request's own {user}",),
                  explanation_zh=(f"缓存的 {prefix:,} 个 token 不再 prefill：只算请求自己的 {user} 个",),
                  takeaway=take_en, takeaway_zh=take_zh,
                  prompt_en="With the prefix cached, what is a later request's TTFT, in ms?",
                  prompt_zh="前缀已缓存时，之后一个请求的 TTFT 是多少 ms？")),
        conventions_en=PREFIX_CHAIN_EN, conventions_zh=PREFIX_CHAIN_ZH,
        world=World(model=m, gpu=gpu, precision="bf16", kv="bf16", seq=prefix + user, holds=("weights", "kv")),
    )


# --------------------------------------------------------------------------- #
# KV cache offload to host memory

# chips on an x86 host's PCIe x16 slot, and the Grace-Blackwell parts on NVLink-C2C.  The host CPUs of 2026 HGX
# servers (Xeon 6, EPYC 9005) have PCIe Gen5 root ports, so a copy to host DRAM runs at Gen5 even from a B300
# that supports Gen6 (ranges.toml pcie_x16_one_way: low = Gen5).
PCIE_CHIPS = ("h100_sxm", "h200", "b200", "b300")
C2C_CHIPS = ("gb200", "gb300")
SESSION_TOKENS = (8192, 16384, 24576, 32768)
OFFLOAD_EN = ("Conventions: the KV cache is bf16, KV per token = 2 (K and V) × layers × n_kv_heads × d_head × 2 B; "
              "a reload copies it one way, at the link's one-way bandwidth (vendors quote both directions together); "
              "recomputing it is a prefill of the whole context at 2Φ FLOPs per token (attention over it aside) at "
              "peak × MFU; GB = 1e9 B, GB/s = 1e9 B/s, TFLOPS = 1e12 FLOP/s.")
OFFLOAD_ZH = ("约定：KV Cache 为 bf16，每 token 的 KV = 2（K 和 V）× 层数 × n_kv_heads × d_head × 2 B；重新载入是单向拷贝，"
              "按链路的单向带宽计（厂商给的是双向合计）；重算就是对整个上下文做一次 prefill，每 token 2Φ FLOPs（不计注意力"
              "部分），按峰值 × MFU 计；GB = 1e9 B，GB/s = 1e9 B/s，TFLOPS = 1e12 FLOP/s。")


def _pcie() -> tuple[float, str, str]:
    """(one-way bandwidth B/s, the link as quoted in English and Chinese) of a PCIe Gen5 x16 slot."""
    one_way = ranges.get("pcie_x16_one_way").low * 1e9
    total = fmt_number(2 * one_way / 1e9)
    return one_way, f"PCIe Gen5 x16, {total} GB/s both directions together", f"PCIe 5.0 x16，双向合计 {total} GB/s"


def _c2c() -> tuple[float, str, str]:
    r = ranges.get("grace_c2c")
    return r.low * 1e9, f"NVLink-C2C, {fmt_number(r.high)} GB/s both directions together", \
        f"NVLink-C2C，双向合计 {fmt_number(r.high)} GB/s"


def _halved(one_way: float, lang: str) -> tuple[str, ...]:
    gbs = fmt_number(one_way / 1e9)
    total = fmt_number(2 * one_way / 1e9)
    return ((f"one way: {total} GB/s ÷ 2 = {gbs} GB/s",) if lang == EN else (f"单向：{total} GB/s ÷ 2 = {gbs} GB/s",))


def _kv_givens(m) -> tuple:
    return (given("model", "Model", "模型", m.name), kit.model(m, "layers"), kit.model(m, "n_kv_heads"),
            kit.model(m, "d_head"))


def _kv_inputs(m, seq: int) -> dict:
    return {"batch": 1, "seq": seq, **m.kv_inputs(), "bytes_per_elem": DTYPE_BYTES["bf16"]}


@template("serving.kv_offload_time", topic="serving", title="KV offload: reloading a session's KV cache from host memory",
          title_zh="KV 卸载：从主机内存重新载入一个会话的 KV Cache", difficulty=2, target_seconds=120,
          source="sheng2023")
def kv_offload_time(rng):
    while True:
        m = models.get(rng.choice(ONE_GPU_MODELS))
        seq = rng.choice(SESSION_TOKENS)
        if rng.random() < 0.5:
            gpu = hardware.get(rng.choice(PCIE_CHIPS))
            one_way, link_en, link_zh = _pcie()
            host_en, host_zh = "the x86 host's DRAM", "x86 主机的内存"
        else:
            gpu = hardware.get(rng.choice(C2C_CHIPS))
            one_way, link_en, link_zh = _c2c()
            host_en, host_zh = "the Grace CPU's LPDDR5X", "Grace CPU 的 LPDDR5X"
        if _fits(gpu, m, seq):
            break
    kv = round_sig(formulas.get("kv_cache_bytes").evaluate(**_kv_inputs(m, seq)), 4)  # computed with what is shown
    shown = fmt_quantity(kv, "bytes", unit="GB")
    return Spec(
        givens=(given("kv_bytes", "KV cache of the session", "会话的 KV Cache", kv, "bytes", "GB"),
                given("link", "Host link", "主机链路", link_en, value_zh=link_zh)),
        asks=(Ask(formula="kv_offload_time", unit="ms", inputs={"kv_bytes": kv, "link_bandwidth": one_way},
                  explanation=_halved(one_way, EN), explanation_zh=_halved(one_way, ZH),
                  prompt_en=f"A chat session on {m.name} has grown to {seq:,} tokens: {shown} of bf16 KV cache. While "
                            f"the user is idle the server offloads it from the {gpu.name} to {host_en} ({link_en}). "
                            "When the next turn arrives, how long does copying it back take, in ms?",
                  prompt_zh=f"{m.name} 上的一个对话会话已经累积到 {seq:,} 个 token：{shown} 的 bf16 KV Cache。用户空闲时，"
                            f"服务把它从 {gpu.name} 卸载到 {host_zh}（{link_zh}）。下一轮请求到来时，把它重新载入需要多少 ms？"),),
        conventions_en="Conventions: the copy goes one way, at the link's one-way bandwidth (vendors quote both "
                       "directions together); GB = 1e9 B, GB/s = 1e9 B/s.",
        conventions_zh="约定：拷贝是单向的，按链路的单向带宽计（厂商给的是双向合计）；GB = 1e9 B，GB/s = 1e9 B/s。",
        world=World(model=m, gpu=gpu, precision="bf16", kv="bf16", seq=seq, holds=("weights", "kv")),
    )


@template("serving.kv_offload_chain", topic="serving",
          title="KV offload: session KV → reload over PCIe → over NVLink-C2C → or recompute it?",
          title_zh="KV 卸载：会话 KV → 经 PCIe 载入 → 经 NVLink-C2C 载入 → 还是重算？", difficulty=3, target_seconds=360,
          source="sheng2023, pope2022")
def kv_offload_chain(rng):
    while True:
        m = models.get(rng.choice(ONE_GPU_MODELS))
        seq = rng.choice(SESSION_TOKENS)
        x86, grace = hardware.get(rng.choice(PCIE_CHIPS)), hardware.get(rng.choice(C2C_CHIPS))
        if _fits(x86, m, seq) and _fits(grace, m, seq):
            break
    pcie, pcie_en, pcie_zh = _pcie()
    c2c, c2c_en, c2c_zh = _c2c()
    mfu = rng.choice(PREFILL_MFUS)
    phi = nominal_phi(m)
    peak = grace.peak("bf16")
    return Spec(
        scenario_en=f"A long chat session on {m.name} (Φ = {phi_text(phi)}, bf16) holds {seq:,} tokens of context. "
                    f"Between turns its KV cache is offloaded to host memory: on an HGX {x86.name} server over "
                    f"{pcie_en}; on a {grace.name} over {c2c_en} to the Grace CPU. The alternative is to drop it and "
                    f"recompute it by prefill on the {grace.name} at {mfu:.0%} MFU.",
        scenario_zh=f"{m.name}（Φ = {phi_text(phi)}，bf16）上的一个长对话会话有 {seq:,} 个 token 的上下文。两轮之间它的 "
                    f"KV Cache 被卸载到主机内存：在 {x86.name} 的 HGX 服务器上经 {pcie_zh}；在 {grace.name} 上卸载到 Grace CPU 的"
                    f"内存，经 {c2c_zh}。另一种做法是丢掉它，需要时在 {grace.name} 上以 {mfu:.0%} 的 MFU 用 prefill 重算。",
        givens=_kv_givens(m) + (
            kit.model(m, "phi"),
            given("seq", "Context tokens", "上下文 token 数", seq),
            given("pcie", f"Host link ({x86.name})", f"主机链路（{x86.name}）", pcie_en, value_zh=pcie_zh),
            given("c2c", f"Host link ({grace.name})", f"主机链路（{grace.name}）", c2c_en, value_zh=c2c_zh),
            kit.chip(grace, "peak", dtype="bf16"), given("mfu", "Prefill MFU", "prefill 的 MFU", mfu, "ratio")),
        asks=(Ask(formula="kv_cache_bytes", unit="GB", inputs=_kv_inputs(m, seq),
                  prompt_en="How many GB of KV cache does the session hold?",
                  prompt_zh="这个会话的 KV Cache 有多少 GB？"),
              Ask(formula="kv_offload_time", unit="ms", inputs={"kv_bytes": Ref(0), "link_bandwidth": pcie},
                  explanation=_halved(pcie, EN), explanation_zh=_halved(pcie, ZH),
                  prompt_en=f"How long does reloading it over the {x86.name}'s PCIe link take, in ms?",
                  prompt_zh=f"经 {x86.name} 的 PCIe 链路重新载入它需要多少 ms？"),
              Ask(formula="kv_offload_time", unit="ms", inputs={"kv_bytes": Ref(0), "link_bandwidth": c2c},
                  explanation=_halved(c2c, EN), explanation_zh=_halved(c2c, ZH),
                  prompt_en=f"And over the {grace.name}'s NVLink-C2C, in ms?",
                  prompt_zh=f"经 {grace.name} 的 NVLink-C2C 呢（ms）？"),
              Ask(formula="ttft", unit="ms", inputs={"phi": phi, "prompt_tokens": seq, "peak_flops": peak, "mfu": mfu},
                  takeaway="per token, reloading moves 2·L·n_kv·d_head·2 bytes while recomputing costs 2Φ FLOPs: with "
                           "grouped KV heads even PCIe reloads faster than the GPU recomputes, NVLink-C2C several "
                           "times faster again, and attention over a long context only makes the prefill slower. "
                           "That is why serving stacks keep a host-memory KV tier (LMCache, vLLM's CPU offload).",
                  takeaway_zh="按每个 token 算，重新载入要搬 2·L·n_kv·d_head·2 字节，重算要 2Φ FLOPs：有了分组的 KV 头，连 PCIe "
                              "载入都比 GPU 重算快，NVLink-C2C 还要再快好几倍，而长上下文的注意力只会让 prefill 更慢。"
                              "所以推理框架都在主机内存里多留一层 KV Cache（LMCache、vLLM 的 CPU 卸载）。",
                  prompt_en=f"How long would recomputing it by prefill on the {grace.name} take, in ms?",
                  prompt_zh=f"在 {grace.name} 上用 prefill 重算它需要多少 ms？")),
        conventions_en=OFFLOAD_EN, conventions_zh=OFFLOAD_ZH,
        world=(World(model=m, gpu=x86, precision="bf16", kv="bf16", seq=seq, holds=("weights", "kv")),
               World(model=m, gpu=grace, precision="bf16", kv="bf16", seq=seq, holds=("weights", "kv"))),
    )
