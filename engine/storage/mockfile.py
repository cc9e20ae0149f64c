"""The mocks file and its journal: a mock-interview result written to two places before it is acknowledged.

``mocks.journal`` beside ``mocks.json`` is kept as a log file's journal is
(:mod:`.journal`): a line putting the result (the first time, every older one
too) is appended and fsynced, then ``mocks.json`` is replaced, its meta naming
that line.  Every open checks the two against each other (:func:`check_journal`):
a mocks file behind its journal (a crash between the two writes, an older copy
put back by hand) is made from the journal, so the newest result is kept; a
journal damaged or behind is set aside and written again from the whole mocks
file, and said.  These functions work on a :class:`~.profile.Profile`'s mocks.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from tinydb.table import Document

from . import durable, journal
from .durable import flush_db
from .errors import JournalDamaged, ReadFailed, save_failed
from .layout import journal_path
from .validation import is_int, plain_copy


def check_journal(p) -> None:
    """The mocks file of ``p`` (just read) against its journal; sets ``p._mjrows``, ``_mjseq``, ``_mjsize`` (what
    the journal gives, its last line, its size) and notes damage in ``p.damaged``.  A reader changes no file."""
    path = p.path / "mocks.json"
    jpath = journal_path(path)
    try:
        j = journal.read_journal(jpath, "mocks")
    except OSError as e:
        raise ReadFailed(jpath, e) from None
    db, table = p._mock_db, p._mock_db.table("mocks")
    seq = (db.table("meta").get(doc_id=1) or {}).get("seq", 0)
    seq = seq if is_int(seq) and seq >= 0 else 0
    mocks = {d.doc_id: dict(d) for d in table.all()}
    problem = journal.step_problem(j, seq, mocks, "the mocks file")
    p._mjrows, p._mjseq, p._mjsize = (j.rows_at(), j.seq, j.size) if problem is None else (mocks, seq, 0)
    if problem is None and j.seq > seq:  # the mocks file is behind: made from the journal (a reader: in memory)
        table.truncate()
        for i in sorted(p._mjrows):
            table.insert(Document(p._mjrows[i], doc_id=i))
        db.table("meta").upsert(Document(journal.segment_meta(j.seq, j.size, "mocks"), doc_id=1))
        if not p.read_only:
            try:
                flush_db(db)
            except OSError as e:  # the mock results are in the journal: the next open tries again
                db.storage._cache_modified_count = 0
                p.state_behind = save_failed(e, path)
    if problem is None:
        return
    p.damaged[jpath] = JournalDamaged(jpath, problem, healed=False, mocks=True)
    if p.read_only:
        return
    try:
        aside = jpath.with_name(jpath.name + ".damaged")
        if jpath.exists():
            durable.fault_point("replace", aside)
            os.replace(jpath, aside)
        p._mjseq = max(seq, 1)
        p._mjsize = journal.write_whole(jpath, [mocks[i] for i in sorted(mocks)], seq=p._mjseq)
        p._mjrows = dict(mocks)
        p.damaged[jpath] = JournalDamaged(jpath, problem, healed=True, mocks=True,
                                          aside=aside if aside.exists() else None)
        db.table("meta").upsert(Document(journal.segment_meta(p._mjseq, p._mjsize, "mocks"), doc_id=1))
        flush_db(db)
    except OSError as e:  # the next write tries again
        p._mjrows, p._mjseq, p._mjsize = mocks, seq, 0
        p.state_behind = save_failed(e, jpath)


def add(p, result: Mapping[str, Any]) -> dict:
    """Store the (valid) mock result ``result`` in ``p``: first its journal line, fsynced, then the mocks file.
    Returns it with its ``id``; ``SaveFailed`` (nothing stored, the line cut off) names the file that failed."""
    db, path = p._mock_db, p.path / "mocks.json"
    table, meta = db.table("mocks"), db.table("meta")
    mock_id = max((d.doc_id for d in table.all()), default=0) + 1
    stored = {**plain_copy(result), "id": mock_id}
    old_meta = meta.get(doc_id=1)
    seq = p._mjseq + 1
    line = journal.diff_line(seq, p._mjrows, {**{d.doc_id: dict(d) for d in table.all()}, mock_id: stored})
    jpath = journal_path(path)
    journal.append(jpath, line, p._mjsize)
    table.insert(Document(stored, doc_id=mock_id))
    meta.upsert(Document(journal.segment_meta(seq, p._mjsize + len(line), "mocks"), doc_id=1))
    try:
        flush_db(db)
    except BaseException as e:  # (a SaveFailed naming the mocks file)
        if isinstance(e, OSError):  # not stored: the line is cut off (after a crash it stays, and the next
            journal.cut_back(jpath, p._mjsize)  # open finishes the write from it)
        table.remove(doc_ids=[mock_id])  # keep the cache equal to the file
        if old_meta is None:
            meta.remove(doc_ids=[1])
        else:
            meta.upsert(Document(dict(old_meta), doc_id=1))
        db.storage._cache_modified_count = 0
        raise
    p._mjrows = {d.doc_id: dict(d) for d in table.all()}
    p._mjseq, p._mjsize = seq, p._mjsize + len(line)
    if p._manifest is not None:  # listed after it is written (see .manifest)
        p._note_parts()
        p._write_manifest()
    return plain_copy(stored)
