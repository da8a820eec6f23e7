"""The host's asyncio shell: sockets, the timer, the bot thread and the journal file.

:class:`HostServer` listens on a TCP socket (its own, or one the caller hands in;
it also adopts connections another listener accepted, a standby's), runs one
:class:`~sorry_lan.net.connection.Connection` per connection and feeds
what happens (a connection opened, bytes read, a connection lost, output left
unread, the clock, a bot's answer, a journal that cannot be saved) to a
:class:`~sorry_lan.authority.core.HostCore`, which decides everything, then carries
out the effects it returns, in order: journal records go to the file at once, and
the round's output goes to a :class:`~sorry_lan.net.outbox.DurableOutbox`, which
writes it only once those records are on stable storage (one ``fdatasync`` per
round, made on the event loop).  One timer, armed at the core's
:meth:`~sorry_lan.authority.core.HostCore.next_wakeup`, drives every timeout; a
blocking bot decides on the bot thread.

Its lifetimes are structured: ``async with HostServer(...) as server`` closes it on
the way out, :meth:`HostServer.close` may be called twice, and it starts no task:
what is pending (the timer, a bot's decision, a connection's linger) is a handle
that closing cancels.  It does not decide anything about the table (the core does),
and it does not advertise the game on the network: give it an ``on_change``
callback (the discovery layer's advertiser) and it reports the table's summary on
every change.
"""

from __future__ import annotations

import asyncio
import errno
import functools
import logging
import socket
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from types import TracebackType
from typing import assert_never

from sorry_lan.authority.core import HostCore
from sorry_lan.authority.effects import (
    Append,
    Close,
    Effect,
    PauseInput,
    Probe,
    Refute,
    RosterChanged,
    Send,
    Stop,
    StopListening,
    SummaryChanged,
    TableSummary,
    Think,
)
from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.table import BotTurn, Table
from sorry_lan.codes import Coded, HostFailure, Place
from sorry_lan.rules import Move
from sorry_lan.wire import messages as m
from sorry_lan.wire.limits import DEFAULT_PORT
from sorry_lan.wire.vocab import ByeReason

from .connection import Connection
from .gcsettle import settle
from .journal import Journal
from .outbox import DurableOutbox, Sink, write_now
from .probe import ProbeLink, Sighting, probe

__all__ = ["HostError", "HostOptions", "HostServer", "TableSummary", "listen_error"]

log = logging.getLogger(__name__)


class HostError(Coded):
    """The table could not be hosted: a :class:`~sorry_lan.codes.HostFailure` (the port
    is in use, the address is not this machine's...) with its fields."""


def listen_error(exc: OSError, host: str, port: int) -> HostError:
    """Why ``host`` and ``port`` could not be listened on, as a :class:`HostError`."""
    if exc.errno in (errno.EADDRINUSE, 10048):
        return HostError(HostFailure.PORT_IN_USE, port=port, host=host or Place.THIS_MACHINE)
    if exc.errno in (errno.EADDRNOTAVAIL, 10049):
        return HostError(HostFailure.NOT_LOCAL, host=host)
    why = exc.strerror or str(exc)
    return HostError(HostFailure.CANNOT_LISTEN, host=host, port=port, why=why)


class HostServer:
    """One table served over TCP.  ``await start()``, then ``await wait_done()``, then
    ``await close()`` (which returns once the journal is durable and the last output,
    a ``bye``, is written); or ``async with`` it, which closes it.

    The event loop syncs the journal (a sync thread measured slower on a busy 2-core
    machine: a Python thread pays for the GIL and two wake-ups per sync).  If a sync
    fails, the server refuses to go on without durability: it sends nothing that
    depended on the lost records, says ``bye`` (error) to everyone and lets
    :meth:`wait_done` return; :attr:`failure` says why.
    """

    def __init__(
        self,
        table: Table,
        options: HostOptions | None = None,
        on_change: Callable[[TableSummary], None] | None = None,
    ) -> None:
        self.table = table
        self.options = options or HostOptions()
        self.on_change = on_change
        # Called after every change to the roster or the phase (a drop or a return
        # too, which the summary does not show): a headless table's report.
        self.on_roster: Callable[[], None] | None = None
        # Succession (issue 19): the old host's probes of absent laptops, by pid, and
        # the connections that found the table hosted elsewhere, for the core's answer.
        self._probes: dict[int, asyncio.Task[tuple[Sighting, ProbeLink] | None]] = {}
        self._links: dict[int, ProbeLink] = {}
        self.moved_to: tuple[int, int] | None = None  # (epoch, pid): the table went on there
        # Told whether the game waits, cut off from most of the table's laptops, each
        # time that changes: meanwhile the caller watches the LAN for the table's
        # adverts and tells each to :meth:`advert` (SPEC 13: a laptop that hosts it at
        # a newer epoch may have an address this host was never told).
        self.on_cut_off: Callable[[bool], None] | None = None
        self._cut_off = False
        journal = table.journal
        if journal is not None and not isinstance(journal, Journal):
            raise TypeError("a hosted table must journal to a Journal file (the host syncs it)")
        self.journal = journal
        self.core = HostCore(table, self.options, wall=time.time, journalled=journal is not None)
        self.conns: dict[int, Connection] = {}
        self.address: tuple[str, int] = ("", 0)
        self.also: list[tuple[str, int]] = []  # further addresses, as bound
        self._next_cid = 1
        self._server: asyncio.Server | None = None
        self._more: list[asyncio.Server] = []  # the same port on further addresses
        self._timer: asyncio.TimerHandle | None = None
        self._bot_thread: ThreadPoolExecutor | None = None  # the expert searches here
        self._thinking: asyncio.Future[Move] | None = None
        self._done = asyncio.Event()
        self._closing = False
        self._outbox = DurableOutbox(self.journal, self._sync_failed)

    async def __aenter__(self) -> HostServer:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    @property
    def failure(self) -> OSError | None:
        """Why the journal could not be made durable (then the table closed)."""
        return self._outbox.failure

    # -- life cycle ----------------------------------------------------------------------

    @staticmethod
    def now() -> float:
        return asyncio.get_running_loop().time()

    async def start(
        self,
        host: str = "0.0.0.0",
        port: int = DEFAULT_PORT,
        sock: socket.socket | None = None,
        also: Sequence[str] = (),
    ) -> tuple[str, int]:
        """Listen (on ``sock`` if given); returns the address actually bound.

        ``also``: further addresses to listen on, on the same port (``"::"`` for IPv6
        beside ``"0.0.0.0"``: dual stack); one that cannot be bound (a machine without
        IPv6) is left out, and :attr:`also` lists those that were."""
        loop = asyncio.get_running_loop()
        try:
            if sock is not None:
                self._server = await loop.create_server(self._factory, sock=sock)
            else:
                self._server = await loop.create_server(
                    self._factory, host, port, reuse_address=True, backlog=256
                )
        except OSError as exc:
            raise listen_error(exc, host, port) from None
        bound = self._server.sockets[0].getsockname()
        self.address = (str(bound[0]), int(bound[1]))
        for extra in also:
            try:
                server = await loop.create_server(
                    self._factory, extra, self.address[1], reuse_address=True, backlog=256
                )
            except OSError as exc:
                log.info("not listening on %s too: %s", extra, exc.strerror or exc)
                continue
            self._more.append(server)
            name = server.sockets[0].getsockname()
            self.also.append((str(name[0]), int(name[1])))
        self._run(self.core.start(self.address[1], self.now()))
        settle()  # start-up is over: full collections leave its objects alone
        return self.address

    async def wait_done(self) -> None:
        """Return when a headless table's game is over (and it was not told to stay)."""
        await self._done.wait()

    @property
    def stopped(self) -> bool:
        """Whether the table was told to stop (or stopped by itself: a game over, a
        journal failure)."""
        return self._done.is_set()

    def stop(self) -> None:
        """Ask :meth:`wait_done` to return (for a signal handler or the host's player)."""
        self._done.set()

    def end_for_everyone(self) -> None:
        """The host's own player left on purpose: tell everyone at once that the game
        ended (``over`` with no winner, then ``bye shutdown``), before that player's own
        goodbye could reach the table and read as a dropped seat.  :meth:`close` still
        takes the rest down; it does not make the journal durable."""
        if not self._closing:
            self._run(self.core.shutdown(ByeReason.SHUTDOWN, self.now(), abandon=True))

    async def close(self, reason: ByeReason = ByeReason.SHUTDOWN, *, abandon: bool = False
                    ) -> None:
        """Say bye to everyone after what they are owed, make the journal durable
        (records appended by the caller too, such as the end mark), stop listening.
        ``abandon``: a game still being played ends for everyone (each is told
        ``over`` with no winner first).  Closing again does nothing more."""
        if not self._closing:
            self._closing = True
            if self._thinking is not None:
                self._thinking.cancel()  # its answer is not wanted any more
                self._thinking = None
            if self._bot_thread is not None:
                self._bot_thread.shutdown(wait=False)
                self._bot_thread = None
            for task in self._probes.values():
                task.cancel()
            self._probes.clear()
            self._run(self.core.shutdown(reason, self.now(), abandon=abandon))
            for conn in list(self.conns.values()):
                conn.close()
            self._stop_listening()
        for server in [self._server, *self._more]:
            if server is not None:
                await server.wait_closed()

    def _stop_listening(self) -> None:
        for server in [self._server, *self._more]:
            if server is not None:
                server.close()

    def adopt(self, transport: asyncio.Transport, data: bytes) -> None:
        """Take over a connection accepted elsewhere (a standby's, which held it for
        this new host), as if it had just connected here and sent ``data``."""
        conn = self._factory()
        transport.set_protocol(conn)
        conn.connection_made(transport)
        if data:
            conn.data_received(data)

    def _factory(self) -> Connection:
        cid = self._next_cid
        self._next_cid += 1
        return Connection(self, cid, max_unsent=self.options.max_unsent)

    # -- what happens (each a Connection's report, the timer or the bot thread) -----------

    def connected(self, conn: Connection) -> None:
        self.conns[conn.cid] = conn
        self._run(self.core.opened(conn.cid, conn.address, self.now()))

    def received(self, conn: Connection, data: bytes) -> None:
        self._run(self.core.received(conn.cid, data, self.now()))

    def lost(self, conn: Connection) -> None:
        if self.conns.pop(conn.cid, None) is not None:
            self._run(self.core.closed(conn.cid, self.now()))

    def fell_behind(self, conn: Connection) -> None:
        """``conn`` left too much output unread: the core drops it at once."""
        log.info("connection %d: %d bytes unread, dropped", conn.cid, conn.unsent)
        self._run(self.core.fell_behind(conn.cid, self.now()))

    def _on_timer(self) -> None:
        self._timer = None
        self._run(self.core.tick(self.now()))

    def _decided(self, ticket: int, future: asyncio.Future[Move]) -> None:
        if future is self._thinking:
            self._thinking = None
        if future.cancelled():
            return
        exc = future.exception()
        now = self.now()
        if exc is not None:
            self._run(self.core.bot_failed(ticket, exc, now))
        else:
            self._run(self.core.bot_decided(ticket, future.result(), now))

    def _sync_failed(self, exc: OSError) -> None:
        """The journal cannot be written or made durable: cut it back to what players
        were shown, and write the core's last words at once (they depend on nothing)."""
        log.info("the journal cannot be saved (%s); closing the table", exc)
        if self.journal is not None and not self.journal.rollback():
            log.warning("the journal could not be cut back to its last durable record")
        self._execute(self.core.journal_failed(exc, self.now()), durable=False)

    # -- what the core asks --------------------------------------------------------------

    def _probe(self, effect: Probe) -> None:
        """Ask seat ``effect.pid``'s laptop what it hosts (one probe at a time each)."""
        if self._closing or effect.pid in self._probes or not self.options.table_id:
            return
        task = asyncio.get_running_loop().create_task(
            probe(effect.addrs, effect.port, self.options.table_id)
        )
        self._probes[effect.pid] = task
        task.add_done_callback(functools.partial(self._probed, effect.pid))

    def _probed(self, pid: int, task: asyncio.Task[tuple[Sighting, ProbeLink] | None]) -> None:
        if self._probes.get(pid) is task:
            del self._probes[pid]
        if task.cancelled() or task.exception() is not None:
            return
        found = task.result()
        if found is None:
            return
        seen, link = found
        if self._closing:
            link.close()
            return
        who = seen.pid if seen.pid is not None else pid
        self._links[who] = link
        try:
            self._run(self.core.newer_epoch(seen.epoch, who, self.now()))
        finally:
            self._links.pop(who, None)
            link.close()

    def _refute(self, effect: Refute) -> None:
        link = self._links.get(effect.pid)
        if link is not None:
            link.tell(effect.error)

    def handover(self) -> bool:
        """The host leaves on purpose: hand the table to the first laptop connected
        (see :meth:`HostCore.handover`); False when there is none."""
        if not self.core.can_hand_over():
            return False
        self._run(self.core.handover(self.now()))
        return True

    def play_alone(self) -> bool:
        """The person at this host chose to play on alone while it is cut off from
        most of the table's laptops (see :meth:`HostCore.play_alone`): a game of its
        own from now, never the table's; False when there is nothing to choose."""
        if not self.core.paused:
            return False
        self._run(self.core.play_alone(self.now()))
        return self.core.alone

    def _run(self, effects: list[Effect]) -> None:
        self._execute(effects)
        self._arm_timer()
        cut = self.core.paused and not self._closing
        if cut != self._cut_off:
            self._cut_off = cut
            if self.on_cut_off is not None:
                self.on_cut_off(cut)

    def advert(self, epoch: int, addrs: tuple[str, ...], port: int) -> None:
        """An advert of this table on the LAN at ``epoch`` (``addrs``, ``port``): the
        core decides whether to probe a laptop there (:meth:`HostCore.advert`)."""
        if not self._closing:
            self._run(self.core.advert(epoch, tuple(addrs), port, self.now()))

    def _execute(self, effects: list[Effect], durable: bool = True) -> None:
        """Carry out ``effects`` in order; the output waits for the journal's sync
        (``durable``), which every record appended before it shares."""
        out: list[tuple[Sink, bytes, bool]] = []
        for effect in effects:
            match effect:  # every kind of effect (mypy checks that none is left out)
                case Send(cid, data):
                    if cid in self.conns:
                        out.append((self.conns[cid], data, False))
                case Close(cid, linger):
                    if cid in self.conns:
                        conn = self.conns[cid]
                        out.append((conn if linger is None else _Dropped(conn, linger), b"", True))
                case Append(record):
                    if self.journal is not None:
                        self.journal.append(record)
                    if record.get("k") == "moved":  # handed over, or stepped down
                        self.moved_to = (int(record["epoch"]), int(record["pid"]))
                case PauseInput(cid, seconds):
                    if cid in self.conns:
                        self.conns[cid].pause_input(seconds)
                case Think(ticket, turn):
                    self._think(ticket, turn)
                case SummaryChanged(summary):
                    if self.on_change is not None:
                        self.on_change(summary)
                case RosterChanged():
                    if self.on_roster is not None:
                        self.on_roster()
                case StopListening():
                    self._stop_listening()
                case Stop():
                    self._done.set()
                case Probe():
                    self._probe(effect)
                case Refute():
                    self._refute(effect)
                case _:
                    assert_never(effect)
        if durable:
            self._outbox.put(out)
        else:
            write_now(out)

    def _think(self, ticket: int, turn: BotTurn) -> None:
        """Run a blocking bot's decision on the bot thread (one at a time)."""
        if self._closing:
            return
        if self._bot_thread is None:
            self._bot_thread = ThreadPoolExecutor(1, thread_name_prefix="sorry-lan-bot")
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self._bot_thread, turn.decide)
        self._thinking = future
        future.add_done_callback(functools.partial(self._decided, ticket))

    def _arm_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        when = self.core.next_wakeup()
        if when is not None and not self._closing:
            self._timer = asyncio.get_running_loop().call_at(when, self._on_timer)

    # -- queries -------------------------------------------------------------------------

    def summary(self) -> TableSummary:
        return self.core.summary()

    def lobby_message(self) -> m.Lobby:
        """The lobby as every connection is told it now."""
        return self.core.lobby_message()


class _Dropped:
    """A connection to drop once its output is written: ``close`` ends our side and
    cuts it after ``linger`` seconds (see :meth:`Connection.drop`)."""

    def __init__(self, conn: Connection, linger: float) -> None:
        self.conn = conn
        self.linger = linger

    def write(self, data: bytes) -> None:
        self.conn.write(data)

    def close(self) -> None:
        self.conn.drop(b"", self.linger)

