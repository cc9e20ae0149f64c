"""Model catalogue: real configs (Hugging Face ``config.json`` or the paper), each with its source.

The configs are data: ``question_bank/data/models.toml``, validated by
:mod:`question_bank.catalogue` and read when a record is first needed (``MODELS``, ``MOE_MODELS``,
``LLAMA3_8B`` ... are loaded on first access).  This module defines the record and what is
computed from it.

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

from engine.records import NamedTuple


class Model(NamedTuple):
    """One model architecture, as published (a named tuple: immutable, and cheap to define at import)."""

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
    # MoE layout: layers whose MLP is routed experts (0: all of them when experts > 1), and
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
    # the data file's other fields
    ffn_dense: int = 0  # the dense layers' MLP inner size (MoE models with first dense layers; else ffn)
    attention_kind: str = ""  # as the data file says: mha / mqa / gqa / mla
    sliding_window: int = 0  # tokens a sliding-window layer attends to (0: none)
    sliding_window_layers: str = ""  # which layers use it ("all", "even": every other)
    chunked_attention: int = 0  # tokens per chunk of chunked local attention (Llama 4: 3 of every 4 layers)
    pools: tuple[str, ...] = ()  # the template pools it joins ("general", "moe", "megatron")
    origin: str = ""  # "" for a built-in entry, else the user file it came from

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


# --------------------------------------------------------------------------- #
# Loading the records (lazily: on first access to one of the names below).

# Every built-in model is also a module constant named after its id (LLAMA3_8B, MIXTRAL_8X7B ...), plus:
_ALIASES = {"QWEN3_235B": "qwen3_235b_a22b"}
_COLLECTIONS = frozenset({"MODELS", "BY_KEY", "ALL", "MOE_MODELS", "DENSE", "MEGATRON_RUNS", "MEGATRON_GPT"})


def moe_layers(e: dict) -> int:
    """Layers whose MLP is routed experts, as Model.moe_layers counts them (0: every layer): after
    ``first_dense_layers`` dense ones, every ``moe_layer_step``-th layer (Llama 4 Maverick: 2, every other)."""
    first_dense, step = e.get("first_dense_layers", 0), e.get("moe_layer_step", 1)
    if "n_experts" not in e or (not first_dense and step == 1):
        return 0
    return (e["layers"] - first_dense) // step


def model_from_entry(e: dict, origin: str = "") -> Model:
    """The record of a validated models entry (question_bank.catalogue)."""
    moe = "n_experts" in e
    return Model(e["id"], e["name"], e["layers"], e["d_model"], e["n_heads"], e["n_kv_heads"], e["d_head"],
                 e["ffn_expert"] if moe else e["ffn"], e["vocab"], e["params_total"], e["gated"], e["source"],
                 experts=e.get("n_experts", 1), top_k=e.get("top_k", 1), tied_embeddings=e.get("tied_embeddings", False),
                 max_seq=e["context"], active_params=e.get("params_active"), notes=e.get("note", ""),
                 moe_layers=moe_layers(e), shared_experts=e.get("n_shared_experts", 0),
                 kv_lora_rank=e.get("kv_lora_rank", 0), rope_dim=e.get("rope_dim", 0), norm=e.get("norm", "RMSNorm"),
                 bias=e.get("bias", False), dropout=e.get("dropout", False), positions=e.get("positions", "RoPE"),
                 ffn_dense=e.get("ffn", 0), attention_kind=e["attention"], sliding_window=e.get("sliding_window", 0),
                 sliding_window_layers=e.get("sliding_window_layers", ""),
                 chunked_attention=e.get("chunked_attention", 0), pools=tuple(e.get("pools", ())),
                 origin=origin)


def _load() -> None:
    from . import catalogue_cache as catalogue

    entries = catalogue.builtin_entries("models")["models"]
    g = globals()
    everything = tuple(model_from_entry(e) for e in entries)
    for m in everything:
        g[m.key.upper()] = m
    for alias, key in _ALIASES.items():
        g[alias] = g[key.upper()]
    g["MODELS"] = tuple(m for m in everything if "general" in m.pools)
    g["BY_KEY"] = {m.key: m for m in g["MODELS"]}
    g["MOE_MODELS"] = tuple(m for m in everything if "moe" in m.pools)
    g["DENSE"] = tuple(m for m in g["MODELS"] if not m.is_moe)
    g["MEGATRON_GPT"] = tuple(m for m in everything if "megatron" in m.pools)
    # Korthikanti et al. 2022, Table 3: each GPT configuration with the tensor-parallel size, pipeline-parallel
    # size and micro-batch of their runs (s = 2048): (model, t, p, b), smallest model first.
    runs = [(m, e["korthikanti_run"]) for m, e in zip(everything, entries) if "korthikanti_run" in e]
    g["MEGATRON_RUNS"] = tuple((m, r["tp"], r["pp"], r["micro_batch"])
                               for m, r in sorted(runs, key=lambda x: x[0].params))
    g["ALL"] = everything  # last: its presence means loaded


def __getattr__(name: str):
    if "ALL" not in globals() and (name in _COLLECTIONS or name.isupper()):
        _load()
        if name in globals():
            return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _loaded() -> dict:
    """The module's globals with the records loaded (functions here read ALL, MODELS ... through it: a name
    looked up inside the module does not go through ``__getattr__``)."""
    g = globals()
    if "ALL" not in g:
        _load()
    return g


def get(key: str) -> Model:
    """A built-in model, or a user's (registered by question_bank.catalogue.load_user), by id."""
    g = _loaded()
    for m in g["ALL"]:
        if m.key == key:
            return m
    if key in USER:
        return USER[key]
    raise KeyError(f"unknown model {key!r} (one of {', '.join(g['BY_KEY'])})") from None


def pool(name: str) -> tuple[Model, ...]:
    """The built-in models that join the template pool ``name`` (their ``pools``), in file order."""
    return tuple(m for m in _loaded()["ALL"] if name in m.pools)


# The user's own models by id (question_bank.catalogue.load_user fills it).
USER: dict[str, Model] = {}


# --------------------------------------------------------------------------- #
# The learner's own model (drill practice / ask / check --model ID), as question_bank.hardware's chosen
# chip: the templates that draw a model for a weights, fit, KV cache, decode, prefill, serving or ZeRO problem draw
# it through :func:`draw`, which gives the chosen model where it suits the problem.
# ``Template.generate(seed, model=ID)`` sets the choice while the template runs.

# How often one problem may take the chosen model: a template that redraws until its world fits (the model on its
# GPUs, a sequence within its context) falls back to the catalogue's models after this many tries.
MAX_CHOSEN_DRAWS = 64
MIN_CONTEXT = 512  # the shortest sequence a template asks about (inference.SEQS): a model must hold it


class _Chosen:
    __slots__ = ("model", "draws")

    def __init__(self, model: Model) -> None:
        self.model, self.draws = model, 0


def _chosen_var():
    g = globals()
    if "_CHOSEN" not in g:
        from contextvars import ContextVar

        g["_CHOSEN"] = ContextVar("question_bank.models.chosen", default=None)
    return g["_CHOSEN"]


class using:  # noqa: N801 - a context manager read as a phrase: ``with models.using(model):``
    """The model :func:`draw` gives while the block runs (None: the catalogue's draw)."""

    def __init__(self, model: Model | None) -> None:
        self.chosen = _Chosen(model) if model is not None else None

    def __enter__(self) -> _Chosen | None:
        self._token = _chosen_var().set(self.chosen)
        return self.chosen

    def __exit__(self, *exc) -> None:
        _chosen_var().reset(self._token)


def usable(m: Model) -> bool:
    """The model has what every model-drawing template computes with: a context that holds the shortest sequence
    asked about, whole heads."""
    return m.max_seq >= MIN_CONTEXT and m.params > 0 and m.layers > 0 and m.d_head > 0 and m.n_kv_heads > 0


def _traits(m: Model) -> tuple:
    """What a template's pool may hold in common and its formulas rely on: MoE or dense, the attention layout,
    the MLP, the embeddings, the layer as built."""
    return (m.is_moe, m.is_mla, m.attention, m.gpt_style, m.llama_style, m.gated, m.tied_embeddings, m.positions,
            m.norm, m.sliding_window > 0, m.chunked_attention > 0)


def suits(m: Model, pool) -> bool:
    """``m`` has every trait (:func:`_traits`) all of ``pool``'s models share: a pool of dense models takes no MoE
    model, a pool of Llama-style models no GPT-style one (realism: the formula matches the architecture)."""
    pool = tuple(pool)
    if not pool:
        return False
    mine, shared = _traits(m), [set(t) for t in zip(*(_traits(x) for x in pool))]
    return all(len(values) > 1 or mine[k] in values for k, values in enumerate(shared))


def draw(rng, pool, accept=None) -> Model:
    """``rng.choice(pool)``, or the learner's chosen model (:class:`using`) when one is chosen, suits the pool
    (:func:`suits`), has the template's ``accept(model)`` and has been drawn fewer than MAX_CHOSEN_DRAWS times in
    this problem.  The seeded draw is made either way, so a problem with a chosen model draws everything else as
    the catalogue's problem does."""
    m = rng.choice(pool)
    chosen = _chosen_var().get() if "_CHOSEN" in globals() else None
    if chosen is None or chosen.draws >= MAX_CHOSEN_DRAWS or not usable(chosen.model) \
            or not suits(chosen.model, pool) or (accept is not None and not accept(chosen.model)):
        return m
    chosen.draws += 1
    return chosen.model


def chosen() -> Model | None:
    """The learner's chosen model while a template runs (None: none chosen, or one no template can draw)."""
    c = _chosen_var().get() if "_CHOSEN" in globals() else None
    return c.model if c is not None and usable(c.model) else None
