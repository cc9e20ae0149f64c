"""Network-fabric templates: fat trees, bisection, hierarchical all-reduce, NVL72, TPU ICI.

Network-fabric templates: hosts of a fat tree from the switch radix, bisection bandwidth with
oversubscription, a two-level (hierarchical) all-reduce over NVLink and one NIC rail per GPU, an NVL72 rack's
72-GPU NVLink domain and a ring along one axis of a TPU's ICI torus.

The rack and TPU chips come from the catalogue's pools (``pools`` in question_bank/data/*.toml): ``rack``
(GB200, GB300) and ``tpu`` (v5e, v5p, v6e, v7).
"""

from __future__ import annotations

from engine import formulas
from engine.units import fmt_quantity

from ... import hardware, ranges
from ...spec import Ask, Ref, Spec, World, given
from ...template import convention, template
from ..chip_givens import CONV_EN, CONV_ZH, an

# Radices of real switches in the range switch_radix: NDR QM9700 (64), SN5600 (128 x 400 GbE), Quantum-X800 (144)
RADICES = (64, 128, 144)
NIC_GBS = (50e9, 100e9)  # 400 / 800 Gb/s per host, one direction (range scaleout_nic_per_gpu)
HOST_LINKS = ("ib_hdr", "ib_ndr", "ib_xdr")  # a host's fabric link: 200 / 400 / 800 Gb/s InfiniBand (the catalogue)
# Uplink tapers o:1; 7:1 is Llama 3's RoCE fabric above its non-blocking 3,072-GPU pods (arXiv:2407.21783 §3.3.1)
OVERSUBSCRIPTIONS = (1.5, 2, 3, 4, 7)

TREE_CONV_EN = ("A fat tree (folded Clos) of identical k-port switches, non-blocking unless an oversubscription is "
                "stated: below the top tier half of each switch's ports face down, half up. One link per host. "
                "Bisection bandwidth counts one direction. GB/s = 10⁹ B/s, TB/s = 10¹² B/s.")
TREE_CONV_ZH = ("由相同的 k 口交换机组成的胖树（折叠 Clos），除非注明收敛比，否则为无阻塞：顶层以下每台交换机一半端口朝下、"
                "一半朝上。每台主机一条链路。对分带宽只计单向。GB/s = 10⁹ B/s，TB/s = 10¹² B/s。")
HIER_CONV_EN = ("Bandwidth terms only (no latency α). Rail-optimised nodes of g GPUs: NVLink inside a node, one NIC per "
                "GPU between nodes; the in-node and cross-node phases do not overlap. GB = 10⁹ B, GB/s = 10⁹ B/s.")
HIER_CONV_ZH = ("只计带宽项（不计延迟 α）。轨道优化的节点，每节点 g 张卡：节点内走 NVLink，节点间每卡一块网卡；"
                "节点内与跨节点两个阶段不重叠。GB = 10⁹ B，GB/s = 10⁹ B/s。")


def _bw(v: float) -> str:
    return fmt_quantity(v, "bandwidth", unit="GB/s")


def _radix_note() -> tuple[str, str]:
    r = ranges.get("switch_radix")
    return (f"(data-center switches had {r.low:g} to {r.high:g} ports as of {r.as_of[:7]})",
            f"（截至 {r.as_of[:7]}，数据中心交换机有 {r.low:g} 到 {r.high:g} 个端口）")


def _fabric(rng) -> dict:
    k = rng.choice(RADICES)
    link = hardware.LINKS_BY_KEY[rng.choice(HOST_LINKS)].one_way
    return {"k": k, "link": link, "o": rng.choice(OVERSUBSCRIPTIONS)}


@template("communication.bisection_bandwidth", topic="communication",
          title="Bisection bandwidth of an oversubscribed fabric", title_zh="有收敛的网络的对分带宽",
          difficulty=2, target_seconds=90, source="alfares2008")
def bisection_bandwidth(rng):
    f = _fabric(rng)
    hosts = rng.choice((512, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 16384))
    inputs = {"n_hosts": hosts, "link_bandwidth": f["link"], "oversubscription": f["o"], "directions": 1}
    return Spec(
        givens=(given("n_hosts", "Hosts", "主机数", hosts),
                given("link_bandwidth", "Host link, one way", "主机链路单向带宽", f["link"], "bandwidth", "GB/s"),
                given("oversubscription", "Oversubscription o:1", "收敛比 o:1", f["o"])),
        asks=(Ask(formula="bisection_bandwidth", inputs=inputs, unit="TB/s",
                  prompt_en=f"A cluster fabric connects {hosts:,} hosts at {_bw(f['link'])} each, with the uplinks "
                            f"oversubscribed {f['o']:g}:1. What is its bisection bandwidth (one direction), in TB/s?",
                  prompt_zh=f"一个集群网络连接 {hosts:,} 台主机，每台 {_bw(f['link'])}，上行链路收敛比为 {f['o']:g}:1。"
                            "它的对分带宽（单向）是多少（TB/s）？"),),
        conventions_en=TREE_CONV_EN, conventions_zh=TREE_CONV_ZH,
    )


@template("communication.fabric_chain", topic="communication",
          title="Fabric sizing: fat-tree hosts from the switch radix → bisection bandwidth with tapered uplinks",
          title_zh="网络规划：胖树主机数 → 收敛后的对分带宽", difficulty=3, target_seconds=240, source="alfares2008")
def fabric_chain(rng):
    f, tiers = _fabric(rng), rng.choice((2, 3))
    note_en, note_zh = _radix_note()
    return Spec(
        scenario_en=f"A {tiers}-tier fat tree of {f['k']}-port switches {note_en}, every leaf filled with hosts at "
                    f"{_bw(f['link'])} each. To save spine switches, the operator keeps the same hosts but tapers the "
                    f"leaf uplinks to {f['o']:g}:1.",
        scenario_zh=f"由 {f['k']} 口交换机组成的 {tiers} 层胖树{note_zh}，每台叶交换机都接满主机，每台主机 {_bw(f['link'])}。"
                    f"为了省下脊交换机，运营方保持主机不变，把叶交换机的上行链路收敛到 {f['o']:g}:1。",
        givens=(given("radix", "Switch radix k", "交换机端口数 k", f["k"]), given("tiers", "Switch tiers", "交换机层数", tiers),
                given("link_bandwidth", "Host link, one way", "主机链路单向带宽", f["link"], "bandwidth", "GB/s"),
                given("oversubscription", "Oversubscription o:1", "收敛比 o:1", f["o"])),
        asks=(Ask(formula="fat_tree_hosts", inputs={"radix": f["k"], "tiers": tiers}, unit="",
                  prompt_en=f"Built non-blocking, how many hosts does the {tiers}-tier fat tree connect?",
                  prompt_zh=f"按无阻塞搭建时，这个 {tiers} 层胖树能连接多少台主机？"),
              Ask(formula="bisection_bandwidth", unit="TB/s",
                  inputs={"n_hosts": Ref(0), "link_bandwidth": f["link"], "oversubscription": f["o"], "directions": 1},
                  prompt_en=f"With the same hosts and the uplinks at {f['o']:g}:1, what is the bisection bandwidth (one "
                            "direction), in TB/s?",
                  prompt_zh=f"主机不变、上行收敛比为 {f['o']:g}:1 时，对分带宽（单向）是多少（TB/s）？")),
        conventions_en=TREE_CONV_EN, conventions_zh=TREE_CONV_ZH,
    )


@template("communication.hierarchical_allreduce", topic="communication",
          title="Hierarchical all-reduce: NVLink in the node, one rail across nodes",
          title_zh="分层 AllReduce：节点内走 NVLink，跨节点走一条轨道", difficulty=3, target_seconds=180,
          source="sergeev2018")
def hierarchical_allreduce(rng):
    gpu = rng.choice([g for g in hardware.GPUS if g.key in ("h100_sxm", "h200", "b200")])
    nvlink = hardware.nvlink_of(gpu)
    assert nvlink is not None  # each of these GPUs sits in an NVLink node
    # each GPU's NIC is the one its system ships with (the catalogue's scale_out_nic_gbps: 400G on H100, H200, B200);
    # the draw that once picked a NIC speed is kept so every seed's other givens stay what they were
    rng.choice(NIC_GBS)
    intra, inter = nvlink.one_way, gpu.scale_out_nic
    assert inter is not None
    nodes, size = rng.choice((4, 8, 16, 32, 64)), rng.choice((2, 4, 8, 14, 16, 28)) * 1e9
    inputs = {"m": size, "gpus_per_node": 8, "n_nodes": nodes, "intra_bandwidth": intra, "inter_bandwidth": inter,
              "overlap": 0}
    return Spec(
        givens=(given("m", "Message size", "消息大小", size, "bytes", "GB"),
                given("gpus_per_node", "GPUs per node g", "每节点 GPU 数 g", 8),
                given("n_nodes", "Nodes n", "节点数 n", nodes),
                given("intra_bandwidth", "NVLink per GPU, one way", "每卡 NVLink 单向带宽", intra, "bandwidth", "GB/s"),
                given("inter_bandwidth", "NIC per GPU, one way", "每卡网卡单向带宽", inter, "bandwidth", "GB/s")),
        asks=(Ask(formula="hierarchical_allreduce_time", inputs=inputs, unit="ms",
                  prompt_en=f"Data parallelism over {nodes} nodes of 8 {gpu.name} GPUs all-reduces "
                            f"{an(fmt_quantity(size, 'bytes', unit='GB'))} gradient buffer hierarchically: reduce-scatter "
                            "in the node, all-reduce of each GPU's shard across nodes on its own rail, all-gather in the "
                            "node. How long does it take, in ms?",
                  prompt_zh=f"在 {nodes} 个节点（每节点 8 张 {gpu.name}）上做数据并行，用分层方式对 "
                            f"{fmt_quantity(size, 'bytes', unit='GB')} 的梯度做 AllReduce：节点内 ReduceScatter，每张卡在"
                            "自己的轨道上跨节点对自己的分片做 AllReduce，再在节点内 AllGather。需要多少时间（ms）？"),),
        conventions_en=HIER_CONV_EN, conventions_zh=HIER_CONV_ZH,
        world=World(gpu=gpu),
    )


# Switches an AI fabric is built of, as (name, ports, Gb/s per port): one GPU NIC per port, at the port's speed (200G
# HDR on A100, 400G NDR / 400GbE on Hopper and B200, 800G on B300 and GB300).  Radices 32-512: a 12.8-115.2 Tb/s switch
# (one way) run at full speed or split into more, slower ports.  Spectrum-3 SN4700 32 x 400GbE; Quantum QM8700 40 x HDR;
# Quantum-2 QM9700 64 x NDR, or 128 x NDR200 split; Quantum-X800 Q3200, two switches of 36 x 800G; Spectrum-4 SN5610
# 64 x 800G, SN5600 128 x 400GbE or 256 x 200GbE; Quantum-X800 Q3400 144 x 800G; Broadcom Tomahawk 6 (102.4 Tb/s)
# 128 x 800GbE, 256 x 400GbE or 512 x 200GbE.  The Chinese name, where the English one has words.
SWITCH_ZH = {"NVIDIA Quantum-X800 Q3200 (each of its two switches)": "NVIDIA Quantum-X800 Q3200（机内两台交换机中的每一台）",
             "NVIDIA Quantum-2 QM9700 split to NDR200": "拆分为 NDR200 端口的 NVIDIA Quantum-2 QM9700",
             "NVIDIA Spectrum-4 SN5600 split to 200GbE": "拆分为 200GbE 端口的 NVIDIA Spectrum-4 SN5600"}
FABRIC_SWITCHES = (
    ("NVIDIA Spectrum-3 SN4700", 32, 400), ("NVIDIA Quantum-X800 Q3200 (each of its two switches)", 36, 800),
    ("NVIDIA Quantum QM8700 (HDR)", 40, 200), ("NVIDIA Quantum-2 QM9700 (NDR)", 64, 400),
    ("NVIDIA Spectrum-4 SN5610", 64, 800), ("NVIDIA Quantum-2 QM9700 split to NDR200", 128, 200),
    ("NVIDIA Spectrum-4 SN5600", 128, 400), ("Broadcom Tomahawk 6", 128, 800),
    ("NVIDIA Quantum-X800 Q3400", 144, 800), ("NVIDIA Spectrum-4 SN5600 split to 200GbE", 256, 200),
    ("Broadcom Tomahawk 6", 256, 400), ("Broadcom Tomahawk 6", 512, 200),
)
# Two tiers of a 256- or 512-port switch already connect 32,768-131,072 hosts, what the largest clusters need: only
# the switches up to 144 ports are drawn with a third tier.
THIRD_TIER_MAX_RADIX = 144
# A multi-plane fabric (DeepSeek-V3's, arXiv:2505.09343: 8 planes of two-tier 64-port trees, 16,384 GPUs): GPU i of
# every node (8 GPUs) or compute tray (4, as in an NVL72 rack) has its own NIC on plane i, so the planes multiply the
# GPUs.  Drawn last, for two tiers of up to 256 ports (8 planes of 512-port trees would be a million GPUs).
PLANES = (8, 4)
MULTI_PLANE_MAX_RADIX = 256
MULTI_PLANE_SHARE = 0.4


@template("communication.fat_tree_hosts", topic="communication", title="Hosts of a non-blocking fat tree from the switch radix",
          title_zh="由交换机端口数求无阻塞胖树的主机数", difficulty=2, target_seconds=90, source="alfares2008")
def fat_tree_hosts(rng):
    switch, k, gbps = rng.choice(FABRIC_SWITCHES)
    tiers = rng.choice((2, 3)) if k <= THIRD_TIER_MAX_RADIX else 2
    planned = rng.choice((4096, 8192, 16384, 24576, 32768, 65536, 100000))
    planes = 1
    if tiers == 2 and k <= MULTI_PLANE_MAX_RADIX and rng.random() < MULTI_PLANE_SHARE:
        planes = rng.choice(PLANES)
    formula = formulas.get("fat_tree_hosts")
    hosts = formula.evaluate(radix=k, tiers=tiers, planes=planes)
    fits = planned <= hosts
    tbps = k * gbps / 1000
    switch_zh = SWITCH_ZH.get(switch, switch)
    plane_en, plane_zh = "", ""
    if planes > 1:
        unit_en, unit_zh = ("node", "节点") if planes == 8 else ("compute tray", "计算托盘")
        plane_en = (f" The GPUs sit {planes} to a {unit_en}, and the fabric is multi-plane: GPU i of every {unit_en} "
                    f"connects to plane i, {planes} separate planes, each its own fat tree.")
        plane_zh = (f"GPU 每 {planes} 张一个{unit_zh}，网络是多平面的：每个{unit_zh}的第 i 张 GPU 接入第 i 个平面，"
                    f"共 {planes} 个互相独立的平面，每个平面是一棵独立的胖树。")
    built_en, each_zh = ("With each plane built", "每个平面都") if planes > 1 else ("Built", "")
    return Spec(
        givens=(given("switch", "Switch", "交换机", switch, value_zh=switch_zh),
                given("radix", "Switch radix k", "交换机端口数 k", k), given("tiers", "Switch tiers", "交换机层数", tiers))
        + ((given("planes", "Network planes", "网络平面数", planes),) if planes > 1 else ()),
        asks=(Ask(formula="fat_tree_hosts", inputs={"radix": k, "tiers": tiers, "planes": planes}, unit="",
                  takeaway=(f"{hosts:,.0f} hosts: the planned {planned:,} GPUs "
                            + ("fit in it." if fits else f"need {'another tier' if tiers == 2 else 'larger switches'} "
                                                         "(or an oversubscribed fabric).")
                            + " " + formula.takeaway[0].upper() + formula.takeaway[1:]),  # the card's words
                  takeaway_zh=(f"{hosts:,.0f} 台主机：计划的 {planned:,} 张 GPU "
                               + ("放得下。" if fits else f"放不下，需要{'再加一层' if tiers == 2 else '端口更多的交换机'}"
                                                         "（或接受收敛的网络）。")
                               + formula.takeaway_zh),
                  prompt_en=f"An operator plans a cluster of {planned:,} GPUs and gives every GPU its own {gbps} Gb/s "
                            f"NIC, so each GPU is one host of the scale-out fabric.{plane_en} {built_en} as a "
                            f"non-blocking {tiers}-tier fat tree of {switch} switches, {k} ports of {gbps} Gb/s each "
                            f"({tbps:g} Tb/s one way), how many GPUs can the fabric connect at most?",
                  prompt_zh=f"运营方计划建一个 {planned:,} 张 GPU 的集群，给每张 GPU 配一块自己的 {gbps} Gb/s 网卡，所以每张 "
                            f"GPU 都是横向扩展网络中的一台主机。{plane_zh}若{each_zh}用 {switch_zh} 交换机（每台 {k} 个 "
                            f"{gbps} Gb/s 端口，单向 {tbps:g} Tb/s）搭成无阻塞的 {tiers} 层胖树，这个网络最多能连接多少张 "
                            "GPU？"),),
        conventions_en=TREE_CONV_EN, conventions_zh=TREE_CONV_ZH,
    )


def _bytes_text(m: float) -> str:
    return fmt_quantity(m, "bytes", unit="MB" if m < 1e9 else "GB")


@template("communication.nvl72_allreduce", topic="communication", title="AllReduce inside an NVL72 rack",
          title_zh="NVL72 机柜内的 AllReduce", difficulty=2, target_seconds=120, source="C§2, thakur2005")
def nvl72_allreduce(rng):
    gpu = rng.choice(hardware.pool("rack"))
    n = rng.choice((16, 24, 32, 36, 48, 64, 72))
    m = rng.choice((64, 128, 256, 512, 1024, 2048, 4096)) * 1e6
    alpha = rng.choice((2, 3, 5)) * 1e-6
    beta = gpu.scale_up / 2  # NVIDIA quotes both directions together; a ring sends one way at a time
    domain = gpu.scale_up_domain
    return Spec(
        givens=(given("gpu", "GPU", "GPU", gpu.name),
                given("domain", "NVLink domain (GPUs)", "NVLink 域（GPU 数）", domain),
                given("n", "GPUs in the ring N", "环上的 GPU 数 N", n),
                given("m", "Message M", "消息大小 M", m, "bytes", "MB" if m < 1e9 else "GB"),
                given("alpha", "Latency per step α", "每步延迟 α", alpha, "time", "µs"),
                given("beta", "NVLink bandwidth per GPU, one way β", "每卡 NVLink 单向带宽 β", beta, "bandwidth",
                      "GB/s")),
        asks=(Ask(formula="allreduce_time", unit="ms",
                  explanation=(f"{gpu.name}: {gpu.scale_up / 1e9:,.0f} GB/s per GPU is NVIDIA's both-directions "
                               f"figure; a ring sends one way at a time: β = {beta / 1e9:,.0f} GB/s",
                               f"N = {n} ≤ {domain}: every hop of the ring stays on NVLink, none crosses the network"),
                  explanation_zh=(f"{gpu.name}：每卡 {gpu.scale_up / 1e9:,.0f} GB/s 是 NVIDIA 的双向合计；环每次只朝一个方向"
                                  f"发送：β = {beta / 1e9:,.0f} GB/s",
                                  f"N = {n} ≤ {domain}：环上每一跳都在 NVLink 上，不经过网络"),
                  takeaway=("An NVL72 rack is one NVLink domain of 72 GPUs: tensor and expert parallelism up to 72 "
                            "ways run at NVLink speed, where an 8-GPU HGX node would cross the network (400-800 Gb/s "
                            "per GPU, 10-20× slower) beyond 8."),
                  takeaway_zh=("NVL72 机柜是一个 72 卡的 NVLink 域：72 路以内的张量并行和专家并行都跑在 NVLink 上；"
                               "8 卡的 HGX 节点超过 8 路就要走网络（每卡 400-800 Gb/s，慢 10-20 倍）。"),
                  prompt_en=f"In a {gpu.name} NVL72 rack ({domain} GPUs on one NVLink switch domain), {n} GPUs "
                            f"all-reduce a {_bytes_text(m)} message with a ring. How long does it take in the α-β "
                            "model?",
                  prompt_zh=f"在 {gpu.name} NVL72 机柜中（{domain} 张 GPU 在同一个 NVLink 交换域），{n} 张 GPU 用环形算法"
                            f"对 {_bytes_text(m)} 的消息做 AllReduce。按 α-β 模型需要多长时间？"),),
        conventions_en=f"{CONV_EN} MB = 1e6 B. Ring AllReduce: 2(N−1) steps, each GPU sends 2(N−1)/N × M.",
        conventions_zh=f"{CONV_ZH}MB = 1e6 B。环形 AllReduce：2(N−1) 步，每卡发送 2(N−1)/N × M。",
        world=World(gpu=gpu),
    )


@template("communication.tpu_ici_ring", topic="communication", title="A ring along one axis of a TPU torus",
          title_zh="TPU 环面一个维度上的环", difficulty=2, target_seconds=150, source="C§2, thakur2005", conventions=("directions",))
def tpu_ici_ring(rng):
    gpu = rng.choice(hardware.pool("tpu"))
    dims = 3 if gpu.scale_up_domain > 1024 else 2  # v5p and v7: 3D torus (6 links per chip); v5e, v6e: 2D (4)
    links = 2 * dims
    n = rng.choice((4, 8, 16) if dims == 3 else (4, 8, 16))
    m = rng.choice((32, 64, 128, 256, 512, 1024)) * 1e6
    alpha = rng.choice((1, 2, 4)) * 1e-6
    per_link = gpu.scale_up / (2 * links)  # the quoted figure: every link, both directions
    # a bidirectional ring (directions=2, the JAX scaling book) when the learner chose it
    way_en, way_zh = (("one way", "单向") if convention("directions") == "1" else
                      ("both ways at once", "双向同时传输"))
    return Spec(
        givens=(given("gpu", "TPU", "TPU", gpu.name),
                given("ici", "ICI bandwidth per chip (both directions, all links)", "每芯片 ICI 带宽（双向、全部链路）",
                      gpu.scale_up, "bandwidth", "GB/s"),
                given("links", "ICI links per chip", "每芯片 ICI 链路数", links),
                given("n", "Chips along the axis N", "该维度上的芯片数 N", n),
                given("m", "Message M", "消息大小 M", m, "bytes", "MB" if m < 1e9 else "GB"),
                given("alpha", "Latency per step α", "每步延迟 α", alpha, "time", "µs")),
        asks=(Ask(formula="allreduce_time", unit="ms", inputs={"m": m, "n": n, "alpha": alpha, "beta": per_link},
                  explanation=(f"{gpu.name} is a {dims}D torus: {links} links per chip, two along each axis; Google "
                               f"quotes {gpu.scale_up / 1e9:,.0f} GB/s over all of them in both directions",
                               f"a ring along one axis sends over one link, one way: β = {gpu.scale_up / 1e9:,.0f} ÷ "
                               f"({links} × 2) = {per_link / 1e9:g} GB/s"),
                  explanation_zh=(f"{gpu.name} 是 {dims} 维环面：每芯片 {links} 条链路，每个维度两条；Google 给出的 "
                                  f"{gpu.scale_up / 1e9:,.0f} GB/s 是全部链路、双向的合计",
                                  f"沿一个维度的环只用一条链路、一个方向：β = {gpu.scale_up / 1e9:,.0f} ÷ "
                                  f"（{links} × 2）= {per_link / 1e9:g} GB/s"),
                  takeaway=("A TPU pod is a torus of point-to-point ICI links, not a switch: a collective along one "
                            "axis gets one link's bandwidth, so the per-chip ICI figure is divided by the links and "
                            "directions; all-reducing over several axes at once uses more of them."),
                  takeaway_zh=("TPU pod 是由点对点 ICI 链路组成的环面，不是交换机：沿一个维度的集合通信只能用一条链路的"
                               "带宽，所以每芯片的 ICI 总带宽要除以链路数和方向数；同时在多个维度上做 AllReduce 才能用上"
                               "更多链路。"),
                  prompt_en=f"On {gpu.name}, {n} chips along one axis of the torus all-reduce a {_bytes_text(m)} "
                            f"message with a ring that runs {way_en} along that axis. How long does it take in the "
                            "α-β model?",
                  prompt_zh=f"在 {gpu.name} 上，环面某一维度上的 {n} 个芯片用沿该维度{way_zh}的环对 {_bytes_text(m)} 的消息"
                            "做 AllReduce。按 α-β 模型需要多长时间？"),),
        conventions_en=f"{CONV_EN} MB = 1e6 B. Ring AllReduce: 2(N−1) steps, each chip sends 2(N−1)/N × M over one "
                       "link.",
        conventions_zh=f"{CONV_ZH}MB = 1e6 B。环形 AllReduce：2(N−1) 步，每芯片经一条链路发送 2(N−1)/N × M。",
        world=World(gpu=gpu),
    )
