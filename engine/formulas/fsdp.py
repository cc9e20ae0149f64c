"""Fully sharded and hybrid-sharded data parallelism: the per-GPU batch above which FSDP's traffic hides behind
compute, and the bytes one GPU sends per step when it shards within a group and replicates across groups (HSDP).

"What per-GPU batch hides FSDP's traffic? Shard within a node or across 2?"  link_bandwidth is one GPU's
one-way bandwidth on the links the shard group uses (NVLink inside a node, its NIC across nodes).
"""

from __future__ import annotations

from .core import Formula, Misconception, Part
from .inputs import BYTES_PER_VALUE, FSDP_BYTES, LINK_BW, MFU, N_RANKS, PEAK, PHI, SHARD_REPLICAS, SHARD_SIZE
from .registry import register

register(
    Formula("fsdp_min_tokens_per_gpu", (PEAK, MFU, LINK_BW, N_RANKS, FSDP_BYTES),
            "bytes_per_param*(n-1)/n*peak_flops*mfu/(2*link_bandwidth)", "count",
            "tokens per GPU per step above which a layer's compute (6 Φ_l per token) hides its FSDP traffic: "
            "all-gather (forward), all-gather again (backward) and reduce-scatter (3 (n−1)/n Φ_l bytes), perfect "
            "overlap", "austin2025, zhao2023",
            (Misconception("one_allgather", "counted one all-gather (forgot the backward pass gathers the weights again)",
                           "2/3*bytes_per_param*(n-1)/n*peak_flops*mfu/(2*link_bandwidth)",
                           "只算了一次 AllGather（忘了反向时要再 AllGather 一次权重）"),),
            "T_min",
            refs="rajbhandari2020",
            decomposition=("compute of a layer: 6 Φ_l × T FLOPs at F_peak × MFU; its traffic: 3 (n−1)/n × Φ_l × bytes "
                           "at W_link; Φ_l cancels: T > bytes × (n−1)/n × F_peak × MFU / (2 W_link)",),
            decomposition_zh=("一层的计算：6 Φ_l × T FLOPs，算力 F_peak × MFU；它的通信：3 (n−1)/n × Φ_l × 字节数，"
                              "带宽 W_link；Φ_l 约掉：T > bytes × (n−1)/n × F_peak × MFU / (2 W_link)",),
            parts=(Part("rate", "F·MFU / W", "peak_flops*mfu/link_bandwidth", "count",
                        "FLOPs done per byte the link moves", "链路每搬一个字节期间完成的 FLOPs"),),
            via="bytes_per_param*(n-1)/n*rate/2",
            takeaway="FSDP hides its traffic from about {result} tokens per GPU per step: across nodes (50 GB/s) that "
                     "is ~10k tokens, inside NVLink ~1k, which is why large FSDP groups stay inside a fast domain.",
            takeaway_zh="每卡每步约 {result} 个 token 以上，FSDP 的通信才能被计算藏住：跨节点（50 GB/s）约 1 万个 token，"
                        "NVLink 内约 1 千个，所以大的 FSDP 组要放在高速域里。",
            example={"peak_flops": 989e12, "mfu": 0.5, "link_bandwidth": 50e9, "n": 64, "bytes_per_param": 2},
            meaning_zh="每卡每步的 token 数下限：超过它，一层的计算（每 token 6 Φ_l）就能藏住它的 FSDP 通信：前向 AllGather、"
                       "反向再 AllGather、ReduceScatter（3 (n−1)/n Φ_l 字节），假设完全重叠"),
    Formula("hsdp_comm_bytes", (PHI, BYTES_PER_VALUE, SHARD_SIZE, SHARD_REPLICAS),
            "3*(shard_size-1)/shard_size*phi*bytes_per_param + 2*(replicas-1)/replicas*phi*bytes_per_param/shard_size",
            "bytes",
            "bytes one GPU sends per step under hybrid sharding: FSDP inside a shard group of s GPUs, plus an "
            "all-reduce of its 1/s gradient shard across the r replicas of the group", "zhao2023",
            (Misconception("full_gradient", "all-reduced the full gradient across the replicas (only the 1/s shard "
                           "is)", "3*(shard_size-1)/shard_size*phi*bytes_per_param + "
                           "2*(replicas-1)/replicas*phi*bytes_per_param", "在副本之间 AllReduce 了完整梯度（其实只有 1/s 分片）"),),
            "V_HSDP",
            refs="rajbhandari2020",
            decomposition=("inside the group: all-gather, all-gather, reduce-scatter of the full model, 3 (s−1)/s × "
                           "Φ × bytes; across the r replicas: a ring all-reduce of this GPU's 1/s gradient shard, "
                           "2 (r−1)/r × Φ × bytes / s",),
            decomposition_zh=("组内：对整个模型做 AllGather、AllGather、ReduceScatter，3 (s−1)/s × Φ × 字节数；"
                              "r 个副本之间：对本卡 1/s 的梯度分片做环形 AllReduce，2 (r−1)/r × Φ × 字节数 / s",),
            parts=(Part("shard", "V_shard", "3*(shard_size-1)/shard_size*phi*bytes_per_param", "bytes",
                        "FSDP inside the shard group", "分片组内的 FSDP"),
                   Part("replica", "V_replica", "2*(replicas-1)/replicas*phi*bytes_per_param/shard_size", "bytes",
                        "all-reduce of the gradient shard across replicas", "副本之间对梯度分片做 AllReduce")),
            via="shard + replica",
            takeaway="each GPU sends {shard} inside its group but only {replica} across groups: HSDP keeps the heavy "
                     "traffic on NVLink and sends only 1/s of the gradients over the slower network.",
            takeaway_zh="每张卡在组内发 {shard}，跨组只发 {replica}：HSDP 把重的通信留在 NVLink 上，"
                        "只有 1/s 的梯度走较慢的网络。",
            example={"phi": 70e9, "bytes_per_param": 2, "shard_size": 8, "replicas": 64},
            meaning_zh="混合分片下每张卡每步发送的字节数：s 张卡的分片组内做 FSDP，再在组的 r 个副本之间对本卡 1/s 的梯度分片做 "
                       "AllReduce", per_device=True),
)
