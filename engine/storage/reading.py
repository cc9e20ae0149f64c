"""Reading a profile: its states, settings, mocks, review rows, day counts, latest answers and digests."""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Iterator
from datetime import date
from typing import TYPE_CHECKING, Any

from ..messages import Twin
from ..review import Review
from ..sm2 import ItemState
from . import journal
from .base import ProfileBase
from .durable import DurableStorage
from .errors import DamagedSave
from .layout import DEFAULT_SETTINGS, RECENT_QUALITIES, digest_path, stats_path
from .recent import ItemRecent, recent_columns, recent_of
from .segments import file_identity, read_digest, segment_rows, write_digest
from .validation import plain_copy, row_copy

if TYPE_CHECKING:
    from ..digest import Digest
    from ..stats_running import Running


class ProfileReading(ProfileBase):
    """How :class:`~engine.storage.profile.Profile` answers reads, from memory or the log's segments."""

    # -- reading ---------------------------------------------------------- #

    def states(self) -> dict[str, ItemState]:
        self._check_open()
        return dict(self._states)

    def state(self, item: str) -> ItemState | None:
        return self._states.get(item)

    def settings(self) -> dict[str, Any]:
        return {**DEFAULT_SETTINGS, **copy.deepcopy(self._settings)}

    def mocks(self) -> list[dict]:
        self._check_open()
        return [plain_copy({**d, "id": d.doc_id}) for d in sorted(self._mock_db.table("mocks").all(),
                                                             key=lambda d: d.doc_id)]

    def last_review(self) -> Review | None:
        return Review.of(row_copy(self._seg_rows[-1])) if self._seg_rows else None

    def _rows_of(self, n: int) -> list[dict]:
        """The rows of segment ``n``: the newest from memory, older ones read (read-only) from disk."""
        if n == self._seg_n and self._seg_db is not None:
            return self._seg_rows
        path = self._seg_path(n)
        tables = DurableStorage(path).read()
        rows = segment_rows(tables, path)
        assert tables is not None  # segment_rows raised DamagedSave if it was
        if journal.ahead_of(path, tables["meta"]["1"]):  # an older copy put back: never read as fewer rows
            raise DamagedSave(path, Twin(
                "it is behind its journal (an older copy put back?); drill doctor --repair brings its newest rows back",
                "它落后于自己的日志副本（放回了旧副本？）；drill doctor --repair 可找回其中最新的记录"))
        return rows

    def reviews(self) -> Iterator[Review]:
        """Every review row, oldest first (older segments are read from disk as needed)."""
        # the rows were checked when their segment was read: Review.of takes them as they are
        return map(Review.of, self._review_dicts())

    def _review_dicts(self) -> Iterator[dict]:
        """Every review row as stored (a dict, as exports and the state file's rebuild read it), oldest first."""
        self._check_open()
        for n in list(self._segments):
            rows = self._rows_of(n)
            if rows is self._seg_rows:  # rows kept in memory: hand out copies
                yield from [row_copy(r) for r in rows]
            else:  # just read from disk: nobody else holds them
                yield from rows

    def reviews_today(self, today: date) -> list[Review]:
        """The rows recorded on the learner's day ``today``, oldest first.

        Reads back from the newest segment until it has as many rows as the day
        index counts (or reaches a segment that ends before ``today``).  A
        damaged older segment is passed over (its rows are missing from the
        answer) and kept in :attr:`damaged`, so Home, practice and ``drill due``
        still open and can name it.
        """
        self._check_open()
        day = today.isoformat()
        out: list[dict] = []
        want = self._days.get(day, 0) if self._days is not None and self._days_whole else None
        for n in reversed(self._segments):
            if want is not None and len(out) >= want:
                break
            try:
                rows = self._rows_of(n)
            except DamagedSave as e:  # an older segment: counted without it, and listed in .damaged (Home says so)
                self.damaged[e.path] = e
                continue
            out[:0] = [r for r in rows if r["date"] == day]
            if rows and not any(r["date"] >= day for r in rows):  # (an emptied newest file: read on)
                break
        return [Review.of(row_copy(r)) for r in out]

    def study_days(self) -> dict[date, int]:
        """How many review rows (chain steps included) were recorded on each of the learner's days.

        Kept in the state file as rows are recorded and undone, so this reads
        no log.  A save made before the index has it rebuilt from the log once
        (then saved); a damaged older segment is left out then (and the index
        is not saved, so it is rebuilt whole once the segment is restored).
        """
        self._check_open()
        if self._days is None:
            self._rebuild_indexes()
            assert self._days is not None  # _rebuild_indexes made it
        return {date.fromisoformat(d): n for d, n in self._days.items()}

    def recent(self) -> dict[str, ItemRecent]:
        """Each item's latest answers (:class:`ItemRecent`): what Browse and a weighted mock read.

        Kept in the state file as rows are recorded and undone, so this reads
        no log (a save made before them has them rebuilt from the log once,
        like :meth:`study_days`).
        """
        self._check_open()
        if self._recent is None:
            self._rebuild_indexes()
            assert self._recent is not None  # _rebuild_indexes made it
        return dict(self._recent)

    def _rebuild_indexes(self) -> None:
        """The day index and the items' latest answers that are missing, from the log's digests; saved
        unless a damaged segment had to be left out."""
        days, recent = self._days is None, self._recent is None
        counts: Counter[str] = Counter()
        parts, whole = [], True
        for n in list(self._segments):
            try:
                parts.append(self._digest_of(n))
            except DamagedSave as e:
                self.damaged[e.path] = e
                whole = False
        for d in parts:
            counts.update(d.date)
        if days:
            self._days, self._days_whole = dict(counts), whole
        if recent:
            self._recent = recent_of(row for d in parts for row in zip(d.item, d.quality, d.step, d.verdict, d.date))
            self._recent_whole = whole
        if whole and not self.read_only:
            try:
                self._write_state(self._undo)
            except OSError:  # kept in memory; the next open rebuilds it again
                pass

    def _recent_before_last(self, item: str) -> ItemRecent | None:
        """``item``'s latest answers before the newest row (the one being undone), read back from the log.

        Usually found in the newest segment; older ones are read through their
        digests.  A damaged one stops the search (and the figures are then not saved).
        """
        found: list[tuple] = []  # its rows, newest first
        whole_row = False
        for n in reversed(self._segments):
            if n == self._seg_n and self._seg_db is not None:
                rows = reversed(list(recent_columns(self._seg_rows[:-1])))
            else:
                try:
                    d = self._digest_of(n)
                except DamagedSave:
                    self._recent_whole = False
                    break
                rows = reversed(list(zip(d.item, d.quality, d.step, d.verdict, d.date)))
            for r in rows:
                if r[0] == item:
                    found.append(r)
                    whole_row = whole_row or r[2] is None
                    if len(found) >= RECENT_QUALITIES and whole_row:
                        return recent_of(reversed(found))[item]
        return recent_of(reversed(found)).get(item)

    def digest(self) -> Digest:
        """The whole log, oldest first, as the columns the statistics read (``engine.digest.Digest``).

        A closed segment's digest is read from beside it when it matches the
        segment file (else rebuilt from the segment and kept); the newest one's
        is made from memory.  ``DamagedSave`` if a segment needed is unreadable.
        """
        from ..digest import Digest

        self._check_open()
        numbers = list(self._segments)
        parts = [self._digest_of(n, check=False) for n in numbers]
        whole = Digest.joined(parts)
        if whole.problem() is None:  # the values of all of them checked at once
            return whole
        # a kept digest whose checksum matches but a value does not (edited by hand?): rebuild it
        return Digest.joined(self._digest_of(n, rebuild=True) if part.problem() is not None else part
                             for n, part in zip(numbers, parts))

    def recent_digest(self, rows: int) -> Digest:
        """The newest whole log files' digest holding at least ``rows`` rows (the whole log when it holds fewer),
        oldest first: what a figure fitted on the recent answers reads, at a cost that does not grow with the
        history.  ``DamagedSave`` if a segment needed is unreadable."""
        from ..digest import Digest

        self._check_open()
        numbers: list[int] = []
        parts: list[Digest] = []
        held = 0
        for n in reversed(self._segments):
            part = self._digest_of(n, check=False)
            numbers.append(n)
            parts.append(part)
            held += len(part)
            if held >= rows:
                break
        numbers.reverse()
        parts.reverse()
        whole = Digest.joined(parts)
        if whole.problem() is None:
            return whole
        return Digest.joined(self._digest_of(n, rebuild=True) if part.problem() is not None else part
                             for n, part in zip(numbers, parts))

    def _digest_of(self, n: int, *, check: bool = True, rebuild: bool = False) -> Digest:
        """Segment ``n``'s digest: kept (if not ``rebuild``), else made from its rows and kept."""
        from ..digest import Digest

        if n == self._seg_n and self._seg_db is not None:
            return Digest.of_rows(list(self._seg_rows))  # one snapshot, whatever another thread records
        seg = self._seg_path(n)
        identity = file_identity(seg)  # taken before reading: a change meanwhile makes the digest stale
        d = None if identity is None or rebuild else read_digest(digest_path(seg), identity, check=check)
        if d is None:
            d = Digest.of_rows(self._rows_of(n))
            if identity is not None and not self.read_only:
                write_digest(digest_path(seg), d, identity)
        return d

    def running(self) -> Running:
        """The statistics' running totals of the whole log (``engine.stats_running.Running``: every figure of
        ``drill stats`` and the stats screen, at a cost that does not grow with the history).

        Read from beside the log (:mod:`.totals`) and brought up to date from its newest files; made again
        from the whole log when missing, damaged or out of step (an undo, a re-grade, an import), and then
        written by a writer.  Kept in memory and added to by every row recorded.  ``DamagedSave`` if a log
        file needed is unreadable."""
        from ..stats_running import Running
        from . import totals

        self._check_open()
        if self._running is not None:
            return self._running
        path = stats_path(self.path)
        try:
            kept = totals.read(path)
        except (ValueError, OSError):  # damaged (drill doctor names it): made again below
            kept = None
        running = None if kept is None else totals.catch_up(kept, self._next_id, self._segments, self._log_rows)
        fresh = running is None
        if running is None:
            running = Running.of_digest(self.digest())
        self._running = running
        if fresh and not self.read_only:
            self._write_totals(self._newest_tip(self._undo))
        return running

    def _log_rows(self, n: int) -> list[dict]:
        """Log file ``n``'s rows: the newest from memory."""
        return list(self._seg_rows) if n == self._seg_n and self._seg_db is not None else self._rows_of(n)

    def _write_totals(self, tip: list | None) -> None:
        """Write the running totals beside the log, if read (best effort: a cache, made again when needed)."""
        from . import totals

        if self._running is None or self.read_only:
            return
        try:
            totals.write(stats_path(self.path), self._running, self._next_id, tip)
        except OSError:  # (SaveFailed): the file left is out of step, so it is caught up or made again
            pass

    def is_empty(self) -> bool:
        return not self._states and not self._seg_rows and not self._mock_db.table("mocks").all()
