"""Power, facility and ownership templates: the IT power a GPU stands for, a site's megawatts, the GPUs a power
budget or a rack holds, and an owned GPU-hour against a rented one.

"You have 100 MW: how many GB200s? How many kW per rack? Buy or rent?"  A system's maximum power and its GPUs are
the catalogue's (DGX H100 10.2 kW / 8, DGX B200 14.3 kW / 8, GB200 NVL72 120 kW / 72, not verified from NVIDIA,
GB300 NVL72 up to 142 kW / 72); PUE 1.1-1.4, air-cooled racks 15-40 kW, liquid-cooled ones to 140 kW; the TCO
prices are the spec's market ranges for H100 (not verified): $25-45k per GPU all-in, 4-5 years, 70-90 % utilised,
$0.05-0.12 per kWh, $2-3 per rented GPU-hour.
"""

from __future__ import annotations

import math

from engine.units import fmt_quantity

from .. import hardware, kit
from ..spec import Ask, Spec, World, given
from ..template import template

# (catalogue chip, the system it ships in, whether the system is a whole NVL72 rack)
SYSTEMS = (("h100_sxm", "DGX H100", False), ("b200", "DGX B200", False), ("gb200", "GB200 NVL72", True),
           ("gb300", "GB300 NVL72", True))
PUES = (1.1, 1.15, 1.2, 1.25, 1.3, 1.35, 1.4)
NETWORK_W = (10, 20, 25, 30, 35, 40, 45, 50, 60, 70, 75, 80, 90, 100, 120, 150)  # one GPU's share of switches and optics (assumed)
BUDGETS_MW = (20, 30, 50, 75, 100, 100, 150, 200, 300, 500, 1000)
CONV_EN = ("Powers are the system's datasheet maximum (a GPU's TDP leaves out its node); PUE = facility power ÷ IT "
           "power; kW = 10³ W, MW = 10⁶ W.")
CONV_ZH = "功率取整机规格书的最大值（GPU 的 TDP 不含所在节点）；PUE = 机房总功率 ÷ IT 功率；kW = 10³ W，MW = 10⁶ W。"
# System powers the spec marks "not verified against a primary source": the card and the problem say so.
NOT_VERIFIED = {
    "h100_sxm": ("DGX H100's 10.2 kW maximum is quoted from its user guide by a third-party page (not verified from "
                 "NVIDIA's own page).", "DGX H100 的 10.2 kW 最大功率来自第三方页面对用户指南的引用（未在 NVIDIA 自己的页面核实）。"),
    "gb200": ("GB200 NVL72's 120 kW is integrators' figure (not verified from NVIDIA; others quote 132 kW).",
              "GB200 NVL72 的 120 kW 是集成商给出的数字（未经 NVIDIA 核实；也有 132 kW 的说法）。"),
}


def _conv(gpu, en: str = CONV_EN, zh: str = CONV_ZH) -> dict[str, str]:
    note = NOT_VERIFIED.get(gpu.key)
    return {"conventions_en": en + (f" {note[0]}" if note else ""), "conventions_zh": zh + (note[1] if note else "")}


TCO_CONV_EN = ("Straight-line amortisation, no interest, staff, space or network opex; power is drawn only while the GPU "
               "is busy; prices are 2026 market ranges (not verified). A year is 8,760 h.")
TCO_CONV_ZH = "直线摊销，不计利息、人员、场地和网络运维；只在 GPU 忙时计电费；价格为 2026 年的市场区间（未核实）。一年按 8,760 小时计。"


def _system(rng, racks: bool = True):
    key, name, rack = rng.choice([s for s in SYSTEMS if racks or not s[2]])
    return hardware.get(key), name, rack


def _system_givens(gpu, name: str, rack: bool) -> tuple:
    what_en, what_zh = ("rack", "机柜") if rack else ("system", "整机")
    return (kit.chip(gpu, "node_power", label=(f"{name} {what_en} maximum power", f"{name} {what_zh}最大功率")),
            kit.chip(gpu, "gpus_per_node", label=(f"GPUs per {name} {what_en}", f"每{what_zh} {name} 的 GPU 数")))


def _share_line(gpu, name: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    share = fmt_quantity(gpu.node_power / gpu.gpus_per_node, "power", unit="W")
    node = fmt_quantity(gpu.node_power, "power", unit="kW")
    return ((f"IT power per GPU: {name}'s {node} ÷ {gpu.gpus_per_node} GPUs = {share}",),
            (f"单卡 IT 功率：{name} 的 {node} ÷ {gpu.gpus_per_node} 张 GPU = {share}",))


def _pue_given(pue: float):
    return given("pue", "PUE", "PUE", pue)


@template("cost.it_power_per_gpu", topic="cost", title="IT power one GPU stands for",
          title_zh="一张 GPU 代表的 IT 功率", difficulty=1, target_seconds=60, source="dgx_guides")
def it_power_per_gpu(rng):
    gpu, name, rack = _system(rng)
    net = rng.choice(NETWORK_W)
    return Spec(
        givens=_system_givens(gpu, name, rack) + (
            kit.chip(gpu, "tdp", label=(f"{gpu.name} board power (TDP)", f"{gpu.name} 板卡功耗（TDP）")),
            given("network_w_per_gpu", "Scale-out network per GPU (switches, optics)", "每卡分摊的 scale-out 网络（交换机、光模块）",
                  net, "power", "W")),
        asks=(Ask(formula="it_power_per_gpu", unit="W", extras={"gpu_tdp": gpu.tdp},
                  inputs={"node_power": gpu.node_power, "gpus_per_node": gpu.gpus_per_node, "network_w_per_gpu": net},
                  prompt_en=f"You plan a cluster of {name} {'racks' if rack else 'systems'}; the network team charges "
                            f"each GPU {net} W for its share of the switches and optics. What IT power must you budget "
                            "per GPU, in W?",
                  prompt_zh=f"你在规划一个由 {name} {'机柜' if rack else '整机'}组成的集群；网络团队给每张 GPU 分摊 {net} W 的"
                            "交换机和光模块功率。每张 GPU 要预算多少 IT 功率（W）？"),),
        **_conv(gpu),
        world=World(gpu=gpu),
    )


def _n_gpus(rng, gpu) -> int:
    if gpu.gpus_per_node == 72:  # whole NVL72 racks
        return 72 * rng.choice((8, 14, 16, 28, 32, 64, 100, 128, 139, 256, 500, 1000))
    return rng.choice((1000, 2000, 2048, 4096, 8000, 8192, 10000, 16384, 24576, 32768, 50000, 100000))


@template("cost.facility_power", topic="cost", title="A site's power for N GPUs",
          title_zh="N 张 GPU 需要的机房功率", difficulty=1, target_seconds=90, source="dgx_guides, green_grid_pue")
def facility_power(rng):
    gpu, name, rack = _system(rng)
    n, pue = _n_gpus(rng, gpu), rng.choice(PUES)
    lines, lines_zh = _share_line(gpu, name)
    return Spec(
        givens=_system_givens(gpu, name, rack) + (given("n_gpus", "GPUs", "GPU 数", n), _pue_given(pue)),
        asks=(Ask(formula="facility_power", unit="MW", extras={"gpu_tdp": gpu.tdp},
                  inputs={"n_gpus": n, "it_power_per_gpu": gpu.node_power / gpu.gpus_per_node, "pue": pue},
                  explanation=lines, explanation_zh=lines_zh,
                  prompt_en=f"A site will run {n:,} {gpu.name} GPUs in {name} {'racks' if rack else 'systems'}, at a "
                            f"PUE of {pue:g}. How much power does it draw at the meter, in MW?",
                  prompt_zh=f"一个机房要在 {name} {'机柜' if rack else '整机'}里运行 {n:,} 张 {gpu.name}，PUE 为 {pue:g}。"
                            "它在电表上要用多少功率（MW）？"),),
        **_conv(gpu),
        world=World(gpu=gpu, n_gpus=n),
    )


def _planned(per_gpu: float) -> float:
    """IT power per GPU as a plan budgets it: rounded up to the next 50 W (so the GPU count is whiteboard arithmetic
    on round figures, as question_bank.spec.settled_by_hand asks of a whole-number answer)."""
    return float(math.ceil(per_gpu / 50 - 1e-9) * 50)


def _site(rng, per_gpu: float) -> tuple[float, float]:
    """A site budget (W) and PUE whose GPU count is not whole (rounding up or down must differ)."""
    while True:
        budget, pue = rng.choice(BUDGETS_MW) * 1e6, rng.choice(PUES)
        q = budget / (per_gpu * pue)
        if abs(q - round(q)) > 0.01:
            return budget, pue


@template("cost.gpus_for_power", topic="cost", title="GPUs a power budget holds",
          title_zh="功率预算能放多少张 GPU", difficulty=2, target_seconds=90, source="dgx_guides, green_grid_pue")
def gpus_for_power(rng):
    gpu, name, rack = _system(rng)
    net = rng.choice(NETWORK_W)
    per_gpu = _planned(gpu.node_power / gpu.gpus_per_node + net)
    budget, pue = _site(rng, per_gpu)
    share = fmt_quantity(gpu.node_power / gpu.gpus_per_node, "power", unit="W")
    lines = (f"IT power per GPU: {name}'s share {share} + {net} W of network, rounded up to 50 W = {per_gpu:,.0f} W",)
    lines_zh = (f"单卡 IT 功率：{name} 的分摊 {share} + 网络 {net} W，向上取整到 50 W = {per_gpu:,.0f} W",)
    mw = budget / 1e6
    return Spec(
        givens=(given("it_power_per_gpu", "IT power per GPU, as planned (system share + network, rounded up to 50 W)",
                      "规划的单卡 IT 功率（整机分摊 + 网络，向上取整到 50 W）", per_gpu, "power", "W"),
                given("facility_power", "Site power budget", "机房功率预算", budget, "power", "MW"), _pue_given(pue)),
        asks=(Ask(formula="gpus_for_power", unit="GPUs", integer=True,
                  inputs={"facility_power": budget, "it_power_per_gpu": per_gpu, "pue": pue},
                  explanation=lines, explanation_zh=lines_zh,
                  prompt_en=f"You have {mw:g} MW at the meter and a PUE of {pue:g}. How many {gpu.name} GPUs in "
                            f"{name} {'racks' if rack else 'systems'} can the site power?",
                  prompt_zh=f"电表上有 {mw:g} MW，PUE 为 {pue:g}。这个机房能给多少张装在 {name} "
                            f"{'机柜' if rack else '整机'}里的 {gpu.name} 供电？"),),
        **_conv(gpu, CONV_EN + " Count whole GPUs (the site cannot exceed its power).",
                CONV_ZH + "按整卡计（机房用电不能超过它的功率）。"),
        world=World(gpu=gpu),
    )


def _rack_limit(rng, node_power: float, g: int, rack: bool) -> float:
    """A rack power limit (W) holding whole nodes with room left for at least one more GPU's worth (so counting a
    split node is a different answer): air-cooled 15-40 kW, liquid-cooled 50-140 kW, an NVL72 site 125-160 kW."""
    while True:
        if rack:
            limit = rng.choice((125, 130, 132, 135, 140, 145, 150, 160)) * 1e3
        else:
            limit = (rng.choice(range(15, 41)) if rng.random() < 0.35 else rng.choice(range(50, 141, 5))) * 1e3
        whole = limit // node_power
        if whole >= 1 and (limit / node_power - whole) * g >= 1.05:
            return limit


def _rack_limit_for_count(rng, node_power: float, g: int, dense: bool = False) -> float:
    """A rack power limit (W, whole kW) for a whole-node count drawn first, evenly over every count a rack of the
    spec's ranges holds (air-cooled 15-40 kW, liquid-cooled 50-140 kW), with room for at least one more GPU's
    worth.  ``dense``: the upper half of the counts (nodes are capped to pack more of them into a rack)."""
    top = int(140e3 // node_power)
    while True:
        nodes = rng.randint((top + 1) // 2 if dense else 1, top)
        limit = round(node_power * (nodes + rng.uniform(0.15, 0.95)) / 1e3) * 1e3
        in_range = 15e3 <= limit <= 40e3 or 50e3 <= limit <= 140e3
        if in_range and limit // node_power == nodes and (limit / node_power - nodes) * g >= 1.05:
            return limit


@template("cost.gpus_per_rack", topic="cost", title="GPUs one rack's power allows",
          title_zh="一个机柜的功率能放多少张 GPU", difficulty=1, target_seconds=60, source="dgx_guides")
def gpus_per_rack(rng):
    gpu, name, _ = _system(rng, racks=False)
    # most DGX H100s are capped by their operator at the typical draw the spec quotes (6.5-8.5 kW, third-party
    # figures, not verified): the whole-node count is the same arithmetic on another node power
    capped = gpu.key == "h100_sxm" and rng.random() < 0.7
    if capped:
        node_power = rng.choice((6.5, 7.0, 7.5, 8.0, 8.5)) * 1e3
        node_given = given("node_power", f"{name} power cap", f"{name} 的功率上限", node_power, "power", "kW")
    else:
        node_power = gpu.node_power
        node_given = _system_givens(gpu, name, False)[0]
    limit = _rack_limit_for_count(rng, node_power, 8, dense=capped)
    cooling_en, cooling_zh = ("an air-cooled", "风冷") if limit <= 40e3 else ("a liquid-cooled", "液冷")
    how_en = f"capped at {node_power / 1e3:g} kW each" if capped else "at their datasheet maximum"
    how_zh = f"每台限功率 {node_power / 1e3:g} kW" if capped else "按规格书最大功率"
    return Spec(
        givens=(node_given, _system_givens(gpu, name, False)[1],
                given("rack_power_limit", "Rack power limit", "机柜功率上限", limit, "power", "kW")),
        asks=(Ask(formula="gpus_per_rack", unit="GPUs", integer=True,
                  inputs={"rack_power_limit": limit, "node_power": node_power, "gpus_per_node": gpu.gpus_per_node},
                  prompt_en=f"{cooling_en[0].upper()}{cooling_en[1:]} rack may draw {limit / 1e3:g} kW. How many GPUs "
                            f"does it hold in {name} systems, {how_en}?",
                  prompt_zh=f"一个{cooling_zh}机柜最多用 {limit / 1e3:g} kW。放 {name} 整机（{how_zh}），能放多少张 GPU？"),),
        **_conv(gpu, "A rack takes whole systems; kW = 10³ W.", "机柜只能放整机；kW = 10³ W。"),
        world=World(gpu=gpu),
    )


@template("cost.power_budget_chain", topic="cost",
          title="Chain: a power budget: IT power per GPU → MW per 1k GPUs → GPUs for the site → GPUs per rack",
          title_zh="追问链：功率预算：单卡 IT 功率 → 每千卡兆瓦数 → 机房能放的 GPU 数 → 每机柜 GPU 数", difficulty=3,
          target_seconds=420, source="dgx_guides, green_grid_pue")
def power_budget_chain(rng):
    gpu, name, rack = _system(rng)
    net = rng.choice((10, 25, 40, 50, 75, 100))
    per_gpu = gpu.node_power / gpu.gpus_per_node + net
    budget, pue = _site(rng, _planned(per_gpu))
    limit = _rack_limit(rng, gpu.node_power, gpu.gpus_per_node, rack)
    what_en, what_zh = ("racks", "机柜") if rack else ("systems", "整机")
    return Spec(
        scenario_en=f"\"You have {budget / 1e6:g} MW: how many {gpu.name}s, and how many per rack?\" The GPUs come in "
                    f"{name} {what_en}; each GPU also carries {net} W of scale-out network, the site runs at a PUE "
                    f"of {pue:g}, and a rack may draw {limit / 1e3:g} kW.",
        scenario_zh=f"「你有 {budget / 1e6:g} MW：能放多少张 {gpu.name}？每个机柜放多少？」GPU 装在 {name} {what_zh}里；"
                    f"每张卡另分摊 {net} W 的 scale-out 网络，机房 PUE 为 {pue:g}，一个机柜最多用 {limit / 1e3:g} kW。",
        givens=_system_givens(gpu, name, rack) + (
            given("network_w_per_gpu", "Scale-out network per GPU", "每卡分摊的 scale-out 网络", net, "power", "W"),
            _pue_given(pue), given("facility_power", "Site power budget", "机房功率预算", budget, "power", "MW"),
            given("rack_power_limit", "Rack power limit", "机柜功率上限", limit, "power", "kW")),
        asks=(Ask(formula="it_power_per_gpu", unit="W", extras={"gpu_tdp": gpu.tdp},
                  inputs={"node_power": gpu.node_power, "gpus_per_node": gpu.gpus_per_node, "network_w_per_gpu": net},
                  prompt_en="What IT power does one GPU stand for, in W?",
                  prompt_zh="一张 GPU 代表多少 IT 功率（W）？"),
              Ask(formula="facility_power", unit="MW", extras={"gpu_tdp": gpu.tdp},
                  inputs={"n_gpus": 1000, "it_power_per_gpu": per_gpu, "pue": pue},
                  prompt_en="How many MW does the site draw per 1,000 GPUs?",
                  prompt_zh="每 1,000 张 GPU 在机房里要用多少 MW？"),
              Ask(formula="gpus_for_power", unit="GPUs", integer=True,
                  inputs={"facility_power": budget, "it_power_per_gpu": _planned(per_gpu), "pue": pue},
                  prompt_en="Budgeting each GPU at that IT power rounded up to the next 50 W, how many GPUs can the "
                            "site power?",
                  prompt_zh="按这个单卡 IT 功率向上取整到 50 W 做预算，这个机房能给多少张 GPU 供电？"),
              Ask(formula="gpus_per_rack", unit="GPUs", integer=True,
                  inputs={"rack_power_limit": limit, "node_power": gpu.node_power, "gpus_per_node": gpu.gpus_per_node},
                  prompt_en=f"How many GPUs does one rack's power allow, in whole {name} {what_en}?",
                  prompt_zh=f"一个机柜的功率按整{what_zh}计能放多少张 GPU？")),
        **_conv(gpu, CONV_EN + " Whole GPUs, whole systems per rack.", CONV_ZH + "GPU 按整卡计，机柜按整机计。"),
        world=World(gpu=gpu),
    )


def _tco(rng) -> dict:
    """An H100 bought all-in (its share of a DGX H100 and the network), drawing its share of the system's maximum."""
    gpu = hardware.get("h100_sxm")
    assert gpu.node_power and gpu.gpus_per_node  # the catalogue gives DGX H100's 10.2 kW and 8 GPUs
    while True:
        t = {"capex_per_gpu": float(rng.choice(range(25000, 45001, 2500))), "years": rng.choice((4, 5)),
             "power_w": gpu.node_power / gpu.gpus_per_node, "pue": rng.choice(PUES),
             "price_per_kwh": rng.choice((0.05, 0.06, 0.07, 0.08, 0.09, 0.1, 0.11, 0.12))}
        t["utilisation"] = rng.choice((0.7, 0.75, 0.8, 0.85, 0.9))
        t["rental_price"] = rng.choice((2.0, 2.1, 2.2, 2.25, 2.3, 2.4, 2.5, 2.6, 2.7, 2.75, 2.8, 2.9, 3.0))
        power_h = t["power_w"] * t["pue"] * t["price_per_kwh"] / 1000
        if t["capex_per_gpu"] / (t["years"] * 8760 * (t["rental_price"] - power_h)) <= 0.95:
            return {"gpu": gpu, **t}


def _tco_givens(t: dict, busy: bool = True, rent: bool = False) -> tuple:
    return (given("capex_per_gpu", "Price per GPU, all-in", "每卡购置价（全包）", t["capex_per_gpu"], "dollars", "$"),
            given("years", "Years of amortisation", "摊销年数", t["years"]),
            given("power_w", "Power per GPU (DGX H100 10.2 kW ÷ 8)", "每卡功率（DGX H100 10.2 kW ÷ 8）", t["power_w"],
                  "power", "W"),
            _pue_given(t["pue"]),
            given("price_per_kwh", "Electricity per kWh", "每千瓦时电价", t["price_per_kwh"], "dollars", "$")) + (
        (given("utilisation", "Utilisation", "利用率", t["utilisation"], "ratio"),) if busy else ()) + (
        (given("rental_price", "Rental price", "租用价格", t["rental_price"], "usd_per_gpu_hour", "$/GPU-h"),)
        if rent else ())


OWNED_KEYS = ("capex_per_gpu", "years", "utilisation", "power_w", "pue", "price_per_kwh")
BREAKEVEN_KEYS = ("capex_per_gpu", "years", "rental_price", "power_w", "pue", "price_per_kwh")


@template("cost.owned_gpu_hour", topic="cost", title="The cost of an owned GPU-hour",
          title_zh="自有 GPU 每小时的成本", difficulty=2, target_seconds=120, source="tco_arithmetic")
def owned_gpu_hour(rng):
    t = _tco(rng)
    return Spec(
        givens=_tco_givens(t),
        asks=(Ask(formula="owned_gpu_hour_cost", unit="$/GPU-h", inputs={k: t[k] for k in OWNED_KEYS},
                  prompt_en=f"You buy H100s at ${t['capex_per_gpu']:,.0f} each all-in, amortised over {t['years']} "
                            f"years, busy {t['utilisation']:.0%} of the hours, in a site at PUE {t['pue']:g} paying "
                            f"${t['price_per_kwh']:g} per kWh. What does one utilised GPU-hour cost you?",
                  prompt_zh=f"你以每张 ${t['capex_per_gpu']:,.0f}（全包）买入 H100，按 {t['years']} 年摊销，{t['utilisation']:.0%} "
                            f"的时间在忙，机房 PUE 为 {t['pue']:g}，电价每千瓦时 ${t['price_per_kwh']:g}。"
                            "每个有效 GPU 小时花你多少钱？"),),
        **_conv(t["gpu"], TCO_CONV_EN, TCO_CONV_ZH),
        world=World(gpu=t["gpu"]),
    )


@template("cost.breakeven_utilisation", topic="cost", title="Buy or rent: the break-even utilisation",
          title_zh="买还是租：盈亏平衡利用率", difficulty=2, target_seconds=120, source="tco_arithmetic")
def breakeven_utilisation(rng):
    t = _tco(rng)
    return Spec(
        givens=_tco_givens(t, busy=False, rent=True),
        asks=(Ask(formula="breakeven_utilisation", unit="%", inputs={k: t[k] for k in BREAKEVEN_KEYS},
                  prompt_en=f"H100s cost ${t['capex_per_gpu']:,.0f} each all-in over {t['years']} years, or rent at "
                            f"${t['rental_price']:g} per GPU-hour. At PUE {t['pue']:g} and ${t['price_per_kwh']:g} per "
                            "kWh, above what utilisation does owning cost less per busy hour than renting, in %?",
                  prompt_zh=f"H100 每张全包 ${t['capex_per_gpu']:,.0f}、用 {t['years']} 年，或者按每 GPU 小时 "
                            f"${t['rental_price']:g} 租用。PUE 为 {t['pue']:g}、电价每千瓦时 ${t['price_per_kwh']:g} 时，"
                            "利用率高于多少（%），自建每个有效小时的成本才低于租用？"),),
        **_conv(t["gpu"], TCO_CONV_EN, TCO_CONV_ZH),
        world=World(gpu=t["gpu"]),
    )


@template("cost.buy_or_rent_chain", topic="cost", title="Chain: buy or rent: owned GPU-hour → break-even utilisation",
          title_zh="追问链：买还是租：自有 GPU 小时成本 → 盈亏平衡利用率", difficulty=2, target_seconds=240,
          source="tco_arithmetic")
def buy_or_rent_chain(rng):
    t = _tco(rng)
    return Spec(
        scenario_en=f"\"Buy H100s or rent them?\" All-in ${t['capex_per_gpu']:,.0f} per GPU over {t['years']} years, "
                    f"{t['power_w']:,.0f} W per GPU at PUE {t['pue']:g} and ${t['price_per_kwh']:g} per kWh, planned "
                    f"{t['utilisation']:.0%} busy; the cloud rents the same GPU at ${t['rental_price']:g} per GPU-hour.",
        scenario_zh=f"「H100 是买还是租？」每卡全包 ${t['capex_per_gpu']:,.0f}、用 {t['years']} 年，每卡 {t['power_w']:,.0f} W，"
                    f"PUE {t['pue']:g}，电价每千瓦时 ${t['price_per_kwh']:g}，计划 {t['utilisation']:.0%} 的时间在忙；"
                    f"云上同款 GPU 每小时租 ${t['rental_price']:g}。",
        givens=_tco_givens(t, rent=True),
        asks=(Ask(formula="owned_gpu_hour_cost", unit="$/GPU-h", inputs={k: t[k] for k in OWNED_KEYS},
                  prompt_en="What does one utilised GPU-hour of an owned H100 cost?",
                  prompt_zh="自有 H100 每个有效 GPU 小时的成本是多少？"),
              Ask(formula="breakeven_utilisation", unit="%", inputs={k: t[k] for k in BREAKEVEN_KEYS},
                  prompt_en="Above what utilisation does owning beat the rental price, in %?",
                  prompt_zh="利用率高于多少（%）时，自建比租用便宜？")),
        **_conv(t["gpu"], TCO_CONV_EN, TCO_CONV_ZH),
        world=World(gpu=t["gpu"]),
    )
