"""The host's append-only journal file: enough to rebuild a table exactly after a crash.

A journal is a text file of lines, one record each, in JSON with a chained checksum
(the line format, and :func:`~sorry_lan.authority.journal_format.scan`, which names
the first damaged line, are in :mod:`sorry_lan.authority.journal_format`).  This
module opens, locks, appends to, syncs, repairs and rolls back the file itself.

The records:

* ``{"k": "game", "variant", "seated", "seed", "first", "first_arg", "names", "bots",
  "tokens", "owner", "sid0"}``
  starts a game (``tokens`` maps a colour to the SHA-256 of that seat's secret token,
  hex; the tokens themselves are never written, yet a seat's owner can still prove
  it holds one; ``sid0`` is the state id the game starts from, since a table's state
  ids grow across its games, 0 when missing);
* ``{"k": "seat", "colour", "name", "token"}`` records a seat (re)bound to a new token
  during a game (a bot seat given to a late human, for instance);
* ``{"k": "move", "sid", "m"}`` is one chosen move: the state id it answered and its
  compact form;
* ``{"k": "chat", "colour", "text"}`` is a chat line said at the table;
* ``{"k": "end"}`` marks the table closed on purpose (nothing to resume);
* ``{"k": "takeover", "tid", "from_epoch", "epoch", "sid", "seed", ...}`` begins a
  successor's journal (issue 19) in place of a ``game`` record: the game's position
  when it took the table over (``variant``, ``seated``, ``pawns``, ``turn``, ``card``,
  ``after_two``, ``discarded`` by card value, the ``hands`` it knew, ``moves``,
  ``first``, ``sid0``), the ``seed`` its unseen cards were shuffled from, and the seats
  as a ``game`` record has them plus ``pids`` (each seat's pid), ``games``,
  ``seat`` (the pid whose laptop hosts it; ``host --resume`` hosts it again so) and
  ``port`` (its standby's port, where it hosts: ``host --resume`` listens there
  again unless given ``--port``);
* ``{"k": "reveal", "colour", "hand"}``: after a takeover, a player revealed the hand
  the old host had committed it to, and holds it again;
* ``{"k": "moved", "epoch", "pid", "name"}``: the table moved to another host (a
  handover, or a step down); the journal is not resumed;
* ``{"k": "laptop", "pid", "addrs", "port"}``: seat ``pid``'s laptop offered to host
  next there (journalled once a game is under way, as it changes): a resumed host
  probes it there to learn whether the table moved on without it.

The ``game`` record may also carry ``table`` (the table's name), ``host`` (the name
of the person who hosted it) and ``t`` (when it started, Unix seconds).

The engine is deterministic from its seed and the moves chosen, so :func:`load`
plus :func:`~sorry_lan.authority.restore.replay` restore the same deck order, the
same turn and the same hands.  Each append goes to the operating system at once; by
default it is also synced to stable storage before :meth:`Journal.append` returns.
The host instead turns that off and syncs once per round of input, before it sends
what depends on the round's records (``outbox``), so the records of one round share
one sync.  A crash can leave a half-written last line; :func:`load` drops it
(nothing was sent to any player for a record that was not complete on disk, because
the host writes before it sends).

A :class:`Journal` holds an operating-system lock on its file for as long as it is
open (:mod:`sorry_lan.net.filelock`), with a note of its process beside it
(:mod:`sorry_lan.net.holder`), refuses a file another user owns, and creates
its directory private (0700).  A failed or short write is never counted as written:
a syncing journal raises it, a deferred one keeps it (:attr:`Journal.failure`) and
raises it at the next :meth:`Journal.flush_to_disk`, and :meth:`Journal.rollback`
cuts the file back to what was last made durable.

This module does not decide *where* the journal lives beyond :func:`default_dir`,
which saved game to resume (:mod:`sorry_lan.net.saved` does), nor what the records
mean, and it does not talk to players or hold messages back (the host does that).
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from sorry_lan.authority import journal_records as records
from sorry_lan.authority.journal_format import JournalError as JournalError  # theirs too
from sorry_lan.authority.journal_format import carry_on, encode, frame, scan
from sorry_lan.codes import JournalFailure

from .datadir import DATA_DIR_ENV as DATA_DIR_ENV
from .filelock import FileLocked, lock_file, private_dir
from .holder import drop_holder, note_holder

SUFFIX = ".journal"


def default_dir() -> Path:
    """``$SORRY_LAN_DATA_DIR/journals`` if set, else the user's data dir for sorry-lan."""
    base = os.environ.get(DATA_DIR_ENV)
    if not base:
        import platformdirs

        base = platformdirs.user_data_dir("sorry-lan")
    return Path(base) / "journals"


def _datasync(fd: int) -> None:
    """Put a file's data (and the size needed to read it back) on stable storage.

    ``fdatasync`` where the system has it (Linux and most Unixes), the full-flush
    ``fcntl`` on macOS (whose ``fsync`` stops at the drive's cache), else ``fsync``
    (Windows maps it to ``_commit``)."""
    if sys.platform == "darwin":
        import fcntl

        full_sync(fd, fcntl.fcntl, getattr(fcntl, "F_FULLFSYNC", None), os.fsync)
    else:
        getattr(os, "fdatasync", os.fsync)(fd)


def full_sync(
    fd: int, control: Callable[[int, int], object], full: int | None,
    fsync: Callable[[int], None],
) -> None:
    """macOS's half of :func:`_datasync`, apart from the system calls so that any
    system can test it: ``control(fd, full)`` (``fcntl`` with ``F_FULLFSYNC``, which
    reaches the disk itself), and ``fsync(fd)`` instead where ``full`` is missing or
    the file system refuses it (an ``OSError``: some network and FAT volumes)."""
    if full is not None:
        try:
            control(fd, full)
            return
        except OSError:
            pass  # a file system without it: plain fsync below
    fsync(fd)


def _sync_directory(directory: Path) -> None:
    """Make a new file's name durable (POSIX); a no-op where directories cannot be opened."""
    if os.name != "posix":
        return
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems refuse to sync a directory; the data syncs still hold
    finally:
        os.close(fd)


class JournalLocked(JournalError):
    """Another process (a running host) has the journal open."""


class Journal(records.RecordWriter):
    """An open journal file, appended to one record at a time.

    With ``sync`` (the default) each append is on stable storage when it returns, and
    a failed write or sync raises :class:`OSError`.  With ``sync`` off, appends only
    reach the operating system (a killed process loses nothing, a power cut may);
    :meth:`flush_to_disk` makes them durable, and a write that failed is kept in
    :attr:`failure` (nothing more is written) and raised by the next
    :meth:`flush_to_disk`.  :attr:`appended` counts the records handed to it and
    :attr:`synced` how many of them are known to be durable (whoever calls
    :meth:`flush_to_disk` advances it).

    Opening takes the file's lock (:class:`JournalLocked` if a running host holds
    it) and refuses a file owned by another user or reached through a symbolic link.
    """

    def __init__(self, path: Path, *, sync: bool = True) -> None:
        try:
            private_dir(path.parent)
        except OSError as exc:
            raise JournalError(
                JournalFailure.NO_DIR, path=path.parent, why=_why(exc), env=DATA_DIR_ENV
            ) from None
        self.path = path
        self.sync = sync
        self.appended = 0
        self.synced = 0
        self.syncs = 0  # how many syncs were made (statistics)
        self.failure: OSError | None = None  # the write that failed (nothing written since)
        existed = path.exists()
        flags = os.O_RDWR | os.O_CREAT | os.O_APPEND | getattr(os, "O_BINARY", 0)
        flags |= getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        try:
            fd = os.open(path, flags, 0o600)
        except OSError as exc:
            raise JournalError(
                JournalFailure.CANNOT_WRITE, path=path, why=_why(exc), env=DATA_DIR_ENV
            ) from None
        try:
            check_owner(fd, path)
            try:
                lock_file(fd)
            except FileLocked:
                raise JournalLocked(JournalFailure.LOCKED, name=path.name) from None
            self._chain, self.size = _repair_tail(fd)
        except BaseException:
            os.close(fd)
            raise
        self._file: Any = os.fdopen(fd, "ab", buffering=0)
        self.durable_size = self.size  # bytes known to be on stable storage
        self._mark = (0, self.size)  # (appended, size) as of the last whole record
        if not existed:
            _sync_directory(path.parent)
        note_holder(path)  # who holds it, for a second host that asks

    def append(self, record: Mapping[str, Any]) -> None:
        self._write(encode(record))

    def _write(self, body: bytes) -> None:
        """Write one record's line (``body`` is its JSON), checksummed and whole, or
        note the failure; a record is counted whether or not it could be written, so
        that whoever waits for it learns of the failure."""
        self.appended += 1
        if self.failure is None:
            line, chain = frame(body, self._chain)
            try:
                _write_all(self._file, line)
            except OSError as exc:
                self.failure = exc
                with contextlib.suppress(OSError, ValueError):  # no half line left behind
                    os.ftruncate(self._file.fileno(), self.size)
            else:
                self._chain = chain
                self.size += len(line)
                self._mark = (self.appended, self.size)
        if self.sync:
            self.synced = self.flush_to_disk()

    @property
    def closed(self) -> bool:
        return bool(self._file.closed)

    def wall(self) -> float:
        """A ``game`` record's start time: now."""
        return time.time()

    def flush_to_disk(self) -> int:
        """Put every record appended so far on stable storage; returns how many that
        is (:attr:`appended` as it was before the sync); raises :class:`OSError` if a
        write failed, the system cannot sync, or the journal is closed."""
        if self.failure is not None:
            raise self.failure
        done, size = self._mark  # written to the OS before this was counted
        try:
            fd = self._file.fileno()
        except ValueError:
            raise OSError(f"journal {self.path.name} is closed") from None
        _datasync(fd)
        self.syncs += 1
        self.durable_size = max(self.durable_size, size)
        return done

    def rollback(self) -> bool:
        """After a failure: cut the file back to what was last made durable (what
        players were shown), so that resuming it shows them nothing they did not
        see.  True if that worked (and nothing more is written from now on)."""
        if self.failure is None:
            self.failure = OSError("the journal was rolled back")
        try:
            fd = self._file.fileno()
            os.ftruncate(fd, self.durable_size)
            _datasync(fd)
        except (OSError, ValueError):
            return False
        self.size = self.durable_size
        return True

    def end(self) -> None:
        self.append(records.end_record())

    def close(self) -> None:
        if not self._file.closed:
            drop_holder(self.path)
        self._file.close()


def _why(exc: OSError) -> str:
    """An OSError in a few words (``Read-only file system``, ``Permission denied``)."""
    return exc.strerror or str(exc)


def _write_all(file: Any, data: bytes) -> None:
    """Write all of ``data`` (a short write continues where it stopped); a write that
    makes no progress is the disk refusing more (ENOSPC)."""
    view = memoryview(data)
    while view:
        n = file.write(view)
        if not n:
            raise OSError(errno.ENOSPC, "the journal write made no progress (disk full?)")
        view = view[n:]


def check_owner(fd: int, path: Path) -> None:
    """Refuse a journal that another user owns (it could have been planted)."""
    getuid = getattr(os, "getuid", None)
    if getuid is None:  # Windows: the data dir's ACLs keep others out
        return
    owner = os.fstat(fd).st_uid
    if owner != getuid():
        raise JournalError(JournalFailure.NOT_YOURS, path=path, uid=owner)


def _repair_tail(fd: int) -> tuple[int | None, int]:
    """After a crash the file may end in a half line: cut it so new lines stay whole.

    Returns the checksum chain's value after the last whole line (None: a journal
    written before checksums, which goes on without them) and the file's size."""
    size = os.fstat(fd).st_size
    with open(fd, "rb", closefd=False) as f:  # the start of a line and the last lines
        f.seek(0)
        first = f.readline()
        f.seek(max(0, size - 65536))
        cut, chain = carry_on(first, f.read(), size)
    if cut != size:
        os.truncate(fd, cut)
        _datasync(fd)
    return chain, cut


class JournalDamaged(JournalError):
    """A journal with a line that is not what was written: which line, what is wrong,
    and the records before it (all intact, in :attr:`records`, ending at byte
    :attr:`valid_bytes` of the file)."""

    def __init__(
        self, path: Path, line: int, problem: str, records: list[dict[str, Any]], valid: int
    ) -> None:
        super().__init__(JournalFailure.DAMAGED, path=path, line=line, problem=problem)
        self.path = path
        self.line = line
        self.problem = problem
        self.records = records
        self.valid_bytes = valid


def load(path: Path) -> list[dict[str, Any]]:
    """The complete records of a journal, in order (a torn last line is dropped).

    Raises :class:`JournalDamaged` (naming the line) if any line is not what was
    written, and :class:`JournalError` if the file cannot be read."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise JournalError(JournalFailure.CANNOT_READ, path=path, why=_why(exc)) from None
    found = scan(data)
    if found.damage is not None:
        line, problem = found.damage
        raise JournalDamaged(path, line, problem, found.records, found.valid_bytes)
    return found.records
