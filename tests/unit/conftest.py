"""What the unit tests share: no fsync (every test), no wait between the retried reads of a damaged file."""

import os

import pytest


@pytest.fixture(autouse=True)
def no_fsync(monkeypatch):
    """An fsync is only wall time here: the crash sweeps (test_storage_atomic, test_storage_faults, test_sync_folder)
    make the process die at a write or a call fail, which loses nothing the kernel holds, and no test simulates a
    power cut, the one thing an fsync guards against; none checks that one is made.  The unit tests made ~35,000,
    some 20 s of a run's waiting on a loaded disk."""
    monkeypatch.setattr(os, "fsync", lambda fd: None)


@pytest.fixture
def no_read_wait(monkeypatch):
    """A reader that finds a damaged file reads again after a wait (engine.storage.profile.READ_RETRY_WAIT), in
    case a writer was replacing it: in a test where no writer runs beside the reads, the retries read the same
    bytes, and the waits (0.1 s a damaged read) are only wall time.  The retries themselves still run."""
    from engine.storage import profile

    monkeypatch.setattr(profile, "READ_RETRY_WAIT", 0.0)
