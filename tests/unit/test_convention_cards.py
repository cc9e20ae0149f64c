"""Cards say who uses which convention: one short table per card, generated from the
conventions table (engine/formulas/conventions.py), fitting 80 columns in both languages."""

from __future__ import annotations

import pytest

from engine import wrap
from engine.formulas import conventions
from question_bank import cards, registry


def _table(tid: str, lang: str) -> list[str]:
    lines = cards.card_lines(registry.get(tid), lang)
    head = "# " + cards.heading("conventions", lang)
    if head not in lines:
        return []
    start = lines.index(head) + 1
    end = next((i for i in range(start, len(lines)) if not lines[i]), len(lines))
    return lines[start:end]


def _flat(tid: str, lang: str) -> str:
    """The table's text with its wrapped lines joined (a space between English words, also where a Chinese line
    wraps between two, none between Chinese ones)."""
    out = ""
    for line in (x.strip() for x in _table(tid, lang)):
        a, b = out[-1:], line[:1]
        latin_a, latin_b = a.isascii() and a.isalnum(), b.isascii() and b.isalnum()
        # Chinese writing keeps a space between a Chinese word and an English one (和 Megatron-LM), and English
        # words apart; none between Chinese characters or before a full-width bracket
        english = (latin_a and (latin_b or "\u4e00" <= b <= "\u9fff")) or (latin_b and "\u4e00" <= a <= "\u9fff")
        out += (" " if out and (lang == "en" or english) else "") + line
    return out


def test_memory_static_lists_every_byte_count_with_its_source_and_what_it_counts():
    for lang in ("en", "zh"):
        text = _flat("memory.static", lang)
        for row in conventions.rows("train_bytes"):
            assert row.label_in(lang) in text and row.who_in(lang) in text, (lang, row.key)
            assert row.counts_in(lang) in text, (lang, row.key)
    assert "16 B per parameter (default)" in "\n".join(_table("memory.static", "en"))


@pytest.mark.parametrize("tid", ["mfu.train_time", "mfu.hfu"])
def test_the_training_flops_cards_explain_6_against_8(tid):
    text = _flat(tid, "en")
    assert "6Φ per token" in text and "8Φ per token" in text and "full recompute" in text
    assert "每 token 8Φ" in "\n".join(_table(tid, "zh"))


def test_the_chinchilla_cards_give_table_3():
    for tid in ("mfu.chinchilla_tokens", "mfu.chinchilla_params"):
        assert "Table 3" in _flat(tid, "en") and "表 3" in _flat(tid, "zh")


def test_the_ring_cards_give_the_bidirectional_case_and_the_large_ring():
    text = _flat("communication.allreduce_time", "en")
    assert "both directions of a link" in text and "TPU ICI" in text and "n ≥ 8" in text
    assert "(n−1)/n dropped" in "\n".join(_table("communication.allreduce_bytes_given", "en"))


def test_cards_without_a_convention_have_no_table():
    assert _table("roofline.ridge_point", "en") == []


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_conventions_table_fits_80_columns(lang):
    seen = 0
    for t in registry.all_templates():
        table = _table(t.id, lang)
        seen += bool(table)
        for line in table:
            assert wrap.width(line) <= cards.TABLE_WIDTH, (t.id, lang, line)
    assert seen >= 15


def test_the_card_json_has_the_rows():
    c = cards.card(registry.get("memory.static"), "en")
    keys = [(r["group"], r["key"]) for r in c["conventions"]]
    assert ("train_bytes", "10") in keys and ("train_bytes", "20") in keys and ("overhead", "0.25") in keys
    assert all(r["who"] for r in c["conventions"])


def test_a_card_example_keeps_a_convention_it_cannot_count_with():
    """A card's worked example counts with the learner's conventions where it can: 8-bit Adam's ZeRO split, but
    not DeepSeek-V3's FP8 recipe, whose split is not published, nor only the remote copies where no EP group is
    given (the example keeps its own values, and the card still renders)."""
    f = cards.formulas.get("zero1_bytes")
    assert cards.chosen(f, {"bytes_per_param": "10_adam8bit"}).inputs == {"recipe": 10.0}
    assert cards.chosen(f, {"bytes_per_param": "12_fp8"}).inputs == {}
    assert cards.chosen(cards.formulas.get("ep_decode_comm_time"), {"count_local": "false"}).inputs == {}
    assert cards.chosen(cards.formulas.get("moe_a2a_bytes_per_token"), {"count_local": "false"}).inputs in (
        {}, {"count_local": 0.0})  # the example may give its own EP group
    for lang in ("en", "zh"):
        assert cards.card_lines(registry.get("moe.wide_ep_decode_chain"), lang, {"count_local": "false"})
