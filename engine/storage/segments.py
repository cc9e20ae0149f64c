"""The review log's segment files and the digests kept beside the closed ones.

A segment's rows are checked as they are read (:func:`segment_rows`).  A
digest (``engine.digest.Digest``: the columns the statistics read) is a cache:
never trusted unchecked, never needed - it is used only while it matches the
segment file's size, modification time and inode and its own checksum.
"""

from __future__ import annotations

import json
import os
import zlib
from pathlib import Path
from typing import TYPE_CHECKING

from .durable import atomic_write, check_meta
from .errors import DamagedSave
from .layout import DIGEST_VERSION, backup_path
from .sealed import dumps
from .validation import row_ok, row_problem

if TYPE_CHECKING:
    from ..digest import Digest


def segment_rows(tables: dict | None, path: Path) -> list[dict]:
    """The checked rows of a segment file's tables, by id (the row dicts are the tables' own)."""
    check_meta(tables, path, "reviews", empty_ok=False)
    assert tables is not None  # check_meta raised DamagedSave if it was
    rows = []
    for doc_id, doc in tables.get("reviews", {}).items():
        if not row_ok(doc) or str(doc["id"]) != doc_id:
            p = row_problem(doc) or "its id does not match"
            raise DamagedSave(path, f"bad review row {doc_id} ({p})", backup_path(path))
        rows.append(doc)
    rows.sort(key=lambda r: r["id"])
    return rows


def row_sum(row: dict) -> str:
    """A checksum of a stored row (the state file names the newest row it counted by it)."""
    from .sealed import checksum

    return checksum(dumps(row))


def file_identity(path: Path) -> list[int] | None:
    """Size, modification time and inode: what changes whenever a file is rewritten (None: no file)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns, st.st_ino]


def _digest_header(body: bytes, identity: list[int]) -> dict:
    from ..digest import DIGEST_FIELDS

    return {"kind": "review-digest", "version": DIGEST_VERSION, "fields": list(DIGEST_FIELDS),
            "segment": identity, "crc32": zlib.crc32(body)}


def write_digest(path: Path, digest: Digest, identity: list[int]) -> None:
    """Keep ``digest`` at ``path`` as made from the segment file with ``identity``: a header line, the columns.

    Best effort: a digest that cannot be written is simply rebuilt next time.
    """
    body = dumps(digest.columns())
    try:
        atomic_write(path, dumps(_digest_header(body, identity)) + b"\n" + body, backup=False, sync=False)
    except OSError:
        pass


def read_digest(path: Path, identity: list[int], *, check: bool = True) -> Digest | None:
    """The digest at ``path`` if it is whole and was made from the segment file that now has ``identity``.

    Without ``check`` its values are not checked (its layout and checksum are):
    the caller checks them, joined with others (``Digest.problem``).
    """
    from ..digest import Digest

    try:
        raw = path.read_bytes()
    except OSError:
        return None
    head, newline, body = raw.partition(b"\n")
    try:
        if not newline or json.loads(head) != _digest_header(body, identity):
            return None  # stale (another segment file, an older format) or damaged
        return Digest.from_columns(json.loads(body), check=check)
    except (ValueError, RecursionError):  # not JSON, not UTF-8, nested too deep, or columns that are not a digest's
        return None
