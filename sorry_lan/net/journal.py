"""The host's append-only journal: enough to rebuild a table exactly after a crash.

A journal is a text file of JSON lines.  Each line is one record:

* ``{"k": "game", "variant", "seated", "seed", "first", "first_arg", "names", "bots",
  "tokens", "owner"}``
  starts a game (``tokens`` maps a colour to the SHA-256 of that seat's secret token,
  hex; the tokens themselves are never written, yet a seat's owner can still prove
  it holds one);
* ``{"k": "seat", "colour", "name", "token"}`` records a seat (re)bound to a new token
  during a game (a bot seat given to a late human, for instance);
* ``{"k": "move", "sid", "m"}`` is one chosen move: the state id it answered and its
  compact form;
* ``{"k": "end"}`` marks the table closed on purpose (nothing to resume).

The engine is deterministic from its seed and the moves chosen, so :func:`load`
plus :func:`replay` restore the same deck order, the same turn and the same hands.
Each append goes to the operating system at once; by default it is also synced to
stable storage before :meth:`Journal.append` returns.  The host instead turns that
off and syncs once per round of input, before it sends what depends on the round's
records (``outbox``), so the records of one round share one sync.  A crash can leave
a half-written last line; :func:`load` drops it (nothing was sent to any player for a
record that was not complete on disk, because the host writes before it sends).

This module does not decide *where* the journal lives beyond :func:`default_dir`,
and it does not talk to players or hold messages back (the host does that).
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from sorry_lan.authority.table import Restored
from sorry_lan.errors import SorryLanError
from sorry_lan.rules import Game, Variant

SUFFIX = ".journal"
DATA_DIR_ENV = "SORRY_LAN_DATA_DIR"


class JournalError(SorryLanError):
    """A journal that cannot be read back into a game (corrupt, or disagreeing with the rules)."""


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


def latest(directory: Path) -> Path | None:
    """The most recent journal in ``directory`` that was not closed on purpose, if any."""
    if not directory.is_dir():
        return None
    for path in sorted(directory.glob(f"*{SUFFIX}"), reverse=True):
        try:
            records = load(path)
        except JournalError:
            continue
        if records and records[-1].get("k") != "end":
            return path
    return None


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


class Journal:
    """An open journal file, appended to one record at a time.

    With ``sync`` (the default) each append is on stable storage when it returns.
    With ``sync`` off, appends only reach the operating system (a killed process
    loses nothing, a power cut may); :meth:`flush_to_disk` makes them durable.
    :attr:`appended` counts the records written and :attr:`synced` how many of them
    are known to be durable (whoever calls :meth:`flush_to_disk` advances it).
    """

    def __init__(self, path: Path, *, sync: bool = True) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.sync = sync
        self.appended = 0
        self.synced = 0
        self.syncs = 0  # how many syncs were made (statistics)
        existed = path.exists()
        flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_BINARY", 0)
        fd = os.open(path, flags, 0o600)
        self._file = os.fdopen(fd, "ab", buffering=0)
        self._repair_tail()
        if not existed:
            _sync_directory(path.parent)

    def _repair_tail(self) -> None:
        """After a crash the file may end in a half line: cut it so new lines stay whole."""
        size = self.path.stat().st_size
        if size == 0:
            return
        with open(self.path, "rb") as f:
            data = f.read()
        end = data.rfind(b"\n") + 1
        if end != len(data):
            os.truncate(self.path, end)

    def append(self, record: Mapping[str, Any]) -> None:
        self._write(json.dumps(record, separators=(",", ":"), sort_keys=True).encode() + b"\n")

    def _write(self, line: bytes) -> None:
        self._file.write(line)
        self.appended += 1
        if self.sync:
            self.flush_to_disk()
            self.synced = self.appended

    @property
    def closed(self) -> bool:
        return self._file.closed

    def game(
        self,
        game: Game,
        names: Mapping[int, str],
        bots: Sequence[int],
        tokens: Mapping[int, str],
        owner: int | None = None,
        first_arg: int | None = None,
    ) -> None:
        """Record a game's start.  ``first_arg`` is the ``first`` the game was built
        with (None: drawn from the seed, which also advances the deck's generator)."""
        self.append(
            {
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
            }
        )

    def move(self, state_id: int, compact: Sequence[int]) -> None:
        # The line ``append`` would write for {"k": "move", "sid": ..., "m": [...]},
        # formatted directly (one per move: the hot path).
        items = ",".join(map(str, map(int, compact)))
        self._write(b'{"k":"move","m":[%s],"sid":%d}\n' % (items.encode(), int(state_id)))

    def seat(self, colour: int, name: str, token: str | None) -> None:
        self.append({"k": "seat", "colour": colour, "name": name, "token": token})

    def flush_to_disk(self) -> int:
        """Put every record appended so far on stable storage; returns how many that
        is (:attr:`appended` as it was before the sync); raises :class:`OSError` if
        the system cannot sync (or the journal is closed)."""
        done = self.appended  # written to the OS before this was counted
        try:
            fd = self._file.fileno()
        except ValueError:
            raise OSError(f"journal {self.path.name} is closed") from None
        _datasync(fd)
        self.syncs += 1
        return done

    def end(self) -> None:
        self.append({"k": "end"})

    def close(self) -> None:
        self._file.close()


def load(path: Path) -> list[dict[str, Any]]:
    """The complete records of a journal, in order (a torn last line is dropped)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise JournalError(f"cannot read journal {path}: {exc.strerror}") from None
    lines = data.split(b"\n")
    records: list[dict[str, Any]] = []
    for i, line in enumerate(lines[:-1]):  # the last piece has no newline: torn or empty
        try:
            rec = json.loads(line)
        except ValueError:
            raise JournalError(f"{path}: line {i + 1} is not valid JSON") from None
        if not isinstance(rec, dict) or not isinstance(rec.get("k"), str):
            raise JournalError(f"{path}: line {i + 1} is not a journal record")
        records.append(rec)
    return records


def replay(records: Sequence[Mapping[str, Any]]) -> Restored | None:
    """Rebuild the last game in ``records`` by replaying its moves; None if it has none.

    Every move is checked against the engine: it must answer the recorded state id and
    be legal there.  A journal that disagrees raises :class:`JournalError`.
    """
    start = None
    games = 0
    for i, rec in enumerate(records):
        if rec.get("k") == "game":
            start = i
            games += 1
    if start is None:
        return None
    head = records[start]
    try:
        variant = Variant.parse(str(head["variant"]))
        seated = tuple(int(c) for c in head["seated"])
        first_arg = head.get("first_arg")
        game = Game(
            variant,
            seated,
            seed=int(head["seed"]),
            first=None if first_arg is None else int(first_arg),
        )
        if game.first != int(head["first"]):
            raise JournalError("the journal's first player does not follow from its seed")
        names = {int(c): str(n) for c, n in dict(head["names"]).items()}
        bots = {int(c) for c in head["bots"]}
        tokens = {int(c): str(h) for c, h in dict(head["tokens"]).items()}
        owner = None if head.get("owner") is None else int(head["owner"])
    except (KeyError, TypeError, ValueError) as exc:
        raise JournalError(f"bad game record: {exc}") from None
    game.start()
    out = Restored(game, names, bots, tokens, owner=owner, games=games)
    for rec in records[start + 1 :]:
        kind = rec.get("k")
        if kind == "move":
            sid, compact = rec.get("sid"), rec.get("m")
            if sid != game.state_id:
                raise JournalError(
                    f"move {out.moves + 1} answers state {sid}, the game is at {game.state_id}"
                )
            try:
                game.play_compact([int(x) for x in compact])  # type: ignore[union-attr]
            except Exception as exc:
                raise JournalError(f"move {out.moves + 1} does not replay: {exc}") from None
            out.moves += 1
        elif kind == "seat":
            colour = int(rec["colour"])
            out.names[colour] = str(rec["name"])
            token = rec.get("token")
            if token is None:
                out.bots.add(colour)
                out.tokens.pop(colour, None)
            else:
                out.bots.discard(colour)
                out.tokens[colour] = str(token)
        elif kind == "end":
            pass
        else:
            raise JournalError(f"unknown journal record {kind!r}")
    return out
