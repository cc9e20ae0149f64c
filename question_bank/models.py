"""Model catalogue: real configs (Hugging Face ``config.json`` or the paper), each with its source.

Each model records its context length (``max_seq``, also ``context``), its total parameters
(``params``) and, for mixture-of-experts models, the parameters active per token
(``active_params``: FLOPs use these, memory uses the total), and its layer as built (norm,
biases, dropout, gated MLP) so a problem shows the kernels and formulas of that model
(``kernels``, ``gpt_style``).  Falcon: LayerNorm, GELU 4h MLP, no biases (config ``bias: false``),
no dropout (``hidden_dropout`` / ``attention_dropout`` 0.0), rotary positions, grouped or multi-query
KV heads: not the GPT layer Korthikanti et al. count (``gpt_style``), though its MLP is.

``params`` is the published total parameter count (the model card's or the
checkpoint's).  ``param_inputs()`` gives the inputs of the engine formula
``param_count`` (Llama-style: gated MLP, untied embeddings, norms ignored),
which reproduces ``params`` for the Llama-style dense models within a fraction
of a percent; it does not describe GPT-3 or Falcon (2-matrix MLP, tied
embeddings) or Mixtral (8 expert MLPs).

Attention layout follows the real head counts, which sometimes differ from
what cheat-sheets say: the seed (C§4.1) calls Falcon-40B "MQA", but its config
has 128 query heads and 8 KV heads (``num_kv_heads: 8``, ``n_head_kv`` in older
revisions: grouped like GQA); Falcon-7B is the MQA one (``multi_query: true``, 1 KV head).
"""

from __future__ import annotations

from typing import NamedTuple

HF = "https://huggingface.co"


class Model(NamedTuple):
    """One model architecture, as published (a NamedTuple: immutable, and cheap to define at import)."""

    key: str
    name: str
    layers: int
    d_model: int
    n_heads: int  # query heads
    n_kv_heads: int  # key/value heads (= n_heads: MHA, 1: MQA, else GQA)
    d_head: int
    ffn: int  # MLP inner size (per expert for MoE)
    vocab: int
    params: float  # published total parameter count
    gated: bool  # gated (SwiGLU, 3-matrix) MLP
    source: str
    experts: int = 1
    top_k: int = 1
    tied_embeddings: bool = False
    max_seq: int = 2048  # context length it was trained for (max_position_embeddings / n_ctx)
    active_params: float | None = None  # MoE: published parameters used per token (FLOPs count these)
    notes: str = ""
    # MoE layout (issue #15): layers whose MLP is routed experts (0: all of them when experts > 1), and
    # experts every token always uses besides the routed top_k (DeepSeek's shared expert)
    moe_layers: int = 0
    shared_experts: int = 0
    # multi-head latent attention (DeepSeek-V2/V3): the cached latent's rank and the shared RoPE key's size
    kv_lora_rank: int = 0
    rope_dim: int = 0
    # The layer as built (what kernels a forward pass runs): the norm, linear-layer biases, and whether its
    # published training recipe uses dropout.  Defaults are the modern (Llama-style) layer.
    norm: str = "RMSNorm"  # or "LayerNorm"
    bias: bool = False  # biases on the linear layers (GPT-3: yes; Llama, Mistral, Falcon: no)
    dropout: bool = False  # dropout in training (GPT-3 / Megatron GPT: yes; Llama, Mistral, Falcon: 0)
    positions: str = "RoPE"  # "RoPE" or "learned" position embeddings

    @property
    def context(self) -> int:
        """The context length it was trained for (``max_seq``)."""
        return self.max_seq

    @property
    def total_params(self) -> float:
        """Every parameter (memory counts these; for MoE all experts)."""
        return self.params

    @property
    def flop_params(self) -> float:
        """The parameters one token multiplies through: ``active_params`` for MoE, else all of them."""
        return self.active_params if self.is_moe and self.active_params else self.params

    @property
    def activation(self) -> str:
        """The MLP's activation: SwiGLU (gated, 3 matrices) or GELU (2 matrices)."""
        return "SwiGLU" if self.gated else "GELU"

    @property
    def gpt_style(self) -> bool:
        """The layer Korthikanti et al.'s 34sbh + 5as²b counts: a 4h non-gated GELU MLP, multi-head attention
        (K and V as wide as Q: 2sbh each) and dropout (its masks are sbh + as²b + sbh of the count, and the
        dropped-out scores another 2as²b).  Falcon has the MLP but neither: no dropout, 8 or 1 KV heads."""
        return (not self.gated and not self.is_moe and self.ffn == 4 * self.d_model and self.dropout
                and self.n_kv_heads == self.n_heads)

    @property
    def kernels(self) -> frozenset[str]:
        """Kernels a forward pass of one layer runs (names as the bank's prompts write them)."""
        k = {"QKV GEMM", "scale", "mask", "softmax", "attention", "output projection", "residual add",
             "FFN GEMM", self.norm}
        k |= {"SiLU", "multiply"} if self.gated else {"GELU"}
        k |= {"bias add"} if self.bias else set()
        k |= {"dropout"} if self.dropout else set()
        k |= {"rotary embedding"} if self.positions == "RoPE" else set()
        k |= {"router", "top-k"} if self.is_moe else set()
        return frozenset(k)

    @property
    def attention(self) -> str:
        """MHA, GQA or MQA from the head counts."""
        if self.n_kv_heads == self.n_heads:
            return "MHA"
        return "MQA" if self.n_kv_heads == 1 else "GQA"

    @property
    def is_moe(self) -> bool:
        return self.experts > 1

    @property
    def llama_style(self) -> bool:
        """The engine's param_count formula describes this model (gated, untied, dense)."""
        return self.gated and not self.tied_embeddings and not self.is_moe

    @property
    def is_mla(self) -> bool:
        return self.kv_lora_rank > 0

    @property
    def expert_params(self) -> float:
        """One routed expert's parameters summed over the MoE layers (gated MLP: 3 × d_model × ffn per layer):
        the spec's ``phi_expert``."""
        return (self.moe_layers or self.layers) * 3 * self.d_model * self.ffn if self.is_moe else 0.0

    @property
    def dense_params(self) -> float:
        """Everything but the routed experts (attention, embeddings, dense MLPs, shared experts, routers):
        the spec's ``phi_dense`` = published total − experts × ``expert_params``."""
        return self.params - self.experts * self.expert_params

    def param_inputs(self) -> dict[str, int]:
        """Inputs of the engine formula ``param_count``."""
        return {"layers": self.layers, "d_model": self.d_model, "n_heads": self.n_heads,
                "n_kv_heads": self.n_kv_heads, "d_head": self.d_head, "ffn": self.ffn, "vocab": self.vocab}

    def kv_inputs(self) -> dict[str, int]:
        """The model's inputs of ``kv_bytes_per_token`` / ``kv_cache_bytes`` (without dtype and sizes)."""
        return {"layers": self.layers, "n_kv_heads": self.n_kv_heads, "d_head": self.d_head}


def _hf(repo: str) -> str:
    return f"{HF}/{repo}/blob/main/config.json"


# Field order: layers, d_model, n_heads, n_kv_heads, d_head, ffn, vocab, params, gated.
# Hugging Face configs: num_hidden_layers, hidden_size, num_attention_heads, num_key_value_heads,
# hidden_size / num_attention_heads, intermediate_size, vocab_size; max_seq = max_position_embeddings.
# "params: config total" = embeddings + unembedding + every layer's matrices and norms counted from
# the config; it is the checkpoint's parameter count (the paper rounds it: 7B, 13B, 70B ...).

LLAMA2_7B = Model("llama2_7b", "Llama-2-7B", 32, 4096, 32, 32, 128, 11008, 32000, 6_738_415_616, True,
                  f"config {_hf('meta-llama/Llama-2-7b-hf')} (all fields, max_position_embeddings 4096); "
                  "params: config total; Touvron et al. 2023, Llama 2, arXiv:2307.09288 (7B)", max_seq=4096)
LLAMA2_13B = Model("llama2_13b", "Llama-2-13B", 40, 5120, 40, 40, 128, 13824, 32000, 13_015_864_320, True,
                   f"config {_hf('meta-llama/Llama-2-13b-hf')} (all fields); params: config total "
                   "(arXiv:2307.09288: 13B)", max_seq=4096)
LLAMA2_70B = Model("llama2_70b", "Llama-2-70B", 80, 8192, 64, 8, 128, 28672, 32000, 68_976_648_192, True,
                   f"config {_hf('meta-llama/Llama-2-70b-hf')} (all fields, num_key_value_heads 8); "
                   "params: config total (arXiv:2307.09288: 70B)", max_seq=4096)
LLAMA3_8B = Model("llama3_8b", "Llama-3-8B", 32, 4096, 32, 8, 128, 14336, 128256, 8_030_261_248, True,
                  f"config {_hf('meta-llama/Meta-Llama-3-8B')} (all fields, max_position_embeddings 8192); "
                  "params: config total", max_seq=8192)
LLAMA3_70B = Model("llama3_70b", "Llama-3-70B", 80, 8192, 64, 8, 128, 28672, 128256, 70_553_706_496, True,
                   f"config {_hf('meta-llama/Meta-Llama-3-70B')} (all fields, max_position_embeddings 8192); "
                   "params: config total", max_seq=8192)
LLAMA3_405B = Model("llama3_405b", "Llama-3.1-405B", 126, 16384, 128, 8, 128, 53248, 128256, 405_853_388_800, True,
                    f"config {_hf('meta-llama/Llama-3.1-405B')} (all fields, max_position_embeddings 131072); "
                    "layers, width, FFN, 128 heads and 8 KV heads also in The Llama 3 Herd of Models, "
                    "arXiv:2407.21783, Table 3; params: config total", max_seq=131072,
                    notes="The 405B model was released as Llama 3.1. Some early copies of its config say "
                          "num_key_value_heads 16; the paper and the current config say 8.")
MISTRAL_7B = Model("mistral_7b", "Mistral-7B", 32, 4096, 32, 8, 128, 14336, 32000, 7_241_732_096, True,
                   f"config {_hf('mistralai/Mistral-7B-v0.1')} (all fields, sliding_window 4096, "
                   "max_position_embeddings 32768); params: config total (Jiang et al. 2023, Mistral 7B, "
                   "arXiv:2310.06825; the release post https://mistral.ai/news/announcing-mistral-7b/ "
                   "says 7.3B)", max_seq=32768,
                   notes="Sliding-window attention (4096) in v0.1.")
MIXTRAL_8X7B = Model("mixtral_8x7b", "Mixtral-8x7B", 32, 4096, 32, 8, 128, 14336, 32000, 46_702_792_704, True,
                     f"config {_hf('mistralai/Mixtral-8x7B-v0.1')} (all fields, num_local_experts 8, "
                     "num_experts_per_tok 2); params: config total = the 46.7B total and 12.9B active of "
                     "https://mistral.ai/news/mixtral-of-experts/ (Jiang et al. 2024, arXiv:2401.04088, "
                     "rounds them to 47B and 13B)", experts=8, top_k=2, max_seq=32768,
                     active_params=12.9e9)
GPT3_175B = Model("gpt3_175b", "GPT-3 175B", 96, 12288, 96, 96, 128, 49152, 50257, 175e9, False,
                  "Brown et al. 2020, Language Models are Few-Shot Learners, Table 2.1 "
                  "(https://arxiv.org/abs/2005.14165): 175.0B params, 96 layers, d_model 12288, 96 heads of 128, "
                  "d_ff = 4 x d_model, n_ctx 2048; vocab 50257 is the GPT-2 BPE that GPT-3 reuses "
                  "(Radford et al. 2019, Language Models are Unsupervised Multitask Learners)",
                  tied_embeddings=True, max_seq=2048, norm="LayerNorm", bias=True, dropout=True,
                  positions="learned",
                  notes="GPT-2-style layer (paper: 'the same model and architecture as GPT-2'): LayerNorm, "
                        "biases, GELU 4h MLP, learned positions; dropout as in GPT-2 / Megatron GPT.")
FALCON_40B = Model("falcon_40b", "Falcon-40B", 60, 8192, 128, 8, 64, 32768, 65024, 40e9, False,
                   f"config {_hf('tiiuae/falcon-40b')} (num_attention_heads 128, num_kv_heads 8, "
                   "num_hidden_layers 60, hidden_size 8192, vocab_size 65024; older revisions name them "
                   "n_head, n_head_kv, n_layer); MLP 4 x hidden_size and lm_head tied to the embeddings as in "
                   "the transformers Falcon model; params: model card (40B)",
                   tied_embeddings=True, max_seq=2048, norm="LayerNorm",
                   notes="The seed cheat-sheet calls Falcon-40B MQA; its config has 8 KV heads (grouped). "
                         "Counted from the config the model has 41.3B parameters; the model card says 40B.")
FALCON_7B = Model("falcon_7b", "Falcon-7B", 32, 4544, 71, 1, 64, 18176, 65024, 7e9, False,
                  f"config {_hf('tiiuae/falcon-7b')} (num_attention_heads / n_head 71, multi_query true, "
                  "32 layers, hidden_size 4544, vocab_size 65024); MLP 4 x hidden_size; params: model card (7B)",
                  tied_embeddings=True, max_seq=2048, norm="LayerNorm",
                  notes="Multi-query attention: one KV head. Counted from the config: 6.9B parameters.")

# --------------------------------------------------------------------------- #
# Mixture-of-experts models beyond Mixtral-8x7B (issue #15).  They are kept out of MODELS, whose templates
# assume what these break: d_head = d_model / n_heads (Qwen3 and DeepSeek-V3 set head_dim apart) and a
# K/V cache of n_kv_heads × d_head (DeepSeek-V3 caches MLA's latent instead).  The MoE and serving templates
# draw from MOE_MODELS.

MIXTRAL_8X22B = Model("mixtral_8x22b", "Mixtral-8x22B", 56, 6144, 48, 8, 128, 16384, 32768, 140_630_071_296, True,
                      f"config {_hf('mistralai/Mixtral-8x22B-v0.1')} (num_hidden_layers 56, hidden_size 6144, "
                      "num_attention_heads 48, num_key_value_heads 8, intermediate_size 16384, vocab_size 32768, "
                      "num_local_experts 8, num_experts_per_tok 2, max_position_embeddings 65536); params: config total "
                      "(= the 141B total of https://mistral.ai/news/mixtral-8x22b/, which gives 39B active and a "
                      "64K-token context window)", experts=8, top_k=2, max_seq=65536, active_params=39e9)
QWEN3_235B = Model("qwen3_235b_a22b", "Qwen3-235B-A22B", 94, 4096, 64, 4, 128, 1536, 151936, 235_093_634_560, True,
                   f"config {_hf('Qwen/Qwen3-235B-A22B')} (num_hidden_layers 94, hidden_size 4096, num_attention_heads "
                   "64, num_key_value_heads 4, head_dim 128, moe_intermediate_size 1536, num_experts 128, "
                   "num_experts_per_tok 8, vocab_size 151936, tie_word_embeddings false); params: config total, "
                   "q/k RMSNorms included (the model card https://huggingface.co/Qwen/Qwen3-235B-A22B: 235B total, 22B "
                   "activated, 32,768 tokens of context natively, 131,072 with YaRN); Qwen3 Technical Report, "
                   "arXiv:2505.09388, Table 2", experts=128, top_k=8, max_seq=32768, active_params=22e9,
                   notes="head_dim (128) is set apart from hidden_size / heads (64). Context: 32K native, the "
                         "catalogue keeps that (131K needs YaRN).")
DEEPSEEK_V2 = Model("deepseek_v2", "DeepSeek-V2", 60, 5120, 128, 128, 128, 1536, 102400, 236e9, True,
                    f"config {_hf('deepseek-ai/DeepSeek-V2')} (num_hidden_layers 60, hidden_size 5120, "
                    "num_attention_heads 128, kv_lora_rank 512, qk_rope_head_dim 64, moe_intermediate_size 1536, "
                    "n_routed_experts 160, n_shared_experts 2, num_experts_per_tok 6, first_k_dense_replace 1, "
                    "vocab_size 102400); DeepSeek-V2 paper, arXiv:2405.04434, §2.1 (MLA, d_c = 512, d_h^R = 64) and "
                    "§3.1.2 (same figures; 236B total, 21B activated per token, 128K context)", experts=160, top_k=6,
                    max_seq=131072, active_params=21e9, moe_layers=59, shared_experts=2, kv_lora_rank=512, rope_dim=64,
                    notes="Counted from the config: 235.7B total, 21.4B active. The first layer has a dense MLP.")
DEEPSEEK_V3 = Model("deepseek_v3", "DeepSeek-V3", 61, 7168, 128, 128, 128, 2048, 129280, 671e9, True,
                    f"config {_hf('deepseek-ai/DeepSeek-V3')} (num_hidden_layers 61, hidden_size 7168, "
                    "num_attention_heads 128, kv_lora_rank 512, qk_rope_head_dim 64, qk_nope_head_dim 128, "
                    "v_head_dim 128, moe_intermediate_size 2048, n_routed_experts 256, n_shared_experts 1, "
                    "num_experts_per_tok 8, first_k_dense_replace 3, intermediate_size 18432, vocab_size 129280); "
                    "DeepSeek-V3 Technical Report, arXiv:2412.19437, §4.2 (same figures; 671B total, 37B activated "
                    "per token, context extended to 128K)", experts=256, top_k=8, max_seq=131072, active_params=37e9,
                    moe_layers=58, shared_experts=1, kv_lora_rank=512, rope_dim=64,
                    notes="Multi-head latent attention: the cache holds a 512-wide latent plus a 64-wide shared RoPE "
                          "key per layer, not n_kv_heads × d_head keys and values. The first 3 of 61 layers have a "
                          "dense MLP (18432). Counted from the config: 671.0B, 37.6B active (36.6B without the "
                          "embedding). The released checkpoint adds a 14B multi-token-prediction module.")

# --------------------------------------------------------------------------- #
# The GPT configurations Korthikanti et al. 2022 measure activation memory on (Table 3: 22B, 175B = GPT-3,
# 530B = MT-NLG, 1T; s = 2048, vocabulary 51,200, mixed precision on A100 80GB, tensor parallelism 8 in
# every run).  Megatron's GPT layer: LayerNorm, biases, a 4h GELU MLP, dropout, multi-head attention,
# learned positions: exactly the layer their 34sbh + 5as²b counts.  Kept out of MODELS (like MOE_MODELS) so
# the templates that draw from MODELS stay as they were; the activation-with-TP/SP templates use them.
# ``params`` is Narayanan et al. 2021's Eq. 2, P = 12·L·h²·(1 + 13/(12h) + (V + s)/(12·L·h)), with
# V = 51,200 and s = 2048: 22.1B, 529.6B and 1008.0B (the last two as in their Table 1).

KORTHIKANTI = ("Korthikanti et al. 2022, Reducing Activation Recomputation in Large Transformer Models, Table 3 "
               "(https://arxiv.org/abs/2205.05198): attention heads, hidden size, layers, tensor- and "
               "pipeline-parallel sizes; s = 2048, v = 51200")
MEGATRON_VOCAB = 51200


def _megatron_params(layers: int, h: int, vocab: int = MEGATRON_VOCAB, seq: int = 2048) -> float:
    return float(round(12 * layers * h * h * (1 + 13 / (12 * h) + (vocab + seq) / (12 * layers * h))))


def _megatron_gpt(key: str, name: str, layers: int, h: int, heads: int, source: str, notes: str = "") -> Model:
    return Model(key, name, layers, h, heads, heads, h // heads, 4 * h, MEGATRON_VOCAB,
                 _megatron_params(layers, h), False, source, tied_embeddings=True, max_seq=2048, norm="LayerNorm",
                 bias=True, dropout=True, positions="learned", notes=notes)


MEGATRON_GPT_22B = _megatron_gpt("megatron_gpt_22b", "Megatron-GPT 22B", 48, 6144, 64, KORTHIKANTI + " (22B row)",
                                 "A benchmark configuration (not a released model): TP 8, PP 1, micro-batch 4.")
MT_NLG_530B = _megatron_gpt("mt_nlg_530b", "MT-NLG 530B", 105, 20480, 128,
                            KORTHIKANTI + " (530B row, MT-NLG); Smith et al. 2022, Using DeepSpeed and Megatron to "
                            "Train Megatron-Turing NLG 530B, arXiv:2201.11990 (105 layers, hidden 20480, 128 heads, "
                            "2048-token sequences)",
                            "Korthikanti et al. run it with TP 8, PP 35, micro-batch 1.")
MEGATRON_GPT_1T = _megatron_gpt("megatron_gpt_1t", "Megatron-GPT 1T", 128, 25600, 160, KORTHIKANTI + " (1T row)",
                                "A benchmark configuration (not a released model): TP 8, PP 64, micro-batch 1.")

MODELS: tuple[Model, ...] = (LLAMA2_7B, LLAMA2_13B, LLAMA2_70B, LLAMA3_8B, LLAMA3_70B, LLAMA3_405B, MISTRAL_7B,
                             MIXTRAL_8X7B, GPT3_175B, FALCON_40B, FALCON_7B)
BY_KEY: dict[str, Model] = {m.key: m for m in MODELS}
MOE_MODELS: tuple[Model, ...] = (MIXTRAL_8X7B, MIXTRAL_8X22B, QWEN3_235B, DEEPSEEK_V2, DEEPSEEK_V3)
DENSE: tuple[Model, ...] = tuple(m for m in MODELS if not m.is_moe)
# Korthikanti et al. 2022, Table 3: each GPT configuration with the tensor-parallel size, pipeline-parallel size
# and micro-batch of their runs (s = 2048): (model, t, p, b).  GPT-3 175B is the catalogue's own record.
MEGATRON_RUNS: tuple[tuple[Model, int, int, int], ...] = (
    (MEGATRON_GPT_22B, 8, 1, 4), (GPT3_175B, 8, 8, 1), (MT_NLG_530B, 8, 35, 1), (MEGATRON_GPT_1T, 8, 64, 1))
MEGATRON_GPT: tuple[Model, ...] = (MEGATRON_GPT_22B, MT_NLG_530B, MEGATRON_GPT_1T)  # beside MODELS' GPT-3


def get(key: str) -> Model:
    try:
        return BY_KEY[key]
    except KeyError:
        raise KeyError(f"unknown model {key!r} (one of {', '.join(BY_KEY)})") from None


def by_attention(kind: str) -> tuple[Model, ...]:
    """Models whose attention is ``MHA``, ``GQA`` or ``MQA``."""
    return tuple(m for m in MODELS if m.attention == kind)
