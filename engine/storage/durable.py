"""Durable files: a crash at any moment leaves the old or the new file, whole, and the previous version beside it.

Every save file is a TinyDB database written by :class:`DurableStorage`
through :func:`atomic_write`; :func:`read_tables` reads one and reports a file
it cannot read as :class:`DamagedSave`, naming the backup that can replace it.
"""

from __future__ import annotations

import os
import shutil
import stat
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, cast

from tinydb import TinyDB
from tinydb.middlewares import CachingMiddleware
from tinydb.storages import Storage

from .errors import DamagedSave, NewerSave, UnreadableSave, save_failed
from .layout import BACKUPS, SCHEMA_VERSION, TABLES, backup_path, file_kind
from .sealed import Broken, dumps, open_sealed, seal
from .validation import is_int

if TYPE_CHECKING:
    from ..messages import Twin


def fsync_dir(folder: Path) -> None:
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


def fault_point(op: str, path: Path) -> None:
    """Called before every change the saves make to the file system (a file written, renamed, linked, removed,
    truncated, appended to): the fault tests replace it to fail or crash at the N-th change."""


def _keep_mode(path: Path, tmp: Path) -> None:
    """Give ``tmp`` the permission bits of the file it replaces (a 0600 or 0444 save stays so)."""
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except OSError:  # no file yet: the user's umask decides
        return
    os.chmod(tmp, mode)


def _rotate_backups(path: Path, bak_tmp: Path) -> None:
    """``path`` becomes its newest backup (a hard link: no copy), each older backup one generation older."""
    fault_point("link", bak_tmp)
    bak_tmp.unlink(missing_ok=True)
    try:
        os.link(path, bak_tmp)
    except OSError:  # no hard links here: copy instead
        shutil.copyfile(path, bak_tmp)
    for g in range(BACKUPS, 1, -1):  # .bak2 -> .bak3, .bak -> .bak2
        newer = backup_path(path, g - 1)
        if newer.exists():
            fault_point("replace", backup_path(path, g))
            os.replace(newer, backup_path(path, g))
    fault_point("replace", backup_path(path))
    os.replace(bak_tmp, backup_path(path))


def atomic_write(path: Path, data: bytes | Iterable[bytes], *, backup: bool = True, sync: bool = True) -> None:
    """Replace ``path`` with ``data`` so that a crash leaves the old or the new file, whole.

    With ``backup`` the previous version is kept as ``path.bak`` (a hard link:
    no copy, and the old contents are never rewritten), the one before as
    ``.bak2`` and the one before that as ``.bak3``.  Without ``sync`` (for
    a cache that is checked when read) nothing is fsynced: after a power cut
    the file may be old, new, empty or partly written.  The new file keeps the
    permission bits of the one it replaces.

    A write that fails (disk full, no permission...) raises :class:`SaveFailed`
    naming ``path`` and its cause, and leaves ``path`` as it was and no temporary file.
    """
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    bak_tmp = path.with_name(f".{path.name}.bak.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        fault_point("write", tmp)
        with open(tmp, "wb") as f:
            if isinstance(data, (bytes, bytearray, memoryview)):
                f.write(data)
            else:  # written piece by piece (an export streamed from the log)
                for chunk in data:
                    f.write(chunk)
            if sync:
                f.flush()
                os.fsync(f.fileno())
        _keep_mode(path, tmp)
        if backup and path.exists():
            _rotate_backups(path, bak_tmp)
        fault_point("replace", path)
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
        fsync_dir(path.parent)


def read_document(path: Path, kind: str | None = None) -> tuple[dict | None, bool]:
    """A save file's tables and whether it carried a checksum (an older save does not), or ``(None, False)``
    if it does not exist; ``DamagedSave`` if it cannot be read whole: not our JSON, a checksum that does not
    match, a key given twice, a table that no file of its ``kind`` (default: from its name) holds."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        if path.is_symlink():  # a link whose target is gone is not a file that was never written
            raise DamagedSave(path, f"it is a symbolic link to {os.readlink(path)}, which does not exist",
                              backup_path(path)) from None
        return None, False
    except IsADirectoryError:
        raise DamagedSave(path, "it is a folder, not a file", backup_path(path)) from None
    except PermissionError as e:  # not damaged: not ours to read (yet)
        raise UnreadableSave(path, e) from None
    except OSError as e:
        raise DamagedSave(path, f"cannot be read ({e.strerror})", backup_path(path)) from None
    try:
        data, sealed = open_sealed(raw)
    except Broken as e:
        raise DamagedSave(path, e.said, backup_path(path)) from None
    if (p := tables_problem(data, kind or file_kind(path))) is not None:
        raise DamagedSave(path, p, backup_path(path))
    return data, sealed


def tables_problem(data, kind: str | None) -> str | Twin | None:
    """Why ``data`` is not the tables of a save file of ``kind`` (None: it is)."""
    if not isinstance(data, dict) or not all(
            isinstance(t, dict) and all(isinstance(d, dict) for d in t.values()) for t in data.values()):
        return "not a table file (wrong layout)"
    for name, table in data.items():
        if (bad := next((k for k in table if not (k.isascii() and k.isdigit())), None)) is not None:
            return f"its table {name!r} has a row numbered {bad!r}, which is not a number"
    if kind in TABLES and (unknown := sorted(set(data) - TABLES[kind])):
        from ..messages import Twin

        return Twin(f"it holds a table {unknown[0]!r}, which no {kind} file has (a key renamed or damaged?)",
                    f"其中有一个表“{unknown[0]}”，这类文件不应有它（键被改名或损坏？）")
    return None


def read_tables(path: Path) -> dict | None:
    """A TinyDB file's tables, or None if it does not exist; ``DamagedSave`` if unreadable (see read_document)."""
    return read_document(path)[0]


class DurableStorage(Storage):
    """A TinyDB storage that never leaves a half-written file (see :func:`atomic_write`)."""

    def __init__(self, path: Path, backup: bool = True):
        self.path, self.backup = Path(path), backup

    def read(self) -> dict | None:
        return read_tables(self.path)

    def write(self, data: dict) -> None:
        atomic_write(self.path, seal(dumps(data)), backup=self.backup)

    def close(self) -> None:
        pass


class _Cached(CachingMiddleware):
    """Writes only when flushed: one durable write per logical change."""

    WRITE_CACHE_SIZE = 2**62


def open_db(path: Path, backup: bool = True) -> TinyDB:
    db = TinyDB(path, backup=backup, storage=_Cached(DurableStorage))
    db.storage.read()  # read now: a damaged file is reported at open, not at first use
    return db


def cache_of(db: TinyDB) -> CachingMiddleware:
    """The cache in front of a database that :func:`open_db` opened (TinyDB types it as a plain ``Storage``)."""
    return cast(CachingMiddleware, db.storage)


def flush_db(db: TinyDB) -> None:
    cache_of(db).flush()


def check_meta(tables: dict | None, path: Path, kind: str, empty_ok: bool) -> dict:
    """A save file's meta table (schema version and kind), checked: ``DamagedSave`` / ``NewerSave`` if wrong.

    ``empty_ok``: a file that does not exist yet (or holds no table) gives ``{}``.
    """
    meta = (tables or {}).get("meta", {}).get("1")
    if meta is None:
        if empty_ok and not tables:
            return {}
        raise DamagedSave(path, "it has no schema version", backup_path(path))
    if is_int(meta.get("schema")) and meta["schema"] > SCHEMA_VERSION:
        raise NewerSave(path, meta["schema"])
    if meta.get("schema") != SCHEMA_VERSION:
        raise DamagedSave(path, f"schema version {meta.get('schema')!r} is not {SCHEMA_VERSION}", backup_path(path))
    if meta.get("kind") != kind:
        raise DamagedSave(path, f"it holds {meta.get('kind')!r}, not {kind!r}", backup_path(path))
    return dict(meta)
