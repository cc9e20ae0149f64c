"""Recording ``drill check --record``: an answer given on paper, stored through the profile's one record path."""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterable, Mapping
from datetime import date
from typing import TYPE_CHECKING

from engine.langs import EN
from engine.review_mode import ReviewMode

from .memory import fail, open_command_profile, said

if TYPE_CHECKING:
    from engine.grading import Verdict
    from engine.review import Review
    from question_bank.template import Problem


PAPER_SECONDS = None  # a paper answer has no measured time (unless --seconds): the stats' time figures leave it out


def _total(seconds: list) -> float | None:
    """A chain's time: its steps' times added, None when one was not measured."""
    return None if any(s is None for s in seconds) else sum(seconds)


def record_check(args: argparse.Namespace, problem: Problem, step: int | None, verdict: Verdict,
                 typed: str, seconds: float | None = PAPER_SECONDS, hint: int | None = None) -> int:
    """``drill check ... --record``: store a graded answer (``typed`` for ``step`` of ``problem``, 1-based,
    None for a single question) as a paper review of its template.

    A single question is one review; it moves the template's SM-2 schedule by
    the rule for answers given off the schedule
    (:func:`engine.session.moves_schedule`): the template's first answer
    anywhere, a due template, or a lapse (quality < 3); any other answer is
    logged and its due date stays.  A chain is practised and scheduled as one
    unit, as in the app (:mod:`drill.core.practice_run`): each ``--step K`` is a step row
    that leaves the schedule alone, and once every step of that (template,
    seed) has been recorded today (since its last whole review) the whole
    chain is recorded too, with the lowest step quality (one slip among right
    steps: 3) and the worst step verdict, and that row moves the schedule by the same rule.  ``hint``: the
    hint taken before answering (``--hint N``), kept in the answer's row and capping its grade as in the app
    (:mod:`engine.hints`; a chain's whole review takes its steps' capped grades).  An invalid
    answer is not recorded (exit status 1).
    Says what was recorded and which steps remain, on stderr with --json.

    A write that fails (a full disk...) says exactly what was stored (exit
    status 1), and running the same command again stores nothing twice: a
    row is durable once stored (a state file that cannot be written is
    rebuilt from the log), and a chain whose steps are all recorded but whose
    whole review is missing gets only the whole review.
    """
    from drill.core.paths import command_lang
    from drill.core.recording import record_answer, settle_queue
    from engine.hints import capped
    from engine.messages import Twin
    from engine.session import Drawn, Moves, stored_text
    from engine.storage import SaveFailed

    out = sys.stderr if getattr(args, "json", False) else sys.stdout
    lang = command_lang(args)
    if not verdict.graded:
        return fail(Twin("not recorded: the answer could not be read", "未记录：无法读懂这个答案").text(lang))
    assert verdict.quality is not None, "a graded answer has its quality"
    value = verdict.parsed.value if verdict.parsed is not None else (verdict.given or None)
    template, seed = problem.template, problem.seed
    from drill.core import context

    when = context.utc_now()  # the clock tests move (drill.core.context), as the app's
    today = when.astimezone().date()

    drawn = Drawn(template.id, template.topic, seed, problem.hardware, problem.model, problem.chosen_conventions)

    def row(quality: int, status: str, *, step: int | None, typed: str, value, whole: bool,
            seconds: float | None = seconds, hint: int | None = None) -> Review:  # as the app records it
        return record_answer(profile, drawn, quality=quality, verdict=status, when=when, today=today,
                             mode=ReviewMode.PAPER, moves=Moves.OFF_SCHEDULE if whole else Moves.NEVER,
                             typed=typed, value=value, step=step, seconds=seconds, hint=hint)

    def settle(item: str) -> None:  # answered whole: out of the queue and the step drills, as in the app
        with contextlib.suppress(SaveFailed):  # (the review is stored; the item is asked first once more)
            settle_queue(profile, item)

    stored: Review  # the row just stored, or the same step's row found stored before
    profile = open_command_profile(args)
    try:
        if not problem.is_chain:
            try:
                stored = profile.record(row(verdict.quality, verdict.status, step=None, typed=typed,
                                            value=value, whole=True, hint=hint))
            except SaveFailed as e:
                return fail(said("save.not_recorded", args, e))
            settle(template.id)
            print(Twin(f"Recorded as review {stored.id} of {template.id} (quality {stored.quality}); "
                       f"{_next_due(stored, lang)}.",
                       f"已记为 {template.id} 的第 {stored.id} 条复习（评分 {stored.quality}）；"
                       f"{_next_due(stored, lang)}。").text(lang), file=out)
            return 0
        assert step is not None, "a chain is checked one --step at a time (drill check)"
        n = len(problem.steps)
        earlier = paper_steps(profile.reviews_today(today), template.id, seed, problem.hardware,
                            problem.chosen_conventions, problem.model)
        again = earlier.get(step)
        if len(earlier) == n and again is not None and again.typed == stored_text(typed) \
                and again.quality == capped(verdict.quality, hint):  # all steps in, the whole review missing
            stored = again
            print(f"Step {step} of {n} of {template.id} (seed {seed}) was already recorded as review "
                  f"{stored.id}.", file=out)
        else:
            try:
                stored = profile.record(row(verdict.quality, verdict.status, step=step, typed=typed, value=value,
                                            whole=False, hint=hint))
            except SaveFailed as e:
                return fail(said("save.not_recorded", args, e))
            print(Twin(f"Recorded step {step} of {n} of {template.id} (seed {seed}) as review {stored.id}.",
                       f"已记录 {template.id}（种子 {seed}）第 {step}/{n} 步，复习编号 {stored.id}。").text(lang),
                  file=out)
        steps = paper_steps(profile.reviews_today(today), template.id, seed, problem.hardware,
                            problem.chosen_conventions, problem.model)
        remaining = [k for k in range(1, n + 1) if k not in steps]
        if remaining:
            command = f"drill check {template.id} --seed {seed} --step K ANSWER --record"
            print(Twin(f"The chain is scheduled as one unit once all its steps are recorded the same day: "
                       f"to record step{'s' if len(remaining) > 1 else ''} {_listed(remaining)} ({command}).",
                       f"同一天记完所有步骤后，整条题链才作为一个整体排期："
                       f"还需记录第 {'、'.join(map(str, remaining))} 步（{command}）。").text(lang), file=out)
            return 0
        from drill.core.practice_run import worst_verdict
        from drill.core.sessions import chain_one_slip, chain_quality, previous_chain_steps
        from engine.schedule import chains

        rows = [steps[k] for k in range(1, n + 1)]
        before = previous_chain_steps(profile, template.id)
        try:
            whole = profile.record(row(chain_quality([r.quality for r in rows], before),
                                       worst_verdict([r.verdict for r in rows]), step=None, typed="", value=None,
                                       whole=True, seconds=_total([r.seconds for r in rows])))
        except SaveFailed as e:
            return fail(said("save.chain_not_whole", args, e, step=step))
        settle(template.id)
        from drill.core.sessions import note_step_drills

        with contextlib.suppress(SaveFailed):  # the review is stored; its failed step is simply not queued alone
            note_step_drills(profile, template.id, [r.quality for r in rows], today)
        slip = chain_one_slip([r.quality for r in rows], before)  # the rule chain_quality applied, said
        repeated = not slip and chains.repeated_slip([r.quality for r in rows], before)
        rule = ("one slip among right steps: a pass" if slip else
                "the same step failed as last time: it starts over" if repeated else "its weakest step")
        rule_zh = "只错一步、其余都对，记为及格" if slip else "与上次错在同一步、从头开始" if repeated else "按最弱一步"
        print(Twin(f"Every step recorded: the chain is reviewed as a whole with quality {whole.quality} "
                   f"({rule}) as review {whole.id}; {_next_due(whole, lang)}.",
                   f"所有步骤已记录：整条题链{rule_zh}的评分 "
                   f"{whole.quality} 记为第 {whole.id} 条复习；{_next_due(whole, lang)}。").text(lang), file=out)
        return 0
    finally:
        profile.close()
        if profile.state_behind is not None:
            print("drill: " + said("save.state_behind", args, profile.state_behind), file=sys.stderr)


def paper_steps(rows: Iterable[Review], item: str, seed: int,
                hardware: str | None = None, conventions: Mapping[str, str] | None = None,
                model: str | None = None                ) -> dict[int, Review]:
    """The paper step rows of one chain (``item``, ``seed``, drawn on ``hardware``, of ``model``) since its last
    whole paper review, by step (the latest row of each step)."""
    steps: dict[int, Review] = {}
    for r in rows:
        if (r.item != item or r.seed != seed or r.mode != ReviewMode.PAPER or r.hardware != hardware
                or (r.conventions or {}) != dict(conventions or {}) or r.model != model):
            continue
        if r.step is None:
            steps.clear()  # a whole review closes the earlier attempt
        else:
            steps[r.step] = r
    return steps


def _next_due(stored: Review, lang: str = EN) -> str:
    from engine.messages import Twin

    after = stored.after
    if after is None:
        return Twin("it was not due yet, so its next review stays where it was (a wrong answer would have brought it "
                    "forward)", "这道题还没到期，下次复习时间不变（答错才会提前）").text(lang)
    # the due date stored, and the days to it (the final stretch may have moved it off the scheduler's interval)
    days = (date.fromisoformat(after['due']) - date.fromisoformat(stored.date)).days
    return Twin(f"next due {after['due']} (in {days} d)",
                f"下次复习 {after['due']}（{days} 天后）").text(lang)


def _listed(steps: list[int]) -> str:
    return ", ".join(map(str, steps[:-1])) + f" and {steps[-1]}" if len(steps) > 1 else str(steps[0])
