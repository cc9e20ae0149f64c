"""The commands wrap what they print by display width only at a terminal: a Chinese character
is two columns, a number keeps its unit, a continuation hangs under its line; piped or redirected output and
``--json`` are never wrapped.  In-process (tests/cli.py), with ``$COLUMNS`` as the terminal's width."""

from __future__ import annotations

import json
import re

import pytest

from engine.wrap import width
from tests.cli import drill, environ

CHECK = ("check", "memory.static", "--seed", "3", "999 GB")
CALC = ("calc", "kv_bytes_per_token", "layers=32", "n_kv_heads=8", "d_head=128", "bytes_per_elem=bf16")


def _words(text: str) -> list[str]:
    return text.split()


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("args", [CHECK, CALC], ids=["check", "calc"])
def test_at_a_terminal_every_line_fits_its_width(lang, args):
    with environ(COLUMNS="40"):
        wrapped = drill("--lang", lang, *args, terminal=True)
        piped = drill("--lang", lang, *args)
    assert wrapped.returncode == piped.returncode
    lines = wrapped.stdout.splitlines()
    assert all(width(line) <= 40 for line in lines), [line for line in lines if width(line) > 40]
    assert any(width(line) > 40 for line in piped.stdout.splitlines())  # the same text, not wrapped
    # only where the lines end changes: the same words in the same order (Chinese joins with no space)
    assert "".join(_words(wrapped.stdout)) == "".join(_words(piped.stdout))
    # a number keeps its unit
    assert not re.search(r"\d$", "\n".join(lines), re.M) or all(
        not re.match(r"\s*(GB|B|KiB|TB)\b", nxt) for line, nxt in zip(lines, lines[1:]) if re.search(r"\d$", line))


def test_chinese_counts_two_columns_a_character():
    with environ(COLUMNS="30"):
        r = drill("--lang", "zh", *CHECK, terminal=True)
    lines = r.stdout.splitlines()
    assert any(re.search(r"[\u4e00-\u9fff]", line) for line in lines)
    assert all(width(line) <= 30 for line in lines)
    assert any(len(line) <= 30 < 2 * len(line) and width(line) > 20 for line in lines if re.search("[\u4e00-\u9fff]", line))


def test_json_is_never_wrapped_at_a_terminal():
    with environ(COLUMNS="30"):
        at_terminal = drill("--lang", "zh", *CHECK, "--json", terminal=True)
        piped = drill("--lang", "zh", *CHECK, "--json")
    assert at_terminal.stdout == piped.stdout
    json.loads(at_terminal.stdout)


def test_a_message_on_stderr_is_wrapped_at_a_terminal_too():
    with environ(COLUMNS="30"):
        r = drill("check", "memory.static", "--seed", "3", "320 GB per GPU", terminal=True)
        piped = drill("check", "memory.static", "--seed", "3", "320 GB per GPU")
    said = r.stdout + r.stderr
    assert all(width(line) <= 30 for line in said.splitlines())
    assert "".join(said.split()) == "".join((piped.stdout + piped.stderr).split())
