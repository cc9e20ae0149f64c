"""Subcommands of ``drill``. Each module defines ``register(subparsers)``.

Modules import the engine lazily (inside their handlers) so that ``drill``
starts fast; the list of modules is :data:`drill.cli.COMMAND_MODULES`.
"""


class UsageError(Exception):
    """A bad command line: printed as one line, exit status 2 (by :func:`drill.cli.main`).

    It lives here, not in ``drill.cli``, so that no command imports the module that loads the commands.
    """
