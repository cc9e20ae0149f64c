"""The profile: one learner's save files, opened exclusively, recorded to and read (see the package docstring)."""

from __future__ import annotations

import copy
import os
import shutil
import time
from collections import Counter
from collections.abc import Mapping
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Iterator

from tinydb import TinyDB
from tinydb.table import Document

from ..messages import Twin
from ..sm2 import ItemState
from . import durable as _durable
from . import journal, layout, mockfile, snapshots
from .durable import DurableStorage, check_meta, flush_db, fsync_dir, open_db
from .errors import (
    BadProfileName,
    DamagedSave,
    InvalidDocument,
    JournalDamaged,
    ReadFailed,
    SaveFailed,
    save_failed,
    saves_problem,
)
from .jsonstream import ObjectStream
from .layout import (
    DEFAULT_SETTINGS,
    EXPORT_FORMAT,
    OPTIONAL_ROW_FIELDS,
    PROFILE_NAME,
    RECENT_QUALITIES,
    ROW_FIELDS,
    SCHEMA_VERSION,
    SEGMENT_FILE,
    backup_path,
    backup_paths,
    digest_path,
    journal_path,
    segment_path,
)
from .lock import ProfileLock, ReaderHandle
from .recent import NO_RECENT, ItemRecent, recent_columns, recent_of
from .segments import file_identity, read_digest, row_sum, segment_rows, write_digest
from .transfer import export_chunks, exported, swap_in
from .validation import (
    STREAMED,
    day_ok,
    is_int,
    members_of,
    mock_problem,
    plain_copy,
    plain_problem,
    row_copy,
    row_problem,
    setting_problem,
    text_ok,
)

if TYPE_CHECKING:
    from ..stats import Digest


READ_ATTEMPTS = 3  # a reader reads the files again when one was replaced between two reads
MAX_IMPORT_VALUE = 16 << 20  # characters of one value of an imported file (a row, a mock, the item states...)


class Profile:
    """One learner's save files, held exclusively while open.

    Opening reads only the state file, the mocks and the newest log segment,
    so it stays fast however long the history; :meth:`reviews` and
    :meth:`digest` read older segments on demand (and raise
    :class:`DamagedSave` if one is unreadable).
    """

    def __init__(self, root: Path, name: str, lock: ProfileLock):
        self.root, self.name, self._lock = root, name, lock
        self.path = root / name
        self._segments: list[int] = []
        self._seg_db: TinyDB | None = None
        self._seg_n, self._seg_rows = 0, []
        self._unsaved = 0  # rows recorded since the state file was last written
        self._batch = False  # inside rewriting(): changes of the newest segment wait for one write at its end
        self._split = False  # the last rewriting() was written in parts (see undo_last)
        # the newest segment's journal: the rows it gives, its last line's seq, its size in bytes (see .journal)
        self._jrows: dict[int, dict] = {}
        self._jseq = self._jsize = 0
        # the same for the mocks file's journal (mocks.journal): its mock results, last seq, size
        self._mjrows: dict[int, dict] = {}
        self._mjseq = self._mjsize = 0
        self._tip: list | None = None  # the state file's newest row when written: [id, checksum] (see _tip_ok)
        self._days: dict[str, int] | None = None  # rows per day; None: to be rebuilt from the log
        self._days_whole = True  # False: rebuilt without a damaged segment, so never saved
        self._recent: dict[str, ItemRecent] | None = None  # each item's latest answers; None: to be rebuilt
        self._recent_whole = True  # as _days_whole
        # Why the state file is behind the log (a failed write), None when it is not: every row is
        # durable in the log and the state is replayed from it at the next open (see _reconcile).
        self.state_behind: SaveFailed | None = None
        self.damaged: dict[Path, DamagedSave] = {}  # older log segments found unreadable (reviews_today)
        self.ignored_settings: dict[str, str] = {}  # setting -> why its stored value is not used (the default is)
        self._ignored_raw: dict[str, Any] = {}  # those values, written back as they were
        self.read_only = isinstance(lock, ReaderHandle)  # a reader: opened without the lock, never writes

    # -- opening and closing ------------------------------------------------ #

    @classmethod
    def open(cls, root: Path, name: str = "default", *, wait: float = 0.0, read_only: bool = False) -> "Profile":
        """Open (creating if needed) profile ``name`` under ``root``.

        Raises :class:`ProfileLocked` if another process holds it after
        ``wait`` seconds, :class:`DamagedSave` if a file cannot be read, and
        ``ValueError`` for a bad profile name.

        ``read_only``: open it as a reader (``drill due``, ``stats``,
        ``export``), without the lock, so it works while a writer holds the
        profile: it sees the last durable state (every file is replaced
        whole, and rows the state file has not counted yet are replayed in
        memory) and writes nothing, not even the caches; recording raises
        ``ValueError``.  A file replaced between two reads is read again.
        """
        if not isinstance(name, str) or not PROFILE_NAME.fullmatch(name):
            raise BadProfileName(name)
        root = Path(root)
        if (unusable := saves_problem(root)) is not None:
            raise unusable
        if read_only:
            for attempt in range(READ_ATTEMPTS):
                profile = cls(root, name, ReaderHandle(root / f"{name}.lock"))
                try:
                    profile._load()
                    return profile
                except DamagedSave:
                    profile._close_dbs()
                    if attempt == READ_ATTEMPTS - 1:  # not a writer's change under our feet: damaged
                        raise
                    time.sleep(0.05)
                except SaveFailed:
                    profile._close_dbs()
                    raise
                except OSError as e:  # a folder this user may not read: said as reading, not writing
                    profile._close_dbs()
                    raise ReadFailed(e.filename or profile.path, e) from None
        root.mkdir(parents=True, exist_ok=True)
        lock = ProfileLock.acquire(root / f"{name}.lock", name, wait)
        profile = cls(root, name, lock)
        try:
            profile._load()
        except BaseException:
            profile._close_dbs()
            lock.release()
            raise
        return profile

    def close(self) -> None:
        if self.closed:
            return
        try:
            if self._unsaved and not self.read_only:
                self._save_state(self._undo)
        finally:
            self._close_dbs()
            self._lock.release()

    def snapshot(self, today: date) -> Path | None:
        """Today's snapshot of the whole profile (:mod:`.snapshots`: hard links, the last 7 days kept), if it has
        none yet; ``today`` from the caller's clock.  A writer's; best effort (None when none was made)."""
        if self.read_only or self.closed:
            return None
        return snapshots.take(self.root, self.name, today, self._segments[-1] if self._segments else None)

    def __enter__(self) -> "Profile":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _close_dbs(self) -> None:
        for attr in ("_state_db", "_mock_db", "_seg_db"):
            db = getattr(self, attr, None)
            if db is not None:
                db.storage.storage.close()  # never flush a half-made change: every change is flushed
                setattr(self, attr, None)

    @property
    def closed(self) -> bool:
        return self._lock.fd < 0

    def _check_open(self) -> None:
        if self.closed:
            raise ValueError(f"profile '{self.name}' is closed")

    def _check_writer(self) -> None:
        self._check_open()
        if self.read_only:
            raise ValueError(f"profile '{self.name}' is open for reading only")

    def _seg_path(self, n: int) -> Path:
        return segment_path(self.path, n)

    def _recover_import(self) -> None:
        """Finish or roll back an import interrupted between its two renames."""
        staging, old = self.root / f".{self.name}.import", self.root / f".{self.name}.old"
        if not self.path.exists() and old.exists():
            _durable.fault_point("replace", self.path)
            os.replace(old, self.path)
        shutil.rmtree(staging, ignore_errors=True)  # leftovers: removed when the folder can be written
        shutil.rmtree(old, ignore_errors=True)

    def _load(self) -> None:
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
        self._read_mocks()
        mockfile.check_journal(self)
        if self._segments:
            self._open_segment(self._segments[-1])
        self._reconcile(fresh_state)

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
        stored = self._state_db.table("settings").get(doc_id=1) or {}
        # a setting whose value this drill cannot use (edited by hand, or written by another version) is left
        # out, named in ignored_settings, and left as it is in the file until it is set again
        self.ignored_settings = {key: p for key, value in stored.items()
                                 if (p := setting_problem(key, value)) is not None}
        self._ignored_raw = {k: v for k, v in stored.items()  # (not one that cannot be written back: NaN...)
                             if k in self.ignored_settings and plain_problem(v, k) is None}
        self._settings = {k: v for k, v in stored.items() if k not in self.ignored_settings}
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
            self._seg_db.storage.storage.close()
        path = self._seg_path(n)
        if not self.read_only:
            self._forget_digest(path)  # the newest segment changes: it has no digest
        self._seg_db = open_db(path)
        self._seg_n = n
        tables = self._seg_db.storage.read()
        self._seg_rows = segment_rows(tables, path)
        self._check_journal(path, tables["meta"]["1"].get("seq", 0))

    def _check_journal(self, path: Path, seq: object) -> None:
        """Compare the newest segment with its journal (see :mod:`.journal`): a segment behind its journal
        (a crash between the two writes, an older copy put back) is made from the journal, the newest review
        kept; a journal damaged or behind is set aside and written again from the whole segment, and said."""
        jpath = journal_path(path)
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
                    self._seg_db.storage._cache_modified_count = 0
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
                    if seq < 1 or self._seg_db.table("meta").get(doc_id=1).get("jsize") != self._jsize:
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
            rows: Iterator[dict] | list[dict] = self.reviews()
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

    def record(self, row: Mapping[str, Any]) -> dict:
        """Append a review row (see :func:`engine.session.review_row`); durable when it returns.

        A scheduled row sets the item's state to ``row["after"]``.  Returns the
        stored row with its ``id``.  ``InvalidDocument`` names a bad field.
        """
        self._check_writer()
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
                if (identity := file_identity(seg)) is not None:
                    from ..stats import Digest

                    write_digest(digest_path(seg), Digest.of_rows(self._seg_rows), identity)
            n = self._segments[-1] + 1 if self._segments else 1
            self._open_segment_new(n)
        table = self._seg_db.table("reviews")
        table.insert(Document(stored, doc_id=stored["id"]))
        try:
            if not self._batch:
                self._flush_segment()
        except BaseException:
            table.remove(doc_ids=[stored["id"]])  # keep the cache equal to the file
            self._seg_db.storage._cache_modified_count = 0
            if rolled:  # the new segment was never written: the full one stays the newest
                self._seg_db.storage.storage.close()
                self._seg_db = None
                self._segments.pop()
                self._open_segment(self._segments[-1])
            raise
        self._seg_rows.append(stored)
        self._apply(stored)
        self._unsaved += 1
        if self._unsaved >= layout.STATE_EVERY and not self._batch:
            self._save_state()  # the row is durable now: a state file that cannot be written is not a failure
        return plain_copy(stored)

    def _open_segment_new(self, n: int) -> None:
        if self._seg_db is not None:
            self._seg_db.storage.storage.close()
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
        cache = db.storage.read()
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
            db.storage._cache_modified_count = 0
            raise save_failed(e, path) from e
        self._jrows, self._jseq, self._jsize = dict(new), seq, self._jsize + len(line)

    def undo_last(self) -> dict | None:
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
        if self._recent is not None:
            self._recent.pop(row["item"], None)
            if (r := self._recent_before_last(row["item"])) is not None:
                self._recent[row["item"]] = r
        if self._batch:  # one write of the segment at the end of rewriting(); the state file follows it
            self._seg_rows.pop()
            self._seg_db.table("reviews").remove(doc_ids=[row["id"]])
            self._next_id = row["id"]
            return plain_copy(row)
        try:
            self._write_state(undo=row["id"])  # first: a crash now is finished by the next open
        except OSError:  # nothing changed on disk: nothing changes here either
            self._states, self._days, self._recent, self._recent_whole = kept
            raise
        try:
            self._remove_last_row()
        except OSError as e:  # the state file says the row is undone: the next open removes it
            self.state_behind = save_failed(e, self._seg_path(self._seg_n))
        return plain_copy(row)

    def _remove_last_row(self) -> None:
        """Remove the newest row from the log: from its file, or the file itself when it holds no other row
        (the one before becomes the newest again).  A write that fails (``SaveFailed``) leaves the row out
        all the same: gone from memory and from the file's cache, so the next write of that file lacks it."""
        path = self._seg_path(self._seg_n)
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
                self._seg_db.storage.storage.close()
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
        if self._segments:
            self._open_segment(self._segments[-1])

    def set_setting(self, key: str, value: Any) -> None:
        self.set_settings({key: value})

    def set_settings(self, changes: Mapping[str, Any]) -> None:
        """Set every setting of ``changes`` in one write: all of them are saved, or (``InvalidDocument``,
        ``SaveFailed``) none is and nothing changes."""
        self._check_writer()
        for key, value in changes.items():
            if (p := setting_problem(key, value)) is not None:
                raise InvalidDocument(p)
        before = copy.deepcopy(self._settings)
        self._settings.update(copy.deepcopy(dict(changes)))
        try:
            self._write_state(self._undo)
        except BaseException:
            self._settings = before  # not saved: not changed
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

    def last_review(self) -> dict | None:
        return row_copy(self._seg_rows[-1]) if self._seg_rows else None

    def _rows_of(self, n: int) -> list[dict]:
        """The rows of segment ``n``: the newest from memory, older ones read (read-only) from disk."""
        if n == self._seg_n and self._seg_db is not None:
            return self._seg_rows
        path = self._seg_path(n)
        tables = DurableStorage(path).read()
        rows = segment_rows(tables, path)
        if journal.ahead_of(path, tables["meta"]["1"]):  # an older copy put back: never read as fewer rows
            raise DamagedSave(path, Twin(
                "it is behind its journal (an older copy put back?); drill doctor --repair brings its newest rows back",
                "它落后于自己的日志副本（放回了旧副本？）；drill doctor --repair 可找回其中最新的记录"))
        return rows

    def reviews(self) -> Iterator[dict]:
        """Every review row, oldest first (older segments are read from disk as needed)."""
        self._check_open()
        for n in list(self._segments):
            rows = self._rows_of(n)
            if rows is self._seg_rows:  # rows kept in memory: hand out copies
                yield from [row_copy(r) for r in rows]
            else:  # just read from disk: nobody else holds them
                yield from rows

    def reviews_today(self, today: date) -> list[dict]:
        """The rows recorded on the learner's day ``today``, oldest first.

        Reads back from the newest segment until it has as many rows as the day
        index counts (or reaches a segment that ends before ``today``).  A
        damaged older segment is passed over (its rows are missing from the
        answer) and kept in :attr:`damaged`, so Home, practice and ``drill due``
        still open and can name it.
        """
        self._check_open()
        day, out = today.isoformat(), []
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
        return [row_copy(r) for r in out]

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

    def digest(self) -> "Digest":
        """The whole log, oldest first, as the columns the statistics read (``engine.stats.Digest``).

        A closed segment's digest is read from beside it when it matches the
        segment file (else rebuilt from the segment and kept); the newest one's
        is made from memory.  ``DamagedSave`` if a segment needed is unreadable.
        """
        from ..stats import Digest

        self._check_open()
        numbers = list(self._segments)
        parts = [self._digest_of(n, check=False) for n in numbers]
        whole = Digest.joined(parts)
        if whole.problem() is None:  # the values of all of them checked at once
            return whole
        # a kept digest whose checksum matches but a value does not (edited by hand?): rebuild it
        return Digest.joined(self._digest_of(n, rebuild=True) if part.problem() is not None else part
                             for n, part in zip(numbers, parts))

    def _digest_of(self, n: int, *, check: bool = True, rebuild: bool = False) -> "Digest":
        """Segment ``n``'s digest: kept (if not ``rebuild``), else made from its rows and kept."""
        from ..stats import Digest

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

    def is_empty(self) -> bool:
        return not self._states and not self._seg_rows and not self._mock_db.table("mocks").all()

    # -- export / import ---------------------------------------------------- #

    def export(self) -> dict:
        """The whole profile as one JSON-safe document (see README "Save files")."""
        self._check_open()
        return {
            "format": EXPORT_FORMAT,
            "schema": SCHEMA_VERSION,
            "profile": self.name,
            "settings": copy.deepcopy(self._settings),
            "states": {item: st.to_dict() for item, st in sorted(self._states.items())},
            "reviews": [exported(r) for r in self.reviews()],
            "mocks": self.mocks(),
        }

    def export_chunks(self, counts: dict | None = None) -> Iterator[str]:
        """The export document (:meth:`export`) as text, piece by piece (``transfer.export_chunks``): the log is
        read one file at a time.  ``DamagedSave`` if a log file is unreadable."""
        self._check_open()
        head = {"format": EXPORT_FORMAT, "schema": SCHEMA_VERSION, "profile": self.name,
                "settings": copy.deepcopy(self._settings),
                "states": {item: st.to_dict() for item, st in sorted(self._states.items())}}
        return export_chunks(head, self.reviews(), self.mocks(), counts)

    def import_document(self, doc: Mapping[str, Any], *, today: date | None = None) -> dict:
        """Replace the whole profile by ``doc``; validates all of it and changes nothing if invalid
        (``today``: the learner's day, after which nothing in ``doc`` may be dated; see ``document_problem``).
        Returns the counts of items, reviews and mocks imported.

        The new files are built beside the profile and swapped in with two
        renames; an interrupted import is finished or rolled back by the next open.
        """
        return self._import(members_of(doc), today)

    def import_file(self, f: BinaryIO, *, today: date | None = None, max_bytes: int | None = None) -> dict:
        """:meth:`import_document` of the export document in the binary file ``f``, read as it is checked and
        written (``transfer``: bounded memory however long the history).  ``StreamError`` if it is not JSON
        (or is nested too deeply, or holds a value too large to be an export's, or is longer than
        ``max_bytes``), ``InvalidDocument`` naming the row, the field and the line; either way nothing changed."""
        stream = ObjectStream(f, limit=MAX_IMPORT_VALUE, max_bytes=max_bytes)
        return self._import(stream.members(STREAMED), today, lambda: stream.where(stream.start))

    def _import(self, members, today: date | None, where=None) -> dict:
        self._check_writer()
        return swap_in(self, members, today, where)
