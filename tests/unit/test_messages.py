"""engine.messages: every sentence the engine says has a Chinese twin."""

import re
import string
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.answers import Parsed, Unreadable, clean, parse_list, parse_quantity, unit_note
from engine.choices import BOUND_CHOICES, parse_choice
from engine.messages import KIND_NAMES_ZH, MESSAGES, Msg, Twin, in_lang, join, kind_name, say
from engine.symbolic_answers import parse_expression
from engine.units import KIND_NAMES, KINDS, UNITS

CJK = re.compile(r"[\u4e00-\u9fff]")
ENGINE = Path(__file__).resolve().parents[2] / "engine"
# Layouts with no words of their own: only full-width punctuation around their fields.
LAYOUT_ONLY = {"understood_notes", "verdict.error", "formula.in", "formula.input", "note.input"}


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_every_message_has_a_chinese_twin_with_the_same_fields(code):
    en, zh = MESSAGES[code]
    assert en and zh and en != zh
    assert fields(en) == fields(zh)
    if code in LAYOUT_ONLY:
        assert re.search("[（）：；。]", zh)
    else:
        assert CJK.search(zh), zh
        assert not CJK.search(en), en


def test_every_code_the_engine_says_is_in_the_table():
    used = set()
    for path in ENGINE.glob("*.py"):
        src = path.read_text(encoding="utf-8")
        used |= set(re.findall(r"""(?:say|ExprError)\(\s*"([a-z_.0-9]+)"(?!\s*\+)""", src))
    assert used - set(MESSAGES) == set()
    assert len(used) > 60  # the scan itself found the calls
    # codes built from a prefix: the expression categories and the unit slips
    assert {c for c in MESSAGES if c.startswith("expr.what.")} >= {
        f"expr.what.{w}" for w in ("comparisons", "logic", "attributes", "indexing", "lists", "that")}
    assert {c for c in MESSAGES if c.startswith("miss.")} == {
        f"miss.{k}" for k in ("gb_for_gib", "gib_for_gb", "bits_for_bytes", "bytes_for_bits", "lowercase_b", "scale",
                                  "scale_unit")}


def test_kind_names_have_chinese_twins():
    assert set(KIND_NAMES_ZH) == set(KIND_NAMES) == set(KINDS)
    assert all(CJK.search(kind_name(k).text("zh")) for k in KINDS)
    assert kind_name("bytes").text("zh") == "字节数" and kind_name("bytes").text() == "a size in bytes"


def test_every_unit_note_has_a_message():
    notes = {(u.symbol, u.note) for readings in UNITS.values() for u in readings if u.note}
    assert notes
    for symbol, note in notes:
        m = unit_note(symbol, note)
        assert symbol in m.text("en") and CJK.search(m.text("zh"))


def test_parameters_render_in_the_same_language():
    m = say("wrong_kind", symbol="GB", kind=kind_name("bytes"), asked=kind_name("tok_rate"))
    assert m.text() == str(m) == "GB is a size in bytes, not a token rate (tok/s)"
    assert m.text("zh") == "GB 是字节数，但题目问的是每秒 token 数（tok/s）"
    both = join([say("empty"), Twin("x", "叉")])
    assert (both.text("en"), both.text("zh")) == ("the answer is empty; x", "答案为空；叉")
    assert Twin("only English").text("zh") == "only English"  # no twin: the English is shown
    assert in_lang(3, "zh") == 3 and in_lang(say("empty"), "zh") == "答案为空"
    with pytest.raises(KeyError):
        say("no such code")
    assert isinstance(say("empty"), Msg)


@given(st.text(max_size=40), st.sampled_from(sorted(KINDS)))
def test_any_reason_or_reading_renders_in_chinese(text, kind):
    p = parse_quantity(text, kind, None)
    if isinstance(p, Unreadable):
        assert CJK.search(p.reason_in("zh")) and CJK.search(p.message_in("zh"))
        assert p.message_in("en") == p.message
        if not CJK.search(clean(text)):  # the English never has Chinese in it unless it quotes the (NFKC) text
            assert not CJK.search(p.message)
    else:
        assert isinstance(p, Parsed) and p.understood_in("zh").startswith("= ")
        assert all(CJK.search(n) for n in p.notes_in("zh"))


@pytest.mark.parametrize("result", [
    parse_quantity("2 foo GB", "bytes"), parse_list("1, abc", "time"), parse_choice("maybe", BOUND_CHOICES),
    parse_expression("x + 1", {"N": "n_dp"}), parse_expression("Φ < 2", {}), parse_quantity("1" * 300, "bytes"),
])
def test_unreadable_answers_of_every_parser_have_chinese_reasons(result):
    assert isinstance(result, Unreadable)
    assert CJK.search(result.message_in("zh")) and not CJK.search(result.message)


def test_what_was_understood_so_far_in_chinese():
    p = parse_quantity("2 foo GB", "bytes")
    assert p.message_in("zh") == "未知的单位或词“foo”（已识别：单位 GB）"
    assert p.message == "unknown unit or word 'foo' (understood so far: unit GB)"
