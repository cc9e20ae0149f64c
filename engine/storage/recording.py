"""Writing a profile: recording a review row, rewriting in a batch, undoing the last row, settings and mocks."""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tinydb.table import Document

from ..review import Review
from ..sm2 import ItemState
from . import durable as _durable
from . import journal, layout, manifest, mockfile
from .base import ProfileBase
from .durable import DurableStorage, cache_of, flush_db, fsync_dir, open_db
from .errors import DamagedSave, InvalidDocument, save_failed
from .layout import OPTIONAL_ROW_FIELDS, ROW_FIELDS, SCHEMA_VERSION, backup_paths, digest_path, journal_path
from .segments import file_identity, segment_rows, write_digest
from .validation import mock_problem, plain_copy, row_problem, setting_problem


class ProfileRecording(ProfileBase):
    """How :class:`~engine.storage.profile.Profile` writes: each row to the log first, then the state file."""

    # -- writing ---------------------------------------------------------- #

    def _save_state(self, undo: int | None = None) -> None:
        """Write the state file if possible: it only summarises the log, so a failure is kept in
        :attr:`state_behind` (the rows are durable; the next open replays them) instead of raised."""
        try:
            self._write_state(undo)
        except OSError as e:
            self.state_behind = save_failed(e, self.path / "state.json")

    def _write_state(self, undo: int | None = None) -> None:
        db = self._state_db
        tip = self._newest_tip(undo)
        db.table("meta").upsert(Document({"schema": SCHEMA_VERSION, "kind": "state", "next_id": self._next_id,
                                          "undo": undo, "tip": tip}, doc_id=1))
        states = db.table("states")
        stale = [self._state_ids.pop(i) for i in list(self._state_ids) if i not in self._states]
        if stale:
            states.remove(doc_ids=stale)
        for item, st in self._states.items():
            doc = {"item": item, **st.to_dict()}
            did = self._state_ids.get(item)
            if did is None:
                self._state_ids[item] = states.insert(doc)
            elif states.get(doc_id=did) != doc:
                states.update(doc, doc_ids=[did])
        settings = db.table("settings")  # written whole (an upsert would keep a key whose write failed)
        settings.truncate()
        settings.insert(Document({**self._ignored_raw, **self._settings}, doc_id=1))
        changed = db.table("changed")
        changed.truncate()
        if self._changed:
            changed.insert(Document(dict(self._changed), doc_id=1))
        if self._days is not None and self._days_whole:
            db.table("days").upsert(Document({"next_id": self._next_id, "counts": dict(self._days)}, doc_id=1))
        else:
            db.drop_table("days")
        if self._recent is not None and self._recent_whole:
            items = {item: r.to_dict() for item, r in self._recent.items()}
            db.table("recent").upsert(Document({"next_id": self._next_id, "items": items}, doc_id=1))
        else:
            db.drop_table("recent")
        try:
            flush_db(db)
        except OSError as e:
            raise save_failed(e, self.path / "state.json") from e
        self._undo, self._unsaved, self.state_behind, self._tip = undo, 0, None, tip
        self._write_totals(tip)  # after the state file: totals ahead of it are out of step, so made again
        if self._manifest is not None and "state.json" not in self._manifest.parts:  # the first state file
            self._manifest.note_file("state.json")
            self._write_manifest()

    def record(self, row: Review | Mapping[str, Any]) -> Review:
        """Append a review row (:func:`engine.session.review_row`, or a row as stored); durable when it returns.

        A scheduled row sets the item's state to its ``after``.  Returns the
        stored row with its ``id``.  ``InvalidDocument`` names a bad field.
        """
        self._check_writer()
        if isinstance(row, Review):
            row = row.to_dict()
        if (p := row_problem(row, stored=False)) is not None:
            raise InvalidDocument(f"review row: {p}")
        stored = plain_copy({k: row[k] for k in ROW_FIELDS[1:] + OPTIONAL_ROW_FIELDS if k in row})
        stored = {"id": self._next_id, **stored}
        # a full segment is closed unless its newest row is a chain's step: a chain's last step and its whole
        # row stay in one file, so a re-grade of them is one write (a segment may hold a few rows more)
        full = self._seg_db is not None and len(self._seg_rows) >= layout.SEGMENT_ROWS \
            and self._seg_rows[-1]["step"] is None
        rolled = full
        if self._seg_db is None or full:
            if self._seg_db is not None:  # the full segment is closed: it never changes again
                seg = self._seg_path(self._seg_n)
                if self._manifest is not None:  # listed as it is closed (written with the new one's first row)
                    closed = sorted(self._jrows.values(), key=lambda r: r["id"])
                    self._manifest.note_segment(self._seg_n, closed, self._jseq, self._jsize, self.path)
                if (identity := file_identity(seg)) is not None:
                    from ..digest import Digest

                    write_digest(digest_path(seg), Digest.of_rows(self._seg_rows), identity)
            n = self._segments[-1] + 1 if self._segments else 1
            self._open_segment_new(n)
        assert self._seg_db is not None  # open, or opened just above
        table = self._seg_db.table("reviews")
        table.insert(Document(stored, doc_id=stored["id"]))
        try:
            if not self._batch:
                self._flush_segment()
        except BaseException:
            table.remove(doc_ids=[stored["id"]])  # keep the cache equal to the file
            cache_of(self._seg_db)._cache_modified_count = 0
            if rolled:  # the new segment was never written: the full one stays the newest
                cache_of(self._seg_db).storage.close()
                self._seg_db = None
                self._segments.pop()
                self._open_segment(self._segments[-1])
            raise
        if self._running is None:  # the running statistics are kept up to date by every row recorded
            try:
                self.running()
            except DamagedSave:  # an older log file unreadable: the statistics say so when asked
                pass
        self._seg_rows.append(stored)
        self._apply(stored)
        self._unsaved += 1
        if self._unsaved >= layout.STATE_EVERY and not self._batch:
            self._save_state()  # the row is durable now: a state file that cannot be written is not a failure
        return Review.of(plain_copy(stored))

    def _open_segment_new(self, n: int) -> None:
        if self._seg_db is not None:
            cache_of(self._seg_db).storage.close()
        self._forget_digest(self._seg_path(n))
        self._jrows, self._jseq, self._jsize = {}, 0, 0  # (a journal left by a file of that number is cut off)
        self._seg_db = open_db(self._seg_path(n))
        self._seg_db.table("meta").insert(Document({"schema": SCHEMA_VERSION, "kind": "reviews"}, doc_id=1))
        self._seg_n, self._seg_rows = n, []
        self._segments.append(n)

    @contextmanager
    def rewriting(self) -> Iterator[None]:
        """Changes made inside (:meth:`undo_last`, :meth:`record`: a re-grade takes back the newest rows and
        records them again) reach the log in one replace of its newest file at the end: a crash or a failed
        write leaves the old rows or the new ones, never neither (the state file follows; if it cannot, it is
        made again from the log at the next open).  On ``SaveFailed`` (or any error inside) nothing changed.

        A re-grade whose rows began in the log file before the newest (a chain's step row) writes that
        file first, alone."""
        self._check_writer()
        if self._batch:
            yield
            return
        kept = (copy.deepcopy(self._states), None if self._days is None else dict(self._days),
                None if self._recent is None else dict(self._recent), self._recent_whole, self._next_id,
                self._unsaved, list(self._segments), self._seg_n)
        self._batch, self._split = True, False
        try:
            yield
            if self._batch:
                self._commit_batch()
        except BaseException:
            self._batch = False
            if self._split:  # ended early (see undo_last): each later change kept itself whole
                raise
            (self._states, self._days, self._recent, self._recent_whole, self._next_id, self._unsaved,
             segments, seg_n) = kept
            self._running = None  # made again from the log as it is, when next needed
            for n in self._segments:  # a segment begun inside and never written
                if n not in segments:
                    self._forget_digest(self._seg_path(n))
            self._segments = segments
            self._open_segment(seg_n)  # the rows as the file holds them
            raise
        finally:
            self._batch = False
        self._save_state(self._undo)

    @property
    def rewrite_split(self) -> bool:
        """True after a :meth:`rewriting` that had to write in parts (its rows in two log files)."""
        return self._split

    def _commit_batch(self) -> None:
        self._flush_segment()

    def _flush_segment(self) -> None:
        """Write the newest segment as its cache holds it: first its journal line (what the write drops and
        puts, fsynced), then the segment, whose meta names that line (see :mod:`.journal`).  ``SaveFailed``
        names the file that failed; the journal is then cut back (the row was not stored)."""
        db, path = self._seg_db, self._seg_path(self._seg_n)
        assert db is not None  # only the open segment is written
        cache = cache_of(db).read()
        new = {r["id"]: r for r in cache.get("reviews", {}).values()}
        old = self._jrows
        drop = sorted(i for i in old if i not in new)
        put = [new[i] for i in sorted(new) if old.get(i) != new[i]]
        seq = self._jseq + 1
        line = journal.line_of(seq, drop, put)
        jpath = journal_path(path)
        journal.append(jpath, line, self._jsize)
        db.table("meta").upsert(Document(journal.segment_meta(seq, self._jsize + len(line)), doc_id=1))
        try:
            flush_db(db)
        except OSError as e:
            journal.cut_back(jpath, self._jsize)
            db.table("meta").upsert(Document(journal.segment_meta(self._jseq, self._jsize), doc_id=1))
            cache_of(db)._cache_modified_count = 0
            raise save_failed(e, path) from e
        self._jrows, self._jseq, self._jsize = dict(new), seq, self._jsize + len(line)
        self._log_written([new[i] for i in sorted(new)])

    def _log_written(self, rows: list[dict] | None) -> None:
        """The manifest follows every write of the newest log file, written after it (see :mod:`.manifest`;
        ``rows``: what the newest file holds now; None: the newest was removed).  A write that changes the
        parts (a new log file, one removed) rewrites the manifest; one within the newest log file (an answer, a
        re-grade, an undo) writes only that file's entry (``manifest.NEWEST``: small, of constant size; the
        manifest, whose size grows with the history, stays as it is)."""
        m = self._manifest
        if m is None:
            return
        if rows is None:
            kept = set(self._segments)
            for n in m.segments():
                if n not in kept:
                    m.forget_segment(n)
        else:
            listed = manifest.segment_name(self._seg_n) in m.parts
            m.note_segment(self._seg_n, rows, self._jseq, self._jsize, self.path)
            if listed:
                self._write_manifest(newest_only=True)
                return
        self._write_manifest()

    def undo_last(self) -> Review | None:
        """Remove the newest review row and restore the item's state before it; None if no row."""
        self._check_writer()
        if self._batch and not self._seg_rows and len(self._segments) > 1:
            # a re-grade reaching into the log file before the newest: what is done so far is written, and the
            # rest goes on write by write (each atomic; a chain whose step row closed a file: rare)
            self._commit_batch()
            self._batch, self._split = False, True
        if not self._seg_rows:
            return None
        row = self._seg_rows[-1]
        kept = (dict(self._states), None if self._days is None else dict(self._days),
                None if self._recent is None else dict(self._recent), self._recent_whole)
        if row["scheduled"]:
            before = row["before"]
            if before is None:
                self._states.pop(row["item"], None)
            else:
                self._states[row["item"]] = ItemState.from_dict(before)
        self._count_day(row["date"], -1)
        self._running = None  # a total cannot be taken back: made again from the log when next needed
        if self._recent is not None:
            self._recent.pop(row["item"], None)
            if (r := self._recent_before_last(row["item"])) is not None:
                self._recent[row["item"]] = r
        if self._batch:  # one write of the segment at the end of rewriting(); the state file follows it
            assert self._seg_db is not None  # it holds the rows of _seg_rows
            self._seg_rows.pop()
            self._seg_db.table("reviews").remove(doc_ids=[row["id"]])
            self._next_id = row["id"]
            return Review.of(plain_copy(row))
        try:
            self._write_state(undo=row["id"])  # first: a crash now is finished by the next open
        except OSError:  # nothing changed on disk: nothing changes here either
            self._states, self._days, self._recent, self._recent_whole = kept
            raise
        try:
            self._remove_last_row()
        except OSError as e:  # the state file says the row is undone: the next open removes it
            self.state_behind = save_failed(e, self._seg_path(self._seg_n))
        return Review.of(plain_copy(row))

    def _remove_last_row(self) -> None:
        """Remove the newest row from the log: from its file, or the file itself when it holds no other row
        (the one before becomes the newest again).  A write that fails (``SaveFailed``) leaves the row out
        all the same: gone from memory and from the file's cache, so the next write of that file lacks it."""
        path = self._seg_path(self._seg_n)
        assert self._seg_db is not None  # it holds the row removed
        if len(self._seg_rows) == 1:
            previous = self._segments[-2] if len(self._segments) > 1 else None
            try:
                if previous is not None:  # the newest again: it must be readable, else this file stays the newest
                    segment_rows(DurableStorage(self._seg_path(previous)).read(), self._seg_path(previous))
                _durable.fault_point("unlink", path)
                path.unlink()
            except (OSError, DamagedSave):  # (or the folder cannot be changed): the file is emptied instead, below
                pass
            else:
                self._seg_rows.pop()
                cache_of(self._seg_db).storage.close()
                self._seg_db = None
                for leftover in (*backup_paths(path), journal_path(path)):
                    try:
                        _durable.fault_point("unlink", leftover)
                        leftover.unlink(missing_ok=True)
                    except OSError:  # a backup or journal without its file: harmless (a new file of that
                        pass  # number starts its journal afresh, and a backup is never offered without its file)
                self._after_segment_removed(path)
                return
        row = self._seg_rows.pop()
        self._seg_db.table("reviews").remove(doc_ids=[row["id"]])
        self._flush_segment()

    def _after_segment_removed(self, path: Path) -> None:
        fsync_dir(path.parent)
        self._segments.pop()
        self._log_written(None)
        if self._segments:
            self._open_segment(self._segments[-1])

    def set_setting(self, key: str, value: Any) -> None:
        self.set_settings({key: value})

    def set_settings(self, changes: Mapping[str, Any], when: datetime | None = None) -> None:
        """Set every setting of ``changes`` in one write: all of them are saved, or (``InvalidDocument``,
        ``SaveFailed``) none is and nothing changes.  Each is stamped with its change time ``when`` (default:
        now; a merge of two copies takes each setting's latest, ``engine.storage.merging``)."""
        self._check_writer()
        for key, value in changes.items():
            if (p := setting_problem(key, value)) is not None:
                raise InvalidDocument(p)
        before, before_changed = copy.deepcopy(self._settings), dict(self._changed)
        self._settings.update(copy.deepcopy(dict(changes)))
        # the time of the change, not of a schedule: the system clock unless told (a test, a replayed change)
        stamp = (when or self.clock()).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        self._changed.update(dict.fromkeys(changes, stamp))
        try:
            self._write_state(self._undo)
        except BaseException:
            self._settings, self._changed = before, before_changed  # not saved: not changed
            raise
        for key in changes:  # the values in the file are these now
            self.ignored_settings.pop(key, None)
            self._ignored_raw.pop(key, None)

    def add_mock(self, result: Mapping[str, Any]) -> dict:
        """Store a mock-interview result; returns it with its ``id``."""
        self._check_writer()
        if (p := mock_problem(result, stored=False)) is not None:
            raise InvalidDocument(f"mock result: {p}")
        return mockfile.add(self, result)
