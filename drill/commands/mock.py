"""``drill mock``: a timed mock interview.

    drill mock [--seed N] [--minutes M | --questions N] [--topics a,b] [--no-chains]
        opens the app on the mock setup screen, filled in with these choices
    drill mock --questions N --seed S --plan [--json]
        prints the questions the mock would ask (template, seed, steps) without starting a timer

A mock without a seed draws one and leans towards the learner's weaker
templates; with ``--seed`` it ignores the learner's history, so everyone who
uses that seed sits the same mock.  Mock answers are logged (mode ``mock``); a
template's first answer anywhere, a due template and a miss (quality < 3)
move its SM-2 schedule (:func:`engine.mock_report.review_rows`), any other answer
leaves it.

What the Mock screens share with this command (planning, building and saving a
run) is :mod:`drill.core.mock`.  The engine and the bank are imported inside
functions so that ``drill`` starts fast.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from drill.commands import convention_option
from drill.commands.catalogue import hardware_option, model_option
from engine.langs import EN

if TYPE_CHECKING:
    from engine.mock import MockPlan, MockSettings

# --------------------------------------------------------------------------- #
# The command


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "mock",
        help="a timed mock interview (--plan prints one without starting it)",
        description="A timed mock interview: no feedback until the end, then a report. Mock answers are logged; "
                    "a first answer or a miss moves the review schedule. With --plan, print the questions instead.",
    )
    p.add_argument("--seed", metavar="N", help="the mock's seed: the same seed gives everyone the same mock")
    p.add_argument("--minutes", metavar="M", help="length in minutes (default 30)")
    p.add_argument("--questions", metavar="N", help="number of questions (instead of filling the minutes)")
    p.add_argument("--topics", metavar="A,B", help="comma-separated topics (default: all)")
    p.add_argument("--no-chains", action="store_true", help="leave out follow-up chains")
    p.add_argument("--plan", action="store_true", help="print the planned questions; no timer starts")
    p.add_argument("--json", action="store_true", help="with --plan: print JSON")
    # the world its problems are drawn in: Settings', each flag over it
    hardware_option(p)
    model_option(p)
    convention_option(p)
    p.set_defaults(func=run)


def _topics(args: argparse.Namespace) -> list[str]:
    return [t.strip() for t in (args.topics or "").split(",") if t.strip()]


def _settings(args: argparse.Namespace, new_seed=None) -> MockSettings:
    from drill.commands import UsageError
    from drill.commands.bank import profile_settings, world_of
    from drill.core.mock import SETTINGS_KEY, make_settings
    from engine.mock import MockError

    # the setup the mock screen saved last (drill.core.mock.SETTINGS_KEY) where no flag gives one
    last = profile_settings(args).get(SETTINGS_KEY)
    last = last if isinstance(last, dict) else {}
    minutes, questions = args.minutes, args.questions
    if minutes is None and questions is None:
        minutes, questions = last.get("minutes"), last.get("questions")
    saved_topics = last.get("topics")
    topics = _topics(args) or ([t for t in saved_topics if isinstance(t, str)] if isinstance(saved_topics, list)
                               else [])
    chains = False if args.no_chains else last.get("chains", True) is not False
    try:
        return make_settings(minutes=minutes, questions=questions, topics=topics, chains=chains, seed=args.seed,
                             new_seed=new_seed, world=world_of(args))
    except MockError as e:
        raise UsageError(f"mock: {e}") from None


def run(args: argparse.Namespace) -> int:
    from drill.commands import UsageError

    if args.json and not args.plan:
        raise UsageError("mock: --json goes with --plan", "mock：--json 要和 --plan 一起用")
    if args.plan:
        return _print_plan(args)
    _settings(args, new_seed=lambda: 0)  # refuse bad values before the app opens
    from drill.commands.app import run_app

    return run_app(args, start="mock", seed=args.seed, minutes=args.minutes, questions=args.questions,
                   topics=_topics(args) or None, chains=False if args.no_chains else None)


def _print_plan(args: argparse.Namespace) -> int:
    from drill.commands import UsageError
    from drill.core.mock import make_plan
    from engine.mock import MockError

    if args.seed is None:
        import random

        settings = _settings(args, new_seed=lambda: random.SystemRandom().randrange(1, 2**31))
        weakness = _profile_weakness(args)
    else:
        settings, weakness = _settings(args), {}
    try:
        plan = make_plan(settings, weakness=weakness)
    except MockError as e:
        raise UsageError(f"mock: {e}") from None
    from drill.commands.bank import world_of

    world = world_of(args)  # what the plan's problems are drawn in, and where each part came from
    if args.json:
        print(json.dumps({**plan.to_dict(), "world": world.to_dict()}, indent=2, ensure_ascii=False))
        return 0
    from drill.core.paths import command_lang

    lang = command_lang(args)
    _print_table(plan, lang)
    if world.chosen:
        print(world.line(lang))
    return 0


def _profile_weakness(args: argparse.Namespace) -> dict[str, float]:
    """The learner's weakness figures, for a personal (unseeded) plan (no log read)."""
    from drill.core.mock import weakness_of
    from drill.core.paths import open_profile

    with open_profile(args.saves, args.profile, read_only=True,  # a reader: works while the app is open
                      lang=getattr(args, "lang", None)) as p:
        return weakness_of(p)


# drill mock --plan's lines, in English and Chinese (the app's words for a mock are in drill.core.i18n)
PLAN_TEXT = {
    "weighted": ("weighted towards your weaker templates", "偏向你较弱的模板"),
    "shared": ("shared seed: the same mock for everyone", "共享种子：所有人做同一场模拟面试"),
    "head": ("Mock plan · seed {seed} · {n} · {minutes} ({how})", "模拟面试计划 · 种子 {seed} · {n} · {minutes}（{how}）"),
    "questions": ("{n} questions", "{n} 道题"),
    "question": ("1 question", "1 道题"),
    "minutes": ("{m} min", "{m} 分钟"),
    "minutes_s": ("{m} min {s} s", "{m} 分钟 {s} 秒"),
    "chain": ("  chain of {n} steps", "  追问链，{n} 步"),
    "seed": ("seed", "种子"),
    "rule": ("Mock answers are logged; a template's first answer enters your review schedule, a miss restarts it "
             "(due tomorrow), other answers leave its due date.",
             "模拟面试的答案会记入记录：模板第一次作答即进入复习计划，答错则重新开始（明天到期），其他答案不改变到期日。"),
}


def _plan_text(key: str, lang: str, **fmt) -> str:
    from engine.langs import pick

    return pick(lang, *PLAN_TEXT[key]).format(**fmt)


def _print_table(plan: MockPlan, lang: str = EN) -> None:
    s = plan.settings
    n = len(plan.questions)
    secs = plan.limit_seconds
    minutes = (_plan_text("minutes_s", lang, m=secs // 60, s=secs % 60) if secs % 60
               else _plan_text("minutes", lang, m=secs // 60))
    print(_plan_text("head", lang, seed=s.seed, minutes=minutes, how=_plan_text("weighted" if s.weighted else "shared", lang),
                     n=_plan_text("question", lang) if n == 1 else _plan_text("questions", lang, n=n)))
    width = max(len(q.template_id) for q in plan.questions)
    for i, q in enumerate(plan.questions, 1):
        chain = _plan_text("chain", lang, n=q.steps) if q.steps > 1 else ""
        print(f"{i:>3}  {q.template_id:<{width}}  {q.topic:<13} {_plan_text('seed', lang)} {q.seed:<6}{chain}".rstrip())
    print(_plan_text("rule", lang))
