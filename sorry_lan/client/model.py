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

``receive_data`` returns :data:`~sorry_lan.client.events.ClientEvent` values
(``client.events``, importable from here too): the wire messages a UI or a bot reads,
matched on as they are, :class:`ReplayMismatch`, the game records the host sent (kept
by :attr:`book`, ``client.records``; the whole ones handed to the shell once by
:meth:`take_records` to file) and ``TableNews``.  A client at the table since the
game began builds the game so far itself from what it was shown (:attr:`seen`,
``client.so_far``; gone on from the host's record when one came), for a successor.
Where the table is comes from :attr:`state`: ``lobby`` (the table's lobby, a rematch's
included: no game is known then), ``playing`` or ``game_over``.
The joining messages (``welcome``, ``refuse``, a ``challenge`` with no PIN given) are
not events: the shell reads :attr:`connected`, :attr:`refusal`, :attr:`pin_asked`
and :attr:`closed` after each read.

On protocol version 4 the model feeds what it reads of who hosts the table (the
host's ``succession``, ``commit``, ``handover``, a candidate's ``refuse``) to its
:attr:`participant` (``client.participant``: the election, what a successor needs,
:meth:`knowledge`), sends the ``offer`` and ``reveal`` it asks for, reports
``TableNews`` and says bye to a host it refuses.  A move this seat made that the new
host it follows never heard of (the old host died telling it) is played again at once
when that host offers the same decision (:mod:`sorry_lan.client.missed`).

It does not open sockets, keep time, retry, or write seat files or records: it says
when the seat token is worth keeping or forgetting (:meth:`take_seat_news`) and the
shell does the filing.  It never logs the seat token.
"""

from __future__ import annotations

import contextlib
import logging
from collections import OrderedDict
from typing import Any

from sorry_lan.bots.base import DEFAULT_STRENGTH
from sorry_lan.client.events import (
    ClientEvent,
    Connection,
    ReplayMismatch,
    SeatNews,
    TableNews,
    TableNewsKind,
)
from sorry_lan.client.missed import MissedMove
from sorry_lan.client.participant import Participant
from sorry_lan.client.records import RECORDS_KEPT, GameRecord, RecordBook
from sorry_lan.client.so_far import FoldError, SoFar
from sorry_lan.client.view import NO_VIEW, TableView
from sorry_lan.rules import Card, Variant
from sorry_lan.rules.cards import NO_CARDS
from sorry_lan.succession import election as el
from sorry_lan.succession.knowledge import Board, Knowledge, draws_again
from sorry_lan.wire import messages as m
from sorry_lan.wire.apply import apply_discards, check_events
from sorry_lan.wire.errors import ErrorReason, LocalProtocolError
from sorry_lan.wire.session import ClientSession
from sorry_lan.wire.transitions import State
from sorry_lan.wire.vocab import ByeReason

__all__ = [
    "HEARD_KEPT", "RECORDS_KEPT", "REPLAY_MISMATCH", "SUCCESSION_VERSION", "VIEWS_KEPT",
    "ClientEvent", "ClientModel", "Connection", "GameRecord", "ReplayMismatch", "SeatNews",
    "TableNews", "TableNewsKind",
]

log = logging.getLogger(__name__)

HEARD_KEPT = 200  # chat lines remembered, to tell the table's chat so far from news
VIEWS_KEPT = 4096  # events whose view a reader behind its queue can still ask for
SUCCESSION_VERSION = 4  # the protocol version that has offer, succession and reveal
REPLAY_MISMATCH = "the host's events do not add up on our board at sid"


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
        self.session: ClientSession | None = None  # the current connection's
        self._welcomed_on: ClientSession | None = None
        self.connected = False  # welcomed on the current connection, and it is up
        self.pin_asked = False  # the host challenged us and we have no PIN
        self.bye: ByeReason | None = None  # the reason of the host's last bye
        self._refused: ClientSession | None = None  # the connection whose claim we refused
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
        self.book = RecordBook()  # the game records the host sent (client.records)
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
        self.after_two = False  # the decision on the board follows a 2
        # Protocol version 4: what a successor needs, and who hosts next (its standby:
        # this laptop's (port, addresses), offered to a version-4 host: it may host).
        self.participant = Participant(standby)
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
            game=self.book.game_number,
        )  # fmt: skip
        for ev in events:
            self._views[id(ev)] = (ev, self.view)
        while len(self._views) > VIEWS_KEPT:
            self._views.popitem(last=False)

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

    # -- kept elsewhere, read here (client.records, client.participant) ---------------------

    @property
    def records(self) -> list[GameRecord]:
        """The whole game records the host sent, the last :data:`RECORDS_KEPT`."""
        return self.book.whole

    def take_records(self) -> list[GameRecord]:
        """The whole game records received since the last call, oldest first (each
        once: the shell files them)."""
        return self.book.take_unfiled()

    @property
    def hosted_here(self) -> bool:
        """The table we follow is hosted by this laptop: its succession names our seat
        as the host's (the host's own player, or a laptop that took the table over)."""
        return self.participant.hosted_here(self._me)

    @property
    def _me(self) -> int | None:
        """This seat's pid as a player (None: a spectator, or not welcomed)."""
        return None if self.spectate else self.pid

    @property
    def succession(self) -> m.Succession | None:
        """The last ``succession`` of the host we follow, as accepted."""
        return self.participant.succession

    @property
    def epoch(self) -> int | None:
        """The epoch of the host we follow (None: it sent no ``succession``)."""
        return self.participant.epoch

    @property
    def election(self) -> el.Election | None:
        """The table's election (made at the first ``succession``)."""
        return self.participant.election

    @property
    def followed(self) -> tuple[str | None, int, int | None] | None:
        """(table id, epoch, host's seat) of the host this seat follows, or else the
        one recalled: what its seat file keeps (None: no version-4 host yet)."""
        known = self.participant.succession
        if known is None:
            return self.participant.recalled
        return known.table, known.epoch, known.host

    def recall(self, table: str | None, epoch: int, host: int | None) -> None:
        """The host this seat followed before this process (its seat file): no host
        at an older epoch than ``epoch``, or at that epoch another seat's than ``host``,
        is followed (a majority may have replaced it while this laptop was away)."""
        self.participant.recalled = (table, epoch, host)

    @property
    def hand(self) -> tuple[Card, ...] | None:
        """This seat's hand (play for points), as last told, less the cards played."""
        return self.participant.hand

    def take_decisions(self) -> list[el.Decision]:
        """The election's decisions on what the model read since the last call, in
        order (the shell carries them out, with those its own inputs return)."""
        return self.participant.take_decisions()

    @property
    def board_missing(self) -> bool:
        """A game is in progress as far as this laptop knows, but not its board (a
        reconnection's welcome before the board came again): it may not host the
        table now (a successor would deal a fresh game for the one in progress)."""
        return self.participant.board_missing(self._shown)

    def knowledge(self) -> Knowledge | None:
        """What this laptop knows that a successor needs (None unless it was welcomed
        as a player by a version-4 host that sent a ``succession`` and a lobby)."""
        return self.participant.knowledge(
            lobby=self.lobby, pid=self.pid, token=self.token, spectate=self.spectate,
            shown=self._shown, so_far=self._so_far_record,
            games_played=self.book.game_number - 1,
        )

    def set_standby(self, port: int, addrs: tuple[str, ...]) -> None:
        """This laptop's standby listens on ``port`` at ``addrs`` (changed, or new):
        offered to the host now when it hears offers, else after the next welcome."""
        self.participant.standby = (port, addrs)
        if self.participant.succession is not None and self.participant.attempt is None:
            self._tell_offer(again=True)

    def _so_far_record(self) -> dict[str, Any] | None:
        """The record of the game on the board as far as this laptop knows it: once it
        is over, the whole game the host sent; else the game so far this client built
        (from its first state, or from the host's record of it on); None when not known
        (never the host's record as it was when sent, which misses the moves since)."""
        whole = self.book.whole_of_game()
        if self.over is not None and whole is not None:
            return whole
        return self.seen.record()  # (the host's record so far goes on in it, or is stale)

    def _shown(self) -> Board | None:
        """The board this client shows (None: no game on it)."""
        snap = self.snapshot
        if snap is None:
            return None
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
        self.participant.connecting(attempt)
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
        self.participant.heard(session, now)
        out: list[ClientEvent] = []
        for msg in session.receive_data(data):
            told = len(out)
            self._on_message(msg, out)
            self._publish(out[told:])
            if self._refused is session:
                # what the same bytes carry after a claim we refused is the refused
                # host's (its lobby, its board), never this table's
                break
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
                self.participant.told_board(msg)
                self.snapshot = msg
                self.discarded = msg.discarded or ()
                self.sid = msg.sid
                was_over, self.over = self.over, None
                self.moves = None
                if was_over is not None:  # a rematch: the seat is worth keeping again
                    self._seat_news = SeatNews.KEEP
                out.append(msg)
            case m.Turn():
                self.turn = msg
                self.participant.told_turn(msg)
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
                self.participant.played(msg, self.colour)
                self.sid = msg.sid
                out.append(msg)
            case m.GameOver():
                self.over = msg
                if msg.winners:  # the table's winner: the lower seat of a team
                    self._prior, self._prior_known = min(int(c) for c in msg.winners), True
                elif self._told_again:  # abandoned: a host restarted meanwhile forgot
                    self._prior_known = False  # its last winner, one reconnected did not
                self.moves = None
                self.participant.game_over()
                self._seat_news = SeatNews.FORGET
                out.append(msg)
            case m.Chat():
                self._remember_chat(msg.text)
                self.participant.chat(msg, told_again=False)
                out.append(msg)
            case m.RecordPart():
                self._record_part(msg, out)
            case m.Rematch():  # back in the lobby: the game we knew is over and gone
                self._forget_game()
                self.participant.rematch()
                self.seen.forget()
                self._lobbies = 1  # the next roster's snapshot begins a game
                self.missed.forget()
                self.book.rematch()
                self._seat_news = SeatNews.KEEP  # the seat holds us in the next game's lobby
                out.append(msg)
            case m.Error():
                out.append(msg)
            case m.Bye():
                self.bye = msg.reason
            case m.Commit():
                self.participant.committed(msg)
            case m.Handover():
                self._on_handover(msg, out)
            case m.Refuse():  # (the host's: see refusal; a candidate's: the election's)
                self.participant.refused(msg, self._now)
            case _:
                pass  # pong: nothing a reader acts on

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
        self.book.so_far = None  # (the records of whole games stay: kept)

    def _welcomed(self, welcome: m.Welcome) -> None:
        if not self.participant.hold(welcome):  # (a new host's: once its succession is checked)
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
            self.participant.chat(line, told_again=True)

    def _record_part(self, part: m.RecordPart, out: list[ClientEvent]) -> None:
        """Take a part of a game record (``client.records``); the record once its last
        part is in, and the game so far goes on from it (or adopts a whole game's)."""
        taken = self.book.take(part)
        if taken is None:
            return
        got, what = taken
        if what == "so_far":
            self.seen.seed(got.record)
        elif what == "new" and self.over is not None:
            # (the first whole copy: the figures' if ours is not)
            self.seen.adopt(got.record)
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

    # -- who hosts (protocol version 4) -----------------------------------------------------

    def _name_of(self, pid: int | None) -> str | None:
        players = () if self.lobby is None else self.lobby.players
        return next((p.name for p in players if p.pid == pid), None)

    def _on_succession(self, msg: m.Succession, out: list[ClientEvent]) -> None:
        """The host's ``succession``: kept, followed or refused, as the participant judges."""
        verdict = self.participant.judge(msg, self.session, self.pid, self._now)
        if verdict == "keep":
            self._keep(msg)
        elif verdict == "follow":
            self._follow(msg, out)
        else:
            self._refuse_host(verdict, out)

    def _keep(self, msg: m.Succession) -> None:
        """``msg`` is the succession of the host we follow from now."""
        self.participant.keep(msg, self.session, self._me, self._now)
        self._tell_offer()

    def _follow(self, msg: m.Succession, out: list[ClientEvent]) -> None:
        """A new host at a greater epoch, checked: followed (admitted, if its welcome
        was held), and in a game for points, told this seat's hand and its salt."""
        pending = self.participant.follow(self._shown)
        if pending is not None:
            self._admit(pending)
        self._keep(msg)
        self._seat_news = SeatNews.KEEP  # (its seat file keeps the new epoch)
        if self.over is None:  # a new host's table forgets the last winner mid-game
            self._prior, self._prior_known = None, True
        you = msg.host is not None and msg.host == self.pid
        name = self._name_of(msg.host)
        out.append(TableNews(TableNewsKind.HOST_CHANGED, msg.host, name, msg.epoch, you))
        self.missed.followed()
        reveal = self.participant.reveal()
        if not you and reveal is not None and self._speaks_v4():
            self.send(reveal)

    def _refuse_host(self, refusal: el.RefuseHost, out: list[ClientEvent]) -> None:
        self._refused = self.session
        self.participant.drop_attempt()
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
        you = msg.pid == self.pid and not self.spectate
        out.append(
            TableNews(TableNewsKind.HANDOVER, msg.pid, self._name_of(msg.pid), msg.epoch, you,
                      mine=mine)
        )
        self.participant.handover(msg, self._now)

    def _speaks_v4(self) -> bool:
        session = self.session
        return (
            session is not None and not session.closed and self.connected
            and (session.version or 1) >= SUCCESSION_VERSION and not self.spectate
        )

    def _tell_offer(self, again: bool = False) -> None:
        """Offer this laptop's standby to a version-4 host we follow (once a connection,
        or ``again``: it changed)."""
        offer = self.participant.offer(self.session, self._speaks_v4(), again)
        if offer is not None:
            self.send(offer)

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
