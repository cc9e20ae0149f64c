"""Leeches in the app and the commands (the rules: :mod:`engine.leeches`).

An item that keeps failing is marked in Browse and Stats (``drill stats --json``: ``leeches``), its formula
card is shown before its next drill (again after each new lapse), and a chain's weakest step is drilled
alone.  In Browse the learner may **suspend** one (no longer scheduled: not due, not new, not a step drill,
until taken back with the same key) or **reset** it (its lapses counted afresh from now: no longer a leech,
its schedule untouched).  All three are profile settings written through ``Profile.set_setting``:
:data:`SUSPENDED_KEY`, :data:`RESET_KEY` and :data:`CARDS_KEY`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from datetime import date, timedelta
from typing import TYPE_CHECKING

from engine import leeches

if TYPE_CHECKING:
    from engine.storage import Profile

SUSPENDED_KEY = "suspended"  # [template ids]: not scheduled until the learner takes them back
RESET_KEY = "leech_reset"  # {template: its lapse count when the learner reset it}
CARDS_KEY = "leech_cards"  # {template: its lapse count when its card was last shown before a drill}


def _counts_setting(profile: Profile, key: str) -> dict[str, int]:
    raw = profile.settings().get(key)
    if not isinstance(raw, dict):
        return {}
    return {k: v for k, v in raw.items() if isinstance(k, str) and type(v) is int and v >= 0}


def lapse_counts(profile: Profile) -> Counter[str]:
    """Each item's lapses over the whole log (:func:`engine.leeches.lapses`; read from the log's digest)."""
    d = profile.digest()
    return leeches.lapses(d.item, d.step, d.quality)


def leech_ids(profile: Profile, counts: Counter[str] | None = None) -> list[str]:
    """The templates of the bank that are leeches now (lapses since any reset), sorted."""
    from question_bank import registry

    bank = {t.id for t in registry.all_templates()}
    counts = lapse_counts(profile) if counts is None else counts
    return [i for i in leeches.leeches(counts, _counts_setting(profile, RESET_KEY)) if i in bank]


def leech_ids_of_counts(profile: Profile, counts: Mapping[str, int]) -> list[str]:
    """:func:`leech_ids` from each item's lapses already counted (the statistics' own, ``Stats.lapses``, kept
    as a running total: no read of the log)."""
    from question_bank import registry

    bank = {t.id for t in registry.all_templates()}
    return [i for i in leeches.leeches(counts, _counts_setting(profile, RESET_KEY)) if i in bank]


def suspended(profile: Profile) -> frozenset[str]:
    raw = profile.settings().get(SUSPENDED_KEY)
    return frozenset(i for i in raw if isinstance(i, str)) if isinstance(raw, list) else frozenset()


def toggle_suspended(profile: Profile, item: str) -> bool:
    """Suspend ``item``, or take it back when it is suspended; True when it is suspended now.  ``SaveFailed``
    when the setting cannot be written (nothing changed)."""
    now = set(suspended(profile))
    on = item not in now
    now = now | {item} if on else now - {item}
    profile.set_setting(SUSPENDED_KEY, sorted(now))
    return on


def reset(profile: Profile, item: str) -> None:
    """Count ``item``'s lapses afresh from now (it is no longer a leech; its schedule is left as it is)."""
    at = _counts_setting(profile, RESET_KEY)
    at[item] = lapse_counts(profile)[item]
    profile.set_setting(RESET_KEY, at)


def card_due(profile: Profile, item: str) -> bool:
    """Is ``item`` a leech whose formula card is to be shown before this drill (:func:`engine.leeches.card_due`)?

    Only an item whose last whole answer failed can have lapsed since its card was shown, so the log is read
    only for those (the state file's latest answers say which)."""
    last = profile.recent().get(item)
    if last is None or last.quality is None or last.quality >= leeches.FAILED:
        return False
    counts = lapse_counts(profile)
    return leeches.card_due(counts[item], _counts_setting(profile, RESET_KEY).get(item),
                            _counts_setting(profile, CARDS_KEY).get(item))


def mark_card(profile: Profile, item: str) -> None:
    """The leech's card was shown: not again before its next lapse.  ``SaveFailed`` when it cannot be written."""
    shown = _counts_setting(profile, CARDS_KEY)
    shown[item] = lapse_counts(profile)[item]
    profile.set_setting(CARDS_KEY, shown)


def weakest_step_drill(profile: Profile, item: str, today: date) -> dict[str, date]:
    """For a chain that is a leech: its weakest step's single template (the step failed most often), to
    practise alone the next day; empty otherwise."""
    from question_bank import drills

    d = profile.digest()
    counts = leeches.lapses(d.item, d.step, d.quality)
    if item not in leech_ids(profile, counts):
        return {}
    step = leeches.weakest_step(d.item, d.step, d.quality, item)
    templates = drills.step_templates(item)
    if step is None or step > len(templates) or (template := templates[step - 1]) is None:
        return {}
    return {template: today + timedelta(days=1)}
