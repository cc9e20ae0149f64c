"""The merge's replay is the record path's: two machines' answers, synced, give each item the due date it would
have had if every answer had been given on one profile in time order, the final stretch before an interview
seeing the load and the daily cap of both machines' reviews."""

from datetime import UTC, datetime, timedelta

import pytest

from drill.core.recording import record_answer
from drill.core.sessions import catalog
from drill.core.sync import merge_documents
from engine.review_mode import ReviewMode
from engine.schedule.fsrs_bridge import Scheduler
from engine.session import Drawn, Moves
from engine.storage import Profile

START = datetime(2026, 11, 2, 8, tzinfo=UTC)
# an interview date at which the other machine's reviews move some of each machine's own (the final stretch's
# load): a date found for each scheduler, so the test exercises the load and not only the merge
INTERVIEWS = {Scheduler.SM2: "2026-11-24", Scheduler.FSRS: "2026-11-20"}


def answers() -> list[tuple[int, datetime, str, str, int]]:
    """(machine, when, item, topic, quality): two machines answering two of their own six items a session for
    8 days (machine 0 in the morning, 1 in the evening), so that one's reviews move the other's only by the
    final stretch's load."""
    items = catalog()[:12]
    out = []
    for d in range(8):
        for m, hour in ((0, 0), (1, 11)):
            for j in range(2):
                item, topic = items[6 * m + (2 * d + j) % 6]
                out.append((m, START + timedelta(days=d, hours=hour, minutes=j), item, topic,
                            (5, 4, 3, 5, 2, 4, 5)[(d + m + j) % 7]))
    return out


def answer(p: Profile, when: datetime, item: str, topic: str, quality: int) -> None:
    row = record_answer(p, Drawn(item, topic, 1), quality=quality, verdict="correct" if quality >= 3 else "wrong",
                        when=when, today=when.date(), mode=ReviewMode.PRACTICE, moves=Moves.ALWAYS)
    p.record(row)


def profile(root, scheduler: str) -> Profile:
    p = Profile.open(root)
    p.set_settings({"interview": INTERVIEWS[scheduler], "reviews_per_day": 2, "scheduler": scheduler}, when=START)
    return p


@pytest.mark.parametrize("scheduler", [Scheduler.SM2, Scheduler.FSRS])
def test_two_machines_synced_schedule_as_one_profile_answering_in_time_order(tmp_path, scheduler):
    one, a, b = (profile(tmp_path / name, scheduler) for name in ("one", "a", "b"))
    for machine, when, item, topic, quality in answers():
        answer(one, when, item, topic, quality)
        answer((a, b)[machine], when, item, topic, quality)
    own = {**a.states(), **b.states()}
    merge_documents(a, [(b.replica, b.export())])
    merge_documents(b, [(a.replica, a.export())])
    expected = {item: st.to_dict() for item, st in one.states().items()}
    assert {i: st.to_dict() for i, st in a.states().items()} == expected
    assert {i: st.to_dict() for i, st in b.states().items()} == expected
    # the other machine's reviews moved each machine's own last reviews in the final stretch
    assert any(st.due != a.state(item).due for item, st in own.items())
    for p in (one, a, b):
        p.close()
