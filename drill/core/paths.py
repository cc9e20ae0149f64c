"""Where save files live, and opening a profile from the command line.

``saves_dir``: ``--saves DIR`` > ``$DRILL_SAVES`` > one default per install: drill run from its source
checkout (``make run``, ``.venv/bin/drill``: an editable install) saves into the checkout's ``saves/``; an
installed drill (``pip install``) into the user data folder (platformdirs, app name ``infra-drill``).
``drill --help``, ``drill stats`` and the Settings screen say which folder is in use (:func:`saves_note`).
"""

from __future__ import annotations

import os
import sys
from datetime import UTC
from pathlib import Path
from typing import TYPE_CHECKING

from engine.langs import EN, known_lang

if TYPE_CHECKING:
    from engine.storage import Profile

APP_NAME = "infra-drill"
DEFAULT_PROFILE = "default"
SCRIPT_WAIT = 3.0  # seconds a non-interactive command waits for a busy profile ($DRILL_LOCK_WAIT overrides)


def script_wait() -> float:
    """How long a non-interactive command waits for a profile another drill holds."""
    try:
        return max(0.0, float(os.environ.get("DRILL_LOCK_WAIT", SCRIPT_WAIT)))
    except ValueError:
        return SCRIPT_WAIT


def checkout_saves() -> Path | None:
    """The ``saves/`` folder of the source checkout this drill runs from (an editable install: its code is the
    checkout's, beside ``pyproject.toml`` and ``saves/``); None for an installed drill (its code is in
    site-packages, which has neither)."""
    root = Path(__file__).resolve().parents[2]
    saves = root / "saves"
    return saves if (root / "pyproject.toml").is_file() and saves.is_dir() else None


def saves_source(cli_value: str | None) -> tuple[Path, str]:
    """The folder holding every profile's save files, and where that choice comes from: ``option`` (--saves),
    ``env`` ($DRILL_SAVES), ``checkout`` (drill runs from its source checkout) or ``user`` (the user data
    folder of an installed drill)."""
    if cli_value is not None:
        if not cli_value.strip():
            from drill.core.usage import UsageError

            raise UsageError("--saves must name a folder, not an empty string", "--saves 必须是一个文件夹，不能为空")
        return Path(cli_value).expanduser(), "option"
    env = os.environ.get("DRILL_SAVES")
    if env:
        return Path(env).expanduser(), "env"
    checkout = checkout_saves()
    if checkout is not None:
        return checkout, "checkout"
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)), "user"


def saves_dir(cli_value: str | None) -> Path:
    """The folder holding every profile's save files."""
    return saves_source(cli_value)[0]


def saves_note(cli_value: str | None = None, lang: str = EN, folder: Path | None = None) -> str:
    """One line: the saves folder in use and why (``Progress is saved in … (this checkout's saves/)``);
    ``folder``: the folder of an open profile's saves, when known."""
    from drill.core.i18n import t

    try:
        found, source = saves_source(cli_value)
    except Exception:  # noqa: BLE001 - an empty --saves is the command's to refuse; here it is only named
        found, source = Path(cli_value or ""), "option"
    if folder is not None and folder != found:
        found, source = folder, "option"
    return t("saves.note", lang, path=found, why=t(f"saves.from_{source}", lang))


def command_lang(args) -> str:
    """The language of a command's output: its ``--lang`` (after the command or before it), else the language
    saved in the profile (read without the lock: the app may be open), else English.  One rule for every command."""
    lang = getattr(args, "sub_lang", None) or getattr(args, "lang", None)
    if lang:
        return lang
    try:
        from engine.storage import read_tables

        name = getattr(args, "profile", None)
        name = DEFAULT_PROFILE if name is None else name
        tables = read_tables(saves_dir(getattr(args, "saves", None)) / name / "state.json") or {}
        saved = (tables.get("settings") or {}).get("1", {}).get("lang")
    except Exception:  # noqa: BLE001 - a damaged or missing profile is reported by the command that opens it
        return EN
    return known_lang(saved)


def profile_problem(args, lang: str = EN) -> str | None:
    """Why the profile of a command that only reads it for its language (``drill check`` without
    ``--record``) cannot be read, in ``lang``: a damaged or unreadable state file, a saves folder that is not
    one; None when it reads (or does not exist yet)."""
    try:
        from engine.storage import read_tables

        name = getattr(args, "profile", None) or DEFAULT_PROFILE
        read_tables(saves_dir(getattr(args, "saves", None)) / name / "state.json")
    except Exception as e:  # noqa: BLE001 - whatever it is, it is said, and the command goes on
        said = getattr(e, "text", None)
        return said(lang) if callable(said) else str(e)
    return None


def missing_profile(saves: str | None, profile: str | None, lang: str = EN) -> str | None:
    """Why a command that reads what a profile holds (stats, due, doctor, export, plan) has nothing to read, in
    ``lang``: the saves folder chosen with ``--saves`` or ``$DRILL_SAVES`` does not exist, or the profile named
    with ``--profile`` does not (a typo would otherwise read as a profile with no reviews).  None when both
    exist, and for the default profile in the default folder: a fresh install reads as empty."""
    from drill.core.i18n import t
    from engine.storage.errors import saves_problem
    from engine.storage.layout import PROFILE_NAME

    root, source = saves_source(saves)
    if saves_problem(root) is not None:
        return None  # a file where a folder should be: the opening names it
    if source in ("option", "env") and not root.exists():
        return t("saves.missing", lang, path=root, why=t(f"saves.from_{source}", lang))
    name = DEFAULT_PROFILE if profile is None else profile
    if name == DEFAULT_PROFILE or not PROFILE_NAME.fullmatch(name) or (root / name).is_dir():
        return None  # (a name that is not one is refused, with its own words, by the opening)
    try:
        existing = sorted(p.name for p in root.iterdir() if PROFILE_NAME.fullmatch(p.name) and p.is_dir())
    except OSError:  # no saves folder yet (a fresh install), or one that cannot be listed: none known
        existing = []
    return t("profile.missing", lang, name=name, existing=", ".join(existing) or t("profile.none", lang))


def local_now():
    """Now, in the learner's time zone (a test moves the clock here)."""
    from datetime import datetime

    return datetime.now().astimezone()


def clock_problem(lang: str = EN) -> str | None:
    """Why answers cannot be dated now (a clock before 2000 or after 2999: a machine whose date was reset),
    in ``lang``; None when the clock is usable."""

    from drill.core.i18n import t
    from engine.storage.validation import MAX_DAY, MIN_DAY

    now = local_now()
    day, utc = now.date().isoformat(), now.astimezone(UTC).date().isoformat()
    if MIN_DAY <= day <= MAX_DAY and MIN_DAY <= utc <= MAX_DAY:
        return None
    return t("save.bad_clock", lang, now=now.strftime("%Y-%m-%d %H:%M"), lo=MIN_DAY[:4], hi=MAX_DAY[:4])


def open_profile(saves: str | None, profile: str | None, *, wait: float = 0.0, read_only: bool = False,
                 warn: bool = True, lang: str | None = None, existing: bool = False) -> Profile:
    """Open a profile for a command: a busy, damaged or misnamed profile prints
    ``drill: <why, and what to do>`` and exits with status 1 (nothing is touched).
    ``read_only``: as a reader, which needs no lock (works while the app is open).
    ``existing``: only a profile that exists (:func:`missing_profile`); otherwise it is made.
    ``warn``: name on stderr each setting whose stored value is not used (in ``lang``, else the profile's
    language); the app says it on Home instead."""
    from engine.storage import DamagedSave, LockUnusable, Profile, ProfileLocked, SavesUnusable

    if not read_only and (problem := clock_problem(lang or EN)) is not None:  # nothing it records could be dated
        print(f"drill: {problem}", file=sys.stderr)
        raise SystemExit(1)
    if existing and (problem := missing_profile(saves, profile, lang or EN)) is not None:  # nothing is made
        print(f"drill: {problem}", file=sys.stderr)
        raise SystemExit(1)
    try:
        opened = Profile.open(saves_dir(saves), DEFAULT_PROFILE if profile is None else profile, wait=wait, read_only=read_only)
        if warn and opened.ignored_settings:
            for line in ignored_lines(opened, lang or opened.settings().get("lang") or EN):
                print(f"drill: {line}", file=sys.stderr)
        if not read_only:  # the day's snapshot of the profile, by the learner's clock (a spare copy: best effort)
            opened.snapshot(local_now().date())
        if warn:  # a journal found out of step at open (and set right by a writer): said once, here
            for e in list(opened.damaged.values()):
                print(f"drill: {damaged_text(e, lang or opened.settings().get('lang') or EN)}", file=sys.stderr)
            opened.damaged.clear()
        return opened
    except SavesUnusable as e:
        print(f"drill: {e.text(lang or EN)}", file=sys.stderr)
        raise SystemExit(1) from None
    except (ProfileLocked, DamagedSave, LockUnusable, ValueError) as e:  # each words itself in English or Chinese
        said = getattr(e, "text", None)
        print(f"drill: {said(lang or EN) if callable(said) else e}", file=sys.stderr)
        raise SystemExit(1) from None
    except OSError as e:  # the saves folder or the lock cannot be made: the path and the cause
        from engine.storage import save_failed

        print(f"drill: {save_failed(e, e.filename or saves_dir(saves)).text(lang or EN)}", file=sys.stderr)
        raise SystemExit(1) from None


def damaged_key(error) -> str:
    """The drill.core.i18n message for a save file left out: damaged (restore it), or unreadable (give permission)."""
    from engine.storage import UnreadableSave

    return "save.unreadable" if isinstance(error, UnreadableSave) else "save.damaged"


def damaged_text(error, lang: str) -> str:
    """One line for a save file found damaged (or unreadable) and left out, or a journal found out of step:
    which file, why, and what to run (``drill doctor``), in ``lang``."""
    from drill.core.i18n import t
    from engine.messages import in_lang
    from engine.storage import JournalDamaged

    if isinstance(error, JournalDamaged):
        return error.text(lang)
    return t(damaged_key(error), lang, path=error.path, reason=in_lang(getattr(error, "said_reason", error.reason), lang), fix=error.fix)


def ignored_lines(profile, lang: str) -> list[str]:
    """One line per setting whose stored value is not used (``Profile.ignored_settings``): which, why, where."""
    from drill.core.i18n import t

    path = getattr(profile, "path", None)
    where = path / "state.json" if path is not None else "state.json"
    return [t("save.setting_ignored", lang, key=key, path=where, problem=problem)
            for key, problem in getattr(profile, "ignored_settings", {}).items()]
