"""What drill teaches beside the problems, for the app and the commands: when a template's formula card is
shown before its first problem, and the bank's sources as lines (Help and ``drill sources``).

The card's text itself is :func:`question_bank.cards.card_lines` (``drill card`` prints it, the card screen
draws it).  Reading a card is not a review: nothing is recorded but the profile setting :data:`SEEN_KEY`.
"""

from __future__ import annotations

from engine.langs import EN

SEEN_KEY = "cards_seen"  # profile setting: ids of the templates whose card was shown before their first drill
SHOW_KEY = "card_before_new"  # profile setting: show a new template's card before its first problem (default on)


def needs_card(profile, template_id: str) -> bool:
    """True when ``template_id`` is new to this learner (never scheduled) and its card was never shown."""
    settings = profile.settings()
    if not settings.get(SHOW_KEY, True):
        return False
    seen = settings.get(SEEN_KEY) or []
    return template_id not in seen and profile.state(template_id) is None


def mark_seen(profile, template_id: str) -> None:
    seen = [i for i in (profile.settings().get(SEEN_KEY) or []) if isinstance(i, str)]
    if template_id not in seen:
        profile.set_setting(SEEN_KEY, seen + [template_id])


def sources_lines(lang: str = EN) -> list[str]:
    """Every source once: its name, what it is, where to find it (Help shows the same list)."""
    from engine import sources

    out = []
    for name, about, where in sources.listing(lang):
        out += [f"• {name}", f"    {about}"] + ([f"    {where}"] if where else [])
    return out
