"""Save files: a learner's profile on disk, durable, exclusive and fast as it grows.

A profile ``NAME`` under the saves folder ``ROOT`` is::

    ROOT/NAME.lock                 flock()ed while a process uses the profile; holds its pid
    ROOT/NAME/state.json           schema version, per-item SM-2 state, settings, next review id
    ROOT/NAME/mocks.json           mock-interview results
    ROOT/NAME/reviews/000001.json  the review log, SEGMENT_ROWS rows per file, oldest first
    ROOT/NAME/manifest.json        the list of the profile's parts (engine.storage.manifest)
    ROOT/NAME/manifest.newest.json its newest log file's entry, written at every answer (the same)
    ROOT/NAME/*.json.bak           the previous good version of each file

Every file is a TinyDB database written by :class:`DurableStorage`: the new
contents go to a temporary file in the same folder, which is fsynced and then
``os.replace``d over the old one (the folder is fsynced too), so a crash at
any moment leaves either the old or the new file, never a truncated one.

TinyDB rewrites a whole file per write, so the log is split into segments and
recording an answer rewrites only the newest segment: its cost does not grow
with the history.  The row is durable when :meth:`Profile.record` returns.
The state file is the log's summary: each scheduled row carries the item's
state before and after, so the state file is rewritten only every
:data:`STATE_EVERY` rows (and on close, undo and settings), and opening the
profile replays the rows it has not seen yet - after a crash too.  It also
counts the rows of each day (:meth:`Profile.study_days`, Home's streak) and
keeps each item's latest answers (:meth:`Profile.recent`: Browse's last
result, a weighted mock's weakness figures), so nothing but the statistics
reads the whole log.

The statistics read the log through digests (``engine.digest.Digest``: the few
columns the figures need).  A segment that is full never changes again, so its
digest is kept beside it (``reviews/000001.digest``, a cache that needs no
backup or fsync) and trusted only while it matches the segment file's size,
modification time and inode and its own checksum; otherwise it is rebuilt
from the segment.

The package's rooms, each holding one concern:

- :mod:`.layout`: file names, versions and sizes;
- :mod:`.errors`: what can go wrong (:class:`DamagedSave`, :class:`ProfileLocked`...);
- :mod:`.durable`: atomic writes with a backup, reading a table file;
- :mod:`.lock`: the profile lock;
- :mod:`.validation`: checks of states, settings, mocks and export documents (a review row's are
  :mod:`engine.review`'s, beside its type);
- :mod:`.segments`: the log's segment files and their digests;
- :mod:`.recent`: each item's latest answers;
- :mod:`.mockfile`: the mocks file and its journal;
- :mod:`.manifest`: the list of the profile's parts, checked at every open and by the doctor;
- :mod:`.jsonstream`: a JSON object read a member (and a list element) at a time;
- :mod:`.transfer`: import (checked and written as it is read) and export (written piece by piece);
- :mod:`.opening`: reading a profile's files at open and bringing the state level with the log;
- :mod:`.recording`: recording rows, rewriting in a batch, undo, settings and mocks;
- :mod:`.reading`: states, settings, mocks, review rows, day counts, latest answers and digests;
- :mod:`.profile`: :class:`Profile`, which ties them together (open, close, export and import).

Tests that want small segments set ``layout.SEGMENT_ROWS`` (and ``layout.STATE_EVERY``): they are read there.
"""

from .durable import DurableStorage, atomic_write, check_meta, read_tables
from .errors import (
                     BadProfileName,
                     DamagedSave,
                     InvalidDocument,
                     JournalDamaged,
                     LockUnusable,
                     NewerSave,
                     ProfileLocked,
                     ReadFailed,
                     SaveFailed,
                     SavesUnusable,
                     UnreadableSave,
                     save_failed,
)
from .layout import (
                     DEFAULT_SETTINGS,
                     DIGEST_VERSION,
                     EXPORT_FORMAT,
                     RECENT_QUALITIES,
                     ROW_FIELDS,
                     SCHEMA_VERSION,
                     backup_path,
                     digest_path,
)
from .lock import ProfileLock
from .profile import Profile
from .recent import ItemRecent, recent_of
from .segments import file_identity, read_digest, segment_rows, write_digest
from .validation import FutureDated, document_problem, mock_problem, row_problem, setting_problem, state_problem

__all__ = [
    "DEFAULT_SETTINGS", "DIGEST_VERSION", "EXPORT_FORMAT", "RECENT_QUALITIES", "ROW_FIELDS", "SCHEMA_VERSION",
    "BadProfileName", "DamagedSave", "DurableStorage", "FutureDated", "JournalDamaged", "ReadFailed", "InvalidDocument",
    "ItemRecent", "LockUnusable", "NewerSave", "Profile", "ProfileLock", "ProfileLocked", "SaveFailed",
    "SavesUnusable", "UnreadableSave", "save_failed", "atomic_write", "backup_path", "check_meta", "digest_path",
    "document_problem",
    "file_identity", "mock_problem", "read_digest", "read_tables", "recent_of", "row_problem", "segment_rows",
    "setting_problem", "state_problem", "write_digest",
]
