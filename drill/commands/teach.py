"""``drill card`` and ``drill sources``: the formula card of a template, and where the bank comes from.

    drill card TEMPLATE [--lang en|zh] [--json]
    drill sources [--lang en|zh] [--json]

The card is built by :mod:`question_bank.cards` (the app's card screen shows the same
lines); the sources are :data:`engine.sources.SOURCES`, each listed once.  The question
bank is imported inside the handlers so that ``drill`` starts fast.
"""

from __future__ import annotations

import argparse

from drill.commands import convention_option
from engine.langs import LANG_CHOICES


def register(subparsers) -> None:
    p = subparsers.add_parser("card", help="show the formula card of a template",
                              description="Show the formula card of TEMPLATE: the formula, what each symbol means, "
                                          "where each factor comes from, a worked example with round numbers, the "
                                          "typical mistakes and the source. Reading it does not count as a review.")
    p.add_argument("template", metavar="TEMPLATE", help="template id (see `drill templates`)")
    p.add_argument("--lang", dest="sub_lang", choices=LANG_CHOICES, help="language of the card")
    p.add_argument("--json", action="store_true", help="print the card as JSON")
    convention_option(p)
    p.set_defaults(func=run_card)

    p = subparsers.add_parser("sources", help="list the sources the question bank is built from",
                              description="List every source of the question bank once: the two articles it was "
                                          "written from, and the papers and datasheets behind its formulas.")
    p.add_argument("--lang", dest="sub_lang", choices=LANG_CHOICES, help="language of the list")
    p.add_argument("--json", action="store_true", help="print the list as JSON")
    p.set_defaults(func=run_sources)


def run_card(args: argparse.Namespace) -> int:
    from drill.commands.bank import lang_of, print_json, template_by_id, world_of
    from drill.commands.calc import emit
    from question_bank import cards

    t = template_by_id(args.template)
    lang = lang_of(args)
    chosen = world_of(args).conventions  # the title as the chosen conventions write it
    if args.json:
        print_json(cards.card(t, lang, chosen))
        return 0
    return emit("\n".join(cards.card_lines(t, lang, chosen)))


def run_sources(args: argparse.Namespace) -> int:
    from drill.commands.bank import lang_of, print_json
    from drill.commands.calc import emit
    from drill.core.teach import sources_lines
    from engine import sources

    lang = lang_of(args)
    rows = sources.listing(lang)
    if args.json:
        print_json([{"key": k, "name": n, "about": a, "where": w}
                     for k, (n, a, w) in zip(sources.SOURCES, rows)])
        return 0
    return emit("\n".join(sources_lines(lang)))
