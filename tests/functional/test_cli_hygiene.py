"""Hostile command lines: no traceback, output valid in the terminal's encoding, no raw escapes."""

from __future__ import annotations

import errno
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from drill.commands import shown_arg, visible
from engine.grading import Expected, grade
from tests import cli

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.functional
HUGE = "9" * 5000


def drill(*args, env=None, saves=None) -> subprocess.CompletedProcess:
    """Run ``drill`` with byte-level arguments (bytes pass through as the shell would)."""
    argv = [*(["--saves", str(saves)] if saves else []), *args]
    if env and "PYTHONIOENCODING" in env:  # the interpreter's stream encoding: a real process
        return cli.drill_process(*argv, env={**os.environ, **env}, text=False)
    return cli.drill(*argv, env={**os.environ, **(env or {})}, text=False)


def one_line_error(r: subprocess.CompletedProcess) -> str:
    err = r.stderr.decode("utf-8")
    assert r.returncode == 2, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    return err


@pytest.mark.parametrize("args", [
    ("ask", "roofline.ridge_point", "--seed", HUGE),
    ("check", "roofline.ridge_point", "--seed", HUGE, "1"),
    ("check", "roofline.chain_batching", "--seed", "1", "--step", HUGE, "1"),
    ("mock", "--seed", HUGE, "--questions", "3", "--plan"),
    ("mock", "--seed", "1", "--questions", HUGE, "--plan"),
])
def test_numbers_of_thousands_of_digits_are_refused_in_one_line(args, tmp_path):
    err = one_line_error(drill(*args, saves=tmp_path))
    assert "(5,000 characters)" in err and len(err) < 200


def test_a_seed_beyond_the_range_is_refused_for_a_mock_too(tmp_path):
    err = one_line_error(drill("mock", "--seed", str(2 ** 63), "--questions", "3", "--plan", saves=tmp_path))
    assert "the seed must be a whole number from 0 to 9223372036854775807" in err


def test_bytes_that_are_not_utf8_never_reach_the_json(tmp_path):
    r = drill("check", "roofline.ridge_point", "--seed", "1", b"12\xff GB", "--json", saves=tmp_path)
    doc = json.loads(r.stdout.decode("utf-8"))  # strict UTF-8: valid
    assert doc["answer"] == "12\ufffd GB" and doc["status"] == "invalid"


def test_an_ascii_terminal_gets_escapes_not_a_traceback():
    r = drill("calc", "ridge_point", "peak_flops=989TFLOPS", "bandwidth=3.35TB/s", env={"PYTHONIOENCODING": "ascii"})
    assert r.returncode == 0, r.stderr
    out = r.stdout.decode("ascii")  # every byte is ASCII
    assert "= 9.89 \\xd7 10" in out and "= 295.2 FLOP/B" in out


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_terminal_escapes_typed_into_calc_are_shown_escaped(lang):
    r = drill("calc", "ridge_point", "peak_flops=\x1b[31m989+", "bandwidth=3.35TB/s", "--lang", lang)
    assert r.returncode == 2
    assert b"\x1b" not in r.stderr + r.stdout
    assert "peak_flops=\\x1b[31m989+" in r.stderr.decode("utf-8")


def test_engine_messages_escape_control_characters_in_both_languages():
    v = grade("12+\x1b", Expected("number", 295.2, "intensity", "FLOP/B"))
    assert "\x1b" not in v.message and "\x1b" not in v.message_in("zh")
    assert v.message_in("zh") == "无法识别这个答案：多了一个“\\x1b”：只能识别数字、单位和 + - * / ^ ( )"


def test_visible_and_shown_arg():
    assert visible("a\tb\nc") == "a\tb\nc"
    assert visible("\x1b[2J\x07\x9b\x7f") == "\\x1b[2J\\x07\\x9b\\x7f"
    assert visible("中文 ok") == "中文 ok"
    assert shown_arg("12") == "'12'"
    assert shown_arg(HUGE) == "'99999999999999999999…' (5,000 characters)"


# --------------------------------------------------------------------------- an output that cannot be written

T = "roofline.ridge_point"
LOST = "drill: could not write the output: the disk is full (no space left on the device). The command itself ran to " \
       "its end; only its output is lost"
CLOSED = "drill: the output was closed before the end (the reader stopped); the command itself ran to its end"


class _Failing(io.StringIO):
    """A standard output every write to which fails with ``error`` (a full disk, a reader that went away)."""

    def __init__(self, error: OSError) -> None:
        super().__init__()
        self.error = error

    def write(self, text: str) -> int:
        raise self.error

    def flush(self) -> None:
        pass


def into(error: OSError, *args: str) -> tuple[int, str]:
    """``drill ARGS`` in-process with a standard output that fails with ``error``: the status and stderr."""
    from drill.cli import main

    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _Failing(error), io.StringIO()
    try:
        try:
            code = main(list(args))
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else 1
        err = sys.stderr.getvalue()
    finally:
        sys.stdout, sys.stderr = saved
    return code, err


@pytest.mark.parametrize("args", [
    ("templates",), ("ask", T, "--seed", "1"), ("check", T, "--seed", "1", "295"), ("check", T, "--seed", "1", "295",
    "--json"), ("card", T), ("sources",), ("catalogue",), ("calc", "--list"), ("stats",), ("stats", "--json"),
    ("due",), ("due", "--json"), ("plan",), ("doctor",), ("export", "-"), ("mock", "--plan", "--seed", "1"), ("--help",),
])
def test_every_command_says_in_one_line_that_its_output_was_lost(args, tmp_path):
    code, err = into(OSError(errno.ENOSPC, "No space left on device"), "--saves", str(tmp_path), *args)
    assert code == 1 and err.splitlines()[-1:] == [LOST] and "Traceback" not in err, err
    code, err = into(BrokenPipeError(errno.EPIPE, "Broken pipe"), "--saves", str(tmp_path), *args)
    assert code == 1 and err.splitlines()[-1:] == [CLOSED] and "Traceback" not in err, err


def test_the_line_is_in_the_command_language(tmp_path):
    code, err = into(OSError(errno.ENOSPC, "No space left on device"), "--saves", str(tmp_path), "templates",
                     "--lang", "zh")
    assert code == 1 and err == "drill: 无法写出输出：磁盘已满（设备上没有剩余空间）。命令本身已执行完毕，只是输出丢失了\n"


def test_a_status_the_command_chose_stays_when_its_output_is_lost(tmp_path):
    code, err = into(OSError(errno.ENOSPC, "No space left on device"), "--saves", str(tmp_path), "calc", "nope")
    assert code == 2 and "Traceback" not in err


def reviews(saves: Path) -> int:
    r = cli.drill("--saves", str(saves), "stats", "--json")
    return json.loads(r.stdout)["reviews"]


@pytest.mark.parametrize("buffered", [True, False])
@pytest.mark.parametrize("json_out", [False, True])
def test_a_review_recorded_into_a_full_disk_is_recorded_once_and_said(buffered, json_out, tmp_path):
    # a real process: the interpreter's own buffering, and its last flush at exit
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED" or not buffered}
    with open("/dev/full", "w") as full:
        r = subprocess.run([sys.executable, "-m", "drill", "--saves", str(tmp_path), "check", T, "--seed", "1", "295",
                            "--record", *(["--json"] if json_out else [])], cwd=ROOT, stdout=full,
                           stderr=subprocess.PIPE, text=True, env=env, timeout=60)
    assert r.returncode == 1 and "Traceback" not in r.stderr and r.stderr.splitlines()[-1] == LOST, r.stderr
    assert reviews(tmp_path) == 1


def test_a_review_recorded_into_a_closed_pipe_is_recorded_once_and_said(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "drill", "--saves", str(tmp_path), "check", T, "--seed", "1", "295",
                             "--record"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    proc.stdout.close()  # before drill writes (it is still starting)
    assert proc.wait(timeout=60) == 1
    err = proc.stderr.read()
    assert err.splitlines() == [CLOSED], err
    assert reviews(tmp_path) == 1


# --------------------------------------------------------------------------- an answer that starts with "-"

@pytest.mark.parametrize("answer, status, given", [
    ("-inf", "invalid", None), ("-3", "wrong", "-3 FLOP/B"), ("-1e3", "wrong", "-1000 FLOP/B"),
    ("-3GB", "invalid", None), ("-(2+3)", "wrong", "-5 FLOP/B"),
])
def test_an_answer_starting_with_a_dash_is_graded_not_refused_as_an_option(answer, status, given, tmp_path):
    for args in (("--seed", "1", answer), (answer, "--seed", "1"), ("--seed", "1", answer, "--lang", "zh")):
        r = cli.drill("--saves", str(tmp_path), "check", T, *args, "--json")
        assert r.returncode == 0 and r.stderr == "", r.stderr
        doc = json.loads(r.stdout)
        assert doc["answer"] == answer and doc["status"] == status
        assert given is None or doc["given"] == given
    r = cli.drill("--saves", str(tmp_path), "check", T, "--seed", "1", answer)
    assert r.returncode == 0 and "usage:" not in r.stderr and r.stdout.split(":")[0] in ("Wrong", "Can't read this answer")


def test_minus_inf_is_refused_by_the_grader_in_words(tmp_path):
    r = cli.drill("--saves", str(tmp_path), "check", T, "--seed", "1", "-inf")
    assert (r.returncode, r.stdout) == (0, "Can't read this answer: not a finite number (nan or infinity)\n")


def test_a_dashed_answer_is_recorded_as_typed(tmp_path):
    assert cli.drill("--saves", str(tmp_path), "check", T, "--seed", "1", "-3", "--record").returncode == 0
    r = cli.drill("--saves", str(tmp_path), "export", "-")
    assert [row["typed"] for row in json.loads(r.stdout)["reviews"]] == ["-3"]


@pytest.mark.parametrize("args, said", [
    (("--seed", "-1", "3"), "--seed must be between 0 and"),  # a negative value of an option stays its value
    (("--seed", "1", "3", "--jsn"), "unrecognized arguments: --jsn"),  # a mistyped option stays refused
    (("--seed", "1", "3", "-x"), "unrecognized arguments: -x"),  # one answer: a second is no answer
])
def test_options_and_their_values_are_read_as_before(args, said, tmp_path):
    r = cli.drill("--saves", str(tmp_path), "check", T, *args)
    assert r.returncode == 2 and said in r.stderr, r.stderr
