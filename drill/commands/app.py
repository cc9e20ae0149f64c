"""``drill`` (no subcommand) opens Home; ``drill practice`` opens straight into today's session, and
``drill practice TEMPLATE [--seed N]`` on a fresh problem of one template (as Browse's "practise one").

The app needs a terminal: when standard input or output is not one (a pipe, cron, CI) the command refuses
with one line and status 2 instead of drawing into the pipe and waiting for keys that never come.  The
profile is opened before the app starts: a busy or damaged profile prints why and exits with status 1, and
nothing is touched.  This is the one command module that imports the app (inside :func:`run_app`).
"""

from __future__ import annotations

import argparse
import sys

from engine.langs import EN


def register(subparsers) -> None:
    p = subparsers.add_parser("practice", help="open the app straight into today's session, or on one template",
                              description="Open the app on today's practice session: due items first, "
                                          "then today's new items. With TEMPLATE, on a fresh problem of that "
                                          "template instead, recorded like any other answer.")
    p.add_argument("template", nargs="?", metavar="TEMPLATE",
                   help="practise this template alone (an id of `drill templates`)")
    p.add_argument("--seed", metavar="N", help="with TEMPLATE: the problem's seed (as `drill ask` takes it); "
                                               "default a fresh one")
    p.add_argument("--hardware", metavar="ID", help="practise on this accelerator: the roofline, decode, ZeRO and "
                                                    "fit problems draw it (an id of `drill catalogue`, your own "
                                                    "from <saves>/catalogue/ among them)")
    from drill.commands import convention_option  # (not the bank's module: the app starts without it)

    convention_option(p)
    p.add_argument("--model", metavar="ID", help="practise on this model: the weights, fit, KV cache, decode, "
                                                 "prefill and ZeRO problems draw it (an id of `drill catalogue`, "
                                                 "your own from <saves>/catalogue/ among them)")
    p.set_defaults(func=run_practice)


def in_terminal() -> bool:
    """Are standard input and output both a terminal (the app can draw and read keys), or is the app served
    to a browser (drill serve: textual-serve's process talks Textual's web driver over its pipes)?"""
    import os

    if os.environ.get("TEXTUAL_DRIVER", "").endswith(":WebDriver"):
        return True
    return all(stream is not None and stream.isatty() for stream in (sys.stdin, sys.stdout))


def run_app(args: argparse.Namespace, start: str = "home", **screen_kwargs) -> int:
    """Open the profile, run the app on the ``start`` screen (built with ``screen_kwargs``), close the profile."""
    import gc

    wanted = getattr(args, "convention", None)
    if wanted:  # a bad --convention is said first, and opens nothing
        from engine import convention_set

        try:
            convention_set.read(wanted)
        except convention_set.ConventionError as e:
            from drill.commands import UsageError

            raise UsageError("--convention: " + e.en, "--convention：" + e.zh) from None
    if not in_terminal():
        from drill.commands import UsageError

        raise UsageError("the app needs a terminal, and standard input or output is not one (a pipe, cron, CI): "
                         "run it in a terminal, or use a command (drill --help)",
                         "应用需要在终端中运行，而标准输入或输出不是终端（管道、cron、CI）：请在终端中运行，"
                         "或使用子命令（drill --help）")

    # Starting up creates many objects that live as long as the app: no garbage collection
    # until the first screen is drawn (DrillApp turns it back on); a faster first problem.
    gc.disable()
    from drill.core.paths import command_lang, open_profile

    hardware = None
    if getattr(args, "hardware", None) is not None:  # checked before the profile is opened: a typo opens nothing
        from drill.commands.catalogue import chosen_hardware

        hardware = chosen_hardware(args)
    model = None
    if getattr(args, "model", None) is not None:  # (as --hardware)
        from drill.commands.catalogue import chosen_model

        model = chosen_model(args)
    profile = open_profile(args.saves, args.profile, warn=False, lang=command_lang(args))  # Home names unused settings
    lang = args.lang or profile.settings().get("lang") or EN
    try:
        from drill.app import DrillApp
        from drill.core.context import AppContext

        ctx = AppContext(profile, lang)
        ctx.hardware = hardware or saved_hardware(profile)
        ctx.model = model or saved_model(profile)
        from drill.core.settings import saved_conventions
        from engine import convention_set

        ctx.conventions = convention_set.read(wanted or [], saved_conventions(profile))  # --convention wins
        app = DrillApp(ctx, start=start, **screen_kwargs)
        app.run()
        lang = ctx.lang  # (Ctrl+T may have switched it)
        for lost in app.unsaved.values():  # a write failed and the app closed before it could be made again
            print("drill: " + lost, file=sys.stderr)
        return app.return_code or (1 if app.unsaved else 0)
    finally:
        profile.close()
        if profile.state_behind is not None:  # the answers are in the log: said, not a failure
            from drill.core.i18n import t

            print("drill: " + t("save.state_behind_app", lang, why=profile.state_behind.text(lang)), file=sys.stderr)


def saved_hardware(profile) -> str | None:
    """The accelerator chosen in Settings, if it is still in the catalogue (a removed user file: none)."""
    saved = profile.settings().get("hardware")
    if not isinstance(saved, str):
        return None
    from drill.core.settings import known_hardware

    return saved if known_hardware(saved, profile.root) else None


def saved_model(profile) -> str | None:
    """The model chosen in Settings, if it is still in the catalogue (a removed user file: none)."""
    saved = profile.settings().get("model")
    if not isinstance(saved, str):
        return None
    from drill.core.settings import known_model

    return saved if known_model(saved, profile.root) else None


def run_practice(args: argparse.Namespace) -> int:
    template = getattr(args, "template", None)
    seed = getattr(args, "seed", None)
    if template is None:
        if seed is not None:
            from drill.commands import UsageError

            raise UsageError("--seed needs a TEMPLATE: drill practice TEMPLATE --seed N",
                             "--seed 需要指定模板：drill practice TEMPLATE --seed N")
        return run_app(args, start="practice")
    # checked before anything opens, as `drill ask` checks them: a typo or a short id gets its did-you-mean
    from drill.commands.bank import MAX_SEED, template_by_id, whole_number

    t = template_by_id(template)
    first_seed = whole_number(seed, "--seed", 0, MAX_SEED) if seed is not None else None
    return run_app(args, start="practice", items=[t.id], seed=first_seed)
