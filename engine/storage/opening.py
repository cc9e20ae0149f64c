"""Opening a profile's files: reading the state, the mocks and the newest segment, checked against the log."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from tinydb.table import Document

from ..checks import ts_ok
from ..sm2 import ItemState
from . import durable as _durable
from . import journal, manifest, mockfile
from .base import ProfileBase
from .durable import cache_of, check_meta, flush_db, open_db
from .errors import DamagedSave, JournalDamaged, ProfileIncomplete, ReadFailed, save_failed
from .layout import SEGMENT_FILE, backup_path, backup_paths, digest_path, journal_path, stats_path
from .recent import NO_RECENT, ItemRecent
from .segments import row_sum, segment_rows
from .validation import day_ok, is_int, mock_problem, plain_problem, setting_problem, text_ok


class ProfileOpening(ProfileBase):
    """How :class:`~engine.storage.profile.Profile` reads its files at open and brings the state level with the log."""

    def _recover_import(self) -> None:
        """Finish or roll back an import interrupted between its two renames."""
        staging, old = self.root / f".{self.name}.import", self.root / f".{self.name}.old"
        if not self.path.exists() and old.exists():
            _durable.fault_point("replace", self.path)
            os.replace(old, self.path)
        shutil.rmtree(staging, ignore_errors=True)  # leftovers: removed when the folder can be written
        shutil.rmtree(old, ignore_errors=True)

    def _load(self) -> None:
        self._running = None  # read when first needed, from the files as they are now
        if not self.read_only:  # a reader leaves every file as it is: a writer may be using them
            self._recover_import()
        elif not self.path.exists() and (old := self.root / f".{self.name}.old").is_dir():
            self.path = old  # an import stopped between its two renames: the profile as it was (the writer's
            # next open puts it back)
        for folder, what in ((self.path, "the profile's folder"), (self.path / "reviews", "the review log's folder")):
            if folder.is_symlink() and not folder.exists():
                raise self._damaged(folder, f"it should be {what} but is a symbolic link to "
                                            f"{os.readlink(folder)}, which does not exist")
            if folder.exists() and not folder.is_dir():
                raise self._damaged(folder, f"it should be {what} but is a file")
        if not self.read_only:
            (self.path / "reviews").mkdir(parents=True, exist_ok=True)
            for folder in (self.path, self.path / "reviews"):
                for stale in folder.glob(".*.tmp"):  # temporaries of a write that never finished
                    try:
                        stale.unlink()
                    except OSError:  # a read-only folder: harmless, removed once it can be written
                        pass
        folder = self.path / "reviews"
        self._segments = sorted(int(m.group(1)) for p in (folder.iterdir() if folder.is_dir() else ())
                                if (m := SEGMENT_FILE.fullmatch(p.name)))
        self._state_db = open_db(self.path / "state.json")
        self._mock_db = open_db(self.path / "mocks.json")
        self._seg_db, self._seg_n, self._seg_rows = None, 0, []
        fresh_state = not (self.path / "state.json").exists()
        self._read_state()
        self._check_parts(fresh_state)  # before anything is written
        self._read_mocks()
        mockfile.check_journal(self)
        if self._segments:
            self._open_segment(self._segments[-1])
        self._reconcile(fresh_state)
        if not self.read_only and self._segments and not stats_path(self.path).exists():
            try:  # the statistics' running totals (a save from before them, or deleted): made once, for readers
                self.running()
            except DamagedSave:  # an older log file unreadable: said when the statistics are asked for
                pass
        if not self.read_only:
            self._sync_manifest()

    def _check_parts(self, fresh_state: bool) -> None:
        """Every part against the manifest (:mod:`.manifest`; a save from before manifests: against the state
        file's counter): a part gone, shorter, other than listed or one too many raises ``ProfileIncomplete``
        naming each with the review ids it should hold, before anything is written."""
        m = manifest.read(self.path)
        state_next = None if fresh_state else self._next_id
        if m is not None:
            gaps = manifest.survey(self.path, m, state_next, self._undo)
        elif self._segments:
            gaps = manifest.unlisted(self.path, state_next, self._undo, self._newest_known_rows())
        else:
            gaps = []
        if gaps:
            raise ProfileIncomplete(self.path, [g.said() for g in gaps], gaps[0].file)
        self._manifest = m

    def _newest_known_rows(self) -> list[dict] | None:
        """The newest log file's rows as its journal gives them (else as the file holds them); None if neither
        can be read (said when the file is opened)."""
        path = self._seg_path(self._segments[-1])
        try:
            j = journal.read_journal(journal_path(path))
            if j.problem is None and j.lines:
                return sorted(j.rows_at().values(), key=lambda r: r["id"])
            return segment_rows(_durable.read_tables(path), path)
        except (OSError, DamagedSave):
            return None

    def _sync_manifest(self) -> None:
        """A writer's manifest, made level with the files as opened (a save from before manifests gets one, from
        every log file: once) and written if it changed."""
        m = self._manifest
        try:
            if m is None:  # (no backup of one either: a save from before replica ids, whose rows are named so)
                old = not any(b.exists() for b in backup_paths(self.path / manifest.NAME))
                m = manifest.from_files(self.path, state_next=self._next_id, old=old)
                self._manifest = m
                m.write(self.path)
                return
        except DamagedSave:  # an older log file that cannot be read: listed once it is repaired
            return
        except OSError as e:
            self.state_behind = save_failed(e, self.path / manifest.NAME)
            return
        before = m.tables()
        self._note_parts()
        if m.tables() != before:
            self._write_manifest()
        elif m.newest_tables() != m.newest_read:  # its newest entry missing, damaged or behind: made level
            self._write_manifest(newest_only=True)

    def _note_parts(self) -> None:
        """The manifest's entries of the log files and the files beside them as they are now (in memory)."""
        m = self._manifest
        assert m is not None
        kept = set(self._segments)
        for n in m.segments():
            if n not in kept:
                m.forget_segment(n)
        if self._seg_db is not None:  # as its journal gives it at the line the file holds (a row left out in
            # memory, an undo whose write failed, is still in both)
            rows = sorted(self._jrows.values(), key=lambda r: r["id"])
            m.note_segment(self._seg_n, rows, self._jseq, self._jsize, self.path)
        m.next_id = max(m.next_id, self._next_id)
        for part in manifest.FILE_PARTS:  # a kind of file listed there is listed here once it exists
            if part.file not in m.parts and (self.path / part.file).exists():
                m.note_file(part.file)
        for name in ("mocks.json", "mocks.journal"):
            if name in m.parts:
                m.note_file(name, rows=len(self._mjrows))

    def _write_manifest(self, newest_only: bool = False) -> None:
        """Write the manifest as it is in memory (``newest_only``: only its newest log file's entry,
        ``manifest.NEWEST``); a failure is kept in ``state_behind`` (the change itself is durable, and the
        manifest accepts the newest log file's journal lines after its own: written next time)."""
        if self._manifest is None:
            return
        try:
            if newest_only:
                self._manifest.write_newest(self.path, self._seg_n if self._seg_db is not None else None)
            else:
                self._manifest.write(self.path)
        except OSError as e:
            self.state_behind = save_failed(e, self.path / (manifest.NEWEST if newest_only else manifest.NAME))

    def _damaged(self, path: Path, reason: str) -> DamagedSave:
        return DamagedSave(path, reason, backup_path(path))

    def _read_state(self) -> None:
        path = self.path / "state.json"
        meta = check_meta(self._state_db.storage.read(), path, "state", empty_ok=True)
        next_id, undo = meta.get("next_id", 1), meta.get("undo")
        if not is_int(next_id) or next_id < 1 or not (undo is None or is_int(undo)):
            raise self._damaged(path, "its review counter is not a whole number")
        self._next_id, self._undo = next_id, undo
        tip = meta.get("tip")
        self._tip = tip if isinstance(tip, list) and len(tip) == 2 and is_int(tip[0]) else None
        self._states: dict[str, ItemState] = {}
        self._state_ids: dict[str, int] = {}
        for doc in self._state_db.table("states").all():
            try:
                item = doc.get("item")
                if not isinstance(item, str) or not item or not text_ok(item):
                    raise ValueError("an item state without an item id")
                self._states[item] = ItemState.from_dict({k: v for k, v in doc.items() if k != "item"})
            except ValueError as e:
                raise self._damaged(path, f"bad item state ({e})") from None
            self._state_ids[item] = doc.doc_id
        stored: dict[str, Any] = self._state_db.table("settings").get(doc_id=1) or {}
        # a setting whose value this drill cannot use (edited by hand, or written by another version) is left
        # out, named in ignored_settings, and left as it is in the file until it is set again
        self.ignored_settings = {key: p for key, value in stored.items()
                                 if (p := setting_problem(key, value)) is not None}
        self._ignored_raw = {k: v for k, v in stored.items()  # (not one that cannot be written back: NaN...)
                             if k in self.ignored_settings and plain_problem(v, k) is None}
        self._settings = {k: v for k, v in stored.items() if k not in self.ignored_settings}
        # each setting's change time (a merge takes the latest: engine.storage.merging); a time unreadable is none
        changed: Mapping[str, Any] = self._state_db.table("changed").get(doc_id=1) or {}
        self._changed: dict[str, str] = {k: v for k, v in changed.items() if k in stored and ts_ok(v)}
        self._days, self._days_whole = ({} if not meta else self._stored_days(next_id)), True
        self._recent, self._recent_whole = ({} if not meta else self._stored_recent(next_id)), True

    def _stored_days(self, next_id: int) -> dict[str, int] | None:
        """The state file's rows per day, if they are whole and count the same rows as its ``next_id``.

        None (rebuild from the log) when missing (a save from before the index) or
        out of step with the file's review counter (written by a drill that did not keep it).
        """
        doc = self._state_db.table("days").get(doc_id=1)
        counts = doc.get("counts") if doc is not None else None
        if doc is None or doc.get("next_id") != next_id or type(counts) is not dict:
            return None
        if not all(type(d) is str and day_ok(d) and type(n) is int and n >= 1 for d, n in counts.items()):
            return None
        return dict(counts)

    def _stored_recent(self, next_id: int) -> dict[str, ItemRecent] | None:
        """The state file's latest answers of each item, if whole and in step with its ``next_id`` (else None:
        rebuild them from the log, as for the day index)."""
        doc = self._state_db.table("recent").get(doc_id=1)
        items = doc.get("items") if doc is not None else None
        if doc is None or doc.get("next_id") != next_id or type(items) is not dict:
            return None
        out = {}
        for item, d in items.items():
            if (r := ItemRecent.from_dict(d)) is None or not item:
                return None
            out[item] = r
        return out

    def _read_mocks(self) -> None:
        path = self.path / "mocks.json"
        check_meta(self._mock_db.storage.read(), path, "mocks", empty_ok=True)
        for doc in self._mock_db.table("mocks").all():
            if (p := mock_problem(doc)) is not None:
                raise self._damaged(path, f"bad mock result ({p})")

    def _open_segment(self, n: int) -> None:
        if self._seg_db is not None:
            cache_of(self._seg_db).storage.close()
        path = self._seg_path(n)
        if not self.read_only:
            self._forget_digest(path)  # the newest segment changes: it has no digest
        self._seg_db = open_db(path)
        self._seg_n = n
        tables = cache_of(self._seg_db).read()
        self._seg_rows = segment_rows(tables, path)
        self._check_journal(path, tables["meta"]["1"].get("seq", 0))

    def _check_journal(self, path: Path, seq: object) -> None:
        """Compare the newest segment with its journal (see :mod:`.journal`): a segment behind its journal
        (a crash between the two writes, an older copy put back) is made from the journal, the newest review
        kept; a journal damaged or behind is set aside and written again from the whole segment, and said."""
        jpath = journal_path(path)
        assert self._seg_db is not None  # _open_segment opened it
        try:
            j = journal.read_journal(jpath)
        except OSError as e:
            raise ReadFailed(jpath, e) from None
        seq = seq if is_int(seq) and seq >= 0 else 0
        rows = {r["id"]: r for r in self._seg_rows}
        problem = journal.step_problem(j, seq, rows)
        self._jrows, self._jseq, self._jsize = (j.rows_at(), j.seq, j.size) if problem is None else (rows, seq, 0)
        if problem is None and j.seq > seq:  # the segment is behind: made from the journal
            ahead = sorted(self._jrows.values(), key=lambda r: r["id"])
            if not self.read_only:
                reviews = self._seg_db.table("reviews")
                reviews.truncate()
                for r in ahead:
                    reviews.insert(Document(r, doc_id=r["id"]))
                self._seg_db.table("meta").upsert(Document(journal.segment_meta(j.seq, j.size), doc_id=1))
                try:
                    flush_db(self._seg_db)
                except OSError as e:
                    cache_of(self._seg_db)._cache_modified_count = 0
                    self.state_behind = save_failed(e, path)
            self._seg_rows = [dict(r) for r in ahead]
        if problem is not None:
            self.damaged[jpath] = JournalDamaged(jpath, problem, healed=False)
            if not self.read_only:
                try:
                    aside = jpath.with_name(jpath.name + ".damaged")
                    if jpath.exists():
                        _durable.fault_point("replace", aside)
                        os.replace(jpath, aside)
                    journal.write_whole(jpath, [rows[i] for i in sorted(rows)], seq=max(seq, 1))
                    self._jseq, self._jsize = max(seq, 1), jpath.stat().st_size
                    self._jrows = dict(rows)
                    self.damaged[jpath] = JournalDamaged(jpath, problem, healed=True,
                                                         aside=aside if aside.exists() else None)
                    meta = self._seg_db.table("meta").get(doc_id=1)
                    assert meta is not None  # segment_rows checked the file's meta row
                    if seq < 1 or meta.get("jsize") != self._jsize:
                        self._seg_db.table("meta").upsert(Document(journal.segment_meta(self._jseq, self._jsize),
                                                                   doc_id=1))
                        flush_db(self._seg_db)
                except OSError as e:  # the next write tries again
                    self._jrows, self._jseq, self._jsize = rows, seq, 0
                    self.state_behind = save_failed(e, jpath)

    @staticmethod
    def _forget_digest(segment: Path) -> None:
        try:
            digest_path(segment).unlink(missing_ok=True)
        except OSError:  # pragma: no cover - a read-only folder: the digest is checked when read anyway
            pass

    def _reconcile(self, fresh_state: bool) -> None:
        """Repair what a crash between two writes left behind."""
        changed = False
        if self._seg_db is not None and self._undo is not None and self._seg_rows \
                and self._seg_rows[-1]["id"] == self._undo:
            if self.read_only:  # the writer removes it; a reader leaves it out
                self._seg_rows = self._seg_rows[:-1]
            else:
                try:
                    self._remove_last_row()  # the state was restored, the row not yet removed
                except OSError as e:  # left out all the same; removed by the next write of its file
                    self.state_behind = save_failed(e, self._seg_path(self._seg_n))
        if not fresh_state and self._segments and not self._tip_ok():
            # the newest rows the state file counted were re-graded or taken back after it was written (a crash
            # between the log's write and the state file's): the log is the truth, the summary is made again
            self._states = {}
            self._next_id, self._days, self._recent = 1, {}, {}
            fresh_state = True
        if fresh_state and self._segments:  # the state file is gone: rebuild it from the whole log
            rows: Iterator[dict] | list[dict] = self._review_dicts()
        else:  # the rows recorded after the state file was last written
            rows = []
            for n in reversed(self._segments):
                seg = self._rows_of(n)
                rows[:0] = [r for r in seg if r["id"] >= self._next_id]
                if seg and seg[0]["id"] < self._next_id:  # (an emptied newest file: the one before it may count)
                    break
        for row in rows:
            self._apply(row)
            changed = True
        if changed and not self.read_only:
            self._save_state()

    def _newest_tip(self, undo: int | None = None) -> list | None:
        """[id, checksum] of the newest row of the log but the one being undone (``undo``): what the state
        file counts up to when written."""
        for n in reversed(self._segments):
            rows = self._seg_rows if n == self._seg_n and self._seg_db is not None else None
            if rows is None:
                try:
                    rows = self._rows_of(n)
                except DamagedSave:
                    return None
            rows = [r for r in rows[-2:] if r["id"] != undo]
            if rows:
                return [rows[-1]["id"], row_sum(rows[-1])]
        return None

    def _tip_ok(self) -> bool:
        """Whether the row the state file last counted is still in the log as it was then (a re-grade or an
        undo whose state write never happened makes it differ).  A state file from before tips: trusted."""
        if self._tip is None:
            return True
        tip_id, tip_sum = self._tip
        for n in reversed(self._segments):
            try:
                rows = self._rows_of(n)
            except DamagedSave:
                return True  # reported when read; nothing to compare with
            if rows and rows[0]["id"] <= tip_id:
                found = next((r for r in rows if r["id"] == tip_id), None)
                return found is not None and row_sum(found) == tip_sum
        return False

    def _apply(self, row: Mapping) -> None:
        if row["scheduled"]:
            self._states[row["item"]] = ItemState.from_dict(row["after"])
        self._next_id = max(self._next_id, row["id"] + 1)
        self._count_day(row["date"], 1)
        if self._running is not None:  # (else read, and brought up to date from the log, when needed)
            from ..stats_running import row_columns

            self._running.add(row_columns(row))
        if self._recent is not None:
            item = row["item"]
            self._recent[item] = self._recent.get(item, NO_RECENT).after(row["quality"], row["step"],
                                                                          row["verdict"], row["date"])

    def _count_day(self, day: str, change: int) -> None:
        if self._days is not None:
            n = self._days.get(day, 0) + change
            if n > 0:
                self._days[day] = n
            else:
                self._days.pop(day, None)
