"""KV-cache compression templates: GQA's intensity and multi-head latent attention.

KV-cache compression templates: decode attention's arithmetic intensity and how GQA raises it, and
multi-head latent attention (DeepSeek-V2/V3) against GQA.

MLA caches, per layer and token, one latent of kv_lora_rank values plus one RoPE key of rope_dim values shared by
every head (DeepSeek-V2 §2.1); the GQA comparison uses the usual 2 × n_kv_heads × d_head per layer.
"""

from __future__ import annotations

from engine import formulas
from engine.units import fmt_number, fmt_quantity, round_sig

from ... import hardware, kit, models
from ...hardware import DTYPE_BYTES
from ...models import Model
from ...spec import Ask, Ref, Spec, World, given, settled_by_hand
from ...template import template
from ..chip_givens import CONV_EN, CONV_ZH
from ..inference.footprint import hypothetical_model
from ..served_models import CAP_CONV_EN, CAP_CONV_ZH, KV_CONV_EN, KV_CONV_ZH, gb, model_zh, weight_bytes

MLA_CONV_EN = ("Multi-head latent attention (MLA) caches, per layer and token, one compressed latent of kv_lora_rank "
               "values and one decoupled RoPE key of rope_dim values shared by all heads; K and V are rebuilt from the "
               "latent, so nothing else is cached.")
MLA_CONV_ZH = ("多头潜在注意力（MLA）在每一层为每个 token 缓存一个 kv_lora_rank 维的压缩潜向量，外加一个所有头共享的、rope_dim 维的"
               "解耦 RoPE key；K 和 V 都由潜向量重建，不再缓存别的。")
MLA_MODELS = tuple(m for m in models.MOE_MODELS if m.is_mla)  # DeepSeek-V2 and V3


def _mla_config(rng) -> tuple[str, str, int, int, int]:
    if rng.random() < 0.4:
        m = rng.choice(MLA_MODELS)
        return m.name, m.name, m.layers, m.kv_lora_rank, m.rope_dim
    return ("a hypothetical MLA model", "一个假想的 MLA 模型", rng.choice((24, 28, 32, 40, 48, 56, 64, 80)),
            rng.choice((256, 512)), rng.choice((32, 64)))


@template("inference.mla_kv_per_token", topic="inference", title="KV cache per token with MLA (DeepSeek)",
          title_zh="多头潜在注意力（MLA）每个 token 的 KV Cache", difficulty=2, target_seconds=75, source="deepseek2024")
def mla_kv_per_token(rng):
    name, name_zh, layers, rank, rope = _mla_config(rng)
    dtype = rng.choice(("bf16", "fp8"))
    return Spec(
        givens=(given("model", "Model", "模型", name, value_zh=name_zh), given("layers", "Layers L", "层数 L", layers),
                given("kv_lora_rank", "Latent rank d_c (kv_lora_rank)", "潜向量维度 d_c（kv_lora_rank）", rank),
                given("rope_dim", "RoPE key dimension d_R", "RoPE key 维度 d_R", rope),
                given("dtype", "KV precision", "KV 精度", dtype),
                given("bytes_per_elem", "Bytes per element", "每元素字节数", DTYPE_BYTES[dtype], "bytes")),
        asks=(Ask(formula="mla_kv_bytes_per_token", unit="kB",
                  prompt_en=f"How many bytes of KV cache does {name} add per token with {'an' if dtype == 'fp8' else 'a'} "
                            f"{dtype} cache, in kB?",
                  prompt_zh=f"{name_zh} 使用 {dtype} KV Cache 时，每个 token 增加多少 KV Cache（kB）？"),),
        conventions_en=f"{MLA_CONV_EN} kB = 1e3 B.", conventions_zh=f"{MLA_CONV_ZH}kB = 1e3 B。",
        world=World(model=next((x for x in MLA_MODELS if x.name == name), None)),
    )


INTENSITY_CONV_EN = ("Decode attention for one new token: each query head does 2 FLOPs (a multiply-add) with every "
                     "cached K element of its group, and 2 with every V element; the KV cache is read from HBM once "
                     "per step and shared by the query heads of a group (n_heads ÷ n_kv_heads).")
INTENSITY_CONV_ZH = ("为一个新 token 做 decode 注意力计算：每个 Query 头对本组缓存里的每个 K 元素做 2 FLOPs（一次乘加），对每个 V "
                     "元素也做 2 FLOPs；KV Cache 每步从显存读一次，由同组的 Query 头共享（每组 n_heads ÷ n_kv_heads 个）。")


def _attention_models() -> tuple[Model, ...]:
    return models.MODELS + tuple(m for m in models.MOE_MODELS if not m.is_mla and m not in models.MODELS)


@template("inference.decode_attention_intensity", topic="inference",
          title="Decode attention intensity (MHA / GQA / MQA)",
          title_zh="decode 阶段注意力的算术强度（MHA / GQA / MQA）", difficulty=2, target_seconds=75,
          source="austin2025, ainslie2023, shazeer2019")
def decode_attention_intensity(rng):
    m = rng.choice(_attention_models()) if rng.random() < 0.6 else hypothetical_model(rng)
    dtype = rng.choice(("bf16", "fp8", "fp32")) if m.attention != "MHA" else rng.choice(("bf16", "fp8"))
    # half the made-up grouped models have a head count off the powers of two (40-112, as Llama-2-13B's 40): groups of
    # 5, 6, 7, 10, 14 too.  Drawn last, so the other seeds keep their problem
    if m.key == "hypothetical" and m.attention != "MHA" and rng.random() < 0.5:
        heads = rng.choice((40, 48, 56, 80, 112))
        kv = rng.choice([k for k in (1, 2, 4, 8) if heads % k == 0])
        m = m._replace(n_heads=heads, n_kv_heads=kv, d_model=heads * m.d_head, ffn=4 * heads * m.d_head)
    return Spec(
        givens=(given("model", "Model", "模型", f"{m.name} ({m.attention})", value_zh=f"{model_zh(m)}（{m.attention}）"),
                kit.model(m, "n_heads", label=("Query heads n_heads", "Query 头数 n_heads")),
                kit.model(m, "n_kv_heads", label=("KV heads n_kv_heads", "KV 头数 n_kv_heads")),
                given("dtype", "KV precision", "KV 精度", dtype),
                given("bytes_per_elem", "Bytes per element", "每元素字节数", DTYPE_BYTES[dtype], "bytes")),
        asks=(Ask(formula="decode_attention_intensity", unit="FLOP/B",
                  prompt_en=f"What is the arithmetic intensity of {m.name}'s decode attention over its KV cache "
                            "(FLOPs per byte of cache read), in FLOP/B?",
                  prompt_zh=f"{model_zh(m)} decode 阶段注意力对 KV Cache 的算术强度（每读一个字节的缓存做多少 FLOPs）是多少"
                            "（FLOP/B）？"),),
        conventions_en=INTENSITY_CONV_EN, conventions_zh=INTENSITY_CONV_ZH,
        world=World(model=m),
    )


PAGES = (16, 64)  # vLLM's default KV block and FlashMLA's (tokens)


def _mla_serving(rng):
    """DeepSeek-V2 or V3 in fp8 on one node of 8 GPUs that hold it, a context, a GQA alternative (4, 8 or 16 KV
    heads of 128) and counts settled by hand."""
    while True:
        m, n_kv = rng.choice(MLA_MODELS), rng.choice((4, 8, 16))
        gpu = rng.choice([g for g in hardware.GPUS if g.supports("fp8") and 8 * g.memory >= 1.3 * weight_bytes(m, "fp8")])
        if (gpu.scale_up_domain or 8) < 8:  # an 8-GPU NVLink node: not H100 PCIe, whose bridges pair two cards
            continue
        # long contexts: the counts stay small enough to settle by hand
        seq, kv_dtype = rng.choice((32768, 49152, 65536, 98304, 131072)), rng.choice(("bf16", "fp8"))
        bpe = DTYPE_BYTES[kv_dtype]
        budget = 8 * gpu.memory - weight_bytes(m, "fp8")
        mla = formulas.get("mla_kv_bytes_per_token").evaluate(layers=m.layers, kv_lora_rank=m.kv_lora_rank,
                                                              rope_dim=m.rope_dim, bytes_per_elem=bpe)
        gqa = formulas.get("kv_bytes_per_token").evaluate(layers=m.layers, n_kv_heads=n_kv, d_head=128,
                                                          bytes_per_elem=bpe)
        page = rng.choice(PAGES)
        ins = [{"kv_budget": budget, "kv_bytes_per_token": kv, "seq": seq, "block_size": page} for kv in (mla, gqa)]
        counts = [formulas.get("paged_max_seqs").evaluate(**i) for i in ins]
        if min(counts) >= 1 and all(settled_by_hand("paged_max_seqs", i) for i in ins):
            return m, n_kv, gpu, seq, budget, kv_dtype, page


@template("inference.chain_mla_vs_gqa", topic="inference",
          title="Chain: DeepSeek's MLA cache vs GQA",
          title_zh="追问链：DeepSeek 的 MLA 缓存与 GQA 对比", difficulty=3,
          target_seconds=420, source="deepseek2024, ainslie2023")
def chain_mla_vs_gqa(rng):
    m, n_kv, gpu, seq, budget, kv_dtype, page = _mla_serving(rng)
    w = weight_bytes(m, "fp8")
    bpe = DTYPE_BYTES[kv_dtype]
    per_token = (formulas.get("mla_kv_bytes_per_token").evaluate(layers=m.layers, kv_lora_rank=m.kv_lora_rank,
                                                                 rope_dim=m.rope_dim, bytes_per_elem=bpe),
                 formulas.get("kv_bytes_per_token").evaluate(layers=m.layers, n_kv_heads=n_kv, d_head=128,
                                                             bytes_per_elem=bpe))
    inputs = [{"kv_budget": budget, "kv_bytes_per_token": kv, "seq": seq, "block_size": page} for kv in per_token]
    n_mla, n_gqa = (int(formulas.get("paged_max_seqs").evaluate(**i)) for i in inputs)
    blocks = -(-seq // page)  # ceil(S / b) whole blocks per request
    request = tuple(blocks * page * kv for kv in per_token)
    values = (m.kv_lora_rank + m.rope_dim, 2 * n_kv * 128)
    more = fmt_number(round_sig(per_token[1] / per_token[0], 3))
    lead = (f"KV budget = 8 × {gb(gpu.memory)} − {gb(w)} = {gb(budget)}",)
    lead_zh = (f"KV 预算 = 8 × {gb(gpu.memory)} − {gb(w)} = {gb(budget)}",)
    return Spec(
        scenario_en=f"{m.name} ({fmt_quantity(m.params / 1e9, 'count')}B parameters, MLA) serves {seq:,}-token requests "
                    f"with fp8 weights on one node of 8 × {gpu.name}; its KV cache is {kv_dtype} and paged in blocks of {page} "
                    f"tokens. What does MLA buy against a Llama-style GQA cache with {n_kv} KV heads of 128?",
        scenario_zh=f"{m.name}（{fmt_quantity(m.params / 1e9, 'count')}B 参数，MLA）在一台 8 × {gpu.name} 的节点上以 fp8 权重处理 "
                    f"{seq:,} token 的请求；KV Cache 为 {kv_dtype}，按每块 {page} 个 token 分页。和 Llama 式的 GQA 缓存（{n_kv} 个 KV 头，"
                    "每头 128 维）相比，MLA 带来了什么？",
        givens=(kit.model(m, "layers"),
                given("kv_lora_rank", "Latent rank d_c", "潜向量维度 d_c", m.kv_lora_rank),
                given("rope_dim", "RoPE key dimension d_R", "RoPE key 维度 d_R", m.rope_dim),
                given("n_kv_heads", "GQA alternative: KV heads", "GQA 对照：KV 头数", n_kv),
                given("d_head", "GQA alternative: head dimension", "GQA 对照：每头维度", 128),
                given("bytes_per_elem", f"KV bytes per element ({kv_dtype})", f"KV 每元素字节数（{kv_dtype}）",
                      DTYPE_BYTES[kv_dtype], "bytes"),
                kit.chip(gpu, "memory", times=8, label=("Memory (8 GPUs)", "显存（8 张 GPU）")),
                given("weight_bytes", "Weights (fp8)", "权重（fp8）", w, "bytes", "GB"),
                given("seq", "Tokens per request", "每个请求的 token 数", seq),
                given("block_size", "KV block (tokens)", "KV 块大小（token）", page)),
        asks=(
            Ask(formula="mla_kv_bytes_per_token", unit="kB",
                prompt_en="How many bytes of KV cache does one token take with MLA, in kB?",
                prompt_zh="用 MLA 时，一个 token 的 KV Cache 占多少字节（kB）？"),
            Ask(formula="kv_bytes_per_token", unit="kB",
                takeaway=f"GQA caches 2 × {n_kv} × 128 = {values[1]:,} values per layer and token against MLA's "
                         f"{m.kv_lora_rank} + {m.rope_dim} = {values[0]}: {more}× the bytes for the same layers.",
                takeaway_zh=f"GQA 每层每个 token 缓存 2 × {n_kv} × 128 = {values[1]:,} 个值，MLA 只有 {m.kv_lora_rank} + "
                            f"{m.rope_dim} = {values[0]} 个：层数相同，字节数是 MLA 的 {more} 倍。",
                prompt_en="With the GQA cache instead (same layers), how many bytes per token, in kB?",
                prompt_zh="如果换成 GQA 缓存（层数不变），每个 token 占多少字节（kB）？"),
            Ask(formula="paged_max_seqs", unit="", integer=True,
                inputs={"kv_budget": budget, "kv_bytes_per_token": Ref(0), "seq": seq, "block_size": page},
                explanation=lead, explanation_zh=lead_zh,
                takeaway=f"an MLA request of {seq:,} tokens holds only {gb(request[0])} of cache, so {n_mla} share the "
                         "node: at long context the KV cache per token, not the weights, sets the batch.",
                takeaway_zh=f"用 MLA 时一个 {seq:,} token 的请求只占 {gb(request[0])} 缓存，整台节点能同时放 {n_mla} 个："
                            "长上下文下决定 batch 的是每 token 的 KV Cache，而不是权重。",
                prompt_en="With MLA, how many requests fit in the memory left after the weights (a whole number)?",
                prompt_zh="用 MLA 时，除去权重后剩下的显存能同时放下多少个请求（整数）？"),
            Ask(formula="paged_max_seqs", unit="", integer=True,
                inputs={"kv_budget": budget, "kv_bytes_per_token": Ref(1), "seq": seq, "block_size": page},
                explanation=lead, explanation_zh=lead_zh,
                takeaway=f"{more}× the bytes per token means {n_gqa} requests instead of {n_mla} in the same "
                         f"{gb(budget)}: MLA's small cache is what lets DeepSeek batch long contexts.",
                takeaway_zh=f"每 token 的字节数是 MLA 的 {more} 倍，同样的 {gb(budget)} 只能放 {n_gqa} 个请求，而不是 {n_mla} 个："
                            "正是 MLA 的小缓存让 DeepSeek 能在长上下文下跑大 batch。",
                prompt_en="And with the GQA cache (a whole number)?", prompt_zh="换成 GQA 缓存呢（整数）？"),
        ),
        conventions_en=f"{CONV_EN} kB = 1e3 B. {MLA_CONV_EN} {KV_CONV_EN} {CAP_CONV_EN} Paging: a request holds "
                       "ceil(S ÷ block) whole blocks.",
        conventions_zh=f"{CONV_ZH}kB = 1e3 B。{MLA_CONV_ZH}{KV_CONV_ZH}{CAP_CONV_ZH}分页：一个请求占 ceil(S ÷ 块大小) 个整块。",
        world=World(model=m, gpu=gpu, precision="fp8", n_gpus=8, tp=8, seq=seq, holds=("weights",)),
    )
