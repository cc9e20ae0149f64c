"""The ``drill`` command: subcommands for scripted use, and the app when none is given."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from drill.commands import LazyHelp, UsageError, visible
from engine.langs import LANG_CHOICES

# Each name is a module in drill/commands/ with register(subparsers).
COMMAND_MODULES: tuple[str, ...] = ("calc", "memory", "export", "app", "stats", "mock", "bank", "teach", "catalogue",
                                    "doctor", "serve", "sync")
# ``drill`` and ``drill practice`` open the app: its module alone parses them, so the first
# problem does not wait for every other command's module and parser (benchmarks/bench_startup.py).
APP_MODULE = "app"
APP_COMMANDS = ("practice",)  # what APP_MODULE registers
# The options every command takes, before or after the command; each takes one value.
GLOBAL_OPTIONS: dict[str, dict] = {
    "--saves": dict(metavar="DIR", help="folder for save files (default: $DRILL_SAVES, else saves/ of the checkout "
                                        "drill runs from, else the user data folder)"),
    "--profile": dict(metavar="NAME", default=None, help="learner profile (default: default)"),
    "--lang": dict(choices=LANG_CHOICES, default=None, help="language of prompts and UI"),
}


class _Visible:
    """A text stream that escapes control characters (:func:`visible`) in what is written through it, and
    the one place where a failing output (a full disk, ``/dev/full``, a closed pipe) is caught: the first
    error is kept in ``lost`` and the rest of the output dropped, so the command runs to its end (a review
    it records is recorded once) and :func:`main` says in one line what was lost."""

    def __init__(self, stream) -> None:
        self._stream = stream
        self.lost: OSError | None = None

    def write(self, text: str) -> int:
        if self.lost is None:
            try:
                return self._stream.write(visible(text))
            except OSError as e:
                self._lose(e)
        return len(text)

    def flush(self) -> None:
        if self.lost is None:
            try:
                self._stream.flush()
            except OSError as e:
                self._lose(e)

    def _lose(self, error: OSError) -> None:
        self.lost = error
        try:  # what is still buffered goes nowhere, so the interpreter's last flush cannot fail again
            fd = self._stream.fileno()
        except (OSError, ValueError, AttributeError):  # not a file (a test's capture): nothing is flushed at exit
            return
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fd)
        os.close(devnull)

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


class _Wrapped:
    """A terminal's text stream whose lines are broken by display width at the terminal's width
    (:func:`engine.wrap.wrap_line`: a Chinese character is two columns, a number keeps its unit, a
    continuation hangs under its bullet) instead of where the terminal happens to cut them.  Only for a
    terminal: what is piped, redirected or ``--json`` is written as it is."""

    def __init__(self, stream, cells: int) -> None:
        self._stream = stream
        self._cells = cells
        self._pending = ""  # the line being written, until its newline

    def write(self, text: str) -> int:
        from engine.wrap import wrap_line

        *lines, self._pending = (self._pending + text).split("\n")
        for line in lines:
            self._stream.write("\n".join(wrap_line(line, self._cells)) + "\n")
        return len(text)

    def flush(self) -> None:
        """What is pending goes out now (a prompt before ``input()``), wrapped as a line of its own."""
        if self._pending:
            from engine.wrap import wrap_line

            self._stream.write("\n".join(wrap_line(self._pending, self._cells)))
            self._pending = ""
        self._stream.flush()

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def _terminal_cells(stream) -> int:
    """The width to wrap ``stream``'s lines at: the terminal's columns when it is a terminal, else 0 (never)."""
    try:
        if not stream.isatty():
            return 0
    except (AttributeError, ValueError, OSError):
        return 0
    import shutil

    return shutil.get_terminal_size().columns


def _safe_streams(wrap_stdout: bool = True) -> None:
    """Whatever a command prints is valid in the terminal's encoding and cannot drive the terminal.

    What the encoding cannot hold is written as a backslash escape (``PYTHONIOENCODING=ascii``
    prints ``\\xa7`` for §) instead of ending in UnicodeEncodeError; control characters are escaped.
    At a terminal, lines are broken by display width (:class:`_Wrapped`); ``wrap_stdout=False``
    (``--json``) leaves standard output unwrapped.
    """
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if isinstance(stream, _Visible):
            continue
        try:
            stream.reconfigure(errors="backslashreplace")
        except (AttributeError, ValueError, OSError):  # not a text file of ours (a test's capture): leave it
            pass
        cells = _terminal_cells(stream) if wrap_stdout or name == "stderr" else 0
        setattr(sys, name, _Visible(_Wrapped(stream, cells) if cells > 0 else stream))


def _restore_streams() -> OSError | None:
    """The streams as they were before :func:`_safe_streams`; returns the error that lost standard output, if
    any (its last buffered lines are flushed here, so a full disk is found before the command's status is)."""
    lost = None
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if isinstance(stream, _Visible):
            try:
                stream.flush()  # a last line with no newline, and whatever is still buffered
            except ValueError:  # closed by the command
                pass
            if name == "stdout":
                lost = stream.lost
            inner = stream._stream
            setattr(sys, name, inner._stream if isinstance(inner, _Wrapped) else inner)
    return lost


def _lost_line(error: OSError, argv: Sequence[str]) -> str:
    """One line for standard output that failed (``error``), in the command's language."""
    import errno

    from drill.core.i18n import t
    from drill.core.paths import command_lang
    from engine.messages import say

    given = {}  # the global options, as command_lang reads them off a parsed command line (the last one wins)
    args = iter(argv)
    for arg in args:
        option, eq, value = arg.partition("=")
        if option in GLOBAL_OPTIONS:
            given[option[2:]] = value if eq else next(args, None)
    lang = command_lang(argparse.Namespace(**given))
    if isinstance(error, BrokenPipeError):
        return t("cli.output_closed", lang)
    cause = say("save.cause.full") if error.errno == errno.ENOSPC else say("save.cause.other", error=error.strerror or str(error))
    return t("cli.output_lost", lang, cause=cause.text(lang))


def _text_args(argv: Sequence[str]) -> list[str]:
    """Arguments as text: bytes that are not UTF-8 (``$'12\\xff GB'``) become U+FFFD, so nothing
    undecodable reaches an answer, a save file or JSON output."""
    return [a.encode("utf-8", "surrogateescape").decode("utf-8", "replace") if not a.isascii() else a for a in argv]


class _Version(argparse.Action):
    """``drill --version``: the installed version, looked up only when asked (no import at start-up)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        from importlib.metadata import PackageNotFoundError, version

        try:
            shown = version("infra-drill")
        except PackageNotFoundError:  # run from a source tree that was never installed
            shown = "(not installed)"
        sys.stdout.write(f"drill {shown}\n")
        parser.exit()


def _saves_in_use(parser: argparse.ArgumentParser, namespace: argparse.Namespace) -> None:
    """``drill --help`` ends with the folder the saves are in now (worked out only when help is asked for)."""
    from drill.core.paths import saves_note

    parser.epilog = saves_note(getattr(namespace, "saves", None))


def build_parser(modules: Sequence[str] = COMMAND_MODULES) -> argparse.ArgumentParser:
    """The ``drill`` parser with the commands of ``modules`` (default: every command)."""
    parser = argparse.ArgumentParser(
        prog="drill",
        description="Practise AI-infrastructure whiteboard derivations in the terminal.",
        formatter_class=argparse.RawDescriptionHelpFormatter,  # the saves folder's path is never broken
        add_help=False,
    )
    parser.add_argument("-h", "--help", action=LazyHelp, fill=_saves_in_use, help="show this help message and exit")
    parser.add_argument("--version", action=_Version, help="print drill's version and exit")
    for option, kwargs in GLOBAL_OPTIONS.items():
        parser.add_argument(option, **kwargs)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in modules:
        importlib.import_module(f"drill.commands.{name}").register(sub)
    # ... and after it too (`drill stats --lang zh`): a value given there wins, none leaves the one before
    for command in sub.choices.values():
        for option, kwargs in GLOBAL_OPTIONS.items():
            try:
                command.add_argument(option, **{**kwargs, "default": argparse.SUPPRESS})
            except argparse.ArgumentError:
                pass  # the command defines the option itself
    return parser


def command_modules(argv: Sequence[str]) -> tuple[str, ...]:
    """The command modules needed to parse ``argv``: the app's alone for ``drill [options] [practice]``;
    every one otherwise (help, a mistake or any other command sees the whole parser)."""
    rest, args = [], iter(argv)
    for arg in args:
        if arg in GLOBAL_OPTIONS:
            next(args, None)  # its value
        elif arg.partition("=")[0] not in GLOBAL_OPTIONS:
            rest.append(arg)
    opens_app = not rest or (len(rest) == 1 and rest[0] in APP_COMMANDS)
    return (APP_MODULE,) if opens_app else COMMAND_MODULES


def main(argv: Sequence[str] | None = None) -> int:
    argv = _text_args(sys.argv[1:] if argv is None else list(argv))
    # the app draws the terminal itself, and JSON is read by programs: neither is wrapped
    _safe_streams(wrap_stdout="--json" not in argv and command_modules(argv) != (APP_MODULE,))
    ended: SystemExit | None = None
    try:
        code: int | str | None = _main(argv)
    except SystemExit as e:  # argparse (--help, a bad command line), a profile that cannot be opened
        ended, code = e, e.code
    finally:
        lost = _restore_streams()
    if lost is not None:  # said last, after everything the command said
        print(f"drill: {_lost_line(lost, argv)}", file=sys.stderr)
        code = code or 1  # a status the command chose stays; success does not
    if ended is not None:
        raise ended if ended.code == code else SystemExit(code)
    return int(code or 0)


def _dashed_answers(argv: Sequence[str]) -> set[int]:
    """Where ``drill check``'s command line has a word starting with one ``-`` that is no option of it (an
    answer: ``-inf``, ``-1e3``, ``-3GB``); argparse would refuse it as an unknown option.  Given to argparse
    after a space (which it reads as a positional: an option has none) and handed back as typed."""
    rest = [k for k, a in enumerate(argv) if a not in GLOBAL_OPTIONS and (k == 0 or argv[k - 1] not in GLOBAL_OPTIONS)]
    if not rest or argv[rest[0]] != "check":
        return set()
    import re

    # (a plain negative number, which argparse reads as a value already, is left as it is: `--seed -1` stays)
    return {k for k in rest[1:] if argv[k].startswith("-") and not argv[k].startswith("--") and argv[k] != "-h"
            and not re.fullmatch(r"-\d+|-\d*\.\d+|-", argv[k])}


def _main(argv: list[str]) -> int:
    parser = build_parser(command_modules(argv))
    typed = {f" {argv[k]}": argv[k] for k in _dashed_answers(argv)}  # what argparse is given: what was typed
    args, extras = parser.parse_known_args([f" {a}" if f" {a}" in typed else a for a in argv])
    if extras:  # as parse_args says it
        parser.error(f"unrecognized arguments: {' '.join(typed.get(a, a) for a in extras)}")
    for key, value in vars(args).items():  # the answer (or an option's value) as typed
        if isinstance(value, str) and value in typed:
            setattr(args, key, typed[value])
    func = getattr(args, "func", None)
    if func is None:  # no subcommand: the app's Home
        func = importlib.import_module("drill.commands.app").run_app
    try:
        return int(func(args) or 0)
    except UsageError as e:
        from drill.core.paths import command_lang

        print(f"drill: {e.text(command_lang(args))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
