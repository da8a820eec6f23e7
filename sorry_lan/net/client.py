"""The client's side of a table: connect, keep the game state, reconnect, report events.

:class:`GameClient` owns one TCP connection at a time and a
:class:`~sorry_lan.wire.session.ClientSession` on it.  It keeps what this seat knows
(the lobby, the board, whose turn, the moves on offer) and puts high-level
:data:`ClientEvent` values on :attr:`GameClient.events` for a user interface or a bot.
When the connection drops it reconnects on its own (a player reclaims its seat with
its token, a spectator just watches again), retrying with back-off for
``reconnect_for`` seconds through unreachable hosts, hosts that accept but never
answer and tables that are momentarily full, and reports ``reconnecting`` /
``connected`` / ``lost``.  A ``bye`` of reason ``timeout`` (the host dropped us
because we fell behind or went quiet) is reconnected too; any other ``bye`` ends it.

Given a :class:`~sorry_lan.net.seats.SeatStore` (``seats``), it keeps its seat's
token there from ``welcome`` until the game ends (or it leaves the lobby, or the
host no longer knows the token), so that a new process can take the seat back.

A player's ``lang`` (the language it reads) and ``program`` (a program plays the seat)
go to the host in a ``profile`` after every welcome, when the connection settled on
protocol version 2 or later (an older host is simply not told); :meth:`GameClient.set_profile`
tells it again when either changes.

It does not draw a board, read a keyboard or choose moves (see ``commands/join.py``
and ``net/botrunner.py``), and it never prints or logs the seat token.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass

from sorry_lan.bots.base import DEFAULT_STRENGTH
from sorry_lan.codes import Coded, Joining, LinkNews, Said
from sorry_lan.codes import JoinFailure as JoinFailure  # importers find it here
from sorry_lan.rules import Variant
from sorry_lan.wire import messages as m
from sorry_lan.wire.apply import apply_discards, apply_events, check_events
from sorry_lan.wire.errors import ErrorReason, LocalProtocolError
from sorry_lan.wire.limits import SUPPORTED_VERSIONS
from sorry_lan.wire.session import ClientSession
from sorry_lan.wire.transitions import State
from sorry_lan.wire.vocab import ByeReason, RefuseReason

from .gcsettle import settle
from .seats import SeatStore

log = logging.getLogger(__name__)

HEARD_KEPT = 200  # chat lines remembered, to tell the table's chat so far from news


_GOODBYE = "the host closed the table"
REPLAY_MISMATCH = "the host's events do not add up on our board at sid"


class JoinError(Coded):
    """Could not join: ``reason`` is the host's refusal or a :class:`JoinFailure`;
    :attr:`said` what to tell people (its English is ``text``)."""

    def __init__(self, reason: RefuseReason | JoinFailure, said: Said | None = None) -> None:
        super().__init__(said or Said(reason))
        self.reason = reason
        self.text = str(self)


# Failures worth retrying while reconnecting: the host may answer, or have room, soon
# (busy: too many connections were waiting to join; the host made room by closing ours).
_RETRY = frozenset(
    {JoinFailure.UNREACHABLE, JoinFailure.LOST, RefuseReason.FULL, RefuseReason.BUSY}
)


# -- events for the user interface ---------------------------------------------------


@dataclass(frozen=True)
class Connection:
    state: str  # "connected", "reconnecting" or "lost"
    text: str


@dataclass(frozen=True)
class LobbyChanged:
    lobby: m.Lobby


@dataclass(frozen=True)
class GameStarted:
    snapshot: m.Snapshot


@dataclass(frozen=True)
class TurnChanged:
    turn: m.Turn


@dataclass(frozen=True)
class YourTurn:
    moves: m.LegalMoves


@dataclass(frozen=True)
class Happened:
    events: m.Events
    at: float = 0.0  # time.perf_counter() when it arrived


@dataclass(frozen=True)
class GameEnded:
    over: m.GameOver


@dataclass(frozen=True)
class RematchStarted:
    pass


@dataclass(frozen=True)
class ChatLine:
    chat: m.Chat


@dataclass(frozen=True)
class Refused:
    error: m.Error  # a request of ours was refused; the game goes on


ClientEvent = (
    Connection
    | LobbyChanged
    | GameStarted
    | TurnChanged
    | YourTurn
    | Happened
    | GameEnded
    | RematchStarted
    | ChatLine
    | Refused
)

def refusal(refuse: m.Refuse) -> Said:
    """A refusal as its code with the fields its English needs: the versions spoken,
    or the host's own text where it may add something (which limit was reached)."""
    if refuse.reason is RefuseReason.VERSION:
        return refuse.reason(theirs=list(refuse.versions), ours=list(SUPPORTED_VERSIONS))
    bare = refuse.reason(more="")
    if not refuse.text or refuse.text in str(bare):
        return bare
    return refuse.reason(more=f" ({refuse.text})")


def refusal_text(refuse: m.Refuse) -> str:
    """A refusal in one English sentence (see :func:`refusal`)."""
    return str(refusal(refuse))


class GameClient:
    """One player's (or spectator's) connection to a host; see the module docstring."""

    def __init__(
        self,
        host: str,
        port: int,
        name: str,
        *,
        pin: str | None = None,
        spectate: bool = False,
        token: bytes | None = None,
        connect_timeout: float = 5.0,
        heartbeat: float = 5.0,
        dead_after: float = 20.0,
        reconnect_for: float = 60.0,
        capture: bytearray | None = None,
        seats: SeatStore | None = None,
        game: str | None = None,
        lang: str | None = None,
        program: bool = False,
    ) -> None:
        self.host = host
        self.port = port
        self.name = name
        self.pin = pin
        self.spectate = spectate
        self.token = token
        self.connect_timeout = connect_timeout
        self.heartbeat = heartbeat
        self.dead_after = dead_after
        self.reconnect_for = reconnect_for
        self.capture = capture  # every byte received is appended here (tests)
        self.seats = seats  # where the seat's token is kept for a later process
        self.game = game  # the table's LAN name, when it was found by discovery
        self.lang = lang  # the language code the roster shows for this player
        self.program = program  # a program (a bot process) plays this seat
        self._peer = ""  # the address that answered
        self.events: asyncio.Queue[ClientEvent] = asyncio.Queue()
        self.session: ClientSession | None = None
        self.welcome: m.Welcome | None = None
        self.lobby: m.Lobby | None = None
        self.snapshot: m.Snapshot | None = None
        self.pawns: tuple[int, ...] = ()
        # The discard pile by card value, kept from the snapshot and every event since
        # (empty when the host speaks protocol version 1, which does not tell it).
        self.discarded: tuple[int, ...] = ()
        self.replay_mismatches = 0  # events that did not add up on our board (see replay.py)
        # The chat lines heard (the last HEARD_KEPT texts), and while joining, the
        # table's chat so far as the host tells it after ``welcome`` (see _chat_so_far).
        self.chat_heard: list[str] = []
        self._so_far: list[m.Chat] | None = None
        self.turn: m.Turn | None = None
        self.moves: m.LegalMoves | None = None
        self.over: m.GameOver | None = None
        self.sid = 0
        self.connected = False
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        self._heard = 0.0
        self._bye: ByeReason | None = None  # the reason of the host's last bye

    # -- state -----------------------------------------------------------------------

    @property
    def pid(self) -> int | None:
        return None if self.welcome is None else self.welcome.pid

    @property
    def colour(self) -> int | None:
        if self.snapshot is not None and self.snapshot.you is not None:
            return int(self.snapshot.you)
        if self.lobby is not None and self.pid is not None:
            for p in self.lobby.players:
                if p.pid == self.pid and p.colour is not None:
                    return int(p.colour)
        return None

    @property
    def owner(self) -> bool:
        return self.welcome is not None and self.welcome.owner

    # -- connecting ------------------------------------------------------------------

    async def connect(self) -> m.Welcome:
        """Connect and join; raises :class:`JoinError` with a sentence for people.

        A player with no token but a seat store offers the token kept there for this
        table and name (the seat of an earlier process); if the host no longer knows
        it, the file is forgotten and the client joins afresh."""
        stored = False
        if self.token is None and self.seats is not None and not self.spectate:
            seat = self.seats.choose((self.host,), self.port, self.name, game=self.game)
            if seat is not None:
                self.token, stored = seat.token, True
        try:
            welcome = await self._open()
        except JoinError as exc:
            if not (stored and exc.reason is RefuseReason.BAD_TOKEN):
                raise
            self.token = None
            welcome = await self._open()
        self._task = asyncio.create_task(self._run())
        settle()  # start-up is over: full collections leave its objects alone
        return welcome

    async def _open(self) -> m.Welcome:
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(self.host, self.port), self.connect_timeout
            )
        except ConnectionRefusedError:
            said = Joining.REFUSED(host=self.host, port=self.port)
            raise JoinError(JoinFailure.UNREACHABLE, said) from None
        except (TimeoutError, OSError) as exc:
            why = "no answer" if isinstance(exc, TimeoutError) else (exc.strerror or str(exc))
            said = Joining.NO_ROUTE(host=self.host, port=self.port, why=why)
            raise JoinError(JoinFailure.UNREACHABLE, said) from None
        session = ClientSession(self.name, token=self.token, spectate=self.spectate, pin=self.pin)
        session.join()
        writer.write(session.data_to_send())
        try:
            welcome = await asyncio.wait_for(
                self._handshake(session, reader, writer), self.connect_timeout
            )
        except JoinError as exc:
            writer.close()
            bad_token = exc.reason is RefuseReason.BAD_TOKEN
            if bad_token and self.token is not None and self.seats is not None:
                self.seats.forget(self.token)
            raise
        except TimeoutError:
            writer.close()
            said = Joining.SILENT(host=self.host, port=self.port, seconds=self.connect_timeout)
            raise JoinError(JoinFailure.UNREACHABLE, said) from None
        except BaseException:
            writer.close()
            raise
        self.session, self._reader, self._writer = session, reader, writer
        self._tell_profile(session, writer)
        self._bye = None
        self.welcome = welcome
        if welcome.token is not None:
            self.token = welcome.token
        peer = writer.get_extra_info("peername")
        self._peer = str(peer[0]) if isinstance(peer, tuple) and peer else ""
        self._keep_seat()
        self.connected = True
        self._heard = time.monotonic()
        return welcome

    async def _handshake(
        self, session: ClientSession, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> m.Welcome:
        while True:
            try:
                data = await reader.read(65536)
            except OSError as exc:
                raise JoinError(JoinFailure.UNREACHABLE, Joining.BROKEN(why=exc)) from None
            if not data:
                raise JoinError(JoinFailure.LOST, Joining.CLOSED())
            if self.capture is not None:
                self.capture += data
            msgs = session.receive_data(data)
            writer.write(session.data_to_send())
            for msg in msgs:
                if isinstance(msg, m.Challenge):
                    raise JoinError(JoinFailure.PIN_NEEDED)
                if isinstance(msg, m.Refuse):
                    raise JoinError(msg.reason, refusal(msg))
                if isinstance(msg, m.Welcome):
                    self._so_far = []  # the chat so far comes next, then the lobby
                    # Later messages of the same read (lobby, snapshot) are not lost:
                    for later in msgs[msgs.index(msg) + 1 :]:
                        self._on_message(later)
                    return msg
            if session.closed:
                err = session.error
                raise JoinError(JoinFailure.LOST, Joining.ENDED(why=err))

    # -- the running connection ---------------------------------------------------------

    async def _run(self) -> None:
        while True:
            reason = await self._pump()
            self.connected = False
            self.moves = None
            if self._closing:
                return
            if (self.token is None and not self.spectate) or reason == _GOODBYE:
                await self._tell(LinkNews.DROPPED(reason=reason))
                return
            held = LinkNews.REWATCH if self.spectate else LinkNews.HELD
            await self._tell(held(reason=reason))
            if not await self._reconnect():
                return

    async def _pump(self) -> str:
        reader, writer, session = self._reader, self._writer, self.session
        assert reader is not None and writer is not None and session is not None
        ping_n = 0
        try:
            while not session.closed:
                try:
                    data = await asyncio.wait_for(reader.read(65536), self.heartbeat)
                except TimeoutError:
                    if time.monotonic() - self._heard > self.dead_after:
                        return "the host stopped answering"
                    ping_n += 1
                    with contextlib.suppress(LocalProtocolError):
                        session.send(m.Ping(n=ping_n))
                    writer.write(session.data_to_send())
                    continue
                if not data:
                    return "the host closed the connection"
                self._heard = time.monotonic()
                if self.capture is not None:
                    self.capture += data
                for msg in session.receive_data(data):
                    self._on_message(msg)
                out = session.data_to_send()
                if out:
                    writer.write(out)
            if self._bye is ByeReason.TIMEOUT:
                return "the host dropped the connection: it fell behind"
            return _GOODBYE
        except (OSError, asyncio.IncompleteReadError) as exc:
            return f"network error: {exc}"
        finally:
            writer.close()

    async def _reconnect(self) -> bool:
        deadline = time.monotonic() + self.reconnect_for
        delay = 0.05
        last = ""
        while not self._closing and time.monotonic() < deadline:
            try:
                await self._open()
            except JoinError as exc:
                last = exc.text
                if exc.reason not in _RETRY:
                    await self._tell(LinkNews.NO_REJOIN(why=exc.said))
                    return False
                await asyncio.sleep(min(delay, max(0.0, deadline - time.monotonic())))
                delay = min(delay * 2, 2.0)
                continue
            await self._tell(LinkNews.WATCHING() if self.spectate else LinkNews.BACK())
            return True
        gave_up = LinkNews.GAVE_UP_WATCHING if self.spectate else LinkNews.GAVE_UP
        await self._tell(gave_up(last=last))
        return False

    async def _tell(self, news: Said) -> None:
        """Report what happened to the link (its state, and its English sentence)."""
        assert isinstance(news.code, LinkNews)
        await self.events.put(Connection(news.code.state, str(news)))

    def _keep_seat(self) -> None:
        """Write the seat's token to the store (from welcome until the game ends)."""
        if self.seats is None or self.token is None or self.over is not None:
            return
        name = self.welcome.name if self.welcome is not None else self.name
        self.seats.save(name, self.token, (self.host, self._peer), self.port, self.game)

    def _forget_seat(self) -> None:
        if self.seats is not None and self.token is not None:
            self.seats.forget(self.token)

    def _on_message(self, msg: m.Message) -> None:
        put = self.events.put_nowait
        if self._so_far is not None:
            if isinstance(msg, m.Chat):
                self._so_far.append(msg)
                return
            self._chat_so_far(self._so_far)
            self._so_far = None
        if isinstance(msg, m.Lobby):
            self.lobby = msg
            put(LobbyChanged(msg))
        elif isinstance(msg, m.Snapshot):
            self.snapshot = msg
            self.pawns = msg.pawns
            self.discarded = msg.discarded or ()
            self.sid = msg.sid
            was_over, self.over = self.over, None
            self.moves = None
            if was_over is not None:  # a rematch: the seat is worth keeping again
                self._keep_seat()
            put(GameStarted(msg))
        elif isinstance(msg, m.Turn):
            self.turn = msg
            self.sid = msg.sid
            put(TurnChanged(msg))
        elif isinstance(msg, m.LegalMoves):
            self.moves = msg
            put(YourTurn(msg))
        elif isinstance(msg, m.Events):
            self._check_replay(msg)
            self.pawns = apply_events(self.pawns, msg.events)
            if self.discarded:
                self.discarded = apply_discards(self.discarded, msg.events)
            self.sid = msg.sid
            put(Happened(msg, time.perf_counter()))
        elif isinstance(msg, m.GameOver):
            self.over = msg
            self.moves = None
            self._forget_seat()
            put(GameEnded(msg))
        elif isinstance(msg, m.Rematch):
            put(RematchStarted())
        elif isinstance(msg, m.Chat):
            self._remember_chat(msg.text)
            put(ChatLine(msg))
        elif isinstance(msg, m.Error):
            put(Refused(msg))
        elif isinstance(msg, m.Bye):
            self._bye = msg.reason

    def _remember_chat(self, text: str) -> None:
        self.chat_heard.append(text)
        del self.chat_heard[:-HEARD_KEPT]

    def _chat_so_far(self, lines: list[m.Chat]) -> None:
        """Pass on the lines of the table's chat so far that this client has not heard:
        all of them for a new process (its own died, or it joins for the first time),
        only those said while it was away after a reconnection (the longest run of
        them that ends what it heard was heard already)."""
        heard = self.chat_heard
        texts = [line.text for line in lines]
        known = 0
        for k in range(min(len(texts), len(heard)), 0, -1):
            if heard[-k:] == texts[:k]:
                known = k
                break
        for line in lines[known:]:
            self._remember_chat(line.text)
            self.events.put_nowait(ChatLine(line))

    def _check_replay(self, msg: m.Events) -> None:
        """Ask for a ``resync`` (and log why) when ``msg`` does not add up on our board."""
        snap = self.snapshot
        if snap is None or len(self.pawns) != len(snap.pawns):
            return
        problem = check_events(self.pawns, msg.events, Variant(snap.variant.value))
        if problem is None:
            return
        self.replay_mismatches += 1
        log.warning("%s %d: %s; asking for a resync", REPLAY_MISMATCH, msg.sid, problem)
        with contextlib.suppress(LocalProtocolError):
            self._send(m.Resync())

    # -- asking the host ------------------------------------------------------------------

    def _send(self, msg: m.Message) -> None:
        """Queue ``msg`` (raises :class:`LocalProtocolError` if not allowed now)."""
        session, writer = self.session, self._writer
        if session is None or writer is None or not self.connected:
            raise LocalProtocolError(ErrorReason.UNEXPECTED, "not connected to the host")
        session.send(msg)
        writer.write(session.data_to_send())

    def _tell_profile(self, session: ClientSession, writer: asyncio.StreamWriter) -> None:
        """Send ``profile`` if there is something to tell and the host speaks it."""
        if self.spectate or session.closed or not session.speaks(m.Profile.TYPE):
            return
        if self.lang is None and not self.program:
            return
        session.send(m.Profile(lang=self.lang, program=self.program))
        writer.write(session.data_to_send())

    def set_profile(self, lang: str | None, program: bool | None = None) -> bool:
        """Change the language (and ``program``) the roster shows for this player and,
        when connected, tell the host; False when the host cannot hear it (protocol
        version 1, a spectator): the change is then kept for the next connection."""
        self.lang = lang
        if program is not None:
            self.program = program
        session, writer = self.session, self._writer
        if session is None or writer is None or not self.connected or self.spectate:
            return False
        if not session.speaks(m.Profile.TYPE):
            return False
        session.send(m.Profile(lang=self.lang, program=self.program))
        writer.write(session.data_to_send())
        return True

    async def play(self, move_id: int) -> None:
        """Play one of the moves on offer (by its id)."""
        offer = self.moves
        if offer is None:
            raise LocalProtocolError(ErrorReason.UNEXPECTED, "no moves are on offer")
        self._send(m.Move(sid=offer.sid, id=move_id))
        self.moves = None

    async def choose_colour(self, colour: int) -> None:
        self._send(m.ChooseColour(colour=colour))  # type: ignore[arg-type]

    async def ready(self, ready: bool = True) -> None:
        self._send(m.Ready(ready=ready))

    async def add_bot(self, colour: int | None = None, level: str | None = None) -> None:
        """Ask for a bot on ``colour`` (None: any free one) of strength ``level`` (None:
        the strength the host chose for its bots; a host on protocol version 1 cannot
        be asked for that, so it is asked for the default strength by name)."""
        session = self.session
        if level is None and session is not None and (session.version or 1) < 2:
            level = DEFAULT_STRENGTH
        self._send(m.AddBot(colour=colour, level=level))  # type: ignore[arg-type]

    async def remove_bot(self, pid: int) -> None:
        self._send(m.RemoveBot(pid=pid))

    async def set_variant(self, variant: Variant) -> None:
        self._send(m.SetVariant(variant=variant))

    async def start(self) -> None:
        self._send(m.Start())

    async def rematch(self) -> None:
        self._send(m.Rematch())

    async def chat(self, text: str) -> None:
        self._send(m.Chat(pid=None, text=text))

    async def resync(self) -> None:
        self._send(m.Resync())

    def in_game(self) -> bool:
        return self.session is not None and self.session.state is State.PLAYING

    async def close(self) -> None:
        """Say bye and close; no reconnection after this."""
        self._closing = True
        session, writer = self.session, self._writer
        if session is not None and session.state is State.LOBBY:
            self._forget_seat()  # leaving the lobby gives the seat up
        if session is not None and writer is not None and not session.closed:
            with contextlib.suppress(LocalProtocolError, OSError):
                session.close(ByeReason.QUIT)
                writer.write(session.data_to_send())
                await writer.drain()
        if writer is not None:
            writer.close()
            with contextlib.suppress(OSError, ConnectionError):
                await writer.wait_closed()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def abort(self) -> None:
        """Drop the connection without a word (as a crash would); reconnection follows."""
        if self._writer is not None:
            transport = self._writer.transport
            transport.abort()

