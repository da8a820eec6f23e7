"""The Windows and macOS branches' own logic, run here on Linux apart from their system
calls: the journal lock (msvcrt's byte-range lock), the full sync (macOS's
F_FULLFSYNC), private directories' modes, stop signals without loop support, and the
terminal's Unicode guess.  CI also type-checks the package as win32 and darwin."""

from __future__ import annotations

import asyncio
import errno
import os
import signal
import stat
import sys
from pathlib import Path

import pytest

from sorry_lan.net.filelock import _WINDOWS_LOCK_OFFSET, FileLocked, lock_windows, private_dir
from sorry_lan.net.journal import full_sync
from sorry_lan.net.stopsignals import on_stop_signals, stop_signals
from sorry_lan.tui.style import unicode_terminal

# -- the journal lock on Windows -------------------------------------------------------


def test_windows_lock_takes_one_byte_far_out_and_keeps_the_files_position(
    tmp_path: Path,
) -> None:
    path = tmp_path / "j"
    path.write_bytes(b"x" * 100)
    calls: list[tuple[int, int, int, int]] = []

    def locking(fd: int, mode: int, nbytes: int) -> None:
        calls.append((fd, mode, nbytes, os.lseek(fd, 0, os.SEEK_CUR)))

    fd = os.open(path, os.O_RDWR)
    try:
        os.lseek(fd, 37, os.SEEK_SET)
        lock_windows(fd, locking, 2)
        assert calls == [(fd, 2, 1, _WINDOWS_LOCK_OFFSET)]  # the byte past any journal
        assert os.lseek(fd, 0, os.SEEK_CUR) == 37  # reading and appending go on as before
    finally:
        os.close(fd)


def test_windows_lock_held_elsewhere_is_file_locked_and_the_position_kept(
    tmp_path: Path,
) -> None:
    path = tmp_path / "j"
    path.write_bytes(b"abc")

    def locking(fd: int, mode: int, nbytes: int) -> None:
        raise PermissionError(errno.EACCES, "Permission denied")  # what msvcrt raises

    fd = os.open(path, os.O_RDWR)
    try:
        os.lseek(fd, 2, os.SEEK_SET)
        with pytest.raises(FileLocked, match="locked by another program"):
            lock_windows(fd, locking, 2)
        assert os.lseek(fd, 0, os.SEEK_CUR) == 2
    finally:
        os.close(fd)


# -- the full sync on macOS ------------------------------------------------------------


def test_macos_full_sync_uses_fullfsync_and_falls_back_to_fsync() -> None:
    done: list[tuple[str, int]] = []

    def control(fd: int, op: int) -> int:
        done.append(("fcntl", op))
        return 0

    def fsync(fd: int) -> None:
        done.append(("fsync", fd))

    full_sync(7, control, 51, fsync)
    assert done == [("fcntl", 51)]  # F_FULLFSYNC alone: it reaches the disk
    done.clear()
    full_sync(7, control, None, fsync)  # a Python without the constant
    assert done == [("fsync", 7)]
    done.clear()

    def refusing(fd: int, op: int) -> int:
        done.append(("fcntl", op))
        raise OSError(errno.ENOTSUP, "not supported")  # a volume without it

    full_sync(7, refusing, 51, fsync)
    assert done == [("fcntl", 51), ("fsync", 7)]


# -- private directories ---------------------------------------------------------------


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX modes")
def test_private_dir_sets_0700_on_posix_and_leaves_the_mode_to_windows(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        private_dir(tmp_path / "a" / "b")
        assert stat.S_IMODE((tmp_path / "a" / "b").stat().st_mode) == 0o700
        os.umask(0o000)  # a umask that takes nothing away
        private_dir(tmp_path / "c", posix=False)
        # off POSIX no chmod: what mkdir(0o700) and the umask made stays
        assert stat.S_IMODE((tmp_path / "c").stat().st_mode) == 0o700
        os.umask(0o077)
        private_dir(tmp_path / "d", posix=False)
        assert (tmp_path / "d").is_dir()
    finally:
        os.umask(old)


# -- stop signals ----------------------------------------------------------------------


def test_stop_signals_per_system() -> None:
    hup = getattr(signal, "SIGHUP", None)  # a closed terminal (not on Windows)
    posix = (signal.SIGINT, signal.SIGTERM) + (() if hup is None else (hup,))
    assert stop_signals("linux") == posix and stop_signals("darwin") == posix
    assert set(stop_signals("win32")) >= {signal.SIGINT, signal.SIGTERM}
    assert hup is None or hup not in stop_signals("win32")


@pytest.mark.skipif(sys.platform == "win32", reason="signals sent to oneself")
@pytest.mark.parametrize("platform", ["linux", "win32"])
def test_a_stop_signal_stops_the_table_on_the_loop_and_the_undo_puts_back(
    platform: str,
) -> None:
    before = signal.getsignal(signal.SIGTERM)

    async def scenario() -> list[str]:
        loop = asyncio.get_running_loop()
        stopped: list[str] = []
        restore = on_stop_signals(loop, lambda: stopped.append("stop"), platform=platform)
        if platform == "win32":  # Windows' way: a plain handler, not the loop's
            assert signal.getsignal(signal.SIGTERM) not in (before, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)
        for _ in range(50):
            if stopped:
                break
            await asyncio.sleep(0.01)
        restore()
        restore()  # twice is harmless
        return stopped

    assert asyncio.run(scenario()) == ["stop"]
    assert signal.getsignal(signal.SIGTERM) == before


# -- the terminal ----------------------------------------------------------------------


def test_unicode_terminal_per_system() -> None:
    assert unicode_terminal({}, "win32")  # Windows terminals take Unicode, locale or not
    assert unicode_terminal({}, "darwin")  # macOS: UTF-8 unless told otherwise
    assert not unicode_terminal({}, "linux")  # no locale on Linux: the C locale
    assert not unicode_terminal({"LANG": "en_US.ISO-8859-1"}, "darwin")
    assert unicode_terminal({"LC_ALL": "el_GR.UTF-8"}, "linux")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX modes")
def test_write_private_replaces_whole_files_for_the_owner_only(tmp_path: Path) -> None:
    from sorry_lan.net.filelock import write_private

    target = tmp_path / "seat.json"
    target.write_text("old")
    write_private(target, b'{"new": true}')
    assert target.read_bytes() == b'{"new": true}'
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["seat.json"]  # no temporary left
    (tmp_path / "dir").mkdir()
    with pytest.raises(OSError):
        write_private(tmp_path / "dir", b"x")  # a directory cannot be replaced by a file
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dir", "seat.json"]
