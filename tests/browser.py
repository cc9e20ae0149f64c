"""A served app in a real headless Chromium: the browser half of tests/functional/test_serve.py and
benchmarks/bench_serve.py.

Chromium is Debian's (``apt-get install chromium``), driven by Playwright's Python package with
``executable_path`` set to it, so Playwright's own browser download is never needed.  The page draws the
terminal on a canvas (xterm.js with WebGL), so what the app shows is read from the web socket instead: the
frames textual-serve sends are the app's terminal output, whose text (between escape sequences) holds every
word drawn.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# As the machine notes say: without the background-networking flags Chromium's own connections are refused by a
# closed network, many at a time; --no-sandbox because CI runs as root.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
ESCAPE = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[@-Z\\-_])")


def chromium() -> str | None:
    """The system's Chromium, or None."""
    for name in ("chromium", "chromium-browser"):
        if found := shutil.which(name):
            return found
    return None


def missing() -> str | None:
    """Why a browser test cannot run here, or None."""
    if chromium() is None:
        return "no chromium on PATH: install Debian's with `apt-get install chromium` (docs/testing.md)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is missing: make test installs it (pyproject.toml's test extras)"
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def served(argv: list[str], port: int, env: dict[str, str] | None = None, timeout: float = 30.0) -> Iterator[str]:
    """Run a server command (in its own process group) until it accepts connections on ``port``; yields its
    address; stops it and the app processes it started."""
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, cwd=ROOT,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + timeout
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"the server ended ({proc.returncode}): "
                                   f"{proc.stdout.read().decode(errors='replace') if proc.stdout else ''}")
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.2):
                break
            if time.monotonic() > deadline:
                raise RuntimeError(f"the server did not listen on port {port} within {timeout:.0f} s")
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        if proc.stdout:
            proc.stdout.close()


def drill_serve(saves: Path, port: int, *extra: str) -> list[str]:
    return [sys.executable, "-m", "drill", "--saves", str(saves), "serve", "--port", str(port), *extra]


class Screen:
    """What the app has drawn so far, as text read off the web socket's frames."""

    def __init__(self) -> None:
        self.raw: list[str] = []
        self.arrived: list[float] = []  # time.monotonic() of each frame's arrival
        self.opened = time.monotonic()  # when the page was asked for (browser_page sets it)

    def add(self, payload: str | bytes) -> None:
        text = payload.decode("utf-8", errors="ignore") if isinstance(payload, bytes) else payload
        self.raw.append(ESCAPE.sub(" ", text))
        self.arrived.append(time.monotonic())

    def first_drawn(self, words: str) -> float | None:
        """Seconds from the page's request to the frame that completed ``words``, or None (not drawn yet)."""
        for i in range(len(self.raw)):
            if words in re.sub(r"\s+", " ", "".join(self.raw[:i + 1])):
                return self.arrived[i] - self.opened
        return None

    def text(self) -> str:
        return re.sub(r"\s+", " ", "".join(self.raw))

    def wait_for(self, page, words: str, timeout: float = 30.0) -> float:
        """Wait until ``words`` were drawn; the seconds waited.  TimeoutError naming what was seen."""
        start = time.monotonic()
        while words not in self.text():
            if time.monotonic() - start > timeout:
                raise TimeoutError(f"{words!r} not drawn within {timeout:.0f} s; drawn: {self.text()[-600:]!r}")
            page.wait_for_timeout(25)
        return time.monotonic() - start


@contextlib.contextmanager
def browser_page(url: str) -> Iterator[tuple[object, Screen]]:
    """A headless Chromium page on ``url`` (requests off this machine refused), and the screen its web socket
    draws."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS, headless=True)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.route(re.compile(r"^https?://(?!127\.0\.0\.1|localhost)"), lambda route: route.abort())
            screen = Screen()
            page.on("websocket", lambda ws: ws.on("framereceived", screen.add))
            screen.opened = time.monotonic()
            page.goto(url)
            yield page, screen
        finally:
            browser.close()
