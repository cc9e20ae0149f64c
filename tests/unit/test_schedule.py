"""The learning loop's rules beside SM-2, with an injected day: pace, the final stretch, interleaving,
chains and scaffolds, FSRS, readiness.  Simulations here are small (the full ones are in benchmarks/)."""

from __future__ import annotations

import math
import random
from datetime import UTC, date, datetime, time, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import session as se
from engine.schedule import calibration, chains, fsrs_bridge, interleave, pace, readiness, stretch
from engine.sm2 import ItemState, review
from question_bank import drills, registry
from tests.reference import answers_of, fewest_same_topic_neighbours, history_of, same_topic_neighbours, sm2_replay

DAY0 = date(2027, 5, 3)
CATALOG = [(t.id, t.topic) for t in registry.all_templates()]
IS_CHAIN = {t.id: t.is_chain for t in registry.all_templates()}.__getitem__


# --------------------------------------------------------------------------- pace

def test_the_pace_of_the_issue_adds_up():
    p = pace.pace(122, 7)
    assert (p.left, p.days_left, p.done_by, p.per_day) == (122, 7, 5, 25)
    assert p.fits(25) and not p.fits(24)
    assert pace.pace(5, 1) == pace.Pace(5, 1, 1, 5)  # an interview tomorrow: everything today
    assert pace.pace(0, 9) == pace.Pace(0, 9, 0, 0) and pace.pace(0, 9).fits(0)  # nothing left, 0 a day is fine
    with pytest.raises(ValueError):
        pace.pace(3, 0)  # the day itself, or a date in the past, has no pace


@given(st.integers(0, 2000), st.integers(1, 400))
def test_every_pace_figure_is_consistent_with_the_others(left, days):
    p = pace.pace(left, days)
    if left == 0:
        assert p.per_day == 0 and p.done_by == 0
        return
    planned = pace.planned_days(days)
    assert 1 <= p.done_by <= planned <= days and planned >= days * 2 / 3 - 1e-9
    assert p.per_day * p.done_by >= left > p.per_day * (p.done_by - 1)  # met exactly on that day at that rate
    assert math.ceil(left / planned) == p.per_day  # the fewest a day that meets them in the planned days


# --------------------------------------------------------------------------- interleaving

def _topic(x):
    return x[0]


def _overdue(x):
    return x[1]


@given(st.lists(st.tuples(st.sampled_from("abcde"), st.integers(0, 9)), max_size=40))
def test_interleaving_keeps_every_item_and_the_most_overdue_first(items):
    items = [(t, o, k) for k, (t, o) in enumerate(items)]
    out = interleave.interleave(items, _topic, _overdue)
    assert sorted(out) == sorted(items)
    for i, a in enumerate(out):
        for b in out[i + 1:]:  # nothing more than a day overdue after a less overdue item of another topic
            if a[0] != b[0] and b[1] > 1:
                assert a[1] >= b[1], (a, b)


@given(st.lists(st.sampled_from("abcdef"), max_size=60), st.randoms(use_true_random=False))
def test_within_a_day_of_due_topics_alternate_as_much_as_the_mix_allows(topics, rnd):
    items = [(t, rnd.choice((0, 1)), k) for k, t in enumerate(topics)]
    out = interleave.interleave(items, _topic, _overdue)
    assert same_topic_neighbours(out, _topic) == fewest_same_topic_neighbours(topics)


# --------------------------------------------------------------------------- the final stretch

@given(st.integers(0, 60), st.integers(1, 400), st.integers(1, 30),
       st.dictionaries(st.integers(1, 30), st.integers(0, 50)), st.none() | st.integers(1, 60))
def test_placement_never_moves_a_review_later_nor_onto_a_full_day_with_room_left(days_to, interval, ahead, loads,
                                                                                  cap):
    interview = DAY0 + timedelta(days=days_to)
    on = interview - timedelta(days=ahead)
    due = on + timedelta(days=interval)
    load = {interview - timedelta(days=k): n for k, n in loads.items()}
    placed = stretch.place(on, due, interview, load, cap)
    # due on the day itself: the day after (a miss on the eve; a review the level keeps out of the stretch)
    after_day = due == interview and placed == interview + timedelta(days=1)
    eve_miss = due == interview and ahead == 1
    assert on < placed <= due or after_day
    assert placed != interview or on >= interview  # nothing scheduled falls due on the interview day
    if eve_miss:
        assert placed == interview + timedelta(days=1)
    start = max(on + timedelta(days=1), interview - timedelta(days=stretch.STRETCH_DAYS))
    if due < start or on >= interview:  # before the final stretch, or from the interview on: the scheduler's date
        assert placed == due
    if due < interview:  # due inside the stretch: kept, or moved earlier (the final pass levels the load)
        assert placed <= due
    if placed != due and not after_day:
        assert placed < interview
        room = [d for d in (on + timedelta(days=k) for k in range(1, (interview - on).days))
                if cap is None or load.get(d, 0) < cap]
        if room:
            assert placed in room  # a day with room when there is one
    assert stretch.place(on, due, None, load, cap) == due


def test_nothing_scheduled_falls_due_on_the_interview_day():
    interview = DAY0 + timedelta(days=5)
    eve = interview - timedelta(days=1)
    assert stretch.place(eve, interview, interview) == interview + timedelta(days=1)  # a miss on the eve: after
    assert stretch.place(eve, eve + timedelta(days=6), interview) == eve + timedelta(days=6)  # recent enough
    assert stretch.place(DAY0, DAY0 + timedelta(days=30), interview) == DAY0 + timedelta(days=30)  # 5 of 30 days
    far = DAY0 + timedelta(days=20)  # 20 days ahead, past the reach of a 30-day interval (14): moved in
    assert far - timedelta(days=stretch.STRETCH_DAYS) <= stretch.place(DAY0, DAY0 + timedelta(days=30), far) < far


def simulate(interview: date | None, days: int, *, new_per_day: int, skip=(), scheduler="sm2", cap=None,
             quality=lambda day, item: 4, start: date = DAY0):
    """Daily sessions from ``start`` (every card answered, re-drills passed; the days in ``skip`` missed).
    Returns the states, the rows and each day's cards."""
    states: dict[str, ItemState] = {}
    memories: dict = {}
    rows, cards = [], {}
    for k in range(days):
        today = start + timedelta(days=k)
        s = se.Session(states, CATALOG, today, seed=k, new_per_day=new_per_day, interview=interview,
                       is_chain=IS_CHAIN, reviews_per_day=cap, scheduler=scheduler, memory=memories.get)
        cards[today] = [(c.item, c.kind) for c in s.cards]
        if today in skip:
            continue
        when = datetime.combine(today, time(9), UTC)
        while not s.done:
            q = 4 if s.current.kind == "redrill" else quality(today, s.current.item)
            rows.append(s.answer(q, "correct", when=when))
        states = s.states
        memories.update(s._memories)
    return states, rows, cards


def _load_ratio(cards, interview, start=DAY0):
    """The busiest day of the final stretch over its mean, counted from the first day any review falls due: the
    opening days of a plan that starts inside the stretch have nothing learnt yet to review, and counting their
    zeros would make the ratio depend on how many of them the bank's size leaves (two, not one, under FSRS at 166
    templates)."""
    days = [interview - timedelta(days=k) for k in range(14, 0, -1) if interview - timedelta(days=k) >= start]
    loads = [sum(1 for _, kind in cards[d] if kind == "due") for d in days]
    while loads and loads[0] == 0:
        loads.pop(0)
    return max(loads) / (sum(loads) / len(loads))


FINAL_LIMIT = 1.5  # the final pass's hard limit: the busiest day of the last 14 over their mean (docs/scheduling.md)


@pytest.mark.parametrize("scheduler", ["sm2", "fsrs"])
@pytest.mark.parametrize("days", [8, 14])
def test_nothing_is_due_on_the_interview_day_and_the_final_days_share_the_load(scheduler, days):
    """Plans no longer than the stretch: new items are met through most of it, so the load climbs from its
    first day; every answer right here (the bench's learners who miss: tests/unit/test_final_pass.py)."""
    interview = DAY0 + timedelta(days=days)
    per_day = pace.pace(len(CATALOG), days).per_day
    states, rows, cards = simulate(interview, days + 1, new_per_day=per_day, scheduler=scheduler)
    assert len(states) == len(CATALOG)
    assert cards[interview] == []  # nothing forced on the day
    due_on_day = sum(1 for s in states.values() if s.due is not None and s.due <= interview)
    assert due_on_day <= 0.1 * len(states)
    assert _load_ratio(cards, interview) <= FINAL_LIMIT
    # the last reviews are close to the day: every item reviewed in the final stretch
    last = {r.item: date.fromisoformat(r.date) for r in rows if r.scheduled}
    assert all(interview - d <= timedelta(days=stretch.STRETCH_DAYS) for d in last.values())


def test_the_daily_cap_moves_reviews_earlier_never_later():
    interview = DAY0 + timedelta(days=12)
    states, rows, cards = simulate(interview, 12, new_per_day=20, cap=25)
    for r in rows:
        if r.scheduled and r.before is not None:
            plain = review(ItemState.from_dict(r.before), r.quality, date.fromisoformat(r.date))
            # never later, but for a review due on the interview day itself: the day after (the day asks nothing)
            assert date.fromisoformat(r.after["due"]) <= max(plain.due, interview + timedelta(days=1))


def test_an_interview_tomorrow_a_past_date_and_a_changed_date():
    tomorrow = DAY0 + timedelta(days=1)
    states, rows, cards = simulate(tomorrow, 2, new_per_day=5)
    assert len([k for _, k in cards[DAY0] if k == "new"]) == 5 and cards[tomorrow] == []
    # met on the eve: due the day after the interview, not on it
    assert all(date.fromisoformat(r.after["due"]) == tomorrow + timedelta(days=1) for r in rows if r.after)
    # a date in the past is plain SM-2
    past = DAY0 - timedelta(days=3)
    _, rows_past, _ = simulate(past, 8, new_per_day=5)
    _, rows_none, _ = simulate(None, 8, new_per_day=5)
    assert [r.after for r in rows_past] == [r.after for r in rows_none]
    # changing the date: the states made under the first date are valid under the second, and the rules apply
    first = DAY0 + timedelta(days=20)
    states, _, _ = simulate(first, 6, new_per_day=10)
    later = DAY0 + timedelta(days=8)
    s = se.Session(states, CATALOG, DAY0 + timedelta(days=6), seed=1, new_per_day=10, interview=later,
                   is_chain=IS_CHAIN)
    when = datetime.combine(DAY0 + timedelta(days=6), time(9), UTC)
    while not s.done:
        r = s.answer(4, "correct", when=when)
        if r.after:
            due = date.fromisoformat(r.after["due"])
            assert due < later or due - DAY0 - timedelta(days=6) <= timedelta(days=max(1, r.after["interval"]))


def test_a_missed_week_leaves_items_overdue_most_overdue_first_and_nothing_forced_on_the_day():
    interview = DAY0 + timedelta(days=16)
    missed = {DAY0 + timedelta(days=k) for k in range(6, 13)}
    states, rows, cards = simulate(interview, 17, new_per_day=12, skip=missed)
    back = cards[DAY0 + timedelta(days=13)]
    due = [i for i, k in back if k == "due"]
    over = {i: (DAY0 + timedelta(days=13) - states_before_due(rows, i, DAY0 + timedelta(days=13))).days for i in due}
    topic = dict(CATALOG)
    for a, b in zip(due, due[1:]):
        if over[b] > 1 and topic[a] != topic[b]:
            assert over[a] >= over[b]
    assert cards[interview] == []


def states_before_due(rows, item, day):
    """The due date an item had on ``day`` (from its last row before that day)."""
    due = None
    for r in rows:
        if r.item == item and r.after and date.fromisoformat(r.date) < day:
            due = date.fromisoformat(r.after["due"])
    return due


def test_zero_new_items_a_day_introduces_nothing_and_the_pace_says_so():
    interview = DAY0 + timedelta(days=9)
    states, rows, cards = simulate(interview, 3, new_per_day=0)
    assert states == {} and rows == []
    plan = se.plan_for({}, CATALOG, DAY0, 0, interview)
    assert plan.new_today == 0 and plan.left == len(CATALOG)
    assert not pace.pace(plan.left, plan.days_left).fits(0)


def test_a_profile_with_five_thousand_reviews_builds_its_session_and_readiness():
    rnd = random.Random(3)
    states, answers = {}, []
    day = DAY0 - timedelta(days=200)
    items = [i for i, _ in CATALOG]
    topic = dict(CATALOG)
    for k in range(5000):
        if k % 25 == 0:
            day += timedelta(days=1)
        item = rnd.choice(items)
        q = rnd.choice((2, 3, 4, 4, 5))
        states[item] = review(states.get(item) or ItemState(), q, day)
        answers.append(readiness.Answer(day, item, topic[item], q >= 3))
    interview = day + timedelta(days=10)
    s = se.Session(states, CATALOG, day + timedelta(days=1), seed=1, interview=interview, is_chain=IS_CHAIN,
                   reviews_per_day=200)
    assert s.cards and len({c.item for c in s.cards}) == len(s.cards)
    r = readiness.readiness(answers, CATALOG, interview)
    assert r.reviews == 5000 and r.overall is not None and 0 < r.overall < 1
    assert all(t.probability is not None for t in r.topics.values())


# --------------------------------------------------------------------------- chains and scaffolds

def test_a_chain_with_one_slip_passes_with_quality_three():
    assert chains.chain_quality([5, 4, 1, 4]) == 3
    assert chains.chain_quality([5, 0, 5]) == 3  # don't know on one step, the others right
    assert chains.chain_quality([5, 3, 1]) == 1  # another step only close: the lowest, as before
    assert chains.chain_quality([2, 1, 5]) == 1 and chains.chain_quality([4, 5]) == 4 and chains.chain_quality([2]) == 2
    assert chains.one_slip([5, 2, 5, 5]) and not chains.one_slip([5, 3, 1]) and not chains.one_slip([2])


def test_a_chain_failing_the_same_step_twice_running_starts_over():
    assert chains.chain_quality([5, 1, 4], before=[5, 0, 5]) == 1  # step 2 again: a lapse, the interval reset
    assert chains.repeated_slip([5, 1, 4], [5, 0, 5]) and chains.one_slip([5, 1, 4])
    assert chains.chain_quality([5, 1, 4], before=[1, 5, 5]) == 3  # another step than last time: a pass
    assert chains.chain_quality([5, 1, 4], before=None) == 3  # its first answer: a pass
    assert chains.chain_quality([5, 1, 4], before=[5, 3, 5]) == 3  # close last time is not failed
    assert not chains.repeated_slip([1, 1, 4], [1, 1, 5])  # two failed steps: the lowest anyway
    # the previous answer read from the log's columns: the step rows between the last two whole rows
    items = ["c", "c", "x", "c", "c", "c", "c"]
    steps = [1, None, None, 2, 1, 3, None]
    quals = [0, 3, 4, 1, 5, 5, 1]
    assert chains.previous_steps(items, steps, quals, "c") == [5, 1, 5]
    assert chains.previous_steps(items, steps, quals, "x") is None  # a single template: no steps
    assert chains.previous_steps(items, steps, quals, "none") is None
    assert chains.previous_steps(["c", "c"], [3, None], [0, 0], "c") == [3, 3, 0]  # a missing step: not failed


@given(st.lists(st.integers(0, 5), min_size=1, max_size=6))
def test_the_rule_said_of_a_chain_is_the_rule_applied(qualities):
    # the feedback names the one-slip rule exactly when chain_quality applied it, else the lowest step
    whole = chains.chain_quality(qualities)
    assert whole == (chains.PASS if chains.one_slip(qualities) else min(qualities))
    assert chains.one_slip(qualities) == (whole > min(qualities))  # the rule raised the chain above its lowest
    steps = drills.step_templates("memory.zero_planning")
    assert chains.step_drills(steps, [5, 1, 4, 4], DAY0) == {steps[1]: DAY0 + timedelta(days=1)}
    assert chains.step_drills((None, None), [1, 1], DAY0) == {}


def test_every_chain_names_a_single_template_or_none_for_each_step():
    templates = {t.id: t for t in registry.all_templates()}
    bank_chains = {t.id for t in templates.values() if t.is_chain}
    assert set(drills.CHAIN_STEPS) == bank_chains
    for chain, steps in drills.CHAIN_STEPS.items():
        assert len(steps) == templates[chain].chain_length, chain
        for s in steps:
            assert s is None or (s in templates and not templates[s].is_chain), (chain, s)
    for scaffold, full in drills.SCAFFOLDS.items():
        assert scaffold in templates and (full is None or full in templates)
        assert full is None or templates[full].difficulty >= templates[scaffold].difficulty
    given = {t.id for t in templates.values() if "(formula given)" in t.title or t.id.endswith("_given")}
    assert given <= set(drills.SCAFFOLDS)


def test_a_chain_is_met_only_after_its_steps_and_a_scaffold_retires_after_two_passes():
    chain = "memory.zero_planning"
    pre = drills.prerequisites(chain)
    states = {i: ItemState(reps=1, interval=1, due=DAY0, last=DAY0) for i, _ in CATALOG
              if not IS_CHAIN(i) and i not in pre}
    ready = lambda c: chains.chain_ready(drills.prerequisites(c), chains.passed_once(states, {}))  # noqa: E731
    picked = [i for i, _ in se.new_items(states, CATALOG, 500, IS_CHAIN, ready)]
    assert chain not in picked and pre <= set(picked)
    states.update({p: ItemState(reps=1, interval=1, due=DAY0, last=DAY0) for p in pre})
    assert chain in [i for i, _ in se.new_items(states, CATALOG, 500, IS_CHAIN, ready)]
    retired = chains.retired_scaffolds(drills.SCAFFOLDS, {"memory.static": ItemState(reps=2, interval=6)}, {})
    assert "memory.static_given" in retired
    assert chains.retired_scaffolds(drills.SCAFFOLDS, {}, {"mfu.mfu": (4, 1, 5)}) == {"mfu.mfu_given"}
    plan = se.plan_for({}, CATALOG, DAY0, 5, DAY0 + timedelta(days=9), retired=retired)
    assert plan.left == len(CATALOG) - len(retired)
    assert "memory.static_given" not in [i for i, _ in se.new_items({}, CATALOG, 500, retired=retired)]


# --------------------------------------------------------------------------- FSRS

HISTORY = [(DAY0, 4), (DAY0 + timedelta(days=2), 4), (DAY0 + timedelta(days=9), 5), (DAY0 + timedelta(days=40), 1),
           (DAY0 + timedelta(days=41), 4)]


def test_fsrs_replays_history_both_ways_and_schedules_other_due_dates():
    mem = None
    for day, q in HISTORY:
        mem = fsrs_bridge.step(mem, q, day)
    assert fsrs_bridge.replay(HISTORY) == mem and fsrs_bridge.replay([]) is None
    state = None
    for day, q in HISTORY:
        state = review(state or ItemState(), q, day)
    assert sm2_replay(HISTORY) == state  # migrating back: exactly SM-2's state
    # the same answers, scheduled by each: the due dates differ
    sm2_dues, fsrs_dues, st_, m = [], [], None, None
    for day, q in HISTORY:
        st_, m = fsrs_bridge.review(st_, m, q, day)
        fsrs_dues.append(st_.due)
    s2 = None
    for day, q in HISTORY:
        s2 = review(s2 or ItemState(), q, day)
        sm2_dues.append(s2.due)
    assert fsrs_dues != sm2_dues
    assert (st_.ef, st_.reps) == (s2.ef, s2.reps)  # SM-2's easiness and repetitions kept beside FSRS
    assert fsrs_bridge.replay(HISTORY) == fsrs_bridge.replay(HISTORY)  # no fuzz: deterministic
    r = [fsrs_bridge.retrievability(mem, mem.last + timedelta(days=k)) for k in (0, 5, 30)]
    assert r[0] == 1.0 and r[0] > r[1] > r[2] > 0
    with pytest.raises(ValueError):
        fsrs_bridge.step(mem, 4, DAY0)  # before the last review


def test_fsrs_intervals_are_whole_days_and_a_miss_is_due_the_next_day_at_the_earliest():
    m = fsrs_bridge.step(None, 1, DAY0)
    assert m.interval >= 1 and isinstance(m.interval, int)
    st_, _ = fsrs_bridge.review(None, None, 0, DAY0)
    assert st_.reps == 0 and st_.due >= DAY0 + timedelta(days=1)


# --------------------------------------------------------------------------- readiness

def _learner(n_items=6, days=80, seed=5, topic="t"):
    """Answers of a learner whose recall grows with practice and fades with time (known probabilities)."""
    rnd = random.Random(seed)
    out, count, last = [], {}, {}
    for d in range(days):
        day = DAY0 + timedelta(days=d)
        for i in range(n_items):
            if rnd.random() < 0.5:
                item = f"{topic}{i}"
                n = count.get(item, 0)
                gap = (day - last[item]).days if item in last else 0
                p = 1 / (1 + math.exp(-(-0.5 + 1.2 * math.log1p(n) - 0.4 * math.log1p(gap))))
                out.append(readiness.Answer(day, item, topic, rnd.random() < p))
                count[item], last[item] = n + 1, day
    return out


def test_below_the_minimum_in_any_topic_no_figure_is_shown_anywhere():
    """One minimum for overall and topics: below it (in any topic) neither has a number; above it every topic
    says its own figure with its interval."""
    answers = _learner(days=80)
    need = readiness.MIN_REVIEWS
    few = answers[:need - 1]
    r = readiness.readiness(few, [(f"t{i}", "t") for i in range(6)], DAY0 + timedelta(days=3))
    assert r.topics["t"] == readiness.TopicReadiness(need - 1, None) and r.overall is None
    assert r.to_dict()["topics"]["t"]["probability"] is None
    catalog = [(f"t{i}", "t") for i in range(6)] + [("u0", "u")]
    r = readiness.readiness(answers, catalog, DAY0 + timedelta(days=90))  # "u" never answered: nothing shown
    assert r.topics["u"].probability is None and r.topics["t"].probability is None and r.overall is None
    weak = [readiness.Answer(a.day, "u0", "u", k % 3 == 0) for k, a in enumerate(answers[:40])]
    r = readiness.readiness(answers + weak, catalog, DAY0 + timedelta(days=90))
    t, u = r.topics["t"], r.topics["u"]
    assert t.low < t.probability < t.high and u.low < u.probability < u.high
    assert u.probability < t.probability - 0.2  # the weak topic reads weak: its own level, not the overall's


def test_the_fitted_model_is_calibrated_on_answers_made_a_week_later():
    answers = _learner(days=120)
    cal = calibration.calibration(answers)
    assert cal.answers > 100
    assert abs(cal.predicted - cal.observed) < 0.08  # predicted a week ahead, close to what happened
    assert cal.brier < 0.25
    first_scored = answers[0].day + timedelta(days=2 * readiness.HORIZON)
    assert sum(n for _, _, n in cal.bins) == cal.answers
    # nothing scored before a week of history plus the horizon
    early = [a for a in answers if a.day < first_scored]
    assert calibration.calibration(early).answers == 0


def test_newton_fit_recovers_a_known_logistic():
    rnd = random.Random(1)
    xs, ys = [], []
    for _ in range(3000):
        x = (rnd.uniform(0, 3), rnd.uniform(0, 3), rnd.uniform(0, 1))
        p = 1 / (1 + math.exp(-(-1 + 1.5 * x[0] - 0.7 * x[1] - 0.5 * x[2])))  # the signs readiness.SIGNS keeps
        xs.append(x)
        ys.append(1 if rnd.random() < p else 0)
    w = readiness.fit(xs, ys, ridge=0.0)
    assert w is not None
    for got, want in zip(w, (-1, 1.5, -0.7, -0.5)):
        assert abs(got - want) < 0.35
    assert readiness.fit([], []) is None
    w = readiness.fit([(0.0, 0.0, 0.5)] * 40, [1] * 40)  # every answer passed: finite, high
    assert w is not None and readiness.predict(w, (0.0, 0.0, 0.5)) > 0.9


def test_the_fit_and_the_calibration_stop_when_asked():
    answers = _learner(days=120)
    catalog = [(f"t{i}", "t") for i in range(6)]
    day = answers[-1].day
    outlook = readiness.Outlook({}, 2)
    for work in (lambda stop: readiness.readiness(answers, catalog, day + timedelta(days=5), day, outlook, stop=stop),
                 lambda stop: calibration.calibration(answers, catalog, stop=stop)):
        with pytest.raises(readiness.Stopped):  # the stats screen closed: the work is abandoned at its next step
            work(lambda: True)
        asked: list[int] = []
        work(lambda asked=asked: asked.append(1) or False)
        assert len(asked) > 1  # asked along the way, not only once
    assert (readiness.readiness(answers, catalog, day, stop=lambda: False)
            == readiness.readiness(answers, catalog, day))  # asking changes nothing


def test_the_issues_nine_days_no_longer_pile_everything_onto_the_interview_day():
    """Start 2027-05-03, interview 2027-05-12, 8 new items a day, every session done, every answer right."""
    interview = date(2027, 5, 12)
    states, rows, cards = simulate(interview, 10, new_per_day=8)
    assert cards[interview] == []
    assert sum(1 for s in states.values() if s.due is not None and s.due <= interview) <= 0.1 * len(states)
    assert _load_ratio(cards, interview) <= FINAL_LIMIT
    topic = dict(CATALOG)
    pairs = same = 0
    for day_cards in cards.values():
        due = [i for i, k in day_cards if k == "due"]
        pairs += max(0, len(due) - 1)
        same += same_topic_neighbours(due, topic.__getitem__)
    assert same <= 0.35 * pairs


def test_answers_and_fsrs_history_read_from_the_log_digest_as_from_the_rows():
    from engine.digest import Digest

    rows = []
    when = datetime.combine(DAY0, time(9), UTC)
    state = None
    for k, (item, q, mode, step) in enumerate([("a", 4, "practice", None), ("a", 1, "mock", None),
                                               ("b", 5, "practice", 1), ("b", 3, "practice", None),
                                               ("c", 2, "mock", 2), ("c", 5, "practice", None)]):
        day = DAY0 + timedelta(days=k)
        sched = step is None and mode == "practice"
        r = se.review_row(item=item, topic="t", seed=k, quality=q, verdict="correct", when=when, today=day,
                          state=state if sched and item == "a" else None, schedule=sched, mode=mode, step=step,
                          pressed=item == "c")
        rows.append(r)
    d = Digest.of_reviews(rows)
    assert readiness.answers_of_digest(d) == answers_of(rows)
    assert [a.item for a in answers_of(rows)] == ["a", "a", "b", "c", "c"]
    assert fsrs_bridge.history_of_digest(d) == history_of(rows) == {
        "a": [(DAY0, 4, False)], "b": [(DAY0 + timedelta(days=3), 3, False)],
        "c": [(DAY0 + timedelta(days=5), 5, True)]}  # a pressed grade read back as pressed: Easy on replay


def test_fsrs_easy_only_when_pressed_a_quick_right_answer_is_good():
    from fsrs import Rating

    assert [fsrs_bridge.rating(q) for q in range(6)] == [Rating.Again] * 3 + [Rating.Hard, Rating.Good, Rating.Good]
    assert fsrs_bridge.rating(5, pressed=True) == Rating.Easy
    assert fsrs_bridge.rating(4, pressed=True) == Rating.Good  # pressing changes only what 5 means
    auto, easy = fsrs_bridge.step(None, 5, DAY0), fsrs_bridge.step(None, 5, DAY0, pressed=True)
    assert auto == fsrs_bridge.step(None, 4, DAY0)  # an automatic 5 is FSRS's Good
    assert (auto.interval, easy.interval) == (2, 8)  # a first review: 2 days, not Easy's 8
    st_auto, _ = fsrs_bridge.review(None, None, 5, DAY0)
    st_easy, _ = fsrs_bridge.review(None, None, 5, DAY0, pressed=True)
    assert (st_auto.due - DAY0).days == 2 and (st_easy.due - DAY0).days == 8
    assert st_auto.ef == st_easy.ef  # SM-2's easiness reads the quality alone
    assert fsrs_bridge.replay([fsrs_bridge.Scheduled(DAY0, 5, True)]) == easy  # the row's pressed replays as Easy
    assert fsrs_bridge.replay([(DAY0, 5)]) == auto  # a pair: nothing pressed
