"""The host's asyncio server: listening, life cycle, the table, timers, limits, broadcast.

:class:`HostServer` listens on a TCP socket (its own, or one the caller hands in),
runs one :class:`~sorry_lan.net.connection.Connection` (with its wire session) per
connection and forwards what players ask for to a
:class:`~sorry_lan.authority.table.Table`, which is the sole authority over the game.
After every change it has :class:`~sorry_lan.net.announce.Announcer` tell each
connection what that connection may see, then hands the round's output to a
:class:`~sorry_lan.net.outbox.DurableOutbox`, which writes nothing that depends on
a journal record before that record is on stable storage.  Records go to the
operating system at once and are synced once per round of input (every record
written while handling one read shares one ``fdatasync``, made on the event loop);
only then is that round's output written.  It enforces the limits (connections,
hello timeout, chat and resync rates, unread output: a connection that leaves more
than ``max_unsent`` bytes unread is dropped with ``bye`` timeout, one that floods
requests past their rate with ``bye`` kicked) and sends heartbeats.

It does not advertise the game on the network: give it an ``on_change`` callback
(the discovery layer's advertiser) and it reports the table's summary on every
change.  It does not render anything or read a keyboard, and it does not build
messages or hold output itself (``announce`` and ``outbox`` do).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import socket
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from sorry_lan.authority.admission import PinThrottle, to_evict
from sorry_lan.authority.table import (
    BotTurn,
    JoinRefused,
    RequestRefused,
    Table,
)
from sorry_lan.bots.expert import ExpertBot
from sorry_lan.codes import Coded, HostFailure, Place
from sorry_lan.rules import Event, Phase, Variant
from sorry_lan.wire import messages as m
from sorry_lan.wire.auth import pin_key
from sorry_lan.wire.errors import ErrorReason, LocalProtocolError
from sorry_lan.wire.limits import DEFAULT_PORT
from sorry_lan.wire.transitions import State
from sorry_lan.wire.vocab import ByeReason, RefuseReason, clip_text

from .announce import Announcer, shared
from .connection import Connection
from .gcsettle import settle
from .journal import Journal
from .outbox import DurableOutbox

log = logging.getLogger(__name__)


class HostError(Coded):
    """The table could not be hosted: a :class:`~sorry_lan.codes.HostFailure` (the port
    is in use, the address is not this machine's...) with its fields."""


@dataclass
class HostOptions:
    """Connection limits and timings (seconds)."""

    pin: str | None = None
    name: str = "sorry-lan"
    max_waiting: int = 64  # connections not yet admitted, from all addresses ...
    max_waiting_per_address: int = 8  # ... and from one (the oldest make room)
    hello_timeout: float = 5.0  # a connection not admitted by then is dropped
    pin_throttle: PinThrottle = field(default_factory=PinThrottle)
    heartbeat: float = 5.0  # ping an idle connection this often
    dead_after: float = 20.0  # nothing heard for this long: the peer is gone
    chat_burst: int = 5  # chat lines allowed at once ...
    chat_rate: float = 0.5  # ... refilled at this many per second
    resync_burst: int = 3  # resyncs answered at once ...
    resync_rate: float = 1.0  # ... refilled at this many per second
    max_unsent: int = 256 * 1024  # output a connection may leave unread before it is dropped
    flood_limit: int = 50  # rate-limited requests in one read that get a connection dropped
    drop_linger: float = 2.0  # a dropped connection's bye may take this long to be read
    stay: bool = False  # keep serving after a headless game ends
    sweep: float = 0.5  # how often timeouts are checked


@dataclass(frozen=True)
class TableSummary:
    """What a discovery advertiser publishes about the table."""

    name: str
    variant: Variant
    phase: Phase
    seats_taken: int
    seats: int
    pin: bool
    port: int


class HostServer:
    """One table served over TCP.  ``await start()``, then ``await wait_done()``, then
    ``await close()`` (which returns once the journal is durable and the last output,
    a ``bye``, is written).

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
        self.pin_key = pin_key(self.options.pin) if self.options.pin else None
        self.conns: dict[int, Connection] = {}
        self.address: tuple[str, int] = ("", 0)
        self._next_cid = 1
        self._server: asyncio.Server | None = None
        self._more: list[asyncio.Server] = []  # the same port on further addresses
        self.also: list[tuple[str, int]] = []  # those addresses, as bound
        self._timer: asyncio.TimerHandle | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self._dirty: set[Connection] = set()
        self._sent_revision = -1
        self._told_summary: TableSummary | None = None  # what on_change last heard
        self._done = asyncio.Event()
        journal = table.journal
        if journal is not None and not isinstance(journal, Journal):
            raise TypeError("a hosted table must journal to a Journal file (the host syncs it)")
        self.journal = journal
        self._outbox = DurableOutbox(self.journal, self._sync_failed)
        self._tell: Announcer[Connection] = Announcer(table, self._send)
        # A table resumed with its game already over (the host died after the last
        # move): the people seated, until each came back and was told the result.
        self._owed: set[int] = set()
        self._owed_until = 0.0
        # The expert searches on this thread, so no connection waits on it.
        self._bot_thread: ThreadPoolExecutor | None = None
        self._thinking: asyncio.Task[None] | None = None

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
            if exc.errno in (errno.EADDRINUSE, 10048):
                where = host or Place.THIS_MACHINE
                raise HostError(HostFailure.PORT_IN_USE, port=port, host=where) from None
            if exc.errno in (errno.EADDRNOTAVAIL, 10049):
                raise HostError(HostFailure.NOT_LOCAL, host=host) from None
            why = exc.strerror or str(exc)
            raise HostError(HostFailure.CANNOT_LISTEN, host=host, port=port, why=why) from None
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
        self._sweeper = asyncio.create_task(self._sweep())
        if self.table.phase is Phase.FINISHED:
            self._owed = {p.pid for p in self.table.players.values() if not p.bot}
            self._owed_until = self.now() + self.table.config.grace
        self._after_change([])
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

    async def close(self, reason: ByeReason = ByeReason.SHUTDOWN) -> None:
        """Say bye to everyone after what they are owed, make the journal durable
        (records appended by the caller too, such as the end mark), stop listening."""
        if self._timer is not None:
            self._timer.cancel()
        if self._thinking is not None:
            self._thinking.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._thinking
        if self._bot_thread is not None:
            self._bot_thread.shutdown(wait=False)
            self._bot_thread = None
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        self._stop_listening()
        for conn in list(self.conns.values()):
            with contextlib.suppress(LocalProtocolError):
                conn.session.close(reason)
            self._dirty.add(conn)
        self._flush()
        for conn in list(self.conns.values()):
            conn.close()
        for server in [self._server, *self._more]:
            if server is not None:
                await server.wait_closed()

    def _stop_listening(self) -> None:
        for server in [self._server, *self._more]:
            if server is not None:
                server.close()

    def _factory(self) -> Connection:
        cid = self._next_cid
        self._next_cid += 1
        opts = self.options
        return Connection(
            self,
            cid,
            pin_key=self.pin_key,
            chat_burst=opts.chat_burst,
            resync_burst=opts.resync_burst,
            max_unsent=opts.max_unsent,
        )

    # -- connections (called by each Connection) ------------------------------------------

    def connected(self, conn: Connection) -> None:
        """A new connection: make room among those not yet admitted (the oldest from
        the busiest address go, so a newcomer always gets its chance to say hello)."""
        opts = self.options
        waiting = [
            (c, c.address, c.opened)
            for c in self.conns.values()
            if c.session.join_request is None and not c.closed
        ]
        for old in to_evict(waiting, conn.address, opts.max_waiting_per_address, opts.max_waiting):
            log.info("connection %d from %s: too many waiting, closed", old.cid, old.address)
            self._refuse_busy(old, "too many connections are waiting to join; try again")
        conn.session.pin_policy = _Pin(self, conn.address)
        self.conns[conn.cid] = conn

    def _refuse_busy(self, conn: Connection, text: str) -> None:
        """Refuse (``busy``) and close a connection not admitted yet, at once."""
        with contextlib.suppress(LocalProtocolError):
            conn.session.refuse(RefuseReason.BUSY, text)
        conn.write(conn.session.data_to_send())
        conn.close()
        self.conns.pop(conn.cid, None)
        self._dirty.discard(conn)

    def lost(self, conn: Connection) -> None:
        if self.conns.pop(conn.cid, None) is None:
            return
        if conn.session.state is State.GREETING:
            log.debug("connection %d closed before saying hello (a probe?)", conn.cid)
        self._dirty.discard(conn)
        # A bye was handled when it arrived (``received``); a connection that just went
        # away keeps its seat for the grace period, in the lobby too.
        self.table.disconnect(conn.cid, self.now())
        self._after_change([])

    def fell_behind(self, conn: Connection) -> None:
        """``conn`` left too much output unread: say bye (timeout) and drop it.  A player
        keeps the seat for the grace period and may come back and resync."""
        log.info("connection %d: %d bytes unread, dropped", conn.cid, conn.unsent)
        self._drop(conn, ByeReason.TIMEOUT)

    def _drop(self, conn: Connection, reason: ByeReason) -> None:
        """Say bye after what was written, send nothing more, cut it shortly."""
        session = conn.session
        session.data_to_send()  # what was not written yet will never be
        with contextlib.suppress(LocalProtocolError):
            session.close(reason)
        self._dirty.discard(conn)
        conn.drop(session.data_to_send(), self.options.drop_linger)

    def received(self, conn: Connection, data: bytes) -> None:
        if conn.cid not in self.conns or conn.closed:  # gone, or dropped by us
            return
        try:
            messages = conn.session.receive_data(data)
        except LocalProtocolError:  # an answer the session could not send
            messages = []
        self._dirty.add(conn)
        events: list[Event] = []
        limited = 0
        for msg in messages:
            try:
                events += self._handle(conn, msg)
            except JoinRefused as exc:  # only a greeting asks for a seat: still joining
                conn.session.refuse(exc.reason, exc.text)
            except RequestRefused as exc:
                if exc.reason is ErrorReason.RATE_LIMITED:
                    limited += 1
                    if limited > self.options.flood_limit:  # no client does that by mistake
                        log.info("connection %d: flooding, dropped", conn.cid)
                        self._drop(conn, ByeReason.KICKED)
                        break
                    if limited > 1:
                        continue  # one answer per read is enough
                    if isinstance(msg, m.Resync):  # read nothing more from it for a while
                        conn.pause_input(min(1.0, 1.0 / max(self.options.resync_rate, 1e-3)))
                self._send(conn, exc.to_message())
            except LocalProtocolError as exc:
                log.warning("connection %d: cannot answer: %s", conn.cid, exc)
        if conn.session.closed and conn.session.join_request is not None:
            # a bye: free the seat now rather than when the socket goes
            self.table.disconnect(conn.cid, self.now(), quit=conn.session.error is None)
        self._after_change(events)

    def _send(self, conn: Connection, msg: m.Message, frame: bytes | None = None) -> None:
        """Queue ``msg`` (``frame``: its encoding, when shared with other connections)."""
        try:
            conn.session.send(msg, frame)
        except LocalProtocolError as exc:
            log.debug("connection %d: not sending %s: %s", conn.cid, msg.TYPE.value, exc)
            return
        self._dirty.add(conn)

    # -- what clients ask ------------------------------------------------------------------

    def _handle(self, conn: Connection, msg: m.Message) -> list[Event]:
        table = self.table
        now = self.now()
        if isinstance(msg, m.Hello):
            self._admit(conn, msg, now)
        elif isinstance(msg, m.Spectate):
            table.spectate(conn.cid)
            conn.session.welcome(None, None)
            self._tell.send_chat_so_far(conn)
            self._tell.send_state(conn)
        elif isinstance(msg, m.ChooseColour):
            table.choose_colour(conn.cid, int(msg.colour))
        elif isinstance(msg, m.Ready):
            table.set_ready(conn.cid, msg.ready)
        elif isinstance(msg, m.Profile):
            table.set_profile(conn.cid, msg.lang, msg.program)
        elif isinstance(msg, m.AddBot):
            table.add_bot(conn.cid, None if msg.colour is None else int(msg.colour), msg.level)
        elif isinstance(msg, m.RemoveBot):
            table.remove_bot(conn.cid, msg.pid)
        elif isinstance(msg, m.SetVariant):
            table.set_variant(conn.cid, msg.variant)
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
            if not conn.resyncs.take(now, self.options.resync_rate):
                raise RequestRefused(ErrorReason.RATE_LIMITED, "too many resyncs; wait a moment")
            self._tell.send_state(conn)
        return []

    def _admit(self, conn: Connection, hello: m.Hello, now: float) -> None:
        table = self.table
        if hello.token is not None:
            player = table.player_by_token(hello.token)
            old = None if player is None or player.conn is None else self.conns.get(player.conn)
            player = table.reclaim(conn.cid, hello.token, now)
            if old is not None and old is not conn:
                with contextlib.suppress(LocalProtocolError):
                    old.session.close(ByeReason.REPLACED)
                old.write(old.session.data_to_send())
                old.close()
            token = hello.token
            log.info("%s is back at seat %d", player.name, player.colour)
        else:
            player, token = table.join(conn.cid, hello.name)
            log.info("%s joined as %d", player.name, player.colour)
        conn.session.welcome(player.pid, token, owner=player.pid == table.owner, name=player.name)
        self._tell.send_chat_so_far(conn)  # a player whose own process died has none
        self._tell.send_state(conn)
        self._owed.discard(player.pid)  # told the result, if the game is over

    def _chat(self, conn: Connection, msg: m.Chat, now: float) -> None:
        if not conn.take_chat_token(now, self.options.chat_rate):
            raise RequestRefused(ErrorReason.RATE_LIMITED, "too many chat lines; wait a moment")
        player = self.table.say(conn.cid, msg.text)
        line = shared(m.Chat(pid=player.pid, text=msg.text))
        for other in self._welcomed():
            self._send(other, *line)

    # -- what clients are told ------------------------------------------------------------

    def _welcomed(self) -> list[Connection]:
        return [
            c
            for c in self.conns.values()
            if c.session.state in (State.LOBBY, State.PLAYING, State.GAME_OVER)
        ]

    def lobby_message(self) -> m.Lobby:
        """The lobby as every connection is told it now."""
        return self._tell.lobby_message()

    def _begin_game(self, rematch: bool = False) -> None:
        self._sent_revision = self.table.revision
        self._tell.begin_game(self._welcomed(), rematch)

    def _after_change(self, events: list[Event]) -> None:
        """Tell everyone what changed, run what is due, re-arm the timer, flush."""
        self._tell.events(self._welcomed(), events)
        table = self.table
        if table.can_auto_start():
            table.start(None, self.now())
            self._begin_game()
        self._run_due()
        if table.revision != self._sent_revision:
            self._sent_revision = table.revision
            lobby_for = self._tell.lobbies()
            for conn in self._welcomed():
                if conn.lobby_revision != table.revision:  # not just told (a join)
                    self._tell.send_lobby(conn, *lobby_for(conn))
        if self.on_roster is not None:
            self.on_roster()
        if self.on_change is not None:
            summary = self.summary()  # seats, and the phase: a game that began or ended
            if summary != self._told_summary:
                self._told_summary = summary
                self.on_change(summary)
        self._arm_timer()
        self._flush()
        if self._finished():
            self._done.set()

    def _finished(self) -> bool:
        """A headless table (not told to stay) whose game is over and whose people
        have all been told the result (or were waited for long enough)."""
        table = self.table
        if table.phase is not Phase.FINISHED or not table.config.auto_start or self.options.stay:
            return False
        return not self._owed or self.now() >= self._owed_until

    def _run_due(self) -> None:
        """Play what is due; each bot move of a burst is told as it is made (its own
        sid and turn, and ``over`` only after the last one): seats given up, and bot
        moves -- the random and greedy bots at once, the expert's search on the bot
        thread (one decision at a time)."""
        table = self.table
        table.tick(self.now(), self._told_move, bots=False)
        while self._thinking is None:
            turn = table.bot_turn(self.now())
            if turn is None:
                return
            if turn.level == ExpertBot.kind:
                self._thinking = asyncio.create_task(self._think(turn))
                return
            events = table.play_bot(turn, turn.decide(), self.now())
            if events is None:
                return  # cannot happen: nothing changed between the decision and the play
            self._told_move(turn, events)

    def _told_move(self, _move: object, events: list[Event]) -> None:
        self._tell.events(self._welcomed(), events)

    async def _think(self, turn: BotTurn) -> None:
        """Run the expert's search for ``turn`` off the event loop, then play its move
        (unless the game moved on meanwhile) and carry on as after any change."""
        if self._bot_thread is None:
            self._bot_thread = ThreadPoolExecutor(1, thread_name_prefix="sorry-lan-bot")
        try:
            move = await asyncio.get_running_loop().run_in_executor(
                self._bot_thread, turn.decide)
        finally:
            self._thinking = None
        events = self.table.play_bot(turn, move, self.now())
        self._after_change(events or [])

    def _arm_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        deadline = self.table.next_deadline()
        if deadline is not None and self._thinking is not None and deadline <= self.now():
            deadline = None  # the bot due now is thinking; its answer re-arms the timer
        if deadline is not None:
            self._timer = asyncio.get_running_loop().call_at(deadline, self._on_timer)

    def _on_timer(self) -> None:
        self._timer = None
        self._after_change([])

    def summary(self) -> TableSummary:
        t = self.table
        return TableSummary(
            name=self.options.name,
            variant=t.variant,
            phase=t.phase,
            seats_taken=len(t.players),
            seats=t.config.seats,
            pin=self.pin_key is not None,
            port=self.address[1],
        )

    # -- output, after the journal is safe -------------------------------------------------

    def _flush(self) -> None:
        """Hand what each connection was sent to the outbox, which writes it once every
        journal record appended so far is durable."""
        batch = [(c, c.session.data_to_send(), c.session.closed) for c in self._dirty]
        self._dirty.clear()
        self._outbox.put(batch)

    def _sync_failed(self, exc: OSError) -> None:
        """The journal cannot be written or made durable: send nothing more that depends
        on it, cut it back to what players were shown, tell everyone in one sentence
        and close the table."""
        log.info("the journal cannot be saved (%s); closing the table", exc)
        if self.journal is not None and not self.journal.rollback():
            log.warning("the journal could not be cut back to its last durable record")
        self._stop_listening()
        told = shared(
            m.Error(reason=ErrorReason.INTERNAL, text=clip_text(failure_text(exc)), fatal=True)
        )
        for conn in list(self.conns.values()):
            conn.session.data_to_send()  # drop output that may depend on those records
            with contextlib.suppress(LocalProtocolError):
                conn.session.send(*told)
            with contextlib.suppress(LocalProtocolError):
                conn.session.close(ByeReason.ERROR)
            conn.write(conn.session.data_to_send())
            conn.close()
        self._done.set()

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
                            conn.session.close(ByeReason.TIMEOUT)
                        conn.write(conn.session.data_to_send())
                        conn.close()
                    continue
                if now - conn.heard > opts.dead_after:
                    log.info("connection %d: silent, dropped", conn.cid)
                    conn.close()
                elif now - conn.pinged >= opts.heartbeat and now - conn.heard >= opts.heartbeat:
                    self._send(conn, m.Ping(n=conn.next_ping(now)))
            self._flush()
            if self._owed and now >= self._owed_until:
                self._after_change([])  # nobody else is coming back for the result


def failure_text(exc: OSError) -> str:
    """The one sentence players are told when the host cannot save the game."""
    why = exc.strerror or str(exc) or "a write failed"
    return (
        f"The host cannot save the game ({why}), so the table stops here with every move "
        "you saw saved; the host can continue it later with `sorry-lan host --resume`."
    )


class _Pin:
    """The PIN policy of one connection (from ``address``): a hello with a valid seat
    token needs no PIN; wrong PINs are throttled per address and per table."""

    def __init__(self, server: HostServer, address: str) -> None:
        self.server = server
        self.address = address

    def exempt(self, greeting: m.Hello | m.Spectate) -> bool:
        token = greeting.token if isinstance(greeting, m.Hello) else None
        return token is not None and self.server.table.player_by_token(token) is not None

    def wait(self) -> float:
        return self.server.options.pin_throttle.wait(self.address, self.server.now())

    def failed(self) -> None:
        log.info("wrong PIN from %s", self.address)
        self.server.options.pin_throttle.failed(self.address, self.server.now())

    def passed(self) -> None:
        self.server.options.pin_throttle.passed(self.address)
