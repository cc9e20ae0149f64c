"""``drill due``, ``drill plan``, ``drill export FILE``, ``drill import FILE``: the commands of a profile's memory.

Every command opens the profile chosen by ``--saves``/``--profile``; a busy
profile is waited for briefly (3 s, or ``$DRILL_LOCK_WAIT``), then the
command gives up with the name of the process holding it.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.langs import EN, ZH

if TYPE_CHECKING:
    from engine.storage import Profile


def register(subparsers) -> None:
    p = subparsers.add_parser("due", help="what is due today, and how many new items are available",
                              description="List the items due today (most overdue first) and the new items "
                                          "today's limit still allows.")
    p.add_argument("--json", action="store_true", help="print it as JSON")
    p.add_argument("--new-per-day", metavar="N", type=int,
                   help="change the daily limit of new items (saved in the profile; default 5)")
    p.set_defaults(func=run_due)

    p = subparsers.add_parser("plan", help="your interview date and daily limits, and what they do today",
                              description="Set or clear the interview date (no review is scheduled past it; new "
                                          "templates are paced to be met in time) and the daily limits, then show "
                                          "the plan: days left, the pace of new items, readiness by topic.")
    p.add_argument("--interview", metavar="YYYY-MM-DD", help="the day of your interview; 'none' clears it")
    p.add_argument("--new-per-day", metavar="N", help="new items a day (0-100)")
    p.add_argument("--reviews-per-day", metavar="N", help="reviews a day at most (1-10000)")
    p.add_argument("--scheduler", metavar="NAME", help="sm2 (the default) or fsrs: the algorithm that spaces "
                                                       "the reviews (FSRS replays your history)")
    p.add_argument("--retention", metavar="R", help="FSRS's desired retention, 0.80-0.97 (default 0.9): the "
                                                     "recall aimed at when a review falls due; shows its workload")
    p.add_argument("--optimize", action="store_true", help="fit FSRS's weights to your own review log (kept if "
                                                          "they predict it better than the weights in use)")
    # the world problems are drawn in, as Settings chooses it (stored in the same settings)
    p.add_argument("--hardware", metavar="ID", help="the accelerator problems draw (an id of `drill catalogue`); "
                                                    "'none' clears it")
    p.add_argument("--model", metavar="ID", help="the model problems draw (an id of `drill catalogue`); 'none' "
                                                 "clears it")
    p.add_argument("--convention", action="append", metavar="KEY=VALUE",
                   help="your convention (repeatable; e.g. bytes_per_param=18; a default value clears it)")
    p.add_argument("--json", action="store_true", help="print it as JSON")
    p.set_defaults(func=run_plan)

    p = subparsers.add_parser("import", help="replace the profile with an exported JSON file",
                              description="Read a document written by `drill export`. The whole document is "
                                          "checked first; if any part is invalid nothing changes.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--replace", action="store_true",
                   help="allowed to replace a profile that already holds reviews (export it first to keep a copy)")
    p.add_argument("--skip-future", action="store_true", help="import what is dated at most 2 days after now and "
                   "leave out the rest (an import refuses it whole otherwise, naming it)")
    p.add_argument("--merge", action="store_true", help="merge the export into the profile's history instead of "
                   "replacing it (another copy of this profile, as `drill sync` merges one)")
    p.set_defaults(func=run_import)


def fail(message: str) -> int:
    print(f"drill: {message}", file=sys.stderr)
    return 1


def _lang(args: argparse.Namespace) -> str:
    """The command's --lang (``drill check`` has its own), else the global one, else English."""
    return getattr(args, "sub_lang", None) or getattr(args, "lang", None) or EN


def said(key: str, args: argparse.Namespace, error, **fmt) -> str:
    """A message of drill.core.i18n with ``why``: the failed write (path and cause) in the command's language."""
    from drill.core.i18n import t

    return t(key, _lang(args), why=error.text(_lang(args)), **fmt)


def _warn_damaged(profile: Profile, args: argparse.Namespace) -> None:
    """Name an older log file found damaged (left out of what was read) on stderr."""
    from drill.core.paths import damaged_text

    for e in profile.damaged.values():
        print("drill: " + damaged_text(e, _lang(args)), file=sys.stderr)


def open_command_profile(args: argparse.Namespace, *, read_only: bool = False, existing: bool = False) -> Profile:
    """The profile for a command; a reader (``read_only``: due, export) needs no lock, so it works while the
    app is open, and sees the last durable state.  ``existing``: a profile or saves folder that does not exist
    is refused (due, plan, export), not made or read as empty."""
    from drill.core.paths import command_lang, open_profile, script_wait

    return open_profile(args.saves, args.profile, wait=0.0 if read_only else script_wait(), read_only=read_only,
                        lang=command_lang(args), existing=existing)


# --------------------------------------------------------------------------- #
# drill due


def due_report(profile: Profile, today: date | None = None, lang: str = EN) -> dict[str, Any]:
    """What is due on ``today`` and what new items are available, as plain data: today's session as the app
    builds it (:func:`drill.core.sessions.today_session`: the review cap, the new items in their order, the pace an
    interview date sets).  ``today`` None: the learner's local date now."""
    from datetime import time as day_time

    from drill.core import sessions, settings
    from drill.core.context import AppContext
    from question_bank import registry

    asked = today  # the clock's day: ``today`` is rebound to the context's below
    clock = None if asked is None else (lambda: datetime.combine(asked, day_time(12)).astimezone())
    ctx = AppContext(profile, lang) if clock is None else AppContext(profile, lang, clock=clock)
    today = ctx.today()
    templates = registry.all_templates()
    title = {t.id: t.title_in(lang) for t in templates}
    states = profile.states()
    s = sessions.today_session(ctx)
    rules, nxt = settings.learning(profile), s.next_due()

    def due_on(item: str) -> str:
        due = states[item].due
        assert due is not None, "a due card's template is scheduled"
        return due.isoformat()

    return {
        "date": today.isoformat(),
        "profile": profile.name,
        "due": [{"item": c.item, "title": title[c.item], "topic": c.topic, "due": due_on(c.item),
                 "overdue_days": c.overdue} for c in s.cards_of("due")],
        "held_back": s.held_back,
        "new_per_day": rules.new_per_day,
        "new_today": s.plan.new_today,
        "reviews_per_day": rules.reviews_per_day,
        "new_available": len(s.cards_of("new")),
        "new": [{"item": c.item, "title": title[c.item], "topic": c.topic} for c in s.cards_of("new")],
        "queued": [{"item": c.item, "title": title[c.item], "topic": c.topic} for c in s.cards_of("extra")],
        "next_due": nxt.isoformat() if nxt else None,
        "interview": plan_dict(s.plan),
    }


def plan_dict(plan) -> dict[str, Any] | None:
    """The interview date's figures (:class:`engine.session.Plan`) as plain data; None without a date."""
    if plan.interview is None:
        return None
    return {"date": plan.interview.isoformat(), "days_left": plan.days_left, "templates_left": plan.left,
            "pace": plan.pace, "done_by": plan.done_by, "too_many": plan.too_many}


def _overdue(days: int, lang: str = EN) -> str:
    from engine.messages import Twin

    if days == 0:
        return Twin("due today", "今天到期").text(lang)
    return Twin(f"{days} day{'s' if days != 1 else ''} overdue", f"逾期 {days} 天").text(lang)


# drill due's lines, in English and Chinese (the app's words for the same things are in drill.core.i18n)
DUE_TEXT = {
    "head": ("Due today ({date}, profile {profile}): {n}", "今天到期（{date}，档案 {profile}）：{n} 道"),
    "held": ("{k} more due, left for another day by the review cap ({cap} a day)",
             "另有 {k} 道到期，超出每日复习上限（每天 {cap} 道），留到以后"),
    "new": ("New items available today: {n} (limit {limit} a day)", "今天可学的新题：{n} 道（每天上限 {limit} 道）"),
    "queued": ("Queued from a mock, asked first: {n}", "来自模拟面试、优先练习：{n} 道"),
    "next": ("Next review due: {date}", "下一次复习：{date}"),
}


def _due_text(key: str, lang: str, **fmt) -> str:
    from engine.messages import pick

    return pick(lang, *DUE_TEXT[key]).format(**fmt)


def run_due(args: argparse.Namespace) -> int:
    from engine.storage import SaveFailed, setting_problem

    if args.new_per_day is not None and (p := setting_problem("new_per_day", args.new_per_day)):
        from drill.commands import UsageError

        raise UsageError(f"--new-per-day: {p.replace('new_per_day ', '')}")
    with open_command_profile(args, read_only=args.new_per_day is None, existing=True) as profile:
        if args.new_per_day is not None:
            try:
                profile.set_setting("new_per_day", args.new_per_day)
            except SaveFailed as e:
                return fail(said("save.limit_unchanged", args, e))
        lang = getattr(args, "lang", None) or profile.settings().get("lang") or EN
        report = due_report(profile, None, lang)
        _warn_damaged(profile, args)
    if args.json:
        json.dump(report, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
        return 0
    lines = [_due_text("head", lang, date=report["date"], profile=report["profile"], n=len(report["due"]))]
    width = max((len(d["item"]) for d in report["due"] + report["new"] + report["queued"]), default=0)
    lines += [f"  {d['item']:<{width}}  {d['title']}  ({_overdue(d['overdue_days'], lang)})" for d in report["due"]]
    if report["held_back"]:
        lines.append(_due_text("held", lang, k=report["held_back"], cap=report["reviews_per_day"]))
    if report["queued"]:
        lines.append(_due_text("queued", lang, n=len(report["queued"])))
        lines += [f"  {n['item']:<{width}}  {n['title']}" for n in report["queued"]]
    lines.append(_due_text("new", lang, n=report["new_available"], limit=report["new_today"]))
    lines += [f"  {n['item']:<{width}}  {n['title']}" for n in report["new"]]
    if not report["due"] and report["next_due"]:
        lines.append(_due_text("next", lang, date=report["next_due"]))
    print("\n".join(lines))
    return 0


# --------------------------------------------------------------------------- #
# drill plan


def run_plan(args: argparse.Namespace) -> int:
    from drill.commands import UsageError
    from drill.core import fsrs_tuning, home_figures, readiness_view, sessions, settings
    from drill.core.context import AppContext, utc_now
    from drill.core.i18n import t
    from engine.schedule.fsrs_fit import TooFew
    from question_bank import registry

    changes: dict[str, Any] = {}
    today = utc_now().astimezone().date()  # AppContext.today(), before the profile is open
    for option, key in (("interview", settings.INTERVIEW_KEY), ("new_per_day", "new_per_day"),
                        ("reviews_per_day", settings.REVIEWS_KEY), ("scheduler", settings.SCHEDULER_KEY),
                        ("retention", settings.RETENTION_KEY)):
        text = getattr(args, option)
        if text is None:
            continue
        if key == settings.INTERVIEW_KEY and text.strip().lower() in ("none", ""):
            changes[key] = None
            continue
        value, problem = settings.parse_setting(key, text, today)
        if problem is not None:
            flag = f"--{option.replace('_', '-')}"
            raise UsageError(f"{flag}: {_problem(problem, key)}", f"{flag}：{_problem(problem, key, ZH)}")
        changes[key] = value
    changes |= _world_changes(args, today)
    from engine.storage import SaveFailed

    with open_command_profile(args, read_only=not changes and not args.optimize, existing=True) as profile:
        try:
            if settings.CONVENTIONS_KEY in changes:  # each --convention over the conventions saved
                changes[settings.CONVENTIONS_KEY] = _conventions_over(args, settings.saved_conventions(profile))
            if changes:
                profile.set_settings(changes)  # all of them, or none
        except SaveFailed as e:
            return fail(said("save.plan_unchanged", args, e))
        lang = args.lang or profile.settings().get("lang") or EN
        from engine.storage import DamagedSave

        try:
            fit = _optimize(profile, today, lang, args) if args.optimize else None
        except SaveFailed as e:
            return fail(said("save.plan_unchanged", args, e))
        except DamagedSave as e:  # the log cannot be read: nothing fitted (drill doctor says more)
            return fail(e.text(lang))
        ctx = AppContext(profile, lang)
        f = home_figures.today_figures(ctx)
        rules = settings.learning(profile)
        session = sessions.today_session(ctx)
        try:
            ready, calibration = readiness_view.readiness_report(profile, ctx.today(), rules.interview)
        except DamagedSave as e:  # an older log file cannot be read: the plan without the readiness
            from drill.core.paths import command_lang

            print("drill: " + e.text(command_lang(args)), file=sys.stderr)
            ready = calibration = None
    plan = f.plan
    assert plan is not None, "today_figures builds the day's session and its plan"
    warmup = [i for i, _ in session.warmup] if session.interview_day else None
    fsrs = fsrs_tuning.report(profile, rules.new_per_day, len(sessions.catalog()))
    if fit is not None:  # what --optimize did (TooFew: have, need)
        fsrs["optimize"] = fit._asdict() if isinstance(fit, TooFew) else {**fit.to_setting(), "kept": fit.kept}
    from drill.core.world import chosen_world

    world = chosen_world(profile.settings())
    report = {"date": ctx.today().isoformat(), "profile": profile.name, "new_per_day": rules.new_per_day,
              "reviews_per_day": rules.reviews_per_day, "scheduler": rules.scheduler, "new_today": plan.new_today,
              "templates_left": plan.left, "interview": plan_dict(plan), "warmup": warmup,
              "ready_templates": {topic: {"ready": r, "templates": n} for topic, (r, n) in f.readiness.items()},
              "readiness": None if ready is None else {**ready.to_dict(), "calibration": calibration.to_dict()},
              "fsrs_tuning": fsrs, "world": world.to_dict()}
    if args.json:
        json.dump(report, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
        return 0
    from engine.messages import Twin, pick
    from engine.schedule.fsrs_bridge import Scheduler
    from engine.session import PACE_WARNING

    tr = lambda key, **fmt: t(key, lang, **fmt)  # noqa: E731
    lines = [Twin(f"New items a day: {rules.new_per_day}; reviews a day at most: {rules.reviews_per_day}",
                  f"每天新题 {rules.new_per_day} 道，每天最多复习 {rules.reviews_per_day} 道").text(lang),
             tr("plan.scheduler", name="FSRS" if rules.scheduler == Scheduler.FSRS else "SM-2"), world.line(lang),
             *fsrs_tuning.lines(profile, lang, rules.new_per_day, len(sessions.catalog()))]
    if plan.interview is None:
        lines.append(tr("settings.no_interview"))
    else:
        lines.append(readiness_view.interview_line(plan, tr))
        if plan.active and plan.left:
            lines.append(readiness_view.pace_line(plan, tr))
            if plan.too_many:
                lines.append(Twin("Warning: ", "注意：").text(lang) + tr("home.pace_warning", limit=PACE_WARNING))
            if plan.behind:
                most = settings.SETTING_BOUNDS["new_per_day"][1]
                assert plan.pace is not None, "behind only when there is a pace"
                lines.append(tr("plan.accept", pace=plan.pace) if plan.pace <= most else
                             tr("plan.accept_over", most=most))
        if warmup is not None:
            titles = [registry.get(i).title_in(lang) for i in warmup]
            lines.append(tr("plan.warmup", items=pick(lang, "; ", "、").join(titles) or "-"))
    if ready is not None:
        lines += readiness_view.readiness_lines(ready, calibration, tr, lang)
    print("\n".join(lines))
    return 0


def _optimize(profile: Profile, today, lang: str, args: argparse.Namespace):
    """``drill plan --optimize``: say it starts (the fit of a long log takes a moment), fit, say what it did."""
    from drill.core import fsrs_tuning
    from engine.schedule.fsrs_fit import MAX_REVIEWS

    print(fsrs_tuning.say("start", lang, most=MAX_REVIEWS), file=sys.stderr if args.json else sys.stdout, flush=True)
    result = fsrs_tuning.optimize(profile, today)
    if not args.json:
        print(fsrs_tuning.result_line(result, lang))
    return result


def _world_changes(args: argparse.Namespace, today) -> dict[str, Any]:
    """The settings ``--hardware``, ``--model`` and ``--convention`` change (checked as Settings checks them;
    the conventions are merged over the saved ones once the profile is open: :func:`_conventions_over`)."""
    from drill.commands import UsageError, shown_arg
    from drill.core import settings
    from drill.core.paths import saves_dir

    changes: dict[str, Any] = {}
    for option, key in (("hardware", settings.HARDWARE_KEY), ("model", settings.MODEL_KEY)):
        text = getattr(args, option, None)
        if text is None:
            continue
        text = "" if text.strip().lower() == "none" else text
        value, problem = settings.parse_setting(key, text, today, saves_dir(getattr(args, "saves", None)))
        if problem is not None:
            what = ("accelerator", "加速器") if option == "hardware" else ("model", "模型")
            raise UsageError(f"--{option}: {shown_arg(text)} is no {what[0]} of the catalogue (see `drill catalogue`)",
                             f"--{option}：{shown_arg(text)} 不是目录中的{what[1]}（见 `drill catalogue`）")
        changes[key] = value
    if args.convention:
        _conventions_over(args, {})  # a bad one is refused before the profile is opened
        changes[settings.CONVENTIONS_KEY] = None  # (filled in over the saved ones)
    return changes


def _conventions_over(args: argparse.Namespace, saved: dict[str, str]) -> dict[str, str]:
    from drill.commands import UsageError
    from engine import convention_set

    try:
        return convention_set.read(args.convention or [], saved)
    except convention_set.ConventionError as e:
        raise UsageError("--convention: " + e.en, "--convention：" + e.zh) from None


def _problem(key: str, setting: str, lang: str = EN) -> str:
    from drill.core import settings
    from engine.messages import pick

    if key == "settings.bad_number":
        lo, hi = settings.SETTING_BOUNDS[setting]
        return pick(lang, f"a whole number {lo}-{hi}, please", f"请输入 {lo}-{hi} 之间的整数")
    words = {"settings.bad_date": ("a date YYYY-MM-DD (or none), please", "请输入日期 YYYY-MM-DD（或 none）"),
             "settings.past_date": ("the date must be after today", "日期必须在今天之后"),
             "settings.bad_scheduler": ("sm2 or fsrs, please", "请输入 sm2 或 fsrs"),
             "settings.bad_retention": ("a number from 0.80 to 0.97, please", "请输入 0.80 到 0.97 之间的数")}
    return pick(lang, *words[key])


# --------------------------------------------------------------------------- #
# drill export / import


def export_target(file: str) -> Path:
    """Where ``drill export FILE`` writes: a file; an empty name or a folder is a usage error."""
    from drill.commands import UsageError, shown_arg

    if not file.strip():
        raise UsageError("export: FILE must not be empty (give the file to write, or - for standard output)",
                         "export：FILE 不能为空（请给出要写入的文件，或用 - 表示标准输出）")
    target = Path(file).expanduser()
    if target.is_dir() or file.endswith(("/", "\\")) or target.name in ("", ".", ".."):
        raise UsageError(f"export: {shown_arg(file)} is a folder: give the file to write, e.g. "
                         f"{target / 'profile.json'}",
                         f"export：{shown_arg(file)} 是一个文件夹：请给出要写入的文件，例如 {target / 'profile.json'}")
    if target.exists() and not target.is_file():  # a device or a pipe: replacing it would destroy it (as root)
        raise UsageError(f"export: {shown_arg(file)} is not a regular file: give the file to write",
                         f"export：{shown_arg(file)} 不是普通文件：请给出要写入的文件")
    return target


def run_export_json(args: argparse.Namespace) -> int:
    """``drill export FILE``: the whole profile as one JSON document (drill/commands/export.py parses the command)."""
    from engine.storage import DamagedSave, SaveFailed, atomic_write

    target = None if args.file == "-" else export_target(args.file)  # refused before the profile is read
    counts: dict = {}
    with open_command_profile(args, read_only=True, existing=True) as profile:  # streamed from the log one file at a time (bounded memory)
        try:
            if target is None:
                for chunk in profile.export_chunks(counts):
                    sys.stdout.write(chunk)
                sys.stdout.write("\n")
                return 0
            atomic_write(target, (c.encode("utf-8") for c in _with_newline(profile.export_chunks(counts))),
                         backup=False)
        except DamagedSave as e:  # (to a file: nothing written, no temporary file left)
            from drill.core.paths import command_lang

            return fail(e.text(command_lang(args)))
        except SaveFailed as e:  # the folder is left as it was: no half-written or temporary file
            return fail(said("save.not_exported", args, e))
        name = profile.name
    print(f"Exported profile '{name}' to {target}: {_counts(counts)}.")
    return 0


def _with_newline(chunks):
    yield from chunks
    yield "\n"


def _counts(doc: dict) -> str:
    """``3 items, 1 review, 0 mock interviews``: the counts of an exported document (or of ``export_chunks``'
    counts), singular for one."""
    def n(key: str, count_key: str) -> int:
        return doc[count_key] if count_key in doc and isinstance(doc[count_key], int) else len(doc[key])

    return ", ".join(f"{k} {word if k == 1 else words}" for k, word, words in (
        (n("states", "items"), "item", "items"), (n("reviews", "reviews"), "review", "reviews"),
        (n("mocks", "mocks"), "mock interview", "mock interviews")))


MAX_IMPORT_BYTES = 1 << 30  # an export of a lifetime of reviews is far smaller


# drill import's lines, in English and Chinese (a failed write says its path and cause: drill.core.i18n's save.*)
IMPORT_TEXT = {
    "not_file": ("{source} is not a regular file ({what}): not an export; nothing was imported",
                 "{source} 不是普通文件（{what}），不是导出文件；未导入任何内容"),
    "too_large": ("{source} is larger than {mb} MB: not an export; nothing was imported",
                  "{source} 大于 {mb} MB，不是导出文件；未导入任何内容"),
    "unreadable": ("cannot read {source}: {why}; nothing was imported", "无法读取 {source}：{why}；未导入任何内容"),
    "not_json": ("{source} is not valid JSON ({why}); nothing was imported",
                 "{source} 不是有效的 JSON（{why}）；未导入任何内容"),
    "too_deep": ("{source} is nested too deeply to be an export; nothing was imported",
                 "{source} 嵌套过深，不是导出文件；未导入任何内容"),
    "has_history": ("profile '{profile}' already holds a history; nothing was imported. Run `drill export FILE` to "
                    "keep a copy, then `drill import --replace` to overwrite it",
                    "档案“{profile}”已有学习记录；未导入任何内容。请先运行 `drill export FILE` 保留一份副本，再用 "
                    "`drill import --replace` 覆盖它"),
    "refused": ("{source}: {why}; nothing was imported", "{source}：{why}；未导入任何内容"),
    "done": ("Imported {source} into profile '{profile}': {counts}.", "已将 {source} 导入档案“{profile}”：{counts}。"),
}


def _import_text(key: str, args: argparse.Namespace, **fmt) -> str:
    from drill.core.paths import command_lang
    from engine.messages import pick

    return pick(command_lang(args), *IMPORT_TEXT[key]).format(**fmt)


def _kind_of(mode: int, args: argparse.Namespace) -> str:
    """What a path that is not a regular file is (``a folder``, ``a named pipe``...), in the command's language."""
    import stat

    from drill.core.paths import command_lang

    en, zh = (("a folder", "文件夹") if stat.S_ISDIR(mode) else ("a named pipe", "命名管道") if stat.S_ISFIFO(mode)
              else ("a device", "设备") if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
              else ("a socket", "套接字") if stat.S_ISSOCK(mode) else ("not a file", "不是文件"))
    from engine.messages import pick

    return pick(command_lang(args), en, zh)


def run_import(args: argparse.Namespace) -> int:
    """``drill import FILE``: the file is read as it is checked and written (``Profile.import_file``: bounded
    memory), after the profile is opened; any problem leaves the profile as it was."""
    import stat

    source = Path(args.file).expanduser()
    try:
        st = source.stat()  # before opening: a named pipe would block, /dev/zero never end
        if not stat.S_ISREG(st.st_mode):
            return fail(_import_text("not_file", args, source=source, what=_kind_of(st.st_mode, args)))
        if st.st_size > MAX_IMPORT_BYTES:
            return fail(_import_text("too_large", args, source=source, mb=MAX_IMPORT_BYTES >> 20))
        f = open(source, "rb")  # noqa: SIM115 - closed by the with below, once the checks above have passed
    except OSError as e:
        return fail(_import_text("unreadable", args, source=source, why=e.strerror or e))
    made = _not_made(args)
    code = 1
    try:
        with f, open_command_profile(args) as profile:
            code = _import_into(profile, f, args, source)
    finally:
        if code:  # a failed import into a new profile leaves no folder behind
            _unmake(args, made)
    return code


def _import_into(profile: Profile, f, args: argparse.Namespace, source: Path) -> int:
    from drill.core import context, i18n
    from drill.core.paths import command_lang
    from engine.storage import FutureDated, InvalidDocument, SaveFailed
    from engine.storage.jsonstream import StreamError

    if getattr(args, "merge", False):
        from drill.commands.sync import merge_file

        return merge_file(profile, source, args)
    if not profile.is_empty() and not args.replace:
        return fail(_import_text("has_history", args, profile=profile.name))
    try:  # at most MAX_IMPORT_BYTES are read, whatever the file grows to meanwhile
        counts = profile.import_file(f, now=context.utc_now(), skip_future=args.skip_future, max_bytes=MAX_IMPORT_BYTES)
    except StreamError as e:
        if e.kind == "deep":
            return fail(_import_text("too_deep", args, source=source))
        if e.kind == "large" and e.where == "":
            return fail(_import_text("too_large", args, source=source, mb=MAX_IMPORT_BYTES >> 20))
        if e.kind == "read":
            return fail(_import_text("unreadable", args, source=source, why=e.reason))
        if e.kind == "shape":
            return fail(_import_text("refused", args, source=source, why=e.reason))
        return fail(_import_text("not_json", args, source=source, why=e))
    except FutureDated as e:
        return fail(i18n.future_dated(e, source, command_lang(args)))
    except InvalidDocument as e:
        return fail(_import_text("refused", args, source=source, why=e))
    except SaveFailed as e:
        return fail(said("save.not_imported", args, e))
    print(_import_text("done", args, source=source, profile=profile.name, counts=_counts(counts)))
    if counts.get("left_out"):
        print(i18n.left_out(counts["left_out"], command_lang(args)))
    return 0


def _made_by_opening(args: argparse.Namespace) -> tuple[Path, str, list[Path]]:
    """The saves folder, the profile's name, and what opening it as a writer makes: its folder, lock file and
    snapshots' folder."""
    from drill.core.paths import DEFAULT_PROFILE, saves_dir

    root = saves_dir(args.saves)
    name = DEFAULT_PROFILE if args.profile is None else args.profile
    return root, name, [root / name, root / f"{name}.lock", root / f"{name}.snapshots"]


def _not_made(args: argparse.Namespace) -> list[Path]:
    """What opening the profile would make that is not there yet (all of it for a new profile), and the saves
    folder with its parents, deepest first, when they are not there either."""
    try:
        root, _, parts = _made_by_opening(args)
    except Exception:  # noqa: BLE001 - a saves folder or name the opening refuses: it makes nothing
        return []
    folders = [root, *root.parents]
    return [p for p in [*parts, *folders[:next(i for i, f in enumerate(folders) if f.exists() or f.is_symlink())]]
            if not p.exists() and not p.is_symlink()]


def _unmake(args: argparse.Namespace, made: list[Path]) -> None:
    """Remove what opening the profile made (``made``: :func:`_not_made` before it) for an import that failed.
    Only folders that hold nothing but empty folders go, under the profile's lock: a drill that opened the
    profile meanwhile keeps it and what it wrote."""
    import shutil

    from engine.storage import LockUnusable, ProfileLock, ProfileLocked

    if not made:
        return
    root, name, _ = _made_by_opening(args)
    try:
        lock = ProfileLock.acquire(root / f"{name}.lock", name, 0.0)
    except (ProfileLocked, LockUnusable, OSError):  # in use now, or the lock cannot be taken: left as it is
        return
    try:
        for path in made:
            # nothing in it but empty folders and the manifest that opening wrote (it lists no part yet)
            if path.parent == root and path.is_dir() and all(p.is_dir() or p.name.startswith("manifest.json")
                                                              for p in path.rglob("*")):
                shutil.rmtree(path, ignore_errors=True)
        if lock.path in made:  # removed while held: a drill that waited for it makes its own
            lock.path.unlink(missing_ok=True)
    finally:
        lock.release()
    for path in made:  # the saves folder made for it, and its parents: only if nothing else came into them
        if path.parent != root:
            try:
                path.rmdir()
            except OSError:
                return
