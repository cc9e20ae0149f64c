"""The user's own accelerators and models: TOML files in ``<saves>/catalogue/``.

Each file is an array of tables ``[[accelerators]]`` and/or ``[[models]]`` with the fields of the
built-in data files (docs/catalogue.md).  A file is user input: it must be a regular file
of at most :data:`~question_bank.catalogue.MAX_USER_BYTES` bytes and
:data:`~question_bank.catalogue.MAX_USER_ENTRIES` entries, every text free of control characters;
it is validated like the built-in data, and an id may not repeat a built-in one or another file's.
A bad file is one :class:`~question_bank.catalogue.CatalogueError` naming the file and the field;
the other files still load (:func:`load`).  Loaded entries are registered as records in
``hardware.USER`` and ``models.USER``, where ``hardware.get`` / ``models.get`` find them.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from engine.records import NamedTuple

from . import catalogue, catalogue_cache, hardware, models
from .catalogue import MAX_USER_BYTES, CatalogueError

FOLDER = "catalogue"  # under the saves folder


class UserFile(NamedTuple):
    path: Path
    entries: dict[str, list]  # validated entries by section ({} when the file was refused)
    error: CatalogueError | None


class Loaded(NamedTuple):
    files: tuple[UserFile, ...]

    @property
    def errors(self) -> list[CatalogueError]:
        return [f.error for f in self.files if f.error is not None]

    def entries(self, section: str) -> list[tuple[dict, Path]]:
        return [(e, f.path) for f in self.files for e in f.entries.get(section, [])]


def folder(saves: Path) -> Path:
    return Path(saves) / FOLDER


def read_file(path: Path | str, taken: dict[str, str] | None = None) -> dict[str, list]:
    """The validated entries of one user file (raises CatalogueError).  ``taken``: ids already used (by the
    built-in catalogue and earlier files) and where."""
    path = Path(path)
    shown = str(path)
    try:
        st = os.stat(path)
    except OSError as e:
        raise CatalogueError(shown, f"cannot be read ({e.strerror or e})", f"无法读取（{e.strerror or e}）") from None
    if not stat.S_ISREG(st.st_mode):
        raise CatalogueError(shown, "is not a regular file", "不是普通文件")
    if st.st_size > MAX_USER_BYTES:
        raise CatalogueError(shown, f"is {st.st_size:,} bytes; a catalogue file is at most {MAX_USER_BYTES:,}",
                             f"有 {st.st_size:,} 字节；目录文件最多 {MAX_USER_BYTES:,} 字节")
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_USER_BYTES + 1)
    except OSError as e:
        raise CatalogueError(shown, f"cannot be read ({e.strerror or e})", f"无法读取（{e.strerror or e}）") from None
    return check_text(raw, shown, taken)


def check_text(raw: bytes, shown: str, taken: dict[str, str] | None = None) -> dict[str, list]:
    """The validated entries of a user file's bytes (raises CatalogueError)."""
    if len(raw) > MAX_USER_BYTES:
        raise CatalogueError(shown, f"is more than {MAX_USER_BYTES:,} bytes", f"超过 {MAX_USER_BYTES:,} 字节")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise CatalogueError(shown, "is not UTF-8 text", "不是 UTF-8 文本") from None
    doc = catalogue.parse_toml(shown, text=text)
    builtin = catalogue_cache.builtin_entries("hardware")["accelerators"]
    entries = catalogue.validate(doc, shown, user=True, known=builtin)
    taken = dict(taken if taken is not None else builtin_ids())
    for section, items in entries.items():
        for i, e in enumerate(items):
            if e["id"] in taken:
                raise CatalogueError(shown, f"the id is already used by {taken[e['id']]}: choose another",
                                     f"该 id 已被 {taken[e['id']]} 使用：请换一个", section=section, index=i,
                                     entry_id=e["id"], field="id")
            taken[e["id"]] = shown
    return entries


def builtin_ids() -> dict[str, str]:
    data = catalogue_cache.builtin_entries()
    return {e["id"]: "the built-in catalogue" for section in ("accelerators", "models") for e in data[section]}


def load(saves: Path) -> Loaded:
    """Every ``*.toml`` file of ``<saves>/catalogue/`` (name order), each validated; the valid ones are
    registered in ``hardware.USER`` / ``models.USER`` (replacing what an earlier load registered)."""
    hardware.USER.clear()
    models.USER.clear()
    where = folder(saves)
    try:
        names = sorted(e.name for e in os.scandir(where) if e.name.endswith(".toml"))
    except (FileNotFoundError, NotADirectoryError):
        return Loaded(())
    except OSError as e:
        return Loaded((UserFile(where, {}, CatalogueError(str(where), f"cannot be read ({e.strerror or e})",
                                                          f"无法读取（{e.strerror or e}）")),))
    taken = builtin_ids()
    files = []
    for name in names:
        path = where / name
        try:
            entries = read_file(path, taken)
        except CatalogueError as e:
            files.append(UserFile(path, {}, e))
            continue
        for items in entries.values():
            for entry in items:
                taken[entry["id"]] = str(path)
        files.append(UserFile(path, entries, None))
        for entry in entries.get("accelerators", []):
            hardware.USER[entry["id"]] = hardware.gpu_from_entry(entry, origin=str(path))
        for entry in entries.get("models", []):
            models.USER[entry["id"]] = models.model_from_entry(entry, origin=str(path))
    return Loaded(tuple(files))
