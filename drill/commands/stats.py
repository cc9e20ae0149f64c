"""``drill stats``: progress figures.

    drill stats            the stats screen in a terminal; a text summary (ending with the saves folder) when piped
    drill stats --json     every figure as JSON (``leeches``: the ids of the items failed 6 times or more;
                           ``hints``: the hints taken, overall and by topic)
    drill stats --sort accuracy [--reverse]   order of the topic table

The figures and their words (English and Chinese) are :mod:`drill.core.stats`, which the
stats screen reads too.  Nothing here imports textual unless the screen is opened.
"""

from __future__ import annotations

import argparse
import json
import sys

from drill.core.stats import SORT_COLUMNS, figures, summary
from engine.langs import EN

# --------------------------------------------------------------------------- #
# The command


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "stats",
        help="progress: streaks, retention, accuracy by topic, what is coming due",
        description="Progress figures. In a terminal this opens the stats screen; piped, it prints a text "
                    "summary; --json prints every figure.",
    )
    p.add_argument("--json", action="store_true", help="print every figure as JSON")
    p.add_argument("--sort", choices=SORT_COLUMNS, default="topic", help="order of the topic table (text summary)")
    p.add_argument("--reverse", action="store_true", help="reverse the topic order")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from drill.commands.app import in_terminal
    from drill.core.paths import command_lang, missing_profile

    if (problem := missing_profile(args.saves, args.profile, command_lang(args))) is not None:  # nothing is made
        print(f"drill: {problem}", file=sys.stderr)
        return 1
    if not args.json and in_terminal():
        from drill.commands.app import run_app

        return run_app(args, start="stats")
    from drill.core.context import AppContext
    from drill.core.paths import open_profile, saves_note
    from engine.storage import DamagedSave

    profile = open_profile(args.saves, args.profile, read_only=True,  # a reader: works while the app is open
                           lang=getattr(args, "lang", None))
    with profile:
        lang = getattr(args, "lang", None) or profile.settings().get("lang") or EN
        try:
            s = figures(profile, AppContext(profile).today(), lang, readiness=args.json)  # the summary has none
        except DamagedSave as e:  # an older log segment, read only now
            print(f"drill: {e.text(lang)}", file=sys.stderr)
            return 1
        from drill.core.leeches import leech_ids_of_counts

        leeches = leech_ids_of_counts(profile, s.lapses)  # the items failed 6 times or more (engine.leeches)
    if args.json:
        from drill.core.stats import hints_figure

        json.dump({**s.to_dict(), "leeches": leeches, "hints": hints_figure(s)}, sys.stdout, ensure_ascii=False,
                  indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(summary(s, lang, args.sort, args.reverse, leeches))
        sys.stdout.write("\n" + saves_note(args.saves, lang, folder=profile.path.parent) + "\n")
    return 0
