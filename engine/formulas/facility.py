"""Power, facility and the cost of owning a GPU: IT power per GPU, a site's power, the GPUs a power budget or
a rack holds, and an owned GPU-hour against a rented one.

"You have 100 MW: how many GB200s? How many kW per rack? Buy or rent?"  Powers are the system's datasheet
maximum unless the problem says otherwise (a GPU's TDP leaves out the rest of the node); prices and PUEs are
always given by the problem.
"""

from __future__ import annotations

from .core import Formula, Misconception, Part, Requirement
from .inputs import (
    BUSY_SHARE,
    CAPEX_GPU,
    GPUS_PER_NODE,
    IT_POWER,
    N_GPUS,
    NETWORK_W,
    NODE_POWER,
    POWER,
    PRICE_KWH,
    RACK_POWER,
    RENTAL_PRICE,
    SITE_POWER,
    SITE_PUE,
    YEARS,
)
from .registry import register

TDP = ("used the GPU's own TDP, which leaves out the CPUs, NICs, fans and switches of its node",
       "用了 GPU 自己的 TDP，漏了所在节点的 CPU、网卡、风扇和交换芯片")
NO_PUE = ("left out the PUE (cooling and power delivery)", "漏了 PUE（制冷和供电损耗）")
HOURS_A_YEAR = 8760

register(
    Formula("it_power_per_gpu", (NODE_POWER, GPUS_PER_NODE, NETWORK_W), "node_power/gpus_per_node + network_w_per_gpu",
            "power", "IT power one GPU stands for: its node's maximum shared among the node's GPUs, plus its share of "
            "the scale-out network outside the node", "dgx_guides",
            (Misconception("tdp", TDP[0], "gpu_tdp", TDP[1]),),
            "P_IT",
            decomposition=("a node's maximum includes its CPUs, NICs, fans and NVSwitches besides the GPUs: shared "
                           "among its g GPUs, then each GPU's share of the switches and optics outside the node",
                           "node power here is the system's datasheet maximum (DGX H100 10.2 kW), not its typical draw "
                           "(DGX H100 \"6.5-8.5 kW typical\", a third-party page): a site planned on the typical draw "
                           "trips at peak load",),
            decomposition_zh=("节点的最大功率里除了 GPU 还有 CPU、网卡、风扇和 NVSwitch：平摊到 g 张 GPU 上，再加上每张卡"
                              "分摊的节点外交换机和光模块",
                              "这里的节点功率是规格书上的整机最大值（DGX H100 为 10.2 kW），不是典型功耗（DGX H100"
                              "\"典型 6.5-8.5 kW\"，出自第三方页面）：按典型功耗规划的机房在满载时会跳闸",),
            parts=(Part("node_share", "P_node / g", "node_power/gpus_per_node", "power",
                        "the node's power per GPU", "节点功率平摊到每张卡"),),
            via="node_share + network_w_per_gpu",
            takeaway="a GPU costs the site {result}, not its TDP: the node around it and the network add 40-80 %, and "
                     "that is what a power budget must divide.",
            takeaway_zh="一张 GPU 占用机房 {result}，而不是它的 TDP：周围的节点和网络要多出 40-80%，功率预算要除的是这个数。",
            example={"node_power": 10200, "gpus_per_node": 8, "network_w_per_gpu": 0},
            meaning_zh="一张 GPU 代表的 IT 功率：所在节点的最大功率平摊到每张卡，再加上节点外 scale-out 网络的分摊"),
    Formula("facility_power", (N_GPUS, IT_POWER, SITE_PUE), "n_gpus*it_power_per_gpu*pue", "power",
            "power a site draws for n GPUs: their IT power × PUE (megawatts per 1,000 GPUs = this at n = 1,000)",
            "green_grid_pue",
            (Misconception("no_pue", NO_PUE[0], "n_gpus*it_power_per_gpu", NO_PUE[1]),
             Misconception("tdp", TDP[0], "n_gpus*gpu_tdp*pue", TDP[1])),
            "P_site",
            decomposition=("IT power: each GPU's node and network share; PUE = facility power ÷ IT power adds the "
                           "cooling and power delivery on top",),
            decomposition_zh=("IT 功率：每张卡的节点和网络分摊；PUE = 机房总功率 ÷ IT 功率，再把制冷和供电损耗加上去",),
            parts=(Part("it", "P_IT,total", "n_gpus*it_power_per_gpu", "power", "the IT power of all the GPUs",
                        "所有 GPU 的 IT 功率"),),
            via="it*pue",
            takeaway="{n_gpus} GPUs draw {it} of IT power and {result} at the meter: the site's power, not the GPU count, "
                     "is what limits a 2026 cluster.",
            takeaway_zh="{n_gpus} 张 GPU 的 IT 功率是 {it}，算上机房是 {result}：限制 2026 年集群规模的是机房功率，"
                        "而不是 GPU 的数量。",
            example={"n_gpus": 1000, "it_power_per_gpu": 1275, "pue": 1.3},
            meaning_zh="n 张 GPU 的机房总功率：它们的 IT 功率 × PUE（每 1,000 张卡的兆瓦数即 n = 1,000 时的值）"),
    Formula("gpus_for_power", (SITE_POWER, IT_POWER, SITE_PUE), "floor(facility_power/(it_power_per_gpu*pue))", "count",
            "GPUs a site's power budget supports: the budget ÷ (IT power per GPU × PUE), rounded down",
            "green_grid_pue",
            (Misconception("rounded_up", "rounded up: the site cannot draw more than its power",
                           "ceil(facility_power/(it_power_per_gpu*pue))", "向上取整了：机房用电不能超过它的总功率"),
             Misconception("no_pue", NO_PUE[0], "floor(facility_power/it_power_per_gpu)", NO_PUE[1]),
             Misconception("pue_twice", "applied the PUE twice", "floor(facility_power/(it_power_per_gpu*pue^2))",
                           "把 PUE 乘了两次")),
            "N",
            decomposition=("each GPU takes its IT power × PUE at the meter; the budget ÷ that, rounded down to whole "
                           "GPUs",),
            decomposition_zh=("每张 GPU 在电表上占 IT 功率 × PUE；总功率 ÷ 这个数，向下取整到整卡",),
            parts=(Part("per_gpu", "P_IT × PUE", "it_power_per_gpu*pue", "power", "one GPU at the meter",
                        "一张 GPU 在电表上的功率"),),
            via="floor(facility_power/per_gpu)",
            takeaway="{facility_power} at {per_gpu} per GPU holds {result} GPUs: a better PUE or a lower node power buys "
                     "GPUs as surely as money does.",
            takeaway_zh="{facility_power} 的机房按每卡 {per_gpu} 算能放 {result} 张 GPU：更低的 PUE 或节点功率，"
                        "和钱一样能换来 GPU。",
            example={"facility_power": 100e6, "it_power_per_gpu": 1800, "pue": 1.2},
            meaning_zh="机房的功率预算能支撑的 GPU 数：总功率 ÷（单卡 IT 功率 × PUE），向下取整"),
    Formula("gpus_per_rack", (RACK_POWER, NODE_POWER, GPUS_PER_NODE), "floor(rack_power_limit/node_power)*gpus_per_node",
            "count", "GPUs one rack's power allows, in whole nodes", "dgx_guides",
            (Misconception("split_nodes", "counted GPUs as if a node could be split across racks",
                           "floor(rack_power_limit*gpus_per_node/node_power)", "把节点拆开来算了 GPU 数（节点不能跨机柜拆分）"),),
            "N_rack",
            decomposition=("a rack takes whole nodes: floor(rack power ÷ node power) nodes, each with its g GPUs",),
            decomposition_zh=("机柜里只能放整节点：floor(机柜功率 ÷ 节点功率) 个节点，每个节点 g 张 GPU",),
            parts=(Part("nodes", "nodes", "floor(rack_power_limit/node_power)", "count", "whole nodes the rack powers",
                        "机柜能供电的整节点数"),),
            via="nodes*gpus_per_node",
            takeaway="a rack of {rack_power_limit} powers {nodes} nodes of {node_power}: air-cooled racks of 15-40 kW hold one "
                     "or two 8-GPU nodes, which is why NVL72's 120-140 kW racks need liquid cooling.",
            takeaway_zh="{rack_power_limit} 的机柜能给 {nodes} 个 {node_power} 的节点供电：风冷机柜只有 15-40 kW，"
                        "放一两个 8 卡节点，所以 120-140 kW 的 NVL72 机柜必须用液冷。",
            example={"rack_power_limit": 40000, "node_power": 10200, "gpus_per_node": 8},
            meaning_zh="一个机柜的功率能放下的 GPU 数，按整节点计"),
    Formula("owned_gpu_hour_cost", (CAPEX_GPU, YEARS, BUSY_SHARE, POWER, SITE_PUE, PRICE_KWH),
            f"capex_per_gpu/(years*{HOURS_A_YEAR}*utilisation) + power_w*pue*price_per_kwh/1000", "usd_per_gpu_hour",
            "cost of one utilised GPU-hour of an owned GPU: the purchase amortised over the busy hours of its years, "
            "plus the electricity it draws while busy (no interest, staff, space or network opex)", "tco_arithmetic",
            (Misconception("all_hours", "amortised the purchase over every hour, not only the busy ones",
                           f"capex_per_gpu/(years*{HOURS_A_YEAR}) + power_w*pue*price_per_kwh/1000",
                           "把购置成本摊到了所有小时上，而不是只摊到有效工作的小时上"),
             Misconception("no_pue", NO_PUE[0], f"capex_per_gpu/(years*{HOURS_A_YEAR}*utilisation) + "
                           "power_w*price_per_kwh/1000", NO_PUE[1])),
            "$/GPU-h_owned",
            decomposition=(f"capex: the price ÷ the busy hours of its life, years × {HOURS_A_YEAR:,} h × utilisation; "
                           "power: W × PUE ÷ 1,000 kWh per busy hour × the price of a kWh",),
            decomposition_zh=(f"购置：价格 ÷ 使用年限内的有效小时数（年数 × {HOURS_A_YEAR:,} 小时 × 利用率）；"
                              "电费：每个有效小时耗 W × PUE ÷ 1,000 千瓦时 × 电价",),
            parts=(Part("capex_h", "capex/h", f"capex_per_gpu/(years*{HOURS_A_YEAR}*utilisation)", "usd_per_gpu_hour",
                        "the purchase per busy hour", "每个有效小时分摊的购置成本"),
                   Part("power_h", "power/h", "power_w*pue*price_per_kwh/1000", "usd_per_gpu_hour",
                        "the electricity per busy hour", "每个有效小时的电费")),
            via="capex_h + power_h",
            takeaway="an owned GPU-hour costs {capex_h} of purchase and {power_h} of power: the purchase dominates, so "
                     "utilisation decides whether owning beats a rental price.",
            takeaway_zh="自有 GPU 每小时的成本 = {capex_h} 的购置分摊 + {power_h} 的电费：购置成本占大头，"
                        "所以利用率决定了自建能不能比租用便宜。",
            example={"capex_per_gpu": 30000, "years": 4, "utilisation": 0.8, "power_w": 700, "pue": 1.3,
                     "price_per_kwh": 0.1},
            meaning_zh="自有 GPU 每个有效 GPU 小时的成本：购置成本摊到使用年限内的有效小时上，加上工作时的电费"
                       "（不含利息、人员、场地和网络运维）"),
    Formula("breakeven_utilisation", (CAPEX_GPU, YEARS, RENTAL_PRICE, POWER, SITE_PUE, PRICE_KWH),
            f"capex_per_gpu/(years*{HOURS_A_YEAR}*(rental_price - power_w*pue*price_per_kwh/1000))", "ratio",
            "utilisation above which owning a GPU costs less per busy hour than renting it (above 100 %: renting is "
            "always cheaper)", "tco_arithmetic",
            (Misconception("no_power", "left out the electricity an owned GPU pays for",
                           f"capex_per_gpu/(years*{HOURS_A_YEAR}*rental_price)", "漏了自有 GPU 要付的电费"),),
            "u*",
            decomposition=("owning costs capex ÷ (years × 8,760 × u) + power per busy hour; set it equal to the rental "
                           "price and solve for u",),
            decomposition_zh=("自有成本 = 购置 ÷（年数 × 8,760 × u）+ 每个有效小时的电费；令它等于租价，解出 u",),
            parts=(Part("margin", "rent − power/h", "rental_price - power_w*pue*price_per_kwh/1000", "usd_per_gpu_hour",
                        "what each busy hour saves against renting, before the purchase",
                        "每个有效小时相对租用省下的钱（未计购置）"),),
            via=f"capex_per_gpu/(years*{HOURS_A_YEAR}*margin)",
            takeaway="owning pays once the GPU is busy more than {result} of the time: below that, the rental's idle "
                     "hours cost the renter nothing and the owner everything.",
            takeaway_zh="GPU 的忙碌时间超过 {result} 时自建才划算：低于这个比例，空闲时间对租用者不花钱，对自建者却全是成本。",
            example={"capex_per_gpu": 30000, "years": 4, "rental_price": 2.5, "power_w": 700, "pue": 1.3,
                     "price_per_kwh": 0.1},
            requires=(Requirement("rental_price - power_w*pue*price_per_kwh/1000", "positive",
                                  "owning never pays: the electricity alone costs more than the rental price",
                                  "自建永远不划算：光电费就比租价还高"),),
            meaning_zh="自有 GPU 每个有效小时比租用便宜所需的最低利用率（超过 100%：租用总是更便宜）"),
)
