"""Realism: a generated problem describes a world that could exist.

:func:`check` reads the :class:`~question_bank.spec.World` a template declared
(``Spec(world=...)``), the problem's steps (their formulas and inputs) and its English
text, and returns one message per violation, each prefixed with the rule's name:

* ``declared``     - a catalogue model or GPU named in the text is declared in a world;
* ``fits``         - the model (and its KV cache / training state, where the problem
                     counts them) fits in the stated GPUs' memory;
* ``precision``    - the chip computes in the stated precision and can store the weights /
                     KV cache in theirs (V100: no bf16, no fp8; A100: no fp8); norms, softmax
                     and elementwise ops (``World.row_ops``) run in 16 bits or fp32, never fp8;
* ``context``      - the sequence is within the model's trained context, unless the
                     problem says the context is extended;
* ``architecture`` - the activation-memory formula matches the layer (Korthikanti's
                     34sbh + 5as²b for GPT-style layers only), and kernels shown for a named
                     model are that model's;
* ``moe_active``   - a mixture-of-experts model's FLOPs use the active parameters and the
                     text says so; its memory uses the total.
* ``utilisation``  - an MFU the problem states or asks is at most 50 %, a prefill's too, an HFU at most 65 %
                     (what published large runs report).
* ``scale_up``     - tensor parallelism stays within the chip's scale-up (NVLink / xGMI / ICI)
                     domain: H100 PCIe cards pair over NVLink bridges, so TP > 2 there crosses PCIe.
* ``batch``        - a training log read for its MFU has at least 1,024 tokens per GPU per step (what
                     reported large runs use; its MFU is held to 50 % by ``utilisation``).
* ``duration``     - a training run finishes within about six months (its days, or its GPU-hours
                     over its GPUs).
* ``stall``        - a synchronous checkpoint stalls training at least 10 s (a large model's state over the
                     file system a job gets), the checkpoint time a step states or asks.

How a template declares its world is documented in :mod:`question_bank.spec`.  Each
message says what is unrealistic and what would make it realistic, e.g.
``fits: Llama-3-70B: weights 141 GB (70.6B × 2 B bf16) need 141 GB per GPU, but one
L40S holds 48 GB; state the tensor/pipeline parallelism (World.n_gpus) or pick a setup
that fits``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping

from engine import convention_set, formulas
from engine.langs import EN

from . import hardware, models
from .hardware import DTYPE_BYTES
from .spec import World
from .template import Problem

# Formulas whose phi is the parameters a token multiplies through (FLOPs): MoE uses the active ones.
FLOP_FORMULAS = frozenset({"forward_flops_per_token", "train_flops", "train_flops_per_token", "mfu", "hfu",
                           "train_time", "mfu_from_step_time", "prefill_time"})
# Formulas whose phi is every parameter held in memory or moved (weights, gradients, optimizer state).
MEMORY_FORMULAS = frozenset({"weights_bytes", "train_static_bytes", "zero1_bytes", "zero2_bytes", "zero3_bytes",
                             "comm_bytes_zero3_step"})
# Korthikanti et al. 2022 count a GPT-style layer (4h GELU MLP, multi-head attention, dropout masks): 34sbh + 5as²b,
# 34sbh with selective recomputation, and their Table 2 splits of it under tensor (and sequence) parallelism.
GPT_LAYER_FORMULAS = frozenset({"activation_bytes_layer", "activation_bytes_selective", "activation_bytes_layer_tp",
                                "activation_bytes_layer_tp_sp"})
# The gated-MLP (SwiGLU), no-dropout variant: for Llama-style layers only.
GATED_LAYER_FORMULAS = frozenset({"activation_bytes_layer_swiglu"})
TRAINING_STATE = {"train": "train_static_bytes", "zero1": "zero1_bytes", "zero2": "zero2_bytes",
                  "zero3": "zero3_bytes"}
HOLDS = frozenset({"weights", "kv"}) | frozenset(TRAINING_STATE)
# How close a problem's Φ must be to the count it stands for (the bank rounds Φ to 2-3 significant figures).
PHI_TOLERANCE = 0.05


def _gb(x: float) -> str:
    return f"{x / 1e9:,.3g} GB" if x < 1e12 else f"{x / 1e12:,.3g} TB"


def _b(x: float) -> str:
    return f"{x / 1e9:.3g}B"


def _names_pattern(names: Iterable[str]) -> re.Pattern:
    """One pass finds every name (longest first, so "H100 SXM" is not read as a shorter name)."""
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return re.compile(rf"(?<![\w.-])({alternatives})(?![\w-])")


# Every built-in entry of the catalogue (question_bank/data): a problem naming one declares it, whatever pool it is in.
_MODEL_NAMES = _names_pattern(m.name for m in models.ALL)
_GPU_NAMES = _names_pattern(g.name for g in hardware.ALL)


def _text(p: Problem) -> str:
    parts = [p.scenario(EN), p.conventions(EN)] + [s.prompt(EN) for s in p.steps]
    parts += [g.display for g in p.givens if isinstance(g.value, str)]
    return "\n".join(parts)


def _largest_gpu() -> hardware.GPU:
    return max(hardware.GPUS, key=lambda g: g.memory)


# --------------------------------------------------------------------------- #
# The rules: each takes the problem and yields messages (without the rule's name).


def check_declared(p: Problem) -> Iterable[str]:
    """Every catalogue model / GPU the English text names is declared in a world (so the rules can see it)."""
    text = _text(p)
    models_declared = {w.model.name for w in p.worlds if w.model is not None}
    gpus_declared = {w.gpu.name for w in p.worlds if w.gpu is not None}
    for name in sorted(set(_MODEL_NAMES.findall(text)) - models_declared):
        yield (f"the text names the model {name} but no World declares it: add Spec(world=World(model=...)) "
               "so the realism rules can check it")
    for name in sorted(set(_GPU_NAMES.findall(text)) - gpus_declared):
        yield (f"the text names the GPU {name} but no World declares it: add Spec(world=World(gpu=...)) "
               "so the realism rules can check it")
    for w in p.worlds:
        unknown = [h for h in w.holds if h not in HOLDS]
        if unknown:
            yield f"World.holds has {unknown}: one of {sorted(HOLDS)}"


def _kv_bytes_per_seq(m: models.Model, seq: int, dtype: str) -> float:
    return formulas.get("kv_cache_bytes").evaluate(batch=1, seq=seq, layers=m.layers, n_kv_heads=m.n_kv_heads,
                                                   d_head=m.d_head, bytes_per_elem=DTYPE_BYTES[dtype])


def per_gpu_bytes(w: World, conventions: Mapping[str, str] | None = None) -> tuple[float, list[str]]:
    """Bytes one GPU holds in this world, and how they add up (for the message); the training state counted by
    the problem's ``conventions`` (18 or 20 B per parameter when the learner chose them)."""
    m = w.model
    phi = w.phi if w.phi is not None else (m.total_params if m is not None else None)
    split = max(1, w.n_gpus)
    need, parts = 0.0, []
    who = m.name if m is not None else (f"a {_b(phi)}-parameter model" if phi else "the model")
    if "weights" in w.holds:
        dtype = w.weights or w.precision or "bf16"
        if phi is None:
            raise ValueError("World.holds has 'weights' but neither model nor phi is given")
        b = phi * DTYPE_BYTES[dtype]
        need += b / split
        parts.append(f"weights {_gb(b)} ({_b(phi)} × {DTYPE_BYTES[dtype]:g} B {dtype})")
    if "kv" in w.holds:
        if m is None or w.seq is None:
            raise ValueError("World.holds has 'kv' but model or seq is missing")
        dtype = w.kv or "bf16"
        b = w.batch * _kv_bytes_per_seq(m, w.seq, dtype)
        need += b / split
        parts.append(f"KV cache {_gb(b)} ({w.batch} × {w.seq:,} tokens, {dtype})")
    for key, formula in TRAINING_STATE.items():
        if key in w.holds:
            if phi is None:
                raise ValueError(f"World.holds has {key!r} but neither model nor phi is given")
            f = formulas.get(formula)
            inputs = {"phi": phi} | ({"n_dp": max(1, w.n_dp)} if "n_dp" in f.input_names else {})
            if conventions and "bytes_per_param" in conventions:
                inputs |= {k: v for k, v in convention_set.input_values("bytes_per_param",
                                                                       conventions["bytes_per_param"]).items()
                           if k in f.input_names}
            b = f.evaluate(**inputs)
            need += b / split
            what = "unsharded training state 16Φ" if key == "train" else f"ZeRO-{key[-1]} state over N_dp = {w.n_dp}"
            parts.append(f"{what} {_gb(b)} per data-parallel rank")
    return need, [f"{who}: " + " + ".join(parts)] if parts else []


def check_fits(p: Problem) -> Iterable[str]:
    for w in p.worlds:
        if not w.holds or w.fit_is_asked:
            continue
        need, how = per_gpu_bytes(w, p.chosen_conventions)
        gpu = w.gpu or _largest_gpu()
        if need <= gpu.memory:
            continue
        where = (f"one {gpu.name} holds {_gb(gpu.memory)}" if w.gpu is not None else
                 f"no GPU is named and even the largest in the catalogue ({gpu.name}) holds {_gb(gpu.memory)}")
        split = f" split over {w.n_gpus} GPUs" if w.n_gpus > 1 else ""
        yield (f"{how[0]}{split} need {_gb(need)} per GPU, but {where}; state the tensor/pipeline parallelism or "
               "number of GPUs that makes it fit (World.n_gpus), ask whether it fits (World.fit_is_asked), or pick "
               "a setup that fits")


# Norms, softmax and elementwise ops run in these even in an fp8 model (only GEMMs run in fp8).
ROW_OP_PRECISIONS = frozenset({"bf16", "fp16", "fp32"})


def check_precision(p: Problem) -> Iterable[str]:
    for w in p.worlds:
        if w.row_ops and w.precision and w.precision not in ROW_OP_PRECISIONS:
            yield (f"{', '.join(w.row_ops)} run in {w.precision}, but norms, softmax and elementwise ops run in "
                   "bf16/fp16 or fp32 in practice (only GEMMs run in fp8): use a 16-bit format")
        g = w.gpu
        if g is None:
            continue
        if w.precision and not g.supports(w.precision):
            yield (f"{g.name} has no {w.precision} math (it computes in {', '.join(g.precisions)}): "
                   f"pick a precision the chip has (e.g. {g.sixteen}) or another GPU")
        for what, dtype in (("weights", w.weights), ("KV cache", w.kv)):
            if dtype and not g.stores(dtype):
                yield (f"{g.name} cannot keep its {what} in {dtype} (it computes in {', '.join(g.precisions)}; "
                       f"int8/int4 weight-only storage is fine on any GPU): pick {g.sixteen} or a GPU with {dtype}")


def check_context(p: Problem) -> Iterable[str]:
    for w in p.worlds:
        m = w.model
        if m is None or w.seq is None or w.extended_context:
            continue
        if w.seq > m.context:
            yield (f"{m.name} was trained for a {m.context:,}-token context, but the problem runs {w.seq:,} tokens: "
                   f"keep the sequence within {m.context:,} or say the context is extended "
                   "(World.extended_context)")


def check_architecture(p: Problem) -> Iterable[str]:
    used = {s.formula for s in p.steps if s.formula}
    model = next((w.model for w in p.worlds if w.model is not None), None)
    for f in sorted(used & GPT_LAYER_FORMULAS):
        if model is None:
            yield (f"{f} (Korthikanti's 34sbh + 5as²b) counts a GPT-style layer, but no model is declared: "
                   "declare the GPT-style model (World.model)")
        elif not model.gpt_style:
            yield (f"{f} (Korthikanti's 34sbh + 5as²b) assumes a GPT-style layer (4h GELU MLP, multi-head "
                   f"attention, dropout), but {model.name} has a {model.activation} MLP (ffn {model.ffn:,}, d_model "
                   f"{model.d_model:,}), {model.n_kv_heads} KV heads of {model.n_heads} and "
                   f"{'dropout' if model.dropout else 'no dropout'}: use a GPT-style model (GPT-3, the Megatron GPT "
                   "configurations, a hypothetical one) or, for a Llama-style layer, activation_bytes_layer_swiglu")
    for f in sorted(used & GATED_LAYER_FORMULAS):
        if model is None or not model.gated:
            name = model.name if model is not None else "no declared model"
            yield f"{f} counts a gated (SwiGLU) MLP, but {name} is not gated: use activation_bytes_layer"
    for w in p.worlds:
        if w.kernels and w.model is None:
            yield "kernels are shown for a model, but World.model is not declared"
        elif w.kernels:
            foreign = [k for k in w.kernels if k not in w.model.kernels]
            if foreign:
                yield (f"the kernel chain shown for {w.model.name} has {', '.join(foreign)}, which its layer does not "
                       f"run ({w.model.norm}, {w.model.activation}, {'with' if w.model.bias else 'no'} biases, "
                       f"{'with' if w.model.dropout else 'no'} dropout): show that model's own kernels")


def check_moe_active(p: Problem) -> Iterable[str]:
    moe = [w.model for w in p.worlds if w.model is not None and w.model.is_moe]
    if not moe:
        return
    m = moe[0]
    text = _text(p).lower()
    for s in p.steps:
        phi = s.inputs.get("phi") if s.formula else None
        if phi is None:
            continue
        if s.formula in FLOP_FORMULAS:
            if abs(phi / m.flop_params - 1) > PHI_TOLERANCE:
                yield (f"step {s.index + 1} ({s.formula}) counts FLOPs with Φ = {_b(phi)}, but {m.name} activates "
                       f"{_b(m.flop_params)} of its {_b(m.total_params)} parameters per token (top-{m.top_k} of "
                       f"{m.experts} experts): FLOPs use the active parameters")
            elif "active" not in text:
                yield (f"step {s.index + 1} ({s.formula}) uses {m.name}'s active parameters, but the text never says "
                       "'active': say which count the problem asks for")
        elif s.formula in MEMORY_FORMULAS and abs(phi / m.total_params - 1) > PHI_TOLERANCE:
            yield (f"step {s.index + 1} ({s.formula}) counts memory with Φ = {_b(phi)}, but {m.name} holds all "
                   f"{_b(m.total_params)} parameters (every expert): memory uses the total")


# Published large training runs: MFU up to ~50 % (PaLM 46 %, MT-NLG ~30 %, Llama 3 405B 38-43 %), and HFU with full
# recomputation (4/3 MFU) at most ~65 %; a problem above these describes no run anyone has reported.  A prefill (the
# ttft formulas' PREFILL_MFU input) is held to the same 50 %: its long GEMMs may sustain more on a benchmark, but a
# served prefill shares the GPU with decode batches and attention kernels, and one ceiling for every MFU the bank
# states keeps one problem from teaching another's figure as out of reach.
MAX_MFU, MAX_HFU = 0.50, 0.65
MFU_FORMULAS = frozenset({"mfu", "mfu_from_step_time"})
# A training log read for its MFU describes a large run as reported: at least 1,024 tokens per GPU per step (Llama 3
# 405B: 16M tokens over 16,384 GPUs).
MIN_TOKENS_PER_GPU = 1024
# A pre-training run finishes within about six months (Llama 3 405B: 54 days on 16K H100s; no reported frontier run
# trained for a year): a schedule longer than this would be given more GPUs.
MAX_RUN_DAYS = 183.0
DAY_S = 86400.0


def check_utilisation(p: Problem) -> Iterable[str]:
    if any(w.judges_claim for w in p.worlds):  # "a team reports 80 % MFU: plausible?" asks exactly this
        return
    for s in p.steps:
        if not s.formula:
            continue
        given = s.inputs.get("mfu")
        prefill = formulas.PREFILL_MFU in formulas.get(s.formula).inputs
        if isinstance(given, (int, float)) and given > MAX_MFU + 1e-9:
            yield (f"step {s.index + 1} ({s.formula}) runs at {given:.0%} MFU; the bank states at most "
                   f"~{MAX_MFU:.0%} for {'a prefill' if prefill else 'a large training run'}: draw a lower MFU")
        value = s.expected.value
        if isinstance(value, str):  # (never: a step with a formula asks a number)
            continue
        if s.formula in MFU_FORMULAS and value > MAX_MFU + 1e-9:
            yield (f"step {s.index + 1} asks an MFU of {value:.1%}; published large runs reach at most ~{MAX_MFU:.0%}: "
                   "draw a lower throughput")
        elif s.formula == "hfu" and value > MAX_HFU + 1e-9:
            yield (f"step {s.index + 1} asks an HFU of {value:.1%}; with full recomputation (HFU = 4/3 MFU) published "
                   f"runs reach at most ~{MAX_HFU:.0%}, so MFU ≤ {MAX_HFU * 3 / 4:.2%}: draw a lower throughput")


def check_batch(p: Problem) -> Iterable[str]:
    """A training log read for its MFU is that of a run as reported: a real batch per GPU."""
    for s in p.steps:
        if s.formula != "mfu_from_step_time":
            continue
        v = s.inputs
        per_gpu = float(v["global_batch"]) * float(v["s"]) / float(v["n_gpus"])
        if per_gpu < MIN_TOKENS_PER_GPU:
            yield (f"step {s.index + 1} trains {per_gpu:,.0f} tokens per GPU per step; large runs use at least "
                   f"{MIN_TOKENS_PER_GPU:,}: draw a larger global batch or fewer GPUs")


def check_duration(p: Problem) -> Iterable[str]:
    """A training run finishes within about six months: the days a step asks, or its GPU-hours over the GPUs its
    world declares (World.n_gpus)."""
    gpus = max((w.n_gpus for w in p.worlds), default=1)
    for s in p.steps:
        value = s.expected.value
        if not s.formula or isinstance(value, str):
            continue
        days = None
        if s.formula == "train_time":
            days = value / DAY_S
        elif s.formula == "gpu_hours" and gpus > 1:
            days = value / gpus / 24
        if days is not None and days > MAX_RUN_DAYS:
            yield (f"step {s.index + 1} ({s.formula}) makes the run last {days:,.0f} days; reported runs finish within "
                   f"~{MAX_RUN_DAYS:.0f}: give it more GPUs")


# A synchronous checkpoint of a large model stalls training tens of seconds (14Φ over the tens to hundreds of GB/s
# a job's file system writes; reliability's chains use 30-120 s): a stall under 10 s describes no such run.
MIN_STALL_S = 10.0


def check_stall(p: Problem) -> Iterable[str]:
    for s in p.steps:
        if not s.formula:
            continue
        stated = s.inputs.get("checkpoint_time")
        if isinstance(stated, (int, float)) and stated < MIN_STALL_S:
            yield (f"step {s.index + 1} ({s.formula}) stalls {stated:g} s per checkpoint; a synchronous checkpoint "
                   f"of a large model takes at least ~{MIN_STALL_S:g} s: draw a longer stall")
        if s.formula == "checkpoint_write_time" and isinstance(s.expected.value, float) \
                and s.expected.value < MIN_STALL_S:
            yield (f"step {s.index + 1} writes the checkpoint in {s.expected.value:.2g} s; a job's file system takes "
                   f"at least ~{MIN_STALL_S:g} s: draw less write bandwidth")


def check_scale_up(p: Problem) -> Iterable[str]:
    for w in p.worlds:
        g = w.gpu
        if g is None or w.tp <= 1 or g.scale_up_domain is None or w.tp <= g.scale_up_domain:
            continue
        yield (f"TP = {w.tp} on {g.name}, whose scale-up domain joins only {g.scale_up_domain} chips: tensor "
               f"parallelism beyond it would run its per-layer AllReduces over PCIe or the network; keep TP ≤ "
               f"{g.scale_up_domain} or pick a chip with a larger NVLink domain")


# The spec's 2026 ranges for the queueing, power and TCO families (shared/spec/formulas.md, part 4 (c)), and the
# catalogue's for the fabric, data-parallel, quantisation and disaggregated-serving ones: what a problem of each formula
# may draw, by input.  Percentiles are p90-p99.9; a DGX H100 capped at its typical draw
# (6.5 kW) is the least node power, a GB300 NVL72 rack (142 kW) the most; prices are the spec's H100 market ranges.
_QUEUE = {"utilisation": (0.5, 0.95), "service_time": (0.05, 5.0), "cv_service": (0.5, 3.0),
          "percentile": (0.9, 0.999)}
_POWER = {"pue": (1.1, 1.4), "rack_power_limit": (15e3, 160e3), "node_power": (6.5e3, 142e3)}
_TCO = {"capex_per_gpu": (25e3, 45e3), "years": (4, 5), "price_per_kwh": (0.05, 0.12), "rental_price": (2.0, 3.0),
        "pue": (1.1, 1.4)}
RANGES: dict[str, dict[str, tuple[float, float]]] = {
    **{f: _QUEUE for f in ("mm1_wait", "mm1_response_time", "md1_wait", "kingman_wait", "mm1_response_percentile",
                           "mm1_max_rate_for_slo")},
    **{f: _POWER for f in ("it_power_per_gpu", "facility_power", "gpus_for_power", "gpus_per_rack")},
    "owned_gpu_hour_cost": _TCO | {"utilisation": (0.7, 0.9)}, "breakeven_utilisation": _TCO,
    # real switches run at full speed or split: 32 (SN4700) to 512 ports (Tomahawk 6 at 200G), two or three tiers;
    # one plane, or one per GPU of a 4-GPU tray or an 8-GPU node (DeepSeek-V3's 8 planes, arXiv:2505.09343)
    "fat_tree_hosts": {"radix": (32, 512), "tiers": (2, 3), "planes": (1, 8)},
    # an NVLink node of 8 GPUs up to an NVL72 rack; gradients reduced in fp8 (FP8-LM), bf16 or fp32
    "dp_min_batch_per_device": {"gpus_per_node": (8, 72), "bytes_per_param": (1, 4)},
    # published group and block formats: 2-8 bits, groups of 16 (NVFP4) to 128 (GPTQ / AWQ)
    "quant_bits_per_weight": {"bits": (2, 8), "group_size": (16, 128)},
    # the Azure trace's per-minute arrival rates and request shapes; the spec's service times and utilisations
    "prefill_instances": {"arrival_rate": (0.12, 9.75), "prefill_time": (0.05, 5.0), "utilisation": (0.5, 0.95)},
    "decode_instances": {"arrival_rate": (0.12, 9.75), "output_tokens": (54, 424)},
}


def check_ranges(p: Problem) -> Iterable[str]:
    for s in p.steps:
        for name, (lo, hi) in RANGES.get(s.formula or "", {}).items():
            v = s.inputs.get(name)
            if isinstance(v, (int, float)) and not lo * (1 - 1e-9) <= v <= hi * (1 + 1e-9):
                yield (f"step {s.index + 1} draws {name} = {v:g}, outside the 2026 range {lo:g}-{hi:g} of "
                       f"{s.formula}: draw inside it")
        if s.formula == "utilisation" and isinstance(s.expected.value, float) and not 0.5 <= s.expected.value <= 0.95:
            yield (f"step {s.index + 1} asks a utilisation of {s.expected.value:.0%}, outside the 50-95 % a serving "
                   "fleet runs at: draw another arrival rate")


RULES: dict[str, Callable[[Problem], Iterable[str]]] = {
    "declared": check_declared,
    "fits": check_fits,
    "precision": check_precision,
    "context": check_context,
    "architecture": check_architecture,
    "moe_active": check_moe_active,
    "utilisation": check_utilisation,
    "scale_up": check_scale_up,
    "batch": check_batch,
    "duration": check_duration,
    "stall": check_stall,
    "ranges": check_ranges,
}


def check(problem: Problem) -> list[str]:
    """Every realism violation of ``problem``, each as ``rule: what is unrealistic and how to fix it``."""
    return [f"{name}: {msg}" for name, rule in RULES.items() for msg in rule(problem)]
