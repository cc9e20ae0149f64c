"""Snapshot retention: by count and content, at most one removed per run, whatever the clock says."""

from datetime import date, timedelta

import pytest

from engine.storage import Profile, layout, snapshots
from tests.unit.storage_support import row

START = date(2026, 12, 1)


def names(root):
    return [s.name for s in snapshots.snapshots(root, "default")]


def week(root):
    """Seven days of use: each day's first run snapshots the profile, then records an answer."""
    for k in range(layout.SNAPSHOT_DAYS):
        with Profile.open(root) as p:
            p.snapshot(START + timedelta(days=k))
            p.record(row(p, item=f"i{k}", day=START + timedelta(days=k)))
    return names(root)


def run(root, today, record=True):
    with Profile.open(root) as p:
        made = p.snapshot(today)
        if record:
            p.record(row(p, item=f"at-{today}", day=min(today, START + timedelta(days=30))))
    return made


@pytest.mark.parametrize("jump", [365, -365])
def test_a_clock_a_year_off_costs_at_most_one_snapshot_per_run(tmp_path, small_segments, jump):
    before = week(tmp_path)
    assert len(before) == layout.SNAPSHOT_DAYS
    odd = START + timedelta(days=layout.SNAPSHOT_DAYS - 1 + jump)
    run(tmp_path, odd)
    after_odd = names(tmp_path)
    assert len(set(before) - set(after_odd)) <= 1 and len(after_odd) == layout.SNAPSHOT_DAYS
    # back to the right day: again one at most
    back = START + timedelta(days=layout.SNAPSHOT_DAYS)
    run(tmp_path, back)
    after_back = names(tmp_path)
    assert len(set(after_odd) - set(after_back)) <= 1 and back.isoformat() in after_back
    assert len(set(before) & set(after_back)) >= layout.SNAPSHOT_DAYS - 2
    if jump < 0:  # a snapshot named before all the others is the one that goes: nothing of the week is lost
        assert set(before) <= set(after_odd)


def test_the_year_ahead_snapshot_takes_one_slot_and_the_week_stays(tmp_path, small_segments):
    before = week(tmp_path)
    run(tmp_path, date(2027, 12, 7))
    assert names(tmp_path) == ["2027-12-07"] + before[:-1]  # the oldest day made room, no more


def test_an_identical_copy_goes_before_the_oldest_distinct_one(tmp_path, small_segments):
    week(tmp_path)
    # two days without an answer: their snapshots hold exactly what the profile held
    run(tmp_path, START + timedelta(days=7), record=False)
    oldest = names(tmp_path)[-1]
    run(tmp_path, START + timedelta(days=8), record=False)
    kept = names(tmp_path)
    assert oldest in kept and (START + timedelta(days=7)).isoformat() not in kept
    assert kept[0] == (START + timedelta(days=8)).isoformat() and len(kept) == layout.SNAPSHOT_DAYS


def test_many_snapshots_beyond_the_count_shrink_by_one_a_run(tmp_path, small_segments):
    week(tmp_path)
    base = snapshots.folder_of(tmp_path, "default")
    for k in range(3):  # (e.g. left by an older version, or a lowered count)
        (base / f"2026-11-2{k}").mkdir()
    assert len(names(tmp_path)) == layout.SNAPSHOT_DAYS + 3
    for left in (2, 1, 0):
        snapshots.prune(tmp_path, "default")
        assert len(names(tmp_path)) == layout.SNAPSHOT_DAYS + left
    assert snapshots.prune(tmp_path, "default") is None
