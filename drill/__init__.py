"""infra-drill: the terminal app and the ``drill`` command (the only package that knows about screens)."""
