"""PagedAttention templates: blocks, waste and the sequences a KV budget holds.

PagedAttention templates: a sequence's blocks and waste, and the sequences a KV budget holds against full
preallocation.
"""

from __future__ import annotations

from engine.units import fmt_number, fmt_quantity, round_sig

from ...spec import Ask, Ref, Spec, given, settled_by_hand
from ...template import template
from ..chip_givens import CONV_EN, CONV_ZH
from ..served_models import (
    CAP_CONV_EN,
    CAP_CONV_ZH,
    KV_CONV_EN,
    KV_CONV_ZH,
    gb,
    heads_extra,
    kv_givens,
    kv_per_token,
    model_given,
    tp_note,
)
from ..serving.latency import draw_serving_setup, evaluate, gpu_text, served_world

# --------------------------------------------------------------------------- #
# PagedAttention (family 10)

PAGED_CONV_EN = ("PagedAttention (vLLM): the KV cache is split into fixed blocks of b tokens; a sequence holds "
                 "ceil(S ÷ b) whole blocks, so only its last block can be partly empty.")
PAGED_CONV_ZH = ("PagedAttention（vLLM）：KV Cache 被切成每块 b 个 token 的固定块；一条序列占 ceil(S ÷ b) 个整块，"
                 "所以只有最后一块可能没填满。")
BLOCKS = (8, 16, 32)  # vLLM's block sizes (16 by default)


def _paged_seq(rng, b: int, limit: int = 131072) -> int:
    """A sequence length of 3 significant figures (block counts exact by hand) whose last block is partly filled,
    and not half full (S mod b ≠ b/2)."""
    while True:
        s = int(round_sig(rng.randrange(b + 1, min(limit, 32768)), 3))
        if s % b and 2 * (s % b) != b and s <= limit:
            return s


@template("serving.paged_blocks", topic="serving", title="PagedAttention blocks of a sequence",
          title_zh="PagedAttention 中一条序列占用的块数", difficulty=1, target_seconds=45, source="kwon2023")
def paged_blocks(rng):
    b = rng.choice(BLOCKS)
    s = _paged_seq(rng, b)
    return Spec(
        givens=(given("seq", "Tokens in the sequence S", "序列的 token 数 S", s),
                given("block_size", "Block size b (tokens)", "块大小 b（token）", b)),
        asks=(Ask(formula="paged_kv_blocks", unit="", integer=True,
                  prompt_en="How many KV blocks does this sequence hold?",
                  prompt_zh="这条序列占用多少个 KV 块？"),),
        conventions_en=PAGED_CONV_EN, conventions_zh=PAGED_CONV_ZH,
    )


@template("serving.paged_waste", topic="serving", title="PagedAttention waste of a sequence",
          title_zh="PagedAttention 中一条序列浪费的槽位", difficulty=1, target_seconds=45, source="kwon2023")
def paged_waste(rng):
    b = rng.choice(BLOCKS)
    s = _paged_seq(rng, b)
    # a third of the sequences are short chat turns under 1,000 tokens: their last block's waste is any count up to
    # b − 1, odd ones too (3 significant figures of a longer one end in 0).  Drawn last: the other seeds stay
    if rng.random() < 1 / 3:
        s = _paged_seq(rng, b, 999)
    return Spec(
        givens=(given("seq", "Tokens in the sequence S", "序列的 token 数 S", s),
                given("block_size", "Block size b (tokens)", "块大小 b（token）", b)),
        asks=(Ask(formula="paged_kv_waste_tokens", unit="",
                  prompt_en="How many token slots does this sequence reserve but leave empty (its waste)?",
                  prompt_zh="这条序列预留了但空着的 token 槽位有多少个（即浪费）？"),),
        conventions_en=PAGED_CONV_EN, conventions_zh=PAGED_CONV_ZH,
    )


def _paged_setup(rng):
    """A served model, its KV budget (memory − weights), a sequence length and a count settled by hand."""
    while True:
        m, dtype, gpu, n, _, _, w, _ = draw_serving_setup(rng)
        b = rng.choice(BLOCKS)
        s = _paged_seq(rng, b, m.max_seq)
        kvt = kv_per_token(m, 2)
        budget = n * gpu.memory - w
        inputs = {"kv_budget": budget, "kv_bytes_per_token": kvt, "seq": s, "block_size": b}
        count = evaluate("paged_max_seqs", **inputs)
        if count >= 2 and settled_by_hand("paged_max_seqs", inputs):
            return m, dtype, gpu, n, w, b, s, kvt, budget, inputs


@template("serving.paged_capacity", topic="serving", title="Sequences a KV budget holds with PagedAttention",
          title_zh="PagedAttention 下 KV 预算能放下的序列数", difficulty=3, target_seconds=150, source="kwon2023")
def paged_capacity(rng):
    m, dtype, gpu, n, w, b, s, kvt, budget, inputs = _paged_setup(rng)
    tp_en, tp_zh = tp_note(gpu, n)
    lead_en = (f"KV per token = 2 × 2 B × {m.layers} × {m.n_kv_heads} × {m.d_head} = "
               f"{fmt_quantity(kvt, 'bytes', unit='kB')}",)
    lead_zh = (f"每 token 的 KV = 2 × 2 B × {m.layers} × {m.n_kv_heads} × {m.d_head} = "
               f"{fmt_quantity(kvt, 'bytes', unit='kB')}",)
    return Spec(
        givens=(model_given(m),) + kv_givens(m) + (
            given("kv_budget", "Memory left for the KV cache", "留给 KV Cache 的显存", budget, "bytes", "GB"),
            given("seq", "Tokens per sequence S", "每条序列的 token 数 S", s),
            given("block_size", "Block size b (tokens)", "块大小 b（token）", b)),
        asks=(Ask(formula="paged_max_seqs", unit="", integer=True, inputs=inputs, explanation=lead_en,
                  explanation_zh=lead_zh,
                  prompt_en=f"{m.name} runs with {dtype} weights and a bf16 KV cache on "
                            f"{gpu_text(gpu, n)[0]}.{tp_en} How many sequences of {s:,} tokens does the KV budget "
                            "hold at once (a whole number)?",
                  prompt_zh=f"{m.name} 以 {dtype} 权重、bf16 KV Cache 运行在 {gpu_text(gpu, n)[1]} 上。{tp_zh}"
                            f"这份 KV 预算能同时放下多少条 {s:,} token 的序列（整数）？"),),
        conventions_en=f"{CONV_EN} kB = 1e3 B. {KV_CONV_EN} {PAGED_CONV_EN}",
        conventions_zh=f"{CONV_ZH}kB = 1e3 B。{KV_CONV_ZH}{PAGED_CONV_ZH}",
        world=served_world(m, dtype, gpu, n, s, int(evaluate("paged_max_seqs", **inputs))),
    )


@template("serving.chain_paged", topic="serving",
          title="Chain: PagedAttention vs full preallocation",
          title_zh="追问链：每 token 的 KV → 每条序列的块数 → 分页能放的序列 → 预分配能放的序列", difficulty=3,
          target_seconds=420, source="kwon2023")
def chain_paged(rng):
    while True:
        m, dtype, gpu, n, w, b, s, kvt, budget, inputs = _paged_setup(rng)
        mem = n * gpu.memory
        prealloc = {"gpu_bytes": mem, "weight_bytes": w, "kv_bytes_per_seq": m.max_seq * kvt}
        if (s < m.max_seq / 2 and evaluate("max_batch_fit", **prealloc) >= 1
                and settled_by_hand("max_batch_fit", prealloc)):
            break
    tp_en, tp_zh = tp_note(gpu, n)
    name_en, name_zh = gpu_text(gpu, n)
    paged, full = int(evaluate("paged_max_seqs", **inputs)), int(evaluate("max_batch_fit", **prealloc))
    reserve = (f"{m.max_seq:,} × {fmt_quantity(kvt, 'bytes', unit='kB')} = {gb(m.max_seq * kvt)}")
    return Spec(
        scenario_en=f"{m.name} with {dtype} weights and a bf16 KV cache on {name_en}.{tp_en} Requests average "
                    f"{s:,} tokens, but the model's context is {m.max_seq:,}. How much does paging the KV cache buy?",
        scenario_zh=f"{m.name}，权重 {dtype}，KV Cache bf16，部署在 {name_zh} 上。{tp_zh}请求平均 {s:,} 个 token，但模型的上下文"
                    f"长度是 {m.max_seq:,}。把 KV Cache 分页能多放多少请求？",
        givens=(model_given(m),) + kv_givens(m) + (
            given("bytes_per_elem", "KV bytes per element (bf16)", "KV 每元素字节数（bf16）", 2, "bytes"),
            given("gpu_bytes", "Memory" + (" (all GPUs)" if n > 1 else ""), "显存" + ("（全部 GPU）" if n > 1 else ""),
                  mem, "bytes", "GB"),
            given("weight_bytes", f"Weights ({dtype})", f"权重（{dtype}）", w, "bytes", "GB"),
            given("seq", "Tokens per request S", "每个请求的 token 数 S", s),
            given("max_seq", "Model context length", "模型上下文长度", m.max_seq),
            given("block_size", "Block size b (tokens)", "块大小 b（token）", b)),
        asks=(
            Ask(formula="kv_bytes_per_token", unit="kB", extras=heads_extra(m),
                prompt_en="How many bytes of KV cache does one token take (all layers), in kB?",
                prompt_zh="一个 token 的 KV Cache（所有层）占多少字节（kB）？"),
            Ask(formula="paged_kv_blocks", unit="", integer=True, inputs={"seq": s, "block_size": b},
                prompt_en="How many KV blocks does one request hold?", prompt_zh="一个请求占多少个 KV 块？"),
            Ask(formula="paged_max_seqs", unit="", integer=True,
                inputs={"kv_budget": budget, "kv_bytes_per_token": Ref(0), "seq": s, "block_size": b},
                explanation=(f"KV budget = memory − weights = {gb(mem)} − {gb(w)} = {gb(budget)}",),
                explanation_zh=(f"KV 预算 = 显存 − 权重 = {gb(mem)} − {gb(w)} = {gb(budget)}",),
                prompt_en="With paging, how many such requests fit in the memory left after the weights (a whole number)?",
                prompt_zh="分页后，除去权重剩下的显存能同时放下多少个这样的请求（整数）？"),
            Ask(formula="max_batch_fit", unit="", integer=True,
                inputs={"gpu_bytes": mem, "weight_bytes": w, "kv_bytes_per_seq": m.max_seq * kvt},
                explanation=(f"KV reserved per request = full context × KV/token = {reserve}",),
                explanation_zh=(f"每个请求预留的 KV = 完整上下文 × 每 token 的 KV = {reserve}",),
                takeaway=f"reserving the full context fits {full} requests, paging fits {paged} "
                         f"({fmt_number(paged / full, 3)}×): the memory was going to slots requests never fill, and "
                         "PagedAttention hands it to more requests instead.",
                takeaway_zh=f"按完整上下文预留只能放 {full} 个请求，分页能放 {paged} 个（{fmt_number(paged / full, 3)} 倍）："
                            "显存原本都给了请求根本用不到的槽位，PagedAttention 把它们分给了更多请求。",
                prompt_en=f"Without paging, a server that reserves the full {m.max_seq:,}-token context for every request "
                          "fits how many requests (a whole number)?",
                prompt_zh=f"不分页时，如果给每个请求都预留完整的 {m.max_seq:,} token 上下文，能放下多少个请求（整数）？"),
        ),
        conventions_en=f"{CONV_EN} kB = 1e3 B. {KV_CONV_EN} {PAGED_CONV_EN} {CAP_CONV_EN}",
        conventions_zh=f"{CONV_ZH}kB = 1e3 B。{KV_CONV_ZH}{PAGED_CONV_ZH}{CAP_CONV_ZH}",
        world=(served_world(m, dtype, gpu, n, s, int(evaluate("paged_max_seqs", **inputs))),
               served_world(m, dtype, gpu, n, m.max_seq, int(evaluate("max_batch_fit", **prealloc)))),
    )
