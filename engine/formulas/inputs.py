"""Every input of the catalogue, each MEANING declared once: its name, unit kind, symbol and meaning in
English and Chinese, the range ``drill calc`` accepts, and a default or named choices where it has them.

A formula binds a declaration under the name its spec gives it (the spec's input names are the public
interface of ``drill calc``): ``SEQ_LEN`` is ``s`` in the activation formulas, ``seq`` in the KV cache and
``n`` in the attention ones, ``SEQ_LEN.as_("n", "N")``.  Two inputs that share a name but not a meaning
(``m`` is a message size in the collectives, the rows of a GEMM, and a number of micro-batches) are
separate declarations.  Declaring an input here, not inline, is what keeps a meaning's Chinese, range and
symbol from drifting apart between the formulas that use it (tests/unit/test_formulas_inputs.py checks
that no other module builds an :class:`Input`).  Wordings that differ only slightly are kept apart,
so that no card or worked solution changes its words.
"""

from __future__ import annotations

from engine.count_nouns import NotCounted, Noun

from . import conventions
from .core import Choice, Input

# ---------------------------------------------------------------- model shape
PHI = Input("phi", "count", "parameter count (70B = 7e10)", "", "参数量（70B = 7e10）", counts=Noun.PARAMS)
LAYERS = Input("layers", "count", "transformer layers", "L", "Transformer 层数", counts=Noun.LAYERS)
HIDDEN = Input("h", "count", "hidden size", "", "隐藏维度", counts=NotCounted.SIZE)
HEADS = Input("a", "count", "attention heads", "", "注意力头数", counts=Noun.HEADS)
N_HEADS = Input("n_heads", "count", "query heads", "n_h", "Query 头数", counts=Noun.HEADS)
N_KV = Input("n_kv_heads", "count", "key/value heads", "n_kv", "KV 头数", counts=Noun.HEADS)
HEAD_DIM = Input("d_head", "count", "head dimension", "d_head", "每个头的维度", counts=NotCounted.SIZE)
FFN = Input("ffn", "count", "FFN (MLP) inner size", "d_ffn", "FFN（MLP）中间维度", counts=NotCounted.SIZE)
SWIGLU_FFN = Input("ffn", "count", "MLP inner size (SwiGLU: each of gate and up)", "f",
                   "MLP 中间维度（SwiGLU 的 gate 与 up 各为此宽度）", counts=NotCounted.SIZE)
VOCAB = Input("vocab", "count", "vocabulary size", "V", "词表大小", counts=Noun.TOKENS)
PHI_DENSE = Input("phi_dense", "count", "parameters outside the experts (attention, embeddings, router, norms)",
                  "Φ_dense", "专家以外的参数（注意力、词嵌入、路由器、归一化层）", counts=Noun.PARAMS)
PHI_EXPERT = Input("phi_expert", "count", "parameters of one expert summed over all MoE layers",
                   "Φ_expert", "单个专家在所有 MoE 层上的参数之和", counts=Noun.PARAMS)
N_EXPERTS = Input("n_experts", "count", "experts per MoE layer", "E", "每个 MoE 层的专家数", counts=Noun.EXPERTS)
EXPERTS_IN_LAYER = Input("n_experts", "count", "experts in the layer", "E", "该层的专家数", counts=Noun.EXPERTS)
TOP_K = Input("top_k", "count", "experts each token is routed to", "k", "每个 token 路由到的专家数", counts=Noun.EXPERTS)
KV_LORA_RANK = Input("kv_lora_rank", "count", "dimension of the compressed KV latent", "d_c", "压缩 KV 潜向量的维度",
                     counts=NotCounted.SIZE)
ROPE_DIM = Input("rope_dim", "count", "dimension of the shared decoupled RoPE key", "d_R", "所有头共享的解耦 RoPE key 的维度",
                 counts=NotCounted.SIZE)

# ---------------------------------------------------------------- sequences, batches and tokens
SEQ_LEN = Input("s", "count", "sequence length (tokens)", "", "序列长度（token 数）", counts=Noun.TOKENS)
SEQ_TOKENS = Input("seq", "count", "tokens in the sequence", "S", "序列的 token 数", counts=Noun.TOKENS)
TOKENS_PER_SEQ = Input("seq", "count", "tokens per sequence", "S", "每条序列的 token 数", counts=Noun.TOKENS)
MICRO_BATCH = Input("b", "count", "micro-batch size (sequences)", "", "微批次大小（序列数）", counts=Noun.SEQUENCES)
KV_BATCH = Input("batch", "count", "batch size (sequences)", "B", "batch 大小（序列数）", counts=Noun.SEQUENCES)
DECODE_BATCH = Input("batch", "count", "sequences decoded together", "B", "一起 decode 的序列数", counts=Noun.SEQUENCES)
GLOBAL_BATCH_SEQS = Input("global_batch", "count", "sequences per optimizer step (all GPUs)",
                          "B_global", "每个优化器步的序列数（所有 GPU）", counts=Noun.SEQUENCES)
TOKENS = Input("tokens", "count", "number of tokens", "D", "token 数", counts=Noun.TOKENS)
BATCH_TOKENS = Input("tokens", "count", "tokens in the batch", "T", "batch 中的 token 数", counts=Noun.TOKENS)
GPU_STEP_TOKENS = Input("tokens", "count", "tokens on this GPU in the step (batch × sequence)",
                        "T", "本卡这一步的 token 数（batch × 序列长度）", counts=Noun.TOKENS)
PROMPT_TOKENS = Input("prompt_tokens", "count", "tokens in the prompt", "S_prompt", "prompt 的 token 数",
                      counts=Noun.TOKENS)
DRAFT_TOKENS = Input("draft_tokens", "count", "tokens the draft model proposes per step", "γ", "草稿模型每步提出的 token 数",
                     counts=Noun.TOKENS)

# ---------------------------------------------------------------- element sizes and quantisation
BPE = Input("bytes_per_elem", "bytes", "bytes per element (fp16 = 2)", "bytes", "每个元素的字节数（fp16 = 2）")
BYTES_PER_PARAM = Input("bytes_per_param", "bytes", "bytes per parameter (fp16 = 2)", "bytes", "每个参数的字节数（fp16 = 2）")
BYTES_PER_VALUE = Input("bytes_per_param", "bytes", "bytes per weight / gradient value (bf16 = 2)",
                        "bytes", "每个权重 / 梯度值的字节数（bf16 = 2）")
BITS_PER_WEIGHT = Input("bits_per_weight", "count", "stored bits per weight, group scales and zero points included (a number of bits)",
                        "bits", "每个权重实际存储的位数，含分组的缩放因子与零点（一个位数）", counts=NotCounted.SIZE)
BITS_BEFORE = Input("bits_before", "count", "bits per weight before quantisation (a number)", "b_0", "量化前每个权重的位数（一个数）",
                    counts=NotCounted.SIZE)
BITS_AFTER = Input("bits_after", "count", "bits per weight after, group overhead included (a number)",
                   "b_q", "量化后每个权重的位数，含分组开销（一个数）", counts=NotCounted.SIZE)
QUANT_BITS = Input("bits", "bits", "bits of each quantised weight", "b", "每个量化权重的位数")
GROUP_SIZE = Input("group_size", "count", "weights sharing one scale (and zero point)", "g", "共享一个缩放因子（和零点）的权重数",
                   counts=NotCounted.SIZE)
SCALE_BITS = Input("scale_bits", "bits", "bits of each group's scale", "b_scale", "每组缩放因子的位数")
ZERO_BITS = Input("zero_bits", "bits", "bits of each group's zero point (0 if symmetric)", "b_zero", "每组零点的位数（对称量化为 0）")

# ---------------------------------------------------------------- memory sizes
TOTAL_BYTES = Input("total_bytes", "bytes", "memory to hold", "M_total", "需要容纳的显存")
GPU_BYTES = Input("gpu_bytes", "bytes", "memory of one GPU", "M_gpu", "单张 GPU 的显存")
GPUS_BYTES = Input("gpu_bytes", "bytes", "memory of the GPU(s)", "M_gpu", "GPU 显存")
WEIGHT_BYTES_READ = Input("weight_bytes", "bytes", "bytes of weights read per step", "W", "每步读取的权重字节数")
WEIGHT_BYTES_HELD = Input("weight_bytes", "bytes", "bytes of the weights", "W", "权重字节数")
WEIGHT_BYTES_FULL = Input("weight_bytes", "bytes", "bytes of the weights before quantisation", "W", "量化前权重的字节数")
KV_BYTES_READ = Input("kv_bytes", "bytes", "KV cache bytes read per step", "KV", "每步读取的 KV Cache 字节数")
KV_BYTES_DECODE_STEP = Input("kv_bytes", "bytes", "KV cache bytes read per decode step",
                             "KV", "每个 decode 步读取的 KV Cache 字节数")
KV_SEQ = Input("kv_bytes_per_seq", "bytes", "KV cache bytes of one sequence", "KV_seq", "一条序列的 KV Cache 字节数")
KV_FULL_SEQ = Input("kv_bytes_per_seq", "bytes", "KV cache bytes of one full sequence",
                    "KV_seq", "一条完整序列的 KV Cache 字节数")
KV_PER_TOKEN = Input("kv_bytes_per_token", "bytes", "KV cache bytes per token (all layers)",
                     "KV/token", "每个 token 的 KV Cache 字节数（所有层）")
KV_BUDGET = Input("kv_budget", "bytes", "memory left for the KV cache", "M_KV", "留给 KV Cache 的显存")
LAYER_ACT_BYTES = Input("layer_bytes", "bytes", "activation memory of one layer", "M_act", "一层的激活值显存")
MICRO_BATCH_LAYER_BYTES = Input("layer_bytes", "bytes", "activation memory of one layer for one micro-batch",
                                "M_act", "一层在一个微批次上的激活显存")
MEMORY_BYTES = Input("bytes", "bytes", "bytes moved to/from memory", "Bytes", "显存读写字节数")
SRAM_BYTES = Input("sram_bytes", "bytes", "on-chip SRAM for the tiles", "M", "用于分块的片上 SRAM")
N_ELEM = Input("n_elem", "count", "elements of the tensor", "n", "张量的元素数", counts=Noun.ELEMENTS)
KERNELS = Input("kernels", "count", "element-wise kernels in the chain", "k", "依次执行的逐元素 kernel 数", counts=Noun.KERNELS)
BLOCK_SIZE = Input("block_size", "count", "tokens per KV block", "b", "每个 KV 块的 token 数", counts=Noun.TOKENS)

# ---------------------------------------------------------------- hardware and rates
PEAK = Input("peak_flops", "flop_rate", "peak dense FLOP/s of one GPU", "F_peak", "单张 GPU 的稠密峰值算力（FLOP/s）")
BW = Input("bandwidth", "bandwidth", "memory bandwidth (B/s)", "BW", "显存带宽（B/s）")
FLOPS = Input("flops", "flop", "floating-point operations", "FLOPs", "浮点运算次数")
INTENSITY = Input("intensity", "intensity", "arithmetic intensity of the kernel", "I", "算子的算术强度")
GEMM_M = Input("m", "count", "rows of A and C", "M", "A 和 C 的行数", counts=NotCounted.SIZE)
GEMM_N = Input("n", "count", "columns of B and C", "N", "B 和 C 的列数", counts=NotCounted.SIZE)
GEMM_K = Input("k", "count", "inner dimension", "K", "内积维度", counts=NotCounted.SIZE)
TRAIN_TPS = Input("tokens_per_s", "tok_rate", "measured training throughput (tok/s)", "tok/s", "实测训练吞吐（tok/s）")
MFU = Input("mfu", "ratio", "model FLOPs utilisation", "MFU", "模型算力利用率", high=1)
PREFILL_MFU = Input("mfu", "ratio", "utilisation the prefill reaches", "MFU", "prefill 达到的算力利用率", high=1)
COMPUTE = Input("compute", "flop", "training compute budget", "C", "训练算力预算")

# ---------------------------------------------------------------- parallelism and communication
N_GPUS = Input("n_gpus", "count", "number of GPUs", "N", "GPU 数", counts=Noun.GPUS)
N_DP = Input("n_dp", "count", "GPUs in the data-parallel group", "N_dp", "数据并行组中的 GPU 数", counts=Noun.GPUS)
N_RANKS = Input("n", "count", "GPUs taking part", "N", "参与通信的 GPU 数", counts=Noun.GPUS)
TP = Input("tp", "count", "tensor-parallel degree (GPUs one layer is split over)", "TP", "张量并行度（一层切分到的 GPU 数）",
           counts=Noun.GPUS)
PP = Input("pp", "count", "pipeline-parallel degree (stages)", "PP", "流水线并行度（阶段数）", counts=Noun.STAGES)
TP_DEGREE = Input("t", "count", "tensor-parallel degree", "t", "张量并行度", counts=Noun.GPUS)
N_TP = Input("n_tp", "count", "tensor-parallel GPUs", "N_tp", "张量并行的 GPU 数", counts=Noun.GPUS)
MESSAGE_BYTES = Input("m", "bytes", "message (tensor) size in bytes", "M", "消息（张量）大小，字节")
ALPHA = Input("alpha", "time", "latency per message step (s)", "", "每步消息的延迟（秒）")
BETA = Input("beta", "bandwidth", "link bandwidth (B/s)", "", "链路带宽（B/s）")
LINK_BW_ONE_WAY = Input("link_bw", "bandwidth", "one-way link bandwidth per GPU", "β", "每卡链路的单向带宽")
ALGBW = Input("algbw", "bandwidth", "algorithm bandwidth: message size / time", "algbw", "算法带宽：消息大小 / 耗时")
COLLECTIVE_SIZE = Input("size", "bytes", "message size of the collective", "S", "集合通信的消息大小")
COLLECTIVE_TIME = Input("time", "time", "measured time of one collective", "t", "一次集合通信的实测耗时")
TREE_DEPTH = Input("depth", "count", "tree depth ⌈log₂ N⌉", "log₂N", "树的深度 ⌈log₂ N⌉", counts=NotCounted.SIZE)
COMM_TIME = Input("comm_time", "time", "total gradient AllReduce time of a step", "T_comm", "一步中梯度 AllReduce 的总耗时")
BACKWARD_TIME = Input("backward_time", "time", "backward-pass compute time", "T_bwd", "反向传播的计算耗时")
BUCKETS = Input("buckets", "count", "equal gradient buckets, reduced in order", "k", "等大的梯度桶数，按顺序归约",
                counts=Noun.BUCKETS)
CAPACITY_FACTOR = Input("capacity_factor", "ratio", "capacity factor", "CF", "容量因子")

# ---------------------------------------------------------------- pipelines and steps
P_STAGES = Input("p", "count", "pipeline stages", "P", "流水线阶段数", counts=Noun.STAGES)
MICRO_BATCHES = Input("m", "count", "micro-batches per step", "m", "每步的微批次数", counts=Noun.MICRO_BATCHES)
VIRTUAL_STAGES = Input("v", "count", "virtual stages per GPU", "v", "每张 GPU 的虚拟阶段数", counts=Noun.STAGES)
STAGE_TIMES = Input("stage_times", "list:time", "forward time of each stage", "t", "各阶段的前向耗时")
BUBBLE_TARGET = Input("target", "ratio", "largest acceptable bubble (share of total time)",
                      "target", "可接受的最大气泡率（占总时间的比例）", high=1)
BUBBLE = Input("bubble", "ratio", "bubble: idle share of the total step time", "bubble", "气泡率：空闲时间占一步总时间的比例", high=1)
STAGE_INDEX = Input("stage", "count", "pipeline stage (1 = first)", "k", "流水线阶段序号（1 为第一个）", counts=NotCounted.INDEX)
INFLIGHT = Input("inflight", "count", "micro-batches in flight on the stage", "n_inflight", "该阶段在途的微批次数",
                 counts=Noun.MICRO_BATCHES)
STAGE_LAYERS = Input("stage_layers", "count", "layers on the stage", "L_stage", "该阶段的层数", counts=Noun.LAYERS)
STEP_TIME = Input("step_time", "time", "wall-clock time of one training step", "T_step", "一个训练步的墙钟时间")
COMPUTE_TIME = Input("compute_time", "time", "busy compute time of a step", "T_compute", "一步中的忙碌计算时间")
TRAIN_WALL_TIME = Input("time", "time", "wall-clock training time", "T", "训练的墙钟时间")

# ---------------------------------------------------------------- serving
TPOT_TARGET = Input("tpot_target", "time", "largest acceptable time per output token",
                    "TPOT_max", "可接受的最大每 token 时间（TPOT 目标）")
ACCEPTANCE = Input("acceptance", "ratio", "probability the target model accepts a draft token (i.i.d.)",
                   "α", "目标模型接受一个草稿 token 的概率（独立同分布）", high=1)
COST_RATIO = Input("cost_ratio", "ratio", "one draft pass / one target pass", "c", "一次草稿前向 / 一次目标前向的耗时")

# ---------------------------------------------------------------- conventions
# An enumeration's number is what the expression computes with; its key is what drill calc reads and shows.  A
# convention input's values, their words and its default are rows of engine.formulas.conventions (written once
# there): ``_convention`` builds the choices and the default from the rows and names them (``Input.convention``).
def _convention(group: str, enumeration: bool = True) -> dict:
    own = conventions.default(group)
    if own.value_from:  # the default is another input's value (sender_copies = replicas)
        return {"default_from": own.value_from, "convention": group}
    if not enumeration:
        return {"default": own.value, "convention": group}
    return {"default": own.key, "choices": conventions.choices(group), "convention": group}


RECIPE = Input("recipe", "count", "mixed-precision recipe: bytes per parameter of the training state", "recipe",
               "混合精度方案：训练状态每个参数的字节数", quiet=True, **_convention("zero_recipe"))

# The stages shard the same split: ZeRO-1 the optimizer part, ZeRO-2 also the gradients, ZeRO-3 also the weights.
#   recipe 16: weights 2 + gradients 2 | optimizer 12 (fp32 master, m, v)   -> 4 + 12/d, 2 + 14/d, 16/d
#   recipe 18: weights 2 + gradients 4 | optimizer 12 (fp32 master, m, v)   -> 6 + 12/d, 2 + 16/d, 18/d
#   recipe 20: weights 2 + gradients 2 | optimizer 16 (fp32 main grads, master, m, v) -> 4 + 16/d, 2 + 18/d, 20/d
# (Megatron-LM's distributed optimizer shards the fp32 main gradients with the optimizer state: its 20-byte row.)
STATIC_BYTES_PER_PARAM = Input(
    "bytes_per_param", "count", "bytes of training state per parameter (mixed-precision AdamW)", "B/param",
    "每个参数的训练状态字节数（混合精度 AdamW）", quiet=True, **_convention("train_bytes"))
OVERHEAD = Input("overhead", "ratio", "rough share added for activations and buffers (Bekman's ML Engineering: 0.25, "
                 "i.e. × 1.25)", "overhead", "为激活和缓冲区粗略加上的比例（Bekman 的 ML Engineering：0.25，即 × 1.25）",
                 high=1, quiet=True, **_convention("overhead", enumeration=False))
FLOPS_PER_PARAM_TOKEN = Input(
    "flops_per_param_token", "count", "training FLOPs per parameter per token", "k_flops",
    "每个参数每个 token 的训练 FLOPs", quiet=True, **_convention("flops_per_token"))
TOKENS_PER_PARAM = Input("tokens_per_param", "count", "compute-optimal tokens per parameter (rule of thumb 20; "
                         "Chinchilla's Table 3: 20.0-22.4, ~21)", "D/Φ",
                         "计算最优时每个参数的 token 数（经验值 20；Chinchilla 表 3：20.0-22.4，约 21）",
                         low=1, quiet=True, **_convention("tokens_per_param", enumeration=False))
# the collectives' ring factor as a quiet convention: the JAX scaling book drops (n−1)/n
RING_CONVENTION = Input("ring_factor", "count",
                        "the collective's ring factor: (n−1)/n exact, or taken as 1 as for large n", "",
                        "集合通信的环形因子：精确的 (n−1)/n，或像 n 很大时那样取 1", quiet=True,
                        **_convention("ring_factor"))
RING_DIRECTIONS = Input(
    "directions", "count", "directions a ring link carries at once (beta is one way of one link)", "dirs",
    "环上链路同时使用的方向数（beta 是一条链路的单向带宽）", quiet=True, **_convention("ring_directions"))

WITH_RESTART = Input("with_restart", "count", "whether the checkpoint interval counts the restart time in the time "
                     "between failures (Daly, 1) or leaves it out (Young, 0)", "daly",
                     "检查点间隔是否把重启时间计入故障间隔（Daly，1），或不计（Young，0）", quiet=True,
                     **_convention("restart_in_interval"))
LOSS_FIT = Input("fit", "count", "the loss law's fit: Hoffmann et al.'s approach 3 (1) or Besiroglu et al.'s refit (0)",
                 "fit", "损失定律的拟合：Hoffmann 等的方法 3（1）或 Besiroglu 等的重新拟合（0）", quiet=True,
                 **_convention("loss_fit"))
MLP_SBF = Input("mlp_sbf", "count", "sbf terms a SwiGLU MLP keeps per layer: 6 with SiLU recomputed (fused), 8 with "
                "its output kept (eager)", "k_f", "SwiGLU MLP 每层保留的 sbf 项数：SiLU 重算（融合）为 6，保留其输出（eager）为 8",
                quiet=True, **_convention("swiglu_kept"))
CRITIC_FROM_REWARD = Input("critic_from_reward", "count", "whether PPO's critic is initialised from the reward model "
                           "(1: the stated Φ_critic) or from the policy (0: Φ_critic = Φ_policy)", "c_rm",
                           "PPO 的评论家是否从奖励模型初始化（1：题给的 Φ_critic），或从策略模型初始化（0：Φ_critic = Φ_policy）",
                           quiet=True, **_convention("critic_size"))
NVLINK_NODE_GPUS = Input("gpus_per_node", "count", "GPUs per NVLink node (8 in an HGX / DGX node unless stated)", "g",
                         "每个 NVLink 节点的 GPU 数（未说明时为 HGX / DGX 节点的 8 张）", default=8.0, counts=Noun.GPUS)
NIC_SHARE = Input("nic_share", "count", "whether a node's GPUs reduce-scatter over NVLink first, so each GPU's NIC "
                  "carries 1/g of the message (1), or every NIC the whole message (0)", "hier",
                  "节点内各卡是否先经 NVLink 做 ReduceScatter，使每块网卡只承载 1/g 的消息（1），或每块网卡承载整条消息（0）",
                  quiet=True, **_convention("nic_share"))
# the distinct KV shards a TP instance holds, min(TP, n_kv): one per GPU until the GPUs outnumber the KV heads
KV_SHARDS = Input("kv_shards", "count", "distinct KV shards the prefill instance holds, one per GPU: min(TP, n_kv)",
                  "n_shards", "prefill 实例持有的不同 KV 分片数，每卡一份：min(TP, n_kv)", default=1.0, counts=Noun.SHARDS)
KV_SHARDED = Input("kv_sharded", "count", "whether each of the instance's TP GPUs sends its own KV shard over its own "
                   "NIC (1), or the whole KV cache goes through one NIC (0)", "split",
                   "实例的每张 TP 卡是否用自己的网卡发送自己的 KV 分片（1），或整个 KV Cache 只走一块网卡（0）",
                   quiet=True, **_convention("kv_links"))

# cost and energy
GPU_HOURS = Input("gpu_hours", "gpu_hours", "GPU-hours of the run (GPUs × hours)", "GPU-h", "这次训练的 GPU 小时数（GPU 数 × 小时）")
PRICE_GPU_HOUR = Input("price_per_gpu_hour", "usd_per_gpu_hour", "price of one GPU for one hour", "$/GPU-h",
                       "一张 GPU 一小时的价格")
SERVE_TPS = Input("tokens_per_s", "tok_rate", "tokens per second the whole deployment serves", "tok/s",
                  "整个部署每秒服务的 token 数")
POWER = Input("power_w", "power", "power drawn by one GPU (W)", "P", "单张 GPU 的功耗（W）")
PUE = Input("pue", "count", "power usage effectiveness: facility power / IT power (1 = accelerators only)", "PUE",
            "电能使用效率 PUE：机房总功耗 / IT 功耗（1 = 只算加速卡）", low=1, default=1.0, counts=NotCounted.FACTOR)
# power, facility and the cost of owning a GPU (spec part 4: prices and powers are given by the problem)
NODE_POWER = Input("node_power", "power", "maximum power of one node (GPUs, CPUs, NICs, fans, NVSwitches: the "
                   "datasheet's system maximum)", "P_node", "一个节点的最大功率（GPU、CPU、网卡、风扇、NVSwitch：规格书的整机最大值）")
NETWORK_W = Input("network_w_per_gpu", "power", "one GPU's share of the scale-out switches and optics outside the node",
                  "P_net", "单卡分摊的节点外 scale-out 交换机和光模块功率", default=0.0)
IT_POWER = Input("it_power_per_gpu", "power", "IT power per GPU: its node's share plus its network share", "P_IT",
                 "单卡 IT 功率：所在节点的分摊加上网络的分摊")
SITE_POWER = Input("facility_power", "power", "power the whole site may draw (IT × PUE)", "P_site",
                   "整个机房可用的总功率（IT × PUE）")
SITE_PUE = Input("pue", "count", "power usage effectiveness: facility power / IT power", "PUE",
                 "电能使用效率 PUE：机房总功耗 / IT 功耗", low=1, counts=NotCounted.FACTOR)
RACK_POWER = Input("rack_power_limit", "power", "power one rack may draw", "P_rack", "一个机柜允许的功率")
CAPEX_GPU = Input("capex_per_gpu", "dollars", "purchase price per GPU, its share of the node and network included",
                  "capex", "每张 GPU 的购置成本（含节点和网络的分摊）")
YEARS = Input("years", "count", "years the purchase is amortised over", "years", "购置成本的摊销年数", low=0.1, high=20,
              counts=NotCounted.DURATION)
BUSY_SHARE = Input("utilisation", "ratio", "share of the hours the GPU does paid work", "u",
                   "GPU 做有效工作的小时占比", high=1)
PRICE_KWH = Input("price_per_kwh", "dollars", "price of one kWh of electricity", "$/kWh", "每千瓦时的电价")
RENTAL_PRICE = Input("rental_price", "usd_per_gpu_hour", "cloud price of one GPU-hour", "$/GPU-h_rent",
                     "云上租一张 GPU 一小时的价格")
# serving capacity
ARRIVAL_RATE = Input("arrival_rate", "req_rate", "requests arriving per second", "λ", "每秒到达的请求数")
LATENCY = Input("latency", "time", "time a request spends in the system", "W", "一个请求在系统中停留的时间")
TTFT = Input("ttft", "time", "time to the first output token", "TTFT", "首 token 延迟")
TPOT = Input("tpot", "time", "time per output token after the first", "TPOT", "首 token 之后每个输出 token 的时间")
OUTPUT_TOKENS = Input("output_tokens", "count", "output tokens of one request", "n_out", "一个请求的输出 token 数",
                      counts=Noun.TOKENS)
FIRST_TOKEN_IN_TTFT = Input("first_token_in_ttft", "count", "whether TTFT already includes the first output token",
                            "", "TTFT 是否已包含第一个输出 token", **_convention("first_token"))
TOKENS_PER_REQUEST = Input("tokens_per_request", "count", "tokens generated per request", "n_tok", "每个请求生成的 token 数",
                           counts=Noun.TOKENS)
REPLICA_TPS = Input("tokens_per_s_per_replica", "tok_rate", "tokens per second one replica sustains", "tok/s_replica",
                    "单个副本能持续输出的 token/s")
UTILISATION = Input("utilisation", "ratio", "share of capacity planned to be busy (headroom for bursts)", "u",
                    "计划使用的容量比例（为突发留余量）", high=1)
# queueing (one server or a pool; spec part 4: utilisation is ρ in [0, 1), percentile a fraction)
SERVICE_TIME = Input("service_time", "time", "mean service time of one request", "E[S]", "一个请求的平均服务时间")
SERVERS = Input("servers", "count", "servers working in parallel (replicas)", "c", "并行工作的服务器数（副本数）",
                low=1, default=1.0, counts=Noun.REPLICAS)
RHO = Input("utilisation", "ratio", "utilisation ρ = λ·E[S] (below 1: the queue is stable)", "ρ",
            "利用率 ρ = λ·E[S]（小于 1 队列才稳定）", high=0.999)
CV_ARRIVAL = Input("cv_arrival", "count", "coefficient of variation of the time between arrivals (std / mean; "
                   "Poisson arrivals 1)", "c_a", "到达间隔的变异系数（标准差 / 均值；泊松到达为 1）", high=100, counts=NotCounted.FACTOR)
CV_SERVICE = Input("cv_service", "count", "coefficient of variation of the service time (std / mean; exponential 1, "
                   "fixed 0)", "c_s", "服务时间的变异系数（标准差 / 均值；指数分布为 1，固定为 0）", high=100, counts=NotCounted.FACTOR)
PERCENTILE = Input("percentile", "ratio", "the percentile as a fraction (p99 = 0.99)", "p",
                   "百分位，写成小数（p99 = 0.99）", high=0.999999)
LATENCY_TARGET = Input("latency_target", "time", "the latency the percentile must meet", "T_SLO",
                       "该百分位必须满足的延迟目标")
STEP_BYTES = Input("bytes_per_step", "bytes", "bytes read from memory per decode step (weights + KV cache)", "bytes_step",
                   "每个 decode 步从显存读取的字节数（权重 + KV Cache）")
STEPS_PER_S = Input("steps_per_s", "step_rate", "decode steps per second (1 / TPOT)", "steps/s",
                    "每秒的 decode 步数（1 / TPOT）")
# disaggregated serving and KV movement
PREFILL_TIME = Input("prefill_time", "time", "prefill time of one request on one instance", "T_prefill",
                     "一个请求在一个实例上的 prefill 时间")
INSTANCE_TPS = Input("tokens_per_s_per_instance", "tok_rate", "output tokens per second one decode instance sustains",
                     "tok/s_inst", "单个 decode 实例能持续输出的 token/s")
PREFIX_TOKENS = Input("prefix_tokens", "count", "tokens of the shared prompt prefix", "P", "共享 prompt 前缀的 token 数",
                      counts=Noun.TOKENS)
REQUESTS = Input("requests", "count", "requests sharing the prefix", "R", "共享该前缀的请求数", counts=Noun.REQUESTS)
KV_MOVED = Input("kv_bytes", "bytes", "KV cache bytes moved to or from host memory", "KV", "移入或移出主机内存的 KV Cache 字节数")
# post-training
D_IN = Input("d_in", "count", "input width of each adapted matrix", "d_in", "每个被适配矩阵的输入维度", counts=NotCounted.SIZE)
D_OUT = Input("d_out", "count", "output width of each adapted matrix", "d_out", "每个被适配矩阵的输出维度", counts=NotCounted.SIZE)
LORA_RANK = Input("rank", "count", "LoRA rank", "r", "LoRA 的秩", counts=NotCounted.SIZE)
N_MATRICES = Input("n_matrices", "count", "adapted matrices per layer (q, k, v, o = 4)", "n_mat",
                   "每层被适配的矩阵数（q、k、v、o 为 4）", counts=Noun.MATRICES)
PHI_TRAINABLE = Input("phi_trainable", "count", "trainable (adapter) parameters", "Φ_train", "可训练（适配器）参数量",
                      counts=Noun.PARAMS)
BYTES_FROZEN = Input("bytes_per_frozen_param", "bytes", "bytes per frozen base parameter (bf16 = 2, NF4 ≈ 0.516)",
                     "bytes_frozen", "冻结基座每个参数的字节数（bf16 = 2，NF4 ≈ 0.516）")
PHI_POLICY = Input("phi_policy", "count", "parameters of the policy (the model being trained)", "Φ_policy",
                   "策略模型（被训练的模型）的参数量", counts=Noun.PARAMS)
PHI_CRITIC = Input("phi_critic", "count", "parameters of the critic (value model)", "Φ_critic", "评论家（价值模型）的参数量",
                   counts=Noun.PARAMS)
PHI_REFERENCE = Input("phi_reference", "count", "parameters of the frozen reference model", "Φ_ref", "冻结参考模型的参数量",
                      counts=Noun.PARAMS)
PHI_REWARD = Input("phi_reward", "count", "parameters of the reward model (0 for a rule-based reward)", "Φ_reward",
                   "奖励模型的参数量（基于规则的奖励为 0）", counts=Noun.PARAMS)
PROMPTS = Input("prompts", "count", "prompts per rollout batch", "n_prompts", "每批 rollout 的 prompt 数",
                counts=Noun.PROMPTS)
RESPONSES_PER_PROMPT = Input("group_size", "count", "responses sampled per prompt (the GRPO group)", "G",
                             "每个 prompt 采样的回答数（GRPO 的组大小）", counts=Noun.RESPONSES)
RESPONSE_TOKENS = Input("response_tokens", "count", "tokens per sampled response", "n_resp", "每个采样回答的 token 数",
                        counts=Noun.TOKENS)
# checkpoints and failures
CKPT_BYTES_PER_PARAM = Input("bytes_per_param", "bytes", "bytes saved per parameter (bf16 weights + fp32 master, m, v = 14)",
                             "bytes", "每个参数保存的字节数（bf16 权重 + fp32 主权重、m、v = 14）",
                             **_convention("checkpoint_bytes", enumeration=False))
CKPT_BYTES = Input("checkpoint_bytes", "bytes", "size of one checkpoint", "C_bytes", "一个检查点的大小")
WRITE_BW = Input("write_bandwidth", "bandwidth", "aggregate write bandwidth to storage", "BW_write", "写入存储的总带宽")
NODE_MTBF = Input("node_mtbf", "time", "mean time between failures of one node", "MTBF_node", "单个节点的平均无故障时间")
N_NODES = Input("n_nodes", "count", "nodes", "N_nodes", "节点数", counts=Noun.NODES)
CKPT_TIME = Input("checkpoint_time", "time", "time to write one checkpoint (training paused)", "δ",
                  "写一次检查点的时间（训练暂停）")
MTBF = Input("mtbf", "time", "mean time between failures of the whole job", "M", "整个作业的平均无故障时间")
RESTART_TIME = Input("restart_time", "time", "time to restart after a failure (detect, reschedule, reload)", "R",
                     "故障后重启的时间（发现、重新调度、加载）", default=0.0)
CKPT_INTERVAL = Input("interval", "time", "time between checkpoints", "τ", "两次检查点之间的时间")
# optimizer state, kernels, checkpoint stalls, data pipeline, multi-LoRA serving and chunked prefill (spec part 4)
# The optimizers, by the bytes of state each keeps per parameter (states only: master weights and gradients apart).
OPTIMIZERS = (
    Choice("adamw", 8, "AdamW, fp32 m and v: 8 B per parameter", "AdamW，fp32 的 m 和 v：每参数 8 B"),
    Choice("adamw_bf16", 4, "AdamW with bf16 m and v, DeepSeek's V3 recipe: 4 B per parameter",
           "m 和 v 用 bf16 的 AdamW，DeepSeek 训练 V3 的做法：每参数 4 B"),
    Choice("adamw_8bit", 2, "8-bit block-wise Adam (bitsandbytes): m and v 1 B each, 2 B per parameter; the fp32 "
           "absmax of each 2,048-value block, ~0.004 B per parameter, is left out",
           "8 位分块 Adam（bitsandbytes）：m 和 v 各 1 B，每参数 2 B；每 2,048 个值一个 fp32 absmax，每参数约 0.004 B，忽略不计"),
    Choice("sgd_momentum", 4, "SGD with momentum: one fp32 buffer, 4 B per parameter",
           "带动量的 SGD：一个 fp32 缓冲区，每参数 4 B"),
    Choice("lion", 4, "Lion: one fp32 momentum buffer, 4 B per parameter", "Lion：一个 fp32 动量缓冲区，每参数 4 B"),
    Choice("muon", 4, "Muon: one fp32 momentum buffer for the 2-D matrices, 4 B per parameter; embeddings and the "
           "head keep AdamW", "Muon：二维矩阵各一个 fp32 动量缓冲区，每参数 4 B；词嵌入和输出头仍用 AdamW"),
)
OPTIMIZER = Input("optimizer", "count", "the optimizer, by the bytes of state it keeps per parameter", "opt",
                  "优化器，按每个参数保存的状态字节数计", default="adamw", choices=OPTIMIZERS)
MATRIX_ROWS = Input("rows", "count", "rows of the weight matrix", "n_rows", "权重矩阵的行数", counts=NotCounted.SIZE)
MATRIX_COLS = Input("cols", "count", "columns of the weight matrix", "n_cols", "权重矩阵的列数", counts=NotCounted.SIZE)
TILE_M = Input("tile_m", "count", "rows of the output tile one thread block computes", "m_tile",
               "一个线程块计算的输出分块的行数", counts=NotCounted.SIZE)
TILE_N = Input("tile_n", "count", "columns of the output tile one thread block computes", "n_tile",
               "一个线程块计算的输出分块的列数", counts=NotCounted.SIZE)
TILE_K = Input("tile_k", "count", "depth of the K slice one pipeline stage loads", "k_tile", "每个流水级加载的 K 方向切片深度",
               counts=NotCounted.SIZE)
STAGES = Input("stages", "count", "pipeline stages of the kernel (A and B slices in flight)", "stages",
               "kernel 的流水级数（同时在途的 A、B 切片份数）", counts=Noun.STAGES)
SMS = Input("sms", "count", "streaming multiprocessors (SMs) of the GPU", "SMs", "GPU 的流式多处理器（SM）数", counts=Noun.SMS)
CTAS_PER_SM = Input("ctas_per_sm", "count", "thread blocks resident on one SM at once", "CTA/SM",
                    "一个 SM 上同时驻留的线程块数", low=1, default=1.0, counts=Noun.THREAD_BLOCKS)
SHARD_BYTES = Input("bytes_per_gpu", "bytes", "checkpoint bytes of this GPU's own shard of the training state",
                    "C_gpu", "本卡自己那一份训练状态的检查点字节数")
HOST_LINK_BW = Input("host_link_bandwidth", "bandwidth", "one-way GPU-to-host bandwidth (PCIe Gen5 x16 ~64 GB/s "
                     "theoretical; NVLink-C2C 450 GB/s per direction)", "BW_host",
                     "GPU 到主机的单向带宽（PCIe Gen5 x16 理论约 64 GB/s；NVLink-C2C 每方向 450 GB/s）")
RUN_HOURS = Input("hours", "count", "hours the run lasts (a number of hours)", "hours", "运行的小时数（一个数）",
                  counts=NotCounted.DURATION)
RATE_PER_GPU_HOUR = Input("rate_per_gpu_hour", "count", "events per GPU per hour (Llama 3: interruptions 2.0e-5, "
                          "silent data corruptions 2.8e-7)", "r", "每张 GPU 每小时的事件数（Llama 3：中断 2.0e-5，"
                          "静默数据损坏 2.8e-7）", high=1, counts=NotCounted.FACTOR)
LOADER_TPS = Input("tokens_per_s", "tok_rate", "tokens per second the data loader must deliver", "tok/s",
                   "数据加载器每秒必须供给的 token 数")
BYTES_PER_TOKEN = Input("bytes_per_token", "bytes", "stored bytes per token (pre-tokenised uint16 = 2, uint32 = 4)",
                        "B/tok", "每个 token 存储的字节数（预分词 uint16 为 2，uint32 为 4）",
                        **_convention("token_bytes", enumeration=False))
IMAGE_HEIGHT = Input("height", "count", "image height in pixels", "H", "图像高度（像素）", counts=NotCounted.SIZE)
IMAGE_WIDTH = Input("width", "count", "image width in pixels", "W", "图像宽度（像素）", counts=NotCounted.SIZE)
PATCH = Input("patch", "count", "side of one ViT patch in pixels (14 or 16)", "p", "一个 ViT patch 的边长（像素，14 或 16）",
              counts=NotCounted.SIZE)
MERGE = Input("merge", "count", "patches merged per side into one token (Qwen2-VL: 2, i.e. 2 × 2)", "m",
              "每个方向合并成一个 token 的 patch 数（Qwen2-VL 为 2，即 2 × 2）", low=1,
              **_convention("vision_merge", enumeration=False))
DISTINCT_ADAPTERS = Input("distinct_adapters", "count", "different LoRA adapters the batch uses", "n_adapters",
                          "这个 batch 用到的不同 LoRA 适配器数", counts=Noun.ADAPTERS)
ADAPTER_BYTES = Input("adapter_bytes", "bytes", "bytes of one LoRA adapter", "A", "一个 LoRA 适配器的字节数")
ITERATION_TOKENS = Input("tokens_per_step", "count", "tokens in the iteration: one per running decode plus the prefill "
                    "chunk", "T_step", "这次迭代的 token 数：每个正在 decode 的序列一个，加上 prefill 块", counts=Noun.TOKENS)
BUDGET = Input("token_budget", "count", "tokens one iteration may process (the token budget)", "budget",
               "一次迭代最多处理的 token 数（token 预算）", counts=Noun.TOKENS)
DECODE_SEQS = Input("decode_batch", "count", "running decode sequences, one token each per iteration", "B_dec",
                    "正在 decode 的序列数，每次迭代各一个 token", counts=Noun.SEQUENCES)
MIXED_STEP_TIME = Input("step_time", "time", "time of one mixed (prefill chunk + decode) iteration", "T_iter",
                        "一次混合迭代（prefill 块 + decode）的耗时")
# long context
CP = Input("cp", "count", "context-parallel degree (GPUs the sequence is split over)", "CP", "上下文并行度（序列切分到的 GPU 数）",
           counts=Noun.GPUS)
WINDOW = Input("window", "count", "sliding-window size (tokens attended to)", "W", "滑动窗口大小（可关注的 token 数）",
               counts=Noun.TOKENS)
CAUSAL = Input("causal", "count", "whether causal masking halves the attention FLOPs", "c_attn",
               "因果掩码是否让注意力 FLOPs 减半", **_convention("causal"))
GRAD_BYTES = Input("bytes_per_param", "bytes", "bytes per gradient value the all-reduce sends (bf16 = 2)", "bytes",
                   "AllReduce 发送的每个梯度值的字节数（bf16 = 2）", default=2.0)
ATTN_SHARE = Input("share", "ratio", "share of the training FLOPs per token spent in attention", "share_attn",
                   "每 token 训练 FLOPs 中注意力所占的比例", high=0.99)
# pipeline schedules (times of passes are t_f, t_b, t_w, t_fb: never b, a batch or an element size elsewhere)
T_F = Input("t_f", "time", "forward time of one micro-batch on one stage", "t_F", "一个微批次在一个阶段上的前向时间")
T_B = Input("t_b", "time", "backward time of one micro-batch on one stage (input and weight gradients)", "t_B",
            "一个微批次在一个阶段上的反向时间（输入梯度和权重梯度）")
T_W = Input("t_w", "time", "weight-gradient part of the backward", "t_W", "反向中计算权重梯度的部分")
T_FB = Input("t_fb", "time", "time of a forward and a backward chunk run overlapped", "t_F&B", "一个前向块与一个反向块重叠执行的时间")
# network fabric
RADIX = Input("radix", "count", "ports per switch", "k", "每台交换机的端口数", counts=Noun.PORTS)
TIERS = Input("tiers", "count", "switch tiers of the fat tree", "tiers", "胖树的交换机层数", counts=Noun.TIERS)
# A multi-plane fabric: every GPU's one NIC sits on one of the planes, each plane its own fat tree, so the planes
# multiply the hosts (DeepSeek-V3's 8 planes: GPU i of every 8-GPU node on plane i)
PLANES = Input("planes", "count", "separate network planes, each its own fat tree, every host on one of them (1: a single "
               "fabric)", "planes", "互相独立的网络平面数，每个平面是一棵独立的胖树，每台主机只接入其中一个（1：单一网络）", low=1,
               default=1.0, counts=Noun.PLANES)
N_HOSTS = Input("n_hosts", "count", "hosts (NICs) attached to the fabric", "N_hosts", "接入网络的主机（网卡）数", counts=Noun.HOSTS)
OVERSUB = Input("oversubscription", "count", "oversubscription (1 = non-blocking, 3 = 3:1)", "o", "收敛比（1 = 无阻塞，3 = 3:1）",
                counts=NotCounted.FACTOR)
DIRECTIONS = Input("directions", "count", "link directions counted", "dirs", "计入的链路方向数", **_convention("bisection_directions"))
GPUS_PER_NODE = Input("gpus_per_node", "count", "GPUs per node", "g", "每个节点的 GPU 数", counts=Noun.GPUS)
INTRA_BW = Input("intra_bandwidth", "bandwidth", "one-way bandwidth per GPU inside a node (NVLink)", "BW_intra",
                 "节点内每卡的单向带宽（NVLink）")
INTER_BW = Input("inter_bandwidth", "bandwidth", "one-way bandwidth per GPU between nodes (one NIC rail)", "BW_inter",
                 "节点间每卡的单向带宽（一条网卡轨道）")
OVERLAP = Input("overlap", "count", "whether the in-node and cross-node phases overlap", "overlap",
                "节点内和跨节点两个阶段是否重叠", **_convention("overlap"))
# batch bookkeeping
GRAD_ACCUM = Input("grad_accum", "count", "gradient-accumulation steps per optimizer step", "k_acc",
                   "每个优化器步的梯度累积步数", counts=Noun.STEPS)
# the exact critical batch of a [B, d] × [d, f] matmul
MATMUL_D = Input("d", "count", "input width of the matmul ([B, d] × [d, f])", "d", "矩阵乘的输入维度（[B, d] × [d, f]）",
                 counts=NotCounted.SIZE)
MATMUL_F = Input("f", "count", "output width of the matmul ([B, d] × [d, f])", "f", "矩阵乘的输出维度（[B, d] × [d, f]）",
                 counts=NotCounted.SIZE)

# ---------------------------------------------------------------- RL weight sync and async RL
# link_bandwidth is always one GPU's one-way NIC or link bandwidth (400 Gb/s = 50 GB/s), never HBM's.
LINK_BW = Input("link_bandwidth", "bandwidth", "one GPU's one-way NIC or link bandwidth (400 Gb/s = 50 GB/s)",
                "W_link", "单卡单向网卡或链路带宽（400 Gb/s = 50 GB/s）")
SYNC_WEIGHT_BYTES = Input("weight_bytes", "bytes", "bytes of the weights at the rollout engine's precision (an fp8 "
                          "engine: 1 B per parameter, the sender quantises)", "W",
                          "按推理（rollout）引擎精度计的权重字节数（fp8 引擎：每参数 1 B，由发送端量化）")
GPUS_PER_REPLICA = Input("gpus_per_replica", "count", "GPUs of one rollout replica (each receives its 1/g shard)",
                         "g", "一个 rollout 副本的 GPU 数（每张卡接收自己那 1/g 分片）", low=1, counts=Noun.GPUS)
ROLLOUT_REPLICAS = Input("replicas", "count", "rollout replicas (inference engines) to update", "R",
                         "需要更新的 rollout 副本（推理引擎）数", low=1, counts=Noun.REPLICAS)
N_SENDERS = Input("n_senders", "count", "trainer GPUs sending the weights", "n_send", "发送权重的训练端 GPU 数", low=1,
                  counts=Noun.GPUS)
SYNC_ALPHA = Input("alpha", "time", "fixed latency of the transfer (set-up, first byte)", "α",
                   "一次传输的固定延迟（建立连接、首字节）", default=0.0)
# the default names another input: point-to-point writes every replica separately (drill calc fills it in)
SENDER_COPIES = Input("sender_copies", "count", "full copies of the weights the senders push (default: replicas, "
                      "point-to-point; 1: a broadcast or relay tree)", "copies",
                      "发送端推出的完整权重份数（默认等于 replicas，即点对点；1：广播或中继树）",
                      **_convention("sender_copies", enumeration=False))
T_GEN = Input("t_gen", "time", "rollout (generation) time of one batch", "t_gen", "一批 rollout（生成）的时间")
T_TRAIN = Input("t_train", "time", "training time of one batch", "t_train", "一批训练的时间")
T_SYNC = Input("t_sync", "time", "weight-sync time after each step", "t_sync", "每步之后权重同步的时间")
RL_MODE = Input("mode", "count", "schedule: sync (generate, then train) or one_step_async (next batch's rollout "
                "overlaps training)", "mode", "调度方式：sync（先生成后训练）或 one_step_async（下一批的 rollout 与训练重叠）",
                default="sync", choices=(
                    Choice("sync", 0, "generate, train, sync in turn, colocated or strictly on-policy",
                           "依次生成、训练、同步，用于共置或严格 on-policy"),
                    Choice("one_step_async", 1, "rollout of batch i+1 overlaps training on batch i on separate GPUs",
                           "第 i+1 批的 rollout 与第 i 批的训练在分开的 GPU 上重叠")))
GEN_GPU_SECONDS = Input("gen_gpu_seconds", "time", "GPU-seconds (GPUs × seconds) the rollout of one batch takes", "G_gen",
                        "一批 rollout 所需的 GPU 秒数")
TRAIN_GPU_SECONDS = Input("train_gpu_seconds", "time", "GPU-seconds (GPUs × seconds) training on one batch takes", "G_train",
                          "训练一批所需的 GPU 秒数")
RL_BATCH = Input("batch", "count", "trajectories the trainer consumes per step", "B", "训练端每步消耗的轨迹数",
                 counts=Noun.SEQUENCES)
MAX_STALENESS = Input("max_staleness", "count", "most policy versions a consumed sample may lag behind", "η",
                      "被消耗的样本最多可落后的策略版本数", counts=Noun.VERSIONS)

# ---------------------------------------------------------------- MoE at scale
REDUNDANT_EXPERTS = Input("redundant_experts", "count", "extra copies of hot experts spread over the EP group",
                          "E_red", "分布在 EP 组里的热门专家额外副本数", default=0.0, counts=Noun.EXPERTS)
EP = Input("ep", "count", "expert-parallel degree (GPUs the experts are spread over)", "EP",
           "专家并行度（专家分布到的 GPU 数）", low=1, counts=Noun.GPUS)
EP_OPTIONAL = EP._replace(meaning="expert-parallel degree (needed only when count_local is false)", default=1.0,
                          meaning_zh="专家并行度（仅在 count_local 为 false 时需要）")
D_MODEL = Input("d_model", "count", "model (hidden) width", "d", "模型（隐藏）维度", counts=NotCounted.SIZE)
DISPATCH_BYTES = Input("dispatch_bytes", "bytes", "bytes per element of the dispatch (fp8 = 1)", "b_disp",
                       "分发（dispatch）每个元素的字节数（fp8 = 1）")
COMBINE_BYTES = Input("combine_bytes", "bytes", "bytes per element of the combine (bf16 = 2)", "b_comb",
                      "合并（combine）每个元素的字节数（bf16 = 2）")
COUNT_LOCAL = Input("count_local", "count", "whether copies whose expert sits on the sending GPU are counted",
                    "local", "是否计入专家就在发送卡上的副本", **_convention("count_local"))
NODES_PER_TOKEN = Input("nodes_per_token", "count", "nodes one token's experts sit on (node-limited routing: at "
                        "most 4 in DeepSeek-V3)", "M", "一个 token 的专家所在的节点数（节点受限路由：DeepSeek-V3 最多 4 个）",
                        counts=Noun.NODES)
STEP_TOKENS = Input("tokens", "count", "tokens routed in the step (one per decoding sequence)", "T",
                    "这一步路由的 token 数（每条 decode 序列一个）", counts=Noun.TOKENS)
MOE_LAYERS = Input("moe_layers", "count", "MoE layers of the model", "L_moe", "模型的 MoE 层数", counts=Noun.LAYERS)
TOKENS_PER_GPU = Input("tokens_per_gpu", "count", "tokens each GPU dispatches per decode step", "T_gpu",
                       "每张卡每个 decode 步分发的 token 数", counts=Noun.TOKENS)
A2A_ALPHA = Input("alpha", "time", "fixed latency of one dispatch or one combine", "α", "一次分发或一次合并的固定延迟")

# ---------------------------------------------------------------- TP decode
LATENCY_STEPS = Input("latency_steps", "count", "latency terms per all-reduce: ring 2(n−1), one_shot 2", "L_α",
                      "每次 AllReduce 的延迟项数：ring 为 2(n−1)，one_shot 为 2", **_convention("latency_steps"))
NVLINK_ALPHA = Input("alpha", "time", "latency of one all-reduce step (2-10 µs on NVLink, not verified: measure it)",
                     "α", "AllReduce 每一步的延迟（NVLink 上 2-10 µs，未经核实：应实测）")

# ---------------------------------------------------------------- FSDP / HSDP
FSDP_BYTES = Input("bytes_per_param", "bytes", "bytes per weight / gradient value FSDP sends (bf16 = 2)", "bytes",
                   "FSDP 发送的每个权重 / 梯度值的字节数（bf16 = 2）", default=2.0)
SHARD_SIZE = Input("shard_size", "count", "GPUs of one shard group (FSDP inside it)", "s", "一个分片组的 GPU 数（组内做 FSDP）",
                   low=1, counts=Noun.GPUS)
SHARD_REPLICAS = Input("replicas", "count", "replicas of the shard group (data parallel across them)", "r",
                       "分片组的副本数（副本之间做数据并行）", low=1, counts=Noun.REPLICAS)

# ---------------------------------------------------------------- givens no formula takes
# What a given that feeds no formula counts, by its name: a template shows it beside the inputs (the context a KV
# cache holds, the GPUs of an NVLink domain).  question_bank.spec.given_counts reads it after the declarations above.
SHOWN_COUNTS: dict[str, Noun | NotCounted] = {
    "context": Noun.TOKENS, "max_seq": Noun.TOKENS, "prompt": Noun.TOKENS, "user_tokens": Noun.TOKENS,
    # one inference engine per GPU: "64 GPUs", as the problem's text says
    "domain": Noun.GPUS, "engines": Noun.GPUS, "links": Noun.LINKS,
    "block": NotCounted.SIZE, "d_expert": NotCounted.SIZE, "flops_per_elem": NotCounted.FACTOR,
}
