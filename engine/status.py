"""The statuses a graded answer, a review or a mock answer can have, and the sets of them each place accepts.

A :class:`Status` member is its string (``Status.CORRECT == "correct"``, ``json.dumps`` writes ``"correct"``), so
saved rows and printed words stay plain strings, and a status read back from a save compares equal to its member.
This module imports nothing of the engine: the grader, the session, the mock and the screens all build on it.
"""

from __future__ import annotations

from enum import StrEnum


class Status(StrEnum):
    """What an answer came to: the grader's verdict, or how a review or a mock question ended without one."""

    CORRECT = "correct"
    # right by another published convention than the problem's own: quality 3, a pass
    CONVENTION = "convention"
    CLOSE = "close"
    WRONG = "wrong"
    INVALID = "invalid"  # not an answer to this question (no unit of the right kind, unreadable): not graded
    DONT_KNOW = "dont_know"  # the learner said so (typed "?"): a review of quality 0
    UNANSWERED = "unanswered"  # a mock question left without an answer


CORRECT, CONVENTION, CLOSE, WRONG, INVALID = Status.CORRECT, Status.CONVENTION, Status.CLOSE, Status.WRONG, Status.INVALID
DONT_KNOW, UNANSWERED = Status.DONT_KNOW, Status.UNANSWERED

# the statuses of a graded answer that count as passed (a review that is not a lapse): stats, the mock report, SM-2
PASSED = (CORRECT, CONVENTION, CLOSE)
# a stored review row's verdict, in the order the save validator names them
REVIEW_VERDICTS = (CORRECT, CONVENTION, CLOSE, WRONG, DONT_KNOW)
# a mock question's verdict in its report, in the order the report counts them
MOCK_VERDICTS = (CORRECT, CONVENTION, CLOSE, WRONG, UNANSWERED)
# the verdicts of answered questions, worst first: a multi-step answer counts as its worst step
WORST_FIRST = (DONT_KNOW, WRONG, CLOSE, CONVENTION, CORRECT)
