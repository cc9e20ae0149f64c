"""Daily snapshots of a whole profile: ``ROOT/NAME.snapshots/YYYY-MM-DD/``, the newest :data:`layout.SNAPSHOT_DAYS`.

The first writer to open a profile on a day (the day comes from the caller's
clock: time is injected) copies the profile as it is then.  A full log file
never changes again, so the snapshot hard-links it, its journal and its digest
(no copy: cheap at 200,000 reviews); the state, the mocks and the newest log
file and journal are small and copied, and everything is copied where links
fail (another file system, a folder without hard links).  Snapshots live beside the profile folder, so an import that
replaces the profile keeps them.  ``drill doctor --repair`` reads them after a
file's backups; by hand, copy a snapshot folder over the profile folder.

A snapshot is built in a temporary folder and renamed into place, so a crash
leaves a whole snapshot or none; one that cannot be made (a full disk) is
skipped without a word: it is a spare copy, and the save files are untouched.

Retention is by count, never by the distance from today: the clock that names a
snapshot is the learner's, and one run a year ahead (or behind) must not make every
other snapshot look a year old.  A run removes at most one snapshot: a copy identical
to a newer one if there is such (same files, sizes and times: nothing is lost), else
the oldest by name; so a jumped clock costs at most the one generation its own
snapshot pushes out.
"""

from __future__ import annotations

import os
import shutil
from datetime import date
from pathlib import Path

from . import layout
from .layout import SEGMENT_FILE

_SKIP = (".bak", ".bak2", ".bak3", ".tmp", ".damaged")


def folder_of(root: Path, name: str) -> Path:
    return Path(root) / f"{name}.snapshots"


def snapshots(root: Path, name: str) -> list[Path]:
    """The profile's snapshots, newest first."""
    base = folder_of(root, name)
    try:
        found = [p for p in base.iterdir() if p.is_dir() and _day(p.name) is not None]
    except OSError:
        return []
    return sorted(found, key=lambda p: p.name, reverse=True)


def _day(text: str) -> date | None:
    try:
        return date.fromisoformat(text) if len(text) == 10 else None
    except ValueError:
        return None


def _place(src: Path, dst: Path, copy: bool) -> None:
    if not copy:
        try:
            os.link(src, dst)
            return
        except OSError:  # no hard links here: copied instead
            pass
    shutil.copy2(src, dst)


def take(root: Path, name: str, today: date, newest_segment: int | None) -> Path | None:
    """Today's snapshot of profile ``name`` if there is none yet (then at most one snapshot beyond the kept
    count is removed: :func:`prune`); the new snapshot's folder, or None."""
    base = folder_of(root, name)
    target = base / today.isoformat()
    made = None
    if not target.exists():
        tmp = base / f".{today.isoformat()}.tmp"
        try:
            shutil.rmtree(tmp, ignore_errors=True)
            (tmp / "reviews").mkdir(parents=True)
            profile = Path(root) / name
            for sub in ("", "reviews"):
                for f in sorted((profile / sub).iterdir()):
                    if not f.is_file() or f.name.startswith(".") or f.name.endswith(_SKIP):
                        continue
                    # a full log file (and its journal and digest) never changes again: linked; the rest (the
                    # state, the mocks, the newest log file) is small and copied, so that an edit in place
                    # (a hex editor) of the profile's file cannot reach the snapshot's
                    full = (sub == "reviews" and f.stem.isdigit() and newest_segment is not None
                            and int(f.stem) < newest_segment)
                    _place(f, tmp / sub / f.name, copy=not full)
            os.replace(tmp, target)
            made = target
        except OSError:  # (a full disk): nothing of it is left behind
            shutil.rmtree(tmp, ignore_errors=True)
            try:
                base.rmdir()  # only if empty
            except OSError:
                pass
            return None
    prune(root, name)
    return made


def prune(root: Path, name: str) -> Path | None:
    """Remove one snapshot when there are more than :data:`SNAPSHOT_DAYS`: the older of two identical ones, else
    the oldest by name; the one removed, or None."""
    snaps = snapshots(root, name)
    if len(snaps) <= layout.SNAPSHOT_DAYS:
        return None
    seen: set[tuple] = set()
    drop = snaps[-1]
    for snap in snaps:  # newest first: a signature already seen belongs to a newer snapshot
        sig = _signature(snap)
        if sig is not None and sig in seen:
            drop = snap
        elif sig is not None:
            seen.add(sig)
    shutil.rmtree(drop, ignore_errors=True)
    return drop


def _signature(snap: Path) -> tuple | None:
    """What a snapshot holds, by its files' names, sizes and modification times (copies keep the time, links
    share it; a save file is rewritten whole, so a changed file has a new time); None if unreadable."""
    try:
        return tuple(sorted((str(f.relative_to(snap)), st.st_size, st.st_mtime_ns)
                            for f in snap.rglob("*") if f.is_file() for st in (f.stat(),)))
    except OSError:
        return None


def copies_of(path: Path) -> list[Path]:
    """The copies of save file ``path`` (``ROOT/NAME/...``) in the profile's snapshots, newest first."""
    path = Path(path)
    in_reviews = path.parent.name == "reviews" and (SEGMENT_FILE.fullmatch(path.name) is not None
                                                    or path.suffix == ".journal")  # (not mocks.journal)
    profile = path.parent.parent if in_reviews else path.parent
    rel = Path("reviews", path.name) if in_reviews else Path(path.name)
    return [s / rel for s in snapshots(profile.parent, profile.name) if (s / rel).is_file()]
