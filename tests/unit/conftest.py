"""What every unit test shares: no fsync."""

import os

import pytest


@pytest.fixture(autouse=True)
def no_fsync(monkeypatch):
    """An fsync is only wall time here: the crash sweeps (test_storage_atomic, test_storage_faults, test_sync_folder)
    make the process die at a write or a call fail, which loses nothing the kernel holds, and no test simulates a
    power cut, the one thing an fsync guards against; none checks that one is made.  The unit tests made ~35,000,
    some 20 s of a run's waiting on a loaded disk."""
    monkeypatch.setattr(os, "fsync", lambda fd: None)
