"""Subcommands of ``drill``. Each module defines ``register(subparsers)``.

Modules import the engine lazily (inside their handlers) so that ``drill``
starts fast; the list of modules is :data:`drill.cli.COMMAND_MODULES`.  What a command shares with the
app (the session flow, the stats text, the mock's glue, paths and words) is in :mod:`drill.core`; a command
never imports the app's screens or textual (``app.run_app`` alone starts the app, importing it lazily).
"""

import argparse

from drill.core.usage import UsageError, shown_arg, visible  # noqa: F401 (every command raises and quotes with these)


class LazyHelp(argparse.Action):
    """``-h``/``--help`` that first fills in what is costly to know (``fill(parser, namespace)``: the topics of
    the bank, the saves folder in use), so that building the parser imports nothing more."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None, fill=None):
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)
        self.fill = fill

    def __call__(self, parser, namespace, values, option_string=None):
        if self.fill is not None:
            self.fill(parser, namespace)
        parser.print_help()
        parser.exit()


def convention_option(parser) -> None:
    """``--convention key=value`` (repeatable): a convention for this problem over the profile's."""
    # the keys only: their values come from the conventions table, which imports the formula catalogue (not at start)
    keys = ("bytes_per_param, flops_per_param_token, tokens_per_param, ring_factor, directions, sender_copies, "
            "count_local, latency_steps, bytes_per_token, merge")
    parser.add_argument("--convention", action="append", metavar="KEY=VALUE",
                        help=f"count by this convention, over the profile's Settings → conventions (repeatable; "
                             f"KEY one of {keys}; a wrong one lists the values)")
