"""What a chain's answer means for the schedule, and which templates are met when.

A chain (several linked steps) is scheduled as one unit.  Its quality (:func:`chain_quality`) is the lowest
of its steps', except that a chain answered right in every step but one records quality 3 (a pass with a
cost, not a restart at day one): SM-2 restarting a whole chain over one slip kept showing the chain without
ever teaching the step that failed.  That step is what gets practised: the single template that drills each
failed step (named by the question bank's table) is due the next day (:func:`step_drills`).

A chain is met only after the single templates of its steps have each been passed once
(:func:`chain_ready`), and a "formula given" scaffold retires once its full template has been passed twice
(:func:`retired_scaffolds`): it is then no longer scheduled nor counted among the templates left.

Pure: the question bank's tables are passed in.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import date, timedelta

PASS = 3  # a quality at least this passes
RIGHT = 4  # a step at least this is right
RETIRE_AFTER = 2  # passes of the full template that retire its scaffold


def chain_quality(qualities: Sequence[int]) -> int:
    """The quality a chain records from its steps' qualities (in order)."""
    if not qualities:
        raise ValueError("a chain has at least one step")
    return PASS if one_slip(qualities) else min(qualities)


def one_slip(qualities: Sequence[int]) -> bool:
    """Whether :func:`chain_quality` records a chain by its one-slip rule (one failed step, every other right:
    a pass, 3) rather than as its lowest step; what the feedback says follows this, so the rule said is the
    rule applied."""
    failed = [q for q in qualities if q < PASS]
    return len(qualities) > 1 and len(failed) == 1 and all(q >= RIGHT for q in qualities if q >= PASS)


def failed_steps(qualities: Sequence[int]) -> list[int]:
    """The 0-based steps of a chain answer that failed (quality < 3)."""
    return [k for k, q in enumerate(qualities) if q < PASS]


def step_drills(steps: Sequence[str | None], qualities: Sequence[int], on: date) -> dict[str, date]:
    """The single templates to practise alone after a chain answer on ``on``: each failed step's template
    (``steps``: the bank's template of each step, None where there is none), due the next day."""
    nxt = on + timedelta(days=1)
    return {step: nxt for k in failed_steps(qualities) if k < len(steps) and (step := steps[k]) is not None}


def passed_once(states: Mapping[str, object], recent: Mapping[str, Sequence[int]]) -> set[str]:
    """Templates passed at least once: their last scheduled review passed (SM-2 repetitions >= 1) or one of
    their latest answers kept passed."""
    out = {i for i, s in states.items() if getattr(s, "reps", 0) >= 1}
    out |= {i for i, qs in recent.items() if any(q >= PASS for q in qs)}
    return out


def chain_ready(prerequisites: Iterable[str], passed: set[str]) -> bool:
    """Is a chain ready to be met: every single template of its steps passed once?"""
    return all(p in passed for p in prerequisites)


def retired_scaffolds(scaffolds: Mapping[str, str | None], states: Mapping[str, object],
                      recent: Mapping[str, Sequence[int]]) -> frozenset[str]:
    """The scaffolds whose full template has been passed twice: its last two scheduled reviews passed
    (SM-2 repetitions >= 2) or two of its latest answers kept passed."""
    out = set()
    for scaffold, full in scaffolds.items():
        if full is None:
            continue
        reps = getattr(states.get(full), "reps", 0)
        passes = sum(1 for q in recent.get(full, ()) if q >= PASS)
        if reps >= RETIRE_AFTER or passes >= RETIRE_AFTER:
            out.add(scaffold)
    return frozenset(out)
