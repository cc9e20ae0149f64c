"""Durable files: a crash at any moment leaves the old or the new file, whole, and the previous version beside it.

Every save file is a TinyDB database written by :class:`DurableStorage`
through :func:`atomic_write`; :func:`read_tables` reads one and reports a file
it cannot read as :class:`DamagedSave`, naming the backup that can replace it.
"""

from __future__ import annotations

import json
import os
import shutil
import threading
from pathlib import Path
from typing import Any

from tinydb import TinyDB
from tinydb.middlewares import CachingMiddleware
from tinydb.storages import Storage

from .errors import DamagedSave, NewerSave, UnreadableSave, save_failed
from .layout import SCHEMA_VERSION, backup_path
from .validation import _is_int


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


def atomic_write(path: Path, data: bytes, *, backup: bool = True, sync: bool = True) -> None:
    """Replace ``path`` with ``data`` so that a crash leaves the old or the new file, whole.

    With ``backup`` the previous version is kept as ``path.bak`` (a hard link:
    no copy, and the old contents are never rewritten).  Without ``sync`` (for
    a cache that is checked when read) nothing is fsynced: after a power cut
    the file may be old, new, empty or partly written.

    A write that fails (disk full, no permission...) raises :class:`SaveFailed`
    naming ``path`` and its cause, and leaves ``path`` as it was and no temporary file.
    """
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    bak_tmp = path.with_name(f".{path.name}.bak.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            if sync:
                f.flush()
                os.fsync(f.fileno())
        if backup and path.exists():
            try:
                bak_tmp.unlink(missing_ok=True)
                os.link(path, bak_tmp)
            except OSError:  # no hard links here: copy instead
                shutil.copyfile(path, bak_tmp)
            os.replace(bak_tmp, backup_path(path))
        os.replace(tmp, path)
    except BaseException as e:
        for leftover in (tmp, bak_tmp):  # a write that failed leaves nothing behind
            try:
                leftover.unlink(missing_ok=True)
            except OSError:
                pass
        if isinstance(e, OSError):
            raise save_failed(e, path) from e
        raise
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
        if path.is_symlink():  # a link whose target is gone is not a file that was never written
            raise DamagedSave(path, f"it is a symbolic link to {os.readlink(path)}, which does not exist",
                              backup_path(path)) from None
        return None
    except IsADirectoryError:
        raise DamagedSave(path, "it is a folder, not a file", backup_path(path)) from None
    except PermissionError as e:  # not damaged: not ours to read (yet)
        raise UnreadableSave(path, e) from None
    except OSError as e:
        raise DamagedSave(path, f"cannot be read ({e.strerror})", backup_path(path)) from None
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise DamagedSave(path, f"not valid JSON ({e})", backup_path(path)) from None
    except RecursionError:  # JSON nested deeper than any save file of ours
        raise DamagedSave(path, "it is nested too deeply to be a save file", backup_path(path)) from None
    if not isinstance(data, dict) or not all(
            isinstance(t, dict) and all(isinstance(d, dict) for d in t.values()) for t in data.values()):
        raise DamagedSave(path, "not a table file (wrong layout)", backup_path(path))
    return data



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


def check_meta(tables: dict | None, path: Path, kind: str, empty_ok: bool) -> dict:
    """A save file's meta table (schema version and kind), checked: ``DamagedSave`` / ``NewerSave`` if wrong.

    ``empty_ok``: a file that does not exist yet (or holds no table) gives ``{}``.
    """
    meta = (tables or {}).get("meta", {}).get("1")
    if meta is None:
        if empty_ok and not tables:
            return {}
        raise DamagedSave(path, "it has no schema version", backup_path(path))
    if _is_int(meta.get("schema")) and meta["schema"] > SCHEMA_VERSION:
        raise NewerSave(path, meta["schema"])
    if meta.get("schema") != SCHEMA_VERSION:
        raise DamagedSave(path, f"schema version {meta.get('schema')!r} is not {SCHEMA_VERSION}", backup_path(path))
    if meta.get("kind") != kind:
        raise DamagedSave(path, f"it holds {meta.get('kind')!r}, not {kind!r}", backup_path(path))
    return dict(meta)
