"""Keeping replicas of a profile in step (``drill sync DIR``, ``drill import --merge FILE``).

The merge itself is :mod:`engine.storage.merging` (pure, on export documents); here it is read from files,
checked, and written: the merged document replaces the profile as an import does (``Profile.import_document``:
built beside it and swapped in with two renames, so a crash at any write leaves the profile as it was or as
merged), and this replica's own file in the shared folder is written atomically, after the merge.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from engine.records import NamedTuple
from engine.review import REPLICA_ID, legacy_replica
from engine.session import Rules
from engine.storage import merging

if TYPE_CHECKING:
    from engine.sm2 import ItemState
    from engine.storage import Profile


class _SettingsView:
    """What drill.core.settings reads of a profile (its settings), for settings not yet stored (a merge's)."""

    def __init__(self, settings: Mapping[str, Any]):
        from engine.storage.layout import DEFAULT_SETTINGS

        self._settings = {**DEFAULT_SETTINGS, **settings}  # as Profile.settings() gives them

    def settings(self) -> dict:
        return self._settings


def rules_of_settings(settings: Mapping[str, Any]) -> Rules:
    """The scheduling rules (``drill.core.settings.rules_of``) the settings ``settings`` give."""
    from drill.core.settings import rules_of

    return rules_of(cast("Profile", _SettingsView(settings)))  # rules_of reads .settings() alone


def context_of_settings(settings: Mapping[str, Any]) -> merging.Context:
    """What the merge's replay reads under the settings ``settings``, as ``drill.core.recording.book_of`` reads it
    from a profile: the scheduling rules, the bank, and the templates retired (the scaffolds passed, given the
    states and latest qualities then; the suspended ones)."""
    from drill.core.leeches import suspended
    from drill.core.sessions import catalog
    from engine.schedule.chains import retired_scaffolds
    from question_bank.drills import SCAFFOLDS

    off = suspended(cast("Profile", _SettingsView(settings)))  # suspended reads .settings() alone

    def retired(states: Mapping[str, ItemState], recent: Mapping[str, Sequence[int]]) -> frozenset[str]:
        return retired_scaffolds(SCAFFOLDS, states, recent) | off

    return merging.Context(rules_of_settings(settings), catalog(), retired)


def checked_other(doc: Any) -> tuple[str, dict]:
    """An export document of another replica, checked whole (``InvalidDocument`` names the first problem):
    its replica id and the document."""
    from engine.storage import InvalidDocument
    from engine.storage.validation import checked_rows, members_of

    rest: dict = {}
    for _ in checked_rows(members_of(doc), None, rest):
        pass
    if "replica" not in doc:  # an export from before replica ids: its rows named as every copy of them names them
        first = next((r for r in doc["reviews"] if r.get("origin") is None), None)
        return legacy_replica(first, None if first is not None else doc), doc
    replica = doc["replica"]
    if not isinstance(replica, str) or REPLICA_ID.fullmatch(replica) is None:
        raise InvalidDocument("an export's replica must be a replica id (letters, digits, - and _), not "
                              f"{replica!r:.80}")
    return replica, doc


def merge_documents(profile: Profile, others: list[tuple[str, dict]]) -> merging.Report:
    """Merge ``others`` (checked: :func:`checked_other`) into ``profile`` (a writer's); the profile is rewritten
    only when the merge changed something."""
    replica = profile.replica
    if replica is None:  # (a profile is given its manifest when first opened by a writer)
        raise ValueError("the profile has no replica id yet")
    merged, report = merging.merge(profile.export(), replica, others, context_of_settings)
    if report.changed:
        profile.import_document(merged)
    return report


class Synced(NamedTuple):
    """What ``drill sync`` did: the merge's report, the files merged, the files refused (name, why), and this
    replica's own file written."""

    report: merging.Report
    merged: tuple[str, ...]
    refused: tuple[tuple[str, str], ...]
    written: Path


def own_file(profile: Profile, folder: Path) -> Path:
    return folder / f"{profile.replica}.json"


def sync_folder(profile: Profile, folder: Path) -> Synced:
    """Merge every other replica's file of ``folder`` (``*.json``) into ``profile``, then write this replica's
    own file there (its export with its replica id, atomically).  A file that is not a valid export (half
    copied by the sharing tool, say) is left out and named; the rest are merged."""
    from engine.storage import InvalidDocument
    from engine.storage.durable import atomic_write

    mine = own_file(profile, folder)
    others, merged, refused = [], [], []
    for path in sorted(folder.glob("*.json")):
        if path.name == mine.name:
            continue
        try:
            others.append(checked_other(json.loads(path.read_bytes())))
            merged.append(path.name)
        except (OSError, ValueError, RecursionError) as e:  # (InvalidDocument and JSON errors are ValueErrors)
            refused.append((path.name, str(e) if isinstance(e, InvalidDocument) else type(e).__name__ + f": {e}"))
    report = merge_documents(profile, others)
    text = "".join(profile.export_chunks()).encode()
    try:
        same = mine.read_bytes() == text
    except OSError:
        same = False
    if not same:  # (an unchanged file is left alone: the sharing tool has nothing to send)
        atomic_write(mine, text, backup=False)
    return Synced(report, tuple(merged), tuple(refused), mine)
