"""What can go wrong with a profile, as exceptions whose message says what to do."""

from __future__ import annotations

import errno
from pathlib import Path

from engine.langs import EN

from ..messages import Msg, Twin, say
from .layout import SCHEMA_VERSION, TABLES, file_kind
from .validation import InvalidDocument, is_int  # noqa: F401 (InvalidDocument: defined with its checks)


def _quote(text: str) -> str:
    """``text`` as one shell word, in the fix a message suggests (shlex, imported only then: its import
    compiles a pattern, ~1 ms of every start-up otherwise)."""
    import shlex

    return shlex.quote(text)


class ProfileLocked(Exception):
    """Another process holds the profile."""

    def __init__(self, profile: str, pid: int | None, waited: float = 0.0):
        self.profile, self.pid, self.waited = profile, pid, waited
        who = Twin(f"process {pid}", f"进程 {pid} ") if pid else Twin("another process", "另一个进程")
        tail = Twin(f" (waited {waited:g} s)", f"（已等待 {waited:g} 秒）") if waited else ""
        self.message = say("save.locked", profile=profile, who=who, tail=tail)
        super().__init__(self.message.text(EN))

    def text(self, lang: str = EN) -> str:
        return self.message.text(lang)


class _Said:
    """An error whose ``message`` (an engine.messages Msg) words it in English or Chinese: ``text(lang)``."""

    message: Msg | None = None

    def text(self, lang: str = EN) -> str:
        return self.message.text(lang) if self.message is not None else str(self)


class DamagedSave(_Said, Exception):
    """A save file that cannot be read: it is left untouched.

    ``backup`` is the previous version kept beside it, offered only when it can
    replace the file: whole, of this schema version and of the same kind of file.
    """

    def __init__(self, path: Path, reason: str | Twin, backup: Path | None = None):
        self.path, self.reason, self.said_reason = Path(path), str(reason), reason  # (said_reason: both languages)
        status = _backup_status(Path(backup), self.path) if backup is not None else None
        self.backup = Path(backup) if status == "good" and backup is not None else None
        doctor = doctor_command(self.path)
        if self.backup is not None:
            cp = f"cp {_quote(str(self.backup))} {_quote(str(self.path))}"
            self.fix = doctor
            how = Twin(f" To restore it, keeping the newest review, run: {doctor} (the previous good version is also"
                       f" kept beside it: {cp})",
                       f"要恢复它并保留最新的复习记录，请运行：{doctor}（它旁边也保留着上一个完好的版本：{cp}）")
        elif status == "newer":
            self.fix = f"cp {_quote(str(backup))} {_quote(str(self.path))}"
            how = Twin(f" Its previous version beside it was written by a newer version of infra-drill: upgrade"
                       f" infra-drill, then restore it with: {self.fix}",
                       f"它旁边的上一个版本由更新版本的 infra-drill 写入：请先升级 infra-drill，再这样恢复：{self.fix}")
        else:
            mv = f"mv {_quote(str(self.path))} {_quote(str(self.path) + '.damaged')}"
            self.fix = doctor
            how = Twin(f" There is no good copy of it beside it; {doctor} restores it from its journal if it has "
                       f"one and says what cannot be recovered (to start that file afresh instead, losing what it "
                       f"held: {mv})",
                       f"它旁边没有完好的副本；{doctor} 会在有日志副本时据此恢复，并说明哪些内容无法恢复"
                       f"（若要让这个文件重新开始，会丢失其中的内容：{mv}）")
        self.message = say("save.damaged_file", path=str(self.path), reason=self.said_reason, fix=how)
        Exception.__init__(self, self.message.text(EN))


class UnreadableSave(DamagedSave):
    """A save file this user may not read (permission denied): not damaged, and not to be moved away or
    replaced; ``fix`` gives the permission back."""

    def __init__(self, path: Path, error: OSError):
        self.path, self.backup = Path(path), None
        self.reason = "permission denied"
        self.fix = f"chmod u+rw {_quote(str(self.path))}"
        self.message = say("save.unreadable_file", path=str(self.path), error=error.strerror, fix=self.fix)
        Exception.__init__(self, self.message.text(EN))


class NewerSave(DamagedSave):
    """A save file written by a newer infra-drill (a higher schema version): left untouched, never replaced."""

    def __init__(self, path: Path, schema: int):
        self.path, self.schema, self.backup, self.fix = Path(path), schema, None, "upgrade infra-drill"
        self.reason = f"schema version {schema} is newer than this infra-drill's ({SCHEMA_VERSION})"
        self.message = say("save.newer_file", path=str(self.path), schema=schema, ours=SCHEMA_VERSION)
        Exception.__init__(self, self.message.text(EN))


class JournalDamaged(DamagedSave):
    """A segment's journal (or, ``mocks``, the mocks file's) that fails its checks while the file itself is whole:
    nothing is lost.

    ``healed``: a writer set it aside (``aside``) and wrote it again from the segment; a reader only says it."""

    def __init__(self, path: Path, reason: str, healed: bool = False, aside: Path | None = None, *,
                 mocks: bool = False):
        self.path, self.reason, self.backup, self.healed, self.aside = Path(path), reason, None, healed, aside
        self.fix = "drill doctor"
        of = "save.mocks_journal" if mocks else "save.journal"  # the mocks file's journal: said as its own
        if healed:
            kept = (Twin(f" The damaged copy is kept as {aside}.", f"损坏的副本保留为 {aside}。") if aside else "")
            self.message = say(f"{of}_healed", path=str(self.path), reason=reason, kept=kept)
        else:
            self.message = say(f"{of}_damaged", path=str(self.path), reason=reason)
        Exception.__init__(self, self.message.text(EN))



class ProfileIncomplete(DamagedSave):
    """Parts of a profile that are not what its manifest (or, in a save from before manifests, its state file's
    counter) says: a log file gone, shorter, swapped or one too many.  Nothing is written to the profile;
    ``gaps`` names each part and the review ids it should hold (as engine.messages Twins)."""

    def __init__(self, folder: Path, gaps: list[Twin], first: str = ""):
        self.gaps, self.backup = gaps, None
        self.path = Path(folder) / first  # the first part named (``first``: relative to the profile folder)
        self.fix = doctor_command(Path(folder) / "state.json")
        self.reason = "; ".join(g.en for g in gaps)
        self.said_reason = Twin(self.reason, "；".join(g.zh for g in gaps))
        self.message = say("save.incomplete", path=str(folder), gaps=self.said_reason, fix=self.fix)
        Exception.__init__(self, self.message.text(EN))




class BadProfileName(_Said, ValueError):
    """A profile name that is not 1-64 letters, digits, '_' or '-' (a path, an empty name...)."""

    def __init__(self, name: object):
        self.message = say("save.bad_profile_name", name=repr(name))
        super().__init__(self.message.text(EN))



def doctor_command(path: Path) -> str:
    """``drill doctor --repair`` for the profile that holds save file ``path`` (its ``--profile`` when not the
    default one)."""
    path = Path(path)
    folder = path.parent.parent if path.parent.name == "reviews" else path.parent
    name = folder.name
    return "drill doctor --repair" + (f" --profile {_quote(name)}" if name and name != "default" else "")


def _backup_status(backup: Path, path: Path) -> str | None:
    """"good": ``backup`` can replace ``path`` (a whole table file of this schema and of ``path``'s kind);
    "newer": it was written by a newer infra-drill; None: it cannot (missing, damaged, another file's)."""
    from .sealed import open_sealed

    try:
        tables, _ = open_sealed(backup.read_bytes())
    except (OSError, ValueError, RecursionError):
        return None
    meta = tables.get("meta") if isinstance(tables, dict) else None
    meta = meta.get("1") if isinstance(meta, dict) else None
    kind = file_kind(path)
    if not isinstance(meta, dict) or not all(isinstance(t, dict) and all(isinstance(d, dict) for d in t.values())
                                             for t in tables.values()):
        return None
    if kind in TABLES and set(tables) - TABLES[kind]:
        return None
    schema = meta.get("schema")
    if is_int(schema) and schema > SCHEMA_VERSION:
        return "newer"
    return "good" if schema == SCHEMA_VERSION and (kind is None or meta.get("kind") == kind) else None


# keyed by an OSError's errno, which may be None (no cause known: none of these)
_CAUSES: dict[int | None, str] = {errno.ENOSPC: "save.cause.full", errno.EDQUOT: "save.cause.quota", errno.EACCES: "save.cause.denied",
           errno.EPERM: "save.cause.denied", errno.EROFS: "save.cause.read_only", errno.EIO: "save.cause.io"}


class SaveFailed(OSError):
    """A write to the saves that failed (a full disk, no permission, a read-only file system, an I/O error).

    The write that failed left nothing behind (no temporary file, the old file
    whole); what the caller stored before it is durable.  ``text(lang)`` is the
    message in English or Chinese, naming the path and the cause.  An ``OSError``
    (with the original ``errno``) so that code that already copes with one still does.
    """

    def __init__(self, path: Path | str, error: OSError):
        super().__init__(error.errno, error.strerror or str(error), str(path))
        self.path = Path(path)
        code = _CAUSES.get(error.errno)
        self.cause = say(code) if code else say("save.cause.other", error=error.strerror or str(error))
        self.message = say("save.write_failed", path=str(self.path), cause=self.cause)

    def text(self, lang: str = EN) -> str:
        return self.message.text(lang)

    def __str__(self) -> str:
        return self.text(EN)

    def __reduce__(self):  # picklable (a worker process may raise it)
        return (_rebuild_save_failed, (str(self.path), self.errno, self.strerror))


class ReadFailed(SaveFailed):
    """A save file or folder that cannot be read (no permission, an I/O error): said as "cannot read", not
    "cannot write" (a reader writes nothing)."""

    def __init__(self, path: Path | str, error: OSError):
        super().__init__(path, error)
        code = _READ_CAUSES.get(error.errno)
        self.cause = say(code) if code else self.cause
        self.message = say("save.read_failed", path=str(self.path), cause=self.cause)

    def __reduce__(self):
        return (ReadFailed, (str(self.path), OSError(self.errno, self.strerror)))


_READ_CAUSES: dict[int | None, str] = {errno.EACCES: "save.cause.read_denied", errno.EPERM: "save.cause.read_denied",
                errno.EIO: "save.cause.io"}


def _rebuild_save_failed(path: str, err: int | None, strerror: str | None) -> SaveFailed:
    return SaveFailed(path, OSError(err, strerror))


def save_failed(error: OSError, path: Path | str | None = None) -> SaveFailed:
    """``error`` as a :class:`SaveFailed` (itself if it already is one), naming ``path`` or the error's file."""
    if isinstance(error, SaveFailed):
        return error
    return SaveFailed(path if path is not None else (error.filename or "?"), error)


class SavesUnusable(Exception):
    """The saves folder is not a folder (a file in its place or on its path): nothing is touched.
    ``text(lang)`` words it in English or Chinese."""

    def __init__(self, path: Path, file: Path):
        self.path, self.file = Path(path), Path(file)
        self.message = (say("save.saves_is_file", path=str(self.path)) if self.file == self.path
                        else say("save.saves_under_file", path=str(self.path), file=str(self.file)))
        super().__init__(self.message.text(EN))

    def text(self, lang: str = EN) -> str:
        return self.message.text(lang)


def saves_problem(root: Path) -> SavesUnusable | None:
    """Why ``root`` cannot be the saves folder (a file stands at it or on its path), or None."""
    root = Path(root)
    for at in (root, *root.parents):
        if at.is_dir():
            return None
        if at.exists() or at.is_symlink():  # a file, or a link to nothing, where a folder must be
            return SavesUnusable(root, at)
    return None


class LockUnusable(_Said, Exception):
    """The profile's lock file cannot be used as one (a folder or a broken link in its place): nothing is touched.
    ``what`` is what stands there (a :class:`Twin` or an English text)."""

    def __init__(self, path: Path, profile: str, what: Twin | str):
        self.path, self.profile, self.what = Path(path), profile, what
        fix = f"mv {_quote(str(self.path))} {_quote(str(self.path) + '.damaged')}"
        self.message = say("save.lock_unusable", path=str(self.path), profile=profile, what=what, fix=fix)
        super().__init__(self.message.text(EN))
