"""What a client knows of its table, sans-I/O: bytes and the clock in, events out.

:class:`ClientModel` wraps a :class:`~sorry_lan.wire.session.ClientSession` (one per
connection; the model outlives them) and keeps what this seat knows: the welcome
(pid, owner, the seat token), the lobby, the board (the snapshot and every event
since), whose turn, the moves on offer, the discard counts, the chat heard, the
game's result.  It checks every ``events`` message against its board and asks for a
``resync`` when they do not add up (``REPLAY_MISMATCH``), and passes on only the part
of the table's chat so far (told after ``welcome``) that it has not heard.

The whole interface, for a network shell or an in-memory test pair::

    model = ClientModel("ann")          # settings: token, spectate, pin, lang, program
    model.join(now)                     # a new connection: queue the greeting
    send(model.data_to_send())
    events = model.receive_data(data, now)  # bytes from the host with the clock
    send(model.data_to_send())          # answers (pong, profile, resync), if any
    model.send(m.Start())               # requests queue bytes too (play, add_bot...)
    model.quiet(now)                    # nothing heard for a while: queues a ping; False
                                        # when the host has been silent past dead_after
    model.connection_lost()             # the transport is gone (no more requests)

``receive_data`` returns :data:`ClientEvent` values: the wire messages a UI or a bot
reads (``Lobby``, ``Snapshot``, ``Turn``, ``LegalMoves``, ``Events``, ``GameOver``,
``Rematch``, ``Chat``, ``Error``), matched on as they are, :class:`ReplayMismatch`
and :class:`GameRecord`: the game record a host on protocol version 3 sends, put
together from its ``record`` parts and read (``sorry_lan.records``): the whole game
after ``over`` (kept, the last :data:`RECORDS_KEPT`, and handed to the shell once
by :meth:`take_records` to file), or the game so far when welcomed mid-game
(:attr:`so_far`).  Where the table is comes from :attr:`state`: ``lobby`` (the
table's lobby, a rematch's included: no game is known then), ``playing`` or
``game_over``.
The joining messages (``welcome``, ``refuse``, a ``challenge`` with no PIN given) are
not events: the shell reads :attr:`connected`, :attr:`refusal`, :attr:`pin_asked`
and :attr:`closed` after each read.  :class:`Connection` (the link state) is made
by the shell that owns the link; it is in the union so readers handle it.

It does not open sockets, keep time, retry, or write seat files: it says when the
seat token is worth keeping or forgetting (:meth:`take_seat_news`) and the shell
does the filing.  It never logs the seat token.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass
from typing import Any, Literal

from sorry_lan.bots.base import DEFAULT_STRENGTH
from sorry_lan.codes import Link, LinkNews, Said
from sorry_lan.records import RecordError, load
from sorry_lan.rules import Variant
from sorry_lan.wire import messages as m
from sorry_lan.wire.apply import apply_discards, apply_events, check_events
from sorry_lan.wire.errors import ErrorReason, LocalProtocolError
from sorry_lan.wire.record_parts import RecordAssembler, RecordPartsError
from sorry_lan.wire.session import ClientSession
from sorry_lan.wire.transitions import State
from sorry_lan.wire.vocab import ByeReason

log = logging.getLogger(__name__)

HEARD_KEPT = 200  # chat lines remembered, to tell the table's chat so far from news
RECORDS_KEPT = 8  # whole game records a model keeps (the shell files each as it comes)
REPLAY_MISMATCH = "the host's events do not add up on our board at sid"


@dataclass(frozen=True)
class Connection:
    """The link to the host changed (made by the network shell, not the model):
    ``news`` is a :class:`~sorry_lan.codes.LinkNews` with its fields."""

    news: Said

    @property
    def state(self) -> Link:
        """``connected``, ``reconnecting`` or ``lost``."""
        code = self.news.code
        return code.state if isinstance(code, LinkNews) else Link(code)

    @property
    def text(self) -> str:
        """The news in English."""
        return str(self.news)


@dataclass(frozen=True)
class ReplayMismatch:
    """The ``events`` of state id ``sid`` did not add up on our board: a resync was asked."""

    sid: int
    problem: str


@dataclass(frozen=True)
class GameRecord:
    """A game record the host sent (``protocol/RECORD.md``, read but not replayed):
    the table's game number ``game`` and the record."""

    game: int
    record: dict[str, Any]

    @property
    def whole(self) -> bool:
        """The finished game's (with its result and deck), not the game so far."""
        return self.record.get("result") is not None


ClientEvent = (
    m.Lobby
    | m.Snapshot
    | m.Turn
    | m.LegalMoves
    | m.Events
    | m.GameOver
    | m.Rematch
    | m.Chat
    | m.Error
    | ReplayMismatch
    | GameRecord
    | Connection
)

#: What the seat token deserves after a read: keep it (a game to come back to), or
#: forget it (the game is over).
SeatNews = Literal["keep", "forget"]


class ClientModel:
    """One player's (or spectator's) knowledge of a table; see the module docstring."""

    def __init__(
        self,
        name: str,
        *,
        token: bytes | None = None,
        spectate: bool = False,
        pin: str | None = None,
        lang: str | None = None,
        program: bool = False,
        dead_after: float = 20.0,
    ) -> None:
        self.name = name
        self.token = token  # offered in the next hello; the welcome's once given one
        self.spectate = spectate
        self.pin = pin
        self.lang = lang  # the language code the roster shows for this player
        self.program = program  # a program (a bot process) plays this seat
        self.dead_after = dead_after  # nothing heard for this long: the host is gone
        self.session: ClientSession | None = None  # the current connection's
        self._welcomed_on: ClientSession | None = None
        self.connected = False  # welcomed on the current connection, and it is up
        self.pin_asked = False  # the host challenged us and we have no PIN
        self.bye: ByeReason | None = None  # the reason of the host's last bye
        self.heard_at = 0.0  # the clock when the host last said something
        self.welcome: m.Welcome | None = None
        self.lobby: m.Lobby | None = None
        self.snapshot: m.Snapshot | None = None
        self.pawns: tuple[int, ...] = ()
        # The discard pile by card value, kept from the snapshot and every event since
        # (empty when the host speaks protocol version 1, which does not tell it).
        self.discarded: tuple[int, ...] = ()
        self.replay_mismatches = 0  # events that did not add up on our board
        # The chat lines heard (the last HEARD_KEPT texts), and while joining, the
        # table's chat so far as the host tells it after ``welcome`` (see _chat_so_far).
        self.chat_heard: list[str] = []
        self._so_far: list[m.Chat] | None = None
        self.turn: m.Turn | None = None
        self.moves: m.LegalMoves | None = None
        self.over: m.GameOver | None = None
        self.sid = 0
        self._pings = 0
        self._seat_news: SeatNews | None = None
        self.records: list[GameRecord] = []  # the whole games sent, the last RECORDS_KEPT
        self.so_far: GameRecord | None = None  # the game so far, as sent on a welcome
        self._assembler = RecordAssembler()
        self._unfiled: list[GameRecord] = []

    # -- what we know ------------------------------------------------------------------

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

    @property
    def state(self) -> State | None:
        """The protocol state of the last connection we were welcomed on (None before)."""
        return None if self._welcomed_on is None else self._welcomed_on.state

    @property
    def closed(self) -> bool:
        """The current connection's session has ended (the shell closes the transport)."""
        return self.session is not None and self.session.closed

    @property
    def refusal(self) -> m.Refuse | None:
        return None if self.session is None else self.session.refusal

    def take_records(self) -> list[GameRecord]:
        """The whole game records received since the last call, oldest first (each
        once: the shell files them)."""
        taken, self._unfiled = self._unfiled, []
        return taken

    def take_seat_news(self) -> SeatNews | None:
        """What became of the seat token since the last call (None: nothing)."""
        news, self._seat_news = self._seat_news, None
        return news

    # -- bytes in, events out ------------------------------------------------------------

    def join(self, now: float) -> None:
        """Begin a new connection: a new session, the greeting queued."""
        self.session = ClientSession(
            self.name, token=self.token, spectate=self.spectate, pin=self.pin
        )
        self.connected = False
        self.pin_asked = False
        self.bye = None
        self.heard_at = now
        self._pings = 0
        self.session.join()

    def data_to_send(self) -> bytes:
        return b"" if self.session is None else self.session.data_to_send()

    def receive_data(self, data: bytes, now: float) -> list[ClientEvent]:
        """Take bytes from the host; the events they make, in order."""
        session = self.session
        if session is None:
            raise LocalProtocolError(ErrorReason.UNEXPECTED, "no connection: join first")
        self.heard_at = now
        out: list[ClientEvent] = []
        for msg in session.receive_data(data):
            self._on_message(msg, out)
        return out

    def quiet(self, now: float) -> bool:
        """The host said nothing for a heartbeat: queue a ping and return True, or
        return False when it has been silent for longer than ``dead_after``."""
        if now - self.heard_at > self.dead_after:
            return False
        self._pings += 1
        if self.session is not None:
            with contextlib.suppress(LocalProtocolError):
                self.session.send(m.Ping(n=self._pings))
        return True

    def connection_lost(self) -> None:
        """The transport is gone: no requests until the next welcome, no offer held."""
        self.connected = False
        self.moves = None

    def _on_message(self, msg: m.Message, out: list[ClientEvent]) -> None:
        if self._so_far is not None:
            if isinstance(msg, m.Chat):
                self._so_far.append(msg)
                return
            self._chat_so_far(self._so_far, out)
            self._so_far = None
        match msg:
            case m.Welcome():
                self._welcomed(msg)
            case m.Challenge():
                self.pin_asked = True
            case m.Lobby():
                self.lobby = msg
                out.append(msg)
            case m.Snapshot():
                self.snapshot = msg
                self.pawns = msg.pawns
                self.discarded = msg.discarded or ()
                self.sid = msg.sid
                was_over, self.over = self.over, None
                self.moves = None
                if was_over is not None:  # a rematch: the seat is worth keeping again
                    self._seat_news = "keep"
                out.append(msg)
            case m.Turn():
                self.turn = msg
                self.sid = msg.sid
                out.append(msg)
            case m.LegalMoves():
                self.moves = msg
                out.append(msg)
            case m.Events():
                self._check_replay(msg, out)
                self.pawns = apply_events(self.pawns, msg.events)
                if self.discarded:
                    self.discarded = apply_discards(self.discarded, msg.events)
                self.sid = msg.sid
                out.append(msg)
            case m.GameOver():
                self.over = msg
                self.moves = None
                self._seat_news = "forget"
                out.append(msg)
            case m.Chat():
                self._remember_chat(msg.text)
                out.append(msg)
            case m.RecordPart():
                self._record_part(msg, out)
            case m.Rematch():  # back in the lobby: the game we knew is over and gone
                self._forget_game()
                self._seat_news = "keep"  # the seat holds us in the next game's lobby
                out.append(msg)
            case m.Error():
                out.append(msg)
            case m.Bye():
                self.bye = msg.reason
            case _:
                pass  # pong, refuse (see refusal): nothing a reader acts on

    def _forget_game(self) -> None:
        """Nothing of a game is known: the table is in its lobby (until a snapshot)."""
        self.snapshot = None
        self.turn = None
        self.moves = None
        self.over = None
        self.pawns = ()
        self.discarded = ()
        self.so_far = None  # (the records of whole games stay: kept)

    def _welcomed(self, welcome: m.Welcome) -> None:
        # Whatever game we knew is told again after a welcome (the snapshot and, if it
        # ended, its over); a table in its lobby tells none: a rematch's lobby, or a new
        # table at the same address.
        self._forget_game()
        self.welcome = welcome
        self._welcomed_on = self.session
        if welcome.token is not None:
            self.token = welcome.token
        self.connected = True
        self._so_far = []  # the chat so far comes next, then the lobby
        self._tell_profile()

    def _remember_chat(self, text: str) -> None:
        self.chat_heard.append(text)
        del self.chat_heard[:-HEARD_KEPT]

    def _chat_so_far(self, lines: list[m.Chat], out: list[ClientEvent]) -> None:
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
            out.append(line)

    def _record_part(self, part: m.RecordPart, out: list[ClientEvent]) -> None:
        """Take a part of a game record; the record once its last part is in.  A record
        that cannot be put together or read is dropped with a log line."""
        try:
            data = self._assembler.take(part)
            if data is None:
                return
            record = load(data, "the host's game record")
        except (RecordPartsError, RecordError) as exc:
            log.info("a game record from the host was dropped: %s", exc)
            return
        got = GameRecord(part.game, record)
        if not got.whole:
            self.so_far = got
        elif got not in self.records:  # (told again to a player who came back: kept once)
            self.so_far = None
            self.records.append(got)
            del self.records[:-RECORDS_KEPT]
            self._unfiled.append(got)
        out.append(got)

    def _check_replay(self, msg: m.Events, out: list[ClientEvent]) -> None:
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
            self.send(m.Resync())
        out.append(ReplayMismatch(msg.sid, problem))

    # -- asking the host ------------------------------------------------------------------

    def send(self, msg: m.Message) -> None:
        """Queue ``msg`` (raises :class:`LocalProtocolError` if not allowed now)."""
        if self.session is None or not self.connected:
            raise LocalProtocolError(ErrorReason.UNEXPECTED, "not connected to the host")
        self.session.send(msg)

    def _speaks_profile(self) -> bool:
        session = self.session
        return (
            session is not None
            and not self.spectate
            and not session.closed
            and session.speaks(m.Profile.TYPE)
        )

    def _tell_profile(self) -> None:
        """Send ``profile`` after a welcome if there is something to tell and the host
        speaks it (protocol version 2 and later)."""
        if self._speaks_profile() and (self.lang is not None or self.program):
            self.send(m.Profile(lang=self.lang, program=self.program))

    def set_profile(self, lang: str | None, program: bool | None = None) -> bool:
        """Change the language (and ``program``) the roster shows for this player and,
        when connected, tell the host; False when the host cannot hear it (protocol
        version 1, a spectator): the change is then kept for the next connection."""
        self.lang = lang
        if program is not None:
            self.program = program
        if not self.connected or not self._speaks_profile():
            return False
        self.send(m.Profile(lang=self.lang, program=self.program))
        return True

    def play(self, move_id: int) -> None:
        """Play one of the moves on offer (by its id)."""
        offer = self.moves
        if offer is None:
            raise LocalProtocolError(ErrorReason.UNEXPECTED, "no moves are on offer")
        self.send(m.Move(sid=offer.sid, id=move_id))
        self.moves = None

    def add_bot(self, colour: int | None = None, level: str | None = None) -> None:
        """Ask for a bot on ``colour`` (None: any free one) of strength ``level`` (None:
        the strength the host chose for its bots; a host on protocol version 1 cannot
        be asked for that, so it is asked for the default strength by name)."""
        session = self.session
        if level is None and session is not None and (session.version or 1) < 2:
            level = DEFAULT_STRENGTH
        self.send(m.AddBot(colour=colour, level=level))  # type: ignore[arg-type]

    def close(self, reason: ByeReason = ByeReason.QUIT) -> None:
        """Say bye (raises :class:`LocalProtocolError` when the session cannot)."""
        if self.session is not None and not self.session.closed:
            self.session.close(reason)
