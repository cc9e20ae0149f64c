"""The profile lock: one process at a time uses a profile (``ROOT/NAME.lock``, holding the holder's pid).

Portable by a small branch rather than a library: on Linux and macOS an
exclusive ``flock`` on the file (released when the descriptor closes, so also
when the process dies); on Windows ``msvcrt.locking`` of one byte far past the
pid - Windows locks are mandatory, so the pid itself stays unlocked and
readable by the process that is refused.  ``filelock`` (4.3.1) gives the same
exclusion but no supported way to write and read the holder's pid through its
descriptor, which :class:`ProfileLocked` names; for two calls per platform it
is not worth a dependency.  Linux is what the test suite runs on; the Windows
branch is exercised only through a stand-in ``msvcrt`` (tests/unit/test_storage_faults.py).
"""

from __future__ import annotations

import errno
import os
import time
from pathlib import Path

from ..messages import Twin
from .errors import LockUnusable, ProfileLocked, save_failed


class _Flock:
    """Linux, macOS and other POSIX systems."""

    busy = (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES)

    def lock(self, fd: int) -> None:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)

    def unlock(self, fd: int) -> None:
        pass  # closing the descriptor releases the flock


class _Msvcrt:
    """Windows: a mandatory lock on one byte at :attr:`AT`, beyond the pid (which others must read)."""

    AT = 1 << 30  # Windows lets a lock lie past the end of the file
    busy = (errno.EACCES, errno.EDEADLK)

    def __init__(self, msvcrt) -> None:
        self.msvcrt = msvcrt

    def lock(self, fd: int) -> None:
        os.lseek(fd, self.AT, os.SEEK_SET)
        self.msvcrt.locking(fd, self.msvcrt.LK_NBLCK, 1)

    def unlock(self, fd: int) -> None:
        os.lseek(fd, self.AT, os.SEEK_SET)
        self.msvcrt.locking(fd, self.msvcrt.LK_UNLCK, 1)


def platform_locker() -> _Flock | _Msvcrt:
    if os.name == "nt":  # pragma: no cover - the suite runs on Linux
        import msvcrt

        return _Msvcrt(msvcrt)
    return _Flock()


LOCKER = platform_locker()
PID_WIDTH = 20  # characters written for the pid, padded with spaces


def _what_is(path: Path) -> Twin | None:
    """What stands at ``path`` when it is not a regular file (None: a file, or nothing yet)."""
    if path.is_symlink() and not path.exists():
        target = os.readlink(path)
        return Twin(f"a symbolic link to {target}, which does not exist", f"指向不存在的 {target} 的符号链接")
    if path.is_dir():
        return Twin("a folder", "文件夹")
    if path.exists() and not path.is_file():
        return Twin("not a regular file", "非普通文件")
    return None


class ProfileLock:
    """The held lock of one profile (``ROOT/NAME.lock``), released by :meth:`release`."""

    def __init__(self, path: Path, fd: int, locker: _Flock | _Msvcrt):
        self.path, self.fd, self.locker = path, fd, locker

    @classmethod
    def acquire(cls, path: Path, profile: str, wait: float) -> ProfileLock:
        if (what := _what_is(path)) is not None:
            raise LockUnusable(path, profile, what)
        locker = LOCKER
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_BINARY", 0), 0o644)
        except OSError as e:  # no permission, a read-only file system, a full disk: the lock file named
            raise save_failed(e, path) from e
        deadline = time.monotonic() + max(0.0, wait)
        while True:
            try:
                locker.lock(fd)
                break
            except OSError as e:
                if e.errno not in locker.busy:
                    os.close(fd)
                    raise
                if time.monotonic() >= deadline:
                    pid = cls._holder(fd)
                    os.close(fd)
                    raise ProfileLocked(profile, pid, wait) from None
                time.sleep(0.05)
        # the pid in a fixed width (no truncation, which Windows may refuse past a locked byte)
        try:
            os.lseek(fd, 0, os.SEEK_SET)
            os.write(fd, f"{os.getpid():<{PID_WIDTH}}\n".encode())
        except OSError as e:  # a full disk: the lock is not kept (nor its descriptor), the lock file named
            cls(path, fd, locker).release()
            raise save_failed(e, path) from e
        return cls(path, fd, locker)

    @staticmethod
    def _holder(fd: int) -> int | None:
        for _ in range(10):  # the holder writes its pid just after locking
            os.lseek(fd, 0, os.SEEK_SET)
            text = os.read(fd, 32).decode("ascii", "replace").strip()
            if text.isdigit():
                return int(text)
            time.sleep(0.01)
        return None

    def release(self) -> None:
        if self.fd >= 0:
            try:
                self.locker.unlock(self.fd)
            except OSError:  # pragma: no cover - closing releases it anyway
                pass
            os.close(self.fd)
            self.fd = -1


class ReaderHandle(ProfileLock):
    """What a reader holds instead of the lock: nothing (readers never wait for the writer, nor block it);
    it only says whether the profile is still open."""

    def __init__(self, path: Path):
        super().__init__(path, 0, LOCKER)

    def release(self) -> None:
        self.fd = -1
