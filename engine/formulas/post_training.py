"""Post-training: LoRA's parameters and training memory, QLoRA's 4-bit base, the static memory of PPO's
four models and GRPO's two or three, and the tokens a rollout generates.

Fine-tuning and RL questions turn on one idea: only what is trained pays the 16 bytes per parameter
of mixed-precision Adam; a frozen model pays its weights alone.
"""

from __future__ import annotations

from .core import Formula, Misconception, Part
from .inputs import (
    BITS_PER_WEIGHT,
    BYTES_FROZEN,
    CRITIC_FROM_REWARD,
    D_IN,
    D_OUT,
    LAYERS,
    LORA_RANK,
    N_MATRICES,
    PHI,
    PHI_CRITIC,
    PHI_POLICY,
    PHI_REFERENCE,
    PHI_REWARD,
    PHI_TRAINABLE,
    PROMPTS,
    RESPONSE_TOKENS,
    RESPONSES_PER_PROMPT,
    STATIC_BYTES_PER_PARAM,
)
from .registry import register

POLICY_ONLY = ("counted only the policy's training state (16Φ_policy)", "只算了策略模型的训练状态（16Φ_policy）")

register(
    Formula("lora_params", (LAYERS, D_IN, D_OUT, LORA_RANK, N_MATRICES), "layers*n_matrices*rank*(d_in + d_out)",
            "count", "trainable parameters of LoRA: each adapted d_in × d_out matrix gets A (r × d_in) and B (d_out × r)",
            "hu2021",
            (Misconception("a_only", "counted only one factor (r·d_in), not both A and B", "layers*n_matrices*rank*d_in",
                           "只算了一个因子（r·d_in），没有同时算 A 和 B"),
             Misconception("one_layer", "counted one layer's adapters, not every layer's", "n_matrices*rank*(d_in + d_out)",
                           "只算了一层的适配器，没有乘层数")),
            "Φ_LoRA",
            decomposition=("W + BA with B (d_out × r) and A (r × d_in): r·(d_in + d_out) parameters per adapted matrix, "
                           "× matrices per layer × layers",),
            decomposition_zh=("W + BA，其中 B 为 d_out × r、A 为 r × d_in：每个被适配的矩阵 r·(d_in + d_out) 个参数，"
                              "再 × 每层矩阵数 × 层数",),
            parts=(Part("per_matrix", "r(d_in + d_out)", "rank*(d_in + d_out)", "count", "one adapted matrix",
                        "一个被适配的矩阵"),),
            via="layers*n_matrices*per_matrix",
            takeaway="LoRA trains r·(d_in + d_out) instead of d_in·d_out per matrix: a rank-16 adapter on a 4096-wide "
                     "model is well under 1% of its weights.",
            takeaway_zh="LoRA 每个矩阵只训练 r·(d_in + d_out) 而不是 d_in·d_out 个参数：4096 宽的模型配秩 16 的适配器，"
                        "远不到权重的 1%。",
            example={"layers": 32, "d_in": 4096, "d_out": 4096, "rank": 16, "n_matrices": 4},
            meaning_zh="LoRA 的可训练参数量：每个 d_in × d_out 的被适配矩阵配一个 A（r × d_in）和一个 B（d_out × r）"),
    Formula("lora_train_bytes", (PHI, PHI_TRAINABLE, BYTES_FROZEN), "phi*bytes_per_frozen_param + 16*phi_trainable",
            "bytes", "static memory of LoRA training: the frozen base at its precision + 16 bytes per adapter parameter "
            "(bf16 weights and gradients, fp32 master, m, v)", "hu2021, dettmers2023",
            (Misconception("full_finetune", "counted 16 bytes for every parameter, as in full fine-tuning", "16*phi",
                           "每个参数都按 16 字节算了，像全量微调那样"),
             Misconception("bf16_base_lora", "kept the frozen base in bf16 (2 bytes per parameter), as plain LoRA does",
                           "2*phi + 16*phi_trainable", "把冻结的基座仍按 bf16（每参数 2 字节）算了，像普通 LoRA 那样")),
            "M_LoRA",
            decomposition=("the base is frozen: only its weights, Φ × bytes each; the adapters train with mixed-precision "
                           "Adam, 16 bytes per parameter",),
            decomposition_zh=("基座冻结：只存权重，每个参数 bytes 字节；适配器用混合精度 Adam 训练，每个参数 16 字节",),
            parts=(Part("base", "Φ·bytes", "phi*bytes_per_frozen_param", "bytes", "the frozen base weights",
                        "冻结的基座权重"),
                   Part("adapters", "16Φ_train", "16*phi_trainable", "bytes", "the adapters' training state",
                        "适配器的训练状态")),
            via="base + adapters",
            takeaway="with LoRA the frozen base dominates: quantise it (QLoRA) and a 65B model fine-tunes on one 48 GB "
                     "GPU; the adapters' optimizer state is noise.",
            takeaway_zh="用 LoRA 时冻结的基座占大头：把它量化（QLoRA），65B 模型在一张 48 GB 的卡上就能微调；适配器的优化器状态"
                        "可以忽略。",
            example={"phi": 7e9, "phi_trainable": 20e6, "bytes_per_frozen_param": 2},
            meaning_zh="LoRA 训练的静态显存：冻结基座按其精度 + 每个适配器参数 16 字节（bf16 权重和梯度、fp32 主权重、m、v）"),
    Formula("qlora_base_bytes", (PHI, BITS_PER_WEIGHT), "phi*bits_per_weight/8", "bytes",
            "memory of a QLoRA base: NF4 weights with double-quantised block constants, "
            "4 + 8/64 + 32/(64·256) = 4.127 bits per weight", "dettmers2023",
            (Misconception("bf16_base", "kept the base in bf16 (2 bytes per parameter)", "2*phi",
                           "把基座仍按 bf16 算了（每个参数 2 字节）"),
             Misconception("no_double_quant", "kept an fp32 constant per block of 64 (4.5 bits): left out the double "
                           "quantisation of the block constants", "phi*4.5/8",
                           "按每 64 个权重一个 fp32 常数算了（4.5 比特）：漏了块常数的双重量化"),
             Misconception("nf4_only", "counted 4 bits per weight: left out the block constants (0.127 bits per "
                           "weight after double quantisation)", "phi*4/8",
                           "按每个权重 4 比特算了：漏了块常数（双重量化后每个权重 0.127 比特）")),
            "M_base",
            decomposition=("NF4 stores 4 bits per weight; each block of 64 has a constant, itself quantised to 8 bits "
                           "with one fp32 constant per 256 blocks: 4 + 8/64 + 32/(64·256) = 4.127 bits; ÷ 8 for bytes",),
            decomposition_zh=("NF4 每个权重存 4 比特；每 64 个一块，块常数本身再量化到 8 比特，每 256 块一个 fp32 常数："
                              "4 + 8/64 + 32/(64·256) = 4.127 比特；÷ 8 换成字节",),
            takeaway="4.127 bits, not 4: the block constants are 3% of the base, and double quantisation is what keeps "
                     "them that small (fp32 constants per 64 weights would add 0.5 bit).",
            takeaway_zh="是 4.127 比特而不是 4：块常数占基座的 3%，双重量化让它这么小（每 64 个权重一个 fp32 常数会多出 0.5 比特）。",
            example={"phi": 65e9, "bits_per_weight": 4.127},
            meaning_zh="QLoRA 基座的显存：NF4 权重加双重量化的块常数，每个权重 4 + 8/64 + 32/(64·256) = 4.127 比特"),
    # a trained model's bytes per parameter is the training state's convention (16 / 18 / 20, recognised 10 / 12)
    Formula("ppo_static_bytes", (PHI_POLICY, PHI_CRITIC, PHI_REFERENCE, PHI_REWARD, STATIC_BYTES_PER_PARAM,
                                 CRITIC_FROM_REWARD),
            "bytes_per_param*(phi_policy + critic_from_reward*phi_critic + (1 - critic_from_reward)*phi_policy)"
            " + 2*(phi_reference + phi_reward)", "bytes",
            "static memory of PPO's four models: policy and critic train (16 B per parameter), reference and reward "
            "model are frozen bf16 (2 B)", "ouyang2022",
            (Misconception("all_trained", "trained all four models (16 bytes each)",
                           "bytes_per_param*(phi_policy + critic_from_reward*phi_critic + (1 - critic_from_reward)*phi_policy"
                           " + phi_reference + phi_reward)",
                           "把四个模型都按训练算了（各 16 字节）"),
             Misconception("policy_only", POLICY_ONLY[0], "bytes_per_param*phi_policy", POLICY_ONLY[1]),
             Misconception("frozen_critic", "counted the critic as frozen (2 bytes): it trains with the policy",
                           "bytes_per_param*phi_policy + 2*(critic_from_reward*phi_critic + (1 - critic_from_reward)*phi_policy"
                           " + phi_reference + phi_reward)",
                           "把评论家当成冻结的（2 字节）：它和策略模型一起训练")),
            "M_PPO",
            decomposition=("PPO holds four models: the policy and the critic (value model) train with mixed-precision Adam, "
                           "16 B per parameter; the reference (for the KL penalty) and the reward model only run "
                           "forward, 2 B per parameter in bf16",),
            decomposition_zh=("PPO 同时持有四个模型：策略模型和评论家（价值模型）用混合精度 Adam 训练，每参数 16 B；参考模型"
                              "（算 KL 惩罚）和奖励模型只做前向，bf16 每参数 2 B",),
            parts=(Part("critic", "Φ_V", "(critic_from_reward*phi_critic + (1 - critic_from_reward)*phi_policy)", "count",
                        "the critic's parameters (Φ_reward when it starts from the reward model)",
                        "评论家的参数量（从奖励模型初始化时为 Φ_reward）"),
                   Part("trained", "16(Φ_policy + Φ_V)", "16*(phi_policy + critic)", "bytes",
                        "policy and critic, training", "策略模型和评论家，训练中"),
                   Part("frozen", "2(Φ_ref + Φ_reward)", "2*(phi_reference + phi_reward)", "bytes",
                        "reference and reward model, frozen bf16", "参考模型和奖励模型，冻结的 bf16")),
            via="trained + frozen",
            takeaway="PPO trains two models and runs two more: the critic's 16 B per parameter of Φ_critic is what GRPO "
                     "removes.",
            takeaway_zh="PPO 训练两个模型、再跑两个：评论家每参数 16 B（按 Φ_critic 计），GRPO 去掉的正是它。",
            example={"phi_policy": 7e9, "phi_critic": 7e9, "phi_reference": 7e9, "phi_reward": 7e9},
            plain_expr="16*(phi_policy + phi_critic) + 2*(phi_reference + phi_reward)",
            meaning_zh="PPO 四个模型的静态显存：策略模型和评论家在训练（每参数 16 B），参考模型和奖励模型冻结为 bf16（2 B）"),
    Formula("grpo_static_bytes", (PHI_POLICY, PHI_REFERENCE, PHI_REWARD, STATIC_BYTES_PER_PARAM),
            "bytes_per_param*phi_policy + 2*(phi_reference + phi_reward)", "bytes",
            "static memory of GRPO: the policy trains (16 B per parameter), the reference and a learned reward "
            "model are frozen bf16 (2 B); no critic (phi_reward = 0 for rule-based rewards)", "shao2024",
            (Misconception("with_critic", "kept a critic the size of the policy, training at 16 B per parameter "
                           "(GRPO's group baseline replaces it)",
                           "2*bytes_per_param*phi_policy + 2*(phi_reference + phi_reward)",
                           "保留了一个与策略模型同大、每参数 16 B 训练的评论家（GRPO 用组内基线取代了它）"),
             Misconception("policy_only", POLICY_ONLY[0], "bytes_per_param*phi_policy", POLICY_ONLY[1])),
            "M_GRPO",
            decomposition=("GRPO scores each response against the mean of its group, so no critic is trained: the policy "
                           "at 16 B per parameter, the frozen reference and (if learned) reward model at 2 B",),
            decomposition_zh=("GRPO 用同组回答的平均奖励作为每个回答的基线，因此不训练评论家：策略模型每参数 16 B，冻结的参考模型和"
                              "（若是学出来的）奖励模型每参数 2 B",),
            parts=(Part("trained", "16Φ_policy", "16*phi_policy", "bytes", "the policy, training", "策略模型，训练中"),
                   Part("frozen", "2(Φ_ref + Φ_reward)", "2*(phi_reference + phi_reward)", "bytes",
                        "reference and reward model, frozen bf16", "参考模型和奖励模型，冻结的 bf16")),
            via="trained + frozen",
            takeaway="dropping the critic saves 16 bytes per parameter of Φ_critic (the reward model's size when PPO "
                     "starts it from the reward model); a rule-based reward (math, code tests) drops the reward model "
                     "too.",
            takeaway_zh=("去掉评论家，就省下 Φ_critic 每参数 16 字节（PPO 从奖励模型初始化评论家时即奖励模型的大小）；"
                         "基于规则的奖励（数学题、代码测试）还能把奖励模型也省掉。"),
            example={"phi_policy": 7e9, "phi_reference": 7e9, "phi_reward": 0},
            plain_expr="16*phi_policy + 2*(phi_reference + phi_reward)",
            meaning_zh="GRPO 的静态显存：策略模型在训练（每参数 16 B），参考模型和学出来的奖励模型冻结为 bf16（2 B）；"
                       "没有评论家（基于规则的奖励时 Φ_reward = 0）"),
    Formula("rollout_tokens", (PROMPTS, RESPONSES_PER_PROMPT, RESPONSE_TOKENS), "prompts*group_size*response_tokens",
            "count", "tokens a rollout generates: prompts × responses per prompt × tokens per response", "shao2024",
            (Misconception("no_group", "sampled one response per prompt (left out the group)", "prompts*response_tokens",
                           "每个 prompt 只采样了一个回答（漏了组大小）"),),
            "T_rollout",
            decomposition=("GRPO samples G responses for every prompt, each up to n_resp tokens long: prompts × G × n_resp",),
            decomposition_zh=("GRPO 对每个 prompt 采样 G 个回答，每个最长 n_resp 个 token：prompt 数 × G × n_resp",),
            takeaway="RL post-training is mostly generation: the rollout's tokens are decode work, so serving-style "
                     "batching (vLLM, SGLang) sets the speed of the training step.",
            takeaway_zh="RL 后训练大部分时间在生成：rollout 的 token 都是 decode 工作，所以训练步的速度取决于推理式的批处理"
                        "（vLLM、SGLang）。",
            example={"prompts": 512, "group_size": 16, "response_tokens": 1024},
            meaning_zh="一次 rollout 生成的 token 数：prompt 数 × 每个 prompt 的回答数 × 每个回答的 token 数"),
)
