"""Subcommands of ``drill``. Each module defines ``register(subparsers)``.

Modules import the engine lazily (inside their handlers) so that ``drill``
starts fast; the list of modules is :data:`drill.cli.COMMAND_MODULES`.  What a command shares with the
app (the session flow, the stats text, the mock's glue, paths and words) is in :mod:`drill.core`; a command
never imports the app's screens or textual (``app.run_app`` alone starts the app, importing it lazily).
"""

from drill.core.usage import UsageError, shown_arg, visible  # noqa: F401 (every command raises and quotes with these)
