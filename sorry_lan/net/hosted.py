"""A table hosted on this machine, for as long as it is open: its journal, server and advert.

:class:`HostedTable` is an async context manager.  Entering it opens the journal
file, makes the table (new, or resumed from the records already read from that
journal), seats the host's own player and the first bots, and starts the
:class:`~sorry_lan.net.host.HostServer`; :meth:`HostedTable.advertise` then starts
the advert it is given.  Leaving it (or :meth:`HostedTable.close`, which is safe to
call twice) takes them down in the one order that loses nothing:

1. what the caller asked to close first goes (:meth:`HostedTable.close_first`: a
   successor's phones' page), then the advert (its goodbyes leave while the port
   still answers);
2. the end mark is appended, if the last game ended (a ``stay`` table's too) or
   the host quit on purpose, before the server closes, so that closing makes it
   durable with the last output;
3. the server closes (a ``bye`` to everyone, the journal synced);
4. the journal file closes, and goes if no game was ever started in it.

A table taken over from a lost host (issue 19) is made by the caller's ``build``
(from what the laptop knew, ``authority.takeover``) instead of new or resumed, and
is served on the socket its standby listened on (``sock``); a successor's journal
resumed (``taken``, its takeover) is hosted again at the table's id and the epoch it
hosted (``authority.takeover.resume_table``); a table that moved to
another laptop (:meth:`HostedTable.moved`: handed over, or stepped down) closes
with neither an end mark nor a game ended for anyone, since it goes on elsewhere.

:func:`table_id` gives the table the id its advert carries (a seat belongs to it).
:func:`table_names` decides the names a table is hosted under: those given, else
(resumed) those its journal recorded, so that a resumed table keeps its name;
:func:`table_seats`, :func:`bot_room` (both from :mod:`.seating`, which the command
line checks with) and :func:`bot_delay` decide the seats, the room for bots and their
pause, for a table the host plays at or a headless one.

It neither prints nor asks anything (``sorry_lan.commands.host`` does), does not
choose which saved game to resume (:mod:`sorry_lan.net.saved` does), and does not
touch zeroconf: the advert comes from the caller (``sorry_lan.discovery``), as
anything with ``update`` and ``close``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import platform
import socket
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Protocol

from sorry_lan.authority.electorate import Laptop as Offered
from sorry_lan.authority.restore import TakeoverStart
from sorry_lan.authority.table import Restored, Table, TableConfig
from sorry_lan.authority.takeover import resume_table, resumed_options
from sorry_lan.wire.succession import Laptop

from .host import HostOptions, HostServer, TableSummary
from .journal import SUFFIX, Journal
from .saved import hosted_by
from .seating import bot_room as bot_room
from .seating import table_seats as table_seats

#: The host's name when none is given nor recorded.
DEFAULT_HOST_NAME = "host"


@dataclass(frozen=True)
class TableNames:
    """The names a table is hosted under."""

    host: str  # who hosts it: the host's own player, the advert's host, the journal's
    title: str  # the table's name on the LAN and in the journal


def table_names(
    name: str | None, game_name: str | None, restored: Restored | None = None
) -> TableNames:
    """The names for a table given ``name`` (the host's) and ``game_name`` (the
    table's), None where not given: a resumed table (``restored``) keeps the names
    its journal recorded; what is neither given nor recorded is the host's name,
    and that is ``host``."""
    recorded_host = recorded_title = None
    if restored is not None:
        recorded_host, recorded_title = hosted_by(restored), restored.table
    host = name or recorded_host or DEFAULT_HOST_NAME
    return TableNames(host=host, title=game_name or recorded_title or host)


def bot_delay(headless: bool, given: float | None = None) -> float:
    """How long a bot waits before it moves: ``given``, else none at a headless table
    (nobody watches there) and a moment where a person watches the board."""
    if given is not None:
        return given
    return 0.0 if headless else 0.8


class Advert(Protocol):
    """What a hosted table needs of its advert on the LAN (a started one)."""

    def update(self, summary: TableSummary) -> None: ...

    async def close(self) -> None: ...


class HostedTable:
    """One table served from this machine: see the module docstring.

    ``journal`` is the journal file (a new one, or the one ``restored`` was read
    from); ``owner`` is the name of the host's own player, seated first (None: a
    headless table, nobody plays here); ``bots`` are seated from the start of a new
    table.  The server listens on ``bind`` and ``port`` (or on ``sock``, a listening
    socket, then ``bind`` and ``port`` are not used), and on ``also`` too (see
    :meth:`HostServer.start`); ``build`` makes the table from the journal and the
    time instead (a successor's), ``restored``, ``owner`` and ``bots`` then unused;
    ``taken`` is the takeover ``restored`` began with (a successor's journal resumed:
    the table keeps its id, its epoch and its hosting seat, and ``options`` follow);
    ``tid`` is the id of a table taken over (else the journal's), and ``expect`` the
    laptops of the order it knew: they are in its electorate and its order from the
    start, before each is back (a successor killed before the others reconnected
    leaves them an order that still names them all; a resumed table: those its journal
    says offered, probed there)."""

    def __init__(
        self,
        config: TableConfig,
        journal: Path,
        options: HostOptions,
        *,
        restored: Restored | None = None,
        owner: str | None = None,
        bots: int = 0,
        bind: str = "0.0.0.0",
        port: int = 0,
        also: Sequence[str] = (),
        build: Callable[[Journal, float], Table] | None = None,
        sock: socket.socket | None = None,
        tid: str | None = None,
        expect: Sequence[Laptop | Offered] = (),
        taken: TakeoverStart | None = None,
    ) -> None:
        if taken is not None:
            options, tid = resumed_options(options, taken), taken.tid
        self.config = config
        self.path = journal
        self.options = options
        self.restored = restored
        self.taken = taken
        self.owner = owner
        self.bots = bots
        self.bind = bind
        self.port = port
        self.also = tuple(also)
        self.build = build
        self.sock = sock
        self.tid = tid  # the table's id when it is not this journal's (taken over)
        self.expect = tuple(expect)  # a successor's: the laptops of the order it knew
        self.owner_token: bytes | None = None  # the host's own player's seat token
        self.finished = False  # closed with its end mark (nothing left to resume)
        self._table: Table | None = None
        self._server: HostServer | None = None
        self._journal: Journal | None = None
        self._advert: Advert | None = None
        self._first: list[Callable[[], Awaitable[None]]] = []  # closed before the table
        self._quit = False
        self._moved = False
        self._closed = False
        self._kept = False  # closed with its journal kept (a game was played in it)

    # -- what it holds -------------------------------------------------------------------

    @property
    def table(self) -> Table:
        if self._table is None:
            raise RuntimeError("the hosted table is not open")
        return self._table

    @property
    def server(self) -> HostServer:
        if self._server is None:
            raise RuntimeError("the hosted table is not open")
        return self._server

    @property
    def address(self) -> tuple[str, int]:
        """The address the table listens on (``also``: further ones, IPv6 for one)."""
        return self.server.address

    @property
    def failure(self) -> OSError | None:
        """Why the journal could not be written (the table stopped), if it could not."""
        return None if self._server is None else self._server.failure

    @property
    def table_id(self) -> str:
        """The table's id, advertised so that a player's seat follows the table, not its
        address: the same for as long as its journal lives (resumed too), another for a
        new table at the same address (see :func:`table_id`); a table taken over keeps
        the id it had."""
        return self.tid if self.tid is not None else table_id(self.path)

    @property
    def saved_as(self) -> str | None:
        """Once closed: the id that resumes the game (its journal kept, unfinished and
        written whole), or None (finished, failed, or no game ever played)."""
        if not self._kept or self.finished or self.failure is not None or self.has_moved:
            return None  # (a table that moved goes on elsewhere: nothing to resume here)
        return self.path.name.removesuffix(SUFFIX)

    # -- life cycle ----------------------------------------------------------------------

    async def __aenter__(self) -> HostedTable:
        await self.open()
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def open(self) -> None:
        """Open the journal, make the table and start serving it; on a failure (the
        journal locked, the port in use) nothing is left open."""
        journal = Journal(self.path)
        self._journal = journal
        try:
            self._table = self._make_table(journal, asyncio.get_running_loop().time())
            self._server = HostServer(self._table, self.options)
            # (before it serves: the first succession anyone is told lists them)
            self._server.core.expect_laptops(self.expect)
            await self._server.start(self.bind, self.port, self.sock, self.also)
        except BaseException:
            self._closed = True
            if self.sock is not None:
                self.sock.close()
            journal.close()
            _tidy(journal, played=False)
            raise

    def _make_table(self, journal: Journal, now: float) -> Table:
        if self.build is not None:
            return self.build(journal, now)
        restored = self.restored
        if restored is not None:
            if self.taken is not None:
                table: Table = resume_table(self.config, restored, self.taken, now, journal)
            else:
                table = Table.restore(self.config, restored, now, journal)
            if self.owner is not None and table.owner is not None:
                self.owner_token = table.new_token(table.owner)
            return table
        table = Table(self.config, journal)
        if self.owner is not None:
            player, self.owner_token = table.join(None, self.owner)  # first: red
            table.owner = player.pid
        for _bot in range(self.bots):
            table.add_bot(None)
        return table

    def advertise(self, start: Callable[[HostServer], Advert | None]) -> Advert | None:
        """Advertise the table with what ``start`` makes of its server (a started
        advert, or None when it is not advertised); it follows the table from now on
        and goes first when the table closes."""
        advert = start(self.server)
        if advert is not None:
            self._advert = advert
            self.server.on_change = advert.update
        return advert

    def close_first(self, close: Callable[[], Awaitable[None]]) -> None:
        """Have :meth:`close` await ``close`` before it takes the table down (a
        successor's phones' page: each phone's client leaves while the table is up)."""
        self._first.append(close)

    async def wait_done(self) -> None:
        """Return once the table stops (a headless game over, :meth:`stop`, a journal
        failure)."""
        await self.server.wait_done()

    @property
    def stopped(self) -> bool:
        return self.server.stopped

    def stop(self) -> None:
        """Ask :meth:`wait_done` to return (a signal handler's way to stop the table)."""
        self.server.stop()

    def quit(self) -> None:
        """The host's own player left on purpose: the table closes finished (its
        journal gets the end mark); everyone is told at once that the game ended."""
        self._quit = True
        if self._server is not None and not self.has_moved:
            self._server.end_for_everyone()

    def moved(self) -> None:
        """The table moved to another laptop (handed over, or this host stepped down):
        it closes unfinished, its game going on elsewhere (the core journalled
        ``moved``), so no end mark and no game ended for anyone."""
        self._moved = True

    @property
    def has_moved(self) -> bool:
        """Whether the table moved to another laptop (told, or its server found so)."""
        return self._moved or (self._server is not None and self._server.moved_to is not None)

    async def close(self) -> None:
        """Take everything down in order (see the module docstring); safe twice."""
        server, journal, table = self._server, self._journal, self._table
        if self._closed or server is None or journal is None or table is None:
            self._closed = True  # never opened: nothing to close
            return
        self._closed = True
        try:
            firsts, self._first = self._first, []
            for first in firsts:
                await first()
            if self._advert is not None:
                await self._advert.close()  # goodbyes before the port closes
        finally:
            try:
                game = table.game
                over = game is not None and game.over  # a game that ended (--stay too)
                ended = self._quit or over
                moved = self._moved or server.moved_to is not None
                self.finished = server.failure is None and ended and not moved
                if self.finished and journal.appended + journal.size > 0:
                    journal.end()  # before close(), which makes it durable with the last output
                await server.close(abandon=self._quit and not moved)  # q: the game ends
            finally:
                journal.close()
                self._kept = _tidy(journal, played=table.game is not None)


def table_id(journal: Path) -> str:
    """A table's id, from its journal's path (unique on this machine: a data dir, and a
    name with a sequence number, a time and a process id) and this machine's name: 16
    hex digits, the same whenever that journal is resumed."""
    seed = f"{platform.node()}\0{journal.absolute()}".encode()
    return hashlib.sha256(seed).hexdigest()[:16]


def _tidy(journal: Journal, played: bool) -> bool:
    """An empty journal goes (no game was ever started in it); whether it stays."""
    if not played and journal.size == 0:
        with contextlib.suppress(OSError):
            journal.path.unlink()
        return False
    return True
