"""A practice session (drill.core.practice_run.PracticeRun) when the disk fills at any write of an answer, an undo (Ctrl+Z)
or a grade override: a chain's step row stored and its whole row not, an undo or an override stopped
half-way. Whatever write fails, the log never holds an answer twice, the session never moves past an answer
that is not stored, and once space is freed the same answer is stored once."""

import errno
import random
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import pytest

from drill.core import practice_run, sessions
from drill.core.context import AppContext
from engine.storage import Profile, SaveFailed, durable
from question_bank import registry
from tests.unit.test_storage_faults import _Refusing

CHAIN = "roofline.chain_interview"
SINGLE = next(t.id for t in registry.all_templates() if not t.is_chain and t.answer_kind == "number")
NOW = datetime(2026, 11, 29, 15, 0, tzinfo=UTC)
FILLS = range(6)  # the disk fills after this many more writes succeed (an answer or an undo makes at most 4)


def fill_after(monkeypatch, n: int, err: int = errno.ENOSPC):
    """The next ``n`` writes of save files succeed, every later one fails with ``err`` (a disk filling up)."""
    real_open = open
    done = [0]

    def fake_open(file, mode="r", *args, **kwargs):
        f = real_open(file, mode, *args, **kwargs)
        if "w" in mode and Path(file).name.startswith("."):  # the temporary file of atomic_write
            done[0] += 1
            if done[0] > n:
                return _Refusing(f, err)
        return f

    monkeypatch.setattr(durable, "open", fake_open, raising=False)


@pytest.fixture
def profile(tmp_path):
    p = Profile.open(tmp_path)
    yield p
    p.close()


def run_of(profile, item):
    ctx = AppContext(profile, clock=lambda: NOW, rng=random.Random(1))
    return practice_run.PracticeRun(ctx, sessions.items_session(ctx, [item]))


def right(run) -> str:
    return run.current_step.expected.display


def to_last_step(run):
    while run.step < len(run.problem.steps) - 1:
        run.submit(right(run))
        run.advance()


def log(profile):
    return list(profile.reviews())


def stored_once(profile, item, reps=1):
    """No answer stored twice (one row per item, seed and step; a chain's whole row has step None), and the
    item's schedule moved by exactly one whole answer (``reps``: 0 after a miss)."""
    rows = log(profile)
    counts = Counter((r.item, r.seed, r.step) for r in rows)
    assert max(counts.values()) == 1, counts
    assert sum(1 for r in rows if r.step is None) == 1 and profile.states()[item].reps == reps
    return rows


def where(run):
    return run.card, run.step, run.session.current, len(run.answers)


@pytest.mark.parametrize("item", [SINGLE, CHAIN])
@pytest.mark.parametrize("fill", FILLS)
def test_an_answer_on_a_filling_disk_is_stored_whole_or_given_again(profile, monkeypatch, item, fill):
    run = run_of(profile, item)
    to_last_step(run)
    at, before = where(run), log(profile)
    fill_after(monkeypatch, fill)
    try:
        a = run.submit(right(run))
    except SaveFailed:
        assert where(run) == at  # still asking this step: nothing counted, the session where it was
        stuck = log(profile)[len(before):]  # a chain's step row whose whole row failed and cannot be taken back
        assert stuck == ([] if run.pending is None else run.pending.rows)
        monkeypatch.undo()  # space freed: Enter again
        a = run.submit(right(run))
    assert a.item_row is not None and run.pending is None
    rows = stored_once(profile, item)
    assert rows[:len(before)] == before and rows[-1] == a.item_row and not run.advance()


@pytest.mark.parametrize("item", [SINGLE, CHAIN])
@pytest.mark.parametrize("fill", FILLS)
def test_undo_on_a_filling_disk_changes_nothing_or_takes_the_answer_back(profile, monkeypatch, item, fill):
    run = run_of(profile, item)
    to_last_step(run)
    a = run.submit(right(run))
    after, mine = log(profile), len(a.rows)
    fill_after(monkeypatch, fill)
    try:
        undone = run.undo()
    except SaveFailed:  # refused before anything was taken back: the answer stands, Enter goes on
        assert run.answers[-1] is a and log(profile) == after and len(a.rows) == mine
        monkeypatch.undo()
        assert not run.advance()
        stored_once(profile, item)
        return
    assert undone is a and a not in run.answers and run.step == a.step and run.session.current is a.card
    assert log(profile) == after[:len(after) - mine + len(run.pending.rows if run.pending else [])]
    monkeypatch.undo()
    again = run.submit(right(run))  # given again: a step row left behind is taken back first
    assert again.item_row is not None and run.pending is None
    stored_once(profile, item)


@pytest.mark.parametrize("item", [SINGLE, CHAIN])
@pytest.mark.parametrize("fill", FILLS)
def test_a_grade_override_on_a_filling_disk_changes_nothing_or_puts_the_answer_back(profile, monkeypatch, item,
                                                                                     fill):
    run = run_of(profile, item)
    to_last_step(run)
    a = run.submit(right(run))
    after, grade = log(profile), a.quality
    fill_after(monkeypatch, fill)
    try:
        assert run.override(1) is a
    except SaveFailed:
        if run.fell_back is None:  # nothing changed: the answer stands with its grade
            assert run.answers[-1] is a and a.quality == grade and log(profile) == after
            monkeypatch.undo()
            run.override(1)
        else:  # taken back whole: on its step again, its text to be given again once space is freed
            assert run.fell_back is a and a not in run.answers and run.step == a.step
            assert run.session.current is a.card
            monkeypatch.undo()
            a = run.submit(a.typed)
            run.override(1)
    whole = sessions.chain_quality([s.quality for s in a.prior] + [1])  # a chain with one slip passes with 3
    assert run.answers[-1] is a and a.quality == 1 and a.item_row.quality == whole and run.pending is None
    stored_once(profile, item, reps=0 if whole < 3 else 1)
