"""What can go wrong with a profile, as exceptions whose message says what to do."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

from .layout import SCHEMA_VERSION, _file_kind
from .validation import _is_int


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
