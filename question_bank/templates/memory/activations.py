"""Activation-memory templates: per layer, per model, with recomputation and under TP / SP.

Activation-memory templates (C§1): per layer, per model, with recomputation, per GPU under tensor and
sequence parallelism (Korthikanti et al. 2022, Table 2), and the logits of a large vocabulary.
"""

from __future__ import annotations

from engine import formulas
from engine.choices import Choice
from engine.langs import EN, ZH
from engine.units import fmt_quantity

from ... import models
from ...spec import Ask, Given, Ref, Spec, World, given
from ...template import template
from ..model_params import cap, unit_for

SEQ_LENS = (1024, 2048, 4096, 8192)
MICRO_BATCHES = (1, 2, 4, 8)


ACT_EN = ("bf16 activations (2 B), 1-byte dropout masks, a GPT-style Transformer layer (attention + 4h GELU MLP, "
          "dropout) as in Megatron-LM (Korthikanti et al. 2022); attention scores materialised (no FlashAttention); "
          "no tensor or sequence parallelism. MB = 10⁶ B, GB = 10⁹ B, TB = 10¹² B.")
ACT_ZH = ("激活值为 bf16（2 B），dropout 掩码每元素 1 B，GPT 式 Transformer 层（注意力 + 4h 的 GELU MLP，带 dropout，"
          "Megatron-LM 口径，Korthikanti 等 2022）；注意力分数完整存储（不用 FlashAttention）；"
          "不使用张量并行和序列并行。MB = 10⁶ B，GB = 10⁹ B，TB = 10¹² B。")
ACT_SWIGLU_EN = ("bf16 activations (2 B), a Llama-style layer: RMSNorm, SwiGLU MLP of inner size f (gate and up "
                 "projections; it keeps 6sbf, SiLU being recomputed in the backward as Megatron-LM's fused SwiGLU "
                 "does), no dropout, no biases; attention scores materialised (no FlashAttention); no tensor or "
                 "sequence parallelism. MB = 10⁶ B, GB = 10⁹ B, TB = 10¹² B.")
ACT_SWIGLU_ZH = ("激活值为 bf16（2 B），Llama 式 Transformer 层：RMSNorm、内部维度为 f 的 SwiGLU MLP（gate 与 up 两个投影；"
                 "保留 6sbf，SiLU 在反向时重算，如 Megatron-LM 的融合 SwiGLU）、"
                 "无 dropout、无偏置；注意力分数完整存储（不用 FlashAttention）；不使用张量并行和序列并行。"
                 "MB = 10⁶ B，GB = 10⁹ B，TB = 10¹² B。")


# --------------------------------------------------------------------------- #
# Activations and recomputation


# The layer Korthikanti et al. count (Model.gpt_style): GPT-3 and the Megatron GPT configurations of their Table 3
# (Falcon's 4h GELU MLP comes without dropout and with grouped KV heads: not that layer).
GPT_STYLE = tuple(m for m in models.DENSE + models.MEGATRON_GPT if m.gpt_style)


def _gpt_style_model(rng) -> models.Model:
    """A GPT-style model: a catalogue one, or a hypothetical one (4h GELU MLP, LayerNorm, biases, dropout)."""
    if rng.random() < 0.5:
        return rng.choice(GPT_STYLE)
    a = rng.choice((16, 32, 40, 64, 96))
    h, layers = 128 * a, rng.choice((24, 32, 40, 48, 64, 80, 96))
    return models.Model("hypothetical", "a hypothetical GPT-style model", layers, h, a, a, 128, 4 * h, 50257,
                        12.0 * layers * h * h, False, "made up for the problem", max_seq=8192, norm="LayerNorm",
                        bias=True, dropout=True, positions="learned")


def _act_setup(rng, *, gated_ok: bool = True):
    """A model and (s, b) within its context; a Llama-style (gated) model only when ``gated_ok``: its layer
    has its own formula (activation_bytes_layer_swiglu), and the 34sbh of selective recomputation is GPT's."""
    model = rng.choice(models.DENSE)
    if not (model.gpt_style or (gated_ok and model.gated)):  # a formula counts this layer
        model = _gpt_style_model(rng)
    s = rng.choice([s for s in SEQ_LENS if s <= model.context])
    b = rng.choice([b for b in MICRO_BATCHES if s * b <= 16384])
    inputs = {"s": s, "b": b, "h": model.d_model, "a": model.n_heads}
    givens: tuple[Given, ...] = (given("s", "Sequence length s", "序列长度 s", s), given("b", "Micro-batch size b", "微批次大小 b", b),
              given("h", "Hidden size h", "隐藏维度 h", model.d_model),
              given("a", "Attention heads a", "注意力头数 a", model.n_heads))
    if model.gated:
        inputs |= {"n_kv_heads": model.n_kv_heads, "ffn": model.ffn}
        givens += (given("n_kv_heads", "KV heads n_kv", "KV 头数 n_kv", model.n_kv_heads),
                   given("ffn", "MLP inner size f", "MLP 内部维度 f", model.ffn))
    return model, inputs, givens


def _layer_formula(model) -> str:
    return "activation_bytes_layer_swiglu" if model.gated else "activation_bytes_layer"


def _act_conventions(model) -> dict:
    return ({"conventions_en": ACT_SWIGLU_EN, "conventions_zh": ACT_SWIGLU_ZH} if model.gated
            else {"conventions_en": ACT_EN, "conventions_zh": ACT_ZH})


def _act_world(model, inputs) -> World:
    return World(model=model, seq=inputs["s"], batch=inputs["b"])


def _act_text(model, inputs, start: bool = True) -> tuple[str, str]:
    s, b = inputs["s"], inputs["b"]
    name_zh = model.name.replace("a hypothetical GPT-style model", "一个假想的 GPT 式模型")
    extra_en = f", n_kv = {model.n_kv_heads} KV heads, f = {model.ffn}" if model.gated else ""
    extra_zh = f"，n_kv = {model.n_kv_heads} 个 KV 头，f = {model.ffn}" if model.gated else ""
    en = (f"{cap(model.name) if start else model.name} (h = {model.d_model}, a = {model.n_heads} heads{extra_en}), "
          f"sequence length s = {s}, micro-batch b = {b}")
    zh = f"{name_zh}（h = {model.d_model}，a = {model.n_heads} 个头{extra_zh}），序列长度 s = {s}，微批次 b = {b}"
    return en, zh


def _layer_expression(model) -> str:
    return "s·b·(12h + 4h·n_kv/a + 6f) + 2·a·s²·b" if model.gated else "s·b·h·(34 + 5·a·s/h)"


@template("memory.activation_layer_given", topic="memory", title="Activation memory per layer (formula given)",
          title_zh="每层激活值显存（给出公式）", difficulty=1, target_seconds=90)
def activation_layer_given(rng):
    model, inputs, givens = _act_setup(rng)
    en, zh = _act_text(model, inputs)
    formula = _layer_formula(model)
    unit = unit_for(formula, **inputs)
    expr = _layer_expression(model)
    return Spec(
        givens=givens,
        asks=(Ask(formula=formula, unit=unit,
                  prompt_en=f"{en}. One layer stores {expr} bytes of activations for the backward "
                            f"pass. How much is that, in {unit}?",
                  prompt_zh=f"{zh}。每层为反向传播暂存 {expr} 字节激活值。合计多少（{unit}）？"),),
        world=_act_world(model, inputs), **_act_conventions(model),
    )


@template("memory.activation_layer", topic="memory", title="Activation memory per layer", title_zh="每层激活值显存",
          difficulty=2, target_seconds=120)
def activation_layer(rng):
    model, inputs, givens = _act_setup(rng)
    en, zh = _act_text(model, inputs)
    formula = _layer_formula(model)
    unit = unit_for(formula, **inputs)
    return Spec(
        givens=givens,
        asks=(Ask(formula=formula, unit=unit,
                  prompt_en=f"{en}, no recomputation. How much activation memory does ONE transformer layer keep "
                            f"for the backward pass, in {unit}?",
                  prompt_zh=f"{zh}，不做重计算。单个 Transformer 层为反向传播暂存多少激活值显存（{unit}）？"),),
        world=_act_world(model, inputs), **_act_conventions(model),
    )


@template("memory.activation_model", topic="memory", title="Activation memory of the whole model",
          title_zh="全模型激活值显存", difficulty=2, target_seconds=120)
def activation_model(rng):
    model, inputs, givens = _act_setup(rng)
    en, zh = _act_text(model, inputs)
    per_layer = formulas.get(_layer_formula(model))
    whole = {"layers": model.layers, "layer_bytes": per_layer.evaluate(**inputs)}
    unit = unit_for("whole_model_activation_bytes", **whole)
    # the per-layer derivation of this model's own layer (GPT-style or Llama-style: SwiGLU, GQA), then × L
    lead = tuple(per_layer.worked(inputs, EN, takeaway=""))
    lead_zh = tuple(per_layer.worked(inputs, ZH, takeaway=""))
    return Spec(
        givens=givens + (given("layers", "Layers L", "层数 L", model.layers),),
        # the per-layer slips of the GPT formula (extras s, b, h, a) name nothing for the gated layer
        asks=(Ask(formula="whole_model_activation_bytes", inputs=whole, extras={} if model.gated else inputs,
                  unit=unit, explanation=lead, explanation_zh=lead_zh,
                  card_formulas=("activation_bytes_layer", "activation_bytes_layer_swiglu",
                                 "whole_model_activation_bytes"),
                  prompt_en=f"{en}, L = {model.layers} layers, no recomputation. How much activation memory do all "
                            f"{model.layers} layers keep together (summed over the pipeline stages that hold them), "
                            f"in {unit}?",
                  prompt_zh=f"{zh}，L = {model.layers} 层，不做重计算。全部 {model.layers} 层合计暂存多少激活值显存"
                            f"（各流水线阶段加总），单位 {unit}？"),),
        world=_act_world(model, inputs), **_act_conventions(model),
    )


RECOMPUTE = {
    "selective": ("activation_bytes_selective",
                  "selective recomputation (the attention scores, softmax and dropout are recomputed in the "
                  "backward pass; everything else is kept)",
                  "选择性重计算（注意力分数、Softmax 与 dropout 在反向时重算，其余保留）"),
    "full": ("activation_bytes_full_recompute",
             "full recomputation (only each layer's input is kept; the layer's forward is rerun in the backward "
             "pass)",
             "全量重计算（每层只保留该层输入，反向时重跑该层前向）"),
}


@template("memory.activation_recompute", topic="memory", title="Activation memory with recomputation",
          title_zh="重计算下的激活值显存", difficulty=2, target_seconds=90)
def activation_recompute(rng):
    model, inputs, givens = _act_setup(rng, gated_ok=False)
    formula, how_en, how_zh = RECOMPUTE[rng.choice(("selective", "full"))]
    inputs = {k: inputs[k] for k in ("s", "b", "h")}
    en, zh = _act_text(model, inputs)
    unit = unit_for(formula, **inputs)
    return Spec(
        givens=givens[:3],
        asks=(Ask(formula=formula, unit=unit,
                  prompt_en=f"{en}, with {how_en}. How much activation memory does one layer keep, in {unit}?",
                  prompt_zh=f"{zh}，采用{how_zh}。每层暂存多少激活值显存（{unit}）？"),),
        conventions_en=ACT_EN, conventions_zh=ACT_ZH, world=_act_world(model, inputs),
    )


@template("memory.activation_chain", topic="memory", title="Activations: per layer, whole model, recomputation",
          title_zh="激活值：每层、全模型与重计算", difficulty=2, target_seconds=420)
def activation_chain(rng):
    model, inputs, givens = _act_setup(rng, gated_ok=False)
    en, zh = _act_text(model, inputs, start=False)
    L = model.layers
    linear = {k: inputs[k] for k in ("s", "b", "h")}
    u1 = unit_for("activation_bytes_layer", **inputs)
    u2 = unit_for("whole_model_activation_bytes", layers=L,
                  layer_bytes=formulas.get("activation_bytes_layer").evaluate(**inputs))
    u3 = unit_for("activation_bytes_selective", **linear)
    u4 = unit_for("activation_bytes_full_recompute", **linear)
    u5 = unit_for("whole_model_activation_bytes", layers=L,
                  layer_bytes=formulas.get("activation_bytes_full_recompute").evaluate(**linear))
    return Spec(
        scenario_en=f"Training {en}, L = {L} layers; count the activations of all L layers together (whatever the "
                    "pipeline split, the stages hold them between them).",
        scenario_zh=f"训练 {zh}，L = {L} 层；把全部 L 层的激活值加在一起算（无论流水线如何切分，各阶段合起来要存这么多）。",
        givens=givens + (given("layers", "Layers L", "层数 L", L),),
        asks=(Ask(formula="activation_bytes_layer", unit=u1,
                  prompt_en=f"Without recomputation, how much activation memory does one layer keep, in {u1}?",
                  prompt_zh=f"不做重计算时，每层暂存多少激活值显存（{u1}）？"),
              # later steps build on the correct per-layer figure, not on the learner's answer
              Ask(formula="whole_model_activation_bytes", inputs={"layers": L, "layer_bytes": Ref(0)}, unit=u2,
                  extras=inputs,
                  prompt_en=f"Using the per-layer figure, how much do all {L} layers keep together, in {u2}?",
                  prompt_zh=f"按每层的结果，全部 {L} 层合计暂存多少（{u2}）？"),
              Ask(formula="activation_bytes_selective", inputs=linear, unit=u3,
                  prompt_en=f"With selective recomputation (attention scores, softmax and dropout recomputed), "
                            f"how much does one layer keep, in {u3}?",
                  prompt_zh=f"采用选择性重计算（重算注意力分数、Softmax 与 dropout），每层暂存多少（{u3}）？"),
              Ask(formula="activation_bytes_full_recompute", inputs=linear, unit=u4,
                  prompt_en=f"With full recomputation (only the layer input kept), how much per layer, in {u4}?",
                  prompt_zh=f"采用全量重计算（只保留层输入），每层暂存多少（{u4}）？"),
              Ask(formula="whole_model_activation_bytes", inputs={"layers": L, "layer_bytes": Ref(3)}, unit=u5,
                  prompt_en=f"With full recomputation, how much do all {L} layers keep together, in {u5}?",
                  prompt_zh=f"采用全量重计算时，全部 {L} 层合计暂存多少（{u5}）？")),
        conventions_en=ACT_EN, conventions_zh=ACT_ZH, world=_act_world(model, inputs),
    )


# --------------------------------------------------------------------------- #
# Activations with tensor and sequence parallelism (Korthikanti et al. 2022, Table 2): per layer and GPU,
# sbh(10 + 24/t + 5as/(ht)) with TP alone, sbh(34 + 5as/h)/t with TP + SP.  The GPT layer the formulas count:
# Korthikanti et al.'s own runs (Table 3) or a hypothetical GPT-style model with a layout its state fits.

ACT_TP_EN = ("bf16 activations (2 B), 1-byte dropout masks, a GPT-style layer (LayerNorm, attention, 4h GELU MLP, "
             "dropout) as in Megatron-LM (Korthikanti et al. 2022); attention scores materialised (no FlashAttention); "
             "no recomputation. Tensor parallelism of degree t splits the attention heads and the MLP over t GPUs; "
             "sequence parallelism, where used, splits the LayerNorm and dropout region along the sequence over the "
             "same t GPUs. Memory per GPU. MB = 10⁶ B, GB = 10⁹ B.")
ACT_TP_ZH = ("激活值为 bf16（2 B），dropout 掩码每元素 1 B，GPT 式层（LayerNorm、注意力、4h 的 GELU MLP、dropout，"
             "Megatron-LM 口径，Korthikanti 等 2022）；注意力分数完整存储（不用 FlashAttention）；不做重计算。"
             "张量并行度 t：注意力头和 MLP 切到 t 张卡上；开序列并行时，在同样的 t 张卡上把 LayerNorm 与 dropout "
             "区域沿序列维切分。按每张卡计。MB = 10⁶ B，GB = 10⁹ B。")
# A hypothetical model's training state (16Φ, unsharded within the TP × PP group) stays within this per GPU.
TP_STATE_PER_GPU = 40e9
ACT_PER_GPU = 80e9  # and its first pipeline stage's activations within an 80 GB GPU (A100 80GB, H100)


def _tp_run(rng, *, min_pp: int = 1, published_share: float = 0.5, seqs: tuple[int, ...] = (1024, 2048, 4096),
            run_from_share: bool = False):
    """A GPT-style training run with tensor parallelism: (model, t, PP, s, b).  ``published_share`` of the time one
    of Korthikanti et al.'s own (Table 3, s = 2048), else a hypothetical GPT-style model (sequence length one of
    ``seqs``) whose 16Φ fits its TP × PP slice and whose
    activations fit a GPU; always one where the replicated 10sbh is a visible share (TP and TP + SP differ by more
    than 10 %).  ``run_from_share``: which published run comes from the same uniform draw that chose one (no draw
    of its own), a spread of the few seeds that draw one."""
    runs = [r for r in models.MEGATRON_RUNS if r[2] >= min_pp]
    tp, sp = formulas.get("activation_bytes_layer_tp"), formulas.get("activation_bytes_layer_tp_sp")
    while True:
        if (u := rng.random()) < published_share:
            model, t, pp, b = runs[int(u / published_share * len(runs))] if run_from_share else rng.choice(runs)
            s = 2048
        else:
            a = rng.choice((16, 24, 32, 40, 48, 64, 80, 96))
            h, layers = 128 * a, rng.choice((24, 32, 40, 48, 64, 80, 96))
            model = models.Model("hypothetical", "a hypothetical GPT-style model", layers, h, a, a, 128, 4 * h,
                                 50257, 12.0 * layers * h * h, False, "made up for the problem", max_seq=4096,
                                 norm="LayerNorm", bias=True, dropout=True, positions="learned")
            t = rng.choice([x for x in (2, 4, 8) if a % x == 0])
            fits = [p for p in (1, 2, 4, 8, 16) if p >= min_pp and layers % p == 0
                    and 16 * model.params / (t * p) <= TP_STATE_PER_GPU]
            if not fits:
                continue
            pp, s = fits[0], rng.choice(seqs)
            b = rng.choice([x for x in MICRO_BATCHES if s * x <= 8192])
        inputs = {"s": s, "b": b, "h": model.d_model, "a": model.n_heads, "t": t}
        # a made-up run must be one a person would start: the first 1F1B stage's activations (L layers' worth)
        # fit an 80 GB GPU even with TP alone (Korthikanti's own runs are kept as published)
        made_up_fits = model.key != "hypothetical" or model.layers * tp.evaluate(**inputs) <= ACT_PER_GPU
        if made_up_fits and tp.evaluate(**inputs) / sp.evaluate(**inputs) > 1.1:
            return model, t, pp, s, b


def _tp_givens(inputs) -> tuple:
    return (given("s", "Sequence length s", "序列长度 s", inputs["s"]),
            given("b", "Micro-batch size b", "微批次大小 b", inputs["b"]),
            given("h", "Hidden size h", "隐藏维度 h", inputs["h"]),
            given("a", "Attention heads a", "注意力头数 a", inputs["a"]),
            given("t", "Tensor-parallel degree t", "张量并行度 t", inputs["t"]))


def _tp_text(model, t, pp, s, b, start: bool = True) -> tuple[str, str]:
    """``MT-NLG 530B (h = 20480, a = 128 heads) trained with TP = 8, PP = 35, sequence length s = 2048, micro-batch
    b = 1`` and its Chinese."""
    name_zh = model.name.replace("a hypothetical GPT-style model", "一个假想的 GPT 式模型")
    run = " (Korthikanti et al.'s run)" if model in models.MEGATRON_GPT + (models.GPT3_175B,) and s == 2048 else ""
    run_zh = "（Korthikanti 等的实验配置）" if run else ""
    en = (f"{cap(model.name) if start else model.name} (h = {model.d_model}, a = {model.n_heads} heads) "
          f"trained with TP = {t}, PP = {pp}{run}, sequence length s = {s}, micro-batch b = {b}")
    zh = (f"{name_zh}（h = {model.d_model}，a = {model.n_heads} 个头）以 TP = {t}、PP = {pp} 训练{run_zh}，"
          f"序列长度 s = {s}，微批次 b = {b}")
    return en, zh


def _mb(x: float) -> str:
    """A per-layer figure in MB, so the figures a line compares read in one unit."""
    return fmt_quantity(x, "bytes", unit="MB")


def _tp_world(model, t, pp, s, b) -> World:
    return World(model=model, precision="bf16", n_gpus=t * pp, tp=t, pp=pp, seq=s, batch=b, holds=("train",))


def _tp_setup(rng, *, start: bool = True, min_pp: int = 1, published_share: float = 0.5,
              seqs: tuple[int, ...] = (1024, 2048, 4096), run_from_share: bool = False):
    model, t, pp, s, b = _tp_run(rng, min_pp=min_pp, published_share=published_share, seqs=seqs,
                                 run_from_share=run_from_share)
    inputs = {"s": s, "b": b, "h": model.d_model, "a": model.n_heads, "t": t}
    return model, t, pp, inputs, _tp_text(model, t, pp, s, b, start), _tp_world(model, t, pp, s, b)


TP_GIVEN_EN = ("With TP alone, one layer keeps s·b·h·(10 + 24/t + 5·a·s/(h·t)) bytes of activations on each GPU: "
               "attention and MLP internals are split t ways, the 10sbh of the LayerNorm and dropout region stays "
               "whole on every GPU.")
TP_GIVEN_ZH = ("只开张量并行时，每层在每张卡上保存 s·b·h·(10 + 24/t + 5·a·s/(h·t)) 字节激活值：注意力和 MLP 内部切成 t 份，"
               "LayerNorm 与 dropout 区域的 10sbh 每张卡完整一份。")
SP_GIVEN_EN = ("With TP and sequence parallelism over the same t GPUs, every term of the layer's 34sbh + 5as²b is "
               "split: s·b·h·(34 + 5·a·s/h)/t bytes per GPU.")
SP_GIVEN_ZH = "张量并行加序列并行（同样的 t 张卡）时，整层 34sbh + 5as²b 的每一项都被切分：每张卡 s·b·h·(34 + 5·a·s/h)/t 字节。"


def _tp_spec(rng, formula: str, prompt_en, prompt_zh) -> Spec:
    """One activation-per-GPU question: the run drawn by :func:`_tp_setup`, asked about ``formula``;
    ``prompt_en``/``prompt_zh`` turn (the run's text, t, unit) into the question."""
    model, t, pp, inputs, (en, zh), world = _tp_setup(rng)
    u = unit_for(formula, **inputs)
    return Spec(givens=_tp_givens(inputs),
                asks=(Ask(formula=formula, unit=u, prompt_en=prompt_en(en, t, u), prompt_zh=prompt_zh(zh, t, u)),),
                conventions_en=ACT_TP_EN, conventions_zh=ACT_TP_ZH, world=world)


@template("memory.activation_tp_given", topic="memory", title="Activation memory per layer with TP (formula given)",
          title_zh="张量并行下每层激活值显存（给出公式）", difficulty=1, target_seconds=90, source="korthikanti2022")
def activation_tp_given(rng):
    return _tp_spec(rng, "activation_bytes_layer_tp",
                    lambda en, t, u: f"{en}, no sequence parallelism. {TP_GIVEN_EN} How much is that per GPU, in {u}?",
                    lambda zh, t, u: f"{zh}，不开序列并行。{TP_GIVEN_ZH}每张卡合计多少（{u}）？")


@template("memory.activation_tp", topic="memory", title="Activation memory per layer with TP",
          title_zh="张量并行下每层激活值显存", difficulty=2, target_seconds=120, source="korthikanti2022")
def activation_tp(rng):
    return _tp_spec(rng, "activation_bytes_layer_tp",
                    lambda en, t, u: f"{en}: tensor parallelism only, no sequence parallelism. How much activation "
                                     f"memory does one layer keep on each GPU for the backward pass, in {u}?",
                    lambda zh, t, u: f"{zh}：只开张量并行，不开序列并行。每张卡上单层为反向传播暂存多少激活值显存（{u}）？")


@template("memory.activation_tp_sp_given", topic="memory",
          title="Activation memory per layer with TP + sequence parallelism (formula given)",
          title_zh="张量并行 + 序列并行下每层激活值显存（给出公式）", difficulty=1, target_seconds=90,
          source="korthikanti2022")
def activation_tp_sp_given(rng):
    return _tp_spec(rng, "activation_bytes_layer_tp_sp",
                    lambda en, t, u: f"{en}, with sequence parallelism. {SP_GIVEN_EN} How much is that per GPU, "
                                     f"in {u}?",
                    lambda zh, t, u: f"{zh}，开序列并行。{SP_GIVEN_ZH}每张卡合计多少（{u}）？")


@template("memory.activation_tp_sp", topic="memory", title="Activation memory per layer with TP + sequence parallelism",
          title_zh="张量并行 + 序列并行下每层激活值显存", difficulty=2, target_seconds=120, source="korthikanti2022")
def activation_tp_sp(rng):
    return _tp_spec(rng, "activation_bytes_layer_tp_sp",
                    lambda en, t, u: f"{en}, with sequence parallelism over the same {t} GPUs. How much activation "
                                     f"memory does one layer keep on each GPU for the backward pass, in {u}?",
                    lambda zh, t, u: f"{zh}，并在同样的 {t} 张卡上开序列并行。每张卡上单层为反向传播暂存多少激活值显存（{u}）？")


# Which activations sequence parallelism splits that tensor parallelism leaves whole: the LayerNorm and dropout region.
SP_REGION = Choice("norms+dropout", ("norms and dropout", "layernorm and dropout", "layernorm+dropout", "layernorm",
                                     "ln and dropout", "ln+dropout", "10sbh", "归一化与 dropout", "LayerNorm 和 dropout"),
                   "LayerNorm 与 dropout")
SP_NOT = (Choice("scores", ("attention scores", "softmax", "5as²b", "5as2b", "分数", "注意力得分"), "注意力分数"),
          Choice("MLP", ("gelu", "mlp activations", "16sbh", "ffn"), "MLP"),
          Choice("QKV", ("q k v", "q, k, v", "qkv projections", "6sbh"), "QKV"))


@template("memory.activation_tp_chain", topic="memory",
          title="Activations per GPU: one GPU → TP → TP + SP → what SP splits → the first pipeline stage",
          title_zh="每卡激活值：单卡 → 张量并行 → 加序列并行 → 序列并行切了什么 → 流水线第一阶段", difficulty=2,
          target_seconds=420, source="korthikanti2022, narayanan2021")
def activation_tp_chain(rng):
    # only three published runs have pipeline stages: drawn half the time, they made most seeds the same problem
    # (1 in 20 now, each run from the draw that chose one: seeds 3 and 15 drew GPT-3 both); a pipelined made-up model
    # has few layouts that fit, so 1.5K and 3K sequences widen the draw (seeds 34 and 36 were one problem)
    model, t, pp, inputs, (en, zh), world = _tp_setup(rng, min_pp=2, published_share=0.05,
                                                      seqs=(1024, 1536, 2048, 3072, 4096), run_from_share=True)
    L, per = model.layers, model.layers // pp
    plain = {k: inputs[k] for k in ("s", "b", "h", "a")}
    f_tp, f_sp = formulas.get("activation_bytes_layer_tp"), formulas.get("activation_bytes_layer_tp_sp")
    tp_v, sp_v = f_tp.evaluate(**inputs), f_sp.evaluate(**inputs)
    u0 = unit_for("activation_bytes_layer", **plain)
    u1, u2 = unit_for("activation_bytes_layer_tp", **inputs), unit_for("activation_bytes_layer_tp_sp", **inputs)
    u4 = unit_for("stage_activation_bytes", inflight=pp, stage_layers=per, layer_bytes=sp_v)
    diff = tp_v - sp_v
    return Spec(
        scenario_en=f"{en}, L = {L} layers, 1F1B pipeline schedule: where do the activations go as the layer is "
                    "split?",
        scenario_zh=f"{zh}，L = {L} 层，1F1B 流水线调度：层被切分后，激活值显存怎么变？",
        givens=_tp_givens(inputs) + (given("layers", "Layers L", "层数 L", L),
                                      given("p", "Pipeline stages PP", "流水线阶段数 PP", pp)),
        asks=(Ask(formula="activation_bytes_layer", inputs=plain, unit=u0,
                  prompt_en=f"Without any model parallelism, how much activation memory would one layer keep, in {u0}?",
                  prompt_zh=f"不做任何模型并行时，单层要暂存多少激活值显存（{u0}）？"),
              Ask(formula="activation_bytes_layer_tp", inputs=inputs, unit=u1,
                  prompt_en=f"With tensor parallelism t = {t} (no sequence parallelism), how much does one layer keep "
                            f"on each GPU, in {u1}?",
                  prompt_zh=f"张量并行 t = {t}（不开序列并行）时，单层在每张卡上暂存多少（{u1}）？"),
              Ask(formula="activation_bytes_layer_tp_sp", inputs=inputs, unit=u2,
                  prompt_en=f"Adding sequence parallelism over the same {t} GPUs, how much per GPU, in {u2}?",
                  prompt_zh=f"再在同样的 {t} 张卡上加序列并行，每张卡多少（{u2}）？"),
              Ask(choices=(SP_REGION,) + SP_NOT, answer=SP_REGION.key,
                  prompt_en="Which activations does sequence parallelism split that tensor parallelism alone keeps "
                            "whole on every GPU: norms+dropout, scores, MLP or QKV?",
                  prompt_zh="哪部分激活是只开张量并行时每张卡都完整保存、开了序列并行才被切开的：LayerNorm 与 dropout、"
                            "注意力分数、MLP 还是 QKV？",
                  explanation=(f"TP alone: {_mb(tp_v)} per GPU; TP + SP: {_mb(sp_v)}; the difference 10sbh·(1 − 1/t) "
                               f"= {_mb(diff)} is the LayerNorm and dropout region: the two LayerNorm inputs (4sbh), "
                               "their outputs the QKV and first MLP GEMMs read (4sbh), the two dropout masks (2sbh).",
                               "Attention (Q, K, V, the scores) and the MLP were already split t ways by tensor "
                               "parallelism: sequence parallelism gives each GPU s/t tokens of the rest."),
                  explanation_zh=(f"只开张量并行：每张卡 {_mb(tp_v)}；加序列并行：{_mb(sp_v)}；两者之差 10sbh·(1 − 1/t) "
                                  f"= {_mb(diff)}，正是 LayerNorm 与 dropout 区域：两个 LayerNorm 的输入（4sbh）、"
                                  "QKV 与 MLP 第一个 GEMM 读入的 LayerNorm 输出（4sbh）、两个 dropout 掩码（2sbh）。",
                                  "注意力（Q、K、V、注意力分数）和 MLP 早已被张量并行切成 t 份：序列并行让每张卡只保存"
                                  "其余部分中自己那 s/t 个 token。"),
                  takeaway="TP alone leaves 10sbh per layer replicated on every GPU; sequence parallelism splits "
                           "those too, so activations shrink by the full t.",
                  takeaway_zh="只开张量并行时，每层 10sbh 的激活在每张卡上各存一份；序列并行把它们也切开，激活显存才"
                              "整体缩小 t 倍。",
                  card_formulas=("activation_bytes_layer_tp", "activation_bytes_layer_tp_sp")),
              # builds on step 3's correct per-layer figure (TP + SP), not on the learner's answer
              Ask(formula="stage_activation_bytes", inputs={"inflight": pp, "stage_layers": per, "layer_bytes": Ref(2)},
                  unit=u4,
                  prompt_en=f"With PP = {pp} stages of {per} layers and the 1F1B schedule (the first stage runs P "
                            "forwards before its first backward), how much activation memory does each GPU of the "
                            f"FIRST stage hold at its peak, with TP + SP and no recomputation, in {u4}?",
                  prompt_zh=f"PP = {pp} 个阶段、每阶段 {per} 层，采用 1F1B 调度（第一阶段在第一次反向之前先做 P 次前向）。"
                            f"开张量并行和序列并行、不做重计算时，第一阶段的每张卡在峰值时保存多少激活值显存（{u4}）？",
                  decomposition=("1F1B: the first stage runs P forwards before its first backward, so it holds P "
                                 "micro-batches, each through its L/P layers: P × L/P = L layers' worth of the TP + SP "
                                 "figure per layer",),
                  decomposition_zh=("1F1B：第一阶段在第一次反向之前先做 P 次前向，所以同时保存 P 个微批次，每个经过它的 "
                                    "L/P 层：P × L/P = L 层的量（每层按张量并行 + 序列并行的每卡数值）",),
                  takeaway="pipeline parallelism does not shrink the first stage's activations: P micro-batches × L/P "
                           "layers = L layers' worth, whatever P is; only TP + SP (÷ t) and recomputation cut them.",
                  takeaway_zh="流水线并行并不减少第一阶段的激活显存：P 个微批次 × L/P 层 = L 层的量，与 P 无关；"
                              "只有张量并行 + 序列并行（÷ t）和重计算能把它降下来。")),
        conventions_en=ACT_TP_EN, conventions_zh=ACT_TP_ZH, world=world,
    )


LOGITS_CONV_EN = ("The output layer writes one logit per token per vocabulary entry; for a stable softmax and "
                  "cross-entropy the loss upcasts them to fp32 (4 B each), the copy counted here. GB = 10⁹ B.")
LOGITS_CONV_ZH = ("输出层为每个 token 对词表中每个条目写一个 logit；为了 softmax 和交叉熵数值稳定，计算损失时升到 fp32"
                  "（每个 4 B），本题只计这份 fp32 logits。GB = 10⁹ B。")
# Large vocabularies: Llama 3 (128,256), Qwen3 (151,936), Kimi K2 (163,840), gpt-oss (201,088), Llama 4 (202,048)
_VOCAB_KEYS = ("llama31_8b", "llama31_70b", "llama3_405b", "qwen3_8b", "qwen3_32b", "gpt_oss_20b", "gpt_oss_120b",
               "llama4_scout", "kimi_k2")


@template("memory.logits_bytes", topic="memory", title="Logits memory of a large vocabulary",
          title_zh="大词表的 logits 显存", difficulty=2, target_seconds=90, source="wijmans2024")
def logits_bytes(rng):
    m = models.get(rng.choice(_VOCAB_KEYS))
    seq = rng.choice([s for s in (4096, 8192, 16384, 32768) if s <= m.max_seq])
    batch = rng.choice((1, 2, 4, 8))
    inputs = {"batch": batch, "seq": seq, "vocab": m.vocab, "bytes_per_elem": 4}
    return Spec(
        givens=(given("model", "Model", "模型", m.name), given("vocab", "Vocabulary V", "词表大小 V", m.vocab),
                given("d_model", "Model width d", "隐藏维度 d", m.d_model),
                given("batch", "Micro-batch (sequences)", "微批次（序列数）", batch),
                given("seq", "Sequence length S", "序列长度 S", seq)),
        asks=(Ask(formula="logits_bytes", inputs=inputs, unit="GB", extras={"d_model": m.d_model},
                  prompt_en=f"Training {m.name} (vocabulary {m.vocab:,}) on micro-batches of {batch} × {seq:,} "
                            "tokens, how much memory do the fp32 logits of one micro-batch take, in GB?",
                  prompt_zh=f"训练 {m.name}（词表 {m.vocab:,}），微批次为 {batch} × {seq:,} 个 token，"
                            "一个微批次的 fp32 logits 占多少显存（GB）？"),),
        conventions_en=LOGITS_CONV_EN, conventions_zh=LOGITS_CONV_ZH,
        world=World(model=m, seq=seq, batch=batch),
    )
