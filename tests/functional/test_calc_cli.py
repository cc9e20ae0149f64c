"""`drill calc` end to end, as a person or a script runs it (in-process: tests/cli.py; a closed pipe, a process)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests import cli

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.functional


def drill(*args: str) -> subprocess.CompletedProcess:
    return cli.drill("calc", *args)


def calc_json(*args: str) -> dict:
    out = drill(*args, "--json")
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


# --------------------------------------------------------------------------- seed figures through the CLI

@pytest.mark.parametrize("args, value, shown", [
    (("train_static_bytes", "phi=70B"), 1.12e12, "1.12 TB"),
    (("train_static_bytes", "phi=70e9"), 1.12e12, "1.12 TB"),
    (("weights_bytes", "phi=70B", "bytes_per_param=fp16"), 140e9, "140 GB"),
    (("weights_bytes", "phi=70B", "bytes_per_param=12"), 840e9, "840 GB"),
    (("min_gpus", "total_bytes=1120GB", "gpu_bytes=80GB"), 14, "14"),
    (("zero1_bytes", "phi=70B", "n_dp=1e12"), 280e9, "280 GB"),
    (("zero2_bytes", "phi=70B", "n_dp=1e12"), 140e9, "140 GB"),
    (("ridge_point", "peak_flops=125TFLOPS", "bandwidth=900GB/s"), 125e12 / 900e9, "138.9 FLOP/B"),
    (("ridge_point", "peak_flops=312TFLOPS", "bandwidth=2039GB/s"), 312e12 / 2039e9, "153 FLOP/B"),
    (("ridge_point", "peak_flops=989TFLOPS", "bandwidth=3.35TB/s"), 989e12 / 3.35e12, "295.2 FLOP/B"),
    (("ridge_point", "peak_flops=2250TFLOPS", "bandwidth=8000GB/s"), 281.25, "281.3 FLOP/B"),
    (("ridge_point", "peak_flops=300 TFLOPS", "bandwidth=2 TB/s"), 150, "150 FLOP/B"),
    (("decode_tokens_per_s", "bandwidth=2039GB/s", "weight_bytes=140GB", "kv_bytes=0"), 2039 / 140, "14.56 tok/s"),
    (("kv_bytes_per_token", "layers=1", "n_kv_heads=8", "d_head=128", "bytes_per_elem=fp16"), 4 * 8 * 128, "4096 B (4 KiB)"),
    (("bubble_1f1b", "p=4", "m=8"), 3 / 11, "27.27 %"),
    (("bubble_asymmetric", "stage_times=10ms,12ms,8ms", "m=8"), 1 - 8 * 0.030 / (3 * (0.030 + 7 * 0.012)), "29.82 %"),
    (("bubble_asymmetric", "stage_times=[10,12,8]ms", "m=8"), 1 - 8 * 0.030 / (3 * (0.030 + 7 * 0.012)), "29.82 %"),
])
def test_seed_figures(args, value, shown):
    doc = calc_json(*args)
    assert doc["formula"] == args[0]
    assert doc["value"] == pytest.approx(value)
    assert shown in doc["display"]
    result = [line for line in doc["steps"] if line.startswith("  = ")][-1]  # then the simplification, the takeaway
    assert shown in result and doc["steps"][-1].startswith("Takeaway: ")


def test_human_output_is_the_worked_solution():
    out = drill("ridge_point", "peak_flops=989TFLOPS", "bandwidth=3.35TB/s")
    assert out.returncode == 0 and out.stderr == ""
    lines = out.stdout.splitlines()
    assert lines[0].startswith("ridge_point: intensity where the roofline turns")
    assert "  peak_flops = 989 TFLOP/s" in lines
    i = lines.index("I* = F_peak / BW")
    assert lines[i:i + 3] == ["I* = F_peak / BW", "  = 9.89 × 10¹⁴ / (3.35 × 10¹²)", "  = 295.2 FLOP/B"]
    assert lines[i - 1].startswith("I* = F_peak / BW: the intensity at which")  # where it comes from
    assert lines[-1].startswith("Takeaway: a modern GPU needs 295.2 FLOP/B")
    assert "  source: roofline article, §3.2 the ridge point; AI-infra formula cheat-sheet" in lines[1]
    assert "§" not in out.stdout.replace("§3.2", "").replace("§5.2", "") and "R§" not in out.stdout


def test_human_output_echoes_whole_counts_exactly():
    """A hidden size of 12,288 is not echoed as 12290 (4 significant figures); round counts stay short."""
    lines = drill("activation_bytes_layer_tp", "s=2048", "b=1", "h=12288", "a=96", "t=8").stdout.splitlines()
    assert "  h = 12,288" in lines and "  s = 2048" in lines
    assert "  phi = 7 × 10¹⁰" in drill("train_static_bytes", "phi=70B").stdout.splitlines()


def test_human_output_notes_how_values_were_read():
    out = drill("train_static_bytes", "phi=70B")
    assert "note: phi: B read as ×1e9" in out.stdout
    out = drill("ridge_point", "peak_flops=989e12", "bandwidth=3.35e12")
    assert "note: peak_flops: a bare number is read in FLOP/s" in out.stdout


def test_json_shape():
    doc = calc_json("allreduce_time", "m=1GB", "n=8", "alpha=5us", "beta=400Gbps")
    assert set(doc) >= {"formula", "inputs", "value", "unit", "steps"}
    assert doc["inputs"] == {"m": 1e9, "n": 8.0, "alpha": 5e-6, "beta": 50e9}
    assert doc["unit"] == "s" and doc["kind"] == "time"
    assert doc["value"] == pytest.approx(2 * 7 * 5e-6 + 2 * 7 / 8 * 1e9 / 50e9)
    assert any("bits" in n for n in doc["notes"])
    lists = calc_json("bubble_asymmetric", "stage_times=10ms,12ms,8ms", "m=8")
    assert lists["inputs"]["stage_times"] == pytest.approx([0.01, 0.012, 0.008])


def test_list():
    out = drill("--list")
    assert out.returncode == 0
    assert "ridge_point  peak_flops [FLOP/s], bandwidth [B/s]  ->  FLOP/B" in out.stdout
    doc = json.loads(drill("--list", "--json").stdout)
    names = [f["name"] for f in doc]
    assert {"train_static_bytes", "ridge_point", "bubble_asymmetric", "kv_cache_bytes"} <= set(names)
    ridge = doc[names.index("ridge_point")]
    assert [i["name"] for i in ridge["inputs"]] == ["peak_flops", "bandwidth"]
    assert ridge["unit"] == "FLOP/B" and ridge["meaning"] and ridge["misconceptions"]
    asym = doc[names.index("bubble_asymmetric")]
    assert asym["inputs"][0]["unit"] == "list of s"


# --------------------------------------------------------------------------- errors: one line, exit 2

@pytest.mark.parametrize("args, message", [
    (("nope",), "unknown formula 'nope'"),
    (("ridge_pont", "peak_flops=1"), "did you mean ridge_point?"),
    (("ridge_point", "peak_flops=989TFLOPS"), "missing input bandwidth"),
    (("ridge_point", "peak_flops=1", "bandwidth=1", "speed=3"), "unknown input 'speed'"),
    (("ridge_point", "peak_flops=fast", "bandwidth=1"), "peak_flops=fast: unknown unit or word 'fast'"),
    (("ridge_point", "peak_flops=3TB/s", "bandwidth=1"), "TB/s is a bandwidth (bytes per second), not a compute rate"),
    (("ridge_point", "peak_flops", "bandwidth=1"), "expected key=value, got 'peak_flops'"),
    (("ridge_point", "peak_flops=989", "TFLOPS", "bandwidth=1"), "quote values that contain spaces"),
    (("ridge_point", "peak_flops=", "bandwidth=1"), "peak_flops= has no value"),
    (("ridge_point", "peak_flops=1", "peak_flops=2", "bandwidth=1"), "input peak_flops given twice"),
    (("ridge_point", "peak_flops=1", "bandwidth=0"), "ridge_point: division by zero"),
    (("ridge_point", "peak_flops=-1", "bandwidth=1"), "cannot be negative"),
    (("ridge_point", "peak_flops=9**9**9**9", "bandwidth=1"), "exponent is too large"),
    (("ridge_point", "peak_flops=nan", "bandwidth=1"), "not a finite number"),
    (("bubble_asymmetric", "stage_times=10ms,abc", "m=8"), "item 2"),
    ((), "calc needs a formula name"),
    (("--list", "ridge_point"), "calc --list takes no formula name"),
])
def test_errors_are_one_clear_line_and_exit_2(args, message):
    out = drill(*args)
    assert out.returncode == 2
    assert out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    assert message in lines[0]


def test_calc_imports_neither_sympy_nor_textual():
    code = ("import sys\nfrom drill.cli import main\n"
            "main(['calc', 'ridge_point', 'peak_flops=989TFLOPS', 'bandwidth=3.35TB/s'])\n"
            "print(sorted(m for m in ('sympy', 'textual') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.stdout.strip().splitlines()[-1] == "[]"


def test_list_output_into_a_closed_pipe_is_said_in_one_line():
    proc = subprocess.Popen([sys.executable, "-m", "drill", "calc", "--list"], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    proc.stdout.close()  # before drill writes (it is still starting): every write meets a closed pipe
    assert proc.wait(timeout=60) == 1
    err = proc.stderr.read().decode("utf-8")
    assert err.splitlines() == ["drill: the output was closed before the end (the reader stopped); the command "
                                "itself ran to its end"]


# --------------------------------------------------------------------------- Chinese: --lang zh words everything

@pytest.mark.parametrize("args, message", [
    (("nope",), "没有名为“nope”的公式"),
    (("ridge_point", "peak_flops=989TFLOPS"), "ridge_point：缺少输入 bandwidth"),
    (("ridge_point", "peak_flops=fast", "bandwidth=1"), "peak_flops=fast：未知的单位或词“fast”"),
    (("ridge_point", "peak_flops=1", "peak_flops=2", "bandwidth=1"), "输入 peak_flops 给了两次"),
    (("ridge_point", "peak_flops=1", "bandwidth=0"), "ridge_point：除以零"),
    ((), "calc 需要一个公式名"),
])
def test_chinese_errors_are_one_chinese_line(args, message):
    for argv in (("--lang", "zh", *args), (*args, "--lang", "zh")):
        out = cli.drill(*argv[:2], "calc", *argv[2:]) if argv[0] == "--lang" else cli.drill("calc", *argv)
        assert out.returncode == 2 and out.stdout == ""
        lines = out.stderr.strip().splitlines()
        assert len(lines) == 1 and message in lines[0], out.stderr


def test_chinese_output_is_the_chinese_worked_solution():
    out = drill("ridge_point", "peak_flops=989e12", "bandwidth=3.35TB/s", "--lang", "zh")
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert text.startswith("ridge_point：拐点算术强度")
    assert "出处：Roofline 文章" in text and "面试要点：" in text
    assert "注：peak_flops：不带单位的数按 FLOP/s 读取" in text
    doc = calc_json("ridge_point", "peak_flops=989e12", "bandwidth=3.35TB/s", "--lang", "zh")
    assert doc["notes"] == ["peak_flops：不带单位的数按 FLOP/s 读取"] and doc["meaning"].startswith("拐点")
