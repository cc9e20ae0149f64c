"""What every screen reads: the open profile, the language, the clock (``self.app.ctx``)."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING

from engine.langs import EN

if TYPE_CHECKING:
    from engine.storage import Profile


def utc_now() -> datetime:
    return datetime.now(UTC)


class AppContext:
    """The app's view of the world; tests inject the clock and the seed source.

    A plain class (a dataclass would add nothing that is used, and cost its definition before the first frame).
    """

    def __init__(self, profile: Profile, lang: str = EN, clock: Callable[[], datetime] = utc_now,
                 rng: random.Random | None = None) -> None:
        self.profile = profile
        self.lang = lang
        self.clock = clock  # returns an aware UTC datetime
        profile.clock = clock  # a setting's change time is stamped by the same clock (drill sync merges by it)
        self.rng = rng if rng is not None else random.Random()  # seeds of new problems
        self.hardware: str | None = None  # the learner's chip (drill practice --hardware ID): problems draw it
        # the learner's conventions off their default (Settings → conventions, --convention key=value)
        self.conventions: dict[str, str] = {}
        self.model: str | None = None  # the learner's model (drill practice --model ID): problems draw it

    def now(self) -> datetime:
        return self.clock()

    def today(self) -> date:
        """The learner's local date (reviews are filed under it)."""
        return self.clock().astimezone().date()

    def local_date(self, when: datetime) -> date:
        """The learner's local date at ``when`` (an answer is filed under the day it was given)."""
        return when.astimezone().date()

    def timestamp(self) -> str:
        """Now in UTC as stored in a review row: ``2026-11-29T15:42:01Z``."""
        return self.clock().astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")

    def new_seed(self) -> int:
        return self.rng.randrange(1, 2**31)

    def set_lang(self, lang: str) -> None:
        """Switch the language and remember it in the profile's settings."""
        self.lang = lang
        self.profile.set_setting("lang", lang)
