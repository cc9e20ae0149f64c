"""How a review was asked: the ``mode`` of a review row, as saved."""

from __future__ import annotations

from enum import StrEnum


class ReviewMode(StrEnum):
    """Where an answer was given; a member is its saved string (``ReviewMode.MOCK == "mock"``)."""

    PRACTICE = "practice"  # today's session: due and new items, the ones that use up the day's quota
    MOCK = "mock"  # a timed mock interview: each step of a chain is a question of its own
    EXTRA = "extra"  # asked on request (the weakest items, a queue, chosen templates), off the schedule
    REDRILL = "redrill"  # asked again in the same session after a miss: logged only
    PAPER = "paper"  # answered on paper and logged with `drill log`


MODES = tuple(ReviewMode)  # in the order the save validator names them
