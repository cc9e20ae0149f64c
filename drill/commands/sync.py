"""``drill sync DIR`` (and ``drill import --merge FILE``): keep copies of a profile on several machines in step.

Each copy is a replica; through a folder the user already shares (Syncthing, Dropbox, a git repository) each
writes only its own file, ``DIR/<replica>.json``, and merges the others' in (``drill.core.sync``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.storage import Profile
    from engine.storage.merging import Report


def register(subparsers) -> None:
    p = subparsers.add_parser("sync", help="merge the profile's other copies from a shared folder, write this one's",
                              description="Merge every other copy's file in DIR (a folder Syncthing, Dropbox or "
                                          "git shares between your machines) into this profile, then write this "
                                          "copy's own file there (DIR/<replica>.json). Nothing is dropped: reviews "
                                          "are united, each item's schedule replayed in time order.")
    p.add_argument("dir", metavar="DIR")
    p.set_defaults(func=run_sync)


# drill sync's and drill import --merge's lines, in English and Chinese
SYNC_TEXT = {
    "no_dir": ("{dir} is not a folder; nothing was synced", "{dir} 不是文件夹；未同步任何内容"),
    "refused": ("left out {name}: {why}", "已跳过 {name}：{why}"),
    "merged": ("Merged {files} into profile '{profile}': {added} added, {mocks} added, {replayed} rescheduled.",
               "已将 {files} 合并进档案“{profile}”：新增 {added} 条复习记录、{mocks} 次模拟面试，{replayed} 个条目重新排期。"),
    "nothing": ("nothing new", "无新内容"),
    "conflicts": ("{n} reviews recorded twice with different content were kept both ways: {which}",
                  "{n} 条复习记录在两处内容不同，两份都已保留：{which}"),
    "settings": ("settings set differently on two copies (one value kept, the same on every copy; check them "
                 "with `drill plan`): {which}",
                 "设置在两份副本中不同（保留其中一个值，各副本一致；请用 `drill plan` 核对）：{which}"),
    "wrote": ("Wrote {path}.", "已写入 {path}。"),
    "not_merged": ("{source}: {why}; nothing was merged", "{source}：{why}；未合并任何内容"),
}


def _fail(message: str) -> int:
    # (drill.commands.memory says its failures so too; it imports this module for import --merge)
    print(f"drill: {message}", file=sys.stderr)
    return 1


def _not_saved(args: argparse.Namespace, error) -> str:
    """A failed write's message (path and cause), as drill import says it."""
    from drill.core.i18n import t
    from drill.core.paths import command_lang

    lang = command_lang(args)
    return t("save.not_imported", lang, why=error.text(lang))


def _text(key: str, args: argparse.Namespace, **fmt) -> str:
    from drill.core.paths import command_lang
    from engine.messages import pick

    return pick(command_lang(args), *SYNC_TEXT[key]).format(**fmt)


def _say_report(report: Report, files: str, profile: Profile, args: argparse.Namespace) -> None:
    from drill.core.paths import command_lang
    from engine.langs import ZH

    zh = command_lang(args) == ZH

    def n(count: int, one: str, many: str) -> str | int:  # "1 review", "2 reviews" (a Chinese count has no plural)
        return count if zh else f"{count} {one if count == 1 else many}"

    print(_text("merged", args, files=files or _text("nothing", args), profile=profile.name,
                added=n(report.added, "review", "reviews"), mocks=n(report.mocks, "mock interview", "mock interviews"),
                replayed=n(len(report.replayed), "item", "items")))
    if report.conflicts:
        which = ", ".join(f"{r}:{i}" for r, i in report.conflicts[:10]) + (" …" if len(report.conflicts) > 10 else "")
        print(_text("conflicts", args, n=len(report.conflicts), which=which))
    if report.settings:
        print(_text("settings", args, which=", ".join(report.settings)))


def run_sync(args: argparse.Namespace) -> int:
    from drill.core.paths import command_lang, open_profile, script_wait
    from drill.core.sync import sync_folder
    from engine.storage import SaveFailed

    folder = Path(args.dir).expanduser()
    if not folder.is_dir():
        return _fail(_text("no_dir", args, dir=folder))
    with open_profile(args.saves, args.profile, wait=script_wait(), lang=command_lang(args)) as profile:
        try:
            done = sync_folder(profile, folder)
        except SaveFailed as e:
            return _fail(_not_saved(args, e))
        for name, why in done.refused:
            print(_text("refused", args, name=name, why=why))
        _say_report(done.report, ", ".join(done.merged), profile, args)
        print(_text("wrote", args, path=done.written))
    return 0


def merge_file(profile: Profile, source: Path, args: argparse.Namespace) -> int:
    """``drill import --merge FILE``: one export merged into the profile, as ``drill sync`` merges a replica's."""
    from drill.core.sync import checked_other, merge_documents
    from engine.storage import SaveFailed

    try:
        other = checked_other(json.loads(source.read_bytes()))
    except OSError as e:
        return _fail(_text("not_merged", args, source=source, why=e.strerror or e))
    except (ValueError, RecursionError) as e:
        return _fail(_text("not_merged", args, source=source, why=e))
    try:
        report = merge_documents(profile, [other])
    except SaveFailed as e:
        return _fail(_not_saved(args, e))
    _say_report(report, source.name, profile, args)
    return 0
