"""Import and export: a whole profile's files built from an export document read member by member (the profile
swaps them in), and the export document written piece by piece.

An import is checked and written in one pass, in bounded memory: the review
rows are checked one at a time as they are read (``jsonstream``) and written
to the new profile's log files (in a folder beside the profile) a file at a
time; only the settings, the item states and the mock results are held whole.
The first problem stops it, naming the member, the row and the field (and the
line of the file, when read from one); the half-built folder is then removed,
so a bad import never changes the profile.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from datetime import date
from pathlib import Path
from typing import Any, Callable

from ..sm2 import ItemState
from . import layout
from .durable import _dumps, _fsync_dir, atomic_write
from .errors import InvalidDocument
from .journal import segment_meta, write_whole
from .layout import EXPORT_FORMAT, SCHEMA_VERSION, digest_path, journal_path, segment_path
from .recent import _NO_RECENT
from .sealed import seal
from .segments import file_identity, write_digest
from .validation import MAX_NAME, _is_int, _text_ok, mock_problem, row_problem, setting_problem, state_problem

STREAMED = frozenset(("reviews", "mocks"))  # the members read element by element (they grow with the history)
_REQUIRED = (("settings", dict), ("states", dict), ("reviews", list), ("mocks", list))


def members_of(doc: Any) -> Iterator[tuple[str, Any]]:
    """An export document already in memory as the members :func:`build_profile` reads."""
    if not isinstance(doc, Mapping):
        raise InvalidDocument("the document must be a JSON object")
    yield from doc.items()


class _LogWriter:
    """The new profile's log files, written as the rows come: ``SEGMENT_ROWS`` rows a file, each with its journal
    (every row in two places) and, once closed, its digest."""

    def __init__(self, folder: Path):
        self.folder, self.n, self.rows = folder, 0, []
        (folder / "reviews").mkdir(parents=True)

    def add(self, row: dict) -> None:
        if len(self.rows) >= layout.SEGMENT_ROWS:
            self._write(closed=True)
        self.rows.append(row)

    def close(self) -> None:
        if self.rows:
            self._write(closed=False)

    def _write(self, closed: bool) -> None:
        from ..stats import Digest

        self.n += 1
        seg = segment_path(self.folder, self.n)
        jsize = write_whole(journal_path(seg), self.rows, seq=1)
        tables = {"meta": {"1": segment_meta(1, jsize)}, "reviews": {str(r["id"]): r for r in self.rows}}
        atomic_write(seg, seal(_dumps(tables)), backup=False)
        if closed and (identity := file_identity(seg)) is not None:
            write_digest(digest_path(seg), Digest.of_rows(self.rows), identity)  # renames keep the identity
        self.rows = []


def _head_problem(key: str, value: Any) -> str | None:
    """The problem of a member that is not the log nor the mocks (None: valid, or a member an import ignores)."""
    if key == "format" and value != EXPORT_FORMAT:
        return f"format must be {EXPORT_FORMAT!r}, not {value!r:.80}"
    if key == "schema":
        if _is_int(value) and value > SCHEMA_VERSION:
            return (f"written by a newer version of infra-drill (schema {value}; this one reads "
                    f"{SCHEMA_VERSION}): upgrade infra-drill to import it")
        if type(value) is not int or value != SCHEMA_VERSION:  # not true, not 1.0
            return f"schema must be the whole number {SCHEMA_VERSION}, not {value!r:.80}"
    kind = dict(_REQUIRED).get(key)
    if kind is not None and not isinstance(value, kind):
        return f"{key} must be a JSON {'object' if kind is dict else 'list'}"
    return None


def build_profile(members: Iterable[tuple[str, Any]], today: date | None = None, folder: Path | None = None,
                  where: Callable[[], str] | None = None) -> dict:
    """Check an export document given as its members (``members_of``, or ``jsonstream.ObjectStream.members``
    with :data:`STREAMED`) and, with ``folder``, write it there as a new profile folder, synced.

    ``InvalidDocument`` names the first problem (``where()``, if given, says where in the file the value just
    read began: ``line 12 column 3``); the folder is then left half-built for the caller to remove.
    ``today``: nothing may be dated after it.  Returns the counts of items, reviews and mocks.
    """
    def bad(problem: str, at: str = "") -> InvalidDocument:
        return InvalidDocument(f"{at}{problem}" + (f" (at {where()})" if where is not None else ""))

    log = _LogWriter(folder) if folder is not None else None
    seen: dict[str, Any] = {}
    last, n_rows = 0, 0
    days: Counter[str] = Counter()
    recent: dict[str, Any] = {}
    mocks: dict[int, dict] = {}
    for key, value in members:
        if key in seen:
            raise bad(f"the member {key!r} appears twice")
        streamed = key in STREAMED and isinstance(value, (list, Iterator))  # (else: the wrong kind, said below)
        seen[key] = value if not streamed else []
        if not streamed:
            if (p := _head_problem(key, value)) is not None:
                raise bad(p)
        if key == "settings":
            for name, v in value.items():
                if (p := setting_problem(name, v)) is not None:
                    raise bad(p, f"settings.{name}: ")
        elif key == "states":
            for item, st in value.items():
                if not 0 < len(item) <= MAX_NAME or not _text_ok(item):
                    raise bad(f"an item id must be text of 1 to {MAX_NAME} characters", "states: ")
                if (p := state_problem(st, today)) is not None:
                    raise bad(p, f"states[{item!r}]: ")
        elif key == "reviews" and streamed:
            for i, row in enumerate(value):
                if (p := row_problem(row, today=today)) is not None:
                    raise bad(p, f"reviews[{i}]: ")
                if row["id"] <= last:
                    raise bad(f"ids must increase (id {row['id']} after {last})", f"reviews[{i}]: ")
                last, n_rows = row["id"], n_rows + 1
                days[row["date"]] += 1
                item = row["item"]
                recent[item] = recent.get(item, _NO_RECENT).after(row["quality"], row["step"], row["verdict"],
                                                                  row["date"])
                if log is not None:
                    log.add(row)
        elif key == "mocks" and streamed:
            for i, m in enumerate(value):
                if (p := mock_problem(m, today=today)) is not None:
                    raise bad(p, f"mocks[{i}]: ")
                if m["id"] in mocks:
                    raise bad(f"id {m['id']} appears twice", f"mocks[{i}]: ")
                mocks[m["id"]] = m
    for key in ("format", "schema"):
        if key not in seen and (p := _head_problem(key, None)) is not None:
            raise InvalidDocument(p)
    for key, kind in _REQUIRED:
        if key not in seen:
            raise InvalidDocument(f"{key} must be a JSON {'object' if kind is dict else 'list'}")
    if log is not None:
        log.close()
        states = {str(k + 1): {"item": item, **ItemState.from_dict(st).to_dict()}
                  for k, (item, st) in enumerate(sorted(seen["states"].items()))}
        next_id = last + 1
        tables = {"meta": {"1": {"schema": SCHEMA_VERSION, "kind": "state", "next_id": next_id, "undo": None}},
                  "states": states, "settings": {"1": dict(seen["settings"])},
                  "days": {"1": {"next_id": next_id, "counts": dict(days)}},
                  "recent": {"1": {"next_id": next_id, "items": {k: r.to_dict() for k, r in recent.items()}}}}
        atomic_write(folder / "state.json", seal(_dumps(tables)), backup=False)
        ordered = [mocks[i] for i in sorted(mocks)]  # in two places, as the reviews (see .journal)
        jsize = write_whole(journal_path(folder / "mocks.json"), ordered, seq=1)
        atomic_write(folder / "mocks.json", seal(_dumps({"meta": {"1": segment_meta(1, jsize, "mocks")},
                                                          "mocks": {str(m["id"]): m for m in ordered}})),
                     backup=False)
        _fsync_dir(folder / "reviews")
        _fsync_dir(folder)
    return {"items": len(seen["states"]), "reviews": n_rows, "mocks": len(mocks)}


def write_profile(folder: Path, doc: Mapping[str, Any]) -> None:
    """Write the profile ``doc`` (valid: see ``document_problem``) as a new profile folder ``folder``, synced."""
    build_profile(members_of(doc), None, folder)


def exported(row: dict) -> dict:
    """A review row as exported: its typed answer as this drill stores one (an older drill kept control
    characters, which an import refuses)."""
    from ..session import stored_text

    return row if row["typed"].isprintable() else {**row, "typed": stored_text(row["typed"])}


def export_chunks(head: dict, reviews: Iterable[dict], mocks: list, counts: dict | None = None) -> Iterator[str]:
    """An export document as text, written as ``json.dumps(doc, ensure_ascii=False, indent=1)`` writes it, piece
    by piece: ``head`` (format, schema, profile, settings, states), then the review rows as ``reviews`` yields
    them (the log one file at a time, so a long history never sits in memory whole), then ``mocks``.
    ``counts`` (if given) gets the numbers of items, reviews and mocks."""
    import json

    def dumped(value: Any, depth: int) -> str:
        return json.dumps(value, ensure_ascii=False, indent=1).replace("\n", "\n" + " " * depth)

    yield "{\n" + "".join(f" {json.dumps(k)}: {dumped(v, 1)},\n" for k, v in head.items()) + ' "reviews": ['
    n = 0
    for r in reviews:
        yield ("\n  " if n == 0 else ",\n  ") + dumped(exported(r), 2)
        n += 1
    yield ("\n ]" if n else "]") + f',\n "mocks": {dumped(mocks, 1)}\n}}'
    if counts is not None:
        counts.update(items=len(head["states"]), reviews=n, mocks=len(mocks))
