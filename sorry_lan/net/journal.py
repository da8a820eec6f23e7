"""The host's append-only journal: enough to rebuild a table exactly after a crash.

A journal is a text file of lines.  Each line is one record in JSON, a tab and a
checksum: eight lower-case hex digits of the CRC-32 of the record's JSON, chained
(each CRC starts from the previous line's, the first from 0).  So every single-bit
flip, a changed, lost or reordered line, or lines spliced in from another journal is
detected, and :func:`scan` names the first line that is wrong; only a torn last line
(a crash in the middle of a write) is dropped silently.  A journal written before
checksums (no tab on its first line) is still read, without that protection.

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
* ``{"k": "end"}`` marks the table closed on purpose (nothing to resume).

The ``game`` record may also carry ``table`` (the table's name), ``host`` (the name
of the person who hosted it) and ``t`` (when it started, Unix seconds).

The engine is deterministic from its seed and the moves chosen, so :func:`load`
plus :func:`replay` restore the same deck order, the same turn and the same hands.
Each append goes to the operating system at once; by default it is also synced to
stable storage before :meth:`Journal.append` returns.  The host instead turns that
off and syncs once per round of input, before it sends what depends on the round's
records (``outbox``), so the records of one round share one sync.  A crash can leave
a half-written last line; :func:`load` drops it (nothing was sent to any player for a
record that was not complete on disk, because the host writes before it sends).

A :class:`Journal` holds an operating-system lock on its file for as long as it is
open (:mod:`sorry_lan.net.filelock`), refuses a file another user owns, and creates
its directory private (0700).  A failed or short write is never counted as written:
a syncing journal raises it, a deferred one keeps it (:attr:`Journal.failure`) and
raises it at the next :meth:`Journal.flush_to_disk`, and :meth:`Journal.rollback`
cuts the file back to what was last made durable.

This module does not decide *where* the journal lives beyond :func:`default_dir`,
which saved game to resume (:mod:`sorry_lan.net.saved` does), and it does not talk
to players or hold messages back (the host does that).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import sys
import time
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sorry_lan.authority.table import Restored
from sorry_lan.errors import Worded
from sorry_lan.rules import Game, Variant

from .filelock import FileLocked, lock_file, private_dir

SUFFIX = ".journal"
DATA_DIR_ENV = "SORRY_LAN_DATA_DIR"


class JournalError(Worded):
    """A journal that cannot be read back into a game (corrupt, or disagreeing with the
    rules), or written.  Reasons for people: ``no-dir`` and ``cannot-write`` (``path``,
    ``why``), ``not-yours`` (``path``, ``uid``)."""


def default_dir() -> Path:
    """``$SORRY_LAN_DATA_DIR/journals`` if set, else the user's data dir for sorry-lan."""
    base = os.environ.get(DATA_DIR_ENV)
    if not base:
        import platformdirs

        base = platformdirs.user_data_dir("sorry-lan")
    return Path(base) / "journals"


def new_path(directory: Path) -> Path:
    """A fresh journal path in ``directory``; names sort by creation time."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    return directory / f"{stamp}-{time.time_ns() % 10**9:09d}-{os.getpid()}{SUFFIX}"


def _datasync(fd: int) -> None:
    """Put a file's data (and the size needed to read it back) on stable storage.

    ``fdatasync`` where the system has it (Linux and most Unixes), the full-flush
    ``fcntl`` on macOS (whose ``fsync`` stops at the drive's cache), else ``fsync``
    (Windows maps it to ``_commit``)."""
    if sys.platform == "darwin":
        import fcntl

        full = getattr(fcntl, "F_FULLFSYNC", None)
        if full is not None:
            try:
                fcntl.fcntl(fd, full)
                return
            except OSError:
                pass  # a file system without it: plain fsync below
        os.fsync(fd)
        return
    getattr(os, "fdatasync", os.fsync)(fd)


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


class Journal:
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
                f"cannot create the journal directory {path.parent} ({_why(exc)}); "
                f"choose a writable one with --data-dir or ${DATA_DIR_ENV}",
                "no-dir", path=path.parent, why=_why(exc),
            ) from None  # fmt: skip
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
                f"cannot write the journal {path} ({_why(exc)}); "
                f"choose a writable data directory with --data-dir or ${DATA_DIR_ENV}",
                "cannot-write", path=path, why=_why(exc),
            ) from None  # fmt: skip
        try:
            check_owner(fd, path)
            try:
                lock_file(fd)
            except FileLocked:
                raise JournalLocked(
                    f"another sorry-lan host is running the game in {path.name} (it holds "
                    "the journal's lock); stop that host first, or resume another game"
                ) from None
            self._chain, self.size = _repair_tail(fd)
        except BaseException:
            os.close(fd)
            raise
        self._file: Any = os.fdopen(fd, "ab", buffering=0)
        self.durable_size = self.size  # bytes known to be on stable storage
        self._mark = (0, self.size)  # (appended, size) as of the last whole record
        if not existed:
            _sync_directory(path.parent)

    def append(self, record: Mapping[str, Any]) -> None:
        self._write(json.dumps(record, separators=(",", ":"), sort_keys=True).encode())

    def _write(self, body: bytes) -> None:
        """Write one record's line (``body`` is its JSON), checksummed and whole, or
        note the failure; a record is counted whether or not it could be written, so
        that whoever waits for it learns of the failure."""
        self.appended += 1
        if self.failure is None:
            if self._chain is None:
                line, crc = body + b"\n", None
            else:
                crc = zlib.crc32(body, self._chain)
                line = b"%s\t%08x\n" % (body, crc)
            try:
                _write_all(self._file, line)
            except OSError as exc:
                self.failure = exc
                with contextlib.suppress(OSError, ValueError):  # no half line left behind
                    os.ftruncate(self._file.fileno(), self.size)
            else:
                if crc is not None:
                    self._chain = crc
                self.size += len(line)
                self._mark = (self.appended, self.size)
        if self.sync:
            self.synced = self.flush_to_disk()

    @property
    def closed(self) -> bool:
        return bool(self._file.closed)

    def game(
        self,
        game: Game,
        names: Mapping[int, str],
        bots: Sequence[int],
        tokens: Mapping[int, str],
        owner: int | None = None,
        first_arg: int | None = None,
        table: str | None = None,
        host: str | None = None,
    ) -> None:
        """Record a game's start.  ``first_arg`` is the ``first`` the game was built
        with (None: drawn from the seed, which also advances the deck's generator);
        ``table`` and ``host`` name the table and whoever hosts it (for listings)."""
        record: dict[str, Any] = {
            "k": "game",
            "variant": game.variant.value,
            "seated": list(game.seated),
            "seed": game.seed,
            "first": game.first,
            "first_arg": first_arg,
            "names": {str(c): n for c, n in names.items()},
            "bots": sorted(bots),
            "tokens": {str(c): h for c, h in tokens.items()},
            "owner": owner,
            "sid0": game.first_sid,
            "t": int(time.time()),
        }
        if table is not None:
            record["table"] = table
        if host is not None:
            record["host"] = host
        self.append(record)

    def move(self, state_id: int, compact: Sequence[int]) -> None:
        # The JSON ``append`` would write for {"k": "move", "sid": ..., "m": [...]},
        # formatted directly (one per move: the hot path).
        items = ",".join(map(str, map(int, compact)))
        self._write(b'{"k":"move","m":[%s],"sid":%d}' % (items.encode(), int(state_id)))

    def seat(self, colour: int, name: str, token: str | None) -> None:
        self.append({"k": "seat", "colour": colour, "name": name, "token": token})

    def chat(self, colour: int, text: str) -> None:
        self.append({"k": "chat", "colour": colour, "text": text})

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
        self.append({"k": "end"})

    def close(self) -> None:
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
        raise JournalError(
            f"{path} belongs to another user (uid {owner}); sorry-lan only uses journals "
            "you own",
            "not-yours", path=path, uid=owner,
        )  # fmt: skip


def _repair_tail(fd: int) -> tuple[int | None, int]:
    """After a crash the file may end in a half line: cut it so new lines stay whole.

    Returns the checksum chain's value after the last whole line (None: a journal
    written before checksums, which goes on without them) and the file's size."""
    size = os.fstat(fd).st_size
    if size == 0:
        return 0, 0
    data = b""
    with open(fd, "rb", closefd=False) as f:  # the start of a line and the last lines
        f.seek(0)
        first = f.readline()
        f.seek(max(0, size - 65536))
        data = f.read()
    end = data.rfind(b"\n") + 1
    cut = size - (len(data) - end)
    if cut != size:
        os.truncate(fd, cut)
        _datasync(fd)
    if cut == 0:
        return 0, 0
    if _split_checksum(first.rstrip(b"\n")) is None:
        return None, cut  # an old journal without checksums
    last = data[:end].rstrip(b"\n").rsplit(b"\n", 1)[-1]
    split = _split_checksum(last)
    return (0 if split is None else split[1]), cut


def _split_checksum(line: bytes) -> tuple[bytes, int] | None:
    """A line's JSON and its checksum, if it ends in a tab and eight lower-case hex
    digits exactly (an upper-case digit is a flipped bit, not the same number)."""
    if len(line) < 10 or line[-9:-8] != b"\t":
        return None
    digits = line[-8:]
    if digits.strip(b"0123456789abcdef"):
        return None
    return line[:-9], int(digits, 16)


class JournalDamaged(JournalError):
    """A journal with a line that is not what was written: which line, what is wrong,
    and the records before it (all intact, in :attr:`records`, ending at byte
    :attr:`valid_bytes` of the file)."""

    def __init__(
        self, path: Path, line: int, problem: str, records: list[dict[str, Any]], valid: int
    ) -> None:
        super().__init__(f"{path} is damaged at line {line}: {problem}")
        self.path = path
        self.line = line
        self.problem = problem
        self.records = records
        self.valid_bytes = valid


@dataclass
class Scan:
    """What :func:`scan` found in a journal's bytes."""

    records: list[dict[str, Any]]
    damage: tuple[int, str] | None = None  # (line number, what is wrong), if any
    valid_bytes: int = 0  # the length of the intact whole lines
    ends: list[int] = field(default_factory=list)  # where each record's line ends
    torn: bool = False  # the file ended in a half-written line (dropped)
    checksums: bool = True  # False: written before checksums


_FLIPPED = "its checksum does not match its contents (the file was changed or is corrupt)"


def scan(data: bytes) -> Scan:
    """Read a journal's records from its bytes, stopping at the first damaged line."""
    out = Scan([])
    chain = 0
    pos = 0
    number = 0
    while True:
        nl = data.find(b"\n", pos)
        if nl < 0:
            break
        number += 1
        line = data[pos:nl]
        split = _split_checksum(line)
        if number == 1:
            out.checksums = split is not None
        body: bytes = line
        problem = None
        if out.checksums:
            if split is None:
                problem = "it has no checksum"
            else:
                body, crc = split
                if zlib.crc32(body, chain) != crc:
                    problem = _FLIPPED
                chain = crc
        rec = None
        if problem is None:
            try:
                rec = json.loads(body)
            except ValueError:
                problem = "it is not valid JSON"
            else:
                if not isinstance(rec, dict) or not isinstance(rec.get("k"), str):
                    problem = "it is not a journal record"
        if problem is not None:
            out.damage = (number, problem)
            return out
        assert isinstance(rec, dict)
        out.records.append(rec)
        pos = nl + 1
        out.valid_bytes = pos
        out.ends.append(pos)
    tail = data[pos:]
    if tail:
        # A crash mid-write leaves the start of a line.  A whole record followed by
        # one stray byte is a line whose end was damaged, not a torn write.
        if _whole_record(tail[:-1], chain if out.checksums else None):
            out.damage = (number + 1, "its line end is damaged")
        else:
            out.torn = True
    return out


def _whole_record(data: bytes, chain: int | None) -> bool:
    """Whether ``data`` is a whole line but for its line end (``chain``: the checksum
    it must carry on; None: a journal without checksums)."""
    if chain is not None:
        split = _split_checksum(data)
        return split is not None and zlib.crc32(split[0], chain) == split[1]
    try:
        rec = json.loads(data)
    except ValueError:
        return False
    return isinstance(rec, dict) and isinstance(rec.get("k"), str)


def load(path: Path) -> list[dict[str, Any]]:
    """The complete records of a journal, in order (a torn last line is dropped).

    Raises :class:`JournalDamaged` (naming the line) if any line is not what was
    written, and :class:`JournalError` if the file cannot be read."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise JournalError(f"cannot read journal {path}: {_why(exc)}") from None
    found = scan(data)
    if found.damage is not None:
        line, problem = found.damage
        raise JournalDamaged(path, line, problem, found.records, found.valid_bytes)
    return found.records


class BadRecord(JournalError):
    """A record that does not replay: :attr:`index` is its place in the records."""

    def __init__(self, index: int, text: str) -> None:
        super().__init__(f"record {index + 1} ({text})")
        self.index = index
        self.text = text


def replay(records: Sequence[Mapping[str, Any]]) -> Restored | None:
    """Rebuild the last game in ``records`` by replaying its moves; None if it has none.

    Every move is checked against the engine: it must answer the recorded state id and
    be legal there.  A record that disagrees or is malformed raises :class:`BadRecord`.
    """
    start = None
    games = 0
    for i, rec in enumerate(records):
        if rec.get("k") == "game":
            start = i
            games += 1
    if start is None:
        return None
    out = _start(records[start], start, games)
    game = out.game
    for i in range(start + 1, len(records)):
        rec = records[i]
        kind = rec.get("k")
        try:
            if kind == "move":
                sid, compact = rec["sid"], rec["m"]
                if sid != game.state_id:
                    raise BadRecord(
                        i, f"move {out.moves + 1} answers state {sid}, the game is at "
                        f"{game.state_id}"
                    )
                try:
                    game.play_compact([int(x) for x in compact])
                except Exception as exc:
                    raise BadRecord(i, f"move {out.moves + 1} does not replay: {exc}") from None
                out.moves += 1
            elif kind == "seat":
                colour = int(rec["colour"])
                if colour not in game.seated:
                    raise BadRecord(i, f"a seat record for colour {colour}, not at the table")
                out.names[colour] = _text(rec["name"])
                token = rec["token"]
                if token is None:
                    out.bots.add(colour)
                    out.tokens.pop(colour, None)
                else:
                    out.bots.discard(colour)
                    out.tokens[colour] = _text(token)
            elif kind == "chat":
                out.chat.append((int(rec["colour"]), _text(rec["text"])))
            elif kind == "end":
                out.ended = True
            else:
                raise BadRecord(i, f"unknown journal record {kind!r}")
        except (KeyError, TypeError, ValueError) as exc:
            raise BadRecord(i, f"a malformed {kind} record: {_field(exc)}") from None
    return out


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{value!r} is not text")
    return value


def _field(exc: Exception) -> str:
    return f"no {exc.args[0]!r} field" if isinstance(exc, KeyError) else str(exc)


def _start(head: Mapping[str, Any], index: int, games: int) -> Restored:
    """The game a ``game`` record starts, dealt and ready for its first move."""
    try:
        variant = Variant.parse(str(head["variant"]))
        seated = tuple(int(c) for c in head["seated"])
        first_arg = head.get("first_arg")
        game = Game(
            variant,
            seated,
            seed=int(head["seed"]),
            first=None if first_arg is None else int(first_arg),
            first_sid=int(head.get("sid0", 0)),
        )
        if game.first != int(head["first"]):
            raise BadRecord(index, "the first player does not follow from the seed")
        names = {int(c): _text(n) for c, n in dict(head["names"]).items()}
        bots = {int(c) for c in head["bots"]}
        tokens = {int(c): _text(h) for c, h in dict(head["tokens"]).items()}
        owner = None if head.get("owner") is None else int(head["owner"])
        table = head.get("table")
        host = head.get("host")
        started = head.get("t")
        out = Restored(
            game,
            names,
            bots,
            tokens,
            owner=owner,
            games=games,
            table=None if table is None else _text(table),
            host=None if host is None else _text(host),
            started=None if started is None else float(started),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise BadRecord(index, f"a malformed game record: {_field(exc)}") from None
    game.start()
    return out
