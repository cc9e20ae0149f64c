"""engine.stats: every figure from hand-built histories with known answers."""

from __future__ import annotations

import json
from datetime import date, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import stats
from engine.review import Review
from engine.sm2 import ItemState

TODAY = date(2026, 11, 29)  # a Sunday
TOPICS = ("roofline", "memory", "communication", "mfu", "inference", "pipeline", "concepts")
BANK = [
    ("roofline.a", "roofline", "Ridge point"),
    ("roofline.b", "roofline", "Bound"),
    ("memory.a", "memory", "Adam states"),
    ("concepts.a", "concepts", "Which is bigger"),
]
VERDICT = {5: "correct", 4: "correct", 3: "close", 2: "wrong", 1: "wrong", 0: "dont_know"}


def day(n: int) -> str:
    """The ISO date n days before TODAY."""
    return (TODAY - timedelta(days=n)).isoformat()


def row(item: str = "roofline.a", ago: int = 0, q: int = 5, *, seconds: float = 30.0, mode: str = "practice",
        before_interval: int | None = 0, after_interval: int = 1, scheduled: bool | None = None) -> Review:
    scheduled = mode in ("practice", "paper") if scheduled is None else scheduled
    before = None if before_interval is None else {"ef": 2.5, "interval": before_interval, "reps": 1,
                                                    "due": day(ago), "last": None}
    after = {"ef": 2.5, "interval": after_interval, "reps": 1, "due": None, "last": day(ago)} if scheduled else None
    return Review.of({"id": 0, "ts": f"{day(ago)}T12:00:00Z", "date": day(ago), "item": item, "topic": item.split(".")[0],
            "seed": 1, "step": None, "typed": "1", "value": 1.0, "verdict": VERDICT[q], "quality": q,
            "seconds": seconds, "mode": mode, "scheduled": scheduled, "before": before, "after": after})


def compute(rows=(), states=None, mocks=(), bank=BANK, today=TODAY):
    return stats.compute(rows, states or {}, mocks, bank, today, TOPICS)


# --------------------------------------------------------------------------- #
# empty profile


def test_empty_profile_has_no_division_by_zero():
    s = compute()
    assert s.empty
    assert (s.reviews, s.days_studied, s.streak, s.longest_streak, s.reviews_today) == (0, 0, 0, 0, 0)
    assert s.retention_30d is None and s.accuracy_30d is None
    assert s.forecast == (0,) * 30 and s.due_today == 0
    assert sum(s.heatmap) == 0
    assert [t.topic for t in s.topics] == list(TOPICS)
    roof = s.topics[0]
    assert (roof.total, roof.learned, roof.accuracy_30d, roof.mean_ef, roof.median_seconds, roof.weakest) == (
        2, 0, None, None, None, ())
    d = s.to_dict()
    assert d["retention_30d"] is None and d["topics"]["pipeline"]["total"] == 0


# --------------------------------------------------------------------------- #
# counts, days, streaks


def test_totals_days_and_time():
    rows = [row(ago=3, seconds=10), row(ago=3, seconds=20), row(ago=1, seconds=5.5),
            row(ago=0, seconds=4, mode="mock"), row(ago=0, seconds=1, mode="extra")]
    s = compute(rows)
    assert s.reviews == 5  # mock and extra answers count as reviews
    assert s.reviews_today == 2
    assert s.days_studied == 3
    assert s.seconds == pytest.approx(40.5)


def test_an_answer_without_a_measured_time_counts_but_not_in_the_time_figures():
    """A paper answer (``drill check --record``) has seconds None: a review, but no 0-second one."""
    rows = [row("roofline.a", ago=2, seconds=10), row("roofline.a", ago=1, seconds=None, mode="paper"),
            row("roofline.b", ago=1, seconds=None, mode="paper"), row("roofline.b", ago=0, seconds=40)]
    for s in (compute(rows), compute(stats.Digest.of_reviews(rows))):
        assert (s.reviews, s.reviews_today, s.days_studied) == (4, 1, 3)
        assert s.seconds == pytest.approx(50)
        roof = s.topics[0]
        assert roof.reviews == 4 and roof.median_seconds == pytest.approx(25)  # of 10 and 40; not of 0, 0, 10, 40
        assert [h["seconds"] for h in s.history("roofline.a")] == [10, None]
    only_paper = compute([row("memory.a", seconds=None, mode="paper")])
    assert only_paper.reviews == 1 and only_paper.seconds == 0
    assert only_paper.topics[1].median_seconds is None  # no measured time: no median
    assert json.loads(json.dumps(only_paper.to_dict()))["topics"]["memory"]["median_seconds"] is None


def chain_rows(item: str, seed: int, qualities: list[int], ago: int = 0, mode: str = "practice",
               whole: bool = True) -> list[Review]:
    """A chain as practice records it: one unscheduled row per step, then the whole item (lowest grade)."""
    out = []
    for k, q in enumerate(qualities):
        r = row(item, ago=ago, q=q, seconds=10, mode=mode, scheduled=False)
        out.append(r._replace(step=k + 1, seed=seed, before=None))
    if whole:
        out.append(row(item, ago=ago, q=min(qualities), seconds=10 * len(qualities), mode=mode)._replace(seed=seed))
    return out


def test_a_chain_counts_once_in_practice_and_per_step_in_a_mock():
    practice = chain_rows("roofline.b", 7, [5, 5, 2])  # 3 step rows + the whole-item row
    mock = chain_rows("roofline.b", 8, [5, 3], ago=1, mode="mock", whole=False)  # a mock asks each step
    abandoned = chain_rows("memory.a", 9, [1], ago=2, whole=False)  # left mid-chain: the step is all there is
    s = compute(abandoned + mock + practice)  # oldest first
    assert s.reviews == 1 + 2 + 1
    assert s.seconds == pytest.approx(30 + 20 + 10)
    assert (s.reviews_30d, s.passed_30d) == (4, 2)  # the chain's grade is its lowest step: failed
    assert [(h["step"], h["mode"]) for h in s.history("roofline.b")] == [(1, "mock"), (2, "mock"),
                                                                           (None, "practice")]


def test_streak_across_a_missed_day():
    # studied 10, 9, 8 days ago; missed 7; studied 6..2 days ago and today; missed yesterday
    rows = [row(ago=a) for a in (10, 9, 8, 6, 5, 4, 3, 2, 0)]
    s = compute(rows)
    assert s.longest_streak == 5  # 6..2
    assert s.streak == 1  # today only: yesterday was missed
    assert s.days_studied == 9


def test_streak_not_broken_before_the_day_is_over():
    rows = [row(ago=a) for a in (3, 2, 1)]
    assert compute(rows).streak == 3  # nothing yet today, but yesterday's run still counts
    assert compute([row(ago=a) for a in (4, 3, 2)]).streak == 0


def test_a_day_with_only_the_steps_of_a_chain_finished_the_next_day_is_studied():
    steps = chain_rows("roofline.b", 7, [5, 4], ago=1, whole=False)  # late in the evening
    whole = chain_rows("roofline.b", 7, [5, 4])[-1:]  # the last answer just after midnight
    s = compute(steps + whole)
    assert s.reviews == 1 and s.heatmap[-1] == 1 and s.heatmap[-2] == 0  # the chain counts once, when finished
    assert (s.days_studied, s.streak) == (2, 2)  # but both days were study


def test_streak_counts_several_reviews_on_a_day_once():
    s = compute([row(ago=1), row(ago=1), row(ago=0), row(ago=0), row(ago=0)])
    assert (s.streak, s.longest_streak, s.days_studied) == (2, 2, 2)


@given(st.sets(st.integers(0, 60), max_size=40))
def test_streaks_match_a_day_by_day_walk(agos):
    days = [TODAY - timedelta(days=a) for a in agos]
    current, longest = stats.streaks(days, TODAY)
    run, best = 0, 0
    for a in range(60, -1, -1):
        run = run + 1 if a in agos else 0
        best = max(best, run)
    assert longest == best
    start = 0 if 0 in agos else 1
    expected = 0
    while start + expected in agos:
        expected += 1
    assert current == expected


# --------------------------------------------------------------------------- #
# retention and accuracy


def test_retention_counts_first_scheduled_review_of_mature_items_only():
    rows = [
        row("roofline.a", ago=2, q=5, before_interval=30),  # mature, passed
        row("roofline.a", ago=2, q=1, before_interval=1),  # same day again: not the first
        row("roofline.b", ago=1, q=2, before_interval=21),  # mature (exactly 21), failed
        row("memory.a", ago=1, q=5, before_interval=20),  # young: not counted
        row("concepts.a", ago=1, q=0, before_interval=40, mode="extra"),  # not scheduled
        row("concepts.a", ago=1, q=3, before_interval=40),  # first *scheduled* review that day: close passes
        row("memory.a", ago=0, q=4, before_interval=None),  # a new item: no state before
        row("roofline.b", ago=31, q=0, before_interval=50),  # outside the 30-day window
        row("roofline.b", ago=29, q=5, before_interval=50),  # inside (29 days ago is the window's first day)
    ]
    s = compute(rows)
    assert s.retention_reviews_30d == 4
    assert s.retention_passed_30d == 3
    assert s.retention_30d == pytest.approx(0.75)


def test_retention_ignores_mock_rows_even_for_mature_items():
    rows = [row("roofline.a", ago=0, q=0, before_interval=40, mode="mock"),
            row("roofline.a", ago=0, q=0, before_interval=40, mode="redrill")]
    assert compute(rows).retention_30d is None


def test_accuracy_counts_every_graded_review_in_the_window():
    rows = [row(ago=1, q=5), row(ago=1, q=3), row(ago=1, q=2, mode="mock"), row(ago=0, q=0, mode="redrill"),
            row(ago=40, q=0)]
    s = compute(rows)
    assert (s.reviews_30d, s.passed_30d) == (4, 2)
    assert s.accuracy_30d == pytest.approx(0.5)
    roof = s.topics[0]
    assert roof.accuracy_30d == pytest.approx(0.5) and roof.reviews == 5


# --------------------------------------------------------------------------- #
# forecast and heatmap


def test_forecast_from_known_due_dates():
    states = {
        "roofline.a": ItemState(due=TODAY - timedelta(days=3), interval=6, reps=2),  # overdue: counts today
        "roofline.b": ItemState(due=TODAY, interval=1, reps=1),
        "memory.a": ItemState(due=TODAY + timedelta(days=1), interval=1, reps=1),
        "concepts.a": ItemState(due=TODAY + timedelta(days=29), interval=29, reps=3),
        "gone.x": ItemState(due=TODAY, interval=1, reps=1),  # no longer in the bank: never asked
    }
    s = compute(states=states)
    assert s.forecast[:2] == (2, 1) and s.forecast[29] == 1 and sum(s.forecast) == 4
    assert s.due_today == 2 and s.overdue == 1
    later = compute(states={"memory.a": ItemState(due=TODAY + timedelta(days=30), interval=30, reps=3)})
    assert sum(later.forecast) == 0  # day 30 is past the 30-day window


def test_heatmap_covers_26_weeks_from_a_monday():
    rows = [row(ago=0), row(ago=0), row(ago=5), row(ago=200)]
    s = compute(rows)
    assert s.heatmap_start.weekday() == 0
    assert s.heatmap_start == TODAY - timedelta(days=TODAY.weekday(), weeks=25)
    assert len(s.heatmap) == (TODAY - s.heatmap_start).days + 1 == 26 * 7  # TODAY is a Sunday
    assert s.heatmap[-1] == 2 and s.heatmap[-6] == 1 and sum(s.heatmap) == 3  # 200 days ago is outside


# --------------------------------------------------------------------------- #
# topics and templates


def test_topics_learned_ef_time_and_topics_without_reviews():
    states = {
        "roofline.a": ItemState(ef=2.2, interval=25, reps=4, due=TODAY + timedelta(days=25)),
        "roofline.b": ItemState(ef=1.8, interval=1, reps=0, due=TODAY + timedelta(days=1)),  # lapsed
        "memory.a": ItemState(ef=2.6, interval=6, reps=2, due=TODAY + timedelta(days=6)),
    }
    rows = [row("roofline.a", ago=5, seconds=10), row("roofline.b", ago=4, q=1, seconds=50),
            row("roofline.b", ago=3, seconds=20), row("memory.a", ago=1, seconds=7)]
    s = compute(rows, states)
    t = {x.topic: x for x in s.topics}
    assert (t["roofline"].learned, t["roofline"].mature, t["roofline"].total) == (1, 1, 2)
    assert t["roofline"].mean_ef == pytest.approx(2.0)
    assert t["roofline"].median_seconds == pytest.approx(20)
    assert t["roofline"].accuracy_30d == pytest.approx(2 / 3)
    assert t["memory"].learned == 1 and t["memory"].mean_ef == pytest.approx(2.6)
    for empty in ("communication", "mfu", "inference", "pipeline"):
        assert (t[empty].total, t[empty].reviews, t[empty].accuracy_30d, t[empty].mean_ef) == (0, 0, None, None)
    assert (t["concepts"].total, t["concepts"].learned, t["concepts"].weakest) == (1, 0, ())


def test_weakest_templates_lowest_recent_accuracy_then_ease():
    bank = [(f"roofline.{c}", "roofline", c) for c in "abcde"]
    states = {f"roofline.{c}": ItemState(ef=ef, interval=6, reps=2, due=TODAY)
              for c, ef in zip("abcde", (2.5, 1.9, 2.1, 2.5, 2.4))}
    rows = ([row("roofline.a", ago=1, q=q) for q in (5, 1)]  # 50 %
            + [row("roofline.b", ago=1, q=q) for q in (5, 5)]  # 100 % but EF 1.9
            + [row("roofline.c", ago=1, q=q) for q in (1, 1, 5)]  # 33 %
            + [row("roofline.d", ago=1, q=5)]  # fine: never listed
            + [row("roofline.e", ago=1, q=q) for q in (1, 5)])  # 50 %, EF 2.4 < a's 2.5
    s = compute(rows, states, bank=bank)
    assert s.topics[0].weakest == ("roofline.c", "roofline.e", "roofline.a")
    assert [i.id for i in stats.weakest(s.items.values(), 10)] == [
        "roofline.c", "roofline.e", "roofline.a", "roofline.b"]


def test_weakness_looks_at_recent_reviews_only():
    old_misses = [row("roofline.a", ago=50, q=0) for _ in range(5)]
    recent_passes = [row("roofline.a", ago=1, q=5) for _ in range(stats.RECENT_REVIEWS)]
    s = compute(old_misses + recent_passes, {"roofline.a": ItemState(ef=2.6, interval=6, reps=3, due=TODAY)})
    assert s.items["roofline.a"].recent_accuracy == 1.0 and s.topics[0].weakest == ()


def test_reviews_of_templates_gone_from_the_bank_keep_their_topic():
    s = compute([row("memory.retired", ago=1, q=1)])
    mem = next(t for t in s.topics if t.topic == "memory")
    assert mem.reviews == 1 and mem.total == 1  # the bank's memory.a only
    assert mem.weakest == ("memory.retired",)


def test_template_history_and_trend():
    rows = [row("roofline.a", ago=9, q=5, after_interval=1), row("roofline.a", ago=8, q=1, after_interval=1),
            row("roofline.a", ago=7, q=3, mode="mock"), row("roofline.a", ago=2, q=4, after_interval=6)]
    s = compute(rows)
    h = s.history("roofline.a")
    assert [(x["date"], x["verdict"], x["interval"]) for x in h] == [
        (day(9), "correct", 1), (day(8), "wrong", 1), (day(7), "close", None), (day(2), "correct", 6)]
    assert s.trend("roofline.a") == pytest.approx([1.0, 0.5, 2 / 3, 0.75])
    assert s.history("memory.a") == [] and s.trend("memory.a") == []


def test_an_items_trend_is_a_moving_window():
    rows = [row("roofline.a", ago=20 - i, q=q) for i, q in enumerate((0, 5, 5, 5, 5, 5, 5))]
    assert stats.TREND_WINDOW == 5
    assert compute(rows).trend("roofline.a") == pytest.approx([0, 0.5, 2 / 3, 0.75, 0.8, 1.0, 1.0])


@given(st.lists(st.integers(0, 5), max_size=30))
def test_an_items_trend_stays_a_share(qualities):
    window = stats.TREND_WINDOW
    trend = compute([row("roofline.a", ago=40 - i, q=q) for i, q in enumerate(qualities)]).trend("roofline.a")
    assert len(trend) == len(qualities)
    assert all(0.0 <= x <= 1.0 for x in trend)
    if qualities:
        last = qualities[-window:]
        assert trend[-1] == pytest.approx(sum(q >= 3 for q in last) / len(last))


def test_sort_topics_puts_topics_without_a_figure_last():
    rows = [row("roofline.a", ago=1, q=1), row("memory.a", ago=1, q=5), row("concepts.a", ago=1, q=3),
            row("concepts.a", ago=1, q=0)]
    s = compute(rows)
    by_acc = [t.topic for t in stats.sort_topics(s.topics, "accuracy")]
    assert by_acc[:3] == ["roofline", "concepts", "memory"]
    assert [t.topic for t in stats.sort_topics(s.topics, "accuracy", reverse=True)][:3] == [
        "memory", "concepts", "roofline"]
    assert set(by_acc[3:]) == {"communication", "mfu", "inference", "pipeline"}
    assert [t.topic for t in stats.sort_topics(s.topics)] == list(TOPICS)
    with pytest.raises(ValueError, match="unknown sort 'colour'"):
        stats.sort_topics(s.topics, "colour")


# --------------------------------------------------------------------------- #
# mocks and the JSON document


def test_mocks_scores_over_time():
    mocks = [{"id": 1, "ts": "2026-11-01T10:00:00Z", "seed": 3, "settings": {}, "questions": [],
              "score": {"correct": 6, "close": 2, "wrong": 1, "unanswered": 1}, "seconds_used": 1700.0},
             {"id": 2, "ts": "2026-11-20T10:00:00Z", "seed": 4, "settings": {}, "questions": [],
              "score": {"correct": 0, "close": 0, "wrong": 0, "unanswered": 0}, "seconds_used": 0}]
    s = compute(mocks=mocks)
    assert not s.empty
    m1, m2 = s.mocks
    assert (m1.date, m1.questions, m1.percent) == ("2026-11-01", 10, pytest.approx(70.0))  # close counts half
    assert m2.percent is None  # no questions: no score, no division by zero
    assert s.to_dict()["mocks"][0]["percent"] == pytest.approx(70.0)


def mock_answer(question: int | None, item: str, step: int | None, verdict: str = "correct") -> dict:
    a = {"item": item, "seed": 7, "step": step, "typed": "1", "verdict": verdict, "seconds": 20.0,
         "expected": "1", "flagged": False}
    return a if question is None else {"question": question, **a}


def test_a_mock_counts_questions_and_a_chain_is_one():
    answers = [mock_answer(1, "roofline.a", None), mock_answer(2, "roofline.b", 1),
               mock_answer(2, "roofline.b", 2, "close"), mock_answer(2, "roofline.b", 3, "wrong"),
               mock_answer(2, "roofline.b", 4, "unanswered")]
    mock = {"id": 1, "ts": "2026-11-20T10:00:00Z", "seed": 3, "settings": {}, "questions": answers,
            "score": {"correct": 2, "close": 1, "wrong": 1, "unanswered": 1}, "seconds_used": 600.0}
    m, = compute(mocks=[mock]).mocks
    assert (m.questions, m.answers) == (2, 5)  # one single question and one chain of four steps
    assert m.percent == pytest.approx(50.0)  # the score is per answer: (2 + 0.5) / 5
    assert compute(mocks=[mock]).to_dict()["mocks"][0]["questions"] == 2
    # a result saved without question numbers: an answer with step null or 1 starts a question
    old = {**mock, "questions": [{k: v for k, v in a.items() if k != "question"} for a in answers]}
    assert compute(mocks=[old]).mocks[0].questions == 2
    # a result that lists no answers counts its score
    assert compute(mocks=[{**mock, "questions": []}]).mocks[0].questions == 5


def test_json_document_has_the_promised_keys():
    states = {"roofline.a": ItemState(ef=2.5, interval=1, reps=1, due=TODAY)}
    d = compute([row(ago=0)], states).to_dict()
    for key in ("reviews", "days_studied", "streak", "longest_streak", "retention_30d", "due_today", "forecast",
                "topics", "mocks", "heatmap", "reviews_today", "seconds"):
        assert key in d
    assert len(d["forecast"]) == 30 and d["due_today"] == 1
    assert set(d["topics"]) == set(TOPICS)
    assert set(d["topics"]["roofline"]) >= {"learned", "total", "accuracy_30d", "mean_ef", "median_seconds",
                                            "weakest"}


# --------------------------------------------------------------------------- #
# the digest: the columns of the log the figures read


def varied_rows() -> list[dict]:
    return ([row("roofline.a", ago=40, q=5, before_interval=None), row("roofline.a", ago=9, q=1, before_interval=25),
             row("memory.a", ago=3, q=3, mode="mock"), row("retired.x", ago=2, q=0, mode="extra", seconds=7.25)]
            + chain_rows("roofline.b", 7, [5, 5, 2], ago=1) + chain_rows("roofline.b", 8, [4], mode="mock",
                                                                         whole=False))


def test_figures_from_a_digest_equal_those_from_the_rows():
    rows = varied_rows()
    states = {"roofline.a": ItemState(ef=2.2, interval=1, reps=0, due=TODAY)}
    d = stats.Digest.of_reviews(rows)
    assert len(d) == len(rows)
    assert compute(d, states).to_dict() == compute(rows, states).to_dict()
    s = compute(d, states)
    assert s.history("roofline.a") == [
        {"date": day(40), "verdict": "correct", "quality": 5, "seconds": 30.0, "mode": "practice", "step": None,
         "interval": 1},
        {"date": day(9), "verdict": "wrong", "quality": 1, "seconds": 30.0, "mode": "practice", "step": None,
         "interval": 1}]
    assert s.retention_reviews_30d == 1 and s.retention_30d == 0  # a mature item (25 d) forgotten


def test_a_digest_keeps_what_the_figures_need_of_each_row():
    r = row("roofline.a", ago=2, q=4, before_interval=22, after_interval=50)
    d = stats.Digest.of_reviews([r, row("memory.a", ago=1, mode="extra", before_interval=None)])
    assert d.columns() == {
        "date": [day(2), day(1)], "item": ["roofline.a", "memory.a"], "topic": ["roofline", "memory"],
        "seed": [1, 1], "step": [None, None], "verdict": ["correct", "correct"], "quality": [4, 5],
        "seconds": [30.0, 30.0], "mode": ["practice", "extra"],
        "before": [22, None],  # the interval before, None without a state before
        "interval": [50, None],  # the interval a scheduled review gave, None when unscheduled
        "pressed": [False, False],  # the learner chose the grade (FSRS's Easy)
        "hint": [None, None],  # the hint taken before answering (none)
    }


def test_a_digest_survives_json_and_joins():
    rows = varied_rows()
    d = stats.Digest.of_reviews(rows)
    back = stats.Digest.from_columns(json.loads(json.dumps(d.columns())))
    assert back == d and back.problem() is None
    stored = [r.to_dict() for r in rows[3:]]  # rows as the log holds them digest as their records do
    assert stats.Digest.joined([stats.Digest.of_reviews(rows[:3]), stats.Digest(), stats.Digest.of_rows(stored)]) == d


@pytest.mark.parametrize("spoil, problem", [
    (lambda c: c.pop("mode"), "not the digest's columns"),
    (lambda c: c.update(extra=[]), "not the digest's columns"),
    (lambda c: c.update(item="roofline.a"), "not a list"),
    (lambda c: c["date"].pop(), "differ in length"),
    (lambda c: c["date"].__setitem__(0, "2026-02-30"), "'date' holds a value out of range"),
    (lambda c: c["item"].__setitem__(0, ""), "'item' holds a value out of range"),
    (lambda c: c["item"].__setitem__(0, 3), "'item' holds a value of the wrong type"),
    (lambda c: c["seed"].__setitem__(0, [1]), "'seed' holds a value of the wrong type"),
    (lambda c: c["step"].__setitem__(0, 0), "'step' holds a value out of range"),
    (lambda c: c["verdict"].__setitem__(0, "great"), "'verdict' holds a value out of range"),
    (lambda c: c["quality"].__setitem__(0, 6), "'quality' holds a value out of range"),
    (lambda c: c["quality"].__setitem__(0, 4.5), "'quality' holds a value of the wrong type"),
    (lambda c: c["seconds"].__setitem__(0, float("nan")), "'seconds' holds a value out of range"),
    (lambda c: c["seconds"].__setitem__(0, -1), "'seconds' holds a value out of range"),
    (lambda c: c["seconds"].__setitem__(0, "30"), "'seconds' holds a value of the wrong type"),
    (lambda c: c["mode"].__setitem__(0, "cram"), "'mode' holds a value out of range"),
    (lambda c: c["before"].__setitem__(0, -3), "'before' holds a value out of range"),
    (lambda c: c["interval"].__setitem__(0, {"interval": 1}), "'interval' holds a value of the wrong type"),
    (lambda c: c["pressed"].__setitem__(0, None), "'pressed' holds a value of the wrong type"),
])
def test_a_digest_with_a_value_no_row_can_have_is_refused(spoil, problem):
    columns = stats.Digest.of_reviews(varied_rows()).columns()
    spoil(columns)
    with pytest.raises(ValueError, match=problem):
        stats.Digest.from_columns(columns)
