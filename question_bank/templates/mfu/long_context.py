"""Long-context FLOPs templates: attention's share of the training FLOPs.

Long-context FLOPs templates: attention's share of the training FLOPs at a context length, and the context
length at which it reaches a given share.
"""

from __future__ import annotations

from engine import formulas
from engine.units import fmt_number

from ... import models
from ...spec import Ask, Spec, World, given
from ...template import template
from ..model_params import nominal_phi

# --------------------------------------------------------------------------- #
# Attention's share of the training FLOPs as the context grows (mfu), and the logits of a large vocabulary (memory)

SHARE_CONV_EN = ("Training FLOPs per token: every weight matmul forward and backward (6Φ), plus attention's QKᵀ and PV "
                 "over the whole sequence, forward and backward (no saving from the causal mask, as PaLM counts "
                 "them); d = n_heads × d_head = d_model. Softmax, norms and the like are ignored.")
SHARE_CONV_ZH = ("每 token 的训练 FLOPs：所有权重矩阵乘的前向和反向（6Φ），加上注意力的 QKᵀ 和 PV 在整条序列上的前向和反向"
                 "（不计因果掩码省下的部分，与 PaLM 的算法一致）；d = n_heads × d_head = d_model。忽略 softmax、归一化等。")
# Dense models whose attention width n_heads × d_head is d_model (so 12·L·s·d counts QKᵀ and PV)
_SHARE_KEYS = ("llama2_7b", "llama2_13b", "llama2_70b", "llama3_8b", "llama3_70b", "llama31_8b", "llama31_70b",
               "llama3_405b", "mistral_7b", "qwen3_8b")
_LONG_KEYS = ("llama31_8b", "llama31_70b", "llama3_405b")  # trained to 128k after an 8k pre-training stage


def _share_givens(m) -> tuple:
    return (given("model", "Model", "模型", m.name),
            given("phi", "Parameters Φ", "参数量 Φ", nominal_phi(m), "count", "params"),
            given("layers", "Layers L", "层数 L", m.layers), given("d_model", "Model width d", "隐藏维度 d", m.d_model))


def _share_inputs(m, seq: int) -> dict:
    return {"phi": nominal_phi(m), "layers": m.layers, "seq": seq, "d_model": m.d_model, "causal": 12}  # 12·L·s·d


@template("mfu.attention_share", topic="mfu", title="Attention's share of the training FLOPs at a context length",
          title_zh="某上下文长度下注意力占训练 FLOPs 的比例", difficulty=3, target_seconds=150,
          source="C§3.1, chowdhery2022")
def attention_share(rng):
    f = formulas.get("attention_flops_share")
    m = models.get(rng.choice(_SHARE_KEYS))
    # a share of 7 % at least: below it share ≈ share / (1 − share), and leaving attention out of the total is no slip
    seq = rng.choice([s for s in (2048, 4096, 6144, 8192, 12288, 16384, 24576, 32768, 49152, 65536, 98304, 131072)
                      if s <= m.max_seq
                      and f.evaluate(**_share_inputs(m, s)) >= 0.07])
    return Spec(
        givens=_share_givens(m) + (given("seq", "Sequence length S", "序列长度 S", seq),),
        asks=(Ask(formula="attention_flops_share", inputs=_share_inputs(m, seq), unit="%",
                  prompt_en=f"{m.name} is trained on {seq:,}-token sequences. What share of its training FLOPs per "
                            "token goes to attention (QKᵀ and PV), in %?",
                  prompt_zh=f"用 {seq:,} token 的序列训练 {m.name}。每 token 的训练 FLOPs 中有多少比例花在注意力"
                            "（QKᵀ 和 PV）上（%）？"),),
        conventions_en=SHARE_CONV_EN, conventions_zh=SHARE_CONV_ZH,
        world=World(model=m, seq=seq),
    )


@template("mfu.attention_share_seq", topic="mfu", title="At what context length does attention take a given share?",
          title_zh="上下文多长时注意力占到给定比例？", difficulty=3, target_seconds=180, source="C§3.1, chowdhery2022")
def attention_share_seq(rng):
    f = formulas.get("attention_share_seq")
    while True:
        m = models.get(rng.choice(_SHARE_KEYS))
        share = rng.choice((0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8))
        seq = f.evaluate(phi=nominal_phi(m), layers=m.layers, share=share, d_model=m.d_model, causal=12)
        if seq <= m.max_seq:
            break
    return Spec(
        givens=_share_givens(m) + (given("share", "Attention's share", "注意力占比", share, "ratio", "%"),),
        asks=(Ask(formula="attention_share_seq", unit="",
                  inputs={"phi": nominal_phi(m), "layers": m.layers, "share": share, "d_model": m.d_model,
                          "causal": 12},
                  prompt_en=f"At what sequence length does attention (QKᵀ and PV) take {fmt_number(share * 100)}% "
                            f"of {m.name}'s training FLOPs per token?",
                  prompt_zh=f"序列长度为多少时，注意力（QKᵀ 和 PV）占 {m.name} 每 token 训练 FLOPs 的 "
                            f"{fmt_number(share * 100)}%？"),),
        conventions_en=SHARE_CONV_EN, conventions_zh=SHARE_CONV_ZH,
        world=World(model=m, seq=int(seq)),
    )


@template("mfu.long_context_flops_chain", topic="mfu",
          title="Long-context training FLOPs: attention's share at pre-training → at the long context → where it reaches a share",
          title_zh="长上下文训练的 FLOPs：预训练长度下注意力占比 → 长上下文时 → 何时达到给定比例", difficulty=3, target_seconds=360,
          source="C§3.1, chowdhery2022, llama3_2024")
def long_context_flops_chain(rng):
    m = models.get(rng.choice(_LONG_KEYS))
    share_at = formulas.get("attention_flops_share")  # 7 % at least (see attention_share)
    short = rng.choice([s for s in (4096, 8192) if share_at.evaluate(**_share_inputs(m, s)) >= 0.07])
    long = rng.choice((32768, 49152, 65536, 98304, 131072))
    half = formulas.get("attention_share_seq")
    share = rng.choice([p for p in (0.25, 0.4, 0.5, 0.6, 0.75) if half.evaluate(phi=nominal_phi(m), layers=m.layers, share=p,
                                                                      d_model=m.d_model, causal=12) <= m.max_seq])
    share_text = {0.25: ("a quarter", "四分之一"), 0.4: ("40 %", " 40%"), 0.5: ("half", "一半"), 0.6: ("60 %", " 60%"),
                  0.75: ("three quarters", "四分之三")}[share]
    return Spec(
        scenario_en=f"{m.name} is pre-trained on {short:,}-token sequences, then its context is extended by "
                    f"continued training on {long:,}-token sequences.",
        scenario_zh=f"{m.name} 先用 {short:,} token 的序列预训练，再用 {long:,} token 的序列继续训练以扩展上下文。",
        givens=_share_givens(m),
        asks=(Ask(formula="attention_flops_share", inputs=_share_inputs(m, short), unit="%",
                  prompt_en=f"At {short:,} tokens, what share of the training FLOPs per token goes to attention, in %?",
                  prompt_zh=f"序列长 {short:,} 时，每 token 训练 FLOPs 中注意力占多少（%）？"),
              Ask(formula="attention_flops_share", inputs=_share_inputs(m, long), unit="%",
                  prompt_en=f"And at {long:,} tokens, in %?", prompt_zh=f"序列长 {long:,} 时又占多少（%）？"),
              Ask(formula="attention_share_seq", unit="",
                  inputs={"phi": nominal_phi(m), "layers": m.layers, "share": share, "d_model": m.d_model,
                          "causal": 12},
                  prompt_en=f"At what sequence length does attention take {share_text[0]} of the training FLOPs per "
                            "token?",
                  prompt_zh=f"序列长度为多少时，注意力占每 token 训练 FLOPs 的{share_text[1]}？")),
        conventions_en=SHARE_CONV_EN, conventions_zh=SHARE_CONV_ZH,
        world=World(model=m, seq=long),
    )
