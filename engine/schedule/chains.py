"""What a chain's answer means for the schedule, and which templates are met when.

A chain (several linked steps) is scheduled as one unit.  Its quality (:func:`chain_quality`) is the lowest
of its steps', except that a chain answered right in every step but one records quality 3 (a pass with a
cost, not a restart at day one): SM-2 restarting a whole chain over one slip kept showing the chain without
ever teaching the step that failed.  That step is what gets practised: the single template that drills each
failed step (named by the question bank's table) is due the next day (:func:`step_drills`).  But a chain that
fails the same step in two answers running (:func:`repeated_slip`) records that step's quality, a lapse: it
starts over (interval reset) instead of passing with 3 again, which kept lengthening the interval of a chain
whose weak step was never learnt.

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


def chain_quality(qualities: Sequence[int], before: Sequence[int] | None = None) -> int:
    """The quality a chain records from its steps' qualities (in order); ``before``: the step qualities of the
    chain's previous answer (None: its first), for :func:`repeated_slip`."""
    if not qualities:
        raise ValueError("a chain has at least one step")
    return PASS if one_slip(qualities) and not repeated_slip(qualities, before) else min(qualities)


def repeated_slip(qualities: Sequence[int], before: Sequence[int] | None) -> bool:
    """One slip (:func:`one_slip`) on a step that also failed in the chain's previous answer (``before``, its
    step qualities): no pass then, the chain starts over (:func:`chain_quality`)."""
    return before is not None and one_slip(qualities) and failed_steps(qualities)[0] in failed_steps(before)


def previous_steps(items: Sequence[str], steps: Sequence[int | None], qualities: Sequence[int],
                   item: str) -> list[int] | None:
    """The step qualities of ``item``'s last whole answer in a log given as columns (oldest first: each row's
    item, step (None: the whole row) and quality, as ``engine.digest.Digest`` holds them), None without one.
    A step's latest row before that whole row and after the one before it counts (paper steps may be recorded
    apart from their whole row)."""
    rows = [k for k, i in enumerate(items) if i == item]
    whole = [k for k in rows if steps[k] is None]
    if not whole:
        return None
    start = whole[-2] if len(whole) > 1 else -1
    found: dict[int, int] = {}
    for k in rows:
        step = steps[k]
        if start < k < whole[-1] and step is not None:
            found[step] = qualities[k]
    # by step number (1-based), a step without a row counted as not failed
    return [found.get(n, PASS) for n in range(1, max(found) + 1)] if found else None


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
