"""The profile lock: one process at a time uses a profile (``ROOT/NAME.lock``, holding the holder's pid)."""

from __future__ import annotations

import errno
import os
import time
from pathlib import Path

from .errors import ProfileLocked


class ProfileLock:
    """The held lock of one profile: an exclusive ``flock`` on ``ROOT/NAME.lock``, released by :meth:`release`."""

    def __init__(self, path: Path, fd: int):
        self.path, self.fd = path, fd

    @classmethod
    def acquire(cls, path: Path, profile: str, wait: float) -> "ProfileLock":
        import fcntl

        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        deadline = time.monotonic() + max(0.0, wait)
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError as e:
                if e.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                    os.close(fd)
                    raise
                if time.monotonic() >= deadline:
                    pid = cls._holder(fd)
                    os.close(fd)
                    raise ProfileLocked(profile, pid, wait) from None
                time.sleep(0.05)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        return cls(path, fd)

    @staticmethod
    def _holder(fd: int) -> int | None:
        for _ in range(10):  # the holder writes its pid just after locking
            text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
            if text.isdigit():
                return int(text)
            time.sleep(0.01)
        return None

    def release(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)  # closing the descriptor releases the flock
            self.fd = -1
