"""``drill doctor``: check every file of a profile, and repair the damaged ones from the newest good source.

:func:`examine` reads every file (checksum, strict layout, schema, each row and
state, the references between them: log files numbered without a gap, row ids
rising across them, each journal in step with its log file, the state file's
counter ahead of every row) and returns one :class:`Finding` per file that is
not fine.  :func:`repair` (under the profile's lock) restores each damaged file
from the newest good source and says what it used and what, if anything, could
not be recovered:

- a log file: its journal (every row written to it), else its newest whole
  backup with the journal's later lines applied; the journal is then written
  again from the result;
- a journal: written again from its whole log file;
- the state file: settings from its newest whole backup (else the defaults,
  said), everything else rebuilt from the log at the next open;
- the mocks file: its journal (every mock result written to it), else its newest
  whole backup with the journal's later lines applied; its journal: written again
  from the whole mocks file;
- a digest: removed (a cache, made again when needed);
- the statistics' running totals (``stats.json``, :mod:`.totals`): removed when damaged, and made again from
  the log when the repaired profile is opened (``drill doctor --repair`` opens it).
- the manifest, or its newest log file's entry (``manifest.newest.json``), damaged: written again from the
  files;
- a part not as the manifest lists it (:mod:`.manifest`): a log file missing, shorter or
  other than listed is rebuilt as a damaged one, from the source that holds the ids
  listed; a journal, the state or the mocks as above; a log file not listed is moved
  aside; the manifest is then written again from the files.

A damaged file is moved aside (``X.damaged``), never deleted.  Nothing here is
worded in one language: every finding is an :mod:`engine.messages` Msg.
"""

from __future__ import annotations

from dataclasses import field
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Any

from engine.langs import EN
from engine.records import mutable

from ..messages import Msg, Twin, say
from . import durable, journal, layout, manifest, totals
from .errors import DamagedSave, NewerSave, UnreadableSave
from .layout import SCHEMA_VERSION, SEGMENT_FILE, backup_paths, digest_path, journal_path
from .sealed import dumps, seal
from .segments import file_identity, read_digest, segment_rows
from .validation import is_int, mock_problem


class FindingKind(StrEnum):
    """What is wrong with a file, as ``drill doctor --json`` and the text table (``doctor.<kind>``) name it."""

    DAMAGED = "damaged"  # must be repaired
    UNREADABLE = "unreadable"  # permission
    NEWER = "newer"  # a newer drill's
    JOURNAL = "journal"  # a journal out of step: the log file is whole
    CACHE = "cache"  # a digest: harmless
    OLD = "old"  # an older save without checksum: sealed at its next write
    UNFINISHED = "unfinished"  # a log file one write behind its journal (a crash between): the next open ends it
    BACKUP = "backup"  # a damaged backup (.bak, .bak2, .bak3): never used to restore; repair moves it aside
    # a part that is not what the manifest lists (see .manifest: GapKind): the profile opens when it is repaired
    MISSING = "missing"
    SHORTER = "shorter"
    CHANGED = "changed"
    EXTRA = "extra"


# the findings that keep the profile from opening until repaired (or upgraded, or given permission)
BLOCKING = (FindingKind.DAMAGED, FindingKind.JOURNAL, FindingKind.UNREADABLE, FindingKind.NEWER, FindingKind.MISSING,
            FindingKind.SHORTER, FindingKind.CHANGED, FindingKind.EXTRA)
# ... and with them, the damage that doctor reports until it is repaired (the profile opens all the same)
TO_REPAIR = (*BLOCKING, FindingKind.BACKUP)


@mutable
class Finding:
    """What is wrong with one file (``kind``), and what repair did about it."""

    path: Path
    kind: FindingKind
    reason: str | Twin
    repaired: Msg | None = None  # what repair did
    lost: Msg | None = None  # what repair could not recover
    about: str = ""  # "_mocks": the finding is about the mock results (their journal), said so
    ids: tuple[int, int] | None = None  # the review ids the manifest says the file holds (a part it lists)

    def said(self) -> Msg:
        return say(f"doctor.{self.kind}{self.about}", path=str(self.path), reason=self.reason)


@mutable
class Report:
    profile: Path
    files: int = 0
    findings: list[Finding] = field(default_factory=list)

    @property
    def stale_totals(self) -> Finding | None:
        """The finding about the statistics' running totals (damaged or missing), if any."""
        return next((f for f in self.findings if f.about == "_stats"), None)

    @property
    def damaged(self) -> list[Finding]:
        return [f for f in self.findings if f.kind in TO_REPAIR]


def _segments(profile: Path) -> list[int]:
    folder = profile / "reviews"
    try:
        return sorted(int(m.group(1)) for p in folder.iterdir() if (m := SEGMENT_FILE.fullmatch(p.name)))
    except OSError:
        return []


def _read(path: Path, kind: str) -> tuple[dict | None, bool]:
    tables, sealed = durable.read_document(path, kind)
    if tables is not None:
        durable.check_meta(tables, path, kind, empty_ok=False)
    return tables, sealed


def _content_problem(tables: dict, kind: str) -> str | None:
    """What is wrong inside a state or mocks file that reads whole (an item state, a mock result), or None."""
    if kind == "state":
        from ..sm2 import ItemState
        for doc in tables.get("states", {}).values():
            try:
                ItemState.from_dict({k: v for k, v in doc.items() if k != "item"})
            except (ValueError, TypeError) as e:
                return f"bad item state ({e})"
    elif kind == "mocks":
        bad = next((p for doc in tables.get("mocks", {}).values() if (p := mock_problem(doc)) is not None), None)
        if bad is not None:
            return f"bad mock result ({bad})"
    return None


def _whole_copy(path: Path, kind: str) -> dict | None:
    """The tables of ``path``, an earlier copy of a file of ``kind`` (a backup, a snapshot's), if it can restore
    that file; None if it is missing; DamagedSave if it is damaged (the checks of :func:`examine`)."""
    tables, _ = _read(path, kind)
    if tables is None:
        return None
    if kind == "reviews":
        segment_rows(tables, path)
    if (problem := _content_problem(tables, kind)) is not None:
        raise DamagedSave(path, problem)
    return tables


def _backup_findings(path: Path, kind: str) -> list[Finding]:
    """A finding for each backup of ``path`` that is damaged (one a newer drill wrote is not damage)."""
    found = []
    for b in backup_paths(path):
        try:
            _whole_copy(b, kind)
        except NewerSave:
            continue
        except DamagedSave as e:
            found.append(Finding(b, FindingKind.BACKUP, getattr(e, "said_reason", e.reason)))
    return found


def examine(profile: Path) -> Report:
    """Every file of the profile folder ``profile``, checked (nothing is written)."""
    report = Report(profile)

    def note(path: Path, e: DamagedSave) -> None:
        found = (FindingKind.UNREADABLE if isinstance(e, UnreadableSave) else FindingKind.NEWER
                 if isinstance(e, NewerSave) else FindingKind.DAMAGED)
        report.findings.append(Finding(path, found, getattr(e, "said_reason", e.reason)))

    next_id = undo = None
    for name, kind in (("state.json", "state"), ("mocks.json", "mocks")):
        path = profile / name
        try:
            tables, sealed = _read(path, kind)
        except DamagedSave as e:
            note(path, e)
            continue
        if tables is None:
            continue
        report.files += 1
        if not sealed:
            report.findings.append(Finding(path, FindingKind.OLD, ""))
        if kind == "state":
            next_id, undo = tables["meta"]["1"].get("next_id"), tables["meta"]["1"].get("undo")
            if (problem := _content_problem(tables, kind)) is not None:
                report.findings.append(Finding(path, FindingKind.DAMAGED, problem))
        else:
            if (problem := _content_problem(tables, kind)) is not None:
                report.findings.append(Finding(path, FindingKind.DAMAGED, problem))
                continue
            seq = tables["meta"]["1"].get("seq", 0)
            seq = seq if is_int(seq) and seq >= 0 else 0
            j = journal.read_journal(journal_path(path), "mocks")
            mocks = {int(k): d for k, d in tables.get("mocks", {}).items()}
            if (problem := journal.step_problem(j, seq, mocks, "the mocks file")) is not None:
                report.findings.append(Finding(journal_path(path), FindingKind.JOURNAL, problem, about="_mocks"))
            elif j.seq > seq:  # a crash between the journal's line and the mocks file: finished at the next open
                report.findings.append(Finding(path, FindingKind.UNFINISHED, "", about="_mocks"))
    last_id = 0
    numbers = _segments(profile)
    newest = numbers[-1] if numbers else None
    for n in numbers:
        seg = layout.segment_path(profile, n)
        report.files += 1
        rows = None
        try:
            tables, sealed = _read(seg, "reviews")
            rows = segment_rows(tables, seg)
            if not sealed:
                report.findings.append(Finding(seg, FindingKind.OLD, ""))
        except DamagedSave as e:
            note(seg, e)
        if rows is not None and tables is not None:  # segment_rows refuses a missing file: rows come with tables
            if rows and rows[0]["id"] <= last_id:
                report.findings.append(Finding(seg, FindingKind.DAMAGED,
                                               f"its first row ({rows[0]['id']}) is not after the "
                                               f"last row of the file before ({last_id})"))
            last_id = rows[-1]["id"] if rows else last_id
            assert tables is not None  # segment_rows read its rows from them
            seq = tables["meta"]["1"].get("seq", 0)
            j = journal.read_journal(journal_path(seg))
            problem = j.problem
            if problem is None and is_int(seq) and j.seq < seq:
                problem = "it is missing" if not j.exists else f"it ends at line {j.seq}, its log file at {seq}"
            elif problem is None and (j.seq or seq) and j.rows_at(seq) != {r["id"]: r for r in rows}:
                problem = "it does not give the rows of its log file"
            if problem is not None:
                report.findings.append(Finding(journal_path(seg), FindingKind.JOURNAL, problem))
            elif j.seq > (seq if is_int(seq) else 0):
                if n == newest:  # a crash between the journal's line and the log file: finished at the next open
                    report.findings.append(Finding(seg, FindingKind.UNFINISHED, ""))
                else:
                    report.findings.append(Finding(seg, FindingKind.DAMAGED,
                                                   f"it is behind its journal (line {seq} of {j.seq})"))
            identity = file_identity(seg)
            dig = digest_path(seg)
            if dig.exists() and identity is not None and read_digest(dig, identity) is None:
                report.findings.append(Finding(dig, FindingKind.CACHE, ""))
    _manifest_findings(profile, report, next_id, undo)
    if (profile / manifest.NEWEST).exists():  # the newest log file's entry: written again with the manifest
        report.files += 1
        if (bad := manifest.newest_problem(profile)) is not None:
            report.findings.append(Finding(profile / manifest.NEWEST, FindingKind.DAMAGED, bad))
    stats = layout.stats_path(profile)  # the statistics' running totals: a cache, made again from the log
    if stats.exists():
        report.files += 1
        if (problem := totals.problem(stats)) is not None:
            report.findings.append(Finding(stats, FindingKind.CACHE, problem, about="_stats"))
    elif next_id is not None:  # a profile with a state file: its totals were deleted (or it is from before them)
        report.findings.append(Finding(stats, FindingKind.CACHE, "it is missing", about="_stats"))
    for path, kind in [(profile / "state.json", "state"), (profile / "mocks.json", "mocks"),
                       *((layout.segment_path(profile, n), "reviews") for n in numbers)]:
        report.findings += _backup_findings(path, kind)  # a backup a repair could reach for must be whole
    return report


def _manifest_findings(profile: Path, report: Report, next_id: object, undo: object) -> None:
    """The parts against the manifest (or, in a save from before manifests, the state file's counter): each one
    missing, shorter, other than listed or one too many (a file already found damaged is said once)."""
    path = profile / manifest.NAME
    try:
        m = manifest.read(profile)
    except DamagedSave as e:
        report.findings.append(Finding(path, FindingKind.DAMAGED, getattr(e, "said_reason", e.reason)))
        return
    state_next = next_id if is_int(next_id) else None
    undo = undo if is_int(undo) else None
    if m is None:
        numbers = _segments(profile)
        newest = None
        if numbers:
            try:
                newest = segment_rows(durable.read_tables(layout.segment_path(profile, numbers[-1])),
                                      layout.segment_path(profile, numbers[-1]))
            except (OSError, DamagedSave):
                newest = None
        gaps = manifest.unlisted(profile, state_next, undo, newest)
    else:
        report.files += 1
        gaps = manifest.survey(profile, m, state_next, undo)
    said = {f.path for f in report.findings if f.kind in TO_REPAIR}
    wrong = {profile / g.file for g in gaps}
    # a log file the manifest says is wrong makes its journal look out of step: the journal is the source then,
    # never written again from the wrong file
    report.findings = [f for f in report.findings if not (
        f.kind == FindingKind.JOURNAL and f.path not in wrong
        and f.path.with_name(f.path.stem + ".json") in wrong)]
    # a readable log file out of place (its rows out of order after a swap or a copy) is said as the manifest
    # sees it, with the ids it should hold, and repaired as such (a copy is moved aside, not restored)
    out_of_place = {profile / g.file for g in gaps if SEGMENT_FILE.fullmatch(Path(g.file).name)}
    report.findings = [f for f in report.findings if not (f.kind == FindingKind.DAMAGED and f.path in out_of_place)]
    said -= out_of_place
    for g in gaps:
        if profile / g.file in said:
            continue
        d = g.detail()
        reason = Twin(f" ({d.en})", f"（{d.zh}）") if d.en else ""
        report.findings.append(Finding(profile / g.file, FindingKind(g.kind), reason, ids=g.ids))


def _newest_good_backup(path: Path, kind: str) -> tuple[Path, dict] | None:
    """The newest whole earlier copy of ``path``: its backups, then its copies in the daily snapshots."""
    from .snapshots import copies_of

    for b in [*backup_paths(path), *copies_of(path)]:
        try:
            tables = _whole_copy(b, kind)
        except DamagedSave:  # what doctor reports as a damaged backup is never a source
            continue
        if tables is not None:
            return b, tables
    return None


def _when(path: Path) -> str:
    try:
        return datetime.fromtimestamp(path.stat().st_mtime, UTC).astimezone().strftime("%Y-%m-%d %H:%M")
    except OSError:
        return "?"


def _aside(path: Path) -> None:
    """Keep a copy of damaged ``path`` as ``path.damaged`` (a copy: the file itself is replaced whole
    afterwards, so a crash in between leaves it damaged, not missing)."""
    if path.exists():
        import shutil

        target = path.with_name(path.name + ".damaged")
        durable.fault_point("write", target)
        shutil.copy2(path, target)


def _write_tables(path: Path, tables: dict) -> None:
    durable.atomic_write(path, seal(dumps(tables)), backup=False)


def _good_copies(path: Path, kind: str) -> list[tuple[Path, dict]]:
    """Every whole earlier copy of ``path``, newest first: its backups, then its copies in the daily snapshots."""
    from .snapshots import copies_of

    found = []
    for b in [*backup_paths(path), *copies_of(path)]:
        try:
            tables = _whole_copy(b, kind)
        except DamagedSave:  # what doctor reports as a damaged backup is never a source
            continue
        if tables is not None:
            found.append((b, tables))
    return found


def _covers(rows: dict[int, dict], want: tuple[int, int] | None) -> bool:
    """Whether ``rows`` hold the review ids the manifest lists for their file (from the first to at least the
    last: a later row, recorded after the manifest was written, is kept too)."""
    return want is None or (bool(rows) and min(rows) == want[0] and max(rows) >= want[1])


def _repair_segment(f: Finding) -> None:
    """A log file from its journal (every row written to it), else from its newest whole backup or snapshot copy
    plus the journal's later lines: the first that holds the ids the manifest lists (``f.ids``), else the one
    holding most, the rest said as lost."""
    seg = f.path
    j = journal.read_journal(journal_path(seg))
    options: list[tuple[dict[int, dict], int, Msg, Msg | None]] = []
    if j.problem is None and j.lines:  # the journal holds every row written to it
        options.append((j.rows_at(), j.seq, say("doctor.from_journal", path=str(journal_path(seg))), None))
    for b, tables in _good_copies(seg, "reviews"):
        bseq = tables["meta"]["1"].get("seq", 0)
        bseq = bseq if is_int(bseq) else 0
        rows = {r["id"]: r for r in segment_rows(tables, b)}
        applied = [line for line in j.lines if line["seq"] > bseq]
        if j.lines and j.lines[0]["seq"] > bseq + 1:
            applied = []  # the journal does not follow on from this copy
        for line in applied:
            for i in line["drop"]:
                rows.pop(i, None)
            for r in line["put"]:
                rows[r["id"]] = r
        lost = say("doctor.lost_after_journal", path=str(journal_path(seg)), reason=j.problem) \
            if j.problem is not None else None
        options.append((rows, max(bseq, j.seq), say("doctor.from_backup", path=str(b), when=_when(b),
                                                    lines=len(applied)), lost))
    if not options:
        f.lost = (say("doctor.lost_ids", ids=f"{f.ids[0]}-{f.ids[1]}", path=str(seg)) if f.ids
                  else say("doctor.lost_file", path=str(seg)))
        return
    rows, seq, f.repaired, f.lost = next((o for o in options if _covers(o[0], f.ids)),
                                         max(options, key=lambda o: len(o[0])))
    if not _covers(rows, f.ids) and f.ids is not None:
        f.lost = say("doctor.lost_ids", ids=f"{f.ids[0]}-{f.ids[1]}", path=str(seg))
    ordered = [rows[i] for i in sorted(rows)]
    _aside(seg)
    if j.problem is not None or not j.lines:
        _aside(journal_path(seg))
    jsize = journal.write_whole(journal_path(seg), ordered, seq=max(seq, 1))
    _write_tables(seg, {"meta": {"1": journal.segment_meta(max(seq, 1), jsize)},
                        "reviews": {str(r["id"]): r for r in ordered}})
    try:
        digest_path(seg).unlink(missing_ok=True)
    except OSError:
        pass


def _repair_extra(f: Finding) -> None:
    """A log file the manifest does not list (a copy, left behind): moved aside with its journal, kept."""
    for path in (f.path, journal_path(f.path)):
        if path.exists():
            target = path.with_name(path.name + ".damaged")
            durable.fault_point("replace", target)
            path.replace(target)
            if path == f.path:
                f.repaired = say("doctor.extra_aside", path=str(target))
    digest_path(f.path).unlink(missing_ok=True)


def _rebuild_manifest(profile: Path) -> Msg | None:
    """The manifest written again from the files as they are (after a repair: what could not be recovered is no
    longer listed, said by its finding), keeping the replica id of the old one or its newest whole backup."""
    replica, legacy = None, None
    for path in (profile / manifest.NAME, *backup_paths(profile / manifest.NAME)):
        try:
            tables, _ = durable.read_document(path, "manifest")
        except DamagedSave:
            continue
        meta = ((tables or {}).get("meta") or {}).get("1") or {}
        if isinstance(r := meta.get("replica"), str):
            replica = r
            old = meta.get("legacy")
            if old is not None and manifest.legacy_ok(old):  # (the rows from before replica ids keep their id)
                legacy = (old[0], old[1])
            break
    state_next = None
    try:
        st = durable.read_tables(profile / "state.json")
        state_next = ((st or {}).get("meta") or {}).get("1", {}).get("next_id")
    except DamagedSave:
        pass
    try:
        manifest.from_files(profile, replica, state_next if is_int(state_next) else None, legacy=legacy).write(profile)
    except DamagedSave:  # a log file still damaged: listed once it is repaired
        return None
    return say("doctor.manifest_rebuilt")


def _repair_journal(f: Finding) -> None:
    seg = f.path.with_name(f.path.name.replace(".journal", ".json"))
    tables, _ = durable.read_document(seg, "reviews")
    rows = segment_rows(tables, seg)
    assert tables is not None  # segment_rows raised DamagedSave if there were none
    seq = tables["meta"]["1"].get("seq", 0)
    seq = seq if is_int(seq) and seq >= 1 else 1
    _aside(f.path)
    jsize = journal.write_whole(f.path, rows, seq=seq)
    tables["meta"]["1"] = journal.segment_meta(seq, jsize)
    _write_tables(seg, tables)
    f.repaired = say("doctor.journal_rewritten", path=str(seg))


def _repair_state(f: Finding) -> None:
    backup = _newest_good_backup(f.path, "state")
    settings: dict[str, Any] = {}
    if backup is not None:
        b, tables = backup
        settings = (tables.get("settings") or {}).get("1") or {}
        f.repaired = say("doctor.state_from_backup", path=str(b), when=_when(b))
    else:
        f.repaired = say("doctor.state_rebuilt")
        f.lost = say("doctor.lost_settings")
    _aside(f.path)
    # counter 1 and no states: the next open replays the whole log into it (the log is the truth)
    _write_tables(f.path, {"meta": {"1": {"schema": SCHEMA_VERSION, "kind": "state", "next_id": 1, "undo": None}},
                           "settings": {"1": settings}})


def _repair_mocks(f: Finding) -> None:
    """The mocks file from its journal (every result written to it), else from its newest whole backup plus the
    journal's later lines (a save from before the journal: the backup alone)."""
    jpath = journal_path(f.path)
    j = journal.read_journal(jpath, "mocks")
    backup = _newest_good_backup(f.path, "mocks")
    if j.problem is None and j.lines:
        mocks, seq = j.rows_at(), j.seq
        f.repaired = say("doctor.mocks_from_journal", path=str(jpath))
    elif backup is not None:
        b, tables = backup
        bseq = tables["meta"]["1"].get("seq", 0)
        bseq = bseq if is_int(bseq) else 0
        mocks = {int(k): d for k, d in tables.get("mocks", {}).items()}
        applied = [line for line in j.lines if line["seq"] > bseq]
        for line in applied:
            for i in line["drop"]:
                mocks.pop(i, None)
            for m in line["put"]:
                mocks[m["id"]] = m
        seq = max(bseq, j.seq)
        f.repaired = (say("doctor.mocks_from_backup_journal", path=str(b), when=_when(b), lines=len(applied))
                      if j.lines else say("doctor.mocks_from_backup", path=str(b), when=_when(b)))
        if j.problem is not None:
            f.lost = say("doctor.lost_mocks_after_journal", path=str(jpath), reason=j.problem)
    else:
        f.lost = say("doctor.lost_file", path=str(f.path))
        return
    ordered = [mocks[i] for i in sorted(mocks)]
    _aside(f.path)
    if j.problem is not None or not j.lines:
        _aside(jpath)
    jsize = journal.write_whole(jpath, ordered, seq=max(seq, 1))
    _write_tables(f.path, {"meta": {"1": journal.segment_meta(max(seq, 1), jsize, "mocks")},
                           "mocks": {str(m["id"]): m for m in ordered}})


def _repair_mocks_journal(f: Finding) -> None:
    path = f.path.with_name("mocks.json")
    tables, _ = durable.read_document(path, "mocks")
    assert tables is not None  # the finding was made reading this file, under the lock the caller holds
    mocks = {int(k): d for k, d in tables.get("mocks", {}).items()}
    seq = tables["meta"]["1"].get("seq", 0)
    seq = seq if is_int(seq) and seq >= 1 else 1
    _aside(f.path)
    jsize = journal.write_whole(f.path, [mocks[i] for i in sorted(mocks)], seq=seq)
    tables["meta"]["1"] = journal.segment_meta(seq, jsize, "mocks")
    _write_tables(path, tables)
    f.repaired = say("doctor.journal_rewritten_mocks", path=str(path))


def repair(report: Report) -> None:
    """Repair every damaged file of ``report`` (the caller holds the profile's lock); each finding says what
    was done (``repaired``) and what could not be recovered (``lost``)."""
    for f in report.findings:
        try:
            if f.kind == FindingKind.EXTRA:
                _repair_extra(f)
            elif f.kind in (FindingKind.DAMAGED, FindingKind.MISSING, FindingKind.SHORTER, FindingKind.CHANGED):
                if SEGMENT_FILE.fullmatch(f.path.name):
                    _repair_segment(f)
                elif f.path.suffix == ".journal" and f.path.parent.name == "reviews":
                    _repair_journal(f)  # from its whole log file
                elif f.path.name in FILE_REPAIRS:
                    FILE_REPAIRS[f.path.name](f)
                elif f.path.name in (manifest.NAME, manifest.NEWEST):
                    f.repaired = say("doctor.manifest_rebuilt")  # below, once the other parts are repaired
            elif f.kind == FindingKind.JOURNAL:
                (_repair_mocks_journal if f.path.name == "mocks.journal" else _repair_journal)(f)
            elif f.kind == FindingKind.BACKUP:  # out of the backups (kept, as any damaged file), so never a source
                target = f.path.with_name(f.path.name + ".damaged")
                durable.fault_point("replace", target)
                f.path.replace(target)
                f.repaired = say("doctor.backup_aside", path=str(target))
            elif f.kind == FindingKind.CACHE:
                durable.fault_point("unlink", f.path)
                f.path.unlink(missing_ok=True)
                f.repaired = say("doctor.cache_removed")
        except (OSError, DamagedSave) as e:
            f.lost = say("doctor.repair_failed", path=str(f.path), error=e.text(EN) if hasattr(e, "text") else str(e))
    if any(f.kind in BLOCKING for f in report.findings):
        try:
            _rebuild_manifest(report.profile)
        except OSError as e:
            report.findings[-1].lost = say("doctor.repair_failed", path=str(report.profile / manifest.NAME),
                                           error=str(e))


# how the doctor rebuilds a part that is one file (see manifest.FILE_PARTS), by its name
FILE_REPAIRS = {"state.json": _repair_state, "mocks.json": _repair_mocks, "mocks.journal": _repair_mocks_journal}
