"""The catalogue as data: the built-in TOML files load, validate and become the records."""

from __future__ import annotations

import marshal

import pytest

from question_bank import catalogue, catalogue_cache, hardware, models
from question_bank.data import BUILTIN_FILES


def test_every_builtin_entry_loads_and_validates():
    entries = catalogue.full_entries()  # parsed and validated afresh, sources included
    assert len(catalogue.read_builtin("ranges")["ranges"]) >= 20
    assert len(entries["accelerators"]) >= 9 and len(entries["models"]) >= 18 and len(entries["links"]) >= 10
    for section, items in entries.items():
        for e in items:
            assert e["source"], (section, e["id"])
    ids = [e["id"] for section in ("accelerators", "models") for e in entries[section]]
    assert len(ids) == len(set(ids)), "an id names one entry across accelerators and models"


def test_the_records_are_the_data():
    data = {e["id"]: e for e in catalogue.full_entries()["accelerators"]}
    for g in hardware.ALL:
        e = data[g.key]
        assert g.memory == e["memory_gb"] * 1e9 and g.bandwidth == pytest.approx(e["memory_bandwidth_tbs"] * 1e12)
        assert g.bf16 == (e["bf16_tflops"] * 1e12 if "bf16_tflops" in e else None)
    m = models.get("deepseek_v3")
    assert (m.ffn, m.ffn_dense, m.moe_layers, m.attention_kind) == (2048, 18432, 58, "mla")


def test_the_cache_is_used_and_rebuilt_when_a_file_changes(tmp_path, monkeypatch):
    monkeypatch.setattr(catalogue_cache, "CACHE_DIR", tmp_path / "__pycache__")
    monkeypatch.setattr(catalogue_cache.sys, "dont_write_bytecode", False)
    monkeypatch.setattr(catalogue_cache, "_builtin", {})
    first = catalogue_cache.builtin_entries("models")
    path = tmp_path / "__pycache__" / "catalogue-models.marshal"
    cached = marshal.loads(path.read_bytes())
    assert cached["entries"] == first and "sources" not in first["models"][0]
    # a cache whose stamps no longer match (a data file edited) is not used
    cached["stamps"][-1][2] += 1
    cached["entries"] = {"models": []}
    path.write_bytes(marshal.dumps(cached))
    monkeypatch.setattr(catalogue_cache, "_builtin", {})
    assert catalogue_cache.builtin_entries("models") == first


def test_a_damaged_cache_is_read_from_the_files(tmp_path, monkeypatch):
    monkeypatch.setattr(catalogue_cache, "CACHE_DIR", tmp_path)
    monkeypatch.setattr(catalogue_cache, "_builtin", {})
    (tmp_path / "catalogue-hardware.marshal").write_bytes(b"\x00garbage")
    assert catalogue_cache.builtin_entries("hardware")["accelerators"][0]["id"] == "v100"


def test_the_data_files_are_package_data():
    import tomllib
    from pathlib import Path

    pyproject = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())
    patterns = pyproject["tool"]["setuptools"]["package-data"]["question_bank.data"]
    assert all(any(p.match(pat) for pat in patterns) for p in BUILTIN_FILES.values())


def test_context_is_the_shipped_config_max_position_embeddings():
    # the catalogue's context is config.json's max_position_embeddings; the advertised one is in the note
    assert models.get("deepseek_v3").context == 163_840 and "128K" in models.get("deepseek_v3").notes
    assert models.get("deepseek_v2").context == 163_840
    assert models.get("qwen3_235b_a22b").context == 40_960 and "32,768" in models.get("qwen3_235b_a22b").notes


def test_pools_hold_what_their_problems_need():
    assert {g.key for g in hardware.pool("fp4")} >= {"b200", "b300", "gb200", "gb300"}
    assert all(g.supports("fp4") and g.fp4 for g in hardware.pool("fp4"))
    assert all(g.scale_up_domain == 72 for g in hardware.pool("rack"))  # a rack-scale part states its domain
    assert all(g.vendor == "Google" and g.scale_up_domain >= 256 for g in hardware.pool("tpu"))
    assert all(m.is_moe and m.flop_params < 0.2 * m.total_params for m in models.pool("few_active"))
    assert all(m.context >= 131_072 for m in models.pool("long_context"))
    # a chip without FP4 is never asked an FP4 question: the only template with fp4 weights draws from the pool
    from question_bank import registry

    for seed in range(60):
        w = registry.get("inference.fp4_decode").generate(seed).worlds[0]
        assert w.gpu.supports("fp4") and w.model.total_params * 0.5 <= w.gpu.memory


def test_new_entries_keep_the_general_pools_as_they_were():
    # the 2026 entries join their own pools: the GPUs and models every other template draws are unchanged
    assert [g.key for g in hardware.GPUS] == ["v100", "a100_40", "a100_80", "h100_sxm", "h100_pcie", "h200", "b200",
                                              "l40s", "mi300x"]
    assert len(models.MODELS) == 11 and len(models.MOE_MODELS) == 5


def test_ranges_are_dated_sourced_and_drawn_inside():
    import random

    from question_bank import ranges
    from question_bank.catalogue_cache import builtin_entries

    all_ranges = [ranges.get(e["id"]) for e in builtin_entries("ranges")["ranges"]]
    assert len(all_ranges) >= 20
    for r in all_ranges:
        assert r.low <= r.high and r.source and r.as_of[:2] in ("19", "20") and r.unit
        rng = random.Random(r.id)
        for _ in range(20):
            assert r.low <= ranges.draw(rng, r.id) <= r.high
    assert ranges.get("price_h100_ondemand").unit == "USD/GPU-h"
    with pytest.raises(KeyError, match="price_h100_ondemand"):
        ranges.get("nope")


def test_a_range_out_of_order_is_refused():
    doc = {"ranges": [{"id": "x", "name": "X", "low": 2, "high": 1, "unit": "h", "as_of": "2026-05", "source": "s"}]}
    with pytest.raises(catalogue.CatalogueError, match="field low"):
        catalogue.validate(doc, "ranges.toml", sections=("ranges",))
