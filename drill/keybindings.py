"""Every key of the app in one table: a key means one thing on every screen.

A row of :data:`KEYS` is one key (Textual's name for it), what it means, and the binding ids that may carry
it: each id names the words of one place (``key.leave`` is "Leave" in practice, ``key.mock_end`` "End mock"
in a mock: both are Esc, *back out of where you are*).  A screen binds a meaning with :func:`bind`, which
takes the key from here; it never names a key itself.  So ``o`` is the sort order wherever a list is sorted,
``r`` reverses it, ``,`` opens Settings, the digits are SM-2 grades and ``[``/``]`` turn a screen's tabs.

Help (drill/screens/help.py) and the footer read the screens' bindings, so they show these keys;
docs/practice.md's key tables say the same (tests/functional/test_key_table.py checks every screen against this
table and the docs against it).
"""

from __future__ import annotations

from textual.binding import Binding

from drill.core.i18n import STRINGS
from engine.records import NamedTuple


class Key(NamedTuple):
    """One key and its one meaning."""

    key: str  # Textual's key name ("comma", "left_square_bracket", "ctrl+g")
    meaning: str  # an id of drill.core.i18n.STRINGS: what the key does, said once for every screen
    ids: tuple[str, ...]  # the binding ids that may carry the key: the words of each place it works in
    display: str | None = None  # how the footer and Help write the key, when Textual's own name would not do


KEYS: tuple[Key, ...] = (
    # everywhere
    Key("f1", "key.help", ("key.help",)),
    Key("question_mark", "key.help", ("key.help",), "?"),  # outside a text box; closes Help again
    Key("ctrl+t", "key.lang", ("key.lang",)),
    Key("ctrl+p", "key.palette", ("key.palette",)),
    Key("escape", "key.back", ("key.back", "key.leave", "key.mock_end", "key.close", "key.mock_no", "key.home")),
    Key("enter", "key.next", ("key.next", "key.card_start", "key.home", "key.close")),
    Key("pagedown", "key.scroll", ("key.scroll",), "PgUp PgDn"),
    Key("pageup", "key.scroll", ("key.scroll",), "PgUp"),
    Key("down", "key.scroll", ("key.scroll",), "↓"),
    Key("up", "key.scroll", ("key.scroll",), "↑"),
    # Home: one key for each way in
    Key("p", "key.practice", ("key.practice", "key.practise_item", "key.mock_queue")),  # practise what is shown
    Key("m", "key.mock", ("key.mock",)),
    Key("s", "key.stats", ("key.stats",)),
    Key("b", "key.browse", ("key.browse",)),
    Key("comma", "key.settings", ("key.settings",), ","),
    Key("q", "key.quit", ("key.quit",)),
    # practice
    Key("ctrl+g", "key.dont_know", ("key.dont_know",)),
    Key("ctrl+z", "key.undo", ("key.undo",)),
    Key("u", "key.undo", ("key.undo",)),
    Key("a", "key.again", ("key.again",)),
    Key("h", "key.hard", ("key.hard",)),
    Key("g", "key.good", ("key.good",)),
    Key("e", "key.easy", ("key.easy",)),
    *(Key(str(q), "key.quality", (f"key.q{q}",)) for q in range(6)),  # the digits are grades, on every screen
    Key("x", "key.extra", ("key.extra",)),
    Key("f2", "key.card", ("key.card",)),  # opens the formula card, and closes it
    Key("c", "key.card", ("key.card",)),
    # the next hint while answering (a letter would go into the answer box: h is Hard after an answer)
    Key("f3", "key.hint", ("key.hint", "key.mock_hint")),  # in a mock: refused, with the reason
    # lists: browse, stats
    Key("o", "key.sort", ("key.sort", "key.browse_sort")),  # the sort order, wherever a list is sorted
    Key("r", "key.reverse", ("key.reverse",)),
    Key("slash", "key.browse_filter", ("key.browse_filter",), "/"),
    Key("t", "key.practise_topic", ("key.practise_topic",)),
    Key("d", "key.new_sample", ("key.new_sample",)),  # draw another sample
    Key("v", "key.browse_topic", ("key.browse_topic",)),  # view this topic only
    Key("f", "key.browse_status", ("key.browse_status",)),  # filter by status
    Key("z", "key.suspend", ("key.suspend",)),  # suspend a template (a leech), or take it back
    Key("l", "key.leech_reset", ("key.leech_reset",)),  # count a leech's lapses afresh
    Key("left_square_bracket", "key.tab_prev", ("key.tab_prev",), "["),
    Key("right_square_bracket", "key.tab_next", ("key.tab_next",), "]"),
    # mock interview
    Key("ctrl+s", "key.mock_start", ("key.mock_start",)),
    Key("ctrl+n", "key.mock_skip", ("key.mock_skip",)),
    Key("ctrl+f", "key.mock_flag", ("key.mock_flag",)),
    Key("ctrl+r", "key.mock_goto", ("key.mock_goto",)),
    Key("w", "key.mock_save_again", ("key.mock_save_again",)),  # write the report again
    # dialogs
    Key("y", "key.mock_yes", ("key.mock_yes",)),
    Key("n", "key.mock_no", ("key.mock_no",)),
)

BY_KEY: dict[str, Key] = {k.key: k for k in KEYS}


def keys_of(binding_id: str) -> tuple[str, ...]:
    """Every key that may carry ``binding_id``, in the table's order."""
    return tuple(k.key for k in KEYS if binding_id in k.ids)


def bind(binding_id: str, action: str, *, keys: str | tuple[str, ...] | None = None, show: bool = True,
         priority: bool = False) -> list[Binding]:
    """The bindings of ``binding_id`` doing ``action``: one per key of the table (or of ``keys``, which must
    be among them), described by the id's English words (the screens put the UI language's in), the first
    shown in the footer when ``show``."""
    table = keys_of(binding_id)
    chosen = table if keys is None else ((keys,) if isinstance(keys, str) else tuple(keys))
    if not chosen or any(k not in table for k in chosen):
        raise ValueError(f"{binding_id}: keys {chosen} are not its keys in drill.keybindings.KEYS ({table})")
    words = STRINGS.get(binding_id, (binding_id,))[0]
    return [Binding(k, action, words, show=show and i == 0, priority=priority, id=binding_id,
                    key_display=BY_KEY[k].display) for i, k in enumerate(chosen)]


def key_display(binding_id: str) -> str:
    """How a hint line writes the first key of ``binding_id``: ``/``, ``o``, ``,``, ``Ctrl+G``, ``Esc``, ``F2``."""
    k = BY_KEY[keys_of(binding_id)[0]]
    if k.display:
        return k.display
    names = {"escape": "Esc", "enter": "Enter", "ctrl": "Ctrl"}
    return "+".join(names.get(p, p.upper() if len(p) == 1 and "+" in k.key else p.capitalize() if len(p) > 1 else p)
                    for p in k.key.split("+"))
