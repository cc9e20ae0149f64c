"""The hint ladder: the cap a hint puts on the grade, the row field that keeps it, the hints' words (never the
result), the practice run's ladder, ``drill ask --hint``, ``drill check --record --hint`` and the statistics."""

from __future__ import annotations

import json
import random
from datetime import UTC, date, datetime

import pytest

from drill.core import practice_run, sessions
from drill.core.context import AppContext
from engine import hints
from engine.review import Review
from engine.session import Book, Drawn, Moves, Rules, record, review_row
from engine.stats import Digest
from engine.storage import Profile
from question_bank import registry
from question_bank.hints import hint_levels, hint_lines, hint_text
from tests import problems
from tests.cli import drill

WHEN, DAY = datetime(2026, 11, 29, 15, 0, tzinfo=UTC), date(2026, 11, 29)
SINGLE, CHAIN = "memory.static", "memory.zero_planning"


@pytest.fixture
def profile(tmp_path):
    p = Profile.open(tmp_path)
    yield p
    p.close()


# --------------------------------------------------------------------------- the rules and the row


def test_a_hint_caps_the_grade_at_four_then_three_and_leaves_a_lower_one():
    assert [hints.capped(q, 1) for q in (5, 4, 3, 0)] == [4, 4, 3, 0]
    assert [hints.capped(q, 2) for q in (5, 4, 3, 1)] == [3, 3, 3, 1]
    assert hints.capped(5, None) == 5
    with pytest.raises(ValueError, match="hint must be 1 or 2"):
        hints.capped(5, 3)


def test_the_one_record_path_caps_a_hinted_grade_and_the_row_keeps_the_hint():
    book = Book({}, Rules())
    row = record(book, Drawn(SINGLE, "memory", 3), quality=5, verdict="correct", when=WHEN, today=DAY,
                 mode="practice", moves=Moves.ALWAYS, hint=2)
    assert row.quality == 3 and row.hint == 2 and row.after["interval"] == 1  # scheduled as a 3
    stored = {"id": 1, **row.to_dict()}
    assert stored["hint"] == 2 and Review.from_dict(stored) == row._replace(id=1)
    plain = review_row(item=SINGLE, topic="memory", seed=3, quality=5, verdict="correct", when=WHEN, today=DAY,
                       state=None, schedule=True)
    assert plain.hint is None and "hint" not in plain.to_dict()  # no hint: no field, the grade as given


def test_the_statistics_count_the_answers_given_with_a_hint_by_level_and_topic():
    rows = [review_row(item=i, topic=t, seed=1, quality=4, verdict="correct", when=WHEN, today=DAY, state=None,
                       schedule=False, hint=h)
            for i, t, h in ((SINGLE, "memory", 1), (SINGLE, "memory", 2), ("roofline.classify_kernel", "roofline", 2),
                            (SINGLE, "memory", None))]
    d = Digest.of_reviews(rows)
    assert d.hint == [1, 2, 2, None] and Digest.of_rows([r.to_dict() for r in rows]).hint == d.hint
    counts = hints.hint_counts(d.topic, d.hint)
    assert counts == {"memory": [1, 1], "roofline": [0, 1]}
    assert hints.hints_taken(counts) == {"answers": 3, "hint1": 1, "hint2": 2, "by_topic": {"memory": 2, "roofline": 1}}


# --------------------------------------------------------------------------- the words


def test_hint_one_names_the_formula_and_quantity_hint_two_substitutes_without_the_result():
    step = registry.get(SINGLE).generate(3).steps[0]  # Φ = 2 × 10¹⁰: 320 GB
    one, two = hint_lines(step, 1), hint_lines(step, 2)
    assert one == ("formula train_static_bytes: static training memory: 2 params + 2 grads + 12 AdamW fp32 "
                   "(master, m, v) bytes per parameter; the quantity asked: M_static, in GB",)
    assert two == ("M_static = 16 × Φ", "  = 16 × 2 × 10¹⁰")
    zh = hint_text(step, 2, "zh")
    assert zh[0] == "提示 1：" and "所求的量：M_static，单位 GB" in zh[1] and zh[2] == "提示 2："
    for lines in (hint_text(step, 2, "en"), zh):
        assert not any("320" in x or "3.2 × 10¹¹" in x for x in lines)


def _never_the_result(templates, seeds):
    for t in templates:
        for seed in seeds:
            for step in problems.problem(t.id, seed).steps:  # the bank's shared problems (tests/problems.py)
                for lang in ("en", "zh"):
                    text = "\n".join(hint_text(step, 2, lang))
                    assert hint_levels(step) == 0 or text, (t.id, seed)
                    e = step.expected
                    if step.formula:  # the worked solution's result line, and the answer as displayed with its unit
                        result = [x for x in step.solution_lines(lang) if x.startswith("  = ")][-1]
                        assert result.strip() not in {x.strip() for x in text.splitlines()}, (t.id, seed, result)
                        if e.answer_kind.measured and " " in e.display:
                            assert e.display not in text, (t.id, seed, e.display)
                    elif e.kind == "expression":  # its formula would be the answer: hint 1 only
                        assert hint_levels(step) == 1 and not hint_lines(step, 2)


def test_no_hint_of_any_template_gives_the_result():
    _never_the_result(registry.all_templates(), (1,))


@pytest.mark.deep
def test_no_hint_of_any_template_gives_the_result_at_many_seeds():
    _never_the_result(registry.all_templates(), range(2, 30))


# --------------------------------------------------------------------------- the practice run


def run_of(profile, items):
    ctx = AppContext(profile, clock=lambda: WHEN, rng=random.Random(1))
    return practice_run.PracticeRun(ctx, sessions.items_session(ctx, items))


def test_two_hints_then_a_right_answer_records_three_and_a_regrade_cannot_lift_it(profile):
    run = run_of(profile, [SINGLE, SINGLE])
    assert run.take_hint() == 1 and run.take_hint() == 2 and run.take_hint() is None  # next: the solution
    a = run.submit(run.current_step.expected.display)
    assert a.auto_quality == 5 and a.quality == 3 and a.hint == 2
    assert a.item_row.quality == 3 and a.item_row.hint == 2
    assert run.override(5).quality == 3 and list(profile.reviews())[-1].hint == 2
    run.advance()
    assert run.hint == 0  # the next problem starts without a hint


def test_a_chain_keeps_the_hint_on_the_step_it_helped(profile):
    run = run_of(profile, [CHAIN])
    run.take_hint()
    first = run.submit(run.current_step.expected.display)
    assert first.quality <= 4 and first.rows[0].hint == 1 and first.rows[0].step == 1
    run.advance()
    assert run.hint == 0
    second = run.submit(run.current_step.expected.display)
    assert second.hint is None and second.rows[0].hint is None


# --------------------------------------------------------------------------- the commands


def test_drill_ask_hint_prints_each_steps_hints_in_both_languages_and_never_the_result():
    r = drill("ask", CHAIN, "--seed", "1", "--hint", "2")
    assert r.returncode == 0, r.stderr
    assert "Step 1:" in r.stdout and "Step 4:" in r.stdout and r.stdout.count("Hint 2:") == 4
    assert "M_ZeRO-3 = 16 × Φ / N_dp" in r.stdout and "  = 16 × 8 × 10⁹ / 256" in r.stdout
    assert "128 GB" not in r.stdout and "--hint 2 \"ANSWER\"" in r.stdout
    zh = drill("ask", SINGLE, "--seed", "3", "--hint", "1", "--lang", "zh")
    assert "提示 1：" in zh.stdout and "提示 2：" not in zh.stdout and "最高 4 分" in zh.stdout
    doc = json.loads(drill("ask", SINGLE, "--seed", "3", "--hint", "2", "--json").stdout)
    assert doc["hints"] == [{"step": 1, "hint1": list(hint_lines(registry.get(SINGLE).generate(3).steps[0], 1)),
                             "hint2": ["M_static = 16 × Φ", "  = 16 × 2 × 10¹⁰"]}]
    assert drill("ask", SINGLE, "--hint", "3").returncode == 2


def test_check_record_hint_records_the_capped_grade_and_stats_count_it(tmp_path):
    saves = str(tmp_path)
    r = drill("--saves", saves, "check", SINGLE, "--seed", "3", "320 GB", "--record", "--hint", "2", "--seconds", "5")
    assert r.returncode == 0, r.stderr
    assert "Hint 2 taken: graded 5, capped at 3." in r.stdout and "(quality 3)" in r.stdout
    with Profile.open(tmp_path) as p:
        row = list(p.reviews())[-1]
    assert (row.quality, row.hint) == (3, 2)
    doc = json.loads(drill("--saves", saves, "stats", "--json").stdout)
    assert doc["hints"] == {"answers": 1, "hint1": 0, "hint2": 1, "by_topic": {"memory": 1}}
    assert "Hints taken" in drill("--saves", saves, "stats").stdout
