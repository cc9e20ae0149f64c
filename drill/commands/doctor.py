"""``drill doctor [--repair] [--json]``: check every file of a profile; with ``--repair`` restore the damaged ones.

The checks and repairs are :mod:`engine.storage.doctor`'s; this module opens
the profile folder (checking needs no lock: it works while the app is open;
repairing takes the profile's lock), prints what was found in plain words in
the command's language, and exits 0 when every file is whole (or was repaired
whole), 1 when damage is left (found without ``--repair``, or not recoverable).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.storage.doctor import Finding

def register(subparsers) -> None:
    p = subparsers.add_parser("doctor", help="check every save file of a profile; --repair restores damaged ones",
                              description="Check every file of the profile (checksum, layout, rows, and the "
                                          "references between them) and say what was found. With --repair, "
                                          "restore each damaged file from the newest good source (its journal, "
                                          "then its backups) without losing the newest review, and say what, if "
                                          "anything, could not be recovered. Damaged files are kept as .damaged.")
    p.add_argument("--repair", action="store_true", help="restore the damaged files")
    p.add_argument("--json", action="store_true", help="print the findings as JSON")
    p.set_defaults(func=run_doctor)


def run_doctor(args: argparse.Namespace) -> int:
    from drill.core.paths import DEFAULT_PROFILE, command_lang, missing_profile, saves_dir
    from engine.messages import say
    from engine.storage import BadProfileName, Profile, ProfileLock, ProfileLocked
    from engine.storage.doctor import FindingKind, examine, repair
    from engine.storage.errors import LockUnusable, saves_problem
    from engine.storage.layout import PROFILE_NAME

    lang = getattr(args, "sub_lang", None) or getattr(args, "lang", None) or command_lang(args)
    name = DEFAULT_PROFILE if args.profile is None else args.profile
    if not isinstance(name, str) or not PROFILE_NAME.fullmatch(name):
        print(f"drill: {BadProfileName(name).text(lang)}", file=sys.stderr)
        return 1
    if (problem := missing_profile(args.saves, name, lang)) is not None:  # not "all 0 files are whole"
        print(f"drill: {problem}", file=sys.stderr)
        return 1
    root = saves_dir(args.saves)
    if (unusable := saves_problem(root)) is not None:
        print(f"drill: {unusable.text(lang)}", file=sys.stderr)
        return 1
    folder = root / name
    lock = None
    if args.repair and folder.is_dir():
        try:
            lock = ProfileLock.acquire(root / f"{name}.lock", name, 0.0)
        except (ProfileLocked, LockUnusable) as e:
            print(f"drill: {e.text(lang)}", file=sys.stderr)
            return 1
        except OSError as e:
            from engine.storage import save_failed

            print(f"drill: {save_failed(e, e.filename or root).text(lang)}", file=sys.stderr)
            return 1
    try:
        report = examine(folder)
        if args.repair and (report.damaged or report.stale_totals):
            repair(report)
    finally:
        if lock is not None:
            lock.release()
    left: list[Finding | None] = [f for f in report.damaged
                                  if f.lost is not None or (f.repaired is None and args.repair) or not args.repair]
    unfinished = any(f.kind == FindingKind.UNFINISHED for f in report.findings)
    totals = report.stale_totals  # the statistics' running totals: made again when the profile is opened
    if args.repair and (report.damaged or unfinished or totals) and not any(f.lost for f in report.damaged):
        try:  # the repaired profile opens: the state file is rebuilt from the log now, not at the next command
            Profile.open(root, name, wait=0.0).close()
        except Exception as e:  # noqa: BLE001 - said, and left for the next run of the doctor
            said = getattr(e, "text", None)
            left.append(None)  # damage left with no finding of its own: only that something is left counts
            print(f"drill: {said(lang) if callable(said) else e}", file=sys.stderr)
        else:
            for f in report.findings:
                if f.kind == FindingKind.UNFINISHED:
                    f.repaired = say("doctor.finished")
            if totals is not None:
                totals.repaired = say("doctor.stats_rebuilt")
    if args.json:
        print(json.dumps({"profile": name, "path": str(folder), "files": report.files, "findings": [
            {"path": str(f.path), "kind": f.kind, "reason": str(f.reason), "said": f.said().text(lang),
             "repaired": f.repaired.text(lang) if f.repaired else None,
             "not_recovered": f.lost.text(lang) if f.lost else None} for f in report.findings],
            "ok": not left}, ensure_ascii=False, indent=2))
        return 0 if not left else 1
    if not report.findings:
        print(say("doctor.all_good", files=report.files, profile=name, path=str(folder)).text(lang))
        return 0
    print(say("doctor.found", profile=name, path=str(folder), n=len(report.findings)).text(lang))
    for f in report.findings:
        print(f"- {f.said().text(lang)}")
        if f.repaired is not None:
            print(say("doctor.repaired_line", what=f.repaired).text(lang))
        if f.lost is not None:
            print(say("doctor.lost_line", what=f.lost).text(lang))
    if report.damaged and not args.repair:
        print(say("doctor.run_repair").text(lang))
    elif args.repair and report.damaged and not left:
        print(say("doctor.done").text(lang))
    return 0 if not left else 1
