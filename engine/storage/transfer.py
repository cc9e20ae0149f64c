"""Import and export: a whole profile's files built from an export document read member by member (the profile
swaps them in), and the export document written piece by piece.

An import is checked and written in one pass, in bounded memory: the review
rows are checked one at a time as they are read (``jsonstream``) and written
to the new profile's log files (in a folder beside the profile) a file at a
time; only the settings, the item states and the mock results are held whole.
The first problem stops it, naming the member, the row and the field (and the
line of the file, when read from one); the half-built folder is then removed,
so a bad import never changes the profile.
"""

from __future__ import annotations

import os
import shutil
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from ..review import REPLICA_ID, legacy_replica
from ..sm2 import ItemState
from ..stats_running import Running, row_columns
from . import durable, layout, totals
from .durable import atomic_write, fsync_dir
from .errors import save_failed
from .journal import segment_meta, write_whole
from .layout import SCHEMA_VERSION, digest_path, journal_path, segment_path, stats_path
from .recent import NO_RECENT
from .sealed import dumps, seal
from .segments import file_identity, row_sum, write_digest
from .validation import checked_rows


class _LogWriter:
    """The new profile's log files, written as the rows come: ``SEGMENT_ROWS`` rows a file, each with its journal
    (every row in two places) and, once closed, its digest."""

    rows: list[dict]

    def __init__(self, folder: Path):
        self.folder, self.n, self.rows = folder, 0, []
        (folder / "reviews").mkdir(parents=True)

    def add(self, row: dict) -> None:
        if len(self.rows) >= layout.SEGMENT_ROWS:
            self._write(closed=True)
        self.rows.append(row)

    def close(self) -> None:
        if self.rows:
            self._write(closed=False)

    def _write(self, closed: bool) -> None:
        from ..digest import Digest

        self.n += 1
        seg = segment_path(self.folder, self.n)
        jsize = write_whole(journal_path(seg), self.rows, seq=1)
        tables = {"meta": {"1": segment_meta(1, jsize)}, "reviews": {str(r["id"]): r for r in self.rows}}
        atomic_write(seg, seal(dumps(tables)), backup=False)
        if closed and (identity := file_identity(seg)) is not None:
            write_digest(digest_path(seg), Digest.of_rows(self.rows), identity)  # renames keep the identity
        self.rows = []


def build_profile(members: Iterable[tuple[str, Any]], now: datetime | None, folder: Path,
                  where: Callable[[], str] | None = None, skip_future: bool = False,
                  replica: str | None = None) -> dict:
    """Check an export document given as its members (``validation.checked_rows``) and write it as a new profile
    folder ``folder``, synced, the rows a log file at a time as they are read.  ``InvalidDocument`` names the
    first problem (the folder is then left half-built for the caller to remove).  Returns the counts of items,
    reviews and mocks (and ``left_out``: what ``skip_future`` left out, when it did).  ``replica``: the id the
    manifest keeps (the replaced profile's; default: a new one)."""
    log = _LogWriter(folder)
    rest: dict[str, Any] = {}
    n_rows, last = 0, 0
    days: Counter[str] = Counter()
    recent: dict[str, Any] = {}
    running, tip_row = Running(), None  # the statistics' running totals, made as the rows come (.totals)
    source: dict[str, Any] = {}

    def noting(members):  # the export's replica (a member before its reviews)
        for key, value in members:
            if key == "replica":
                source["replica"] = value
            yield key, value

    for row in checked_rows(noting(members), now, rest, where, skip_future):
        if "origin" not in row and "replica" not in source:
            # an export from before replica ids: its rows are named as every copy of that history names them
            source["replica"] = legacy_replica(row)
        o = source.get("replica")
        if o != replica and "origin" not in row and isinstance(o, str) and REPLICA_ID.fullmatch(o):
            # another replica's rows: they keep where they came from, so a later merge with it knows them
            row = {**row, "origin": {"replica": o, "id": row["id"]}}
        n_rows, last, tip_row = n_rows + 1, row["id"], row
        running.add(row_columns(row))
        days[row["date"]] += 1
        item = row["item"]
        recent[item] = recent.get(item, NO_RECENT).after(row["quality"], row["step"], row["verdict"], row["date"])
        log.add(row)
    log.close()
    states = {str(k + 1): {"item": item, **ItemState.from_dict(st).to_dict()}
              for k, (item, st) in enumerate(sorted(rest["states"].items()))}
    next_id = last + 1
    tables = {"meta": {"1": {"schema": SCHEMA_VERSION, "kind": "state", "next_id": next_id, "undo": None}},
              "states": states, "settings": {"1": dict(rest["settings"])},
              **({"changed": {"1": rest["changed"]}} if rest["changed"] else {}),
              "days": {"1": {"next_id": next_id, "counts": dict(days)}},
              "recent": {"1": {"next_id": next_id, "items": {k: r.to_dict() for k, r in recent.items()}}}}
    atomic_write(folder / "state.json", seal(dumps(tables)), backup=False)
    totals.write(stats_path(folder), running, next_id, None if tip_row is None else [last, row_sum(tip_row)])
    ordered = [rest["mocks"][i] for i in sorted(rest["mocks"])]  # in two places, as the reviews (see .journal)
    jsize = write_whole(journal_path(folder / "mocks.json"), ordered, seq=1)
    atomic_write(folder / "mocks.json", seal(dumps({"meta": {"1": segment_meta(1, jsize, "mocks")},
                                                      "mocks": {str(m["id"]): m for m in ordered}})), backup=False)
    fsync_dir(folder / "reviews")
    from . import manifest  # every part listed, last (see .manifest)

    manifest.from_files(folder, replica, next_id).write(folder)
    fsync_dir(folder)
    counts = {"items": len(rest["states"]), "reviews": n_rows, "mocks": len(ordered)}
    return counts | ({"left_out": rest["left_out"]} if rest["left_out"] else {})


def swap_in(profile, members: Iterable[tuple[str, Any]], now: datetime | None,
            where: Callable[[], str] | None = None, skip_future: bool = False) -> dict:
    """Replace ``profile`` (open, a writer's) by the export document given as ``members``: built beside it
    (:func:`build_profile`) and swapped in with two renames, so a crash leaves the old profile or the new one
    (an import interrupted between its renames is finished or rolled back by the next open); at any problem
    nothing changes and no half-built folder is left.  Returns the counts of items, reviews and mocks."""
    root, name = profile.root, profile.name
    staging, old = root / f".{name}.import", root / f".{name}.old"
    try:
        if staging.exists():
            shutil.rmtree(staging)
        replica = profile._manifest.replica if profile._manifest is not None else None
        counts = build_profile(members, now, staging, where, skip_future, replica)
    except OSError as e:  # nothing changed: the profile is as it was, and no half-built copy is left
        shutil.rmtree(staging, ignore_errors=True)
        raise save_failed(e, e.filename or staging) from e
    except BaseException:  # invalid (or not JSON): the same
        shutil.rmtree(staging, ignore_errors=True)
        raise
    profile._close_dbs()
    try:
        if old.exists():
            shutil.rmtree(old)
        durable.fault_point("replace", old)
        os.replace(profile.path, old)
        try:
            durable.fault_point("replace", profile.path)
            os.replace(staging, profile.path)
        except OSError:
            durable.fault_point("replace", profile.path)
            os.replace(old, profile.path)  # put the profile back as it was
            raise
    except OSError as e:
        shutil.rmtree(staging, ignore_errors=True)
        profile._load()
        raise save_failed(e, e.filename or profile.path) from e
    fsync_dir(root)
    shutil.rmtree(old, ignore_errors=True)  # else removed by the next open (Profile._recover_import)
    profile._load()
    return counts


def exported(row: dict, legacy: tuple[str, int] | None = None) -> dict:
    """A review row as exported: its typed answer as this drill stores one (an older drill kept control
    characters, which an import refuses), and, for a row recorded before the profile had a replica id (its id
    at most the manifest's ``legacy`` last id), the origin its older exports give it (``legacy_replica``)."""
    from ..session import stored_text

    if legacy is not None and row["id"] <= legacy[1] and "origin" not in row:
        row = {**row, "origin": {"replica": legacy[0], "id": row["id"]}}
    return row if row["typed"].isprintable() else {**row, "typed": stored_text(row["typed"])}


def export_chunks(head: dict, reviews: Iterable[dict], mocks: list, counts: dict | None = None) -> Iterator[str]:
    """An export document as text, written as ``json.dumps(doc, ensure_ascii=False, indent=1)`` writes it, piece
    by piece: ``head`` (format, schema, profile, settings, states), then the review rows as ``reviews`` yields
    them (the log one file at a time, so a long history never sits in memory whole), then ``mocks``.
    ``counts`` (if given) gets the numbers of items, reviews and mocks."""
    import json

    def dumped(value: Any, depth: int) -> str:
        return json.dumps(value, ensure_ascii=False, indent=1).replace("\n", "\n" + " " * depth)

    yield "{\n" + "".join(f" {json.dumps(k)}: {dumped(v, 1)},\n" for k, v in head.items()) + ' "reviews": ['
    n = 0
    for r in reviews:
        yield ("\n  " if n == 0 else ",\n  ") + dumped(exported(r), 2)
        n += 1
    yield ("\n ]" if n else "]") + f',\n "mocks": {dumped(mocks, 1)}\n}}'
    if counts is not None:
        counts.update(items=len(head["states"]), reviews=n, mocks=len(mocks))
