"""Memory under model parallelism: activations with tensor (and sequence) parallelism, and ZeRO stages
on top of a TP × PP split.

Kept beside, not inside, :mod:`engine.formulas.memory` because each formula here divides by a
parallel degree and teaches which bytes a split removes and which stay replicated.
"""

from __future__ import annotations

from .core import Formula, Misconception, Part
from .inputs import HEADS, HIDDEN, MICRO_BATCH, N_DP, PHI, PP, RECIPE, SEQ_LEN, TP, TP_DEGREE
from .memory import ZERO_RECIPE_EXPR
from .registry import register

NOT_SPLIT_TP_PP = ("did not divide by TP × PP (each GPU holds only its 1/(TP·PP) slice of the model)",
                   "没有除以 TP × PP（每张卡只放模型的 1/(TP·PP)）")


ZERO_EXPR = {1: "4*phi + 12*phi/n_dp", 2: "2*phi + 14*phi/n_dp", 3: "16*phi/n_dp"}
ZERO_SHOWN = {1: "(4Φ + 12Φ/N_dp)", 2: "(2Φ + 14Φ/N_dp)", 3: "16Φ/N_dp"}


def _zero_parallel(stage: int) -> Formula:
    """ZeRO-``stage`` static bytes per GPU when the model is also split TP × PP ways."""
    what = {1: "optimizer states", 2: "optimizer states and gradients", 3: "optimizer states, gradients and weights"}
    miscon = [Misconception("no_model_split", NOT_SPLIT_TP_PP[0], ZERO_EXPR[stage], NOT_SPLIT_TP_PP[1])]
    miscon += [Misconception(f"zero{k}", f"used the ZeRO-{k} formula {ZERO_SHOWN[k]} / (TP·PP)",
                             f"({ZERO_EXPR[k]})/(tp*pp)", f"用成了 ZeRO-{k} 的公式 {ZERO_SHOWN[k]} / (TP·PP)")
               for k in (1, 2, 3) if k != stage]
    miscon.append(Misconception("unsharded_parallel", "sharded nothing over data parallel (16Φ / (TP·PP))",
                                "16*phi/(tp*pp)", "没有在数据并行组里切分任何状态（16Φ / (TP·PP)）"))
    what_zh = {1: "优化器状态", 2: "优化器状态和梯度", 3: "优化器状态、梯度和权重"}
    shown = {1: "(4Φ + 12Φ/N_dp) / (TP·PP)", 2: "(2Φ + 14Φ/N_dp) / (TP·PP)", 3: "16Φ / (TP·PP·N_dp)"}
    slice_part = Part("slice", "Φ_slice", "phi/(tp*pp)", "count", "parameters of this GPU's slice of the model",
                      "本卡分到的那一份模型参数")
    # what stays whole on every data-parallel replica (bytes per parameter), what is split N_dp ways
    kept, split = {1: (4, 12), 2: (2, 14), 3: (0, 16)}[stage]
    kept_en = {1: "bf16 weights and gradients, 2 B + 2 B", 2: "bf16 weights, 2 B"}
    kept_zh = {1: "bf16 权重和梯度，每个参数 2 B + 2 B", 2: "bf16 权重，每个参数 2 B"}
    split_en = {1: "fp32 AdamW states, 12 B", 2: "bf16 gradients and fp32 AdamW states, 2 B + 12 B"}
    split_zh = {1: "fp32 AdamW 状态，每个参数 12 B", 2: "bf16 梯度和 fp32 AdamW 状态，每个参数 2 B + 12 B"}
    parts: tuple[Part, ...]
    if stage == 3:
        parts = (slice_part,
                 Part("state", "16Φ_slice", "16*slice", "bytes", "the slice's whole training state, 16 B per parameter",
                      "这一份的全部训练状态，每个参数 16 B"))
        via = "state/n_dp"
    else:
        parts = (slice_part,
                 Part("kept", f"{kept}Φ_slice", f"{kept}*slice", "bytes",
                      f"{kept_en[stage]} per parameter, whole on every replica",
                      f"{kept_zh[stage]}，每个副本都存完整的一份"),
                 Part("shard", f"{split}Φ_slice/N_dp", f"{split}*slice/n_dp", "bytes",
                      f"this GPU's share of the {split_en[stage]} per parameter",
                      f"本卡分到的 {split_zh[stage]}"))
        via = "kept + shard"
    decomposition = (f"tensor and pipeline parallelism split the model first: each GPU holds Φ/(TP·PP) of the "
                     f"parameters; then ZeRO-{stage} shards the {what[stage]} of that slice over the N_dp "
                     f"data-parallel replicas: {shown[stage]}",)
    decomposition_zh = (f"先由张量并行和流水线并行切分模型：每张卡持有 Φ/(TP·PP) 的参数；再由 ZeRO-{stage} 把这一份的"
                        f"{what_zh[stage]}在 N_dp 个数据并行副本间切分：{shown[stage]}",)
    if stage == 3:
        simplification = ("with everything sharded the layout drops out: 16Φ/(TP·PP·N_dp) = 16Φ / (number of GPUs); "
                          "any TP × PP × DP over the same GPUs gives {result}",)
        simplification_zh = ("全部切分后与布局无关：16Φ/(TP·PP·N_dp) = 16Φ / GPU 总数；同样多的卡，任何 TP × PP × DP "
                             "都得到 {result}",)
        takeaway = ("ZeRO-3 spreads all 16 bytes per parameter over every GPU: memory falls with the cluster size, "
                    "paid for by gathering the weights twice per step (1.5× the traffic of data parallelism).")
        takeaway_zh = ("ZeRO-3 把每个参数的 16 字节摊到所有卡上：显存随集群规模下降，"
                       "代价是每步 AllGather 两次权重（通信量是数据并行的 1.5 倍）。")
    else:
        simplification = (f"as N_dp grows the shard vanishes and the memory tends to {kept}Φ/(TP·PP) = {{kept}}: the "
                          f"replicated {'weights and gradients' if stage == 1 else 'weights'} are the floor, and only "
                          f"a larger TP·PP lowers it",)
        simplification_zh = (f"N_dp 增大时切片趋于 0，显存趋于 {kept}Φ/(TP·PP) = {{kept}}：复制的"
                             f"{'权重和梯度' if stage == 1 else '权重'}是下限，只有加大 TP·PP 才能再降",)
        takeaway = (f"TP·PP divides every byte, ZeRO-{stage} only the {split} B of "
                    f"{'AdamW state' if stage == 1 else 'gradients and AdamW state'}: choose TP·PP so that the "
                    f"replicated {kept}Φ/(TP·PP) fits, and more data parallelism then only shrinks the rest.")
        takeaway_zh = (f"TP·PP 切分所有字节，ZeRO-{stage} 只切分 {split} B 的{' AdamW 状态' if stage == 1 else '梯度和 AdamW 状态'}："
                       f"先选 TP·PP 让复制的 {kept}Φ/(TP·PP) 放得下，之后再加数据并行只会让剩下的部分变小。")
    return Formula(
        f"zero{stage}_parallel_bytes", (PHI, TP, PP, N_DP, RECIPE), f"({ZERO_RECIPE_EXPR[stage]})/(tp*pp)", "bytes",
        f"static training bytes per GPU under TP × PP × DP with ZeRO-{stage}: the model is split TP·PP ways and "
        f"the {what[stage]} of each slice are sharded over the N_dp data-parallel replicas (activations excluded)",
        "rajbhandari2020, shoeybi2019, narayanan2021",  # ZeRO §5 on top of Megatron-LM tensor and pipeline parallelism
        tuple(miscon), f"M_ZeRO-{stage}/GPU",
        decomposition=decomposition, decomposition_zh=decomposition_zh, parts=parts, via=via,
        simplification=simplification, simplification_zh=simplification_zh,
        takeaway=takeaway, takeaway_zh=takeaway_zh,
        example={"phi": 70e9, "tp": 8, "pp": 2, "n_dp": 4}, plain_expr=f"({ZERO_EXPR[stage]})/(tp*pp)",
        meaning_zh=f"TP × PP × DP 加 ZeRO-{stage} 时每张 GPU 的静态训练显存：模型先切成 TP·PP 份，每份的{what_zh[stage]}"
                   "再在 N_dp 个数据并行副本间切分（不含激活值）", per_device=True)


register(
    # Korthikanti et al. §4.2.1-4.2.2: of the GPT layer's 34sbh, Megatron TP splits 24sbh (Q, K, V and the
    # output-projection input 8sbh; the GELU input and the second MLP GEMM's input 16sbh) and the 5as²b scores;
    # 10sbh stays whole on every GPU: the two LayerNorm inputs 4sbh, the LayerNorm outputs the column-parallel
    # QKV and first MLP GEMMs read 4sbh, the two dropout masks after attention and the MLP 2sbh.  Sequence
    # parallelism splits that region along the sequence (AllGather in, ReduceScatter out): all of it over t.
    Formula("activation_bytes_layer_tp", (SEQ_LEN, MICRO_BATCH, HIDDEN, HEADS, TP_DEGREE), "s*b*h*(10 + 24/t + 5*a*s/(h*t))", "bytes",
            "activation memory of one transformer layer per GPU with tensor parallelism t and no sequence "
            "parallelism (fp16): attention and MLP internals are split t ways, the 10sbh of the LayerNorm and dropout "
            "region (LayerNorm inputs and outputs, dropout masks) is replicated",
            "korthikanti2022",  # Table 2
            (Misconception("all_split", "divided everything by t; the LayerNorm and dropout activations (10sbh) are "
                           "only split with sequence parallelism", "s*b*h*(34 + 5*a*s/h)/t",
                           "把所有项都除以了 t；LayerNorm 和 dropout 的激活（10sbh）只有开了序列并行才会被切分"),
             Misconception("no_tp", "did not divide by t at all (one GPU's figure without TP)",
                           "s*b*h*(34 + 5*a*s/h)", "完全没有除以 t（当成了不切分的单卡值）"),
             Misconception("no_scores", "left out the attention scores (the 5as²b/t term)", "s*b*h*(10 + 24/t)",
                           "漏了注意力分数项（5as²b/t）"),
             Misconception("fp32_activations", "counted 4-byte fp32 activations; mixed-precision training keeps them "
                           "in 2-byte fp16/bf16", "2*s*b*h*(10 + 24/t + 5*a*s/(h*t))",
                           "按 4 字节的 fp32 算了激活值；混合精度训练里它们是 2 字节的 fp16/bf16")), "M_act/GPU",
            refs="korthikanti2022",
            decomposition=("the GPT layer keeps 34sbh + 5as²b (2 B per value, 1-B dropout masks); Megatron TP splits "
                           "the heads and the MLP's 4h columns over t GPUs: Q, K, V and the output-projection input "
                           "(8sbh), the GELU input and the second MLP GEMM's input (16sbh): 24sbh/t, and the scores "
                           "5as²b/t",
                           "10sbh stays whole on every GPU: the two LayerNorm inputs (4sbh), their outputs that the QKV "
                           "and first MLP GEMMs read (4sbh), the two dropout masks after attention and the MLP (2sbh)"),
            decomposition_zh=("GPT 层保存 34sbh + 5as²b（每个值 2 B，dropout 掩码 1 B）；Megatron 张量并行把注意力头和 "
                              "MLP 的 4h 列切到 t 张卡上：Q、K、V 与输出投影的输入（8sbh），GELU 的输入与 MLP 第二个 "
                              "GEMM 的输入（16sbh），共 24sbh/t，注意力分数也切成 5as²b/t",
                              "10sbh 在每张卡上完整保存一份：两个 LayerNorm 的输入（4sbh）、QKV 与 MLP 第一个 GEMM "
                              "读入的 LayerNorm 输出（4sbh）、注意力和 MLP 之后的两个 dropout 掩码（2sbh）"),
            parts=(Part("sbh", "sbh", "s*b*h", "count", "values in one s × b × h activation",
                        "一个 s × b × h 激活张量的元素数"),
                   Part("kept", "10sbh", "10*sbh", "bytes", "LayerNorm and dropout region, whole on every GPU",
                        "LayerNorm 与 dropout 区域，每张卡完整一份"),
                   Part("split", "(24sbh + 5as²b)/t", "(24*sbh + 5*a*s*s*b)/t", "bytes",
                        "attention and MLP internals, split t ways", "注意力与 MLP 内部，切成 t 份")),
            via="kept + split",
            simplification=("as t grows only the split part shrinks: the figure per GPU tends to 10sbh = {kept}, the "
                            "LayerNorm and dropout activations tensor parallelism never splits",),
            simplification_zh=("t 增大时只有切分的部分在变小：每卡用量趋于 10sbh = {kept}，即张量并行切不开的 LayerNorm "
                               "与 dropout 激活",),
            takeaway="TP alone leaves 10sbh per layer replicated on every GPU; sequence parallelism splits those too, so "
                     "activations shrink by the full t.",
            takeaway_zh="只开张量并行时，每层 10sbh 的激活在每张卡上各存一份；序列并行把它们也切开，激活显存才整体缩小 t 倍。",
            example={"s": 2048, "b": 1, "h": 12288, "a": 96, "t": 8},
            meaning_zh="张量并行度为 t、不开序列并行时，每张 GPU 上一个 Transformer 层的激活值显存（fp16）：注意力和 MLP "
                       "内部切成 t 份，LayerNorm 与 dropout 区域（LayerNorm 的输入与输出、dropout 掩码）的 10sbh "
                       "每张卡完整一份", per_device=True),
    Formula("activation_bytes_layer_tp_sp", (SEQ_LEN, MICRO_BATCH, HIDDEN, HEADS, TP_DEGREE), "s*b*h*(34 + 5*a*s/h)/t", "bytes",
            "activation memory of one transformer layer per GPU with tensor and sequence parallelism t (fp16): "
            "sequence parallelism splits the LayerNorm and dropout activations along the sequence, so all of it "
            "is divided by t",
            "korthikanti2022",  # Table 2
            (Misconception("no_sp", "left the 10sbh of LayerNorm and dropout unsplit (that is TP without sequence "
                           "parallelism)", "s*b*h*(10 + 24/t + 5*a*s/(h*t))",
                           "没有切分 LayerNorm 和 dropout 的 10sbh（那是不开序列并行的 TP）"),
             Misconception("no_tp", "did not divide by t at all (one GPU's figure without TP)",
                           "s*b*h*(34 + 5*a*s/h)", "完全没有除以 t（当成了不切分的单卡值）"),
             Misconception("no_scores", "left out the attention scores (the 5as²b/t term)", "34*s*b*h/t",
                           "漏了注意力分数项（5as²b/t）"),
             Misconception("fp32_activations", "counted 4-byte fp32 activations; mixed-precision training keeps them "
                           "in 2-byte fp16/bf16", "2*s*b*h*(34 + 5*a*s/h)/t",
                           "按 4 字节的 fp32 算了激活值；混合精度训练里它们是 2 字节的 fp16/bf16")), "M_act/GPU",
            refs="korthikanti2022",
            decomposition=("sequence parallelism splits the LayerNorm and dropout region along the sequence: of the "
                           "10sbh that TP alone keeps whole on every GPU, each GPU now keeps its s/t tokens (an "
                           "AllGather before the QKV and first MLP GEMMs, a ReduceScatter after the attention and MLP "
                           "outputs)",
                           "attention and the MLP were already split t ways (24sbh + 5as²b), so every term of the "
                           "layer's 34sbh + 5as²b is divided by t"),
            decomposition_zh=("序列并行把 LayerNorm 与 dropout 区域沿序列维切开：只开张量并行时每张卡都完整保存的 10sbh，"
                              "现在每张卡只存自己那 s/t 个 token（QKV 与 MLP 第一个 GEMM 之前做 AllGather，注意力和 MLP "
                              "输出之后做 ReduceScatter）",
                              "注意力和 MLP 本来就切成了 t 份（24sbh + 5as²b），于是整层 34sbh + 5as²b 的每一项都除以 t"),
            parts=(Part("sbh", "sbh", "s*b*h", "count", "values in one s × b × h activation",
                        "一个 s × b × h 激活张量的元素数"),
                   Part("layer", "34sbh + 5as²b", "34*sbh + 5*a*s*s*b", "bytes",
                        "the whole layer on one GPU, without parallelism", "不切分时单卡上的整层")),
            via="layer/t",
            simplification=("with SP everything divides by t: (34 + 5as/h)·sbh/t, the one-GPU layer over t; against TP "
                            "alone that saves 10sbh·(1 − 1/t), the LayerNorm and dropout activations every GPU used to "
                            "keep whole",),
            simplification_zh=("开了序列并行，所有项都除以 t：(34 + 5as/h)·sbh/t，正是单卡整层的 1/t；比只开张量并行少了 "
                               "10sbh·(1 − 1/t)，也就是原来每张卡都完整保存的 LayerNorm 与 dropout 激活",),
            takeaway="TP alone leaves 10sbh per layer replicated; sequence parallelism splits those too, so activations "
                     "shrink by the full t, at the same communication volume (a ReduceScatter + AllGather in place of "
                     "each AllReduce).",
            takeaway_zh="只开张量并行时每层 10sbh 在每张卡上各存一份；序列并行把它们也切开，激活显存整体缩小 t 倍，而通信量"
                        "不变（每次 AllReduce 换成一次 ReduceScatter 加一次 AllGather）。",
            example={"s": 2048, "b": 1, "h": 12288, "a": 96, "t": 8},
            meaning_zh="张量并行加序列并行（并行度 t）时，每张 GPU 上一个 Transformer 层的激活值显存（fp16）：序列并行把 "
                       "LayerNorm 与 dropout 的激活沿序列维切开，整层都除以 t", per_device=True),
    _zero_parallel(1),
    _zero_parallel(2),  # beyond the spec: the other two stages under TP × PP
    _zero_parallel(3),
)
