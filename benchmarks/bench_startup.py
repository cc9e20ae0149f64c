"""Time to the first interactive answer box: ``drill practice`` against a minimal Textual app.

Both programs are launched the same way, as a person would: a new process in a
pseudo-terminal of 80x24.  While it starts, the benchmark "types" a ``§`` into
the terminal every few milliseconds; the time is taken when a ``§`` first comes
back drawn on the screen, i.e. when a keystroke reached a focused input box
and was rendered.  The terminal is in raw mode from the start, so nothing is
echoed by the kernel.  The minimal app loses the keys that reach it before its
input box has focus; ``drill`` keeps the keys typed while it starts and hands
them to the answer box before its first frame (``DrillApp._keep_typeahead``),
so for both the time is that of the first frame that shows a typed key.

The baseline is a Textual app with one Label and one Input.  Runs alternate
between the two programs; the best and median times are printed with their
ratios (target: the ratio of the medians at most 1.25x).  Probe keys
come every 10 ms, so each figure is known to about 10 ms.  Both programs run
with bytecode caching on, as on a learner's machine.

On a shared machine the wall-clock ratio is noisy.  ``STARTUP_CALLGRIND=1``
(with valgrind installed) also counts the instructions each program executes
from launch to the key drawn and its exit (``valgrind --tool=callgrind``, one run
each, a few minutes): a figure the machine's load does not change.  Under
valgrind a program runs ~50x slower, so keys are typed only once the answer box
is on screen, one a second (keys and the cursor's blink cost instructions too).
"""

from __future__ import annotations

import fcntl
import os
import select
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
import tty
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROBE = "§".encode()
RUNS = 9
SIZE = (24, 80)  # rows, columns
TARGET = 1.25
TIMEOUT = 30.0
PROBE_EVERY = 0.010  # a key every 10 ms: fine resolution, and both programs get the same keys

MINIMAL_APP = '''
from textual.app import App
from textual.widgets import Input, Label


class Minimal(App):
    def compose(self):
        yield Label("What is the ridge point of the H100 SXM at bf16, in FLOP/B?")
        yield Input(placeholder="your answer")


Minimal().run()
'''


def time_to_input(argv: list[str], cwd: Path, *, probe_every: float = PROBE_EVERY, armed_by: bytes = b"",
                  timeout: float = TIMEOUT, exit_wait: float = 5.0) -> float:
    """Seconds from launching ``argv`` in a pty until a typed key is drawn in its input box.

    With ``armed_by``, keys are typed only once those bytes were drawn (the answer box is on screen)."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", SIZE[0], SIZE[1], 0, 0))
    tty.setraw(slave)
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": str(SIZE[1]), "LINES": str(SIZE[0])}
    env.pop("TEXTUAL", None)
    # as on a learner's machine: Python keeps compiled bytecode (this sandbox may switch that off)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    start = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=cwd, stdin=slave, stdout=slave, stderr=slave, env=env,
                            start_new_session=True, close_fds=True)
    os.close(slave)
    seen, next_probe, tail = None, 0.0, b""
    armed, drawn = not armed_by, b""
    try:
        while seen is None:
            now = time.perf_counter()
            if now - start > timeout:
                raise TimeoutError(f"{argv[-1]}: no input box after {timeout:.0f} s")
            if now >= next_probe and armed:
                os.write(master, PROBE)
                next_probe = now + probe_every
            ready, _, _ = select.select([master], [], [], 0.002)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # the program exited
                    raise RuntimeError(f"{' '.join(argv)} exited before showing an input box") from None
                if not armed:
                    drawn = (drawn + chunk)[-8192:]
                    armed = armed_by in drawn
                if PROBE in tail[-1:] + chunk:
                    seen = time.perf_counter() - start
                tail = chunk
    finally:
        os.write(master, b"\x11")  # ctrl+q
        deadline = time.perf_counter() + exit_wait
        while proc.poll() is None and time.perf_counter() < deadline:
            if select.select([master], [], [], 0.05)[0]:
                try:
                    os.read(master, 65536)
                except OSError:
                    break
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        os.close(master)
    return seen


def instructions(argv: list[str], cwd: Path, out: Path) -> int:
    """Instructions ``argv`` executes from launch to the drawn key and its exit (callgrind's total)."""
    time_to_input(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *argv], cwd, probe_every=1.0,
                  armed_by=b"your answer", timeout=900.0, exit_wait=300.0)
    for line in out.read_text().splitlines():
        if line.startswith(("summary:", "totals:")):
            return int(line.split()[1])
    raise RuntimeError(f"no instruction count in {out}")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        saves = tmp_path / "saves"
        minimal = tmp_path / "minimal_app.py"
        minimal.write_text(MINIMAL_APP)
        programs = {
            "minimal Textual app (Label + Input)": [sys.executable, str(minimal)],
            "drill practice": [sys.executable, "-m", "drill", "--saves", str(saves), "practice"],
        }
        # a profile that exists already, as for a returning learner who has read the formula cards
        # (a new template's card comes before its first problem: no answer box to time)
        subprocess.run([sys.executable, "-c", "import sys; from engine.storage import Profile\n"
                        "with Profile.open(sys.argv[1], 'default') as p: p.set_setting('card_before_new', False)",
                        str(saves)], cwd=ROOT, capture_output=True, check=True)
        for argv in programs.values():  # warm the file cache and bytecode
            time_to_input(argv, ROOT)
        times: dict[str, list[float]] = {name: [] for name in programs}
        for _ in range(RUNS):
            for name, argv in programs.items():
                times[name].append(time_to_input(argv, ROOT))
        counts = ({name: instructions(argv, ROOT, tmp_path / f"callgrind.{k}") for k, (name, argv)
                   in enumerate(programs.items())}
                  if os.environ.get("STARTUP_CALLGRIND") and shutil.which("valgrind") else None)
    (base, drill) = times.values()
    print(f"startup to an interactive answer box (pty {SIZE[1]}x{SIZE[0]}, {RUNS} alternating runs each)")
    print(f"  {'':<38} {'best':>7} {'median':>8}")
    for name, values in times.items():
        print(f"  {name:<38} {min(values):6.3f}s {statistics.median(values):7.3f}s")
    best, median = min(drill) / min(base), statistics.median(drill) / statistics.median(base)
    verdict = "ok" if median <= TARGET else "over target"
    print(f"  {'drill practice / minimal app':<38} {best:6.2f}x {median:7.2f}x   (target: medians <= {TARGET}x: "
          f"{verdict})")
    if counts:
        (base_n, drill_n) = counts.values()
        print(f"  instructions (callgrind, launch to the key drawn and exit): minimal app {base_n / 1e6:,.0f}M, "
              f"drill practice {drill_n / 1e6:,.0f}M: {drill_n / base_n:.2f}x")


if __name__ == "__main__":
    main()
