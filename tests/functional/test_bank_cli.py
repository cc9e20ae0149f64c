"""`drill templates`, `drill ask`, `drill check` end to end (in-process: tests/cli.py), JSON shapes and exit codes."""

import json
import re
from pathlib import Path

import pytest

from question_bank import registry
from tests.cli import drill

ROOT = Path(__file__).resolve().parents[2]
CJK = re.compile(r"[\u4e00-\u9fff]")
pytestmark = pytest.mark.functional




def drill_json(*args):
    r = drill(*args, "--json")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_templates_json_lists_every_template_with_its_shape():
    rows = drill_json("templates")
    assert len(rows) == len(registry.all_templates()) >= 40
    by_id = {r["id"]: r for r in rows}
    for r in rows:
        assert set(r) >= {"id", "topic", "title", "answer_kind", "chain_length"}
        assert r["chain_length"] == registry.get(r["id"]).chain_length
    assert by_id["roofline.chain_interview"]["chain_length"] == 4
    # one rule for chains and single questions: the kinds of the steps' answers (a chain is its chain_length)
    assert by_id["roofline.chain_interview"]["answer_kind"] == "number+choice"
    assert by_id["memory.activation_chain"]["answer_kind"] == "number"
    assert by_id["inference.fits_on_card"]["answer_kind"] == "choice"
    assert sum(r["chain_length"] >= 3 for r in rows) >= 4


def test_templates_table_filters_by_topic_and_rejects_unknown_topics():
    r = drill("templates", "--topic", "inference")
    assert r.returncode == 0
    lines = [line for line in r.stdout.splitlines()[1:] if line.strip() and not line.startswith(tuple("0123456789"))]
    assert lines and all(line.startswith("inference.") for line in lines)
    bad = drill("templates", "--topic", "cooking")
    assert bad.returncode == 2 and "unknown topic 'cooking'" in bad.stderr


def test_ask_json_has_the_contract_fields_and_is_deterministic():
    doc = drill_json("ask", "roofline.ridge_named", "--seed", "12")
    assert doc["template"] == "roofline.ridge_named" and doc["seed"] == 12
    assert {"prompt", "params", "answer", "steps", "solution", "target_seconds"} <= set(doc)
    a = doc["answer"]
    assert a["kind"] == "number" and a["unit"] == "FLOP/B" and a["value"] > 0 and "FLOP/B" in a["display"]
    assert doc["params"]["peak_flops"] > 1e12 and doc["params"]["bandwidth"] > 1e11
    assert drill_json("ask", "roofline.ridge_named", "--seed", "12") == doc
    expected = registry.get("roofline.ridge_named").generate(12).steps[0].expected.value
    assert a["value"] == pytest.approx(expected)


def test_ask_chain_json_has_one_entry_per_step():
    doc = drill_json("ask", "inference.chain_capacity", "--seed", "3")
    steps = doc["steps"]
    assert [s["index"] for s in steps] == [1, 2, 3, 4]
    for s in steps:
        assert {"kind", "value", "unit", "display"} <= set(s["answer"]) and s["solution"]
    assert steps[2]["answer"]["kind"] == "number" and float(steps[2]["answer"]["value"]).is_integer()
    assert doc["answer"] == steps[-1]["answer"]


def test_ask_without_seed_prints_the_seed_it_chose():
    r = drill("ask", "concepts.phase_bound")
    assert r.returncode == 0
    seed = re.search(r"seed (\d+)", r.stdout).group(1)
    assert f"drill check concepts.phase_bound --seed {seed} " in r.stdout


def test_ask_in_chinese_with_either_lang_option():
    local = drill("ask", "inference.kv_cache_size", "--seed", "5", "--lang", "zh")
    global_ = drill("--lang", "zh", "ask", "inference.kv_cache_size", "--seed", "5")
    assert local.returncode == global_.returncode == 0
    assert local.stdout == global_.stdout
    assert CJK.search(local.stdout) and "KV Cache" in local.stdout and "检查答案" in local.stdout
    english = drill("ask", "inference.kv_cache_size", "--seed", "5")
    assert not CJK.search(english.stdout)


def test_check_grades_the_displayed_answer_correct_and_a_wrong_one_wrong():
    p = registry.get("inference.decode_tps").generate(8)
    right = drill_json("check", "inference.decode_tps", "--seed", "8", p.steps[0].expected.display)
    assert right["status"] == "correct" and right["quality"] in (4, 5) and abs(right["relative_error"]) < 0.05
    assert set(right) >= {"status", "quality", "expected", "relative_error", "diagnosis", "message", "solution"}
    assert right["solution"][-2].endswith("tok/s") and right["solution"][-1].startswith("Takeaway: ")
    wrong = drill_json("check", "inference.decode_tps", "--seed", "8", "1 tok/s")
    assert wrong["status"] == "wrong" and wrong["quality"] in (1, 2) and wrong["relative_error"] < -0.5
    assert wrong["ratio"] == pytest.approx(1 / p.steps[0].expected.value)  # answer ÷ expected, in tok/s
    assert "× too low" in wrong["message"] and "%)" not in wrong["message"]


def test_check_sizes_a_big_miss_by_its_factor_in_both_languages():
    args = ("memory.static_given", "--seed", "25", "--convention", "bytes_per_param=16", "5000 GB")
    en, zh = drill_json("check", *args), drill_json("--lang", "zh", "check", *args)
    assert en["relative_error"] == pytest.approx(3880 / 5000) and en["ratio"] == pytest.approx(5000 / 1120)
    assert "(about 4.46× too high)." in en["message"] and "（偏高约 4.46 倍）。" in zh["message"]


def test_check_names_the_misconception():
    t = registry.get("inference.kv_cache_size")
    seed = next(s for s in range(200) if any(m.key == "used_n_heads" for m in t.generate(s).steps[0].expected.misses))
    miss = next(m for m in t.generate(seed).steps[0].expected.misses if m.key == "used_n_heads")
    doc = drill_json("check", t.id, "--seed", str(seed), f"{miss.value / 1e9:.6g} GB")
    assert doc["status"] == "wrong" and doc["diagnosis_key"] == "used_n_heads"
    assert "query heads" in doc["diagnosis"] and doc["quality"] == 2


def test_check_the_reviewed_cases():
    # a whole number that is a named mistake: wrong with quality 2, not close (close would pass SM-2)
    doc = drill_json("check", "memory.zero_planning", "--seed", "3", "--step", "4", "9")
    assert (doc["status"], doc["quality"], doc["diagnosis_key"]) == ("wrong", 2, "rounded_down")
    # scientific notation in a symbolic answer
    assert drill_json("check", "memory.zero_expression", "--seed", "1", "2.0e1*Φ/N + Φ")["status"] == "correct"
    # the worked solution's own numbers give the stated whole number
    p = registry.get("inference.max_batch_fit").generate(23)
    doc = drill_json("check", "inference.max_batch_fit", "--seed", "23", p.steps[0].expected.display)
    assert doc["status"] == "correct" and doc["solution"][-2].strip() == f"= {p.steps[0].expected.display}"


def test_ask_in_chinese_translates_text_givens():
    seed = next(s for s in range(200) if registry.get("roofline.ridge_point").generate(s).givens[0].value
                == "a hypothetical accelerator")
    doc = drill_json("--lang", "zh", "ask", "roofline.ridge_point", "--seed", str(seed))
    assert doc["givens"][0]["display"] == "一张假想的加速卡" and "hypothetical" not in doc["prompt"]


def test_check_an_unreadable_answer_is_invalid_with_status_0():
    r = drill("check", "roofline.ridge_point", "--seed", "1", "12 GB", "--json")
    assert r.returncode == 0
    doc = json.loads(r.stdout)
    assert doc["status"] == "invalid" and doc["quality"] is None and "GB" in doc["message"]
    text = drill("check", "roofline.ridge_point", "--seed", "1", "twelve")
    assert text.returncode == 0 and "Can't read this answer" in text.stdout and "Solution" not in text.stdout
    zh = drill("--lang", "zh", "check", "roofline.ridge_point", "--seed", "1", "twelve")
    assert zh.stdout.startswith("无法识别这个答案") and zh.stdout.count("无法识别") == 1 and "解答" not in zh.stdout


def test_check_one_step_of_a_chain_and_chinese_output():
    p = registry.get("roofline.chain_interview").generate(7)
    bound = p.steps[2].expected.value
    doc = drill_json("check", "roofline.chain_interview", "--seed", "7", "--step", "3", bound)
    assert doc["status"] == "correct" and doc["step"] == 3 and doc["steps"] == 4
    other = "compute-bound" if bound == "memory-bound" else "memory-bound"
    zh = drill("--lang", "zh", "check", "roofline.chain_interview", "--seed", "7", "--step", "3", other)
    assert zh.returncode == 0 and "第 3/4 步" in zh.stdout and "解答" in zh.stdout
    # the status is said once, by the message itself: "错误。…", not "[错误] 错误。…"
    status = zh.stdout.splitlines()[1]
    assert status.startswith("错误") and status.count("错误") == 1 and "[" not in status
    en = drill("check", "roofline.chain_interview", "--seed", "7", "--step", "3", other)
    status = en.stdout.splitlines()[1]
    assert status.startswith("Wrong") and status.lower().count("wrong") == 1 and "[" not in status
    # the Chinese label of a choice is accepted as an answer
    label = {"memory-bound": "访存受限", "compute-bound": "算力受限"}[bound]
    assert drill_json("check", "roofline.chain_interview", "--seed", "7", "--step", "3", label)["status"] == "correct"


@pytest.mark.parametrize("extra", [(), ("--json",), ("--record",)])
def test_check_of_a_chain_without_step_names_its_steps_and_exits_2(extra, tmp_path):
    p = registry.get("inference.chain_decode").generate(2)
    r = drill("--saves", str(tmp_path), "check", "inference.chain_decode", "--seed", "2",
              p.steps[-1].expected.display, *extra)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.strip() == ("drill: inference.chain_decode is a chain of 4 steps (1 to 4), graded one at a time: "
                                "add --step K (see `drill ask inference.chain_decode --seed 2`)")
    assert not any(tmp_path.iterdir())  # nothing recorded, no profile made


def test_check_a_single_question_with_or_without_step_1():
    p = registry.get("roofline.ridge_point").generate(3)
    answer = p.steps[0].expected.display
    assert drill_json("check", "roofline.ridge_point", "--seed", "3", answer)["step"] == 1
    assert drill_json("check", "roofline.ridge_point", "--seed", "3", "--step", "1", answer)["status"] == "correct"
    r = drill("check", "roofline.ridge_point", "--seed", "3", "--step", "2", answer)
    assert r.returncode == 2 and "--step must be between 1 and 1" in r.stderr


@pytest.mark.parametrize("args, message", [
    (("check", "roofline.nope", "--seed", "1", "3"), "unknown template 'roofline.nope'"),
    (("check", "roofline.ridge_point", "--seed", "-1", "3"), "--seed must be between"),
    (("check", "roofline.ridge_point", "--seed", "1.5", "3"), "--seed must be a whole number"),
    (("check", "roofline.chain_interview", "--seed", "1", "--step", "5", "3"), "--step must be between 1 and 4"),
    (("check", "roofline.chain_interview", "--seed", "1", "--step", "0", "3"), "--step must be between 1 and 4"),
    (("ask", "nothing.here"), "unknown template"),
])
def test_usage_errors_exit_2_with_one_line(args, message):
    r = drill(*args)
    assert r.returncode == 2 and message in r.stderr and r.stdout == ""
    assert len(r.stderr.strip().splitlines()) == 1


def test_check_requires_a_seed():
    r = drill("check", "roofline.ridge_point", "3")
    assert r.returncode == 2 and "--seed" in r.stderr
