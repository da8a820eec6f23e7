"""The host's asyncio server: connections, sessions, the table, heartbeats, the journal.

:class:`HostServer` listens on a TCP socket (its own, or one the caller hands in),
runs one :class:`~sorry_lan.wire.session.HostSession` per connection and forwards
what players ask for to a :class:`~sorry_lan.net.table.Table`, which is the sole
authority over the game.  After every change it sends each connection what that
connection may see (``convert``), and it sends nothing that depends on a journal
record before that record is on stable storage.  Records go to the operating system
at once and are synced once per round of input (every record written while handling
one read shares one ``fdatasync``); only then is that round's output written.  With
``HostOptions(sync_thread=True)`` (or a ``sync_worker``) the sync runs instead in a
:class:`~sorry_lan.net.journal.SyncWorker` thread while the event loop goes on, and
the held output is released, in order, when the thread says so (records written
meanwhile share the next sync).  Either way output never overtakes earlier output
held back for the journal, even output that depends on no record.

It does not advertise the game on the network: give it an ``on_change`` callback
(the discovery layer's advertiser) and it reports the table's summary on every
change.  It does not render anything or read a keyboard.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import socket
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from sorry_lan.rules import Event
from sorry_lan.wire import messages as m
from sorry_lan.wire.auth import pin_key
from sorry_lan.wire.codec import encode
from sorry_lan.wire.errors import ErrorReason, LocalProtocolError
from sorry_lan.wire.limits import PID_MAX
from sorry_lan.wire.session import HostSession
from sorry_lan.wire.table import State

from . import convert
from .journal import SyncWorker, release_worker, shared_worker
from .table import Phase, Player, Table, TableError

log = logging.getLogger(__name__)

DEFAULT_PORT = 47474


class HostError(Exception):
    """The server could not start (port in use, bad address); the text is for people."""


@dataclass
class HostOptions:
    """Connection limits and timings (seconds)."""

    pin: str | None = None
    name: str = "sorry-lan"
    max_connections: int = 64
    hello_timeout: float = 5.0  # a connection that has not said hello by then is dropped
    heartbeat: float = 5.0  # ping an idle connection this often
    dead_after: float = 20.0  # nothing heard for this long: the peer is gone
    chat_burst: int = 5  # chat lines allowed at once ...
    chat_rate: float = 0.5  # ... refilled at this many per second
    stay: bool = False  # keep serving after a headless game ends
    sync_thread: bool = False  # sync the journal in the process's worker thread
    sweep: float = 0.5  # how often timeouts are checked


@dataclass(frozen=True)
class TableSummary:
    """What a discovery advertiser publishes about the table."""

    name: str
    variant: str
    phase: str
    seats_taken: int
    seats: int
    pin: bool
    port: int


class _Conn(asyncio.Protocol):
    def __init__(self, server: HostServer, cid: int) -> None:
        self.server = server
        self.cid = cid
        self.session = HostSession(pin_key=server.pin_key)
        self.transport: asyncio.Transport | None = None
        now = server.now()
        self.opened = now
        self.heard = now
        self.pinged = now
        self.ping_n = 0
        self.chat_tokens = float(server.options.chat_burst)
        self.chat_at = now
        self.closed = False
        self.lobby_revision = -1  # the table revision of the last lobby sent here

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        with contextlib.suppress(OSError):
            sock = transport.get_extra_info("socket")
            if sock is not None:
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.server._connected(self)

    def data_received(self, data: bytes) -> None:
        self.heard = self.server.now()
        self.server._received(self, data)

    def connection_lost(self, exc: Exception | None) -> None:
        if exc is not None:
            log.debug("connection %d: %s", self.cid, exc)
        self.closed = True
        self.session.connection_lost()
        self.server._lost(self)

    def write(self, data: bytes) -> None:
        if data and self.transport is not None and not self.closed:
            self.transport.write(data)

    def close(self) -> None:
        """Close after what was written; nothing written later goes out."""
        if self.transport is not None and not self.closed:
            self.transport.close()
        self.closed = True


Batch = list[tuple[_Conn, bytes, bool]]  # a connection, its output, close after it
Shared = tuple[m.Message, bytes | None]  # a message and its frame, encoded once


class HostServer:
    """One table served over TCP.  ``await start()``, then ``await wait_done()``, then
    ``await close()`` (which returns once the journal is durable and the last output,
    a ``bye``, is written).

    ``sync_worker`` is a thread that makes the journal durable; with
    ``options.sync_thread`` and none given, the process's shared one
    (:func:`~sorry_lan.net.journal.shared_worker`), taken at :meth:`start` and given
    back at :meth:`close`; with neither, the event loop syncs (measured faster on a
    busy 2-core machine: a Python thread pays for the GIL and two wake-ups per sync,
    see ``scripts/bench_host.py``).  If a sync fails, the server
    refuses to go on without durability: it sends no held output, says ``bye``
    (error) to everyone and lets :meth:`wait_done` return; :attr:`failure` says why.
    """

    def __init__(
        self,
        table: Table,
        options: HostOptions | None = None,
        on_change: Callable[[TableSummary], None] | None = None,
        sync_worker: SyncWorker | None = None,
    ) -> None:
        self.table = table
        self.options = options or HostOptions()
        self.on_change = on_change
        self.pin_key = pin_key(self.options.pin) if self.options.pin else None
        self.conns: dict[int, _Conn] = {}
        self.address: tuple[str, int] = ("", 0)
        self._next_cid = 1
        self._server: asyncio.Server | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self._dirty: set[_Conn] = set()
        self._sent_revision = -1
        self._done = asyncio.Event()
        self.journal = table.journal
        if self.journal is not None:
            self.journal.sync = False  # we commit in groups, off the event loop
        self._given_worker = sync_worker
        self._worker: SyncWorker | None = None
        self._held: deque[tuple[int, Batch]] = deque()  # (records needed, output)
        self._syncing = False  # a request to the worker is in flight
        self._drained: asyncio.Event | None = None
        self.failure: OSError | None = None

    # -- life cycle ----------------------------------------------------------------------

    @staticmethod
    def now() -> float:
        return asyncio.get_running_loop().time()

    async def start(
        self, host: str = "0.0.0.0", port: int = DEFAULT_PORT, sock: socket.socket | None = None
    ) -> tuple[str, int]:
        """Listen (on ``sock`` if given); returns the address actually bound."""
        loop = asyncio.get_running_loop()
        try:
            if sock is not None:
                self._server = await loop.create_server(self._factory, sock=sock)
            else:
                self._server = await loop.create_server(
                    self._factory, host, port, reuse_address=True, backlog=256
                )
        except OSError as exc:
            if exc.errno in (errno.EADDRINUSE, 10048):
                raise HostError(
                    f"port {port} is already in use on {host or 'this machine'} (is another "
                    "sorry-lan host running?); choose another with --port"
                ) from None
            if exc.errno in (errno.EADDRNOTAVAIL, 10049):
                raise HostError(f"{host} is not an address of this machine (--bind)") from None
            raise HostError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
        bound = self._server.sockets[0].getsockname()
        self.address = (str(bound[0]), int(bound[1]))
        if self.journal is not None and self._worker is None:
            if self._given_worker is not None:
                self._worker = self._given_worker
            elif self.options.sync_thread:
                self._worker = shared_worker()
        self._sweeper = asyncio.create_task(self._sweep())
        self._after_change([])
        return self.address

    async def wait_done(self) -> None:
        """Return when a headless table's game is over (and it was not told to stay)."""
        await self._done.wait()

    def stop(self) -> None:
        """Ask :meth:`wait_done` to return (for a signal handler or the host's player)."""
        self._done.set()

    async def close(self, reason: m.ByeReason = m.ByeReason.SHUTDOWN) -> None:
        """Say bye to everyone after what they are owed, make the journal durable
        (records appended by the caller too, such as the end mark), stop listening."""
        if self._timer is not None:
            self._timer.cancel()
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        if self._server is not None:
            self._server.close()
        for conn in list(self.conns.values()):
            with contextlib.suppress(LocalProtocolError):
                conn.session.close(reason)
            self._dirty.add(conn)
        self._flush(commit=True)
        await self._settled()
        for conn in list(self.conns.values()):
            conn.close()
        if self._worker is not None:
            if self._given_worker is None:
                release_worker()
            self._worker = None
        if self._server is not None:
            await self._server.wait_closed()

    def _factory(self) -> _Conn:
        cid = self._next_cid
        self._next_cid += 1
        return _Conn(self, cid)

    # -- connections ---------------------------------------------------------------------

    def _connected(self, conn: _Conn) -> None:
        if len(self.conns) >= self.options.max_connections:
            conn.session.refuse(m.RefuseReason.FULL, "the host has too many connections")
            conn.write(conn.session.data_to_send())
            conn.close()
            return
        self.conns[conn.cid] = conn

    def _lost(self, conn: _Conn) -> None:
        if self.conns.pop(conn.cid, None) is None:
            return
        if conn.session.state is State.GREETING:
            log.debug("connection %d closed before saying hello (a probe?)", conn.cid)
        self._dirty.discard(conn)
        quit_ = conn.session.state is State.CLOSED and conn.session.error is None
        self.table.disconnect(conn.cid, self.now(), quit=quit_)
        self._after_change([])

    def _received(self, conn: _Conn, data: bytes) -> None:
        if conn.cid not in self.conns:
            return
        try:
            messages = conn.session.receive_data(data)
        except LocalProtocolError:  # an answer the session could not send
            messages = []
        self._dirty.add(conn)
        events: list[Event] = []
        for msg in messages:
            try:
                events += self._handle(conn, msg)
            except TableError as exc:
                self._refuse_or_error(conn, exc)
            except LocalProtocolError as exc:
                log.warning("connection %d: cannot answer: %s", conn.cid, exc)
        if conn.session.closed and conn.session.join_request is not None:
            # a bye: free the seat now rather than when the socket goes
            self.table.disconnect(conn.cid, self.now(), quit=conn.session.error is None)
        self._after_change(events)

    def _refuse_or_error(self, conn: _Conn, exc: TableError) -> None:
        if conn.session.state is State.JOINING:
            conn.session.refuse(m.RefuseReason(exc.code), exc.text)
            return
        try:
            reason = ErrorReason(exc.code)
        except ValueError:
            reason = ErrorReason.BAD_VALUE
        self._send(conn, m.Error(reason=reason, text=m.clip_text(exc.text), fatal=False))

    def _send(self, conn: _Conn, msg: m.Message, frame: bytes | None = None) -> None:
        """Queue ``msg`` (``frame``: its encoding, when shared with other connections)."""
        try:
            conn.session.send(msg, frame)
        except LocalProtocolError as exc:
            log.debug("connection %d: not sending %s: %s", conn.cid, msg.TYPE.value, exc)
            return
        self._dirty.add(conn)

    # -- what clients ask ------------------------------------------------------------------

    def _handle(self, conn: _Conn, msg: m.Message) -> list[Event]:
        table = self.table
        now = self.now()
        if isinstance(msg, m.Hello):
            self._admit(conn, msg, now)
        elif isinstance(msg, m.Spectate):
            table.spectate(conn.cid)
            conn.session.welcome(None, None)
            self._send_state(conn)
        elif isinstance(msg, m.ChooseColour):
            table.choose_colour(conn.cid, int(msg.colour))
        elif isinstance(msg, m.Ready):
            table.set_ready(conn.cid, msg.ready)
        elif isinstance(msg, m.AddBot):
            table.add_bot(conn.cid, None if msg.colour is None else int(msg.colour), msg.level)
        elif isinstance(msg, m.RemoveBot):
            table.remove_bot(conn.cid, msg.pid)
        elif isinstance(msg, m.SetVariant):
            from sorry_lan.rules import Variant

            table.set_variant(conn.cid, Variant(msg.variant.value))
        elif isinstance(msg, m.Start):
            table.start(conn.cid, now)
            self._begin_game()
        elif isinstance(msg, m.Move):
            return table.play(conn.cid, msg.sid, msg.id, now)
        elif isinstance(msg, m.Rematch):
            if table.ask_rematch(conn.cid, now):
                self._begin_game(rematch=True)
        elif isinstance(msg, m.Chat):
            self._chat(conn, msg, now)
        elif isinstance(msg, m.Resync):
            self._send_state(conn)
        return []

    def _admit(self, conn: _Conn, hello: m.Hello, now: float) -> None:
        table = self.table
        if hello.token is not None:
            player = table.player_by_token(hello.token)
            old = None if player is None or player.conn is None else self.conns.get(player.conn)
            player = table.reclaim(conn.cid, hello.token, now)
            if old is not None and old is not conn:
                with contextlib.suppress(LocalProtocolError):
                    old.session.close(m.ByeReason.REPLACED)
                old.write(old.session.data_to_send())
                old.close()
            token = hello.token
            log.info("%s is back at seat %d", player.name, player.colour)
        else:
            if table.phase is Phase.LOBBY and len(table.players) >= PID_MAX:
                raise TableError("full", "the table is full")
            player, token = table.join(conn.cid, hello.name)
            log.info("%s joined as %d", player.name, player.colour)
        conn.session.welcome(player.pid, token, owner=player.pid == table.owner, name=player.name)
        self._send_state(conn)

    def _chat(self, conn: _Conn, msg: m.Chat, now: float) -> None:
        opts = self.options
        conn.chat_tokens = min(
            float(opts.chat_burst), conn.chat_tokens + (now - conn.chat_at) * opts.chat_rate
        )
        conn.chat_at = now
        if conn.chat_tokens < 1:
            raise TableError("rate_limited", "too many chat lines; wait a moment")
        conn.chat_tokens -= 1
        player = self.table.player_of(conn.cid)
        if player is None:
            raise TableError("forbidden", "spectators cannot chat")
        line = _shared(m.Chat(pid=player.pid, text=msg.text))
        for other in self._welcomed():
            self._send(other, *line)

    # -- what clients are told ------------------------------------------------------------

    def _welcomed(self) -> list[_Conn]:
        return [
            c
            for c in self.conns.values()
            if c.session.state in (State.LOBBY, State.PLAYING, State.GAME_OVER)
        ]

    def _seat_of(self, conn: _Conn) -> int | None:
        player = self.table.player_of(conn.cid)
        return None if player is None else player.colour

    def lobby_message(self) -> m.Lobby:
        table = self.table
        players = tuple(
            m.PlayerInfo(
                pid=p.pid,
                name=p.name,
                colour=p.colour,  # type: ignore[arg-type]
                bot=p.bot,
                ready=p.ready,
                connected=p.connected,
            )
            for p in sorted(table.players.values(), key=lambda p: p.colour)
        )
        return m.Lobby(
            variant=convert.wire_variant(table.variant),
            seats=table.config.seats,
            host=table.owner,
            players=players,
            spectators=min(len(table.spectators), 1000),
        )

    def _send_lobby(self, conn: _Conn, lobby: m.Message, frame: bytes | None = None) -> None:
        conn.lobby_revision = self.table.revision
        self._send(conn, lobby, frame)

    def _send_state(self, conn: _Conn) -> None:
        """The lobby and, during a game, the full snapshot of this connection's seat."""
        self._send_lobby(conn, self.lobby_message())
        game = self.table.game
        if game is None:
            return
        seat = self._seat_of(conn)
        self._send(conn, convert.snapshot(game, seat))
        if game.over:
            self._send(conn, convert.game_over(game))
        else:
            self._send(conn, convert.turn(game, seat))
            self._offer(conn, seat)

    def _offer(self, conn: _Conn, seat: int | None) -> None:
        game = self.table.game
        if game is not None and not game.over and seat == game.turn:
            self._send(conn, convert.legal_moves(game, self.table.config.turn_timeout))

    def _begin_game(self, rematch: bool = False) -> None:
        game = self.table.game
        assert game is not None
        lobby = _shared(self.lobby_message())
        again = _shared(m.Rematch()) if rematch else None
        public_turn = _shared(convert.turn(game, None))
        self._sent_revision = self.table.revision
        for conn in self._welcomed():
            if again is not None:
                self._send(conn, *again)
            self._send_lobby(conn, *lobby)
            seat = self._seat_of(conn)
            self._send(conn, convert.snapshot(game, seat))
            self._send_turn(conn, seat, public_turn)

    def _send_turn(self, conn: _Conn, seat: int | None, public: Shared) -> None:
        """The ``turn`` (``public`` unless it carries this seat's hand), then the offer."""
        game = self.table.game
        assert game is not None
        if seat == game.turn and game.variant.uses_hands:
            self._send(conn, convert.turn(game, seat))
        else:
            self._send(conn, *public)
        self._offer(conn, seat)

    def _broadcast_events(self, events: list[Event]) -> None:
        """Tell every welcomed connection what happened, then the turn or the end.

        What a seat may learn of the events is the same for every seat (a card drawn
        into a hand travels only in its owner's ``turn``), so those messages, like the
        public ``turn`` and ``over``, are built and encoded once for everyone."""
        game = self.table.game
        if game is None or not events:
            return
        conns = self._welcomed()
        if not conns:
            return
        shared = [_shared(msg) for msg in convert.events_messages(game, events, None)]
        if game.over:
            shared.append(_shared(convert.game_over(game)))
            for conn in conns:
                for msg, frame in shared:
                    self._send(conn, msg, frame)
            return
        public_turn = _shared(convert.turn(game, None))
        for conn in conns:
            for msg, frame in shared:
                self._send(conn, msg, frame)
            self._send_turn(conn, self._seat_of(conn), public_turn)

    def _after_change(self, events: list[Event]) -> None:
        """Tell everyone what changed, run what is due, re-arm the timer, flush."""
        self._broadcast_events(events)
        table = self.table
        if table.can_auto_start():
            table.start(None, self.now())
            self._begin_game()
        self._run_due()
        if table.revision != self._sent_revision:
            self._sent_revision = table.revision
            lobby = _shared(self.lobby_message())
            for conn in self._welcomed():
                if conn.lobby_revision != table.revision:  # not just told (a join)
                    self._send_lobby(conn, *lobby)
            if self.on_change is not None:
                self.on_change(self.summary())
        self._arm_timer()
        self._flush()
        if table.phase is Phase.OVER and table.config.auto_start and not self.options.stay:
            self._done.set()

    def _run_due(self) -> None:
        results = self.table.tick(self.now())
        for _move, events in results:
            self._broadcast_events(events)

    def _arm_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        deadline = self.table.next_deadline()
        if deadline is not None:
            self._timer = asyncio.get_running_loop().call_at(deadline, self._on_timer)

    def _on_timer(self) -> None:
        self._timer = None
        self._after_change([])

    def summary(self) -> TableSummary:
        t = self.table
        return TableSummary(
            name=self.options.name,
            variant=t.variant.value,
            phase=t.phase.value,
            seats_taken=len(t.players),
            seats=t.config.seats,
            pin=self.pin_key is not None,
            port=self.address[1],
        )

    # -- output, after the journal is safe -------------------------------------------------

    def _flush(self, commit: bool = False) -> None:
        """Write what each connection was sent, or hold it until every journal record
        appended so far is durable (and ask the worker for that).  ``commit``: make
        the journal durable even if nothing is held (closing)."""
        batch = [(c, c.session.data_to_send(), c.session.closed) for c in self._dirty]
        self._dirty.clear()
        batch = [b for b in batch if b[1]]
        journal = self.journal
        if journal is None or self.failure is not None:
            if self.failure is None:
                self._write(batch)
            return
        need = journal.appended
        if not self._held and need <= journal.synced:
            self._write(batch)
            return
        if batch or (commit and need > journal.synced):
            self._held.append((need, batch))
        self._ask_sync()

    def _ask_sync(self) -> None:
        journal, worker = self.journal, self._worker
        if journal is None or self._syncing or journal.synced >= journal.appended:
            return
        if worker is None:  # sync here, on the event loop
            try:
                journal.synced = max(journal.synced, journal.flush_to_disk())
            except OSError as exc:
                self._sync_failed(exc)
                return
            self._release()
            return
        self._syncing = True
        worker.request(journal).add_done_callback(self._synced)

    def _synced(self, fut: asyncio.Future[int]) -> None:
        self._syncing = False
        if fut.cancelled():
            return
        exc = fut.exception()
        if exc is not None:
            assert isinstance(exc, OSError)
            self._sync_failed(exc)
            return
        journal = self.journal
        assert journal is not None
        journal.synced = max(journal.synced, fut.result())
        self._release()
        self._ask_sync()  # records appended while that sync ran

    def _release(self) -> None:
        journal = self.journal
        assert journal is not None
        while self._held and self._held[0][0] <= journal.synced:
            self._write(self._held.popleft()[1])
        if not self._held and self._drained is not None:
            self._drained.set()

    async def _settled(self) -> None:
        """Wait until nothing is held for the journal (or a sync failed)."""
        while self._held and self.failure is None:
            self._drained = asyncio.Event()
            await self._drained.wait()
        self._drained = None

    def _sync_failed(self, exc: OSError) -> None:
        """The journal cannot be made durable: send nothing more that depends on it."""
        if self.failure is not None:
            return
        self.failure = exc
        log.error("the journal cannot be saved (%s); closing the table", exc)
        self._held.clear()
        if self._server is not None:
            self._server.close()
        for conn in list(self.conns.values()):
            conn.session.data_to_send()  # drop output that may depend on those records
            with contextlib.suppress(LocalProtocolError):
                conn.session.close(m.ByeReason.ERROR)
            conn.write(conn.session.data_to_send())
            conn.close()
        if self._drained is not None:
            self._drained.set()
        self._done.set()

    @staticmethod
    def _write(batch: Batch) -> None:
        for conn, data, last in batch:
            conn.write(data)
            if last:
                conn.close()

    # -- timeouts --------------------------------------------------------------------------

    async def _sweep(self) -> None:
        opts = self.options
        while True:
            await asyncio.sleep(opts.sweep)
            now = self.now()
            for conn in list(self.conns.values()):
                state = conn.session.state
                if state in (State.GREETING, State.JOINING, State.PROVING):
                    if now - conn.opened > opts.hello_timeout:
                        log.info("connection %d: no hello in time, dropped", conn.cid)
                        with contextlib.suppress(LocalProtocolError):
                            conn.session.close(m.ByeReason.TIMEOUT)
                        conn.write(conn.session.data_to_send())
                        conn.close()
                    continue
                if now - conn.heard > opts.dead_after:
                    log.info("connection %d: silent, dropped", conn.cid)
                    conn.close()
                elif now - conn.pinged >= opts.heartbeat and now - conn.heard >= opts.heartbeat:
                    conn.pinged = now
                    conn.ping_n = (conn.ping_n + 1) % 2**32
                    self._send(conn, m.Ping(n=conn.ping_n))
            self._flush()


def _shared(msg: m.Message) -> Shared:
    """``msg`` with its frame, for sending the same bytes to many connections (no
    frame if it cannot be encoded: each send then reports why)."""
    try:
        return msg, encode(msg)
    except LocalProtocolError:
        return msg, None


def seat_names(table: Table) -> dict[int, Player]:
    """The players by colour (for printing)."""
    return {p.colour: p for p in table.players.values()}
