"""The profile: one learner's save files, opened exclusively, recorded to and read (see the package docstring)."""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Iterator, Mapping
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any, BinaryIO

from tinydb import TinyDB

from . import snapshots
from .errors import BadProfileName, DamagedSave, ReadFailed, SaveFailed, saves_problem
from .jsonstream import ObjectStream
from .layout import EXPORT_FORMAT, PROFILE_NAME, SCHEMA_VERSION, segment_path
from .lock import ProfileLock, ReaderHandle
from .opening import ProfileOpening
from .reading import ProfileReading
from .recent import ItemRecent
from .recording import ProfileRecording
from .transfer import export_chunks, exported, swap_in
from .validation import STREAMED, members_of

READ_ATTEMPTS = 3  # a reader reads the files again when one was replaced between two reads
READ_RETRY_WAIT = 0.05  # seconds a reader waits before reading again: a writer's replace is under way
MAX_IMPORT_VALUE = 16 << 20  # characters of one value of an imported file (a row, a mock, the item states...)



def _system_now() -> datetime:
    return datetime.now(UTC)

class Profile(ProfileOpening, ProfileRecording, ProfileReading):
    """One learner's save files, held exclusively while open.

    Opening reads only the state file, the mocks and the newest log segment,
    so it stays fast however long the history; :meth:`reviews` and
    :meth:`digest` read older segments on demand (and raise
    :class:`DamagedSave` if one is unreadable).
    """

    def __init__(self, root: Path, name: str, lock: ProfileLock):
        self.root, self.name, self._lock = root, name, lock
        self.path = root / name
        # what stamps a setting's change time (set_settings): the caller's clock when it has one (drill's
        # AppContext sets it), so a test can move the day; the system's otherwise
        self.clock: Callable[[], datetime] = _system_now
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
        self._manifest = None  # the list of the profile's parts (see .manifest); None: none yet (made at open)
        self._tip: list | None = None  # the state file's newest row when written: [id, checksum] (see _tip_ok)
        self._days: dict[str, int] | None = None  # rows per day; None: to be rebuilt from the log
        self._days_whole = True  # False: rebuilt without a damaged segment, so never saved
        self._recent: dict[str, ItemRecent] | None = None  # each item's latest answers; None: to be rebuilt
        self._recent_whole = True  # as _days_whole
        self._running = None  # the statistics' running totals (.totals): read when first needed
        # Why the state file is behind the log (a failed write), None when it is not: every row is
        # durable in the log and the state is replayed from it at the next open (see _reconcile).
        self.state_behind: SaveFailed | None = None
        self.damaged: dict[Path, DamagedSave] = {}  # older log segments found unreadable (reviews_today)
        self.ignored_settings: dict[str, str] = {}  # setting -> why its stored value is not used (the default is)
        self._ignored_raw: dict[str, Any] = {}  # those values, written back as they were
        self.read_only = isinstance(lock, ReaderHandle)  # a reader: opened without the lock, never writes

    # -- opening and closing ------------------------------------------------ #

    @classmethod
    def open(cls, root: Path, name: str = "default", *, wait: float = 0.0, read_only: bool = False) -> Profile:
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
                    time.sleep(READ_RETRY_WAIT)
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

    def __enter__(self) -> Profile:
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


    # -- export / import ---------------------------------------------------- #

    def export(self) -> dict:
        """The whole profile as one JSON-safe document (see docs/saves.md)."""
        self._check_open()
        return {
            "format": EXPORT_FORMAT,
            "schema": SCHEMA_VERSION,
            "profile": self.name,
            **self._replica_member(),
            "settings": copy.deepcopy(self._settings),
            "states": {item: st.to_dict() for item, st in sorted(self._states.items())},
            "reviews": list(self._exported_rows()),
            "mocks": self.mocks(),
        }

    def export_chunks(self, counts: dict | None = None) -> Iterator[str]:
        """The export document (:meth:`export`) as text, piece by piece (``transfer.export_chunks``): the log is
        read one file at a time.  ``DamagedSave`` if a log file is unreadable."""
        self._check_open()
        head = {"format": EXPORT_FORMAT, "schema": SCHEMA_VERSION, "profile": self.name, **self._replica_member(),
                "settings": copy.deepcopy(self._settings),
                "states": {item: st.to_dict() for item, st in sorted(self._states.items())}}
        return export_chunks(head, self._exported_rows(), self.mocks(), counts)

    def _exported_rows(self) -> Iterator[dict]:
        legacy = self._manifest.legacy if self._manifest is not None else None
        return (exported(r, legacy) for r in self._review_dicts())

    @property
    def replica(self) -> str | None:
        """This copy's replica id (``manifest``; None before the manifest is first written)."""
        return self._manifest.replica if self._manifest is not None else None

    def _replica_member(self) -> dict:
        # the export says whose rows are its own (engine.storage.merging.origin_of: a merge of it), and when each
        # setting was last changed (a merge takes the latest)
        return (({"replica": self.replica} if self.replica is not None else {})
                | ({"settings_changed": dict(sorted(self._changed.items()))} if self._changed else {}))

    def import_document(self, doc: Mapping[str, Any], *, now: datetime | None = None,
                        skip_future: bool = False) -> dict:
        """Replace the whole profile by ``doc``; validates all of it and changes nothing if invalid
        (``now``: the importer's instant, beyond which, with its slack, nothing in ``doc`` may be dated:
        ``FutureDated`` names what is, unless ``skip_future`` leaves it out; see ``checked_rows``).
        Returns the counts of items, reviews and mocks imported (and ``left_out``, when any was).

        The new files are built beside the profile and swapped in with two
        renames; an interrupted import is finished or rolled back by the next open.
        """
        return self._import(members_of(doc), now, skip_future=skip_future)

    def import_file(self, f: BinaryIO, *, now: datetime | None = None, skip_future: bool = False,
                    max_bytes: int | None = None) -> dict:
        """:meth:`import_document` of the export document in the binary file ``f``, read as it is checked and
        written (``transfer``: bounded memory however long the history).  ``StreamError`` if it is not JSON
        (or is nested too deeply, or holds a value too large to be an export's, or is longer than
        ``max_bytes``), ``InvalidDocument`` naming the row, the field and the line; either way nothing changed."""
        stream = ObjectStream(f, limit=MAX_IMPORT_VALUE, max_bytes=max_bytes)
        return self._import(stream.members(STREAMED), now, lambda: stream.where(stream.start), skip_future)

    def _import(self, members, now: datetime | None, where=None, skip_future: bool = False) -> dict:
        self._check_writer()
        return swap_in(self, members, now, where, skip_future)
