"""Subcommands of ``drill``. Each module defines ``register(subparsers)``.

Modules import the engine lazily (inside their handlers) so that ``drill``
starts fast; the list of modules is :data:`drill.cli.COMMAND_MODULES`.
"""
