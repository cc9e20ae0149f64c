"""The network fabric: how many hosts a fat tree of a given switch radix connects, its bisection
bandwidth with oversubscription, a two-level (hierarchical) all-reduce against a flat ring, and the
per-device batch above which data-parallel gradient traffic hides behind compute.

Cluster questions beyond one collective: the topology sets what bandwidth a job can count on, and the
batch sets whether it needs it.
"""

from __future__ import annotations

from .core import Formula, Misconception, Part
from .inputs import (
    BETA,
    DIRECTIONS,
    GPUS_PER_NODE,
    GRAD_BYTES,
    INTER_BW,
    INTRA_BW,
    MESSAGE_BYTES,
    N_HOSTS,
    N_NODES,
    NIC_SHARE,
    NVLINK_NODE_GPUS,
    OVERLAP,
    OVERSUB,
    PEAK,
    PLANES,
    RADIX,
    TIERS,
)
from .registry import register

LINK = BETA.as_("link_bandwidth", "BW_link")

register(
    Formula("fat_tree_hosts", (RADIX, TIERS, PLANES), "2*(radix/2)^tiers*planes", "count",
            "hosts a non-blocking fat tree of k-port switches connects: 2·(k/2)^tiers (k²/2 with two tiers, k³/4 "
            "with three), × the planes when each host sits on one of several separate planes", "alfares2008, zhao2025",
            (Misconception("all_ports_down", "let every port face down (k^tiers): half of each switch's ports go up",
                           "radix^tiers*planes", "让每个端口都朝下（k^tiers）：每台交换机有一半端口要朝上"),
             Misconception("no_two", "left out the factor 2 ((k/2)^tiers): the top tier's ports all face down",
                           "(radix/2)^tiers*planes", "漏了因子 2（(k/2)^tiers）：最顶层交换机的端口全部朝下"),
             Misconception("one_plane", "counted one plane only: each of the separate planes is a fat tree of its own "
                           "hosts", "2*(radix/2)^tiers", "只算了一个平面：每个独立的网络平面都是一棵接着自己那批主机的胖树")),
            "N_hosts",
            decomposition=("a non-blocking switch below the top gives half its k ports to hosts or the tier below and half "
                           "to the tier above; each tier multiplies the reach by k/2, and the top tier, with no tier "
                           "above, uses all k: 2·(k/2)^tiers; a multi-plane fabric is that many separate fat trees, "
                           "each host (a GPU's NIC) on one of them: × planes",),
            decomposition_zh=("顶层以下的无阻塞交换机把 k 个端口一半给主机或下一层、一半给上一层；每加一层覆盖范围乘 k/2，"
                              "顶层没有上一层，k 个端口全部朝下：2·(k/2)^tiers；多平面网络就是这么多棵互相独立的胖树，"
                              "每台主机（一张 GPU 的网卡）只接入其中一棵：× 平面数",),
            simplification=("two tiers: k²/2 (64-port switches: 2,048 hosts); three tiers: k³/4 (65,536 hosts); "
                            "DeepSeek-V3's 8 planes of two-tier 64-port trees: 8 × 2,048 = 16,384 GPUs",),
            simplification_zh=("两层：k²/2（64 口交换机：2,048 台主机）；三层：k³/4（65,536 台主机）；DeepSeek-V3 的 8 个平面、"
                               "每个平面一棵 64 口两层胖树：8 × 2,048 = 16,384 张 GPU",),
            takeaway="the radix, not the switch speed, sets how far a non-blocking fabric scales: one more tier "
                     "multiplies the hosts by k/2 and adds two switch hops; separate planes multiply them without the "
                     "extra hops.",
            takeaway_zh="决定无阻塞网络能扩展多大的是端口数而不是交换机速度：多一层，主机数乘 k/2，同时多两跳交换；"
                        "多个独立平面也能成倍增加主机数，却不多加跳数。",
            example={"radix": 64, "tiers": 3},
            meaning_zh="k 口交换机组成的无阻塞胖树能连接的主机数：2·(k/2)^tiers（两层 k²/2，三层 k³/4），每台主机只接入"
                       "几个独立平面之一时再 × 平面数"),
    Formula("bisection_bandwidth", (N_HOSTS, LINK, OVERSUB, DIRECTIONS),
            "n_hosts*link_bandwidth*directions/(2*oversubscription)", "bandwidth",
            "bandwidth across a cut of the fabric into two halves: half the hosts' links, ÷ the oversubscription",
            "alfares2008, austin2025",
            (Misconception("no_oversubscription", "ignored the oversubscription (counted a non-blocking fabric)",
                           "n_hosts*link_bandwidth*directions/2", "忽略了收敛比（当成了无阻塞网络）"),
             Misconception("no_half", "counted every host's link across the cut, not half of them",
                           "n_hosts*link_bandwidth*directions/oversubscription", "把所有主机的链路都算在割线上，而不是一半")),
            "BW_bisect",
            decomposition=("cut the hosts into two halves: at full bandwidth each of the N/2 hosts on one side can talk to "
                           "the other side at its link rate; an o:1 oversubscribed fabric carries 1/o of that",),
            decomposition_zh=("把主机分成两半：满带宽时一侧的 N/2 台主机都能以链路速率与另一侧通信；o:1 收敛的网络只能承载其 1/o",),
            parts=(Part("half", "N/2 · BW_link", "n_hosts*link_bandwidth/2", "bandwidth", "half the hosts' links",
                        "一半主机的链路"),),
            takeaway="oversubscription is cheaper switches for less bisection: fine for traffic that stays in a rack, "
                     "costly for all-to-all (MoE) and data-parallel traffic across the whole cluster.",
            takeaway_zh="收敛是用更便宜的交换机换更少的对分带宽：流量留在机架内没问题，全集群的 All-to-All（MoE）和数据并行"
                        "流量就吃亏。",
            example={"n_hosts": 1024, "link_bandwidth": 50e9, "oversubscription": 2},
            meaning_zh="把网络切成两半时跨越割线的带宽：一半主机的链路，÷ 收敛比"),
    Formula("hierarchical_allreduce_time",
            (MESSAGE_BYTES, GPUS_PER_NODE, N_NODES.as_("n_nodes", "n"), INTRA_BW, INTER_BW, OVERLAP),
            "2*(gpus_per_node - 1)/gpus_per_node*m/intra_bandwidth + 2*(n_nodes - 1)/n_nodes*(m/gpus_per_node)"
            "/inter_bandwidth - overlap*min(2*(gpus_per_node - 1)/gpus_per_node*m/intra_bandwidth, "
            "2*(n_nodes - 1)/n_nodes*(m/gpus_per_node)/inter_bandwidth)", "time",
            "two-level all-reduce: reduce-scatter in the node, all-reduce of 1/g of the message across nodes on each "
            "GPU's rail, all-gather in the node (bandwidth terms)", "sergeev2018, austin2025",
            (Misconception("whole_message_across", "sent the whole message across nodes: each rail carries only m/g",
                           "2*(gpus_per_node - 1)/gpus_per_node*m/intra_bandwidth + 2*(n_nodes - 1)/n_nodes*m"
                           "/inter_bandwidth", "把整条消息都跨节点发送了：每条轨道只承载 m/g"),
             Misconception("flat_ring", "timed one flat ring over all g·n GPUs at the inter-node bandwidth",
                           "2*(gpus_per_node*n_nodes - 1)/(gpus_per_node*n_nodes)*m/inter_bandwidth",
                           "按一个覆盖全部 g·n 张卡的扁平环、以节点间带宽计算了时间")),
            "T_hier",
            decomposition=("in the node, a reduce-scatter and an all-gather over NVLink cost 2(g−1)/g · m / BW_intra; "
                           "between them each GPU all-reduces its 1/g shard with its peers on the other nodes over its "
                           "own NIC rail: 2(n−1)/n · (m/g) / BW_inter",),
            decomposition_zh=("节点内通过 NVLink 做一次 ReduceScatter 和一次 AllGather，耗时 2(g−1)/g · m / BW_intra；"
                              "中间每张卡用自己的网卡轨道，与其他节点上的对应卡对自己那 1/g 分片做 AllReduce："
                              "2(n−1)/n · (m/g) / BW_inter",),
            parts=(Part("t_intra", "T_intra", "2*(gpus_per_node - 1)/gpus_per_node*m/intra_bandwidth", "time",
                        "reduce-scatter + all-gather in the node", "节点内 ReduceScatter + AllGather"),
                   Part("t_inter", "T_inter", "2*(n_nodes - 1)/n_nodes*(m/gpus_per_node)/inter_bandwidth", "time",
                        "all-reduce of one shard across nodes", "跨节点对一个分片做 AllReduce")),
            via="t_intra + t_inter - overlap*min(t_intra, t_inter)",
            simplification=("the slow links carry only m/g per GPU: compared with a flat ring at BW_inter the cross-node "
                            "time falls by about g",),
            simplification_zh=("慢链路上每张卡只传 m/g：与以 BW_inter 跑的扁平环相比，跨节点时间约降为 1/g",),
            takeaway="keep the big volume on NVLink and send only 1/g of the message over the network: that is why "
                     "rail-optimised clusters give every GPU its own NIC.",
            takeaway_zh="把大流量留在 NVLink 上，只让 1/g 的消息走网络：这就是轨道优化集群给每张卡配一块网卡的原因。",
            example={"m": 1e9, "gpus_per_node": 8, "n_nodes": 16, "intra_bandwidth": 450e9, "inter_bandwidth": 50e9},
            meaning_zh="两级 AllReduce：节点内 ReduceScatter，每条轨道跨节点对 1/g 的消息做 AllReduce，节点内 AllGather"
                       "（只计带宽项）"),
    Formula("dp_min_batch_per_device", (PEAK, LINK, GRAD_BYTES, NVLINK_NODE_GPUS, NIC_SHARE),
            "peak_flops/link_bandwidth*bytes_per_param/(2*(1 + nic_share*(gpus_per_node - 1)))", "count",
            "tokens per device per step above which data-parallel gradient traffic hides behind compute: "
            "peak FLOP/s ÷ NIC bandwidth × bytes / 2, ÷ g when the node's g GPUs reduce-scatter over NVLink first "
            "(each NIC carries 1/g of the gradients)", "austin2025, sergeev2018",
            (Misconception("inverted", "divided bandwidth by FLOPS",
                           "link_bandwidth/peak_flops*bytes_per_param/(2*(1 + nic_share*(gpus_per_node - 1)))",
                           "用带宽除以 FLOPS（除反了）"),
             Misconception("gbit_as_gbyte", "read the NIC's Gb/s as GB/s (8× the real bandwidth)",
                           "peak_flops/(8*link_bandwidth)*bytes_per_param/(2*(1 + nic_share*(gpus_per_node - 1)))",
                           "把网卡的 Gb/s 当成了 GB/s（带宽多算了 8 倍）"),
             Misconception("forward_backward", "overlapped the all-reduce with the whole step (6Φ per token), "
                           "though it waits for the backward pass's gradients (4Φ)",
                           "2*peak_flops/(3*link_bandwidth)*bytes_per_param/(2*(1 + nic_share*(gpus_per_node - 1)))",
                           "让 AllReduce 与整步（每 token 6Φ）重叠，但它要等反向传播（4Φ）算出梯度")),
            "B_min",
            decomposition=("the gradient all-reduce overlaps with the backward pass, 4Φ FLOPs per token of the device's "
                           "batch B; the node's g GPUs reduce-scatter the gradients over NVLink, so each GPU's NIC "
                           "all-reduces one 1/g shard with a ring, about 2 × Φ × bytes / g sent whatever B: the compute "
                           "hides it when 4Φ·B / F_peak ≥ 2Φ·bytes / (g·BW), i.e. B ≥ F_peak / BW × bytes / (2g) "
                           "(bf16 gradients: B ≥ F_peak / (g·BW)); the NVLink phases are left out",),
            decomposition_zh=("梯度 AllReduce 与反向传播重叠，反向对每个设备这一批中的每个 token 计算 4Φ FLOPs；节点内 g 张卡先经 "
                              "NVLink 对梯度做 ReduceScatter，每张卡的网卡只对 1/g 的分片做环形 AllReduce，无论 B 多大都约发送 "
                              "2 × Φ × bytes / g：当 4Φ·B / F_peak ≥ 2Φ·bytes / (g·BW)，即 B ≥ F_peak / BW × bytes / (2g) "
                              "时计算能掩盖通信（bf16 梯度：B ≥ F_peak / (g·BW)）；不计 NVLink 阶段",),
            parts=(Part("ratio", "F_peak/BW", "peak_flops/link_bandwidth", "intensity",
                        "FLOPs the device can do per byte its NIC moves", "网卡每传一个字节，设备能做的 FLOPs"),
                   Part("g_nic", "g_NIC", "1 + nic_share*(gpus_per_node - 1)", "count",
                        "GPUs whose gradients one NIC's shard stands for (g; 1 with one GPU per node)",
                        "一块网卡的分片代表的 GPU 数（g；每节点一张卡时为 1）")),
            via="ratio*bytes_per_param/(2*g_nic)",
            takeaway="data parallelism needs a minimum batch per device: below F_peak / (g·BW) tokens the step waits "
                     "on the network; the NVLink node divides what each NIC carries by g, which is why rail-optimised "
                     "clusters reduce in the node first.",
            takeaway_zh="数据并行要求每个设备有最小批大小：低于 F_peak / (g·BW) 个 token 时，一步要等网络；NVLink 节点把每块网卡"
                        "承载的量除以 g，所以轨道优化集群先在节点内归约。",
            example={"peak_flops": 989e12, "link_bandwidth": 50e9, "gpus_per_node": 8},
            meaning_zh="每个设备每步的 token 数超过多少时，数据并行的梯度通信能被计算掩盖：峰值 FLOP/s ÷ 网卡带宽 × bytes / 2，"
                       "节点内 g 张卡先经 NVLink 做 ReduceScatter 时再 ÷ g（每块网卡只承载 1/g 的梯度）",
            per_device=True,
            plain_expr="peak_flops/link_bandwidth*bytes_per_param/(2*gpus_per_node)"),
)
