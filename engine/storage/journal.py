"""The journal beside each log segment: every review written twice before it is acknowledged.

``reviews/000003.journal`` holds one line per write of ``reviews/000003.json``,
appended and fsynced *before* the segment is replaced::

    {"checksum":"<32 hex>","seq":7,"drop":[812],"put":[{"id":812,...}]}

``seq`` counts the lines from 1; ``drop`` the row ids the write took out (an
undo, a re-grade), ``put`` the rows it wrote (a record, a re-grade).  Each line
is sealed (``sealed``: its own checksum).  The segment's meta row records the
``seq`` of the last line it holds, so:

- segment ``seq`` = the journal's last: in step;
- the journal ahead (a crash between the two writes, or an older copy of the
  segment put back by hand, ``cp 000003.json.bak 000003.json``): the segment is
  made from the journal, so the newest review is never lost;
- the journal behind, or a line that fails its checksum: the journal is damaged
  (the segment is whole: nothing lost; ``drill doctor --repair`` writes it again).

A line cut short by a crash (no newline at its end) was never acknowledged: it
is left out, and the writer cuts it off before appending.

The mock-interview results have the same journal (``mocks.journal`` beside
``mocks.json``, its lines putting mock results instead of review rows: ``kind``
"mocks"), kept and read by the same rules: a mock result too is written to two
places before it is acknowledged.
"""

from __future__ import annotations

import os
from dataclasses import field
from pathlib import Path

from engine.records import mutable

from . import durable
from .errors import save_failed
from .sealed import Broken, dumps, open_sealed, seal
from .validation import mock_problem, row_ok, row_problem


def _put_problem(r, kind: str) -> str | None:
    """Why ``r`` is not what a journal of ``kind`` ("reviews", "mocks") puts (None: it is)."""
    if kind == "mocks":
        return None if (p := mock_problem(r)) is None else f"a bad mock result ({p})"
    return None if row_ok(r) else f"a bad review row ({row_problem(r)})"


@mutable
class Journal:
    """A segment's journal as read: its lines' effect, and what is wrong with it (None: whole)."""

    path: Path
    seq: int = 0  # the last whole line's seq (0: empty or missing)
    size: int = 0  # bytes of whole lines (a torn tail after them is cut off by the writer)
    lines: list[dict] = field(default_factory=list)
    problem: str | None = None  # damage: a line that fails its checksum or its layout
    exists: bool = False
    broken: bool = False  # the problem is bytes that fail their checksum (a bit flipped), not whole lines of another file

    def rows_at(self, seq: int | None = None) -> dict[int, dict]:
        """The segment's rows after line ``seq`` (default: all), by id."""
        rows: dict[int, dict] = {}
        for line in self.lines:
            if seq is not None and line["seq"] > seq:
                break
            for i in line["drop"]:
                rows.pop(i, None)
            for r in line["put"]:
                rows[r["id"]] = r
        return rows


def _line_problem(line, expect: int, kind: str = "reviews") -> str | None:
    if not isinstance(line, dict) or set(line) != {"seq", "drop", "put"}:
        return "a line is not a journal entry"
    if line["seq"] != expect:
        return f"line {expect} is numbered {line['seq']!r}"
    if not isinstance(line["drop"], list) or not all(type(i) is int for i in line["drop"]):
        return f"line {expect} drops something that is not a row id"
    if not isinstance(line["put"], list):
        return f"line {expect} puts something that is not a list of rows"
    for r in line["put"]:
        if (p := _put_problem(r, kind)) is not None:
            return f"line {expect} holds {p}"
    return None


def read_journal(path: Path, kind: str = "reviews") -> Journal:
    """The journal at ``path`` (missing: empty) of a log file (``kind`` "reviews") or of the mocks file ("mocks");
    damage is in ``problem``, never raised.  An OSError other than a missing file (a journal this user may not
    read) is raised."""
    j = Journal(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return j
    j.exists = True
    at = 0
    while at < len(raw):
        end = raw.find(b"\n", at)
        if end < 0:  # a line cut short by a crash: never acknowledged
            break
        try:
            line, sealed = open_sealed(raw[at:end])
        except (Broken, ValueError, RecursionError) as e:
            j.problem, j.broken = f"line {j.seq + 1} is damaged ({e})", True
            return j
        if not sealed:
            j.problem = f"line {j.seq + 1} has no checksum"
            return j
        first = line.get("seq") if isinstance(line, dict) else None
        if (p := _line_problem(line, j.seq + 1 if j.lines else first if type(first) is int and first >= 1 else 1,
                               kind)) is not None:
            j.problem = p
            return j
        j.lines.append(line)
        j.seq, j.size = line["seq"], end + 1
        at = end + 1
    return j


def segment_meta(seq: int, jsize: int, kind: str = "reviews") -> dict:
    """A log file's (or, ``kind`` "mocks", the mocks file's) meta row: the journal line it holds (``seq``) and the
    journal's size then (``jsize``: an older log file is checked against its journal by one stat, :func:`ahead_of`)."""
    from .layout import SCHEMA_VERSION

    return {"schema": SCHEMA_VERSION, "kind": kind, "seq": seq, "jsize": jsize}


def step_problem(j: Journal, seq: int, rows: dict[int, dict], file: str = "its log file") -> str | None:
    """What is wrong between a file holding ``rows`` at line ``seq`` and its journal ``j`` (None: in step, or
    the journal ahead: the file is then made from it); ``file`` names the file in the message."""
    if j.problem is not None:
        return j.problem
    if j.seq < seq:
        return "it is missing" if not j.exists else f"it ends at line {j.seq} but {file} holds line {seq}"
    if (j.seq or seq) and j.rows_at(seq) != rows:
        return f"its first {seq} lines do not give the rows of {file}"
    return None


def diff_line(seq: int, old: dict[int, dict], new: dict[int, dict]) -> bytes:
    """Line ``seq`` taking a file from rows ``old`` (what the journal gives) to ``new``, by id."""
    return line_of(seq, sorted(i for i in old if i not in new), [new[i] for i in sorted(new) if old.get(i) != new[i]])


def ahead_of(segment: Path, meta: dict) -> bool:
    """Whether the journal of ``segment`` (an older log file, read for the statistics or an export) holds lines
    the file does not: the file is an older copy (put back by hand).  One stat when in step."""
    jsize, seq = meta.get("jsize"), meta.get("seq")
    if type(jsize) is not int or type(seq) is not int:
        return False  # a log file from before journals (or before their sizes were kept)
    jpath = segment.with_name(segment.stem + ".journal")
    try:
        if jpath.stat().st_size <= jsize:
            return False
    except OSError:  # missing or unreadable: the file itself is whole (drill doctor names the journal)
        return False
    j = read_journal(jpath)
    return j.problem is None and j.seq > seq


def line_of(seq: int, drop: list[int], put: list[dict]) -> bytes:
    return seal(dumps({"seq": seq, "drop": drop, "put": put})) + b"\n"


def append(path: Path, data: bytes, size: int) -> None:
    """Append ``data`` at byte ``size`` of the journal (cutting off a torn tail after it), fsynced.
    ``SaveFailed`` names the journal; on failure the journal is cut back to ``size`` when it can be."""
    new = not path.exists()
    try:
        durable.fault_point("append", path)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o644)
        try:
            if os.fstat(fd).st_size != size:
                os.ftruncate(fd, size)
            os.lseek(fd, size, os.SEEK_SET)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as e:
        cut_back(path, size)
        raise save_failed(e, path) from e
    if new:
        durable.fsync_dir(path.parent)


def cut_back(path: Path, size: int) -> bool:
    """Cut the journal back to ``size`` bytes (a line whose segment write failed); False if it cannot be."""
    try:
        durable.fault_point("truncate", path)
        if path.exists() and path.stat().st_size > size:
            os.truncate(path, size)
        return True
    except OSError:
        return False


def write_whole(path: Path, rows: list[dict], seq: int = 1) -> int:
    """A journal for a segment written whole (an import, a repair): one line putting every row, numbered
    ``seq`` (the segment's meta names the same): lines before it are not kept.  Returns its size."""
    data = line_of(seq, [], rows)
    durable.atomic_write(path, data, backup=False)
    return len(data)
