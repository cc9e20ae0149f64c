"""What Profile's parts (opening, recording, reading) share: its attributes and methods, declared for a type checker."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tinydb import TinyDB

from ..sm2 import ItemState
from .errors import DamagedSave, SaveFailed
from .lock import ProfileLock
from .recent import ItemRecent

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from datetime import datetime

    from ..digest import Digest
    from ..stats_running import Running
    from .manifest import Manifest


class ProfileBase:
    """What every part of a profile holds (set by ``Profile.__init__`` and ``ProfileOpening._load``).

    Annotations only: nothing here exists at run time but the class itself, so the
    parts' methods and the order they are looked up in stay those of ``Profile``."""

    root: Path
    name: str
    _lock: ProfileLock
    path: Path
    read_only: bool
    # the files: the state file and the mocks file are None only once closed (see Profile._close_dbs)
    _state_db: TinyDB
    _mock_db: TinyDB
    _segments: list[int]
    _seg_db: TinyDB | None
    _seg_n: int
    _seg_rows: list[dict]
    _unsaved: int
    _batch: bool
    _split: bool
    _jrows: dict[int, dict]
    _jseq: int
    _jsize: int
    _mjrows: dict[int, dict]
    _mjseq: int
    _mjsize: int
    # what the state file holds
    _next_id: int
    _undo: int | None
    _tip: list | None
    _states: dict[str, ItemState]
    _state_ids: dict[str, int]
    _settings: dict[str, Any]
    _changed: dict[str, str]  # each setting's change time (2026-11-29T15:42:01Z), where known
    _days: dict[str, int] | None
    _days_whole: bool
    _recent: dict[str, ItemRecent] | None
    _recent_whole: bool
    _running: Running | None  # the statistics' running totals; None: not read yet (or to be made again)
    _manifest: Manifest | None
    clock: Callable[[], datetime]  # stamps a setting's change time (Profile sets it; drill's AppContext too)
    state_behind: SaveFailed | None
    damaged: dict[Path, DamagedSave]
    ignored_settings: dict[str, str]
    _ignored_raw: dict[str, Any]

    if TYPE_CHECKING:  # defined by one part, called by another
        # Profile
        def _check_open(self) -> None: ...
        def _check_writer(self) -> None: ...
        def _seg_path(self, n: int) -> Path: ...

        # ProfileOpening
        def _open_segment(self, n: int) -> None: ...
        @staticmethod
        def _forget_digest(segment: Path) -> None: ...
        def _newest_tip(self, undo: int | None = None) -> list | None: ...
        def _apply(self, row: Mapping) -> None: ...
        def _count_day(self, day: str, change: int) -> None: ...
        def _note_parts(self) -> None: ...
        def _write_manifest(self, newest_only: bool = False) -> None: ...

        # ProfileRecording
        def _save_state(self, undo: int | None = None) -> None: ...
        def _write_state(self, undo: int | None = None) -> None: ...
        def _remove_last_row(self) -> None: ...

        # ProfileReading
        def _rows_of(self, n: int) -> list[dict]: ...
        def _review_dicts(self) -> Iterator[dict]: ...
        def _recent_before_last(self, item: str) -> ItemRecent | None: ...
        def _digest_of(self, n: int, *, check: bool = True, rebuild: bool = False) -> Digest: ...
        def running(self) -> Running: ...
        def _write_totals(self, tip: list | None) -> None: ...
