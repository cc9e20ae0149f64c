"""Where save files live, and opening a profile from the command line.

``saves_dir``: ``--saves DIR`` > ``$DRILL_SAVES`` > the user data folder
(platformdirs, app name ``infra-drill``).  ``make run`` sets ``DRILL_SAVES`` to
the repository's ``saves/``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from engine.langs import known_lang

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


def saves_dir(cli_value: str | None) -> Path:
    """The folder holding every profile's save files."""
    if cli_value is not None:
        if not cli_value.strip():
            from drill.core.usage import UsageError

            raise UsageError("--saves must name a folder, not an empty string", "--saves 必须是一个文件夹，不能为空")
        return Path(cli_value).expanduser()
    env = os.environ.get("DRILL_SAVES")
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def command_lang(args) -> str:
    """The language of a command's output: its ``--lang`` (after the command or before it), else the language
    saved in the profile (read without the lock: the app may be open), else English.  One rule for every command."""
    lang = getattr(args, "sub_lang", None) or getattr(args, "lang", None)
    if lang:
        return lang
    try:
        from engine.storage import read_tables

        name = getattr(args, "profile", None) or DEFAULT_PROFILE
        tables = read_tables(saves_dir(getattr(args, "saves", None)) / name / "state.json") or {}
        saved = (tables.get("settings") or {}).get("1", {}).get("lang")
    except Exception:  # noqa: BLE001 - a damaged or missing profile is reported by the command that opens it
        return "en"
    return known_lang(saved)


def local_now():
    """Now, in the learner's time zone (a test moves the clock here)."""
    from datetime import datetime

    return datetime.now().astimezone()


def clock_problem(lang: str = "en") -> str | None:
    """Why answers cannot be dated now (a clock before 2000 or after 2999: a machine whose date was reset),
    in ``lang``; None when the clock is usable."""
    from datetime import timezone

    from drill.core.i18n import t
    from engine.storage.validation import MAX_DAY, MIN_DAY

    now = local_now()
    day, utc = now.date().isoformat(), now.astimezone(timezone.utc).date().isoformat()
    if MIN_DAY <= day <= MAX_DAY and MIN_DAY <= utc <= MAX_DAY:
        return None
    return t("save.bad_clock", lang, now=now.strftime("%Y-%m-%d %H:%M"), lo=MIN_DAY[:4], hi=MAX_DAY[:4])


def open_profile(saves: str | None, profile: str | None, *, wait: float = 0.0,
                 read_only: bool = False, warn: bool = True, lang: str | None = None) -> "Profile":
    """Open a profile for a command: a busy, damaged or misnamed profile prints
    ``drill: <why, and what to do>`` and exits with status 1 (nothing is touched).
    ``read_only``: as a reader, which needs no lock (works while the app is open).
    ``warn``: name on stderr each setting whose stored value is not used (in ``lang``, else the profile's
    language); the app says it on Home instead."""
    from engine.storage import DamagedSave, LockUnusable, Profile, ProfileLocked, SavesUnusable

    if not read_only and (problem := clock_problem(lang or "en")) is not None:  # nothing it records could be dated
        print(f"drill: {problem}", file=sys.stderr)
        raise SystemExit(1)
    try:
        opened = Profile.open(saves_dir(saves), profile or DEFAULT_PROFILE, wait=wait, read_only=read_only)
        if warn and opened.ignored_settings:
            for line in ignored_lines(opened, lang or opened.settings().get("lang") or "en"):
                print(f"drill: {line}", file=sys.stderr)
        return opened
    except SavesUnusable as e:
        print(f"drill: {e.text(lang or 'en')}", file=sys.stderr)
        raise SystemExit(1) from None
    except (ProfileLocked, DamagedSave, LockUnusable, ValueError) as e:  # each words itself in English or Chinese
        said = getattr(e, "text", None)
        print(f"drill: {said(lang or 'en') if callable(said) else e}", file=sys.stderr)
        raise SystemExit(1) from None
    except OSError as e:  # the saves folder or the lock cannot be made: the path and the cause
        from engine.storage import save_failed

        print(f"drill: {save_failed(e, e.filename or saves_dir(saves)).text(lang or 'en')}", file=sys.stderr)
        raise SystemExit(1) from None


def damaged_key(error) -> str:
    """The drill.core.i18n message for a save file left out: damaged (restore it), or unreadable (give permission)."""
    from engine.storage import UnreadableSave

    return "save.unreadable" if isinstance(error, UnreadableSave) else "save.damaged"


def ignored_lines(profile, lang: str) -> list[str]:
    """One line per setting whose stored value is not used (``Profile.ignored_settings``): which, why, where."""
    from drill.core.i18n import t

    path = getattr(profile, "path", None)
    where = path / "state.json" if path is not None else "state.json"
    return [t("save.setting_ignored", lang, key=key, path=where, problem=problem)
            for key, problem in getattr(profile, "ignored_settings", {}).items()]
