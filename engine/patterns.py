"""Regular expressions compiled when first used, not when their module is imported.

``re.compile`` of a character class over many code points (lone surrogates, C1 controls, superscripts)
takes 0.3-1 ms, and modules on the way to the first problem define such patterns for typed answers or
save-file rows that start-up never reads.  ``pattern(...)`` stands for the compiled
pattern: its methods (``search``, ``sub`` ...) are the compiled pattern's, compiled at the first call.

Written here, not taken from a library: it is the dozen lines below, and ``re``'s own cache would
compile on first use too but look each pattern up by its text on every call.
"""

from __future__ import annotations

import re


class pattern:  # noqa: N801 (named like re.compile, which it stands for)
    """``pattern(regex, flags=0)``: ``re.compile(regex, flags)``, done when a method is first asked for."""

    __slots__ = ("_regex", "_flags", "_compiled")
    _regex: str | bytes
    _flags: int
    _compiled: re.Pattern | None

    def __init__(self, regex: str | bytes, flags: int = 0) -> None:
        self._regex, self._flags, self._compiled = regex, flags, None

    def __getattr__(self, name: str):  # only for names the slots do not hold: the compiled pattern's
        if self._compiled is None:
            self._compiled = re.compile(self._regex, self._flags)
        return getattr(self._compiled, name)

    def __repr__(self) -> str:
        return f"pattern({self._regex!r})"
