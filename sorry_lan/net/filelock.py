"""Private directories and exclusive locks on open files, on POSIX and on Windows.

:func:`lock_file` takes an operating-system lock that lasts while the file stays open
and ends with the process however it ends (a crash or SIGKILL frees it): ``flock`` on
POSIX (held by the open file, so reading the same file through another descriptor in
the same process does not drop it, as a ``fcntl`` record lock would), and a
``msvcrt`` byte-range lock on Windows, on one byte far past any journal's end so that
reading the file's contents is never blocked.  :func:`is_locked` asks whether some
other open file holds that lock.  :func:`private_dir` creates a directory that only
its owner may enter.  :func:`write_private` writes a small file whole or not at all,
readable by its owner only.

It does not decide which files to lock, and it does not wait for a lock: a lock held
elsewhere is refused at once (:class:`FileLocked`).
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from sorry_lan.errors import SorryLanError

# Windows: the byte that stands for "the whole file" (2 GiB in: no journal gets there).
_WINDOWS_LOCK_OFFSET = 2**31 - 2


class FileLocked(SorryLanError, OSError):
    """Another open file (another process, usually) holds the lock."""


#: ``locking(fd, mode, nbytes)``: msvcrt's byte-range lock call (a fake in tests).
Locking = Callable[[int, int, int], None]


def lock_file(fd: int) -> None:
    """Lock the open file ``fd`` for this process, or raise :class:`FileLocked`."""
    if sys.platform == "win32":
        import msvcrt

        lock_windows(fd, msvcrt.locking, msvcrt.LK_NBLCK)
    else:
        import fcntl

        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as exc:
            raise FileLocked(exc.errno, "the file is locked by another program") from None


def lock_windows(fd: int, locking: Locking, mode: int) -> None:
    """Windows' half of :func:`lock_file`, apart from the system call so that any
    system can test it: lock one byte at :data:`_WINDOWS_LOCK_OFFSET` with
    ``locking(fd, mode, 1)`` (a non-blocking lock), leave the file's position where it
    was whatever happens, and turn the call's ``OSError`` into :class:`FileLocked`."""
    here = os.lseek(fd, 0, os.SEEK_CUR)
    os.lseek(fd, _WINDOWS_LOCK_OFFSET, os.SEEK_SET)
    try:
        locking(fd, mode, 1)
    except OSError as exc:
        raise FileLocked(exc.errno, "the file is locked by another program") from None
    finally:
        os.lseek(fd, here, os.SEEK_SET)


def is_locked(path: Path) -> bool:
    """Whether another open file holds :func:`lock_file`'s lock on ``path`` now."""
    try:
        fd = os.open(path, os.O_RDWR | getattr(os, "O_BINARY", 0))
    except OSError:
        return False
    try:
        lock_file(fd)
    except FileLocked:
        return True
    finally:
        os.close(fd)  # closing drops our own probe lock (both systems)
    return False


def private_dir(directory: Path, *, posix: bool = os.name == "posix") -> None:
    """Create ``directory`` and any missing parents with mode 0700 (whatever the umask).

    Directories that already exist are left as they are.  Raises :class:`OSError`
    as ``os.mkdir`` does (a read-only file system, no permission).  Off POSIX
    (``posix`` false: Windows) the mode is not set again after the umask: a
    Windows user's data dir is private by its ACL, and ``chmod`` there only sets the
    read-only flag."""
    missing: list[Path] = []
    here = directory
    while not here.exists():
        missing.append(here)
        if here.parent == here:
            break
        here = here.parent
    for path in reversed(missing):
        try:
            path.mkdir(mode=0o700)
        except FileExistsError:
            continue
        if posix:
            os.chmod(path, 0o700)  # the umask can only take bits away; put back the owner's


def write_private(path: Path, data: bytes) -> None:
    """Put ``data`` in ``path`` whole or not at all, readable by its owner only: a
    temporary file (mode 0600) in the same directory, renamed over ``path``.  Raises
    :class:`OSError`; the temporary file never stays behind.  It does not sync: a
    power cut may lose the new file (never leave half of it)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
