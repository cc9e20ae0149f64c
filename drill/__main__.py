"""``python -m drill``: the ``drill`` command."""

from drill.cli import main

raise SystemExit(main())
