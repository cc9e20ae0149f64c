"""The app in a real terminal: what only a terminal shows.

The tests of the app's logic drive it headless (Textual's pilot, tests/functional/app_support.py) and the
commands run in-process (tests/cli.py).  These few start ``python -m drill`` as a person does: in a
pseudo-terminal (the app takes over the screen, answers a key, gives the terminal back, exits 0; ``drill
stats`` opens the stats screen only when its output is a terminal), and in tmux when it is installed, whose
pane is the screen as a person sees it (Chinese drawn as Chinese).  Waits are bounded, never asserted.
"""

from __future__ import annotations

import fcntl
import os
import re
import select
import shutil
import struct
import subprocess
import sys
import termios
import time
import tty
from pathlib import Path

import pytest

from engine.storage import Profile

pty = pytest.importorskip("pty", reason="no pseudo-terminals on this platform")

ROOT = Path(__file__).resolve().parents[2]
WAIT = 120.0  # seconds a step may take on a loaded machine before the test gives up
ANSI = re.compile(rb"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[=>78]")
LEAVE_ALT_SCREEN = b"\x1b[?1049l"
CTRL_Q = b"\x11"
RAW_READY = b"\x06"  # written by the child once its terminal is raw, before drill starts
pytestmark = pytest.mark.functional


class Terminal:
    """``python -m drill ARGS`` on a 100 × 30 pseudo-terminal."""

    def __init__(self, *args: str, cols: int = 100, rows: int = 30, raw: bool = False) -> None:
        """With ``raw``, the terminal is in raw mode before drill starts (keys sent at once are neither
        echoed nor held for a line): what a terminal sends while a program starts."""
        env = {k: v for k, v in os.environ.items() if k not in ("DRILL_SAVES", "DRILL_LOCK_WAIT")}
        env.update(TERM="xterm-256color", COLUMNS=str(cols), LINES=str(rows))
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the pty is its terminal
            try:
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
                if raw:
                    tty.setraw(0)
                    os.write(1, RAW_READY)
                os.chdir(ROOT)
                os.execve(sys.executable, [sys.executable, "-m", "drill", *args], env)
            finally:
                os._exit(127)
        self.output = b""
        self.status: int | None = None
        if raw:  # the terminal is raw from here on
            self.wait_for(RAW_READY.decode())

    def text(self) -> str:
        return ANSI.sub(b"", self.output).decode("utf-8", "replace")

    def _read(self, timeout: float) -> None:
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if ready:
            try:
                self.output += os.read(self.fd, 65536)
            except OSError:  # the child closed the terminal
                time.sleep(timeout)

    def wait_for(self, *texts: str) -> None:
        end = time.monotonic() + WAIT
        while not all(t in self.text() for t in texts):
            assert time.monotonic() < end, f"{texts} never shown; the terminal shows:\n{self.text()[-2000:]}"
            assert self.poll() is None, f"exited {self.status} before showing {texts}:\n{self.text()[-2000:]}"
            self._read(0.2)

    def send(self, data: bytes) -> None:
        os.write(self.fd, data)

    def poll(self) -> int | None:
        if self.status is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = os.waitstatus_to_exitcode(status)
        return self.status

    def wait_exit(self) -> int:
        end = time.monotonic() + WAIT
        while self.poll() is None:
            assert time.monotonic() < end, f"still running; the terminal shows:\n{self.text()[-2000:]}"
            self._read(0.2)
        self._read(0)
        return self.status

    def close(self) -> None:
        if self.poll() is None:
            os.kill(self.pid, 9)
            os.waitpid(self.pid, 0)
        os.close(self.fd)


@pytest.fixture
def pty_terminal():
    opened: list[Terminal] = []

    def start(*args: str, **options) -> Terminal:
        opened.append(Terminal(*args, **options))
        return opened[-1]

    yield start
    for t in opened:
        t.close()


def test_the_app_takes_the_terminal_answers_a_key_and_gives_it_back(tmp_path, pty_terminal):
    t = pty_terminal("--saves", str(tmp_path))
    t.wait_for("infra-drill", "Due now", "New today")
    t.send(b"q")
    assert t.wait_exit() == 0, t.text()[-2000:]
    assert LEAVE_ALT_SCREEN in t.output  # the shell's screen comes back
    assert "Traceback" not in t.text()


def test_keys_typed_while_practice_starts_reach_the_answer_box(tmp_path, pty_terminal):
    """A learner who types before the first problem is drawn loses nothing: the app holds the keys until
    the answer box has the focus (DrillApp._keep_typeahead; without it they went to a screen with
    nothing focused yet, and were lost)."""
    with Profile.open(tmp_path) as p:
        p.set_setting("card_before_new", False)  # straight to the problem
    t = pty_terminal("--saves", str(tmp_path), "practice", raw=True)
    t.send("§§§".encode())  # at once: drill has not read its terminal yet
    t.wait_for("§§§")  # drawn in the answer box (the terminal is raw: nothing echoes it)
    t.send(CTRL_Q)
    assert t.wait_exit() == 0, t.text()[-2000:]
    assert "Traceback" not in t.text()


def test_stats_in_a_terminal_opens_the_stats_screen(tmp_path, pty_terminal):
    t = pty_terminal("--saves", str(tmp_path), "stats")
    t.wait_for("No reviews yet", "Next tab")  # an empty history, and the tab keys in the footer
    t.send(CTRL_Q)
    assert t.wait_exit() == 0, t.text()[-2000:]
    assert "Traceback" not in t.text()


# --------------------------------------------------------------------------- tmux: the screen as a person sees it

TMUX = shutil.which("tmux")


@pytest.fixture
def tmux(tmp_path):
    """A tmux server of this test's own (its socket in tmp_path), killed at the end."""
    if TMUX is None:
        pytest.skip("tmux is not installed: the screen as drawn is read from a tmux pane")
    socket = tmp_path / "tmux.sock"

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([TMUX, "-u", "-S", str(socket), *args], capture_output=True, text=True, timeout=60)

    yield run
    run("kill-server")


def _pane(tmux) -> str:
    return tmux("capture-pane", "-p", "-t", "drill").stdout


def _wait_pane(tmux, *texts: str) -> str:
    end = time.monotonic() + WAIT
    while True:
        shown = _pane(tmux)
        if all(t in shown for t in texts):
            return shown
        assert time.monotonic() < end, f"{texts} never shown; the pane shows:\n{shown}"
        time.sleep(0.3)


def test_the_home_screen_as_drawn_in_english_and_chinese(tmp_path, tmux):
    command = f"cd {ROOT} && exec {sys.executable} -m drill --saves {tmp_path}"
    r = tmux("new-session", "-d", "-s", "drill", "-x", "100", "-y", "30",
             "-e", "LANG=C.UTF-8", "-e", "LC_ALL=C.UTF-8", command)
    assert r.returncode == 0, r.stderr
    shown = _wait_pane(tmux, "infra-drill", "Due now")
    assert "Traceback" not in shown
    tmux("send-keys", "-t", "drill", "C-t")  # 中文
    shown = _wait_pane(tmux, "到期", "今日新题")
    assert "Due now" not in shown
    tmux("send-keys", "-t", "drill", "q")
    end = time.monotonic() + WAIT
    while tmux("has-session", "-t", "drill").returncode == 0:  # the app quit: its pane, and the session, end
        assert time.monotonic() < end, _pane(tmux)
        time.sleep(0.3)
