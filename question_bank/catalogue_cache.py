"""The built-in catalogue's validated entries, cached so the app starts without reading the TOML files.

Reading the TOML files and validating them (:mod:`question_bank.catalogue`) takes about 15 ms, more
than the app's first problem may wait; the validated entries are therefore kept in
``data/__pycache__/catalogue-<group>.marshal``, used only while the data files and the validator
(``catalogue.py``) have the size and modification time it was built from and the Python version is
the same, and written only where Python writes its bytecode (not under ``PYTHONDONTWRITEBYTECODE``
nor in a read-only install), as the template index is.  Without a usable cache the files are read.
This module is small on purpose: the validator is imported only when the cache is stale.
"""

from __future__ import annotations

import marshal  # a private cache of plain dicts: read several times faster than JSON
import os
import sys
from pathlib import Path

from .data import BUILTIN_FILES, DATA, GROUPS

CACHE_DIR = DATA / "__pycache__"
CACHE_VERSION = 1
_VALIDATOR = Path(__file__).resolve().parent / "catalogue.py"

_builtin: dict[str, dict[str, list]] = {}


def _stamps(group: str) -> list:
    out: list = [sys.version, CACHE_VERSION]
    for p in (*(BUILTIN_FILES[s] for s in GROUPS[group]), _VALIDATOR):
        st = p.stat()
        out.append([p.name, st.st_size, st.st_mtime_ns])
    return out


def builtin_entries(group: str | None = None) -> dict[str, list]:
    """The validated built-in entries of ``group`` (``"hardware"``: ``{"links": [...], "accelerators": [...]}``,
    ``"models"``: ``{"models": [...]}``; None: all three), each a dict of the fields it gives except its
    per-field ``sources`` (``catalogue.full_entries`` has them), from the cache when it is up to date.
    A damaged data file raises :class:`question_bank.catalogue.CatalogueError`."""
    if group is None:
        return builtin_entries("hardware") | builtin_entries("models")
    if group in _builtin:
        return _builtin[group]
    path = CACHE_DIR / f"catalogue-{group}.marshal"
    stamps = _stamps(group)
    try:
        data = marshal.loads(path.read_bytes())
        if data["stamps"] == stamps:
            _builtin[group] = data["entries"]
            return _builtin[group]
    except (OSError, ValueError, EOFError, KeyError, TypeError):
        pass
    from .catalogue import read_builtin

    entries = _builtin[group] = {section: [{k: v for k, v in e.items() if k != "sources"} for e in items]
                                 for section, items in read_builtin(group).items()}
    folder = CACHE_DIR if CACHE_DIR.exists() else DATA
    if not sys.dont_write_bytecode and os.access(folder, os.W_OK):
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        try:
            CACHE_DIR.mkdir(exist_ok=True)
            tmp.write_bytes(marshal.dumps({"stamps": stamps, "entries": entries}))
            os.replace(tmp, path)  # atomic: another process reads the old cache or the new one
        except OSError:  # a read-only install: the entries serve this process only
            try:
                tmp.unlink()
            except OSError:
                pass
    return entries
