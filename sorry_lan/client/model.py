"""What a client knows of its table, sans-I/O: bytes and the clock in, events out.

:class:`ClientModel` wraps a :class:`~sorry_lan.wire.session.ClientSession` (one per
connection; the model outlives them) and keeps what this seat knows: the welcome
(pid, owner, the seat token), the lobby, the board (the snapshot and every event
since), whose turn, the moves on offer, the discard counts, the chat heard, the
game's result.  It checks every ``events`` message against its board and asks for a
``resync`` when they do not add up (``REPLAY_MISMATCH``), and passes on only the part
of the table's chat so far (told after ``welcome``) that it has not heard.  It folds
each message once (the board and the game so far are ``client.so_far``'s: a fold that
cannot follow the host asks for a ``resync`` too) and publishes the table as a frozen
:class:`~sorry_lan.client.view.TableView` after each (:attr:`view`; the view as of an
event it handed out: :meth:`view_at`), which every reader reads.

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
(:attr:`so_far`).  A client at the table since the game began builds the game so far
itself from what it was shown (:attr:`seen`, ``client.so_far``; gone on from the host's
record when one came), for a successor.  Where the table is comes from :attr:`state`: ``lobby`` (the
table's lobby, a rematch's included: no game is known then), ``playing`` or
``game_over``.
The joining messages (``welcome``, ``refuse``, a ``challenge`` with no PIN given) are
not events: the shell reads :attr:`connected`, :attr:`refusal`, :attr:`pin_asked`
and :attr:`closed` after each read.  :class:`Connection` (the link state) is made
by the shell that owns the link; it is in the union so readers handle it.

On protocol version 4 (issue 19: the table outlives its host) the model also keeps
what a successor needs: the host's last ``succession`` (:attr:`succession`), the last
``commit`` and this seat's salt, its own hand, the chat of the game so far; it sends
``offer`` after each welcome when the shell gave it a standby (:attr:`standby`), and
:meth:`knowledge` puts it together for ``authority.takeover``.  It owns the table's
:class:`~sorry_lan.succession.election.Election` (:attr:`election`, made at the first
``succession``) and feeds it what it reads: every frame from the host, each new order,
a ``handover``, and on a connection to a candidate (``join(now, attempt=...)``) its
refusal or the new host's ``succession``, which it checks (the pid handed over to or
voted for, a greater epoch): a new host it follows is told this seat's hand and salt
(``reveal``, play for points) and reported as :class:`TableNews`; one it refuses is
told bye.  The decisions the election makes on what the model read wait in
:meth:`take_decisions`; the shell feeds the rest (the link's failures, the clock,
adverts, its standby's votes) to :attr:`election` itself.  A host on protocol version
1-3 sends none of this, and the model behaves for it as before.  A move this seat
made that the new host it follows never heard of (the old host died telling it) is
played again at once when that host offers the same decision (:mod:`sorry_lan.client.missed`).

It does not open sockets, keep time, retry, or write seat files: it says when the
seat token is worth keeping or forgetting (:meth:`take_seat_news`) and the shell
does the filing.  It never logs the seat token.
"""

from __future__ import annotations

import contextlib
import logging
from collections import OrderedDict
from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import Any

from sorry_lan.bots.base import DEFAULT_STRENGTH
from sorry_lan.client.missed import MissedMove
from sorry_lan.client.so_far import FoldError, SoFar
from sorry_lan.client.view import NO_VIEW, TableView
from sorry_lan.codes import Link, LinkNews, Said
from sorry_lan.records import RecordError, load
from sorry_lan.rules import Card, Variant
from sorry_lan.rules.cards import NO_CARDS
from sorry_lan.succession import election as el
from sorry_lan.succession.knowledge import Board, Knowledge, draws_again
from sorry_lan.wire import messages as m
from sorry_lan.wire.apply import apply_discards, check_events
from sorry_lan.wire.errors import ErrorReason, LocalProtocolError
from sorry_lan.wire.record_parts import RecordAssembler, RecordPartsError
from sorry_lan.wire.records import EventKind
from sorry_lan.wire.session import ClientSession
from sorry_lan.wire.standby import StandbyAnswer, standby_answer
from sorry_lan.wire.succession import ChatLine
from sorry_lan.wire.transitions import State
from sorry_lan.wire.vocab import ByeReason

log = logging.getLogger(__name__)

_FROM_HAND = (EventKind.PLAY, EventKind.DISCARD)  # a card leaves its owner's hand

HEARD_KEPT = 200  # chat lines remembered, to tell the table's chat so far from news
RECORDS_KEPT = 8  # whole game records a model keeps (the shell files each as it comes)
VIEWS_KEPT = 4096  # events whose view a reader behind its queue can still ask for
CHAT_KEPT = 100  # lines of the game's chat so far a successor is given (as succession's)
SUCCESSION_VERSION = 4  # the protocol version that has offer, succession and reveal
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


class TableNewsKind(StrEnum):
    """What a :class:`TableNews` tells."""

    HOST_CHANGED = "host_changed"
    HANDOVER = "handover"
    CLAIM_REFUSED = "claim_refused"


@dataclass(frozen=True)
class TableNews:
    """Who hosts the table changed, or was to (protocol version 4):

    - ``host_changed``: we follow a new host, seat ``pid`` (``name``) at ``epoch``
      (``you``: this laptop's own, after its takeover);
    - ``handover``: the host said it hands the table to ``pid`` at ``epoch``
      (``mine``: this laptop hosted it, and its player plays on there: the host that
      woke to find its table moved and stepped down);
    - ``claim_refused``: ``pid`` claimed to host at ``epoch`` and was told bye for
      ``claim`` (out of turn, an old epoch); ``text`` says it in English."""

    kind: TableNewsKind
    pid: int | None
    name: str | None
    epoch: int
    you: bool = False
    text: str = ""
    claim: el.Claim | None = None
    mine: bool = False


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
    | TableNews
    | Connection
)

#: What the seat token deserves after a read: keep it (a game to come back to), or
#: forget it (the game is over).
class SeatNews(Enum):
    """What the seat token deserves (:meth:`ClientModel.take_seat_news`)."""

    KEEP = "keep"
    FORGET = "forget"


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
        standby: tuple[int, tuple[str, ...]] | None = None,
    ) -> None:
        self.name = name
        self.token = token  # offered in the next hello; the welcome's once given one
        self.spectate = spectate
        self.pin = pin
        self.lang = lang  # the language code the roster shows for this player
        self.program = program  # a program (a bot process) plays this seat
        self.dead_after = dead_after  # nothing heard for this long: the host is gone
        # This laptop's standby (port, addresses), offered to a version-4 host: it may host.
        self.standby = standby
        self.session: ClientSession | None = None  # the current connection's
        self._welcomed_on: ClientSession | None = None
        self.connected = False  # welcomed on the current connection, and it is up
        self.pin_asked = False  # the host challenged us and we have no PIN
        self.bye: ByeReason | None = None  # the reason of the host's last bye
        self.heard_at = 0.0  # the clock when the host last said something
        self.welcome: m.Welcome | None = None
        self.lobby: m.Lobby | None = None
        self.snapshot: m.Snapshot | None = None
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
        # The game so far as this client saw it (client.so_far): from its first
        # snapshot, or from the host's record, on with every events message.
        self.seen = SoFar()
        # The table as of the last message (client.view), and of each recent event.
        self.view: TableView = NO_VIEW
        self._views: OrderedDict[int, tuple[ClientEvent, TableView]] = OrderedDict()
        self._chat_told: tuple[str, ...] = ()
        self._lobbies = 0  # rosters told since the welcome or rematch, before a game
        # The table's last winner, who plays first in the next game when seated (None:
        # none yet); ``_prior_known`` False: this client cannot tell.  A client welcomed
        # into a lobby takes it for the table's first game's (as game_number does): no
        # host message says how many games its table played.
        self._prior: int | None = None
        self._prior_known = True
        self._told_again = False  # the game's board was told again (a host restarted?)
        self._assembler = RecordAssembler()
        self._unfiled: list[GameRecord] = []
        # Protocol version 4: what a successor needs, and who hosts next.
        self.succession: m.Succession | None = None  # the host's last, as accepted
        self.commit: m.Commit | None = None  # the last hand commitment
        self.salt: bytes | None = None  # this seat's salt in it
        self.hand: tuple[Card, ...] | None = None  # this seat's hand, as last told
        self.after_two = False  # the decision on the board follows a 2
        self.chat_lines: list[ChatLine] = []  # the game's chat so far (succession's + live)
        self.game_number = 1  # the table's number of the game on the board (or next)
        self.election: el.Election | None = None
        # (epoch, seat) of a host that handed the table over to leave it
        self.handed_from: tuple[int, int] | None = None
        self._attempt: el.TryCandidate | None = None  # this connection's, to a candidate
        self._decisions: list[el.Decision] = []
        self._pending: m.Welcome | None = None  # a candidate's welcome, not yet checked
        self._offered_on: ClientSession | None = None
        self._checked_on: ClientSession | None = None  # the session a succession came on
        # The board before following a new host, until that host shows its own: one
        # that vanishes first must not leave this laptop without the game in progress.
        self._kept_board: Board | None = None
        self._in_game = False  # a game is in progress as far as this laptop knows
        self._now = 0.0
        self.missed = MissedMove()  # this seat's last move, if a new host missed it

    # -- what we know ------------------------------------------------------------------

    @property
    def pid(self) -> int | None:
        return None if self.welcome is None else self.welcome.pid

    @property
    def pawns(self) -> tuple[int, ...]:
        """The board as the last message left it (empty: no game known)."""
        return () if self.snapshot is None else self.seen.board

    def view_at(self, ev: ClientEvent) -> TableView:
        """The table as of ``ev``, one of the last :data:`VIEWS_KEPT` events this
        model handed out (a reader behind its queue reads the board its event left);
        for any other (a shell's :class:`Connection`), the view now."""
        kept = self._views.get(id(ev))
        return kept[1] if kept is not None and kept[0] is ev else self.view

    def _publish(self, events: list[ClientEvent]) -> None:
        """The view after a message, and the events it made as of it."""
        if len(self._chat_told) != len(self.chat_heard) or (
            self.chat_heard and self._chat_told[-1:] != tuple(self.chat_heard[-1:])
        ):
            self._chat_told = tuple(self.chat_heard)
        snap, turn = self.snapshot, self.turn
        over = self.over
        playing = snap is not None
        self.view = TableView(
            sid=self.sid,
            variant=snap.variant if snap is not None else (
                self.lobby.variant if self.lobby is not None else NO_VIEW.variant),
            seated=() if snap is None else tuple(int(c) for c in snap.colours),
            pawns=self.pawns,
            you=None if snap is None or snap.you is None else int(snap.you),
            turn=None if not playing or over is not None else (
                int(turn.colour) if turn is not None else
                None if snap is None or snap.turn is None else int(snap.turn)),
            card=self._card(),
            hand=self.hand,
            offer=self.moves,
            discarded=self.discarded or NO_CARDS,
            after_two=self.after_two,
            over=over,
            lobby=self.lobby,
            chat=self._chat_told,
            history=self.seen.history() if playing else NO_VIEW.history,
            game=self.game_number,
        )  # fmt: skip
        for ev in events:
            self._views[id(ev)] = (ev, self.view)
        while len(self._views) > VIEWS_KEPT:
            self._views.popitem(last=False)

    @property
    def hosted_here(self) -> bool:
        """The table we follow is hosted by this laptop: its succession names our seat
        as the host's (the host's own player, or a laptop that took the table over)."""
        known = self.succession
        return (
            known is not None and known.host is not None and known.host == self.pid
            and not self.spectate
        )

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

    def take_decisions(self) -> list[el.Decision]:
        """The election's decisions on what the model read since the last call, in
        order (the shell carries them out, with those its own inputs return)."""
        taken, self._decisions = self._decisions, []
        return taken

    @property
    def epoch(self) -> int | None:
        """The epoch of the host we follow (None: it sent no ``succession``)."""
        return None if self.succession is None else self.succession.epoch

    @property
    def board_missing(self) -> bool:
        """A game is in progress as far as this laptop knows, but not its board (a
        reconnection's welcome before the board came again): it may not host the
        table now (a successor would deal a fresh game for the one in progress)."""
        return self._in_game and self._board() is None

    def knowledge(self) -> Knowledge | None:
        """What this laptop knows that a successor needs (None unless it was welcomed
        as a player by a version-4 host that sent a ``succession`` and a lobby)."""
        if (
            self.succession is None or self.lobby is None or self.pid is None
            or self.token is None or self.spectate
        ):
            return None
        board = self._board()
        if self.board_missing:
            log.info("no knowledge for a successor: the board of the game is not known")
            return None  # (a successor would deal a fresh game for the one in progress)
        try:
            return Knowledge(
                self.succession, self.lobby, self.pid, self.token, board=board,
                hand=self.hand, salt=self.salt, commit=self.commit,
                chat=tuple(self.chat_lines[-CHAT_KEPT:]),
                so_far=self._so_far_record(),
                games_played=self.game_number - 1, left=self._left(),
            )
        except ValueError as exc:  # the succession does not list this seat (yet)
            log.info("no knowledge for a successor: %s", exc)
            return None

    def _so_far_record(self) -> dict[str, Any] | None:
        """The record of the game on the board as far as this laptop knows it: once it
        is over, the whole game the host sent; else the game so far this client built
        (from its first state, or from the host's record of it on); None when not known
        (never the host's record as it was when sent, which misses the moves since)."""
        if self.over is not None and self.records and self.records[-1].game == self.game_number:
            return self.records[-1].record
        return self.seen.record()  # (the host's record so far goes on in it, or is stale)

    def _left(self) -> int | None:
        """The seat of the host that handed this table over to the next epoch."""
        handed, known = self.handed_from, self.succession
        if handed is None or known is None or handed[0] != known.epoch + 1:
            return None
        return handed[1]

    def _board(self) -> Board | None:
        snap = self.snapshot
        if snap is None:
            return self._kept_board  # (a new host followed that has shown none yet)
        turn, over = self.turn, self.over
        return Board(
            snap.variant, self.sid, tuple(int(c) for c in snap.colours), self.pawns,
            int(turn.colour) if turn is not None else int(snap.turn or 0),
            card=None if over is not None or turn is None else turn.card,
            after_two=self.after_two, discarded=self.discarded,
            pile=turn.pile if turn is not None else snap.pile, over=over is not None,
            winners=() if over is None else tuple(int(c) for c in over.winners),
        )

    def take_seat_news(self) -> SeatNews | None:
        """What became of the seat token since the last call (None: nothing)."""
        news, self._seat_news = self._seat_news, None
        return news

    # -- bytes in, events out ------------------------------------------------------------

    def join(self, now: float, *, attempt: el.TryCandidate | None = None) -> None:
        """Begin a new connection: a new session, the greeting queued.  ``attempt``: the
        connection is to a candidate's standby, as the election asked (a vote, then the
        new host: its ``succession`` is checked before it is followed)."""
        self._attempt = attempt
        self._pending = None
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
        self._now = now
        # (a new connection's frames are the host's once its succession is accepted)
        if self.election is not None and self._attempt is None and self._checked_on is session:
            self._decisions += self.election.heard(now)
        out: list[ClientEvent] = []
        for msg in session.receive_data(data):
            told = len(out)
            self._on_message(msg, out)
            self._publish(out[told:])
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
        if isinstance(msg, m.Succession):  # (comes before the chat so far: not its end)
            self._on_succession(msg, out)
            return
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
                if self.snapshot is None:
                    self._lobbies += 1
                else:
                    self.seen.lobby(msg)
                out.append(msg)
            case m.Snapshot():
                self._seen_snapshot(msg)
                if msg.sid != self.sid or self.snapshot is None:
                    self.after_two = False  # (the same state told again: no news)
                if msg.hand is not None:
                    self.hand = msg.hand
                self.snapshot = msg
                self.discarded = msg.discarded or ()
                self.sid = msg.sid
                was_over, self.over = self.over, None
                self._kept_board = None
                self._in_game = msg.turn is not None
                self.moves = None
                if was_over is not None:  # a rematch: the seat is worth keeping again
                    self._seat_news = SeatNews.KEEP
                out.append(msg)
            case m.Turn():
                self.turn = msg
                if msg.hand is not None:
                    self.hand = msg.hand
                self.sid = msg.sid
                out.append(msg)
            case m.LegalMoves():
                self.moves = msg
                again = self.missed.again(self.pawns, self._card(), msg)
                if again is None:
                    out.append(msg)
                else:  # the move this seat made that the new host missed: made again
                    log.info("the new host missed our move at sid %d: played again", msg.sid)
                    self.play(again)
            case m.Events():
                self._check_replay(msg, out)
                try:
                    self.seen.events(msg)
                except FoldError as exc:  # (the board is told again: the fold begins there)
                    self._resync(msg.sid, str(exc), out)
                if self.discarded:
                    self.discarded = apply_discards(self.discarded, msg.events)
                self.after_two = draws_again(msg.events, self.after_two)
                self._played_from_hand(msg)
                self.sid = msg.sid
                out.append(msg)
            case m.GameOver():
                self.over = msg
                if msg.winners:  # the table's winner: the lower seat of a team
                    self._prior, self._prior_known = min(int(c) for c in msg.winners), True
                elif self._told_again:  # abandoned: a host restarted meanwhile forgot
                    self._prior_known = False  # its last winner, one reconnected did not
                self.moves = None
                self._in_game = False
                self.hand = self.salt = self.commit = None  # nothing left to reveal
                self._seat_news = SeatNews.FORGET
                out.append(msg)
            case m.Chat():
                self._remember_chat(msg.text)
                self._chat_line(msg)
                out.append(msg)
            case m.RecordPart():
                self._record_part(msg, out)
            case m.Rematch():  # back in the lobby: the game we knew is over and gone
                self._forget_game()
                self._kept_board = None
                self._in_game = False
                self.seen.forget()
                self._lobbies = 1  # the next roster's snapshot begins a game
                self.missed.forget()
                self.game_number += 1
                self.hand = self.salt = self.commit = None
                self.chat_lines.clear()
                self._seat_news = SeatNews.KEEP  # the seat holds us in the next game's lobby
                out.append(msg)
            case m.Error():
                out.append(msg)
            case m.Bye():
                self.bye = msg.reason
            case m.Commit():
                self.commit = msg
                if msg.salt is not None:
                    self.salt = msg.salt
            case m.Handover():
                self._on_handover(msg, out)
            case m.Refuse() if self._attempt is not None and self.election is not None:
                attempt, self._attempt = self._attempt, None
                answer = standby_answer(msg)
                if answer is StandbyAnswer.REFUSED:
                    self._decisions += self.election.failed(attempt, self._now)
                else:  # counting votes, or not standing
                    standing = answer is StandbyAnswer.STANDING
                    self._decisions += self.election.busy(attempt, self._now, standing)
            case _:
                pass  # pong, refuse (see refusal): nothing a reader acts on

    def _seen_snapshot(self, snap: m.Snapshot) -> None:
        """A snapshot for the game so far: a game's first (this client was in the
        lobby when it began), or one during a game (it goes on, or is not known)."""
        seated = tuple(int(c) for c in snap.colours)
        began = (
            self.snapshot is None and self._lobbies >= 2 and snap.turn is not None
            and tuple(snap.pawns) == snap.variant.rules.initial_pawns(seated)
        )  # fmt: skip
        if began:
            chosen = self._prior if self._prior in seated else None
            self.seen.begin(snap, chosen, chosen_known=self._prior_known)
            self._told_again = False
        else:
            self.seen.snapshot(snap)
            self._told_again = True
        if self.lobby is not None:  # (told just before the snapshot: who is away)
            self.seen.lobby(self.lobby)

    def _forget_game(self) -> None:
        """Nothing of a game is known: the table is in its lobby (until a snapshot)."""
        self.snapshot = None
        self.turn = None
        self.moves = None
        self.over = None
        self.discarded = ()
        self.so_far = None  # (the records of whole games stay: kept)

    def _welcomed(self, welcome: m.Welcome) -> None:
        if self._attempt is not None:  # a new host: admitted once its succession is checked
            self._pending = welcome
            return
        self._admit(welcome)

    def _admit(self, welcome: m.Welcome) -> None:
        # Whatever game we knew is told again after a welcome (the snapshot and, if it
        # ended, its over); a table in its lobby tells none: a rematch's lobby, or a new
        # table at the same address.
        self._forget_game()
        self.welcome = welcome
        self._welcomed_on = self.session
        if welcome.token is not None:
            self.token = welcome.token
        self.connected = True
        self._lobbies = 0
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
        for line in lines:
            self._chat_line(line)

    def _played_from_hand(self, msg: m.Events) -> None:
        """This seat's hand less the cards it played or discarded (what it knows of
        it until its next ``turn`` tells the card drawn: what the host commits to)."""
        hand, colour = self.hand, self.colour
        if hand is None or colour is None:
            return
        left = list(hand)
        for ev in msg.events:
            if ev[0] in _FROM_HAND and ev[1] == colour and ev[2] in left:
                left.remove(Card(ev[2]))
        self.hand = tuple(left)

    def _chat_line(self, chat: m.Chat) -> None:
        """Keep a chat line of the game so far for a successor (a line the host's last
        ``succession`` already holds, told again after a welcome, once)."""
        line = ChatLine(chat.pid, chat.text)
        if self._so_far is not None and line in self.chat_lines:
            return
        self.chat_lines.append(line)
        del self.chat_lines[:-CHAT_KEPT]

    # -- who hosts (protocol version 4) -----------------------------------------------------

    def _name_of(self, pid: int | None) -> str | None:
        players = () if self.lobby is None else self.lobby.players
        return next((p.name for p in players if p.pid == pid), None)

    def _on_succession(self, msg: m.Succession, out: list[ClientEvent]) -> None:
        """The host's ``succession``: kept when it is the host we follow (its epoch), or
        a new host this client may follow; else refused (bye)."""
        attempt, known = self._attempt, self.epoch
        if attempt is not None:  # a candidate's standby welcomed us: a new host?
            ours = self.succession is None or msg.table == self.succession.table
            decisions = (
                [] if self.election is None
                else self.election.welcomed(attempt, msg.epoch, msg.host, self._now, ours=ours)
            )
            self._decisions += decisions
            if any(isinstance(d, el.Follow) for d in decisions):
                self._attempt = None
                self._follow(msg, out)
                return
            refusal = next((d for d in decisions if isinstance(d, el.RefuseHost)), None)
            why = el.RefuseHost(msg.host, msg.epoch, el.Claim.OUT_OF_TURN)
            self._refuse_host(refusal or why, out)
            return
        if known is None or (msg.epoch == known and not self._another_host(msg)):
            if self.election is not None and self._checked_on is not self.session:
                self._decisions += self.election.heard(self._now)  # the host is back
            self._keep(msg)
            return
        election = self.election
        if (
            msg.epoch > known and election is not None and msg.host == self.pid
            and election.phase is el.Phase.HOSTING
        ):  # this laptop took over: its own client is welcomed by its own host
            self._follow(msg, out)
            return
        reason = el.Claim.OLD_EPOCH if msg.epoch < known else el.Claim.OUT_OF_TURN
        self._refuse_host(el.RefuseHost(msg.host, msg.epoch, reason), out)

    def _another_host(self, msg: m.Succession) -> bool:
        """Whether ``msg``, the first ``succession`` of a new connection to the host we
        follow (a reconnection), names another laptop as host at the epoch we know: no
        host we follow (it hosts that epoch as its own seat, or headless), but a claim
        that did not come through the election (a replay, or a laptop at its address).
        A seat that comes or goes on a live connection (the host's own player sits
        down) is no claim."""
        known = self.succession
        if known is None or self._checked_on is self.session:
            return False
        return None not in (known.host, msg.host) and msg.host != known.host

    def _keep(self, msg: m.Succession) -> None:
        """``msg`` is the succession of the host we follow from now."""
        self.succession = msg
        self._checked_on = self.session
        self.chat_lines = list(msg.chat)
        order = el.Order.of(msg)
        if self.election is None:
            me = None if self.spectate else self.pid
            self.election = el.Election(order, me=me, now=self._now)
        else:
            self.election.update(order)
        self._tell_offer()

    def _follow(self, msg: m.Succession, out: list[ClientEvent]) -> None:
        """A new host at a greater epoch, checked: followed, and in a game for points,
        told this seat's hand and its salt.  The board known so far is kept until the
        new host shows one (:meth:`_board`)."""
        pending, self._pending = self._pending, None
        if pending is not None:
            self._kept_board = self._board()
            self._admit(pending)
        self._keep(msg)
        if self.over is None:  # a new host's table forgets the last winner mid-game
            self._prior, self._prior_known = None, True
        you = msg.host is not None and msg.host == self.pid
        name = self._name_of(msg.host)
        out.append(TableNews(TableNewsKind.HOST_CHANGED, msg.host, name, msg.epoch, you))
        self.missed.followed()
        hand, salt = self.hand, self.salt
        if not you and hand is not None and salt is not None and self._speaks_v4():
            self.send(m.Reveal(hand=hand, salt=salt))

    def _refuse_host(self, refusal: el.RefuseHost, out: list[ClientEvent]) -> None:
        self._attempt = self._pending = None
        self.connected = False
        name = self._name_of(refusal.pid)
        out.append(
            TableNews(TableNewsKind.CLAIM_REFUSED, refusal.pid, name, refusal.epoch,
                      text=refusal.text, claim=refusal.reason)
        )
        with contextlib.suppress(LocalProtocolError):
            self.close(ByeReason.QUIT)

    def _on_handover(self, msg: m.Handover, out: list[ClientEvent]) -> None:
        mine = self.hosted_here
        if self.succession is not None and self.succession.host is not None:
            self.handed_from = (msg.epoch, self.succession.host)  # its player leaves
        you = msg.pid == self.pid and not self.spectate
        out.append(
            TableNews(TableNewsKind.HANDOVER, msg.pid, self._name_of(msg.pid), msg.epoch, you,
                      mine=mine)
        )
        if self.election is not None:
            self._decisions += self.election.handover(msg.epoch, msg.pid, self._now)

    def _speaks_v4(self) -> bool:
        session = self.session
        return (
            session is not None and not session.closed and self.connected
            and (session.version or 1) >= SUCCESSION_VERSION and not self.spectate
        )

    def _tell_offer(self, again: bool = False) -> None:
        """Offer this laptop's standby to a version-4 host we follow (once a connection,
        or ``again``: it changed)."""
        if self.standby is None or not self._speaks_v4():
            return
        if again or self._offered_on is not self.session:
            port, addrs = self.standby
            self.send(m.Offer(port=port, addrs=addrs))
            self._offered_on = self.session

    def set_standby(self, port: int, addrs: tuple[str, ...]) -> None:
        """This laptop's standby listens on ``port`` at ``addrs`` (changed, or new):
        offered to the host now when it hears offers, else after the next welcome."""
        self.standby = (port, addrs)
        if self.succession is not None and self._attempt is None:
            self._tell_offer(again=True)

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
        self.game_number = part.game
        kept = next((r for r in self.records if r.game == got.game), None)
        if not got.whole:
            self.so_far = got
            self.seen.seed(record)
        elif kept is not None:
            # Told again: a player who came back, or the table's new host showing the
            # game that ended before it took over (its record, rebuilt from what the
            # laptops knew, has no seed or deck).  The first one is the game's: kept
            # and filed once, and handed on again (a new event: its own view).
            got = GameRecord(kept.game, kept.record)
        else:
            self.so_far = None
            self.records.append(got)
            del self.records[:-RECORDS_KEPT]
            self._unfiled.append(got)
            if self.over is not None:  # the first whole copy: the figures' if ours is not
                self.seen.adopt(record)
        out.append(got)

    def _check_replay(self, msg: m.Events, out: list[ClientEvent]) -> None:
        """Ask for a ``resync`` (and log why) when ``msg`` does not add up on our board."""
        snap = self.snapshot
        if snap is None or len(self.pawns) != len(snap.pawns):
            return
        problem = check_events(self.pawns, msg.events, Variant(snap.variant.value))
        if problem is None:
            return
        log.warning("%s %d: %s; asking for a resync", REPLAY_MISMATCH, msg.sid, problem)
        self._resync(msg.sid, problem, out)

    def _resync(self, sid: int, problem: str, out: list[ClientEvent]) -> None:
        """Our fold cannot follow the host at ``sid``: the game so far is not known
        from here, and the host is asked for the board again (its snapshot begins
        the fold anew)."""
        self.replay_mismatches += 1
        log.info("the game so far cannot follow the host at sid %d: %s", sid, problem)
        self.seen.give_up(f"{REPLAY_MISMATCH} {sid}: {problem}")
        with contextlib.suppress(LocalProtocolError):
            self.send(m.Resync())
        out.append(ReplayMismatch(sid, problem))

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
        chosen = next((o for o in offer.moves if o.id == move_id), None)
        if chosen is not None:
            self.missed.made(self.pawns, self._card(), chosen.move)

    def _card(self) -> Card | None:
        """The card in play, when it is public (not in a game for points)."""
        snap = self.snapshot
        if snap is None or snap.variant.rules.deals_hands or self.over is not None:
            return None
        if self.turn is not None:
            return self.turn.card
        return snap.card

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
