"""Readable sources: where a formula, a figure or a rule comes from, in words a reader can follow.

The question bank was written from two Chinese articles, and the code cites their sections
with short internal codes (``R§5.4`` is the roofline article's section 5.4, ``C§1.2`` the
formula cheat-sheet's module 1, item 2).  Users do not have those articles at hand, so no
code is ever shown: :func:`cite` turns codes and keys into readable names ("roofline
article, §5.4 capacity planning", "Korthikanti et al. 2022", "NVIDIA H100 datasheet"), and
:data:`SOURCES` lists every source once (Help, ``drill sources``).

A citation is a comma-separated text of codes and keys: ``"R§3.2, C§5.2, williams2009"``.
Keys of :data:`SOURCES` are papers and datasheets; seed codes name a section of one of the
two articles (the section names are in :data:`SECTIONS`).  An unknown code or key raises
:class:`KeyError` (tests/unit/test_teaching.py cites every formula and template).
"""

from __future__ import annotations

import re

from engine.langs import EN
from engine.records import NamedTuple

from .messages import Twin, pick


class Source(NamedTuple):
    key: str
    en: str  # short readable name: "Korthikanti et al. 2022"
    zh: str
    about_en: str  # what it is, for the list of sources
    about_zh: str
    where: str = ""  # how to find it (title, URL), the same in both languages

    def name(self, lang: str = EN) -> str:
        return pick(lang, self.en, self.zh)

    def about(self, lang: str = EN) -> str:
        return pick(lang, self.about_en, self.about_zh)


ROOFLINE_ARTICLE = "roofline_article"
CHEAT_SHEET = "cheat_sheet"

SOURCES: dict[str, Source] = {s.key: s for s in (
    Source(ROOFLINE_ARTICLE, "roofline article", "Roofline 文章",
           "a Chinese interview explainer of the roofline model: peak FLOP/s, memory bandwidth and arithmetic "
           "intensity as a factory (§2), the roofline and its ridge point (§3), real operators on it (§4), the "
           "interview follow-up chain (§5), common pitfalls (§6)",
           "一篇讲 Roofline 模型的中文面试文章：用工厂比喻讲峰值算力、显存带宽与算术强度（§2），屋顶线与拐点（§3），"
           "真实算子的定位（§4），面试追问链（§5），常见认知误区（§6）",
           "面试官问“这卡能跑多大模型”时，他到底在问什么"),
    Source(CHEAT_SHEET, "AI-infra formula cheat-sheet", "AI Infra 公式速查表",
           "a one-page Chinese cheat-sheet of AI-infrastructure interview formulas: training memory and ZeRO "
           "(module 1), collective communication (2), MFU/HFU (3), KV cache and decode bounds (4), roofline "
           "ridge points (5), pipeline bubbles (6)",
           "一页纸的中文 AI Infra 面试公式速查表：训练显存与 ZeRO（模块一）、集合通信（二）、MFU/HFU（三）、"
           "KV Cache 与 decode 上限（四）、Roofline 拐点（五）、流水线气泡（六）",
           "AI Infra 面试必备：一页纸核心公式与推导速查表（The Ultimate Cheatsheet）"),
    Source("williams2009", "Williams, Waterman & Patterson 2009", "Williams、Waterman 与 Patterson 2009",
           "the paper that introduced the roofline model", "提出 Roofline 模型的论文",
           "Roofline: An Insightful Visual Performance Model for Multicore Architectures, CACM 52(4), 2009"),
    Source("micikevicius2018", "Micikevicius et al. 2018", "Micikevicius 等 2018",
           "mixed-precision training: fp16/bf16 weights and gradients with an fp32 master copy",
           "混合精度训练：fp16/bf16 权重与梯度，外加一份 fp32 主权重",
           "Mixed Precision Training, ICLR 2018 (arXiv:1710.03740)"),
    Source("rajbhandari2020", "Rajbhandari et al. 2020 (ZeRO)", "Rajbhandari 等 2020（ZeRO）",
           "ZeRO: the 2Φ + 2Φ + 12Φ training-state accounting and its three sharding stages",
           "ZeRO：训练状态 2Φ + 2Φ + 12Φ 的记账方法与三个切分阶段",
           "ZeRO: Memory Optimizations Toward Training Trillion Parameter Models, SC 2020 (arXiv:1910.02054)"),
    Source("korthikanti2022", "Korthikanti et al. 2022", "Korthikanti 等 2022",
           "activation memory of a transformer layer, sbh(34 + 5as/h), and selective recomputation",
           "Transformer 层的激活显存 sbh(34 + 5as/h) 与选择性重计算",
           "Reducing Activation Recomputation in Large Transformer Models, MLSys 2023 (arXiv:2205.05198)"),
    Source("shoeybi2019", "Shoeybi et al. 2019 (Megatron-LM)", "Shoeybi 等 2019（Megatron-LM）",
           "Megatron tensor parallelism: two AllReduces per layer in the forward pass",
           "Megatron 张量并行：每层前向两次 AllReduce",
           "Megatron-LM: Training Multi-Billion Parameter Language Models Using Model Parallelism (arXiv:1909.08053)"),
    Source("patarasuk2009", "Patarasuk & Yuan 2009", "Patarasuk 与 Yuan 2009",
           "the bandwidth-optimal ring AllReduce: each GPU sends 2(N−1)/N of the message",
           "带宽最优的 Ring AllReduce：每张 GPU 发送消息的 2(N−1)/N",
           "Bandwidth Optimal All-reduce Algorithms for Clusters of Workstations, JPDC 69(2), 2009"),
    Source("thakur2005", "Thakur, Rabenseifner & Gropp 2005", "Thakur、Rabenseifner 与 Gropp 2005",
           "the α-β (latency-bandwidth) cost model of MPI collectives", "MPI 集合通信的 α-β（延迟-带宽）代价模型",
           "Optimization of Collective Communication Operations in MPICH, IJHPCA 19(1), 2005"),
    Source("kaplan2020", "Kaplan et al. 2020", "Kaplan 等 2020",
           "scaling laws; training costs about 6Φ FLOPs per token (2Φ forward, 4Φ backward)",
           "缩放定律；训练每个 token 约 6Φ FLOPs（前向 2Φ，反向 4Φ）",
           "Scaling Laws for Neural Language Models (arXiv:2001.08361)"),
    Source("chowdhery2022", "Chowdhery et al. 2022 (PaLM)", "Chowdhery 等 2022（PaLM）",
           "defines model FLOPs utilisation (MFU) and hardware FLOPs utilisation (HFU), appendix B",
           "定义模型算力利用率 MFU 与硬件算力利用率 HFU（附录 B）",
           "PaLM: Scaling Language Modeling with Pathways (arXiv:2204.02311)"),
    Source("narayanan2021", "Narayanan et al. 2021", "Narayanan 等 2021",
           "1F1B and interleaved pipeline schedules and their bubbles, on Megatron-LM; the PTD-P (3D) layout: "
           "tensor parallelism inside a node, pipeline parallelism across nodes, data parallelism for the rest",
           "1F1B 与交错式流水线调度及其气泡（Megatron-LM）；PTD-P（3D 并行）布局：张量并行在节点内，流水线并行跨节点，"
           "其余用数据并行",
           "Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM, SC 2021 "
           "(arXiv:2104.04473)"),
    Source("huang2019", "Huang et al. 2019 (GPipe)", "Huang 等 2019（GPipe）",
           "pipeline parallelism with micro-batches; the (P−1)/(m+P−1) bubble",
           "带 micro-batch 的流水线并行；(P−1)/(m+P−1) 的气泡",
           "GPipe: Efficient Training of Giant Neural Networks using Pipeline Parallelism (arXiv:1811.06965)"),
    Source("shazeer2017", "Shazeer et al. 2017", "Shazeer 等 2017",
           "the sparsely-gated mixture-of-experts layer: a router sends each token to k of E expert MLPs",
           "稀疏门控的混合专家层：路由器把每个 token 发往 E 个专家 MLP 中的 k 个",
           "Outrageously Large Neural Networks: The Sparsely-Gated Mixture-of-Experts Layer, ICLR 2017 "
           "(arXiv:1701.06538)"),
    Source("lepikhin2020", "Lepikhin et al. 2020 (GShard)", "Lepikhin 等 2020（GShard）",
           "expert parallelism: experts spread over devices, All-to-All dispatch and combine of the tokens, "
           "top-2 routing with an expert capacity",
           "专家并行：专家分布在各设备上，token 通过 All-to-All 分发（dispatch）与合并（combine），top-2 路由与专家容量",
           "GShard: Scaling Giant Models with Conditional Computation and Automatic Sharding (arXiv:2006.16668)"),
    Source("fedus2021", "Fedus et al. 2021 (Switch Transformer)", "Fedus 等 2021（Switch Transformer）",
           "top-1 routing and the expert capacity: tokens per expert = tokens / experts × capacity factor (§2.2)",
           "top-1 路由与专家容量：每个专家的 token 数 = token 数 / 专家数 × 容量因子（§2.2）",
           "Switch Transformers: Scaling to Trillion Parameter Models with Simple and Efficient Sparsity, JMLR 2022 "
           "(arXiv:2101.03961)"),
    Source("rajbhandari2022", "Rajbhandari et al. 2022 (DeepSpeed-MoE)", "Rajbhandari 等 2022（DeepSpeed-MoE）",
           "training and serving MoE models: expert parallelism and its All-to-All communication",
           "MoE 模型的训练与推理：专家并行及其 All-to-All 通信",
           "DeepSpeed-MoE: Advancing Mixture-of-Experts Inference and Training to Power Next-Generation AI Scale, "
           "ICML 2022 (arXiv:2201.05596)"),
    Source("jiang2024", "Jiang et al. 2024 (Mixtral)", "Jiang 等 2024（Mixtral）",
           "Mixtral-8x7B: top-2 of 8 experts per layer, 46.7B parameters stored, 12.9B active per token",
           "Mixtral-8x7B：每层 8 个专家选 2 个，存 46.7B 参数，每个 token 激活 12.9B",
           "Mixtral of Experts (arXiv:2401.04088)"),
    Source("deepseek_v3", "DeepSeek-AI 2024 (DeepSeek-V3)", "DeepSeek-AI 2024（DeepSeek-V3）",
           "DeepSeek-V3: 671B parameters, 37B active (top-8 of 256 routed experts plus a shared one); each token "
           "is sent to at most 4 nodes to bound the All-to-All; no token dropping",
           "DeepSeek-V3：671B 参数、37B 激活（256 个路由专家选 8 个，外加 1 个共享专家）；每个 token 最多发往 4 个节点，"
           "以限制 All-to-All 的开销；不丢弃 token",
           "DeepSeek-V3 Technical Report (arXiv:2412.19437)"),
    Source("pope2022", "Pope et al. 2022", "Pope 等 2022",
           "transformer inference: KV cache size, memory-bound decode, batching", "Transformer 推理：KV Cache 大小、"
           "访存受限的 decode、批处理", "Efficiently Scaling Transformer Inference, MLSys 2023 (arXiv:2211.05102)"),
    Source("kipply2022", "kipply 2022 (Transformer Inference Arithmetic)", "kipply 2022（Transformer 推理算术）",
           "back-of-the-envelope inference latency: a decode step reads the weights and the KV cache, so its time is "
           "bytes ÷ memory bandwidth; prefill is compute-bound at 2Φ FLOPs per token",
           "推理延迟的估算：decode 每步读权重和 KV Cache，耗时 = 字节数 ÷ 显存带宽；prefill 算力受限，每 token 2Φ FLOPs",
           "Transformer Inference Arithmetic, kipp.ly blog, 2022"),
    Source("kwon2023", "Kwon et al. 2023 (PagedAttention, vLLM)", "Kwon 等 2023（PagedAttention、vLLM）",
           "PagedAttention: the KV cache in fixed-size blocks allocated on demand, as an operating system pages "
           "memory; the vLLM serving engine",
           "PagedAttention：像操作系统分页那样，把 KV Cache 按固定大小的块按需分配；vLLM 推理引擎",
           "Efficient Memory Management for Large Language Model Serving with PagedAttention, SOSP 2023 "
           "(arXiv:2309.06180)"),
    Source("ainslie2023", "Ainslie et al. 2023 (GQA)", "Ainslie 等 2023（GQA）",
           "grouped-query attention: fewer key/value heads than query heads", "分组查询注意力：KV 头少于 Query 头",
           "GQA: Training Generalized Multi-Query Transformer Models from Multi-Head Checkpoints (arXiv:2305.13245)"),
    Source("touvron2023", "Touvron et al. 2023 (Llama 2)", "Touvron 等 2023（Llama 2）",
           "a Llama-style decoder: gated (SwiGLU) MLP, GQA, untied embeddings",
           "Llama 式解码器：带门控（SwiGLU）的 MLP、GQA、不共享的词嵌入",
           "Llama 2: Open Foundation and Fine-Tuned Chat Models (arXiv:2307.09288)"),
    Source("shazeer2019", "Shazeer 2019 (MQA)", "Shazeer 2019（MQA）",
           "multi-query attention: one key/value head shared by all query heads, for fast decoding",
           "多查询注意力（MQA）：所有 Query 头共享一个 KV 头，为 decode 提速",
           "Fast Transformer Decoding: One Write-Head is All You Need (arXiv:1911.02150)"),
    Source("austin2025", "Austin et al. 2025 (How to Scale Your Model)", "Austin 等 2025（How to Scale Your Model）",
           "the JAX scaling book: rooflines of transformer training and inference, why decode attention is "
           "memory-bound and how GQA raises its intensity",
           "JAX 的 scaling book：Transformer 训练与推理的 Roofline 分析，decode 阶段 attention 为何访存受限、"
           "GQA 如何提高它的算术强度",
           "How to Scale Your Model, jax-ml.github.io/scaling-book (2025), inference chapter"),
    Source("deepseek2024", "DeepSeek-AI 2024 (DeepSeek-V2)", "DeepSeek-AI 2024（DeepSeek-V2）",
           "multi-head latent attention (MLA), §2.1: each layer caches a compressed KV latent (d_c = 512) and one "
           "decoupled RoPE key (d_R = 64) per token instead of K and V for every head",
           "多头潜在注意力（MLA），§2.1：每层每个 token 只缓存一个压缩的 KV 潜向量（d_c = 512）和一个解耦的 RoPE key"
           "（d_R = 64），不再为每个头缓存 K 和 V",
           "DeepSeek-V2: A Strong, Economical, and Efficient Mixture-of-Experts Language Model (arXiv:2405.04434)"),
    Source("frantar2022", "Frantar et al. 2022 (GPTQ)", "Frantar 等 2022（GPTQ）",
           "GPTQ: post-training 3- and 4-bit weight quantisation; each group of weights (often 128) shares a "
           "scale and a zero point",
           "GPTQ：训练后的 3 位、4 位权重量化；每组权重（常见为 128 个）共享一个缩放因子和一个零点",
           "GPTQ: Accurate Post-Training Quantization for Generative Pre-trained Transformers, ICLR 2023 "
           "(arXiv:2210.17323)"),
    Source("lin2023", "Lin et al. 2023 (AWQ)", "Lin 等 2023（AWQ）",
           "AWQ: activation-aware 4-bit weight-only quantisation with group-128 fp16 scales; memory-bound decode "
           "speeds up with the weight bytes saved",
           "AWQ：感知激活的 4 位仅权重量化，每组 128 个共享一个 fp16 缩放因子；访存受限的 decode 随权重字节的减少而提速",
           "AWQ: Activation-aware Weight Quantization for LLM Compression and Acceleration, MLSys 2024 "
           "(arXiv:2306.00978)"),
    Source("leviathan2023", "Leviathan, Kalman & Matias 2023", "Leviathan、Kalman 与 Matias 2023",
           "speculative decoding: a draft model proposes γ tokens, the target checks them in one pass; expected "
           "tokens per pass (1 − α^(γ+1)) / (1 − α) and the speed-up for a draft of relative cost c",
           "投机解码：草稿模型提出 γ 个 token，目标模型一次前向验证；每次前向的期望 token 数 (1 − α^(γ+1)) / (1 − α)，"
           "以及草稿开销为 c 时的加速比",
           "Fast Inference from Transformers via Speculative Decoding, ICML 2023 (arXiv:2211.17192)"),
    Source("chen2023", "Chen et al. 2023 (speculative sampling)", "Chen 等 2023（投机采样）",
           "speculative sampling, found independently: the same draft-then-verify scheme, 2-2.5x faster decoding "
           "of Chinchilla 70B",
           "独立提出的投机采样：同样的先起草、后验证，让 Chinchilla 70B 的 decode 快了 2-2.5 倍",
           "Accelerating Large Language Model Decoding with Speculative Sampling (arXiv:2302.01318)"),
    Source("dao2022", "Dao et al. 2022 (FlashAttention)", "Dao 等 2022（FlashAttention）",
           "FlashAttention: standard attention's HBM traffic (Algorithm 0, Θ(Nd + N²)) against the tiled kernel "
           "that keeps S and P on chip (Theorem 2, Θ(N²d²/M) for an SRAM of size M)",
           "FlashAttention：标准 attention 的显存访存量（Algorithm 0，Θ(Nd + N²)）与把 S、P 留在片上的分块 kernel"
           "（Theorem 2，SRAM 大小为 M 时 Θ(N²d²/M)）的对比",
           "FlashAttention: Fast and Memory-Efficient Exact Attention with IO-Awareness, NeurIPS 2022 "
           "(arXiv:2205.14135)"),
    Source("dao2023", "Dao 2023 (FlashAttention-2)", "Dao 2023（FlashAttention-2）",
           "FlashAttention-2: the loop order with a Q block kept on chip while K and V stream past it (Algorithm 1)",
           "FlashAttention-2：Q 块留在片上、K 和 V 依次流过的循环顺序（Algorithm 1）",
           "FlashAttention-2: Faster Attention with Better Parallelism and Work Partitioning (arXiv:2307.08691)"),
    Source("gpu_datasheets", "GPU datasheets (NVIDIA, AMD)", "GPU 规格书（NVIDIA、AMD）",
           "peak dense FLOP/s, memory and bandwidth of each GPU in the bank: NVIDIA V100, A100, H100, H200, "
           "B200 and L40S datasheets, AMD Instinct MI300X data sheet",
           "题库中每张 GPU 的稠密峰值算力、显存与带宽：NVIDIA V100、A100、H100、H200、B200、L40S 规格书，"
           "AMD Instinct MI300X 规格书",
           "nvidia.com and amd.com product pages"),
    Source("nccl_tests", "NVIDIA nccl-tests, PERFORMANCE.md", "NVIDIA nccl-tests 的 PERFORMANCE.md",
           "how nccl-tests reports a collective: algorithm bandwidth algbw = size / time, and bus bandwidth busbw = "
           "algbw × 2(n−1)/n for an AllReduce, the rate the links carry, comparable with the hardware",
           "nccl-tests 如何报告集合通信的性能：算法带宽 algbw = 数据量 / 时间；AllReduce 的总线带宽 busbw = "
           "algbw × 2(n−1)/n，即链路实际承载的速率，可以直接和硬件带宽比较",
           "github.com/NVIDIA/nccl-tests, doc/PERFORMANCE.md"),
    Source("sanders2009", "Sanders, Speck & Träff 2009", "Sanders、Speck 与 Träff 2009",
           "two-tree (double binary tree) algorithms: reduction and broadcast at full bandwidth with log₂N latency",
           "双树（双二叉树）算法：以 log₂N 的延迟、满带宽完成归约与广播",
           "Two-tree algorithms for full bandwidth broadcast, reduction and scan, Parallel Computing 35(12), 2009"),
    Source("jeaugey2019", "Jeaugey 2019 (NVIDIA blog, NCCL 2.4)", "Jeaugey 2019（NVIDIA 博客，NCCL 2.4）",
           "NCCL's double binary trees: logarithmic latency for AllReduce at large scale, chosen over rings for "
           "small messages",
           "NCCL 的双二叉树：大规模 AllReduce 的对数级延迟，小消息时 NCCL 选它而不选环形",
           "Massively Scale Your Deep Learning Training with NCCL 2.4, NVIDIA Technical Blog, 2019"),
    Source("li2020", "Li et al. 2020 (PyTorch DDP)", "Li 等 2020（PyTorch DDP）",
           "PyTorch DistributedDataParallel: gradient bucketing and overlapping the AllReduce with the backward pass",
           "PyTorch DistributedDataParallel：梯度分桶，以及让 AllReduce 与反向传播重叠",
           "PyTorch Distributed: Experiences on Accelerating Data Parallel Training, VLDB 2020 (arXiv:2006.15704)"),
    Source("hoffmann2022", "Hoffmann et al. 2022 (Chinchilla)", "Hoffmann 等 2022（Chinchilla）",
           "compute-optimal training: parameters and tokens grow together, about 20 tokens per parameter",
           "计算最优训练：参数量与 token 数同步增长，约每个参数 20 个 token",
           "Training Compute-Optimal Large Language Models, NeurIPS 2022 (arXiv:2203.15556)"),
    Source("besiroglu2024", "Besiroglu et al. 2024 (Chinchilla replication)", "Besiroglu 等 2024（Chinchilla 复现）",
           "approach 3 refitted to Chinchilla's own data: E = 1.8172, A = 482.01, B = 2085.43, α = 0.3478, "
           "β = 0.3658, whose optimum is about 20 tokens per parameter",
           "用 Chinchilla 自己的数据重新拟合方法 3：E = 1.8172，A = 482.01，B = 2085.43，α = 0.3478，β = 0.3658，"
           "其最优点约为每参数 20 个 token",
           "Chinchilla Scaling: A replication attempt (arXiv:2404.10102)"),
    # ------------------------------------------------ who uses which convention (engine.formulas.conventions)
    Source("bekman_mle", "ML Engineering (Bekman)", "ML Engineering（Bekman）",
           "Stas Bekman's open book on training large models: 18 bytes per parameter of training state (fp32 "
           "gradients), a rough × 1.25 on top for activations and buffers, 8Φ per token with full recompute (HFU)",
           "Stas Bekman 关于大模型训练的开放书：训练状态每参数 18 字节（fp32 梯度），再粗略乘 1.25 计激活和缓冲区，"
           "完全重计算时每 token 8Φ（HFU）",
           "Stas Bekman, Machine Learning Engineering Open Book, github.com/stas00/ml-engineering"),
    Source("ultrascale2025", "Ultra-Scale Playbook (Hugging Face)", "Ultra-Scale Playbook（Hugging Face）",
           "Hugging Face's guide to training on GPU clusters: 20 bytes per parameter with an fp32 gradient-"
           "accumulation buffer, the five parallelisms and their memory",
           "Hugging Face 的 GPU 集群训练指南：带 fp32 梯度累积缓冲时每参数 20 字节，五种并行及其显存",
           "The Ultra-Scale Playbook: Training LLMs on GPU Clusters, Hugging Face 2025, "
           "huggingface.co/spaces/nanotron/ultrascale-playbook"),
    Source("megatron_distopt", "Megatron-LM distributed optimizer", "Megatron-LM 分布式优化器",
           "Megatron-LM's table of bytes per parameter under its distributed optimizer: which bytes stay on every "
           "data-parallel rank and which are sharded (18 → 6 + 12/d, 20 → 4 + 16/d)",
           "Megatron-LM 分布式优化器的每参数字节表：哪些字节每个数据并行 rank 都保留，哪些被切分"
           "（18 → 6 + 12/d，20 → 4 + 16/d）",
           "NVIDIA Megatron-LM documentation, Distributed Optimizer, "
           "github.com/NVIDIA/Megatron-LM/blob/main/docs/source/api-guide/dist_optimizer.md"),
    Source("huyen2024", "Huyen 2024 (AI Engineering)", "Huyen 2024（AI Engineering）",
           "a book on building applications with foundation models; its latency counts the time per output token "
           "for every output token (TTFT + n·TPOT)",
           "一本讲用基础模型构建应用的书；它的延迟按每个输出 token 都算一次 TPOT（TTFT + n·TPOT）",
           "Chip Huyen, AI Engineering: Building Applications with Foundation Models, O'Reilly 2024"),
    # ------------------------------------------------ the interview formulas
    Source("little1961", "Little 1961 (Little's law)", "Little 1961（Little 定律）",
           "the proof that the average number in a queueing system is the arrival rate times the average time spent",
           "证明排队系统中的平均数量等于到达率乘以平均停留时间",
           "J. D. C. Little, A Proof for the Queuing Formula L = λW, Operations Research 9(3), 1961"),
    Source("kleinrock1975", "Kleinrock 1975 (queueing: M/M/1, M/D/1)", "Kleinrock 1975（排队论：M/M/1、M/D/1）",
           "the standard text on queueing systems: utilisation, the M/M/1 waiting and response times and their "
           "exponential distribution, and the Pollaczek-Khinchine mean wait (half the M/M/1 wait for a fixed "
           "service time)",
           "排队系统的经典教材：利用率、M/M/1 的排队时间与响应时间及其指数分布，以及 Pollaczek-Khinchine 平均等待时间"
           "（服务时间固定时是 M/M/1 的一半）",
           "L. Kleinrock, Queueing Systems, Volume 1: Theory, Wiley 1975"),
    Source("kingman1961", "Kingman 1961 (G/G/1 heavy-traffic wait)", "Kingman 1961（G/G/1 重负载等待时间）",
           "the heavy-traffic approximation of the mean wait of a single-server queue with general arrivals and "
           "service: ρ / (1 − ρ) × (c_a² + c_s²) / 2 × E[S] (\"VUT\": variability, utilisation, time)",
           "一般到达、一般服务的单服务台队列平均等待时间的重负载近似：ρ / (1 − ρ) × (c_a² + c_s²) / 2 × E[S]"
           "（\"VUT\"：变异性、利用率、时间）",
           "J. F. C. Kingman, The single server queue in heavy traffic, Proc. Cambridge Philosophical Society 57(4), "
           "1961"),
    Source("dgx_guides", "NVIDIA DGX user guides (system power)", "NVIDIA DGX 用户指南（整机功率）",
           "the maximum power of a DGX system, the figure a power budget divides: DGX H100 10.2 kW, DGX B200 "
           "14.3 kW for 8 GPUs; GB300 NVL72 up to 142 kW for 72 (the enterprise reference architecture)",
           "DGX 整机的最大功率，也就是做功率预算时要除的数：DGX H100 为 10.2 kW，DGX B200 为 14.3 kW（8 张 GPU）；"
           "GB300 NVL72 最高 142 kW（72 张，企业参考架构）",
           "NVIDIA DGX H100 / B200 user guides; NVIDIA GB300 NVL72 enterprise reference architecture"),
    Source("green_grid_pue", "The Green Grid (PUE)", "The Green Grid（PUE）",
           "the definition of power usage effectiveness: total facility power over IT equipment power",
           "电能使用效率（PUE）的定义：机房总功率除以 IT 设备功率",
           "The Green Grid, PUE: a comprehensive examination of the metric; ISO/IEC 30134-2"),
    Source("tco_arithmetic", "TCO arithmetic (straight-line amortisation)", "TCO 算法（直线摊销）",
           "the cost of an owned GPU-hour: purchase spread evenly over the years of use and the utilised hours, plus "
           "the electricity drawn; interest, staff, space and network opex left out (fuller models add them)",
           "自有 GPU 每小时的成本：购置成本按使用年数和有效小时平均摊销，再加上耗电；不含利息、人员、场地和网络运维"
           "（更完整的模型会加上这些）",
           "standard total-cost-of-ownership arithmetic"),
    # optimizer state, kernels, checkpoint stalls, data pipeline, vision tokens, multi-LoRA, chunked prefill
    Source("loshchilov2019", "Loshchilov & Hutter 2019 (AdamW)", "Loshchilov 与 Hutter 2019（AdamW）",
           "Adam with decoupled weight decay: two states per parameter, the first and second moments m and v",
           "权重衰减解耦的 Adam：每个参数两个状态，一阶矩 m 和二阶矩 v",
           "Decoupled Weight Decay Regularization, ICLR 2019 (arXiv:1711.05101)"),
    Source("dettmers2022", "Dettmers et al. 2022 (8-bit optimizers)", "Dettmers 等 2022（8 位优化器）",
           "block-wise 8-bit optimizer states: m and v one byte each, one fp32 absmax per block of 2,048 values, "
           "75 % less state memory than fp32 Adam (bitsandbytes)",
           "分块 8 位优化器状态：m 和 v 各 1 字节，每 2,048 个值一个 fp32 absmax，状态显存比 fp32 Adam 少 75%（bitsandbytes）",
           "8-bit Optimizers via Block-wise Quantization, ICLR 2022 (arXiv:2110.02861)"),
    Source("lion2023", "Chen et al. 2023 (Lion)", "Chen 等 2023（Lion）",
           "the Lion optimizer, found by program search: one momentum buffer per parameter and a sign update",
           "程序搜索得到的 Lion 优化器：每个参数一个动量缓冲区，按符号更新",
           "Symbolic Discovery of Optimization Algorithms, NeurIPS 2023 (arXiv:2302.06675)"),
    Source("jordan2024", "Jordan et al. 2024 (Muon)", "Jordan 等 2024（Muon）",
           "Muon: momentum orthogonalised by Newton-Schulz iterations, for the 2-D weight matrices; one momentum "
           "buffer each, embeddings and the output head left to AdamW",
           "Muon：用 Newton-Schulz 迭代把动量正交化，用于二维权重矩阵；每个一个动量缓冲区，词嵌入和输出头仍用 AdamW",
           "K. Jordan et al., Muon: an optimizer for hidden layers in neural networks (blog post, 2024)"),
    Source("shazeer2018", "Shazeer & Stern 2018 (Adafactor)", "Shazeer 与 Stern 2018（Adafactor）",
           "Adafactor: the second moment of an n × m matrix kept as its row and column sums (n + m values), and "
           "no first moment by default",
           "Adafactor：n × m 矩阵的二阶矩只保存行和与列和（n + m 个值），默认不保存一阶矩",
           "Adafactor: Adaptive Learning Rates with Sublinear Memory Cost, ICML 2018 (arXiv:1804.04235)"),
    Source("nvidia_mm_guide", "NVIDIA Matrix Multiplication Background guide", "NVIDIA 矩阵乘法背景指南",
           "how a GEMM is tiled across thread blocks, the tile's arithmetic intensity, and wave quantization: "
           "tiles run in waves of one per SM, and the last wave may leave SMs idle",
           "GEMM 如何按线程块分块、分块的算术强度，以及波次量化：分块按每个 SM 一个的波次执行，最后一波可能让 SM 空闲",
           "NVIDIA Deep Learning Performance documentation, Matrix Multiplication Background User's Guide"),
    Source("cutlass_pipelines", "CUTLASS multistage pipelines", "CUTLASS 多级流水线",
           "a GEMM kernel keeps several A and B K-slices in shared memory at once so loads overlap the math; the "
           "stages times the slices must fit the per-block shared-memory limit",
           "GEMM kernel 在共享内存中同时保留多份 A、B 的 K 切片，让加载和计算重叠；级数乘切片大小必须放得进每个线程块的共享内存上限",
           "NVIDIA CUTLASS documentation (efficient GEMM, multistage pipelines)"),
    Source("pytorch_dcp", "PyTorch Distributed Checkpoint (async_save)", "PyTorch 分布式检查点（async_save）",
           "asynchronous checkpointing: each rank stages a copy of its state dict in CPU memory, then training "
           "resumes while the copy is written to storage",
           "异步检查点：每个 rank 先把自己的 state dict 复制到 CPU 内存，然后训练继续，副本在后台写入存储",
           "PyTorch documentation, torch.distributed.checkpoint.async_save"),
    Source("megatron_indexed", "Megatron-LM indexed datasets", "Megatron-LM 索引数据集",
           "pre-tokenised training data stored as token ids: uint16 while the vocabulary fits 65,536 ids, a wider "
           "integer above",
           "以 token id 存储的预分词训练数据：词表不超过 65,536 时用 uint16，更大时用更宽的整数",
           "Megatron-LM, megatron/core/datasets/indexed_dataset.py"),
    Source("dosovitskiy2021", "Dosovitskiy et al. 2021 (ViT)", "Dosovitskiy 等 2021（ViT）",
           "the vision transformer: an image cut into p × p patches, one token each",
           "视觉 Transformer：把图像切成 p × p 的 patch，每个一个 token",
           "An Image is Worth 16x16 Words, ICLR 2021 (arXiv:2010.11929)"),
    Source("wang2024", "Wang et al. 2024 (Qwen2-VL)", "Wang 等 2024（Qwen2-VL）",
           "Qwen2-VL: naive dynamic resolution, 14-px patches, 2 × 2 neighbouring patches merged into one token "
           "(224 × 224 gives 64 tokens plus 2 special tokens)",
           "Qwen2-VL：原生动态分辨率，14 像素的 patch，相邻 2 × 2 个 patch 合并成一个 token（224 × 224 得 64 个 token，"
           "另加 2 个特殊 token）",
           "Qwen2-VL: Enhancing Vision-Language Model's Perception of the World at Any Resolution (arXiv:2409.12191)"),
    Source("punica2023", "Chen et al. 2023 (Punica)", "Chen 等 2023（Punica）",
           "serving many LoRA adapters on one base model: a batch mixing adapters runs one SGMV kernel that reads "
           "each distinct adapter once",
           "在一个基座模型上服务多个 LoRA 适配器：混合适配器的 batch 用一个 SGMV kernel，每个不同的适配器只读一次",
           "Punica: Multi-Tenant LoRA Serving (arXiv:2310.18547)"),
    Source("slora2023", "Sheng et al. 2023 (S-LoRA)", "Sheng 等 2023（S-LoRA）",
           "thousands of LoRA adapters served together: adapters and the KV cache share one paged memory pool",
           "同时服务数千个 LoRA 适配器：适配器和 KV Cache 共用一个分页显存池",
           "S-LoRA: Serving Thousands of Concurrent LoRA Adapters (arXiv:2311.03285)"),
    Source("agrawal2024", "Agrawal et al. 2024 (Sarathi-Serve)", "Agrawal 等 2024（Sarathi-Serve）",
           "chunked prefill with stall-free batching: each iteration runs the running decodes plus a prefill chunk "
           "within a token budget chosen from the time-between-tokens SLO; T = max(T_math, T_mem)",
           "分块 prefill 与无停顿批处理：每次迭代运行所有 decode 加一个 prefill 块，token 预算按 token 间隔 SLO 选定；"
           "T = max(T_math, T_mem)",
           "Taming Throughput-Latency Tradeoff in LLM Inference with Sarathi-Serve, OSDI 2024 (arXiv:2403.02310)"),
    Source("ocp_mx", "OCP Microscaling (MX) v1.0", "OCP 微缩放（MX）格式 v1.0",
           "MX formats: blocks of 32 values sharing one 8-bit power-of-two (E8M0) scale; MXFP4 is 4.25 bits per "
           "weight, MXFP8 8.25",
           "MX 格式：每 32 个值共享一个 8 位 2 的幂（E8M0）缩放因子；MXFP4 每个权重 4.25 位，MXFP8 为 8.25 位",
           "Open Compute Project, OCP Microscaling Formats (MX) Specification v1.0, 2023"),
    Source("nvfp4", "NVIDIA NVFP4", "NVIDIA NVFP4",
           "NVFP4: blocks of 16 FP4 values sharing one E4M3 scale, plus one fp32 scale per tensor: 4.5 bits per weight",
           "NVFP4：每 16 个 FP4 值共享一个 E4M3 缩放因子，每个张量另有一个 fp32 缩放因子：每个权重 4.5 位",
           "NVIDIA technical blog, Introducing NVFP4 for efficient and accurate low-precision inference (2025)"),
    Source("vllm_metrics", "vLLM serving metrics", "vLLM 服务指标",
           "how a serving benchmark measures time to first token (TTFT) and time per output token (TPOT)",
           "服务基准如何度量首 token 延迟（TTFT）和每个输出 token 的时间（TPOT）",
           "vLLM documentation, benchmarks and metrics (docs.vllm.ai)"),
    Source("databricks2023", "Databricks 2023 (LLM inference performance engineering)",
           "Databricks 2023（LLM 推理性能工程）",
           "serving arithmetic: TTFT, TPOT, throughput, model bandwidth utilisation (MBU) and cost per token",
           "服务的基本算术：TTFT、TPOT、吞吐、模型带宽利用率（MBU）与每 token 成本",
           "LLM Inference Performance Engineering: Best Practices, Databricks blog, October 2023"),
    Source("llama3_2024", "Llama 3 report 2024", "Llama 3 报告 2024",
           "training at 16k H100s: GPU-hours, 419 interruptions in 54 days, checkpointing and effective training time",
           "在 1.6 万张 H100 上训练：GPU 小时数、54 天内 419 次中断、检查点与有效训练时间",
           "The Llama 3 Herd of Models (arXiv:2407.21783), §3.3.4 reliability"),
    Source("patterson2021", "Patterson et al. 2021", "Patterson 等 2021",
           "the energy and carbon of training large models: GPU-hours × power × PUE",
           "训练大模型的能耗与碳排放：GPU 小时数 × 功率 × PUE",
           "Carbon Emissions and Large Neural Network Training (arXiv:2104.10350)"),
    Source("hu2021", "Hu et al. 2021 (LoRA)", "Hu 等 2021（LoRA）",
           "low-rank adaptation: train B·A of rank r beside each frozen weight matrix",
           "低秩适配：在每个冻结的权重矩阵旁训练秩为 r 的 B·A",
           "LoRA: Low-Rank Adaptation of Large Language Models, ICLR 2022 (arXiv:2106.09685)"),
    Source("dettmers2023", "Dettmers et al. 2023 (QLoRA)", "Dettmers 等 2023（QLoRA）",
           "LoRA on a 4-bit NF4 base with double-quantised constants (4.127 bits per weight): 65B on one 48 GB GPU",
           "在 4 比特 NF4 基座上做 LoRA，块常数再做双重量化（每权重 4.127 比特）：一张 48 GB 的卡微调 65B",
           "QLoRA: Efficient Finetuning of Quantized LLMs, NeurIPS 2023 (arXiv:2305.14314)"),
    Source("ouyang2022", "Ouyang et al. 2022 (InstructGPT)", "Ouyang 等 2022（InstructGPT）",
           "RLHF with PPO: a policy, a value model, a frozen reference and a reward model",
           "用 PPO 做 RLHF：策略模型、价值模型、冻结的参考模型和奖励模型",
           "Training language models to follow instructions with human feedback, NeurIPS 2022 (arXiv:2203.02155)"),
    Source("shao2024", "Shao et al. 2024 (DeepSeekMath, GRPO)", "Shao 等 2024（DeepSeekMath，GRPO）",
           "group relative policy optimisation: a group of sampled answers replaces PPO's value model",
           "组相对策略优化：用一组采样回答取代 PPO 的价值模型",
           "DeepSeekMath: Pushing the Limits of Mathematical Reasoning in Open Language Models (arXiv:2402.03300)"),
    Source("young1974", "Young 1974", "Young 1974",
           "the first-order optimum checkpoint interval √(2·δ·M)", "一阶最优检查点间隔 √(2·δ·M)",
           "J. W. Young, A first order approximation to the optimum checkpoint interval, CACM 17(9), 1974"),
    Source("daly2006", "Daly 2006", "Daly 2006",
           "a higher-order checkpoint interval that counts the restart time",
           "计入重启时间的高阶检查点间隔",
           "J. T. Daly, A higher order estimate of the optimum checkpoint interval for restart dumps, FGCS 22(3), 2006"),
    Source("zhong2024", "Zhong et al. 2024 (DistServe)", "Zhong 等 2024（DistServe）",
           "disaggregated prefill and decode: each pool sized for its own latency target (TTFT, TPOT)",
           "prefill 与 decode 分离：每个池按各自的延迟目标（TTFT、TPOT）定规模",
           "DistServe: Disaggregating Prefill and Decoding for Goodput-optimized LLM Serving, OSDI 2024"),
    Source("patel2024", "Patel et al. 2024 (Splitwise)", "Patel 等 2024（Splitwise）",
           "prefill and decode on separate machines, with the KV cache sent between them",
           "prefill 和 decode 放在不同机器上，KV Cache 在两者之间传输",
           "Splitwise: Efficient Generative LLM Inference Using Phase Splitting, ISCA 2024"),
    Source("zheng2024", "Zheng et al. 2024 (SGLang)", "Zheng 等 2024（SGLang）",
           "RadixAttention: reusing the KV cache of shared prompt prefixes across requests",
           "RadixAttention：跨请求复用共享 prompt 前缀的 KV Cache",
           "SGLang: Efficient Execution of Structured Language Model Programs (arXiv:2312.07104)"),
    Source("sheng2023", "Sheng et al. 2023 (FlexGen)", "Sheng 等 2023（FlexGen）",
           "offloading weights and the KV cache to CPU memory and disk, bounded by the PCIe link",
           "把权重和 KV Cache 卸载到 CPU 内存和磁盘，受 PCIe 链路限制",
           "FlexGen: High-Throughput Generative Inference of Large Language Models with a Single GPU, ICML 2023"),
    Source("liu2023", "Liu et al. 2023 (Ring Attention)", "Liu 等 2023（Ring Attention）",
           "context parallelism: K and V blocks passed around a ring of GPUs, overlapped with blockwise attention",
           "上下文并行：K、V 分块沿 GPU 组成的环传递，与分块注意力计算重叠",
           "Ring Attention with Blockwise Transformers for Near-Infinite Context (arXiv:2310.01889)"),
    Source("jacobs2023", "Jacobs et al. 2023 (DeepSpeed-Ulysses)", "Jacobs 等 2023（DeepSpeed-Ulysses）",
           "sequence parallelism by all-to-all: split the sequence, then the heads, for attention",
           "通过 All-to-All 做序列并行：先按序列切分，注意力时改为按头切分",
           "DeepSpeed Ulysses: System Optimizations for Enabling Training of Extreme Long Sequence Transformer "
           "Models (arXiv:2309.14509)"),
    Source("jiang2023", "Jiang et al. 2023 (Mistral 7B)", "Jiang 等 2023（Mistral 7B）",
           "sliding-window attention with a rolling KV cache of 4096 tokens",
           "滑动窗口注意力，KV Cache 为 4096 个 token 的滚动缓冲区",
           "Mistral 7B (arXiv:2310.06825)"),
    Source("wijmans2024", "Wijmans et al. 2024 (Cut Your Losses)", "Wijmans 等 2024（Cut Your Losses）",
           "the logits of large vocabularies dominate training memory; computing the loss without storing them",
           "大词表的 logits 主导训练显存；不存储 logits 也能算出损失",
           "Cut Your Losses in Large-Vocabulary Language Models (arXiv:2411.09009)"),
    Source("qi2023", "Qi et al. 2023 (Zero Bubble)", "Qi 等 2023（零气泡流水线）",
           "splitting the backward into input and weight gradients to fill the pipeline bubble (ZB-H1, ZB1P)",
           "把反向拆成输入梯度和权重梯度来填满流水线气泡（ZB-H1、ZB1P）",
           "Zero Bubble Pipeline Parallelism, ICLR 2024 (arXiv:2401.10241)"),
    Source("alfares2008", "Al-Fares et al. 2008", "Al-Fares 等 2008",
           "the k-ary fat tree of commodity switches: k³/4 hosts at full bisection bandwidth",
           "用普通交换机搭建的 k 叉胖树：满对分带宽下 k³/4 台主机",
           "A Scalable, Commodity Data Center Network Architecture, SIGCOMM 2008"),
    Source("zhao2025", "Zhao et al. 2025 (Insights into DeepSeek-V3)", "Zhao 等 2025（DeepSeek-V3 硬件思考）",
           "DeepSeek-V3's multi-plane two-tier fat tree: 8 planes of 64-port 400G InfiniBand switches, each GPU's NIC "
           "on its own plane, 2,048 GPUs per plane × 8 = 16,384 GPUs",
           "DeepSeek-V3 的多平面两层胖树：8 个平面，每个平面由 64 口 400G InfiniBand 交换机组成，每张 GPU 的网卡接入各自的平面，"
           "每个平面 2,048 张 GPU × 8 = 16,384 张 GPU",
           "Insights into DeepSeek-V3: Scaling Challenges and Reflections on Hardware for AI Architectures, ISCA 2025 "
           "(arXiv:2505.09343)"),
    Source("sergeev2018", "Sergeev & Del Balso 2018 (Horovod)", "Sergeev 与 Del Balso 2018（Horovod）",
           "ring all-reduce for data parallelism, and its hierarchical (in node, then across nodes) variant",
           "用于数据并行的 Ring AllReduce，以及先节点内、再跨节点的分层变体",
           "Horovod: fast and easy distributed deep learning in TensorFlow (arXiv:1802.05799)"),
    Source("mccandlish2018", "McCandlish et al. 2018", "McCandlish 等 2018",
           "the gradient-noise critical batch size: beyond it a larger batch stops saving optimisation steps (a "
           "different quantity from the hardware critical batch)",
           "梯度噪声临界批大小：超过它，更大的批不再减少优化步数（与硬件的临界批大小是两回事）",
           "An Empirical Model of Large-Batch Training (arXiv:1812.06162)"),
    # ---------------------------------------------------------------- part 4: RL weight sync, MoE at scale, TP decode, FSDP
    Source("perplexity2025", "Perplexity 2025 (RL weight transfer)", "Perplexity 2025（RL 权重传输）",
           "trainer-to-rollout weight sync in 1.3 s for Kimi-K2 (1T): 256 bf16 training GPUs write 128 fp8 inference "
           "GPUs point-to-point with RDMA WRITE, quantising while sending (only the totals are published)",
           "Kimi-K2（1T）训练端到 rollout 的权重同步只需 1.3 秒：256 张 bf16 训练卡用 RDMA WRITE 点对点写入 128 张 fp8 "
           "推理卡，边量化边发送（只公布了总数）",
           "Perplexity research blog, weight transfer for RL post-training, September 2025"),
    Source("kimi_checkpoint_engine", "Moonshot AI checkpoint-engine", "Moonshot AI checkpoint-engine",
           "in-place weight update of inference engines: about 20 s for a 1T model across thousands of GPUs, by "
           "broadcast (or point-to-point)", "推理引擎的原地权重更新：1T 模型在数千张 GPU 上约 20 秒，采用广播（或点对点）",
           "MoonshotAI/checkpoint-engine README (GitHub, PyPI)"),
    Source("noukhovitch2024", "Noukhovitch et al. 2024 (Asynchronous RLHF)", "Noukhovitch 等 2024（异步 RLHF）",
           "generation and training overlapped on separate GPUs, the samples one policy step off",
           "生成和训练在不同的 GPU 上重叠进行，样本落后一个策略版本",
           "Asynchronous RLHF: Faster and More Efficient Off-Policy RL for Language Models, ICLR 2025 "
           "(arXiv:2410.18252)"),
    Source("sheng2024", "Sheng et al. 2024 (HybridFlow / verl)", "Sheng 等 2024（HybridFlow / verl）",
           "RLHF with rollout and training colocated on the same GPUs, resharding the weights between the phases",
           "rollout 和训练共置在同一批 GPU 上，两个阶段之间重新切分权重",
           "HybridFlow: A Flexible and Efficient RLHF Framework, EuroSys 2025 (arXiv:2409.19256)"),
    Source("fu2025", "Fu et al. 2025 (AReaL)", "Fu 等 2025（AReaL）",
           "fully asynchronous RL: rollouts run ahead of the trainer, bounded by a maximum staleness "
           "(max_head_offpolicyness)", "完全异步的强化学习：rollout 跑在训练之前，由最大陈旧度（max_head_offpolicyness）限制",
           "AReaL: A Large-Scale Asynchronous Reinforcement Learning System for Language Reasoning (arXiv:2505.24298)"),
    Source("deepep", "DeepEP (DeepSeek)", "DeepEP（DeepSeek）",
           "expert-parallel all-to-all kernels: FP8 dispatch, BF16 combine, 7168 hidden, top-8; low-latency decode "
           "kernels (128 tokens, EP8: dispatch 77 µs, combine 114 µs); its \"logical bandwidth\" counts local-rank "
           "traffic", "专家并行的 All-to-All 内核：FP8 分发、BF16 合并，隐藏维度 7168、top-8；低延迟 decode 内核"
           "（128 个 token、EP8：分发 77 µs、合并 114 µs）；其“逻辑带宽”包含本卡流量",
           "deepseek-ai/DeepEP README and docs/legacy.md (GitHub)"),
    Source("trtllm_allreduce", "TensorRT-LLM custom all-reduce and NCCL NVLS", "TensorRT-LLM 自定义 AllReduce 与 NCCL NVLS",
           "small-message all-reduce in one shot (each GPU reads the others' buffers) or reduced in the NVSwitch "
           "(NVLink SHARP): two latencies instead of a ring's 2(n−1)",
           "小消息 AllReduce 一步完成（每张卡直接读其他卡的缓冲区）或在 NVSwitch 里归约（NVLink SHARP）："
           "只有两次延迟，而不是环形的 2(n−1) 次",
           "NVIDIA TensorRT-LLM documentation; NCCL release notes (NVLS)"),
    Source("zhao2023", "Zhao et al. 2023 (PyTorch FSDP)", "Zhao 等 2023（PyTorch FSDP）",
           "fully sharded data parallel and hybrid sharding: FSDP inside a shard group, all-reduce across its replicas",
           "全分片数据并行与混合分片：分片组内做 FSDP，组的副本之间做 AllReduce",
           "PyTorch FSDP: Experiences on Scaling Fully Sharded Data Parallel, VLDB 2023 (arXiv:2304.11277)"),
)}

# Sections of the two articles: the seed code's section -> (English name, Chinese name).
SECTIONS: dict[str, dict[str, tuple[str, str]]] = {
    "R": {
        "1": ("what the interviewer is asking", "面试官到底在问什么"),
        "2": ("compute, bandwidth and intensity", "算力、带宽与算术强度"),
        "2.1": ("peak compute", "算力峰值"),
        "2.2": ("memory bandwidth", "显存带宽"),
        "2.3": ("arithmetic intensity", "算术强度"),
        "3": ("the roofline model", "Roofline 模型"),
        "3.1": ("the two roofs", "屋顶线的两条边"),
        "3.2": ("the ridge point", "拐点怎么算"),
        "3.3": ("why real kernels stay below the roof", "实际性能为何低于屋顶线"),
        "4": ("real operators on the roofline", "真实算子套一遍"),
        "4.1": ("large GEMMs", "大矩阵乘法"),
        "4.2": ("LayerNorm and Softmax", "LayerNorm 与 Softmax"),
        "4.3": ("attention", "Attention"),
        "4.4": ("common operators and their bottlenecks", "常见算子的瓶颈归属"),
        "5": ("the interview follow-up chain", "面试追问链路"),
        "5.1": ("memory- or compute-bound?", "算力受限还是访存受限"),
        "5.2": ("what to do when bandwidth is short", "带宽不够的优化手段"),
        "5.3": ("why the peak is never reached", "为什么跑不到峰值"),
        "5.4": ("capacity planning", "容量规划"),
        "6": ("pitfalls", "认知误区"),
        "6.1": ("nominal vs usable FLOP/s", "标称算力不等于可用算力"),
        "6.2": ("find the bottleneck first", "先定位瓶颈"),
        "6.3": ("work it out, don't recite", "算一遍胜过背结论"),
        "6.4": ("orders of magnitude", "记住数量级"),
    },
    "C": {
        "1": ("training memory", "显存账本"),
        "1.1": ("static memory", "静态显存"),
        "1.2": ("ZeRO sharding", "ZeRO 显存切分"),
        "1.3": ("activation memory", "激活显存"),
        "2": ("communication volume", "通信量"),
        "3": ("MFU and HFU", "MFU 与 HFU"),
        "3.1": ("FLOPs per token", "每 token 浮点运算量"),
        "3.2": ("MFU and HFU", "MFU 与 HFU"),
        "4": ("inference and KV cache", "推理与 KV Cache"),
        "4.1": ("KV cache size", "KV Cache 显存"),
        "4.2": ("prefill and decode bounds", "Prefill 与 Decode 的瓶颈"),
        "5": ("roofline", "Roofline"),
        "5.1": ("arithmetic intensity", "算术强度"),
        "5.2": ("ridge points of real GPUs", "硬件拐点"),
        "6": ("pipeline bubbles", "流水线气泡"),
        "6.1": ("1F1B bubble", "1F1B 气泡率"),
        "6.2": ("interleaved 1F1B", "交错式 1F1B"),
        "6.3": ("uneven stages", "非均质流水线"),
    },
}
_CODE = re.compile(r"([RC])§(\d+(?:\.\d+)?)")
_KEYLIKE = re.compile(r"[a-z]+\d{4}|[a-z]+(?:_[a-z0-9]+)+")  # williams2009, gpu_datasheets
# internal notes that are not a source (formulas the bank added from standard knowledge)
_NOT_A_SOURCE = ("beyond the seeds", "added by")


def section(code: str, lang: str = EN) -> str:
    """``R§5.4`` -> ``roofline article, §5.4 capacity planning`` (``C§1.2``: module 1.2 of the cheat-sheet)."""
    m = _CODE.fullmatch(code.strip())
    if not m:
        raise KeyError(f"not a seed section code: {code!r}")
    doc, num = m.groups()
    en, zh = SECTIONS[doc][num]
    src = SOURCES[ROOFLINE_ARTICLE if doc == "R" else CHEAT_SHEET]
    if doc == "R":
        return Twin(f"{src.en}, §{num} {en}", f"{src.zh} §{num}「{zh}」").text(lang)
    return Twin(f"{src.en}, module {num} ({en})", f"{src.zh}，模块 {num}「{zh}」").text(lang)


def _is_key(part: str) -> bool:
    return bool(_CODE.fullmatch(part)) or part in SOURCES or any(part.startswith(n) for n in _NOT_A_SOURCE)


def keys(citation: str) -> list[str]:
    """The codes and keys of a citation text, in order, without repeats (notes dropped).

    A citation that is not a list of codes and keys is free text naming its source already
    ("Shazeer et al. 2017, 'Outrageously Large Neural Networks'"): it is one item, itself.
    """
    parts = [p.strip() for p in re.split(r"[,;]", citation) if p.strip()]
    typos = [p for p in parts if _KEYLIKE.fullmatch(p) and p not in SOURCES]
    if typos:  # a typo in a key must not pass silently as free text
        raise KeyError(f"unknown source key {typos[0]!r} (engine/sources.py)")
    if not all(_is_key(p) for p in parts):
        return [citation.strip()] if citation.strip() else []
    out: list[str] = []
    for part in parts:
        if any(part.startswith(n) for n in _NOT_A_SOURCE):
            continue
        if part not in out:
            out.append(part)
    return out


def name(key: str, lang: str = EN) -> str:
    """One code or key, readable; free text as it is, any seed code in it spelled out."""
    if _CODE.fullmatch(key):
        return section(key, lang)
    if key in SOURCES:
        return SOURCES[key].name(lang)
    return _CODE.sub(lambda m: section(m.group(0), lang), key)


def cite(*citations: str, lang: str = EN) -> str:
    """Readable sources of one or more citation texts: ``roofline article, §3.2 the ridge point; ...``."""
    seen: list[str] = []
    for c in citations:
        for k in keys(c or ""):
            if k not in seen:
                seen.append(k)
    # a key that a free-text citation already names ("Korthikanti et al. 2022, '…', Table 2") is not repeated
    free = [k for k in seen if k not in SOURCES and not _CODE.fullmatch(k)]
    seen = [k for k in seen if not (k in SOURCES and any(SOURCES[k].en in f for f in free))]
    return Twin("; ", "；").text(lang).join(name(k, lang) for k in seen)


def listing(lang: str = EN) -> list[tuple[str, str, str]]:
    """Every source once: (readable name, what it is, where to find it)."""
    return [(s.name(lang), s.about(lang), s.where) for s in SOURCES.values()]
