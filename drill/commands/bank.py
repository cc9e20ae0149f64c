"""``drill templates``, ``drill ask``, ``drill check``: the question bank from the command line.

    drill templates [--topic T] [--json]
    drill ask TEMPLATE [--seed N] [--lang en|zh] [--json]
    drill check TEMPLATE --seed N ANSWER [--step K] [--json] [--record]

A problem is deterministic from (template, seed), so ``ask`` then ``check``
with the same seed grade the same instance.  ``check`` exits 0 whenever a
verdict was produced (an unreadable answer is the verdict ``invalid``), 2 for
usage errors (a chain without ``--step`` among them: its steps are graded one
by one).  The question bank is imported inside the handlers so that
``drill`` starts fast.

Grading is :func:`grade_check` (returns a :class:`Checked`), printing is
:func:`print_check`: a caller that also records the answer (``--record``)
sits between the two.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from typing import TYPE_CHECKING, Any

from drill.commands import convention_option
from drill.commands.catalogue import chosen_hardware, chosen_model, hardware_option, model_option
from engine.langs import EN, LANG_CHOICES
from engine.records import frozen
from engine.status import Status

if TYPE_CHECKING:
    from drill.core.world import ChosenWorld
    from engine.grading import Verdict
    from question_bank.steps import Step
    from question_bank.template import Problem, Template

MAX_SEED = 2**63 - 1


def profile_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The profile's settings, read without the lock (a damaged or missing profile: ``{}``, reported by the command
    that opens it)."""
    try:
        from drill.core.paths import DEFAULT_PROFILE, saves_dir
        from engine.storage import read_tables

        name = getattr(args, "profile", None) or DEFAULT_PROFILE
        tables = read_tables(saves_dir(getattr(args, "saves", None)) / name / "state.json") or {}
        saved = (tables.get("settings") or {}).get("1", {})
        return saved if isinstance(saved, dict) else {}
    except Exception:  # noqa: BLE001 - a damaged or missing profile is reported by the command that opens it
        return {}


def world_of(args: argparse.Namespace) -> ChosenWorld:
    """The world a problem is drawn in (drill.core.world): Settings' hardware, model and conventions, each flag
    (``--hardware``, ``--model``, ``--convention``) over them; a bad flag is a UsageError naming the valid ones."""
    from drill.commands import UsageError
    from drill.core import settings as st
    from drill.core.paths import saves_dir
    from drill.core.world import chosen_world
    from engine import convention_set

    saves = saves_dir(getattr(args, "saves", None))

    def known(part: str, ident: str) -> bool:
        return (st.known_hardware if part == "hardware" else st.known_model)(ident, saves)

    try:
        return chosen_world(profile_settings(args), hardware=chosen_hardware(args), model=chosen_model(args),
                            conventions=getattr(args, "convention", None) or [], known=known)
    except convention_set.ConventionError as e:
        raise UsageError("--convention: " + e.en, "--convention：" + e.zh) from None


def conventions_line(problem: Problem, lang: str) -> str:
    """``Conventions: bytes per parameter 18`` for a problem drawn under conventions off their default, else ""."""
    from engine.convention_set import described
    from engine.messages import pick

    chosen = problem.chosen_conventions
    return pick(lang, "Conventions: ", "约定：") + described(chosen, lang) if chosen else ""


def register(subparsers) -> None:
    from drill.commands import LazyHelp

    p = subparsers.add_parser("templates", help="list the problem templates", add_help=False,
                              description="List every problem template: id, topic, difficulty, answer kind, "
                                          "chain length and title.")
    topic: list[argparse.Action] = []  # --topic, named by the help once asked for
    p.add_argument("-h", "--help", action=LazyHelp, fill=lambda parser, ns: _name_topics(topic[0]),
                   help="show this help message and exit")
    topic.append(p.add_argument("--topic", help="only this topic (see `drill templates --help`)"))
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument("--lang", dest="sub_lang", choices=LANG_CHOICES, help="language of the titles")
    p.set_defaults(func=run_templates)

    p = subparsers.add_parser("ask", help="print one problem", description="Print one problem of a template. "
                              "The same --seed always gives the same problem; without it a random seed is "
                              "chosen and printed.")
    p.add_argument("template", metavar="TEMPLATE", help="template id (see `drill templates`)")
    p.add_argument("--seed", help="problem seed (a whole number, 0 or more)")
    p.add_argument("--lang", dest="sub_lang", choices=LANG_CHOICES, help="language of the prompt")
    p.add_argument("--json", action="store_true", help="print the problem, its answer and solution as JSON")
    p.add_argument("--hint", metavar="N", help="also print the hints up to N (1: which formula and quantity; 2: "
                                               "its numbers substituted), for each step of a chain")
    hardware_option(p)
    convention_option(p)
    model_option(p)
    p.set_defaults(func=run_ask)

    p = subparsers.add_parser("check", help="grade an answer to one problem",
                              description="Grade ANSWER for the problem TEMPLATE --seed N. A chain is graded step by "
                                          "step: --step K (counted from 1) is required. "
                                          "Exit status 0 whenever a verdict is given (also 'invalid').")
    p.add_argument("template", metavar="TEMPLATE", help="template id (see `drill templates`)")
    p.add_argument("answer", metavar="ANSWER", help="the answer as you would write it, e.g. '295 FLOP/B' or "
                                                    "'memory-bound' (quote it if it has spaces)")
    p.add_argument("--seed", required=True, help="the seed of the problem (as printed by `drill ask`)")
    p.add_argument("--step", help="step of a chain to grade, counted from 1")
    p.add_argument("--lang", dest="sub_lang", choices=LANG_CHOICES, help="language of the output")
    p.add_argument("--json", action="store_true", help="print the verdict as JSON")
    p.add_argument("--record", action="store_true",
                   help="also record the answer as a review of this template (practice done on paper); a "
                        "chain is rescheduled once every step is recorded")
    hardware_option(p)
    convention_option(p)
    model_option(p)
    p.add_argument("--seconds", metavar="N", help="the seconds the answer took (whole, 1-86400): graded and "
                                                  "recorded as the app does (a slow right answer scores 4, not 5)")
    p.add_argument("--hint", metavar="N", help="the hint taken before answering (1 or 2, as `drill ask --hint N` "
                                               "prints them): the grade is capped at 4 or 3, as in the app")
    p.set_defaults(func=run_check)


def bank_topics() -> list[str]:
    """The topics of the bank's templates, in the bank's order (from the registry's index: nothing imported)."""
    from question_bank import registry

    return list(dict.fromkeys(topic for _, topic in registry.catalog()))


def _name_topics(action: argparse.Action) -> None:
    """``drill templates --help`` names every topic the bank has (looked up only when help is asked for)."""
    action.help = f"only this topic: {', '.join(bank_topics())}"


def lang_of(args: argparse.Namespace) -> str:
    """The subcommand's --lang, else the global --lang, else the profile's language, else English
    (:func:`drill.core.paths.command_lang`: one rule for every command)."""
    from drill.core.paths import command_lang

    return command_lang(args)


def template_by_id(template_id: str) -> Template:
    from drill.commands import UsageError
    from question_bank import registry

    try:
        return registry.get(template_id)
    except registry.UnknownTemplate as e:
        import difflib

        from drill.commands import shown_arg

        near = difflib.get_close_matches(template_id, [i for i, _ in registry.catalog()], n=3, cutoff=0.75)
        en = f"; did you mean {' or '.join(near)}?" if near else ""
        zh = f"；是不是 {' 或 '.join(near)}？" if near else ""
        raise UsageError(str(e) + en, f"没有名为 {shown_arg(template_id)} 的模板（见 `drill templates`）{zh}") from None


def whole_number(text: str, what: str, low: int, high: int) -> int:
    from drill.commands import UsageError, shown_arg

    t = text.strip()
    digits = t[1:] if t.startswith("-") else t
    if not digits.isdecimal():
        raise UsageError(f"{what} must be a whole number, got {shown_arg(text)}",
                         f"{what} 必须是整数，却是 {shown_arg(text)}")
    # bounded before int(): a number of thousands of digits is out of range, not a ValueError
    if len(digits.lstrip("0")) > len(str(max(abs(low), abs(high)))) or not low <= int(t) <= high:
        raise UsageError(f"{what} must be between {low} and {high}, got {shown_arg(t)}",
                         f"{what} 必须在 {low} 到 {high} 之间，却是 {shown_arg(t)}")
    return int(t)


def print_json(doc: Any) -> None:
    json.dump(doc, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")


# --------------------------------------------------------------------------- #
# drill templates


def run_templates(args: argparse.Namespace) -> int:
    from drill.commands import UsageError
    from question_bank import registry
    from question_bank.topics import TOPIC_NAMES, TOPICS

    if args.topic is not None and args.topic not in TOPICS:
        raise UsageError(f"unknown topic {args.topic!r} (one of {', '.join(TOPICS)})",
                         f"没有主题“{args.topic}”（可选：{', '.join(TOPICS)}）")
    from engine.messages import Twin, pick

    lang = lang_of(args)
    rows = [t for t in registry.all_templates() if args.topic in (None, t.topic)]
    if args.json:
        print_json([{"id": t.id, "topic": t.topic, "title": t.title, "title_zh": t.title_zh,
                      "difficulty": t.difficulty, "answer_kind": t.answer_kind, "chain_length": t.chain_length,
                      "target_seconds": t.target_seconds} for t in rows])
        return 0
    from drill.core.columns import pad, width

    head = pick(lang, ("TEMPLATE", "TOPIC", "DIFF", "ANSWER", "STEPS", "TITLE"),
                ("模板", "主题", "难度", "答案", "步数", "标题"))
    # ANSWER: the kinds of the steps' answers, one rule for single questions and chains (Template.answer_kind);
    # columns by display width: the Chinese header takes two columns a character
    cols = [max([width(head[0])] + [len(t.id) for t in rows]) + 1, 13, 4,
            max([width(head[3])] + [len(t.answer_kind) for t in rows]), 5]
    print(" ".join(pad(h, c) for h, c in zip(head, cols)) + f" {head[5]}")
    for t in rows:
        cells = (t.id, t.topic, str(t.difficulty), t.answer_kind, str(t.chain_length))
        print(" ".join(pad(x, c) for x, c in zip(cells, cols)) + f" {t.title_in(lang)}")
    topics = sorted({t.topic for t in rows}, key=TOPICS.index)
    names = ", ".join(pick(lang, *TOPIC_NAMES[x]) for x in topics)
    print(Twin(f"\n{len(rows)} templates ({names})", f"\n共 {len(rows)} 个模板（{names}）").text(lang))
    return 0


# --------------------------------------------------------------------------- #
# drill ask


def _answer_hint(step: Step, lang: str) -> str:
    """What the step's answer takes (its kind says: engine.kinds), for a prompt printed without an answer box."""
    e = step.expected
    return e.answer_kind.hint(e).text(lang)


def run_ask(args: argparse.Namespace) -> int:
    t = template_by_id(args.template)
    seed = whole_number(args.seed, "--seed", 0, MAX_SEED) if args.seed is not None else random.randrange(1_000_000)
    lang = lang_of(args)
    world = world_of(args)
    problem = t.generate(seed, hardware=world.hardware, model=world.model, conventions=world.conventions)
    hint = _hint_of(args)
    if args.json:
        print_json({**problem.to_dict(lang), "world": world.to_dict(),
                    **({"hints": _hints_json(problem, hint, lang)} if hint else {})})
        return 0
    from engine.messages import Twin

    print(f"{t.id}  seed {seed}  ·  {problem.title_in(lang)}  ·  "
          + Twin(f"difficulty {t.difficulty}  ·  target {t.target_seconds} s",
                 f"难度 {t.difficulty}  ·  目标 {t.target_seconds} 秒").text(lang))
    if world.chosen:
        print(world.line(lang))
    if line := conventions_line(problem, lang):  # what it counts with (the spec may not allow every choice)
        print(line)
    print()
    print(problem.prompt(lang))
    print()
    for s in problem.steps:
        prefix = (f"{s.index + 1}. " if problem.is_chain else "")
        print(prefix + _answer_hint(s, lang))
    if hint:
        _print_hints(problem, hint, lang)
    step_flag = " --step K" if problem.is_chain else ""
    hw_flag = (f" --hardware {problem.hardware}" if problem.hardware else "") + \
        (f" --model {problem.model}" if problem.model else "")
    from engine.convention_set import flags

    print(Twin("\nCheck with: ", "\n检查答案：").text(lang)
          + f"drill check {t.id} --seed {seed}{step_flag}{hw_flag}{flags(problem.chosen_conventions)}"
          + (f" --hint {hint}" if hint else "") + " \"ANSWER\"")
    return 0


def _hint_of(args: argparse.Namespace) -> int | None:
    """``--hint N`` read (1 or 2; UsageError otherwise), None without it."""
    raw = getattr(args, "hint", None)
    return whole_number(raw, "--hint", 1, 2) if raw is not None else None


def _hints_json(problem: Problem, hint: int, lang: str) -> list[dict[str, Any]]:
    from question_bank.hints import hint_lines

    return [{"step": s.index + 1, **{f"hint{n}": list(hint_lines(s, n, lang)) for n in range(1, hint + 1)}}
            for s in problem.steps]


def _print_hints(problem: Problem, hint: int, lang: str) -> None:
    """The hints up to ``hint`` of each step (the ladder of the app: question_bank.hints), never a result."""
    from engine.hints import CAPS
    from engine.messages import Twin
    from question_bank.hints import hint_text

    print(Twin(f"\nHints (an answer after hint {hint} is graded {CAPS[hint]} at most; "
               f"`drill check ... --hint {hint}` records it so):",
               f"\n提示（用了提示 {hint} 的答案最高 {CAPS[hint]} 分；"
               f"`drill check ... --hint {hint}` 按此记录）：").text(lang))
    for s in problem.steps:
        if problem.is_chain:
            print(Twin(f"Step {s.index + 1}:", f"第 {s.index + 1} 步：").text(lang))
        lines = hint_text(s, hint, lang)
        print("\n".join(f"  {line}" for line in lines) if lines
              else Twin("  (no hint for this question: its card, F2 in the app, shows the formula)",
                        "  （本题没有提示：应用中按 F2 查看公式卡）").text(lang))


# --------------------------------------------------------------------------- #
# drill check


MAX_CHECK_SECONDS = 86_400  # --seconds: at most a day


@frozen
class Checked:
    """One graded answer: what ``drill check`` prints, and what a recorder stores."""

    problem: Problem
    step_index: int  # 0-based index of the graded step
    step: int | None  # 1-based step given with --step (always for a chain), None for a single question
    verdict: Verdict
    typed: str
    seconds: int | None = None  # --seconds: the time the answer took (None: not measured, as on paper)
    world: ChosenWorld | None = None  # what the problem was drawn in (Settings, the flags)
    hint: int | None = None  # --hint: the hint taken before answering (engine.hints), which caps the grade

    @property
    def quality(self) -> int | None:
        """The grade, capped by the hint taken (None: nothing graded)."""
        from engine.hints import capped

        q = self.verdict.quality
        return None if q is None else capped(q, self.hint)

    @property
    def graded_step(self) -> Step:
        return self.problem.steps[self.step_index]


def grade_check(args: argparse.Namespace) -> Checked:
    """Grade ``args.answer`` for ``args.template`` / ``args.seed`` (/ ``args.step``); UsageError on bad input."""
    from drill.commands import UsageError
    from engine.grading import grade

    t = template_by_id(args.template)
    seed = whole_number(args.seed, "--seed", 0, MAX_SEED)
    world = world_of(args)
    problem = t.generate(seed, hardware=world.hardware, model=world.model, conventions=world.conventions)
    n = len(problem.steps)
    if args.step is not None:
        step = whole_number(args.step, "--step", 1, n)
        index = step - 1
    elif n > 1:
        raise UsageError(f"{t.id} is a chain of {n} steps (1 to {n}), graded one at a time: add --step K "
                         f"(see `drill ask {t.id} --seed {seed}`)",
                         f"{t.id} 是 {n} 步的连环题（第 1 到 {n} 步），每次评一步：加上 --step K"
                         f"（见 `drill ask {t.id} --seed {seed}`）")
    else:
        step, index = None, 0
    if len(args.answer) > 10_000:
        raise UsageError("ANSWER is too long", "ANSWER 太长了")
    s = problem.steps[index]
    seconds = getattr(args, "seconds", None)
    seconds = whole_number(seconds, "--seconds", 1, MAX_CHECK_SECONDS) if seconds is not None else None
    hint = _hint_of(args)
    verdict = grade(args.answer, s.expected, seconds=seconds, target_seconds=s.target_seconds)
    return Checked(problem, index, step, verdict, args.answer, seconds, world, hint)


def check_dict(c: Checked, lang: str = EN) -> dict[str, Any]:
    from engine.typography import typeset

    v, s = c.verdict, c.graded_step
    rel = v.relative_error if v.relative_error is not None and math.isfinite(v.relative_error) else None
    return {
        "template": c.problem.template.id,
        "seed": c.problem.seed,
        **({"hardware": c.problem.hardware} if c.problem.hardware else {}),
        **({"conventions": c.problem.chosen_conventions} if c.problem.convention_set else {}),
        **({"model": c.problem.model} if c.problem.model else {}),
        "step": c.step_index + 1,
        "steps": len(c.problem.steps),
        "answer": c.typed,
        "status": v.status,
        "quality": c.quality,  # capped by --hint
        **({"hint": c.hint, "graded": v.quality} if c.hint else {}),  # the grade before the hint's cap
        # as the message writes them in ``lang`` (5.533 天); expected_value is the number
        "expected": typeset(v.expected, lang) if isinstance(v.expected, str) else v.expected,
        "expected_value": s.expected.value,
        "given": typeset(v.given, lang) if isinstance(v.given, str) else v.given,
        "relative_error": rel,  # the judged error (engine.grading.distance), signed: + when the answer is larger
        "error_measure": "|x − e| / max(|x|, |e|)",
        # answer ÷ expected (None when nothing was graded or the answer is 0): beyond a factor of 2 the message
        # says this factor ("about 4.46× too high") rather than the saturating relative error
        "ratio": v.ratio if v.ratio is not None and math.isfinite(v.ratio) else None,
        # a count: what the answer says it counts (16 requests), and what the question counts (None: any count)
        "noun": (read.noun or None) if (read := v.parsed or (v.reading.parsed if v.reading else None)) else None,
        "asked_noun": s.expected.noun or None,
        # a form with two readings (70B: a billion or bytes; 1.5k: a multiple of s or of ms), else None
        "ambiguity": ambiguity(v, s),
        "diagnosis": v.diagnosis_in(lang),
        "diagnosis_key": v.diagnosis_key,
        "band": v.band_in(lang),
        "notes": list(v.notes_in(lang)),
        "approximation": v.approximation_in(lang),
        # right by another published convention (status convention), or correct and nearer another convention's
        # value: {key, source, own_value, label}; None otherwise
        "convention": v.convention_dict(lang),
        "message": v.message_in(lang),
        # nothing graded (an unreadable answer, a bare number that needs its unit): the answer and its worked
        # solution stay hidden, as in the text output and the app, so the learner can try again
        "solution": [] if v.status == Status.INVALID else list(s.solution_lines(lang)),
        **({"world": c.world.to_dict()} if c.world is not None else {}),
        **({"fixed_conventions": c.problem.fixed_conventions} if c.problem.fixed else {}),
    }


def ambiguity(v: Verdict, s: Step) -> dict[str, Any] | None:
    """How a form with two readings was read: ``{chosen, other, b_readings}`` (``other`` None when both readings give
    the graded value: a B is a billion or bytes by the dimension asked), or None for a form with one reading."""
    p = v.parsed
    if p is None or (p.alt is None and not p.b_readings):
        return None
    from engine.grading import display_number

    e = s.expected
    other = display_number(p.alt, e.unit_kind, e.unit) if p.alt is not None else None
    return {"chosen": v.given, "other": other if other != v.given else None,
            "b_readings": [{"typed": typed, "read_as": read_as} for typed, read_as in p.b_readings]}


def print_check(c: Checked, lang: str, as_json: bool) -> None:
    if as_json:
        print_json(check_dict(c, lang))
        return
    v = c.verdict
    from engine.messages import Twin

    if c.world is not None and c.world.chosen:
        print(c.world.line(lang))
    if line := conventions_line(c.problem, lang):
        print(line)
    if c.problem.is_chain:
        n, of = c.step_index + 1, len(c.problem.steps)
        print(Twin(f"Step {n} of {of}: ", f"第 {n}/{of} 步：").text(lang) + c.graded_step.prompt(lang))
    print(v.message_in(lang))  # it opens with the status ("Wrong: ...", "错误：...")
    if c.hint and c.quality is not None:
        print(Twin(f"Hint {c.hint} taken: graded {v.quality}, capped at {c.quality}." if c.quality < (v.quality or 0)
                   else f"Hint {c.hint} taken: graded {c.quality}.",
                   f"用了提示 {c.hint}：系统评分 {v.quality}，上限 {c.quality}。" if c.quality < (v.quality or 0)
                   else f"用了提示 {c.hint}：评分 {c.quality}。").text(lang))
    reading = v.parsed.notes_in(lang) if v.parsed is not None else ()  # the approximation is in the message
    if reading:
        print(Twin("Read as: ", "读取为：").text(lang) + Twin("; ", "；").text(lang).join(reading))
    if v.status == Status.INVALID:
        return  # nothing was graded: the solution stays hidden so the learner can try again
    print(Twin("\nSolution:", "\n解答：").text(lang))
    for line in c.graded_step.solution_lines(lang):
        print(f"  {line}")


def run_check(args: argparse.Namespace) -> int:
    c = grade_check(args)
    lang = lang_of(args)
    print_check(c, lang, args.json)
    if not args.record:  # the profile is only read for its language: graded all the same, and said
        from drill.core.i18n import t
        from drill.core.paths import profile_problem

        if (problem := profile_problem(args, lang)) is not None:
            print(f"drill: {t('check.profile_unread', lang, why=problem)}", file=sys.stderr)
        return 0
    from drill.commands.paper import record_check

    return record_check(args, c.problem, c.step, c.verdict, c.typed, c.seconds, c.hint)
