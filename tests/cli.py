"""``drill ARGS`` run in this process, as a test of the command's logic sees it from outside.

:func:`drill` calls :func:`drill.cli.main` with the arguments, environment, standard input and working folder
given, captures what it writes to stdout and stderr (through a real text stream, UTF-8, so the command's own
stream handling runs) and returns what :func:`subprocess.run` would: ``returncode``, ``stdout``, ``stderr``.
A subprocess costs a Python start and the imports (0.3-1 s on a loaded machine); this costs the command.

What only a real process shows stays a subprocess (tests/functional/test_cli_process.py and the few tests that
say why): start-up imports, the interpreter's stream encoding (``PYTHONIOENCODING``), a closed pipe, exit
through ``python -m drill``, a lock held by another process, the terminal.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


class _Capture(io.TextIOWrapper):
    """A captured stream that is not a terminal (unless ``terminal``) and reads back as text or bytes."""

    def __init__(self, terminal: bool = False) -> None:
        super().__init__(io.BytesIO(), encoding="utf-8", errors="strict", newline=None, write_through=True)
        self._terminal = terminal

    def isatty(self) -> bool:
        return self._terminal

    def value(self) -> bytes:
        self.flush()
        return self.buffer.getvalue()


def drill(*args: str | bytes, env: dict[str, str] | None = None, input: str | bytes | None = None,
          cwd: str | Path | None = None, text: bool = True, terminal: bool = False) -> subprocess.CompletedProcess:
    """Run ``drill *args`` in this process; ``env`` replaces the environment for the call (as
    ``subprocess.run(env=...)`` does), ``input`` is standard input, ``text=False`` returns bytes;
    ``terminal``: standard output and error say they are a terminal (its width is ``$COLUMNS``)."""
    from drill.cli import main

    argv = [os.fsdecode(a) for a in args]  # bytes as the interpreter decodes sys.argv (surrogateescape)
    out, err = _Capture(terminal), _Capture(terminal)
    stdin = input.decode("utf-8") if isinstance(input, bytes) else (input or "")
    saved_env = dict(os.environ)
    saved = sys.stdin, sys.stdout, sys.stderr
    here = os.getcwd()
    try:
        if env is not None:
            os.environ.clear()
            os.environ.update(env)
        if cwd is not None:
            os.chdir(cwd)
        sys.stdin, sys.stdout, sys.stderr = io.StringIO(stdin), out, err
        try:
            code = main(argv)
        except SystemExit as e:  # argparse, and a command that exits
            if isinstance(e.code, str):
                print(e.code, file=sys.stderr)
            code = 1 if isinstance(e.code, str) else (e.code or 0)
        except Exception:  # noqa: BLE001 - a crash is what a process would print: a traceback, status 1
            traceback.print_exc()
            code = 1
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
        os.chdir(here)
        if env is not None:
            os.environ.clear()
            os.environ.update(saved_env)
    o, e_ = out.value(), err.value()
    if text:
        return subprocess.CompletedProcess(["drill", *argv], code, o.decode("utf-8"), e_.decode("utf-8"))
    return subprocess.CompletedProcess(["drill", *argv], code, o, e_)


def drill_process(*args: str | bytes, env: dict[str, str] | None = None, input: str | bytes | None = None,
                  cwd: str | Path | None = ROOT, text: bool = True, timeout: float = 60) -> subprocess.CompletedProcess:
    """``python -m drill *args`` as a real process (for what only a process shows: see the module docstring)."""
    return subprocess.run([sys.executable, "-m", "drill", *args], cwd=cwd, capture_output=True, text=text, env=env,
                          input=input, timeout=timeout)


@contextlib.contextmanager
def environ(**changes: str | None):
    """The environment with ``changes`` (None removes a variable) for the block."""
    saved = dict(os.environ)
    try:
        for k, v in changes.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def in_terminal(command: list[str], **run) -> subprocess.CompletedProcess:
    """``subprocess.run(command, **run)`` with standard input and output a pseudo-terminal, as a person's
    shell gives them (``drill`` refuses to open the app otherwise); ``stdout``: what it drew there, ``stderr``
    as text."""
    import pty
    import select

    leader, follower = pty.openpty()
    try:
        r = subprocess.run(command, stdin=follower, stdout=follower, stderr=subprocess.PIPE, text=True, **run)
        drawn = b""
        while select.select([leader], [], [], 0)[0]:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the terminal closed with the process
                break
            if not chunk:
                break
            drawn += chunk
    finally:
        os.close(follower)
        os.close(leader)
    return subprocess.CompletedProcess(command, r.returncode, drawn.decode("utf-8", "replace"), r.stderr)
