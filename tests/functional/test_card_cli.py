"""`drill card` and `drill sources` end to end (in-process: tests/cli.py); the card itself, for every template."""

import json
import re
from pathlib import Path

import pytest

from engine import sources
from question_bank import cards, registry
from tests.cli import drill
from tests.reference import has_code

ROOT = Path(__file__).resolve().parents[2]
CJK = re.compile(r"[\u4e00-\u9fff]")
pytestmark = pytest.mark.functional




def test_card_text_has_every_section_in_both_languages():
    out = drill("card", "memory.static_given")
    assert out.returncode == 0 and out.stderr == ""
    for heading in ("# Formula", "# Symbols", "# Where each factor comes from", "# Worked example (round numbers)",
                    "# Typical mistakes", "# What the interviewer wants to hear", "# Source"):
        assert heading in out.stdout
    assert "M_static = 16 × Φ" in out.stdout and "counted only the fp16 weights (2Φ)" in out.stdout
    assert "Rajbhandari et al. 2020 (ZeRO)" in out.stdout and "C§" not in out.stdout
    zh = drill("card", "memory.static_given", "--lang", "zh").stdout
    assert "# 每一项从哪来" in zh and "只算了 fp16 权重（2Φ）" in zh and "动量" in zh


@pytest.mark.parametrize("tid, chosen, line", [("mfu.train_flops", "flops_per_param_token=8", "C = 8 × Φ × D"),
                                               ("memory.zero_per_gpu", "bytes_per_param=18", "6 × Φ + 12 × Φ / N_dp")])
def test_the_app_card_is_the_command_card_under_the_same_conventions(tid, chosen, line):
    """The card screen (F2, before a new template or a leech) draws what `drill card --convention` prints."""
    from drill.screens.card import card_text

    key, value = chosen.split("=")
    for lang in ("en", "zh"):
        printed = drill("card", tid, "--convention", chosen, "--lang", lang).stdout.rstrip("\n").split("\n")
        title, body = card_text(tid, lang, {key: value})
        assert [title, ""] + [x for x, _ in body.lines] == [x.removeprefix("# ") for x in printed]
        assert line in str(body) and line not in str(card_text(tid, lang)[1])


def test_card_json_and_errors():
    r = drill("card", "roofline.classify_kernel", "--json")
    doc = json.loads(r.stdout)
    assert doc["template"] == "roofline.classify_kernel" and doc["formulas"][0]["name"] == "ridge_point"
    assert doc["rules"] and doc["takeaways"] and doc["source"]
    bad = drill("card", "roofline.nope")
    assert bad.returncode == 2 and "unknown template" in bad.stderr


def test_sources_lists_every_source_once():
    out = drill("sources").stdout
    for s in sources.SOURCES.values():
        assert out.count(f"• {s.en}\n") == 1
    doc = json.loads(drill("sources", "--json", "--lang", "zh").stdout)
    assert [d["key"] for d in doc] == list(sources.SOURCES) and all(CJK.search(d["about"]) for d in doc)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_template_has_a_card(lang):
    for t in registry.all_templates():
        c = cards.card(t, lang)
        text = "\n".join(cards.card_lines(t, lang))
        assert c["formulas"] or c["rules"], t.id
        for f in c["formulas"]:
            assert f["symbols"] and f["formula"] in text
        assert not has_code(text), t.id
        # readable names only: no raw key of engine/sources.py, no dangling comma of a joined citation
        assert not [k for k in sources.SOURCES if re.search(rf"\b{k}\b", c["source"])], (t.id, c["source"])
        assert not c["source"].rstrip().endswith(","), (t.id, c["source"])
