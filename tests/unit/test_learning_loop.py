"""The learning loop over the real bank, with a fixed clock: new items in order, the interview date."""

from datetime import UTC, date, datetime, time, timedelta

from hypothesis import given
from hypothesis import strategies as st

from engine import session as se
from engine.schedule import stretch
from engine.schedule.stretch import STRETCH_DAYS, reach
from engine.sm2 import ItemState, interview_cap, review
from question_bank import registry

DAY0 = date(2026, 12, 1)
CATALOG = [(t.id, t.topic) for t in registry.all_templates()]
TOPICS = {topic for _, topic in CATALOG}


def is_chain(item: str) -> bool:
    return registry.get(item).is_chain


def simulate(days: int, *, interview: date | None = None, new_per_day: int = 5, quality=lambda day, item: 4):
    """Daily sessions from DAY0, every card answered (re-drills too); returns the states, the rows and each
    day's cards."""
    states: dict[str, ItemState] = {}
    rows, cards_by_day = [], {}
    for k in range(days):
        today = DAY0 + timedelta(days=k)
        s = se.Session(states, CATALOG, today, seed=k, new_per_day=new_per_day, interview=interview,
                       is_chain=is_chain)
        cards_by_day[today] = [(c.item, c.kind) for c in s.cards]
        when = datetime.combine(today, time(9), UTC)
        while not s.done:
            q = 4 if s.current.kind == "redrill" else quality(today, s.current.item)  # a re-drill is passed
            rows.append(s.answer(q, "correct", when=when))
        states = s.states
    return states, rows, cards_by_day


def test_a_week_of_daily_sessions_meets_every_topic_easier_first_chains_last():
    states, rows, cards = simulate(7)
    met = {r.topic for r in rows}
    assert met == TOPICS
    day1 = [item for item, kind in cards[DAY0] if kind == "new"]
    assert len({registry.get(i).topic for i in day1}) == 5  # five topics on day 1, not five roofline items
    # within each topic: introduced in order of difficulty, chains after the single questions
    for topic in TOPICS:
        seen = [registry.get(r.item) for r in rows if r.topic == topic and r.before is None
                and r.scheduled]
        keys = [(t.is_chain, t.difficulty) for t in seen]
        assert keys == sorted(keys), topic


@given(st.lists(st.tuples(st.sampled_from("abcdefg"), st.integers(1, 3), st.booleans()), min_size=1, max_size=40),
       st.integers(0, 40))
def test_new_items_are_taken_breadth_first_whatever_the_bank_holds(spec, limit):
    entries = sorted((topic, level, chain, k) for k, (topic, level, chain) in enumerate(spec))
    catalog = [(f"{topic}{k}", topic) for topic, _, _, k in entries]
    chains = {f"{topic}{k}" for topic, _, c, k in entries if c}
    size = {t: sum(1 for _, tt in catalog if tt == t) for _, t in catalog}
    picked = se.new_items({}, catalog, limit, is_chain=chains.__contains__)
    assert len(picked) == min(limit, len(catalog)) and len(set(picked)) == len(picked)
    counts: dict[str, int] = {}
    for _item, topic in picked:  # each pick from a topic with the fewest picked so far (of those with items left)
        assert counts.get(topic, 0) == min(counts.get(t, 0) for t in size if size[t] > counts.get(t, 0))
        counts[topic] = counts.get(topic, 0) + 1
    for topic in size:  # within a topic: single questions in bank order, then the chains
        mine = [i for i, t in picked if t == topic]
        order = [i for i, t in catalog if t == topic]
        expected = [i for i in order if i not in chains] + [i for i in order if i in chains]
        assert mine == expected[:len(mine)]


def test_with_an_interview_ten_days_out_everything_is_introduced_and_nothing_is_forced_on_the_day(monkeypatch):
    interview = DAY0 + timedelta(days=10)
    # misses now and then: lapses restart items inside the period too
    def quality(day, item):
        return 2 if (day.toordinal() + len(item)) % 7 == 0 else 4 + (len(item) % 2)

    # 25 new a day: ten days meet a bank of up to 250 templates (with part 4's RL, MoE, TP and FSDP ones)
    def kept_past(rows, close):  # reviews left due after the interview: only when ``close`` says so
        for r in rows:
            day = date.fromisoformat(r.date)
            if r.after is not None and day < interview <= date.fromisoformat(r.after["due"]):
                assert close((interview - day).days, r.after["interval"]), r

    with monkeypatch.context() as m:  # without a level, past the interview only within the item's reach
        m.setattr(stretch, "FINAL_PASS", stretch.FinalPass(stretch.STRETCH_DAYS, None))
        kept_past(simulate(11, interview=interview, quality=quality, new_per_day=25)[1],
                  lambda gap, interval: gap <= reach(interval))
    states, rows, cards = simulate(11, interview=interview, quality=quality, new_per_day=25)
    # with the level in force, also a review made inside the stretch when every day left is at the level
    kept_past(rows, lambda gap, interval: gap <= reach(interval) or gap <= stretch.STRETCH_DAYS)
    assert set(states) == {i for i, _ in CATALOG}  # every template introduced
    assert cards[interview] == []  # the interview day asks nothing unless chosen
    # after the date: plain SM-2 again, from the history kept
    after = DAY0 + timedelta(days=12)
    item, st_ = next(iter(states.items()))
    assert review(st_, 5, after, interview) == review(st_, 5, after)


def test_the_pace_is_advice_that_adds_up_and_warns_when_too_many():
    # 20 days: the bank (150+ templates) is met at a pace a person can keep (10 days would be too many a day)
    plan = se.plan_for({}, CATALOG, DAY0, 5, DAY0 + timedelta(days=20))
    assert plan.active and plan.days_left == 20 and plan.left == len(CATALOG)
    need = -(-len(CATALOG) // 14)  # met by two thirds of the 20 days, rounded up: day 14
    assert plan.pace == need and plan.done_by == -(-len(CATALOG) // need) <= 14 and not plan.too_many
    assert plan.new_today == 5 and plan.behind  # the limit changes only when the learner accepts the pace
    assert se.plan_for({}, CATALOG, DAY0, 5, DAY0 + timedelta(days=2)).too_many
    assert se.plan_for({}, CATALOG, DAY0, 9, DAY0 + timedelta(days=60)).new_today == 9
    passed = se.plan_for({}, CATALOG, DAY0, 5, DAY0 - timedelta(days=1))
    assert not passed.active and passed.pace is None and passed.new_today == 5


@given(st.integers(0, 400), st.integers(1, 60), st.integers(0, 5), st.integers(0, 8), st.integers(1, 300))
def test_the_final_stretch_moves_only_due_dates_on_or_past_the_interview_and_never_later(offset, days_to, quality,
                                                                                          reps, interval):
    on = DAY0 + timedelta(days=offset)
    interview = on + timedelta(days=days_to)
    state = ItemState(2.5, interval if reps else 0, reps, on, on - timedelta(days=interval) if reps else None)
    capped, plain = review(state, quality, on, interview), review(state, quality, on)
    eve_miss = days_to == 1 and plain.due == interview  # due the day after the interview instead of on it
    assert on < capped.due <= plain.due or (eve_miss and capped.due == interview + timedelta(days=1))
    assert (capped.ef, capped.reps, capped.interval) == (plain.ef, plain.reps, plain.interval)  # SM-2's arithmetic
    if plain.due < interview:
        assert capped == plain  # only a due date on or past the interview moves
    elif capped.due != plain.due and not eve_miss:
        assert interview - timedelta(days=STRETCH_DAYS) <= capped.due < interview  # into the final stretch
    assert review(state, quality, interview, interview) == review(state, quality, interview)
    assert interview_cap(on, plain.due, None) == plain.due
