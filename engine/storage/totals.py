"""The statistics' running totals (``engine.stats_running.Running``), kept beside the log in ``stats.json``.

The file is a cache of the log, sealed JSON (:mod:`.sealed`: its checksum in front) as every save file::

    {"checksum":"<32 hex digits>","format":"infra-drill-stats","next_id":1234,"tip":[1233,"<row checksum>"],
     "totals":{"version":1,"rows":1233,...}}

``next_id`` is the review counter the totals were computed at (they hold every row below it) and ``tip`` the
newest of those rows (its id and checksum, as the state file names it). It is trusted only while the log still
holds that tip row unchanged: rows recorded since are added from the log's newest files (:func:`catch_up`),
and a file that is missing, damaged or out of step with the log is made again from the whole log (the profile
does that: ``Profile.running``). Written with :func:`engine.storage.durable.atomic_write` (no backup: it is
made again from the log), by :func:`write` only;
its name is :data:`engine.storage.layout.STATS_FILE`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path

from ..stats_running import Running, row_columns
from .durable import atomic_write
from .sealed import dumps, seal, unseal
from .segments import row_sum

FORMAT = "infra-drill-stats"
CATCH_UP_FILES = 4  # log files read to bring kept totals up to date; more behind than that: made again


class Kept:
    """The totals as read from the file, with the counter and the tip row they were computed at."""

    __slots__ = ("running", "next_id", "tip")

    def __init__(self, running: Running, next_id: int, tip: list | None) -> None:
        self.running, self.next_id, self.tip = running, next_id, tip


def write(path: Path, running: Running, next_id: int, tip: list | None) -> None:
    """Write the totals computed at ``next_id`` (the newest row they hold: ``tip``); ``SaveFailed`` if it fails."""
    atomic_write(path, seal(dumps({"format": FORMAT, "next_id": next_id, "tip": tip, "totals": running.to_dict()})),
                 backup=False)


def read(path: Path) -> Kept | None:
    """The kept totals; None when there is no file.  ``ValueError`` says why a file is not whole."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    body, sealed = unseal(data)  # (Broken is a ValueError)
    if not sealed:
        raise ValueError("it carries no checksum")
    try:
        head = json.loads(body)
    except ValueError:
        raise ValueError("it is not JSON") from None
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise ValueError("it is not a file of running statistics")
    next_id, tip = head.get("next_id"), head.get("tip")
    if type(next_id) is not int or next_id < 1 or not (tip is None or (
            isinstance(tip, list) and len(tip) == 2 and type(tip[0]) is int and isinstance(tip[1], str))):
        raise ValueError("its review counter is not a whole number")
    try:
        running = Running.from_dict(head.get("totals"))
    except ValueError as e:
        raise ValueError(f"its totals are not whole ({e})") from None
    return Kept(running, next_id, tip)


def problem(path: Path) -> str | None:
    """Why the file is damaged (for ``drill doctor``); None when it is whole or missing."""
    try:
        read(path)
    except (ValueError, OSError) as e:
        return str(e)
    return None


def catch_up(kept: Kept, next_id: int, segments: Sequence[int], rows_of: Callable[[int], list[dict]]) -> Running | None:
    """The kept totals with the log's rows from their counter up to ``next_id`` added, or None when the log
    no longer holds their tip row as it was (an undo or a re-grade since), holds fewer rows than they counted,
    or is more than :data:`CATCH_UP_FILES` files ahead.  ``rows_of(n)``: log file ``n``'s rows (may raise
    ``DamagedSave``)."""
    if kept.next_id > next_id:
        return None
    newer: list[dict] = []
    tip_ok = kept.tip is None
    for k, n in enumerate(reversed(segments)):
        rows = rows_of(n)
        newer[:0] = [r for r in rows if r["id"] >= kept.next_id]
        if kept.tip is not None and rows and rows[0]["id"] <= kept.tip[0]:
            found = next((r for r in rows if r["id"] == kept.tip[0]), None)
            tip_ok = found is not None and row_sum(found) == kept.tip[1]
            break
        if rows and rows[0]["id"] < kept.next_id:
            break
        if k + 1 >= CATCH_UP_FILES:
            return None
    if not tip_ok:
        return None
    running = kept.running
    for r in newer:
        running.add(row_columns(r))
    return running
