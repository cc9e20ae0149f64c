"""What the user typed, refused or said back: a bad command line or value (:class:`UsageError`), and typed
text shown safely (:func:`visible`, :func:`shown_arg`).

The commands raise and print these; the core raises them too (an empty ``--saves``, a mock setting that is
not a number), so they live here, below both faces.
"""

from engine.langs import EN, pick


class UsageError(Exception):
    """A bad command line: printed as one line, exit status 2 (by :func:`drill.cli.main`), in the command's
    language (:func:`drill.core.paths.command_lang`).

    ``UsageError(english, chinese)``, or ``UsageError(said)`` with an :mod:`engine.messages` Msg or Twin
    (an engine error's ``said``).  Without a Chinese text the English is shown.
    It lives in the core, not in ``drill.cli``, so that no command imports the module that loads the commands.
    """

    def __init__(self, message: object, zh: str = "") -> None:
        self.message, self.zh = message, zh
        super().__init__(str(message))

    def text(self, lang: str = EN) -> str:
        said = getattr(self.message, "text", None)  # a Msg or Twin words itself
        return pick(lang, said(lang) if callable(said) else str(self.message), self.zh or None)


def visible(text: str) -> str:
    """``text`` with control characters (terminal escapes, NUL, DEL, C1) shown escaped, as ``\\x1b``.

    Newlines and tabs stay: they lay out what a command prints.  Typed input echoed back (an
    unreadable value, a word the parser did not know) can then never drive the terminal.
    """
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or c in "\n\t" or not _control(c) else repr(c)[1:-1] for c in text)


def _control(c: str) -> bool:
    o = ord(c)
    return o < 0x20 or 0x7F <= o < 0xA0 or 0xD800 <= o < 0xE000  # C0, DEL, C1, lone surrogates


def shown_arg(text: str, most: int = 40) -> str:
    """A command-line value quoted back in an error: escaped, and cut when long (``'99999…' (5000 characters)``)."""
    t = visible(text)
    if len(t) <= most:
        return repr(t) if "'" not in t else f'"{t}"'
    return f"'{t[:most // 2]}…' ({len(text):,} characters)"
