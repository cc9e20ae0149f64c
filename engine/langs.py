"""The languages of the app, and the one place that tells them apart.

Every text shown in two languages is read through :func:`pick` (or a
:class:`engine.messages.Twin` / ``Msg``, which use it); nothing else tests
``lang == "zh"``, so a language is added here and in the text tables.  A module
of its own, importing nothing, so the CLI and the app's first frame can use it
without loading the engine (``engine.messages`` costs some 20 ms to import).
"""

from __future__ import annotations

from enum import StrEnum


class Lang(StrEnum):
    """A language of the app, as the ``lang`` setting and ``--lang`` spell it."""

    EN = "en"  # the fallback
    ZH = "zh"


# module-level names of the members: a hot path (every text shown) reads these faster than Lang.ZH
EN, ZH = Lang.EN, Lang.ZH
LANGS: tuple[Lang, ...] = tuple(Lang)  # English (the fallback) first
# the same as plain strings, for argparse's choices: it names a wrong choice with repr(), which a member spells
# <Lang.EN: 'en'>
LANG_CHOICES: tuple[str, ...] = tuple(lang.value for lang in Lang)


def pick(lang: str, en, zh):  # untyped on purpose: typing costs the CLI ~9 ms to import (a pick of two T is a T)
    """``zh`` in Chinese when there is one (``None``: there is none), else ``en``.

    For pairs of any type (a solution's lines, an override that may be empty on
    purpose); a text that falls back when empty is a :class:`engine.messages.Twin`.
    """
    return zh if lang == ZH and zh is not None else en


def other_lang(lang: str) -> str:
    """The language a "switch language" key goes to from ``lang``: the next one of :data:`LANGS`."""
    return LANGS[(LANGS.index(lang) + 1) % len(LANGS)] if lang in LANGS else LANGS[0]


def known_lang(lang: object, default: str = EN) -> str:
    """``lang`` when it is one of :data:`LANGS` (a saved setting), else ``default``."""
    return lang if isinstance(lang, str) and lang in LANGS else default
