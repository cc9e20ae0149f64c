"""Leeches: the rules (engine.leeches) and what the app and the commands make of them (drill.core.leeches)."""

from __future__ import annotations

import json
import random
from datetime import UTC, date, datetime, time, timedelta

import pytest

from drill.core import browse_rows, leeches, sessions
from drill.core.context import AppContext
from engine import leeches as rules
from engine.session import review_row
from engine.stats import Digest
from engine.storage import Profile
from question_bank import drills, registry
from tests import cli

DAY0 = date(2026, 11, 2)
SINGLE = "memory.static"
CHAIN = "memory.zero_planning"


@pytest.fixture
def profile(tmp_path):
    p = Profile.open(tmp_path)
    yield p
    p.close()


def record(profile, item, quality, day, step=None, schedule=True, mode="practice"):
    when = datetime.combine(day, time(12), UTC)
    sched = schedule and step is None
    return profile.record(review_row(item=item, topic=registry.get(item).topic, seed=1, quality=quality,
                                     verdict="correct" if quality >= 4 else "wrong", when=when, today=day,
                                     state=profile.state(item) if sched else None, schedule=sched, mode=mode,
                                     step=step))


def fail(profile, item, n, start=DAY0):
    for k in range(n):
        record(profile, item, 1, start + timedelta(days=k))


# --------------------------------------------------------------------------- the rules


def test_a_lapse_is_any_failed_whole_review_in_any_mode_passed_or_not():
    items = ["a", "a", "a", "a", "a", "b", "b"]
    steps = [None, None, 1, None, None, None, None]
    quals = [1, 0, 0, 4, 2, 5, 3]  # a: 3 lapses (the step row is not one); b: none (3 is a pass)
    assert rules.lapses(items, steps, quals) == {"a": 3}


def test_six_lapses_make_a_leech_counted_afresh_after_a_reset():
    assert rules.leeches({"a": 6, "b": 5, "c": 9}) == ["a", "c"]
    assert rules.leeches({"a": 6, "c": 9}, reset={"a": 1, "c": 3}) == ["c"]  # a: 5 since its reset; c: 6
    assert rules.lapses_since(4, 6) == 0  # (an undo after a reset never counts below zero)


def test_a_chains_weakest_step_is_the_one_failed_most_often():
    items = ["c"] * 6 + ["d"]
    steps = [1, 2, 2, 3, 3, None, 1]
    quals = [0, 1, 2, 1, 4, 0, 0]
    assert rules.weakest_step(items, steps, quals, "c") == 2  # step 2 failed twice, step 1 and 3 once
    assert rules.weakest_step(items, steps, quals, "x") is None
    assert rules.weakest_step(["c", "c"], [1, 2], [1, 1], "c") == 1  # a tie: the earlier step


def test_a_leechs_card_comes_back_after_each_new_lapse_never_twice_for_one():
    assert not rules.card_due(5, None, None)  # not a leech yet
    assert rules.card_due(6, None, None)  # a leech, its card never shown
    assert not rules.card_due(6, None, 6) and rules.card_due(7, None, 6)  # shown at 6; lapsed again
    assert not rules.card_due(8, 3, None)  # reset at 3: 5 since


# --------------------------------------------------------------------------- the app and the commands


def test_six_failed_answers_make_a_leech_listed_in_stats_json_and_marked_in_browse(profile, tmp_path):
    fail(profile, SINGLE, 5)
    assert leeches.leech_ids(profile) == []
    record(profile, SINGLE, 0, DAY0 + timedelta(days=5), mode="mock")  # a mock's miss is a lapse too
    assert leeches.leech_ids(profile) == [SINGLE]
    rows = Digest.of_reviews(list(profile.reviews()))
    assert leeches.leech_ids_of_counts(profile, rules.lapses(rows.item, rows.step, rows.quality)) == [SINGLE]
    # the statistics' running totals count the same lapses as the log (drill stats reads no log)
    from engine.stats_running import Running

    assert Running.of_digest(rows).lapses == dict(rules.lapses(rows.item, rows.step, rows.quality))
    ctx = AppContext(profile, clock=lambda: datetime.combine(DAY0 + timedelta(days=6), time(9), UTC),
                     rng=random.Random(1))
    row = next(r for r in browse_rows.bank_rows(ctx, frozenset(leeches.leech_ids(profile))) if r.item == SINGLE)
    assert row.leech and "leech" in browse_rows.statuses(row, ctx.today())
    r = cli.drill("--saves", str(tmp_path), "stats", "--json")  # a reader, beside the open profile
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["leeches"] == [SINGLE]


def test_a_suspended_template_is_not_scheduled_until_taken_back_and_a_reset_clears_the_mark(profile):
    fail(profile, SINGLE, 6)
    day = DAY0 + timedelta(days=8)  # SINGLE is due (its last miss: due the next day)
    ctx = AppContext(profile, clock=lambda: datetime.combine(day, time(9), UTC), rng=random.Random(1))
    assert profile.state(SINGLE).due <= day  # due today, unless suspended
    assert leeches.toggle_suspended(profile, SINGLE) is True
    assert profile.settings()[leeches.SUSPENDED_KEY] == [SINGLE]  # the profile's normal settings write
    assert SINGLE not in [c.item for c in sessions.today_session(ctx).cards]
    assert SINGLE in sessions.retired(profile)  # nor by the final stretch's count of what is left
    assert leeches.toggle_suspended(profile, SINGLE) is False
    assert SINGLE not in sessions.retired(profile)
    assert leeches.card_due(profile, SINGLE)
    leeches.mark_card(profile, SINGLE)
    assert not leeches.card_due(profile, SINGLE)  # shown: not again before its next lapse
    record(profile, SINGLE, 1, day)
    assert leeches.card_due(profile, SINGLE)
    leeches.reset(profile, SINGLE)
    assert leeches.leech_ids(profile) == [] and not leeches.card_due(profile, SINGLE)
    fail(profile, SINGLE, 6, day + timedelta(days=1))
    assert leeches.leech_ids(profile) == [SINGLE]  # six more since the reset


def test_a_leech_chains_weakest_step_is_drilled_alone(profile):
    steps = drills.step_templates(CHAIN)
    weak = next(k for k, s in enumerate(steps) if s is not None)
    for k in range(6):
        day = DAY0 + timedelta(days=k)
        for n in range(len(steps)):
            record(profile, CHAIN, 1 if n == weak else 5, day, step=n + 1)
        record(profile, CHAIN, 1, day)
    assert leeches.leech_ids(profile) == [CHAIN]
    assert leeches.weakest_step_drill(profile, CHAIN, day) == {steps[weak]: day + timedelta(days=1)}
    assert leeches.weakest_step_drill(profile, SINGLE, day) == {}  # not a leech (nor a chain)
    added = sessions.note_step_drills(profile, CHAIN, [5] * len(steps), day)  # every step right this time
    assert added == [steps[weak]]  # still its weakest step, alone
