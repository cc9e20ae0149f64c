"""The manifest: the list of a profile's parts, so a part that is gone, shorter or one too many is seen.

A checksum per file cannot see the profile as a whole: a log file deleted, an
older copy put back, two files swapped or one copied to a new number each read
back "whole", and the next record wrote over what was left.  ``NAME/manifest.json``
(a sealed save file, written atomically with a backup, like the others) lists
every part with what it must hold::

    {"checksum": "...",
     "meta": {"1": {"schema": 1, "kind": "manifest", "replica": "5f0c...", "next_id": 606}},
     "parts": {"1": {"file": "reviews/000001.json", "rows": 250, "ids": {"5f0c...": [1, 250]},
                     "sum": "<the file's checksum>", "seq": 1},
               "2": {"file": "reviews/000001.journal", "size": 28739},
               ...
               "7": {"file": "state.json"}, "8": {"file": "mocks.json", "rows": 2},
               "9": {"file": "mocks.journal", "rows": 2}}}

``replica`` is a random id made with the profile; a log file's ``ids`` give
the range of review ids it holds: this replica's own ids (every row of the file),
and for each other replica whose rows a sync merged into it the range of
their ids there (the rows' ``origin``; engine.storage.merging).  ``next_id`` is the review counter when it was written, checked
against the state file's.  A save from before replica ids adds ``"legacy": ["pre-a069...", 605]``: the id
its older rows are known by on every copy (``engine.review.legacy_replica``, made from its first row, as an
older export of it is named when merged) and the last of their ids (``from_files``).

The writer rewrites the manifest after every change of the parts (a new log file, with
the one it closes as it is closed; a log file removed by an undo; a mock; the first state
file; an import; a repair; and at every open by a writer, the newest log file as it is
then), after the change itself.  A closed log file never changes, so its entry never does:
what changes at every answer, re-grade or undo is the newest log file's entry, and that is
written after each of them, alone, to ``NAME/manifest.newest.json`` (:data:`NEWEST`: the
same layout, listing only the newest log file and its journal; a small write of constant
size, where rewriting the whole manifest, whose size grows with the history, made a
record at 200,000 reviews cost 1.9x one at 1,000).  :func:`read` lays that entry over the
manifest's own when it lists the same log file at the same or a later journal line (an
older copy, or one left from before a new log file, is passed over; a damaged one too,
said by the doctor and written again at the next write).  A crash between a write and
the entry's leaves the journal ahead of it: the journal, sealed line by line and
numbered, vouches for those lines.  So :func:`survey` accepts a log file ahead of its
entry by lines its journal holds, one new log file beyond the newest listed (a crash
before the manifest's write), and a log file behind its journal (opening or reading
makes it level from the journal).
Anything else is a :class:`Gap` naming the file and the ids it should hold, and nothing
is written to the profile until ``drill doctor --repair`` rebuilds it.  A log file whose
content is damaged is not a gap: it is said as damaged where it is read.

The parts other than the log files are the rows of :data:`FILE_PARTS`: a new kind of
file kept beside the log (a running aggregate, say) is one more row there (with ``count``
if it holds rows that only grow), listed once the writer calls ``Manifest.note_file`` after
writing it (``ProfileOpening._note_parts`` lists the known names at every open), and
rebuilt by the doctor with one more entry in ``doctor.FILE_REPAIRS``.
"""

from __future__ import annotations

import os
import re
import secrets
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path

from engine.records import frozen

from ..messages import Twin
from ..review import REPLICA_ID, legacy_replica
from . import journal, layout
from .durable import atomic_write, read_document
from .errors import DamagedSave
from .layout import SCHEMA_VERSION, SEGMENT_FILE, journal_path
from .sealed import KEY, checksum, dumps, seal
from .segments import segment_rows
from .validation import is_int

NAME = "manifest.json"
NEWEST = "manifest.newest.json"  # the newest log file's entry, written at every change of that file
_SEGMENT_PART = re.compile(r"reviews/(\d{6})\.json")
_HEAD = len(KEY) + 32  # '{"checksum":"' and the 32 hex digits of a sealed file's own checksum


class GapKind(StrEnum):
    """How a part differs from what the manifest says (``drill doctor`` names the same: ``FindingKind``)."""

    MISSING = "missing"  # listed, not there
    SHORTER = "shorter"  # there, but holds fewer rows (or bytes) than listed
    CHANGED = "changed"  # there, but other than listed (swapped, a copy of another part, an older manifest)
    EXTRA = "extra"  # there, not listed


@frozen
class Gap:
    """One part that is not what the manifest says: ``file`` (relative to the profile folder) and the review ids
    it should hold (``ids``: first and last, or None for a file that holds no reviews), and what it holds."""

    file: str
    kind: GapKind
    ids: tuple[int, int] | None = None
    holds: Twin | None = None  # what the file holds instead

    def detail(self) -> Twin:
        """What it should hold and what it holds, in English and Chinese (without the file's name)."""
        a = f"{self.ids[0]}-{self.ids[1]}" if self.ids else ""
        has = self.holds or Twin("")
        if self.kind == GapKind.MISSING:
            return Twin(f"it held reviews {a}", f"其中原有复习记录 {a}") if self.ids else Twin("")
        if self.kind == GapKind.EXTRA:
            return Twin(f"it holds {has.en}", f"其中有{has.zh}")
        want = Twin(f"it should hold reviews {a}; ", f"应有复习记录 {a}；") if self.ids else Twin("")
        return Twin(f"{want.en}it holds {has.en}", f"{want.zh}实有{has.zh}")

    def said(self) -> Twin:
        """This gap in plain words, in English and Chinese."""
        d = self.detail()
        en, zh = (f" ({d.en})", f"（{d.zh}）") if d.en else ("", "")
        verb = {GapKind.MISSING: Twin("is missing", "不见了"),
                GapKind.SHORTER: Twin("holds less than the manifest lists", "的内容少于清单所列"),
                GapKind.CHANGED: Twin("is not the file the manifest lists", "不是清单所列的文件"),
                GapKind.EXTRA: Twin("is not listed in the manifest", "不在清单中")}[self.kind]
        return Twin(f"{self.file} {verb.en}{en}", f"{self.file} {verb.zh}{zh}")


def _count_mocks(path: Path) -> int | None:
    """The mock results the mocks file holds, or its journal when whole and ahead (a crash between the two
    writes, an older copy put back: opening makes the file from the journal)."""
    tables, _ = read_document(path, "mocks")
    j = journal.read_journal(journal_path(path), "mocks")
    held = 0 if tables is None else len(tables.get("mocks", {}))
    return max(held, len(j.rows_at())) if j.problem is None else held


def _count_journal(path: Path) -> int | None:
    """The mock results the mocks journal gives (None when its bytes are damaged: healed from the mocks file at
    open)."""
    j = journal.read_journal(path, "mocks")
    if j.broken:
        return None
    return 0 if j.problem is not None else len(j.rows_at())  # (whole lines of another file: none of ours)


@frozen
class FilePart:
    """A part that is one file of a known name: it must be there once listed; ``count`` (if given) reads how
    many rows it holds, which may grow but never be fewer than the manifest says."""

    file: str
    count: Callable[[Path], int | None] | None = None


# the profile's parts beside the log files (and their journals): one row per kind of file
FILE_PARTS: tuple[FilePart, ...] = (
    FilePart("state.json"),
    FilePart("mocks.json", _count_mocks),
    FilePart("mocks.journal", _count_journal),
)


def new_replica() -> str:
    return secrets.token_hex(8)


def segment_name(n: int) -> str:
    return f"reviews/{n:06d}.json"


def journal_name(n: int) -> str:
    return f"reviews/{n:06d}.journal"


def file_sum(path: Path | str) -> str | None:
    """A file's checksum as the manifest keeps it: a sealed file's own (its first bytes: no need to read the
    rest), else one of all its bytes (a save from before checksums); None if it cannot be read."""
    try:
        with open(path, "rb", buffering=0) as f:  # (unbuffered: the first bytes only, not a buffer's worth)
            head = f.read(_HEAD)
            if head.startswith(KEY) and len(head) == _HEAD:
                return head[len(KEY):].decode("ascii", "replace")
            return "all:" + checksum(head + f.read())
    except OSError:
        return None


class Manifest:
    """The manifest as read or kept by the writer: the replica id, the review counter, and each part's entry
    by file name (relative to the profile folder, with ``/``)."""

    def __init__(self, replica: str, next_id: int = 1, parts: dict[str, dict] | None = None,
                 legacy: tuple[str, int] | None = None):
        self.replica, self.next_id = replica, next_id
        self.parts: dict[str, dict] = dict(parts or {})
        self.legacy = legacy  # the rows from before replica ids: their replica id and the last of their ids
        self.newest_read: dict | None = None  # the tables of NEWEST as read (None: none, or not laid over)

    def segments(self) -> list[int]:
        return sorted(int(m.group(1)) for f in self.parts if (m := _SEGMENT_PART.fullmatch(f)))

    def ids(self, n: int) -> tuple[int, int] | None:
        entry = self.parts.get(segment_name(n)) or {}
        span = (entry.get("ids") or {}).get(self.replica)
        return (span[0], span[1]) if isinstance(span, list) and len(span) == 2 else None

    def tables(self) -> dict:
        return {"meta": {"1": {"schema": SCHEMA_VERSION, "kind": "manifest", "replica": self.replica,
                               "next_id": self.next_id,
                               **({"legacy": list(self.legacy)} if self.legacy is not None else {})}},
                "parts": {str(k + 1): {"file": f, **e} for k, (f, e) in enumerate(sorted(self.parts.items()))}}

    def note_segment(self, n: int, rows: list[dict], seq: int, jsize: int, folder: Path) -> None:
        """The entry of log file ``n`` (of profile folder ``folder``) as just written: ``rows``, its journal's
        line ``seq`` and size."""
        ids: dict[str, list[int]] = {self.replica: [rows[0]["id"], rows[-1]["id"]]} if rows else {}
        for r in rows:  # rows merged from other replicas (drill sync): the range of their ids there, per replica
            if (o := r.get("origin")) is not None and o["replica"] != self.replica:
                span = ids.setdefault(o["replica"], [o["id"], o["id"]])
                span[0], span[1] = min(span[0], o["id"]), max(span[1], o["id"])
        entry: dict = {"rows": len(rows), "ids": ids, "sum": file_sum(folder / segment_name(n)), "seq": seq}
        self.parts[segment_name(n)] = entry
        self.parts[journal_name(n)] = {"size": jsize}
        if rows:
            self.next_id = max(self.next_id, rows[-1]["id"] + 1)

    def forget_segment(self, n: int) -> None:
        self.parts.pop(segment_name(n), None)
        self.parts.pop(journal_name(n), None)

    def note_file(self, name: str, **fields) -> None:
        self.parts[name] = dict(fields)

    def newest_tables(self, n: int | None = None) -> dict | None:
        """The tables of :data:`NEWEST`: this manifest with only its newest log file (``n`` when the caller
        knows it: finding it reads every entry) and that file's journal listed (None when it lists none)."""
        if n is None:
            listed = self.segments()
            if not listed:
                return None
            n = listed[-1]
        keep = {f: self.parts[f] for f in (segment_name(n), journal_name(n)) if f in self.parts}
        return Manifest(self.replica, self.next_id, keep).tables()

    def write(self, folder: Path) -> None:
        """Write the manifest, then its newest log file's entry (:meth:`write_newest`)."""
        atomic_write(folder / NAME, seal(dumps(self.tables())))
        self.write_newest(folder)

    def write_newest(self, folder: Path, n: int | None = None) -> None:
        """Write the newest log file's entry (``n``: its number, if known) to :data:`NEWEST` (no backups: the
        manifest and the journal vouch for everything it says, and it is written at every answer)."""
        tables = self.newest_tables(n)
        if tables is None:
            (folder / NEWEST).unlink(missing_ok=True)
        else:
            atomic_write(folder / NEWEST, seal(dumps(tables)), backup=False)
        self.newest_read = tables


def read(folder: Path) -> Manifest | None:
    """The manifest of profile folder ``folder``, or None if it has none (a save from before manifests);
    ``DamagedSave`` if it is damaged.  The newest log file's entry in :data:`NEWEST` is laid over its own
    when it lists the same file at the same or a later journal line (and the same replica)."""
    m = _read_one(folder / NAME)
    if m is None:
        return None
    try:
        tip = _read_one(folder / NEWEST)
    except DamagedSave:  # said by the doctor; the manifest and the journals vouch without it
        return m
    if tip is None or tip.replica != m.replica or not (listed := m.segments()) or tip.segments() != listed[-1:]:
        return m  # (an older entry, of a log file since closed or removed: the manifest's own is newer)
    seg, jname = segment_name(listed[-1]), journal_name(listed[-1])
    entry, mine = tip.parts[seg], m.parts[seg]
    if not (is_int(entry.get("seq")) and entry["seq"] >= (mine["seq"] if is_int(mine.get("seq")) else 0)):
        return m
    m.parts[seg] = entry
    if jname in tip.parts:
        m.parts[jname] = tip.parts[jname]
    m.next_id = max(m.next_id, tip.next_id)
    m.newest_read = tip.tables()
    return m


def newest_problem(folder: Path) -> Twin | str | None:
    """Why the newest log file's entry (:data:`NEWEST`) of profile folder ``folder`` cannot be read (for
    ``drill doctor``; it is passed over when opening), or None when it is whole or missing."""
    try:
        _read_one(folder / NEWEST)
    except DamagedSave as e:
        return getattr(e, "said_reason", e.reason)
    return None


def _read_one(path: Path) -> Manifest | None:
    """The manifest at ``path`` (the manifest, or :data:`NEWEST`), or None if there is none."""
    tables, _ = read_document(path, "manifest")
    if tables is None:
        return None
    meta = (tables.get("meta") or {}).get("1") or {}
    if meta.get("kind") != "manifest" or meta.get("schema") != SCHEMA_VERSION:
        raise DamagedSave(path, "it is not a manifest of this version", layout.backup_path(path))
    replica, next_id = meta.get("replica"), meta.get("next_id")
    if not isinstance(replica, str) or not replica or not is_int(next_id) or next_id < 1:
        raise DamagedSave(path, "its replica id or review counter is damaged", layout.backup_path(path))
    legacy = meta.get("legacy")
    if legacy is not None and not legacy_ok(legacy):
        raise DamagedSave(path, "its replica id of the rows from before replica ids is damaged",
                          layout.backup_path(path))
    parts = {}
    for entry in (tables.get("parts") or {}).values():
        file = entry.get("file")
        if not isinstance(file, str) or file in parts or ".." in file or file.startswith("/"):
            raise DamagedSave(path, f"a part is listed badly ({file!r})", layout.backup_path(path))
        parts[file] = {k: v for k, v in entry.items() if k != "file"}
    return Manifest(replica, next_id, parts, (legacy[0], legacy[1]) if legacy is not None else None)


def legacy_ok(value: object) -> bool:
    """A manifest's ``legacy``: ``[replica id, last id]``."""
    return (isinstance(value, list) and len(value) == 2 and isinstance(value[0], str)
            and REPLICA_ID.fullmatch(value[0]) is not None and is_int(value[1]) and value[1] >= 1)


def segment_numbers(folder: Path) -> list[int]:
    try:
        return sorted(int(m.group(1)) for p in (folder / "reviews").iterdir() if (m := SEGMENT_FILE.fullmatch(p.name)))
    except OSError:
        return []


def _span(rows: list[dict]) -> Twin:
    if not rows:
        return Twin("no review", "零条复习记录")
    a, b = rows[0]["id"], rows[-1]["id"]
    return Twin(f"{len(rows)} review(s), ids {a}-{b}", f" {len(rows)} 条复习记录，编号 {a}-{b}")


def _read_rows(path: Path) -> tuple[list[dict] | None, int, Twin]:
    """A log file's rows and its journal line, or None and why it cannot be read."""
    try:
        tables, _ = read_document(path, "reviews")
        rows = segment_rows(tables, path)
    except DamagedSave as e:
        return None, 0, Twin(f"damaged content: {e.reason}", f"损坏的内容：{e.reason}")
    assert tables is not None  # segment_rows refuses a missing file
    seq = tables["meta"]["1"].get("seq", 0)
    return rows, seq if is_int(seq) else 0, _span(rows)


def _within_journal(folder: Path, n: int, entry: dict, replica: str) -> bool:
    """Whether log file ``n`` is behind or ahead of its entry only by lines of its journal, the journal whole and
    in step with both, so that opening (the newest file) or reading (an older one) brings it level: a crash between
    the log file's write and the manifest's, or an older copy put back while its journal holds the rest."""
    rows, seq, _ = _read_rows(folder / segment_name(n))
    j = journal.read_journal(folder / journal_name(n))
    listed = entry["seq"] if is_int(entry.get("seq")) else 0
    if rows is not None and j.broken:
        return seq >= listed  # a damaged journal (a bit flipped): made again from the whole, newer file at open
    if rows is None or j.problem is not None or j.seq < seq or j.seq < listed:
        return False  # (the journal, sealed line by line and numbered, vouches for every write after the listed one)
    at = sorted(j.rows_at(listed).values(), key=lambda r: r["id"])
    span = entry.get("ids", {}).get(replica)
    return len(at) == entry.get("rows") and (not at or [at[0]["id"], at[-1]["id"]] == span) \
        and j.rows_at(seq) == {r["id"]: r for r in rows}


def survey(folder: Path, m: Manifest, state_next: int | None, undo: int | None) -> list[Gap]:
    """Every part of profile folder ``folder`` against manifest ``m`` and the state file's counter ``state_next``
    (``undo``: the row the state file says is being taken back).  Reads the first bytes of each log file, and a
    whole file only when it differs."""
    gaps: list[Gap] = []
    listed = m.segments()
    on_disk = segment_numbers(folder)
    newest = listed[-1] if listed else None
    if newest is not None and not (folder / segment_name(newest)).exists() and m.ids(newest) == (undo, undo):
        listed = listed[:-1]  # an undo stopped after removing its one-row file: finished at the next open
        newest = listed[-1] if listed else None
    known = set(m.segments())
    extra = [n for n in on_disk if n not in known]
    if newest is not None and extra and extra[0] == newest + 1 and _rolled(folder, m, newest, extra[0]):
        extra = extra[1:]  # a new log file written just before the manifest: one write ahead
    present = set(on_disk)
    base = os.path.join(folder, "")  # (plain strings in this loop: a Path per file costs more than its stat)
    for n in listed:
        entry, path = m.parts[segment_name(n)], base + segment_name(n)
        ids = m.ids(n)
        if n not in present:  # (a link to nothing is there: said as damaged where it is read)
            gaps.append(Gap(segment_name(n), GapKind.MISSING, ids))
            continue
        if file_sum(path) != entry.get("sum") and not _within_journal(folder, n, entry, m.replica):
            rows, _, holds = _read_rows(Path(path))
            if rows is None:
                continue  # damaged, not a part out of place: said as damaged where it is read (and by the doctor)
            short = len(rows) < (entry.get("rows") or 0)
            gaps.append(Gap(segment_name(n), GapKind.SHORTER if short else GapKind.CHANGED, ids, holds))
        jentry, jpath = m.parts.get(journal_name(n)), base + journal_name(n)
        if jentry is None:
            continue
        try:
            size = os.stat(jpath).st_size
        except OSError:
            gaps.append(Gap(journal_name(n), GapKind.MISSING, ids))
            continue
        if size != jentry.get("size") and not _gives(Path(jpath), entry, m.replica):
            gaps.append(Gap(journal_name(n), GapKind.SHORTER if size < (jentry.get("size") or 0) else GapKind.CHANGED,
                            ids, Twin(f"{size} bytes, not {jentry.get('size')}",
                                                       f" {size} 字节，而非 {jentry.get('size')} 字节")))
    for n in extra:
        rows, _, holds = _read_rows(folder / segment_name(n))
        gaps.append(Gap(segment_name(n), GapKind.EXTRA, (rows[0]["id"], rows[-1]["id"]) if rows else None, holds))
    for part in FILE_PARTS:
        if (fentry := m.parts.get(part.file)) is None:
            continue
        fpath = folder / part.file
        if not fpath.exists():
            gaps.append(Gap(part.file, GapKind.MISSING))
        elif part.count is not None and is_int(fentry.get("rows")):
            try:
                have = part.count(fpath)
            except DamagedSave:
                continue  # said as damaged by whoever reads it
            if have is not None and have < fentry["rows"]:
                gaps.append(Gap(part.file, GapKind.SHORTER, None,
                                Twin(f"{have} of its {fentry['rows']} rows", f" {fentry['rows']} 行中的 {have} 行")))
    if is_int(state_next) and undo is None and state_next > m.next_id and state_next > _reach(folder, m, on_disk):
        # (an undo in flight leaves the counter past the log: ids are not given twice)  # the state counted rows listed nowhere
        gaps.append(Gap(NAME, GapKind.CHANGED, (m.next_id, state_next - 1), Twin(
            f"reviews up to id {m.next_id - 1}, while the state file counts up to {state_next - 1}",
            f"编号至 {m.next_id - 1} 的复习记录，而状态文件计到 {state_next - 1}")))
    return gaps


def _gives(jpath: Path, entry: dict, replica: str) -> bool:
    """Whether the journal at ``jpath`` (of another size than listed: written again whole by a repair, or lines
    appended after the manifest's write) is whole and gives, at its log file's listed line, the rows listed.
    A journal whose lines fail their checksums is said as damaged where it is read, not here."""
    j = journal.read_journal(jpath)
    if j.broken:
        return True  # damaged (a bit flipped): healed from its whole log file at open, said by the doctor
    listed = entry["seq"] if is_int(entry.get("seq")) else 0
    if j.problem is not None or (j.seq < listed and len(j.lines) > 1):
        return False
    rows = sorted((j.rows_at(listed) if j.lines and j.lines[0]["seq"] <= listed else j.rows_at()).values(),
                  key=lambda r: r["id"])
    return len(rows) == entry.get("rows") and (not rows or [rows[0]["id"], rows[-1]["id"]] ==
                                                (entry.get("ids") or {}).get(replica))


def _reach(folder: Path, m: Manifest, on_disk: list[int]) -> int:
    """The review counter the log vouches for: the manifest's, or past the newest row the newest log file's
    journal ever put (rows recorded since the manifest's write, which it does not list one by one)."""
    if not on_disk:
        return m.next_id
    j = journal.read_journal(folder / journal_name(on_disk[-1]))
    put = [r["id"] for line in j.lines for r in line["put"]]  # (a row put, then undone: its id is not given again)
    rows, _, _ = _read_rows(folder / segment_name(on_disk[-1]))  # (the journal damaged: the whole file)
    return max(m.next_id, max(put, default=0) + 1, rows[-1]["id"] + 1 if rows else 0)


def _rolled(folder: Path, m: Manifest, newest: int, n: int) -> bool:
    """Whether log file ``n`` (newest + 1, not listed) is the new file a record began just before the manifest's
    write (or, that write failing, the ones after it): in step with its journal, rows after the newest listed
    one's."""
    rows, seq, _ = _read_rows(folder / segment_name(n))
    j = journal.read_journal(folder / journal_name(n))
    last = (m.ids(newest) or (0, 0))[1]
    return rows is not None and bool(rows) and seq == j.seq and j.problem is None \
        and rows[0]["id"] > last and j.rows_at() == {r["id"]: r for r in rows}


def unlisted(folder: Path, state_next: int | None, undo: int | None, newest_rows: list[dict] | None) -> list[Gap]:
    """A profile without a manifest (saved before manifests): the gaps that can be seen without one - a log file
    number skipped, and rows the state file's counter says exist after the newest one (``newest_rows``: the
    newest log file's rows; an undone row explains a shorter log)."""
    gaps: list[Gap] = []
    numbers = segment_numbers(folder)
    prev_last: int | None = 0
    if numbers and numbers[0] > 1:  # the first log files gone: they held every id before the first one left
        first_rows, _, _ = _read_rows(folder / segment_name(numbers[0]))
        ids = (1, first_rows[0]["id"] - 1) if first_rows and first_rows[0]["id"] > 1 else None
        gaps += [Gap(segment_name(k), GapKind.MISSING, ids if k == 1 else None) for k in range(1, numbers[0])]
    for a, b in zip(numbers, numbers[1:], strict=False):
        if b > a + 1:
            before, _, _ = _read_rows(folder / segment_name(a))
            after, _, _ = _read_rows(folder / segment_name(b))
            prev_last = before[-1]["id"] if before else None
            first = after[0]["id"] if after else None
            for k in range(a + 1, b):
                ids = (prev_last + 1, first - 1) if prev_last is not None and first is not None else None
                gaps.append(Gap(segment_name(k), GapKind.MISSING, ids if k == a + 1 else None))
    last = newest_rows[-1]["id"] if newest_rows else 0
    if is_int(state_next) and state_next - 1 > last and not (undo is not None and undo <= last + 1):
        n = numbers[-1] if numbers else 1
        full = newest_rows is not None and len(newest_rows) >= layout.SEGMENT_ROWS
        name = segment_name(n + 1 if full and numbers else n)
        gaps.append(Gap(name, GapKind.MISSING if full or not numbers else GapKind.SHORTER, (last + 1, state_next - 1)))
    return gaps


def from_files(folder: Path, replica: str | None = None, state_next: int | None = None, *,
               legacy: tuple[str, int] | None = None, old: bool = False) -> Manifest:
    """A manifest listing the parts as they are now (a save from before manifests, an import, a repair): every log
    file is read.  ``DamagedSave`` if one cannot be.  ``legacy``: the old manifest's (a repair); ``old``: the
    save is from before replica ids (before manifests), so the rows it holds are named by the replica id their
    first row gives (``engine.review.legacy_replica``: as an older export of it is), and this copy's own id,
    new, names the rows recorded from now on."""
    m = Manifest(replica or new_replica(), legacy=legacy)
    first = None
    for n in segment_numbers(folder):
        path = folder / segment_name(n)
        tables, _ = read_document(path, "reviews")
        rows = segment_rows(tables, path)
        if first is None:
            first = next((r for r in rows if r.get("origin") is None), None)
        assert tables is not None
        meta = tables["meta"]["1"]
        seq = meta.get("seq", 0)
        jpath = journal_path(path)
        m.note_segment(n, rows, seq if is_int(seq) else 0, jpath.stat().st_size if jpath.exists() else 0, folder)
        if not jpath.exists():
            m.parts.pop(journal_name(n))
    for part in FILE_PARTS:
        if (folder / part.file).exists():
            fields = {}
            if part.count is not None and (have := part.count(folder / part.file)) is not None:
                fields["rows"] = have
            m.note_file(part.file, **fields)
    if is_int(state_next):
        m.next_id = max(m.next_id, state_next)
    if old and first is not None:
        m.legacy = (legacy_replica(first), m.next_id - 1)
    return m
