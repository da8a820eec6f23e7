"""Seat tokens kept on disk, so that a client that died can take its seat back.

A player's seat at a table is held by a secret token (given in ``welcome``).  A
:class:`SeatStore` keeps each seat's token in the user's data directory
(``$SORRY_LAN_DATA_DIR/seats`` or the platform's data dir), one small file per seat
(directory mode 0700, files 0600, written atomically), together with what names the
table: its id when known (advertised by its host; a seat belongs to that table, so a
new table at the same address is not "your seat"), the port, every address it was
reached by (typed, answered from, advertised) and its LAN name when it was found by
discovery.  Where either side has no id (an older host, or a seat joined by address
alone) the address and port decide, as before ids.  A seat at a table with a
succession (protocol version 4) also keeps the table's id as its host told it, the
epoch of the host it last followed and that host's seat (a laptop that starts again
follows no older host: protocol/SPEC.md, Succession), and where the table is hosted:
the host it was last welcomed by, then each laptop the succession order names
(:attr:`SavedSeat.hosts`), so that a process started again after the host was lost,
given the old host's address, finds the table where it went
(:meth:`SeatStore.elsewhere`).  ``sorry-lan join`` and
``sorry-lan bot`` look a seat up before connecting and offer its token; the find
screen marks the tables where the user has a seat.  A seat is forgotten when its game
ends, when its player leaves the lobby, when the host no longer knows the token, and
when it was last used (joined or rejoined) more than :data:`SEAT_MAX_AGE` ago: the
host of a game that never ended may be gone for good.

It does not connect anywhere and never prints or logs a token.  Files it cannot read
(damaged, another program's) are skipped, never trusted; a store that cannot be
written to (read-only, full) only loses the ability to rejoin from another process,
so :meth:`SeatStore.save` reports failure by returning False (and keeps why in
:attr:`SeatStore.failure`) rather than raising, and keeps the seat in memory
instead: a rejoin by the same process (a new connection from the find screen, say)
still finds it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from .filelock import write_private
from .journal import DATA_DIR_ENV

SUFFIX = ".seat"
TOKEN_BYTES = 16
SEAT_MAX_AGE = 30 * 24 * 3600.0  # seconds: a seat unused this long is forgotten
LEFTOVER_AGE = 60.0  # seconds: a temporary file this old was left by a killed writer


def default_seats_dir() -> Path:
    """``$SORRY_LAN_DATA_DIR/seats`` if set, else ``seats`` in the user's data dir."""
    base = os.environ.get(DATA_DIR_ENV)
    if not base:
        import platformdirs

        base = platformdirs.user_data_dir("sorry-lan")
    return Path(base) / "seats"


#: Where a table may be hosted: an address and a port.
Endpoint = tuple[str, int]


@dataclass(frozen=True)
class SavedSeat:
    """One seat held by this user: the name it was registered under, its token and
    how the table is reached (``port``, ``addresses``, the LAN name ``game``); at a
    table with a succession, its ``epoch`` and where it may be hosted (``hosts``, the
    likeliest first: the host last followed, then the laptops of the order)."""

    name: str
    token: bytes
    port: int
    addresses: tuple[str, ...]
    game: str | None
    saved: float
    path: Path
    table: str | None = None  # the table's id, when it was known
    epoch: int | None = None  # the epoch of the host last followed (None: not told)
    hosts: tuple[Endpoint, ...] = ()  # where the table may be hosted, likeliest first
    host: int | None = None  # the seat of the host last followed (version 4)
    # (pid, port) of each laptop's standby, as the orders followed said (version 4)
    standbys: tuple[tuple[int, int], ...] = ()

    def at(
        self,
        addresses: Iterable[str],
        port: int,
        game: str | None = None,
        table: str | None = None,
    ) -> bool:
        """Whether this seat is at the table with id ``table`` (when both sides know
        the id), else at the one reached by ``addresses``/``port`` (or advertised as
        ``game``)."""
        if table is not None and self.table is not None:
            return table == self.table
        if port != self.port:
            return False
        if game is not None and game == self.game:
            return True
        return any(_canon(a) in self.addresses for a in addresses)

    def __repr__(self) -> str:  # never show the token
        return f"SavedSeat(name={self.name!r}, port={self.port}, addresses={self.addresses!r})"


class Advertised(Protocol):
    """A table found on the LAN, as far as finding its seats goes (a discovery
    ``FoundGame`` is one)."""

    @property
    def address(self) -> str | None: ...
    @property
    def addresses(self) -> Sequence[str]: ...
    @property
    def port(self) -> int: ...
    @property
    def instance(self) -> str: ...
    @property
    def table_id(self) -> str | None: ...


def _canon(address: str) -> str:
    return address.strip().strip("[]").lower()


class SeatStore:
    """The seats of this user, one file each in ``directory``; see the module docstring."""

    def __init__(self, directory: Path | None = None, max_age: float = SEAT_MAX_AGE) -> None:
        self.directory = directory if directory is not None else default_seats_dir()
        self.max_age = max_age
        self.failure: OSError | None = None  # why the last save could not be written
        self._memory: dict[Path, SavedSeat] = {}  # seats kept only by this process

    # -- reading ------------------------------------------------------------------------

    def seats(self) -> list[SavedSeat]:
        """Every readable seat file, newest first; one unused for longer than
        ``max_age`` is removed instead, and so is a temporary file that a process killed
        while saving left behind."""
        try:
            paths = list(self.directory.glob(f"*{SUFFIX}"))
            leftovers = list(self.directory.glob(f".*{SUFFIX}.*.tmp"))
        except OSError:
            paths, leftovers = [], []
        for leftover in leftovers:
            with contextlib.suppress(OSError):
                if leftover.stat().st_mtime < time.time() - LEFTOVER_AGE:
                    leftover.unlink()
        found = [s for s in map(_read, paths) if s is not None and s.path not in self._memory]
        found += self._memory.values()
        oldest = time.time() - self.max_age
        for stale in [s for s in found if s.saved < oldest]:
            self._remove(stale.path)
            found.remove(stale)
        found.sort(key=lambda s: s.saved, reverse=True)
        return found

    def find(
        self,
        addresses: Iterable[str],
        port: int,
        *,
        game: str | None = None,
        name: str | None = None,
        table: str | None = None,
    ) -> list[SavedSeat]:
        """The seats at that table (named ``name`` when given, compared without case)."""
        addresses = list(addresses)
        folded = None if name is None else name.casefold()
        return [
            s
            for s in self.seats()
            if s.at(addresses, port, game, table)
            and (folded is None or s.name.casefold() == folded)
        ]

    def choose(
        self,
        addresses: Iterable[str],
        port: int,
        name: str | None,
        *,
        game: str | None = None,
        table: str | None = None,
    ) -> SavedSeat | None:
        """The seat to reclaim at that table: the one named ``name``; with no name, the
        only seat held there (None when there are several: the user must say which)."""
        if name is not None:
            mine = self.find(addresses, port, game=game, name=name, table=table)
            return mine[0] if mine else None
        mine = self.find(addresses, port, game=game, table=table)
        names = {s.name.casefold() for s in mine}
        return mine[0] if len(names) == 1 else None

    def elsewhere(self, seat: SavedSeat, tried: Iterable[Endpoint] = ()) -> list[Endpoint]:
        """Where else the table of ``seat`` may be hosted, the likeliest first: what
        every file of its token knows (the latest epoch, then the newest, first), less
        ``tried``."""
        kin = [s for s in self.seats() if s.token == seat.token] or [seat]
        kin.sort(key=lambda s: (s.epoch or 0, s.saved), reverse=True)
        seen = {(_canon(a), p) for a, p in tried}
        out: list[Endpoint] = []
        for s in kin:
            for address, port in (*s.hosts, *((a, s.port) for a in s.addresses)):
                key = (_canon(address), port)
                if key not in seen:
                    seen.add(key)
                    out.append((address, port))
        return out

    def at_game(self, game: Advertised, name: str | None = None) -> SavedSeat | None:
        """The seat to reclaim at a table found on the LAN (see :meth:`choose`)."""
        addresses = [a for a in (game.address, *game.addresses) if a]
        return self.choose(addresses, game.port, name, game=game.instance, table=game.table_id)

    # -- writing ------------------------------------------------------------------------

    def save(
        self,
        name: str,
        token: bytes,
        addresses: Iterable[str],
        port: int,
        game: str | None = None,
        table: str | None = None,
        *,
        epoch: int | None = None,
        hosts: Iterable[Endpoint] = (),
        host: int | None = None,
        standbys: Iterable[tuple[int, int]] = (),
    ) -> bool:
        """Keep ``token`` as the seat ``name`` at that table (``table``: its id, if
        known; ``epoch``, ``hosts``, ``host`` and ``standbys``: see :class:`SavedSeat`), replacing
        any earlier token for the same name there; False if the data directory cannot
        be written (the seat is then kept in this process's memory only)."""
        addresses = tuple(dict.fromkeys(_canon(a) for a in addresses if a.strip()))
        where = tuple(dict.fromkeys((_canon(a), int(p)) for a, p in hosts if a.strip()))
        ports = {int(pid): int(p) for pid, p in standbys}
        here = self.find(addresses, port, game=game, name=name, table=table)
        for old in here:
            if old.token != token:
                self._remove(old.path)
        for old in self.seats():
            if old.token == token:  # the same seat, reached another way: keep what it knew
                addresses = tuple(dict.fromkeys(addresses + old.addresses))
                game = game or old.game
                table = table or old.table
                if epoch is None or (old.epoch is not None and old.epoch > epoch):
                    epoch, host = old.epoch, old.host  # (an epoch is never forgotten)
                ports = {**dict(old.standbys), **ports}
        now = time.time()
        record = {
            "v": 1,
            "name": name,
            "token": token.hex(),
            "port": port,
            "addresses": list(addresses),
            "game": game,
            "table": table,
            "epoch": epoch,
            "hosts": [list(h) for h in where],
            "host": host,
            "standbys": [[pid, p] for pid, p in sorted(ports.items())],
            "saved": now,
        }
        key = hashlib.sha256(f"{port}\0{name.casefold()}\0{token.hex()}".encode()).hexdigest()
        path = self.directory / f"{key[:32]}{SUFFIX}"
        try:
            self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
            if hasattr(os, "getuid"):
                os.chmod(self.directory, 0o700)  # even if it was made wider earlier
            write_private(path, json.dumps(record).encode("utf-8"))
        except OSError as exc:
            self.failure = exc
            self._memory[path] = SavedSeat(
                name, token, port, addresses, game, now, path, table, epoch, where, host,
                tuple(sorted(ports.items())),
            )
            return False
        self.failure = None
        self._memory.pop(path, None)
        return True

    def forget(self, token: bytes) -> None:
        """Forget every file holding ``token`` (its game ended, or the host forgot it)."""
        for seat in self.seats():
            if seat.token == token:
                self._remove(seat.path)

    def _remove(self, path: Path) -> None:
        self._memory.pop(path, None)
        with contextlib.suppress(OSError):
            path.unlink()


def _read(path: Path) -> SavedSeat | None:
    """A seat file, or None when it is not one of ours or not well formed."""
    try:
        if hasattr(os, "getuid") and path.stat().st_uid != os.getuid():
            return None  # planted by someone else: never offer it
        raw = json.loads(path.read_text(encoding="utf-8"))
        token = bytes.fromhex(raw["token"])
        name, port, game = raw["name"], raw["port"], raw["game"]
        addresses = tuple(str(a) for a in raw["addresses"])
        saved = float(raw["saved"])
        table = raw.get("table")  # files from before table ids have none
        epoch = raw.get("epoch")  # nor those from before successions an epoch or hosts
        hosts = tuple((str(a), int(p)) for a, p in raw.get("hosts") or ())
        host = raw.get("host")
        standbys = tuple((int(pid), int(p)) for pid, p in raw.get("standbys") or ())
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    if (
        len(token) != TOKEN_BYTES
        or not isinstance(name, str)
        or not isinstance(port, int)
        or not (game is None or isinstance(game, str))
        or not (table is None or isinstance(table, str))
        or not (epoch is None or (isinstance(epoch, int) and not isinstance(epoch, bool)
                                  and epoch >= 1))
        or not (host is None or (isinstance(host, int) and not isinstance(host, bool)))
    ):
        return None
    return SavedSeat(
        name, token, port, addresses, game, saved, path, table, epoch, hosts, host, standbys
    )
