"""The ``drill`` command: subcommands for scripted use, and the app when none is given."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import Sequence

# Each name is a module in drill/commands/ with register(subparsers).
COMMAND_MODULES: tuple[str, ...] = ("calc", "memory", "app", "stats", "mock", "bank")


class UsageError(Exception):
    """A bad command line: printed as one line, exit status 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="drill",
        description="Practise AI-infrastructure whiteboard derivations in the terminal.",
    )
    parser.add_argument("--saves", metavar="DIR", help="folder for save files (default: $DRILL_SAVES or the user data folder)")
    parser.add_argument("--profile", metavar="NAME", default=None, help="learner profile (default: default)")
    parser.add_argument("--lang", choices=("en", "zh"), default=None, help="language of prompts and UI")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(f"drill.commands.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:  # no subcommand: the app's Home
        func = importlib.import_module("drill.commands.app").run_app
    try:
        return int(func(args) or 0)
    except UsageError as e:
        print(f"drill: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader went away (`drill templates | head`): stop quietly, as the docs advise
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
