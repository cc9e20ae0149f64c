"""The template kit (question_bank/kit.py): a given declared from the catalogue shows the catalogue's
figure, of the chip or model the problem's world runs on."""

from __future__ import annotations

import math

import pytest

from question_bank import hardware, kit, models
from question_bank.spec import World
from tests import problems


def _entries(worlds: tuple[World, ...]) -> set[str]:
    out = set()
    for w in worlds:
        out |= {x.key for x in (w.gpu, w.model) if x is not None and hasattr(x, "key")}
    return out


@pytest.mark.parametrize("tid", problems.template_ids())
def test_a_given_from_the_catalogue_shows_its_entry_figure(tid):
    for p in problems.each(tid):
        entries = _entries(p.worlds)
        for g in p.givens:
            if g.origin is None:
                continue
            assert math.isclose(float(g.value), kit.figure(g.origin), rel_tol=1e-12), (tid, p.seed, g)
            assert not entries or g.origin.entry in entries, \
                f"{tid} seed {p.seed}: {g.name} comes from {g.origin.entry}, the world runs {sorted(entries)}"


def test_the_kit_declares_label_unit_and_origin_once():
    gpu = hardware.get("h100_sxm")
    g = kit.chip(gpu, "bandwidth")
    assert (g.name, g.label_en, g.label_zh, g.display) == ("bandwidth", "Memory bandwidth", "显存带宽", "3350 GB/s")
    assert str(g.origin) == "h100_sxm.bandwidth"
    eight = kit.chip(gpu, "memory", times=8, label=("Memory (all GPUs)", "显存（全部 GPU）"))
    assert (eight.display, str(eight.origin), eight.label("zh")) == ("640 GB", "h100_sxm.memory × 8", "显存（全部 GPU）")
    fp8 = kit.chip(gpu, "peak", dtype="fp8")
    assert fp8.value == gpu.peak("fp8") and fp8.origin.field == "peak:fp8"
    m = models.get("llama3_70b")
    phi = kit.model(m, "phi")  # Φ as people say it: 70.6B is 71B
    assert phi.value == kit.figure(phi.origin) == 71e9 and str(phi.origin) == "llama3_70b.phi"
    assert kit.model(m, "n_kv_heads").value == m.n_kv_heads == 8


def test_ask_json_says_where_each_catalogue_figure_comes_from():
    from question_bank import registry

    d = registry.get("inference.kv_cache_size").generate(1).to_dict()
    sourced = {g["name"]: g["from"] for g in d["givens"] if "from" in g}
    assert sourced["n_kv_heads"].endswith(".n_kv_heads") and "batch" not in sourced
