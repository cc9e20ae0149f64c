"""Import: a whole profile's files built from a validated export document (the profile swaps them in)."""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Iterable, Iterator

from ..sm2 import ItemState
from . import layout
from .durable import _dumps, _fsync_dir, atomic_write
from .journal import segment_meta, write_whole
from .layout import SCHEMA_VERSION, digest_path, journal_path, segment_path
from .recent import _recent_columns, recent_of
from .sealed import seal
from .segments import file_identity, write_digest
from .validation import _copy, _row_copy


def write_profile(folder: Path, doc: Mapping[str, Any]) -> None:
    """Write the profile ``doc`` (valid: see ``document_problem``) as a new profile folder ``folder``, synced.

    A closed segment gets its digest too (the renames that swap the folder in keep its identity).
    """
    from ..stats import Digest

    (folder / "reviews").mkdir(parents=True)
    rows = [_row_copy(r) for r in doc["reviews"]]
    for i in range(0, len(rows), layout.SEGMENT_ROWS):
        chunk = rows[i:i + layout.SEGMENT_ROWS]
        seg = segment_path(folder, i // layout.SEGMENT_ROWS + 1)
        jsize = write_whole(journal_path(seg), chunk, seq=1)  # every row in two places
        tables = {"meta": {"1": segment_meta(1, jsize)}, "reviews": {str(r["id"]): r for r in chunk}}
        atomic_write(seg, seal(_dumps(tables)), backup=False)
        if i + layout.SEGMENT_ROWS < len(rows) and (identity := file_identity(seg)) is not None:
            write_digest(digest_path(seg), Digest.of_rows(chunk), identity)  # renames keep the identity
    states = {str(k + 1): {"item": item, **ItemState.from_dict(st).to_dict()}
              for k, (item, st) in enumerate(sorted(doc["states"].items()))}
    next_id = (rows[-1]["id"] + 1) if rows else 1
    recent = {item: r.to_dict() for item, r in recent_of(_recent_columns(rows)).items()}
    tables = {"meta": {"1": {"schema": SCHEMA_VERSION, "kind": "state", "next_id": next_id, "undo": None}},
              "states": states, "settings": {"1": copy.deepcopy(dict(doc["settings"]))},
              "days": {"1": {"next_id": next_id, "counts": dict(Counter(r["date"] for r in rows))}},
              "recent": {"1": {"next_id": next_id, "items": recent}}}
    atomic_write(folder / "state.json", seal(_dumps(tables)), backup=False)
    mocks = {str(m["id"]): _copy(m) for m in doc["mocks"]}
    atomic_write(folder / "mocks.json", seal(_dumps({"meta": {"1": {"schema": SCHEMA_VERSION, "kind": "mocks"}},
                                                      "mocks": mocks})), backup=False)
    _fsync_dir(folder)


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
