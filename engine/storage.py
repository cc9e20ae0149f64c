"""Save files: a learner's profile on disk, durable, exclusive and fast as it grows.

A profile ``NAME`` under the saves folder ``ROOT`` is::

    ROOT/NAME.lock                 flock()ed while a process uses the profile; holds its pid
    ROOT/NAME/state.json           schema version, per-item SM-2 state, settings, next review id
    ROOT/NAME/mocks.json           mock-interview results
    ROOT/NAME/reviews/000001.json  the review log, SEGMENT_ROWS rows per file, oldest first
    ROOT/NAME/*.json.bak           the previous good version of each file

Every file is a TinyDB database written by :class:`DurableStorage`: the new
contents go to a temporary file in the same folder, which is fsynced and then
``os.replace``d over the old one (the folder is fsynced too), so a crash at
any moment leaves either the old or the new file, never a truncated one.

TinyDB rewrites a whole file per write, so the log is split into segments and
recording an answer rewrites only the newest segment: its cost does not grow
with the history.  The row is durable when :meth:`Profile.record` returns.
The state file is the log's summary: each scheduled row carries the item's
state before and after, so the state file is rewritten only every
:data:`STATE_EVERY` rows (and on close, undo and settings), and opening the
profile replays the rows it has not seen yet - after a crash too.  It also
counts the rows of each day (:meth:`Profile.study_days`, Home's streak) and
keeps each item's latest answers (:meth:`Profile.recent`: Browse's last
result, a weighted mock's weakness figures), so nothing but the statistics
reads the whole log.

The statistics read the log through digests (``engine.stats.Digest``: the few
columns the figures need).  A segment that is full never changes again, so its
digest is kept beside it (``reviews/000001.digest``, a cache that needs no
backup or fsync) and trusted only while it matches the segment file's size,
modification time and inode and its own checksum; otherwise it is rebuilt
from the segment.
"""

from __future__ import annotations

import copy
import errno
import json
import math
import os
import re
import shlex
import shutil
import threading
import time
import zlib
from collections import Counter
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Iterable, Iterator

from tinydb import TinyDB
from tinydb.middlewares import CachingMiddleware
from tinydb.storages import Storage
from tinydb.table import Document

from .session import DEFAULT_NEW_PER_DAY, MODES, VERDICTS
from .sm2 import ItemState

if TYPE_CHECKING:
    from .stats import Digest

SCHEMA_VERSION = 1
EXPORT_FORMAT = "infra-drill-profile"
SEGMENT_ROWS = 250
STATE_EVERY = 25  # rows recorded between two rewrites of the state file
DIGEST_VERSION = 1
RECENT_QUALITIES = 5  # qualities of an item's latest answers kept in the state file (engine.mock.RECENT reads 5)
DEFAULT_SETTINGS: dict[str, Any] = {"new_per_day": DEFAULT_NEW_PER_DAY}
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
_SEGMENT = re.compile(r"(\d{6})\.json")
_TS = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")
ROW_FIELDS = ("id", "ts", "date", "item", "topic", "seed", "step", "typed", "value", "verdict", "quality",
              "seconds", "mode", "scheduled", "before", "after")


class ProfileLocked(Exception):
    """Another process holds the profile."""

    def __init__(self, profile: str, pid: int | None, waited: float = 0.0):
        self.profile, self.pid, self.waited = profile, pid, waited
        who = f"process {pid}" if pid else "another process"
        tail = f" (waited {waited:g} s)" if waited else ""
        super().__init__(f"profile '{profile}' is in use by {who}{tail}; close that drill first")


class DamagedSave(Exception):
    """A save file that cannot be read: it is left untouched.

    ``backup`` is the previous version kept beside it, offered only when it can
    replace the file: whole, of this schema version and of the same kind of file.
    """

    def __init__(self, path: Path, reason: str, backup: Path | None = None):
        self.path, self.reason = Path(path), reason
        status = _backup_status(Path(backup), self.path) if backup is not None else None
        self.backup = Path(backup) if status == "good" else None
        msg = f"save file {self.path} is damaged: {reason}. It has not been changed."
        if self.backup is not None:
            msg += (f" The previous good version is kept beside it; to restore it run:"
                    f" cp {shlex.quote(str(self.backup))} {shlex.quote(str(self.path))}")
        elif status == "newer":
            msg += (f" Its previous version beside it was written by a newer version of infra-drill: upgrade"
                    f" infra-drill, then restore it with: cp {shlex.quote(str(backup))} {shlex.quote(str(self.path))}")
        else:
            msg += (f" There is no good copy of it; to start that file afresh (losing what it held) run:"
                    f" mv {shlex.quote(str(self.path))} {shlex.quote(str(self.path) + '.damaged')}")
        Exception.__init__(self, msg)


class NewerSave(DamagedSave):
    """A save file written by a newer infra-drill (a higher schema version): left untouched, never replaced."""

    def __init__(self, path: Path, schema: int):
        self.path, self.schema, self.backup = Path(path), schema, None
        self.reason = f"schema version {schema} is newer than this infra-drill's ({SCHEMA_VERSION})"
        Exception.__init__(self, f"save file {self.path} was written by a newer version of infra-drill (schema "
                                 f"version {schema}; this one reads {SCHEMA_VERSION}): upgrade infra-drill to "
                                 f"open it. It has not been changed.")


class InvalidDocument(ValueError):
    """An import document (or a row) that fails validation: names the first problem."""


# --------------------------------------------------------------------------- #
# Durable files


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - platforms that cannot open a folder
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - some filesystems refuse fsync on folders
        pass
    finally:
        os.close(fd)


def backup_path(path: Path) -> Path:
    return path.with_name(path.name + ".bak")


def atomic_write(path: Path, data: bytes, *, backup: bool = True, sync: bool = True) -> None:
    """Replace ``path`` with ``data`` so that a crash leaves the old or the new file, whole.

    With ``backup`` the previous version is kept as ``path.bak`` (a hard link:
    no copy, and the old contents are never rewritten).  Without ``sync`` (for
    a cache that is checked when read) nothing is fsynced: after a power cut
    the file may be old, new, empty or partly written.
    """
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        if sync:
            f.flush()
            os.fsync(f.fileno())
    if backup and path.exists():
        bak, bak_tmp = backup_path(path), path.with_name(f".{path.name}.bak.{os.getpid()}.tmp")
        try:
            bak_tmp.unlink(missing_ok=True)
            os.link(path, bak_tmp)
        except OSError:  # no hard links here: copy instead
            shutil.copyfile(path, bak_tmp)
        os.replace(bak_tmp, bak)
    os.replace(tmp, path)
    if sync:
        _fsync_dir(path.parent)


def _dumps(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")


def read_tables(path: Path) -> dict | None:
    """A TinyDB file's tables, or None if it does not exist; ``DamagedSave`` if unreadable."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as e:
        raise DamagedSave(path, f"cannot be read ({e.strerror})", backup_path(path)) from None
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise DamagedSave(path, f"not valid JSON ({e})", backup_path(path)) from None
    if not isinstance(data, dict) or not all(
            isinstance(t, dict) and all(isinstance(d, dict) for d in t.values()) for t in data.values()):
        raise DamagedSave(path, "not a table file (wrong layout)", backup_path(path))
    return data


def _file_kind(path: Path) -> str | None:
    """What a save file holds, from its name (the ``kind`` in its meta table)."""
    if _SEGMENT.fullmatch(path.name):
        return "reviews"
    return {"state.json": "state", "mocks.json": "mocks"}.get(path.name)


def _backup_status(backup: Path, path: Path) -> str | None:
    """"good": ``backup`` can replace ``path`` (a whole table file of this schema and of ``path``'s kind);
    "newer": it was written by a newer infra-drill; None: it cannot (missing, damaged, another file's)."""
    try:
        tables = json.loads(backup.read_bytes().decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    meta = tables.get("meta") if isinstance(tables, dict) else None
    meta = meta.get("1") if isinstance(meta, dict) else None
    if not isinstance(meta, dict) or not all(isinstance(t, dict) and all(isinstance(d, dict) for d in t.values())
                                             for t in tables.values()):
        return None
    schema = meta.get("schema")
    if _is_int(schema) and schema > SCHEMA_VERSION:
        return "newer"
    kind = _file_kind(path)
    return "good" if schema == SCHEMA_VERSION and (kind is None or meta.get("kind") == kind) else None


class DurableStorage(Storage):
    """A TinyDB storage that never leaves a half-written file (see :func:`atomic_write`)."""

    def __init__(self, path: Path, backup: bool = True):
        self.path, self.backup = Path(path), backup

    def read(self) -> dict | None:
        return read_tables(self.path)

    def write(self, data: dict) -> None:
        atomic_write(self.path, _dumps(data), backup=self.backup)

    def close(self) -> None:
        pass


class _Cached(CachingMiddleware):
    """Writes only when flushed: one durable write per logical change."""

    WRITE_CACHE_SIZE = 2**62


def _open_db(path: Path, backup: bool = True) -> TinyDB:
    db = TinyDB(path, backup=backup, storage=_Cached(DurableStorage))
    db.storage.read()  # read now: a damaged file is reported at open, not at first use
    return db


def _flush(db: TinyDB) -> None:
    db.storage.flush()


# --------------------------------------------------------------------------- #
# Digests of closed log segments (a cache: never trusted unchecked, never needed)


def digest_path(segment: Path) -> Path:
    return segment.with_name(segment.stem + ".digest")


def file_identity(path: Path) -> list[int] | None:
    """Size, modification time and inode: what changes whenever a file is rewritten (None: no file)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns, st.st_ino]


def _digest_header(body: bytes, identity: list[int]) -> dict:
    from .stats import DIGEST_FIELDS

    return {"kind": "review-digest", "version": DIGEST_VERSION, "fields": list(DIGEST_FIELDS),
            "segment": identity, "crc32": zlib.crc32(body)}


def write_digest(path: Path, digest: "Digest", identity: list[int]) -> None:
    """Keep ``digest`` at ``path`` as made from the segment file with ``identity``: a header line, the columns.

    Best effort: a digest that cannot be written is simply rebuilt next time.
    """
    body = _dumps(digest.columns())
    try:
        atomic_write(path, _dumps(_digest_header(body, identity)) + b"\n" + body, backup=False, sync=False)
    except OSError:
        pass


def read_digest(path: Path, identity: list[int], *, check: bool = True) -> "Digest | None":
    """The digest at ``path`` if it is whole and was made from the segment file that now has ``identity``.

    Without ``check`` its values are not checked (its layout and checksum are):
    the caller checks them, joined with others (``Digest.problem``).
    """
    from .stats import Digest

    try:
        raw = path.read_bytes()
    except OSError:
        return None
    head, newline, body = raw.partition(b"\n")
    try:
        if not newline or json.loads(head) != _digest_header(body, identity):
            return None  # stale (another segment file, an older format) or damaged
        return Digest.from_columns(json.loads(body), check=check)
    except ValueError:  # not JSON, not UTF-8, or columns that are not a digest's
        return None


# --------------------------------------------------------------------------- #
# The lock


class _Lock:
    def __init__(self, path: Path, fd: int):
        self.path, self.fd = path, fd

    @classmethod
    def acquire(cls, path: Path, profile: str, wait: float) -> "_Lock":
        import fcntl

        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        deadline = time.monotonic() + max(0.0, wait)
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError as e:
                if e.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                    os.close(fd)
                    raise
                if time.monotonic() >= deadline:
                    pid = cls._holder(fd)
                    os.close(fd)
                    raise ProfileLocked(profile, pid, wait) from None
                time.sleep(0.05)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        return cls(path, fd)

    @staticmethod
    def _holder(fd: int) -> int | None:
        for _ in range(10):  # the holder writes its pid just after locking
            text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
            if text.isdigit():
                return int(text)
            time.sleep(0.01)
        return None

    def release(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)  # closing the descriptor releases the flock
            self.fd = -1


# --------------------------------------------------------------------------- #
# Validation


def _json_safe(value: Any) -> bool:
    try:
        json.dumps(value, allow_nan=False)
        return True
    except (TypeError, ValueError):
        return False


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


_STATE_KEYS = frozenset(("ef", "interval", "reps", "due", "last"))


def _day_ok(v: Any) -> bool:
    if v is None:
        return True
    if type(v) is not str or len(v) != 10:
        return False
    try:
        date.fromisoformat(v)
        return True
    except ValueError:
        return False


def _state_ok(d: Any) -> bool:
    """A quick yes for a well-formed state dict (ItemState.from_dict explains a no)."""
    if type(d) is not dict or not d.keys() <= _STATE_KEYS:
        return False
    ef, iv, reps = d.get("ef", 2.5), d.get("interval", 0), d.get("reps", 0)
    return (type(ef) in (float, int) and 1.3 <= ef < math.inf and type(iv) is int and iv >= 0
            and type(reps) is int and reps >= 0 and _day_ok(d.get("due")) and _day_ok(d.get("last")))


_ROW_KEYS = frozenset(ROW_FIELDS)
_VERDICTS, _MODES = frozenset(VERDICTS), frozenset(MODES)


def _row_ok(r: Any) -> bool:
    """A quick yes for a well-formed stored row (:func:`row_problem` explains a no)."""
    if type(r) is not dict or r.keys() != _ROW_KEYS:
        return False
    v, sec, step, b, a = r["value"], r["seconds"], r["step"], r["before"], r["after"]
    return (type(r["id"]) is int and r["id"] >= 1 and type(r["ts"]) is str and _TS.fullmatch(r["ts"]) is not None
            and type(r["date"]) is str and _day_ok(r["date"]) and type(r["item"]) is str and r["item"] != ""
            and type(r["topic"]) is str and r["topic"] != "" and type(r["seed"]) is int
            and (step is None or (type(step) is int and step >= 1)) and type(r["typed"]) is str
            and (v is None or type(v) is str or (type(v) in (float, int) and math.isfinite(v)))
            and r["verdict"] in _VERDICTS and type(r["quality"]) is int and 0 <= r["quality"] <= 5
            and (sec is None or (type(sec) in (float, int) and 0 <= sec < math.inf)) and r["mode"] in _MODES
            and type(r["scheduled"]) is bool and (a is not None or not r["scheduled"])
            and (b is None or _state_ok(b)) and (a is None or _state_ok(a)))


def row_problem(row: Any, *, stored: bool = True) -> str | None:
    """The first problem of a review row, or None when it is valid."""
    if not isinstance(row, Mapping):
        return f"must be an object, not {type(row).__name__}"
    fields = ROW_FIELDS if stored else ROW_FIELDS[1:]
    missing = [f for f in fields if f not in row]
    if missing:
        return f"missing field {missing[0]!r}"
    extra = sorted(set(row) - set(ROW_FIELDS))
    if extra:
        return f"unknown field {extra[0]!r}"
    if stored and (not _is_int(row["id"]) or row["id"] < 1):
        return f"id must be a whole number >= 1, not {row['id']!r}"
    if not isinstance(row["ts"], str) or not _TS.fullmatch(row["ts"]):
        return f"ts must be a UTC time like 2026-11-29T15:42:01Z, not {row['ts']!r}"
    try:
        date.fromisoformat(row["date"]) if isinstance(row["date"], str) and len(row["date"]) == 10 else 1 / 0
    except (ValueError, ZeroDivisionError):
        return f"date must be a day YYYY-MM-DD, not {row['date']!r}"
    for key in ("item", "topic"):
        if not isinstance(row[key], str) or not row[key]:
            return f"{key} must be a non-empty string, not {row[key]!r}"
    if not _is_int(row["seed"]):
        return f"seed must be a whole number, not {row['seed']!r}"
    if row["step"] is not None and (not _is_int(row["step"]) or row["step"] < 1):
        return f"step must be null or a whole number >= 1, not {row['step']!r}"
    if not isinstance(row["typed"], str):
        return f"typed must be a string, not {row['typed']!r}"
    v = row["value"]
    if not (v is None or isinstance(v, str) or (isinstance(v, (int, float)) and not isinstance(v, bool)
                                                 and math.isfinite(v))):
        return f"value must be a finite number, a string or null, not {v!r}"
    if row["verdict"] not in VERDICTS:
        return f"verdict must be one of {', '.join(VERDICTS)}, not {row['verdict']!r}"
    if not _is_int(row["quality"]) or not 0 <= row["quality"] <= 5:
        return f"quality must be a whole number 0-5, not {row['quality']!r}"
    s = row["seconds"]
    if s is not None and (isinstance(s, bool) or not isinstance(s, (int, float)) or not math.isfinite(s) or s < 0):
        return f"seconds must be a number >= 0 or null (not measured), not {s!r}"
    if row["mode"] not in MODES:
        return f"mode must be one of {', '.join(MODES)}, not {row['mode']!r}"
    if not isinstance(row["scheduled"], bool):
        return f"scheduled must be true or false, not {row['scheduled']!r}"
    if row["scheduled"] and row["after"] is None:
        return "a scheduled review needs its state after"
    for key in ("before", "after"):
        if row[key] is not None and not _state_ok(row[key]):
            try:
                ItemState.from_dict(row[key])
            except ValueError as e:
                return f"{key}: {e}"
    return None


def mock_problem(mock: Any, *, stored: bool = True) -> str | None:
    """The first problem of a mock-interview result, or None."""
    if not isinstance(mock, Mapping):
        return f"must be an object, not {type(mock).__name__}"
    if stored and (not _is_int(mock.get("id")) or mock["id"] < 1):
        return f"id must be a whole number >= 1, not {mock.get('id')!r}"
    if not isinstance(mock.get("ts"), str) or not _TS.fullmatch(mock["ts"]):
        return f"ts must be a UTC time like 2026-11-29T15:42:01Z, not {mock.get('ts')!r}"
    if not isinstance(mock.get("questions"), list) or not all(isinstance(q, Mapping) for q in mock["questions"]):
        return "questions must be a list of objects"
    if not isinstance(mock.get("score"), Mapping):
        return "score must be an object"
    if not _json_safe(mock):
        return "holds values that are not plain JSON"
    return None


def setting_problem(key: Any, value: Any) -> str | None:
    if not isinstance(key, str) or not key:
        return f"a setting name must be a non-empty string, not {key!r}"
    if key == "new_per_day" and (not _is_int(value) or not 0 <= value <= 100):
        return f"new_per_day must be a whole number 0-100, not {value!r}"
    if key == "lang" and value not in ("en", "zh"):
        return f"lang must be 'en' or 'zh', not {value!r}"
    if not _json_safe(value):
        return f"setting {key!r} must be plain JSON, not {value!r}"
    return None


def document_problem(doc: Any) -> str | None:
    """The first problem of an export document, or None when all of it is valid."""
    if not isinstance(doc, Mapping):
        return "the document must be a JSON object"
    if doc.get("format") != EXPORT_FORMAT:
        return f"format must be {EXPORT_FORMAT!r}, not {doc.get('format')!r}"
    if _is_int(doc.get("schema")) and doc["schema"] > SCHEMA_VERSION:
        return (f"written by a newer version of infra-drill (schema {doc['schema']}; this one reads "
                f"{SCHEMA_VERSION}): upgrade infra-drill to import it")
    if doc.get("schema") != SCHEMA_VERSION:
        return f"schema must be {SCHEMA_VERSION}, not {doc.get('schema')!r}"
    for key, kind in (("settings", dict), ("states", dict), ("reviews", list), ("mocks", list)):
        if not isinstance(doc.get(key), kind):
            return f"{key} must be a JSON {'object' if kind is dict else 'list'}"
    for key, value in doc["settings"].items():
        if (p := setting_problem(key, value)) is not None:
            return f"settings.{key}: {p}"
    for item, st in doc["states"].items():
        if not item:
            return "states: an item id is empty"
        try:
            ItemState.from_dict(st)
        except ValueError as e:
            return f"states[{item!r}]: {e}"
    last = 0
    for i, row in enumerate(doc["reviews"]):
        if (p := row_problem(row)) is not None:
            return f"reviews[{i}]: {p}"
        if row["id"] <= last:
            return f"reviews[{i}]: ids must increase (id {row['id']} after {last})"
        last = row["id"]
    ids = set()
    for i, m in enumerate(doc["mocks"]):
        if (p := mock_problem(m)) is not None:
            return f"mocks[{i}]: {p}"
        if m["id"] in ids:
            return f"mocks[{i}]: id {m['id']} appears twice"
        ids.add(m["id"])
    return None


def _copy(value: Mapping) -> dict:
    return copy.deepcopy(dict(value))


def _row_copy(row: Mapping) -> dict:
    """A review row the caller may change freely (its only nested values are the two states)."""
    b, a = row["before"], row["after"]
    return {**row, "before": dict(b) if b is not None else None, "after": dict(a) if a is not None else None}


# --------------------------------------------------------------------------- #
# Each item's latest answers


@dataclass(frozen=True)
class ItemRecent:
    """An item's latest answers, as the state file keeps them.

    ``qualities``: the SM-2 qualities of its last :data:`RECENT_QUALITIES`
    rows, oldest first (every mode, chain steps included); ``verdict``,
    ``date`` and ``quality``: those of its last whole-item row (``step`` None;
    the quality after any override, the verdict the engine's), None while it
    has none (only steps of a chain so far).
    """

    qualities: tuple[int, ...] = ()
    verdict: str | None = None
    date: str | None = None
    quality: int | None = None

    def after(self, quality: int, step: int | None, verdict: str, day: str) -> "ItemRecent":
        """These figures once a row with these values is recorded."""
        qualities = (*self.qualities, quality)[-RECENT_QUALITIES:]
        if step is None:
            return ItemRecent(qualities, verdict, day, quality)
        return ItemRecent(qualities, self.verdict, self.date, self.quality)

    def to_dict(self) -> dict:
        return {"qualities": list(self.qualities), "verdict": self.verdict, "date": self.date, "quality": self.quality}

    @classmethod
    def from_dict(cls, d: Any) -> "ItemRecent | None":
        """The figures stored as ``d``, or None when they are not well formed (a save from before the
        last whole answer's quality was kept among them too: they are rebuilt from the log)."""
        if type(d) is not dict or d.keys() != {"qualities", "verdict", "date", "quality"}:
            return None
        qs, verdict, day, quality = d["qualities"], d["verdict"], d["date"], d["quality"]
        if (type(qs) is not list or not 1 <= len(qs) <= RECENT_QUALITIES
                or not all(type(q) is int and 0 <= q <= 5 for q in qs)):
            return None
        if not (verdict is None or verdict in _VERDICTS) or (verdict is None) != (day is None) or not _day_ok(day):
            return None
        if (quality is None) != (verdict is None) or not (quality is None or type(quality) is int and 0 <= quality <= 5):
            return None
        return cls(tuple(qs), verdict, day, quality)


_NO_RECENT = ItemRecent()


def recent_of(columns: Iterable[tuple[str, int, int | None, str, str]]) -> dict[str, ItemRecent]:
    """Each item's :class:`ItemRecent` from rows (oldest first) given as ``(item, quality, step, verdict, date)``."""
    qualities: dict[str, list[int]] = {}
    last: dict[str, tuple[str, str, int]] = {}
    for item, quality, step, verdict, day in columns:
        qs = qualities.get(item)
        if qs is None:
            qs = qualities[item] = []
        qs.append(quality)
        if step is None:
            last[item] = (verdict, day, quality)
    return {item: ItemRecent(tuple(qs[-RECENT_QUALITIES:]), *last.get(item, (None, None, None)))
            for item, qs in qualities.items()}


def _recent_columns(rows: Iterable[Mapping]) -> Iterator[tuple]:
    return ((r["item"], r["quality"], r["step"], r["verdict"], r["date"]) for r in rows)


# --------------------------------------------------------------------------- #
# The profile


class Profile:
    """One learner's save files, held exclusively while open.

    Opening reads only the state file, the mocks and the newest log segment,
    so it stays fast however long the history; :meth:`reviews` and
    :meth:`digest` read older segments on demand (and raise
    :class:`DamagedSave` if one is unreadable).
    """

    def __init__(self, root: Path, name: str, lock: _Lock):
        self.root, self.name, self._lock = root, name, lock
        self.path = root / name
        self._segments: list[int] = []
        self._seg_db: TinyDB | None = None
        self._seg_n, self._seg_rows = 0, []
        self._unsaved = 0  # rows recorded since the state file was last written
        self._days: dict[str, int] | None = None  # rows per day; None: to be rebuilt from the log
        self._days_whole = True  # False: rebuilt without a damaged segment, so never saved
        self._recent: dict[str, ItemRecent] | None = None  # each item's latest answers; None: to be rebuilt
        self._recent_whole = True  # as _days_whole

    # -- opening and closing ------------------------------------------------ #

    @classmethod
    def open(cls, root: Path, name: str = "default", *, wait: float = 0.0) -> "Profile":
        """Open (creating if needed) profile ``name`` under ``root``.

        Raises :class:`ProfileLocked` if another process holds it after
        ``wait`` seconds, :class:`DamagedSave` if a file cannot be read, and
        ``ValueError`` for a bad profile name.
        """
        if not isinstance(name, str) or not _NAME.fullmatch(name):
            raise ValueError(f"profile name {name!r} must be 1-64 letters, digits, '_' or '-', "
                             "starting with a letter or digit")
        root = Path(root)
        root.mkdir(parents=True, exist_ok=True)
        lock = _Lock.acquire(root / f"{name}.lock", name, wait)
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
            if self._unsaved:
                self._write_state(self._undo)
        finally:
            self._close_dbs()
            self._lock.release()

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

    def _seg_path(self, n: int) -> Path:
        return self.path / "reviews" / f"{n:06d}.json"

    def _recover_import(self) -> None:
        """Finish or roll back an import interrupted between its two renames."""
        staging, old = self.root / f".{self.name}.import", self.root / f".{self.name}.old"
        if not self.path.exists() and old.exists():
            os.replace(old, self.path)
        if staging.exists():
            shutil.rmtree(staging)
        if old.exists():
            shutil.rmtree(old)

    def _load(self) -> None:
        self._recover_import()
        (self.path / "reviews").mkdir(parents=True, exist_ok=True)
        for folder in (self.path, self.path / "reviews"):
            for stale in folder.glob(".*.tmp"):  # temporaries of a write that never finished
                stale.unlink()
        self._segments = sorted(int(m.group(1)) for p in (self.path / "reviews").iterdir()
                                if (m := _SEGMENT.fullmatch(p.name)))
        self._state_db = _open_db(self.path / "state.json")
        self._mock_db = _open_db(self.path / "mocks.json")
        self._seg_db, self._seg_n, self._seg_rows = None, 0, []
        fresh_state = not (self.path / "state.json").exists()
        self._read_state()
        self._read_mocks()
        if self._segments:
            self._open_segment(self._segments[-1])
        self._reconcile(fresh_state)

    def _damaged(self, path: Path, reason: str) -> DamagedSave:
        return DamagedSave(path, reason, backup_path(path))

    def _check_meta(self, tables: dict | None, path: Path, kind: str, empty_ok: bool) -> dict:
        meta = (tables or {}).get("meta", {}).get("1")
        if meta is None:
            if empty_ok and not tables:
                return {}
            raise self._damaged(path, "it has no schema version")
        if _is_int(meta.get("schema")) and meta["schema"] > SCHEMA_VERSION:
            raise NewerSave(path, meta["schema"])
        if meta.get("schema") != SCHEMA_VERSION:
            raise self._damaged(path, f"schema version {meta.get('schema')!r} is not {SCHEMA_VERSION}")
        if meta.get("kind") != kind:
            raise self._damaged(path, f"it holds {meta.get('kind')!r}, not {kind!r}")
        return dict(meta)

    def _read_state(self) -> None:
        path = self.path / "state.json"
        meta = self._check_meta(self._state_db.storage.read(), path, "state", empty_ok=True)
        next_id, undo = meta.get("next_id", 1), meta.get("undo")
        if not _is_int(next_id) or next_id < 1 or not (undo is None or _is_int(undo)):
            raise self._damaged(path, "its review counter is not a whole number")
        self._next_id, self._undo = next_id, undo
        self._states: dict[str, ItemState] = {}
        self._state_ids: dict[str, int] = {}
        for doc in self._state_db.table("states").all():
            try:
                item = doc.get("item")
                if not isinstance(item, str) or not item:
                    raise ValueError("an item state without an item id")
                self._states[item] = ItemState.from_dict({k: v for k, v in doc.items() if k != "item"})
            except ValueError as e:
                raise self._damaged(path, f"bad item state ({e})") from None
            self._state_ids[item] = doc.doc_id
        stored = self._state_db.table("settings").get(doc_id=1) or {}
        for key, value in stored.items():
            if (p := setting_problem(key, value)) is not None:
                raise self._damaged(path, f"bad setting ({p})")
        self._settings = dict(stored)
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
        if not all(type(d) is str and _day_ok(d) and type(n) is int and n >= 1 for d, n in counts.items()):
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
        self._check_meta(self._mock_db.storage.read(), path, "mocks", empty_ok=True)
        for doc in self._mock_db.table("mocks").all():
            if (p := mock_problem(doc)) is not None:
                raise self._damaged(path, f"bad mock result ({p})")

    def _segment_rows(self, tables: dict | None, path: Path) -> list[dict]:
        """The checked rows of a segment file's tables, by id (the row dicts are the tables' own)."""
        self._check_meta(tables, path, "reviews", empty_ok=False)
        rows = []
        for doc_id, doc in tables.get("reviews", {}).items():
            if not _row_ok(doc) or str(doc["id"]) != doc_id:
                p = row_problem(doc) or "its id does not match"
                raise self._damaged(path, f"bad review row {doc_id} ({p})")
            rows.append(doc)
        rows.sort(key=lambda r: r["id"])
        return rows

    def _open_segment(self, n: int) -> None:
        if self._seg_db is not None:
            self._seg_db.storage.storage.close()
        path = self._seg_path(n)
        self._forget_digest(path)  # the newest segment changes: it has no digest
        self._seg_db = _open_db(path)
        self._seg_n = n
        self._seg_rows = self._segment_rows(self._seg_db.storage.read(), path)

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
            self._remove_last_row()  # the state was restored, the row not yet removed
        if fresh_state and self._segments:  # the state file is gone: rebuild it from the whole log
            rows: Iterator[dict] | list[dict] = self.reviews()
        else:  # the rows recorded after the state file was last written
            rows = []
            for n in reversed(self._segments):
                seg = self._rows_of(n)
                rows[:0] = [r for r in seg if r["id"] >= self._next_id]
                if not seg or seg[0]["id"] < self._next_id:
                    break
        for row in rows:
            self._apply(row)
            changed = True
        if changed:
            self._write_state()

    def _apply(self, row: Mapping) -> None:
        if row["scheduled"]:
            self._states[row["item"]] = ItemState.from_dict(row["after"])
        self._next_id = max(self._next_id, row["id"] + 1)
        self._count_day(row["date"], 1)
        if self._recent is not None:
            item = row["item"]
            self._recent[item] = self._recent.get(item, _NO_RECENT).after(row["quality"], row["step"],
                                                                          row["verdict"], row["date"])

    def _count_day(self, day: str, change: int) -> None:
        if self._days is not None:
            n = self._days.get(day, 0) + change
            if n > 0:
                self._days[day] = n
            else:
                self._days.pop(day, None)

    # -- writing ---------------------------------------------------------- #

    def _write_state(self, undo: int | None = None) -> None:
        db = self._state_db
        db.table("meta").upsert(Document({"schema": SCHEMA_VERSION, "kind": "state", "next_id": self._next_id,
                                          "undo": undo}, doc_id=1))
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
        db.table("settings").upsert(Document(self._settings, doc_id=1))
        if self._days is not None and self._days_whole:
            db.table("days").upsert(Document({"next_id": self._next_id, "counts": dict(self._days)}, doc_id=1))
        else:
            db.drop_table("days")
        if self._recent is not None and self._recent_whole:
            items = {item: r.to_dict() for item, r in self._recent.items()}
            db.table("recent").upsert(Document({"next_id": self._next_id, "items": items}, doc_id=1))
        else:
            db.drop_table("recent")
        _flush(db)
        self._undo, self._unsaved = undo, 0

    def record(self, row: Mapping[str, Any]) -> dict:
        """Append a review row (see :func:`engine.session.review_row`); durable when it returns.

        A scheduled row sets the item's state to ``row["after"]``.  Returns the
        stored row with its ``id``.  ``InvalidDocument`` names a bad field.
        """
        self._check_open()
        if (p := row_problem(row, stored=False)) is not None:
            raise InvalidDocument(f"review row: {p}")
        stored = _copy({k: row[k] for k in ROW_FIELDS[1:]})
        stored = {"id": self._next_id, **stored}
        if self._seg_db is None or len(self._seg_rows) >= SEGMENT_ROWS:
            if self._seg_db is not None:  # the full segment is closed: it never changes again
                seg = self._seg_path(self._seg_n)
                if (identity := file_identity(seg)) is not None:
                    from .stats import Digest

                    write_digest(digest_path(seg), Digest.of_rows(self._seg_rows), identity)
            n = self._segments[-1] + 1 if self._segments else 1
            self._open_segment_new(n)
        table = self._seg_db.table("reviews")
        table.insert(Document(stored, doc_id=stored["id"]))
        try:
            _flush(self._seg_db)
        except BaseException:
            table.remove(doc_ids=[stored["id"]])  # keep the cache equal to the file
            self._seg_db.storage._cache_modified_count = 0
            raise
        self._seg_rows.append(stored)
        self._apply(stored)
        self._unsaved += 1
        if self._unsaved >= STATE_EVERY:
            self._write_state()
        return _copy(stored)

    def _open_segment_new(self, n: int) -> None:
        if self._seg_db is not None:
            self._seg_db.storage.storage.close()
        self._forget_digest(self._seg_path(n))
        self._seg_db = _open_db(self._seg_path(n))
        self._seg_db.table("meta").insert(Document({"schema": SCHEMA_VERSION, "kind": "reviews"}, doc_id=1))
        self._seg_n, self._seg_rows = n, []
        self._segments.append(n)

    def undo_last(self) -> dict | None:
        """Remove the newest review row and restore the item's state before it; None if no row."""
        self._check_open()
        if not self._seg_rows:
            return None
        row = self._seg_rows[-1]
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
        self._write_state(undo=row["id"])  # first: a crash now is finished by the next open
        self._remove_last_row()
        return _copy(row)

    def _remove_last_row(self) -> None:
        row = self._seg_rows.pop()
        if self._seg_rows:
            self._seg_db.table("reviews").remove(doc_ids=[row["id"]])
            _flush(self._seg_db)
            return
        path = self._seg_path(self._seg_n)
        self._seg_db.storage.storage.close()
        self._seg_db = None
        path.unlink()
        backup_path(path).unlink(missing_ok=True)
        _fsync_dir(path.parent)
        self._segments.pop()
        if self._segments:
            self._open_segment(self._segments[-1])

    def set_setting(self, key: str, value: Any) -> None:
        self._check_open()
        if (p := setting_problem(key, value)) is not None:
            raise InvalidDocument(p)
        self._settings[key] = copy.deepcopy(value)
        self._write_state(self._undo)

    def add_mock(self, result: Mapping[str, Any]) -> dict:
        """Store a mock-interview result; returns it with its ``id``."""
        self._check_open()
        if (p := mock_problem(result, stored=False)) is not None:
            raise InvalidDocument(f"mock result: {p}")
        table = self._mock_db.table("mocks")
        if not self._mock_db.table("meta").contains(doc_id=1):
            self._mock_db.table("meta").insert(Document({"schema": SCHEMA_VERSION, "kind": "mocks"}, doc_id=1))
        mock_id = max((d.doc_id for d in table.all()), default=0) + 1
        stored = {**_copy(result), "id": mock_id}
        table.insert(Document(stored, doc_id=mock_id))
        _flush(self._mock_db)
        return _copy(stored)

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
        return [_copy({**d, "id": d.doc_id}) for d in sorted(self._mock_db.table("mocks").all(),
                                                             key=lambda d: d.doc_id)]

    def last_review(self) -> dict | None:
        return _row_copy(self._seg_rows[-1]) if self._seg_rows else None

    def _rows_of(self, n: int) -> list[dict]:
        """The rows of segment ``n``: the newest from memory, older ones read (read-only) from disk."""
        if n == self._seg_n and self._seg_db is not None:
            return self._seg_rows
        path = self._seg_path(n)
        return self._segment_rows(DurableStorage(path).read(), path)

    def reviews(self) -> Iterator[dict]:
        """Every review row, oldest first (older segments are read from disk as needed)."""
        self._check_open()
        for n in list(self._segments):
            rows = self._rows_of(n)
            if rows is self._seg_rows:  # rows kept in memory: hand out copies
                yield from [_row_copy(r) for r in rows]
            else:  # just read from disk: nobody else holds them
                yield from rows

    def reviews_today(self, today: date) -> list[dict]:
        """The rows recorded on the learner's day ``today``, oldest first.

        Reads back from the newest segment until it has as many rows as the day
        index counts (or reaches a segment that ends before ``today``).
        """
        self._check_open()
        day, out = today.isoformat(), []
        want = self._days.get(day, 0) if self._days is not None and self._days_whole else None
        for n in reversed(self._segments):
            if want is not None and len(out) >= want:
                break
            rows = self._rows_of(n)
            out[:0] = [r for r in rows if r["date"] == day]
            if not any(r["date"] >= day for r in rows):
                break
        return [_row_copy(r) for r in out]

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
            except DamagedSave:
                whole = False
        for d in parts:
            counts.update(d.date)
        if days:
            self._days, self._days_whole = dict(counts), whole
        if recent:
            self._recent = recent_of(row for d in parts for row in zip(d.item, d.quality, d.step, d.verdict, d.date))
            self._recent_whole = whole
        if whole:
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
                rows = reversed(list(_recent_columns(self._seg_rows[:-1])))
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
        from .stats import Digest

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
        from .stats import Digest

        if n == self._seg_n and self._seg_db is not None:
            return Digest.of_rows(list(self._seg_rows))  # one snapshot, whatever another thread records
        seg = self._seg_path(n)
        identity = file_identity(seg)  # taken before reading: a change meanwhile makes the digest stale
        d = None if identity is None or rebuild else read_digest(digest_path(seg), identity, check=check)
        if d is None:
            d = Digest.of_rows(self._rows_of(n))
            if identity is not None:
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
            "reviews": list(self.reviews()),
            "mocks": self.mocks(),
        }

    def import_document(self, doc: Mapping[str, Any]) -> None:
        """Replace the whole profile by ``doc``; validates all of it first and changes nothing if invalid.

        The new files are built beside the profile and swapped in with two
        renames; an interrupted import is finished or rolled back by the next open.
        """
        from .stats import Digest

        self._check_open()
        if (p := document_problem(doc)) is not None:
            raise InvalidDocument(p)
        staging, old = self.root / f".{self.name}.import", self.root / f".{self.name}.old"
        if staging.exists():
            shutil.rmtree(staging)
        (staging / "reviews").mkdir(parents=True)
        rows = [_row_copy(r) for r in doc["reviews"]]
        for i in range(0, len(rows), SEGMENT_ROWS):
            chunk = rows[i:i + SEGMENT_ROWS]
            tables = {"meta": {"1": {"schema": SCHEMA_VERSION, "kind": "reviews"}},
                      "reviews": {str(r["id"]): r for r in chunk}}
            seg = staging / "reviews" / f"{i // SEGMENT_ROWS + 1:06d}.json"
            atomic_write(seg, _dumps(tables), backup=False)
            if i + SEGMENT_ROWS < len(rows) and (identity := file_identity(seg)) is not None:
                write_digest(digest_path(seg), Digest.of_rows(chunk), identity)  # renames keep the identity
        states = {str(k + 1): {"item": item, **ItemState.from_dict(st).to_dict()}
                  for k, (item, st) in enumerate(sorted(doc["states"].items()))}
        next_id = (rows[-1]["id"] + 1) if rows else 1
        recent = {item: r.to_dict() for item, r in recent_of(_recent_columns(rows)).items()}
        tables = {"meta": {"1": {"schema": SCHEMA_VERSION, "kind": "state", "next_id": next_id, "undo": None}},
                  "states": states, "settings": {"1": copy.deepcopy(dict(doc["settings"]))},
                  "days": {"1": {"next_id": next_id, "counts": dict(Counter(r["date"] for r in rows))}},
                  "recent": {"1": {"next_id": next_id, "items": recent}}}
        atomic_write(staging / "state.json", _dumps(tables), backup=False)
        mocks = {str(m["id"]): _copy(m) for m in doc["mocks"]}
        atomic_write(staging / "mocks.json", _dumps({"meta": {"1": {"schema": SCHEMA_VERSION, "kind": "mocks"}},
                                                     "mocks": mocks}), backup=False)
        _fsync_dir(staging)
        self._close_dbs()
        if old.exists():
            shutil.rmtree(old)
        os.replace(self.path, old)
        os.replace(staging, self.path)
        _fsync_dir(self.root)
        shutil.rmtree(old)
        self._load()
