"""Validating catalogue files: one clear error naming the file, the entry and the field; dense
figures only; user files in <saves>/catalogue/; `drill catalogue` and its JSON round trip."""

from __future__ import annotations

import json
import tomllib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from drill import cli
from question_bank import catalogue, hardware, models, user_catalogue
from question_bank.catalogue import CatalogueError
from tests.problems import examples

MY_GPU = """
[[accelerators]]
id = "my_gpu"
name = "My GPU"
vendor = "Acme"
memory_gb = 96
memory_bandwidth_tbs = 4.0
bf16_tflops = 800
fp16_tflops = 800
fp8_tflops = 1600
fp32_tflops = 60
tdp_w = 700
source = "Acme X1 datasheet"
"""
MY_MODEL = """
[[models]]
id = "my_model"
name = "My-13B"
params_total = 1.3e10
layers = 40
d_model = 5120
n_heads = 40
n_kv_heads = 8
d_head = 128
ffn = 13824
vocab = 32000
context = 16384
attention = "gqa"
gated = true
source = "our config.json"
"""


def _check(text: str) -> dict:
    return user_catalogue.check_text(text.encode(), "mine.toml")


def _error(text: str) -> CatalogueError:
    with pytest.raises(CatalogueError) as e:
        _check(text)
    return e.value


def test_a_user_file_validates_into_records():
    entries = _check(MY_GPU + MY_MODEL)
    g = hardware.gpu_from_entry(entries["accelerators"][0])
    assert g.peak("bf16") == 800e12 and g.memory == 96e9 and g.precisions == ("fp32", "fp16", "bf16", "fp8")
    m = models.model_from_entry(entries["models"][0])
    assert m.attention == "GQA" and m.max_seq == 16384 and not m.is_moe


@pytest.mark.parametrize("change, field, said", [
    (("bf16_tflops = 800", "bf16_tflops = 800.0\nbf16_tflops = 1"), None, "not valid TOML"),
    (("memory_gb = 96", "memory_gb = \"96\""), "memory_gb", "must be a number"),
    (("memory_gb = 96", "memory_gb = -96"), "memory_gb", "positive"),
    (("memory_gb = 96", "memory_gbs = 96"), "memory_gbs", "unknown field"),
    (("name = \"My GPU\"", "name = \"My\\u001b[31mGPU\""), "name", "control character"),
    (("fp32_tflops = 60", "fp32_tflops = 60\nprecisions = [\"fp32\", \"bf16\", \"fp16\"]"), "fp8_tflops",
     "precisions"),
    (("source = \"Acme X1 datasheet\"", ""), "source", "missing"),
    (("tdp_w = 700", "tdp_w = 700\npools = [\"general\"]"), "pools", "built-in"),
    (("id = \"my_gpu\"", "id = \"h100_sxm\""), "id", "already used"),
    (("tdp_w = 700", "tdp_w = 700\nscale_out_nic_gbps = 50"), "scale_out_nic_gbps", "not a NIC port speed"),
])
def test_each_problem_is_one_message_naming_file_entry_and_field(change, field, said):
    e = _error(MY_GPU.replace(*change))
    assert said in e.text("en") and e.text("en").startswith("mine.toml")
    if field:
        assert e.field == field and f"field {field}" in e.text("en")
        assert "accelerators[1]" in e.text("en") and "accelerators 第 1 项" in e.text("zh")


@pytest.mark.parametrize("value, said", [
    ("5e-324", "must be a normal number, not the subnormal 5e-324"),
    ("1e-300", "must be positive, from 1 to 100000 GB, not 1e-300"),
    ("0.08", "must be positive, from 1 to 100000 GB, not 0.08"),  # 80 GB written in TB
    ("1e300", "must be positive, from 1 to 100000 GB, not 1e+300"),
    ("0", "must be positive, from 1 to 100000 GB, not 0"),
])
def test_a_figure_must_be_a_normal_positive_number_within_its_field_s_range(value, said):
    e = _error(MY_GPU.replace("memory_gb = 96", f"memory_gb = {value}"))
    assert e.field == "memory_gb" and said in e.text("en")
    assert ("次正规数" if "subnormal" in said else "必须为正，在 1 到 100000 GB 之间") in e.text("zh")


@pytest.mark.parametrize("field, value", [("memory_bandwidth_tbs", "5e-324"), ("bf16_tflops", "1e-9"),
                                          ("tdp_w", "1e-300"), ("fp32_tflops", "2e-308")])
def test_every_figure_has_a_least_value(field, value):
    text = MY_GPU if f"{field} = " in MY_GPU else MY_GPU + f"{field} = 1\n"
    line = next(ln for ln in text.splitlines() if ln.startswith(f"{field} = "))
    e = _error(text.replace(line, f"{field} = {value}"))
    assert e.field == field


def test_a_subnormal_in_a_built_in_range_is_refused():
    doc = catalogue.parse_toml("ranges.toml", text=catalogue.BUILTIN_FILES["ranges"].read_text())
    doc["ranges"][0]["low"] = 5e-324
    with pytest.raises(CatalogueError, match="subnormal"):
        catalogue.validate(doc, "ranges.toml", sections=("ranges",))


def test_the_2_4_sparse_datasheet_figure_is_refused():
    # H100 SXM's datasheet prints 1,979 TFLOPS bf16 "with sparsity": the dense figure is 989
    h100 = MY_GPU.replace("My GPU", "H100 SXM").replace("= 800", "= 1979").replace("1600", "3958")
    e = _error(h100)
    assert e.field in ("fp16_tflops", "bf16_tflops") and "2:4-sparse" in e.text("en") and "稀疏" in e.text("zh")
    # under the per-watt bound, the known-dense cross-check catches a named chip: A100's 624 at 400 W
    a100 = MY_GPU.replace("My GPU", "A100 80GB SXM").replace("= 800", "= 624").replace("1600", "").replace(
        "fp8_tflops = \n", "").replace("tdp_w = 700", "tdp_w = 400")
    e = _error(a100)
    assert "2:4-sparse" in e.text("en") and "312" in e.text("en")
    # the same rule on a built-in data file: a sparse figure given as dense fails validation
    doc = catalogue.parse_toml("accelerators.toml", text=(catalogue.BUILTIN_FILES["accelerators"].read_text()
                                                          .replace("bf16_tflops = 989", "bf16_tflops = 1979", 1)))
    with pytest.raises(CatalogueError, match="2:4-sparse"):
        catalogue.validate(doc, "accelerators.toml", sections=("accelerators",))


def test_a_peak_for_a_precision_the_chip_lacks_is_refused():
    e = _error(MY_GPU.replace("tdp_w = 700", "tdp_w = 700\nprecisions = [\"fp32\", \"fp16\", \"bf16\"]"))
    assert e.field == "fp8_tflops" and "no fp8 peak" in e.text("en")


@pytest.mark.parametrize("change, field", [
    (("attention = \"gqa\"", "attention = \"mha\""), "attention"),
    (("params_total = 1.3e10", "params_total = 13"), "params_total"),
    (("n_kv_heads = 8", "n_kv_heads = 7"), "n_kv_heads"),
    (("ffn = 13824", "ffn = 13824\ntop_k = 2"), "top_k"),
    (("context = 16384", "context = 16384.5"), "context"),
])
def test_model_rules(change, field):
    e = _error(MY_MODEL.replace(*change))
    assert e.field == field


def test_a_file_is_bounded(tmp_path):
    big = tmp_path / "big.toml"
    big.write_text("# " + "x" * catalogue.MAX_USER_BYTES)
    with pytest.raises(CatalogueError, match="at most"):
        user_catalogue.read_file(big)
    many = "".join(MY_GPU.replace("my_gpu", f"g{i}") for i in range(catalogue.MAX_USER_ENTRIES + 1))
    assert "at most 200" in _error(many).text("en")
    with pytest.raises(CatalogueError, match="not a regular file"):
        user_catalogue.read_file(tmp_path)


def _drill(capsys, *argv) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_user_files_join_the_catalogue_and_a_bad_one_is_named(tmp_path, capsys):
    folder = tmp_path / "catalogue"
    folder.mkdir()
    (folder / "mine.toml").write_text(MY_GPU + MY_MODEL)
    (folder / "broken.toml").write_text(MY_GPU.replace("my_gpu", "other").replace("memory_gb = 96", "memory_gb = 0"))
    code, out, err = _drill(capsys, "--saves", str(tmp_path), "catalogue")
    assert code == 1 and "my_gpu" in out and "My-13B" in out and "h100_sxm" in out
    assert "broken.toml" in err and "field memory_gb" in err and "Traceback" not in err
    assert err.count("\n") == 1
    code, out, err = _drill(capsys, "--saves", str(tmp_path), "catalogue", "show", "my_gpu")
    assert "Acme X1 datasheet" in out and "mine.toml" in out
    assert hardware.get("my_gpu").origin.endswith("mine.toml")
    code, out, err = _drill(capsys, "catalogue", "check", str(folder / "mine.toml"))
    assert code == 0 and "valid" in out
    code, out, err = _drill(capsys, "--lang", "zh", "catalogue", "check", str(folder / "broken.toml"))
    assert code == 1 and "字段 memory_gb" in err


def test_the_json_round_trips_through_the_validator(tmp_path, capsys):
    (tmp_path / "catalogue").mkdir()
    (tmp_path / "catalogue" / "mine.toml").write_text(MY_GPU + MY_MODEL)
    code, out, _ = _drill(capsys, "--saves", str(tmp_path), "catalogue", "--json")
    doc = json.loads(out)
    assert code == 0 and set(doc) >= {"accelerators", "models"}
    h100 = next(a for a in doc["accelerators"] if a["id"] == "h100_sxm")
    assert h100["fp4_tflops"] is None and h100["bf16_tflops"] == 989 and h100["origin"] == "built-in"
    for section in ("accelerators", "models"):
        builtin = [{k: v for k, v in e.items() if k != "origin"} for e in doc[section] if e["origin"] == "built-in"]
        back = catalogue.validate({section: builtin}, "catalogue.json", sections=(section,))[section]
        assert [e["id"] for e in back] == [e["id"] for e in builtin]
        assert back == [{k: v for k, v in e.items() if v is not None} for e in builtin]
    mine = [{k: v for k, v in e.items() if k != "origin"} for e in doc["accelerators"] if e["origin"] != "built-in"]
    assert catalogue.validate({"accelerators": mine}, "mine.json", user=True)["accelerators"][0]["id"] == "my_gpu"


_toml_chars = st.sampled_from(list("[]{}=\"'.,#\n \\tx1e_-+:") + ["accelerators", "models", "id", "memory_gb",
                                                                  "[[accelerators]]", "[[models]]", "\x00", "é"])


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.lists(_toml_chars, max_size=60).map("".join),
                 st.builds(lambda base, i, junk: base[:i] + junk + base[i:], st.just(MY_GPU + MY_MODEL),
                           st.integers(0, len(MY_GPU + MY_MODEL)), st.lists(_toml_chars, max_size=5).map("".join))))
def test_malformed_toml_gets_a_clean_error_never_a_traceback(text):
    try:
        _check(text)
    except CatalogueError as e:
        assert e.text("en").startswith("mine.toml") and e.text("zh").startswith("mine.toml")


def test_deep_nesting_is_a_clean_error():
    with pytest.raises(CatalogueError):
        _check("x = " + "[" * 100_000)


def test_the_docs_example_validates():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "catalogue.md").read_text(encoding="utf-8")
    block = doc.split("## Your own hardware", 1)[1].split("```toml", 1)[1].split("```", 1)[0]
    entries = _check(block)
    assert [e["id"] for e in entries["accelerators"]] == ["lab_gpu"] and entries["models"][0]["id"] == "lab_13b"


def test_the_scale_out_nic_is_a_port_speed_and_a_built_in_one_is_sourced():
    g = hardware.gpu_from_entry(_check(MY_GPU + "scale_out_nic_gbps = 400\n")["accelerators"][0])
    assert g.scale_out_nic == 50e9  # 400 Gb/s one way: 50 GB/s
    # the systems the network templates draw: 400G ConnectX-7 on Hopper, B200 and GB200, 800G ConnectX-8 on GB300
    nic = {k: hardware.get(k).scale_out_nic for k in ("h100_sxm", "h200", "b200", "gb200", "gb300")}
    assert nic == {"h100_sxm": 50e9, "h200": 50e9, "b200": 50e9, "gb200": 50e9, "gb300": 100e9}
    builtin = MY_GPU.replace("source = \"Acme X1 datasheet\"", "source = \"Acme X1 datasheet\"\nscale_out_nic_gbps = 400")
    with pytest.raises(CatalogueError) as e:
        catalogue.validate(tomllib.loads(builtin), "accelerators.toml", sections=("accelerators",))
    assert e.value.field == "sources" and "scale_out_nic_gbps" in e.value.text("en")


def test_a_system_s_power_is_shared_by_its_gpus_and_a_built_in_figure_is_sourced():
    g = hardware.gpu_from_entry(_check(MY_GPU + "node_power_kw = 10.2\ngpus_per_node = 8\nsm_count = 132\n"
                                       "smem_per_sm_kib = 256\nhost_link_gbs = 64\n")["accelerators"][0])
    assert (g.node_power, g.gpus_per_node, g.sms, g.smem_per_sm, g.host_link) == (10200, 8, 132, 262144, 64e9)
    # the systems the power templates draw: DGX H100 and DGX B200 (8 GPUs), GB200 / GB300 NVL72 racks (72)
    systems = {k: (hardware.get(k).node_power, hardware.get(k).gpus_per_node)
               for k in ("h100_sxm", "b200", "gb200", "gb300")}
    assert systems == {"h100_sxm": (10200, 8), "b200": (14300, 8), "gb200": (120000, 72), "gb300": (142000, 72)}
    assert {k: hardware.get(k).sms for k in ("a100_80", "h100_sxm", "b200")} == {"a100_80": 108, "h100_sxm": 132,
                                                                                 "b200": 148}
    assert _error(MY_GPU + "node_power_kw = 10.2\n").field == "gpus_per_node"
    assert _error(MY_GPU + "node_power_kw = 1.275\ngpus_per_node = 8\n").field == "node_power_kw"  # 159 W < TDP
    builtin = MY_GPU.replace("source = \"Acme X1 datasheet\"", "source = \"Acme X1 datasheet\"\nsm_count = 132")
    with pytest.raises(CatalogueError) as e:
        catalogue.validate(tomllib.loads(builtin), "accelerators.toml", sections=("accelerators",))
    assert e.value.field == "sources" and "sm_count" in e.value.text("en")
