"""A client's session with its table, sans-I/O: bytes and the clock in, events out.

:class:`ClientModel` wraps a :class:`~sorry_lan.wire.session.ClientSession` (one per
connection; the model outlives them), keeps the welcome (pid, owner, the seat token)
and routes each message the host sends: what it says of the table to the fold
(:attr:`table`, ``client.fold``: the lobby, the board, whose turn, the offer, the
discard counts, the chat heard, the game's result, the records; it publishes the
table as a frozen :class:`~sorry_lan.client.view.TableView` after each message,
:attr:`view`, and the view as of an event it handed out, :meth:`view_at`, which every
reader reads), and what it says of who hosts to the :attr:`participant`.  It asks for
a ``resync`` when the fold cannot follow the host (``REPLAY_MISMATCH``).

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
:meth:`take_records` to file) and ``TableNews``.  What the fold knows is read here
too (:attr:`pawns`, :attr:`snapshot`, :attr:`moves`, :attr:`over`, :attr:`seen`...).
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

On protocol version 5 the table's messages (but chat and errors) from the first
state not settled on wait, in order, until the host's ``settled`` covers them
(:attr:`unsettled`): nothing shows them, no offer among them is answered.  What a
successor continues from is the table as received (:attr:`received`, with them folded
in): :meth:`knowledge` and :attr:`board_missing` read it.

It does not open sockets, keep time, retry, or write seat files or records: it says
when the seat token is worth keeping or forgetting (:meth:`take_seat_news`) and the
shell does the filing.  It never logs the seat token.
"""

from __future__ import annotations

import contextlib
import logging
import math
from collections.abc import Mapping

from sorry_lan.bots.base import DEFAULT_STRENGTH
from sorry_lan.client import swaps
from sorry_lan.client.events import (
    ClientEvent,
    Connection,
    ReplayMismatch,
    SeatNews,
    TableNews,
    TableNewsKind,
)
from sorry_lan.client.fold import (
    HEARD_KEPT,
    REPLAY_MISMATCH,
    TABLE_MESSAGES,
    VIEWS_KEPT,
    TableFold,
    TableMessage,
)
from sorry_lan.client.missed import MissedMove
from sorry_lan.client.participant import Heed, Participant
from sorry_lan.client.records import RECORDS_KEPT, GameRecord, RecordBook
from sorry_lan.client.so_far import SoFar
from sorry_lan.client.view import TableView
from sorry_lan.rules import Card
from sorry_lan.succession import election as el
from sorry_lan.succession.knowledge import Knowledge
from sorry_lan.wire import messages as m
from sorry_lan.wire.errors import ErrorReason, LocalProtocolError
from sorry_lan.wire.limits import SETTLE_VERSION, SUPPORTED_VERSIONS
from sorry_lan.wire.session import ClientSession
from sorry_lan.wire.session_base import SID_TYPES
from sorry_lan.wire.transitions import State
from sorry_lan.wire.vocab import ByeReason, clip_text

__all__ = [
    "HEARD_KEPT", "RECORDS_KEPT", "REPLAY_MISMATCH", "SUCCESSION_VERSION", "VIEWS_KEPT",
    "ClientEvent", "ClientModel", "Connection", "GameRecord", "ReplayMismatch", "SeatNews",
    "TableNews", "TableNewsKind",
]

log = logging.getLogger(__name__)

#: Seconds after a try was given up unanswered that its hello may still reach the host
#: (a slow link holds it) and take this seat from a newer, live link.
STRAY_FOR = 60.0
#: The messages about the table that protocol version 5 holds until settled (the fold's
#: but chat and errors).
HELD_MESSAGES = tuple(t for t in TABLE_MESSAGES if t not in (m.Chat, m.Error))
SUCCESSION_VERSION = 4  # the protocol version that has offer, succession and reveal


class ClientModel:
    """One player's (or spectator's) session with a table; see the module docstring."""

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
        versions: tuple[int, ...] = SUPPORTED_VERSIONS,
    ) -> None:
        """``versions``: the protocol versions offered (an older client's, in tests)."""
        self.name = name
        self.versions = versions
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
        self._stray_until = float("-inf")  # a hello given up on may still arrive until
        self._stray_replaced = False  # the last bye: our own stray hello took the seat
        self._refused: ClientSession | None = None  # the connection whose claim we refused
        self.heard_at = 0.0  # the clock when the host last said something
        self.welcome: m.Welcome | None = None
        self._pings = 0
        self._seat_news: SeatNews | None = None
        self.table = TableFold()  # the table's game as this client knows it (client.fold)
        # Protocol version 4: what a successor needs, and who hosts next (its standby:
        # this laptop's (port, addresses), offered to a version-4 host: it may host).
        self.participant = Participant(standby)
        self._now = 0.0
        self.missed = MissedMove()  # this seat's last move, if a new host missed it
        # Protocol version 5: the table's messages from the first state not settled on,
        # each with this seat's hand as of it (shown once a ``settled`` covers them);
        # the newest settled sid of the game; the table as received (a cache).
        self._held: list[tuple[TableMessage, tuple[Card, ...] | None]] = []
        self._settled = -1
        self._ahead: TableFold | None = None
        # Protocol version 6: the pid whose ask to trade colours this seat answered
        # last (its ask going is no news to this seat), until another ask comes.
        self.swap_answered: int | None = None
        # Protocol version 6: the sid of the offer this seat asked more time for.
        self.time_asked: int | None = None

    # -- what we know ------------------------------------------------------------------

    @property
    def pid(self) -> int | None:
        return None if self.welcome is None else self.welcome.pid

    @property
    def colour(self) -> int | None:
        return self.table.colour(self.pid)

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
    def dropped(self) -> bool:
        """The host's ``bye`` is no goodbye: the client reconnects.  ``timeout``: the
        host dropped us and keeps the seat; ``replaced`` within :data:`STRAY_FOR` of a
        try this client gave up on with its hello unanswered: that late hello took the
        seat (the try is closed, so the seat waits for us).  A ``replaced`` with no such
        try, or a second one, is another process's: it holds the seat now."""
        return self.bye is ByeReason.TIMEOUT or self._stray_replaced

    @property
    def refusal(self) -> m.Refuse | None:
        return None if self.session is None else self.session.refusal

    # -- the table, folded in client.fold: read here --------------------------------------

    @property
    def view(self) -> TableView:
        """The table as of the last message (``client.view``)."""
        return self.table.view

    def view_at(self, ev: ClientEvent) -> TableView:
        """The table as of ``ev`` (see :meth:`TableFold.view_at`)."""
        return self.table.view_at(ev)

    @property
    def pawns(self) -> tuple[int, ...]:
        """The board as the last message left it (empty: no game known)."""
        return self.table.pawns

    @property
    def lobby(self) -> m.Lobby | None:
        return self.table.lobby

    @property
    def snapshot(self) -> m.Snapshot | None:
        return self.table.snapshot

    @property
    def turn(self) -> m.Turn | None:
        return self.table.turn

    @property
    def moves(self) -> m.LegalMoves | None:
        return self.table.moves

    @property
    def over(self) -> m.GameOver | None:
        return self.table.over

    @property
    def sid(self) -> int:
        return self.table.sid

    @property
    def discarded(self) -> tuple[int, ...]:
        return self.table.discarded

    @property
    def chat_heard(self) -> list[str]:
        return self.table.chat_heard

    @property
    def seen(self) -> SoFar:
        """The game so far as this client saw it (``client.so_far``)."""
        return self.table.seen

    @property
    def book(self) -> RecordBook:
        """The game records the host sent (``client.records``)."""
        return self.table.book

    @property
    def replay_mismatches(self) -> int:
        return self.table.replay_mismatches

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

    @property
    def replay_refused(self) -> bool:
        """The last claim this seat refused was the host its seat file recalls, at
        that epoch, on another port than it served on (a replay): the host itself may
        still be found on its own port."""
        return self.participant.replay_refused

    def recall(
        self, table: str | None, epoch: int, host: int | None, port: int | None = None,
        standbys: Mapping[int, int] | None = None,
    ) -> None:
        """The host this seat followed before this process (its seat file), serving on
        ``port`` if known: no host at an older epoch than ``epoch``, or at that epoch
        another seat's than ``host``, is followed (a majority may have replaced it while
        this laptop was away), nor that host at that epoch on another port (a replay),
        nor a seat hosting a newer epoch off the port its standby offered (``standbys``:
        each laptop's, by pid, as the orders it followed said)."""
        self.participant.recalled = (table, epoch, host)
        self.participant.recalled_port = port
        self.participant.standby_ports = dict(standbys or {})

    @property
    def standby_ports(self) -> dict[int, int]:
        """The standby port each laptop of the orders this seat followed offered, by
        pid (what its seat file keeps, for :meth:`recall`)."""
        return dict(self.participant.standby_ports)

    @property
    def hand(self) -> tuple[Card, ...] | None:
        """This seat's hand (play for points), as last told, less the cards played."""
        return self.participant.hand

    def take_decisions(self) -> list[el.Decision]:
        """The election's decisions on what the model read since the last call, in
        order (the shell carries them out, with those its own inputs return)."""
        return self.participant.take_decisions()

    def plain_again(self) -> bool:
        """The candidate's standby this connection tried rejected the ``seen`` of its
        vote (a version-4 laptop): try it again at once (the next hello has none)."""
        return self.participant.plain_again()

    @property
    def board_missing(self) -> bool:
        """A game is in progress as far as this laptop knows, but not its board (a
        reconnection's welcome before the board came again): it may not host the
        table now (a successor would deal a fresh game for the one in progress)."""
        return self.participant.board_missing(self.received.shown)

    @property
    def newest_state(self) -> tuple[int, int] | None:
        """The newest state this laptop holds, ``(epoch, sid)``: what its vote tells a
        candidate (SPEC 13, protocol version 5), and its standby compares votes with
        (None: no board)."""
        return self.participant.seen(self.received.shown)

    def knowledge(self) -> Knowledge | None:
        """What this laptop knows that a successor needs (None unless it was welcomed
        as a player by a version-4 host that sent a ``succession`` and a lobby)."""
        table = self.received
        return self.participant.knowledge(
            lobby=table.lobby, pid=self.pid, token=self.token, spectate=self.spectate,
            shown=table.shown, so_far=table.so_far_record,
            games_played=table.book.game_number - 1, began=table.began,
        )

    @property
    def received(self) -> TableFold:
        """The table as received, shown or not yet (protocol version 5: with the states
        not settled yet folded in): what a successor continues from, as a Raft log
        holds entries not committed yet.  Built when asked for (a takeover, an
        election); the table shown is :attr:`table`."""
        if not self._held:
            return self.table
        if self._ahead is None:
            self._ahead = self.table.ahead([msg for msg, _ in self._held])
        return self._ahead

    @property
    def unsettled(self) -> int:
        """How many of the table's messages wait to be shown until settled (version 5)."""
        return len(self._held)

    def set_standby(self, port: int, addrs: tuple[str, ...]) -> None:
        """This laptop's standby listens on ``port`` at ``addrs`` (changed, or new):
        offered to the host now when it hears offers, else after the next welcome."""
        self.participant.standby = (port, addrs)
        if self.participant.succession is not None and self.participant.attempt is None:
            self._tell_offer(again=True)

    def take_seat_news(self) -> SeatNews | None:
        """What became of the seat token since the last call (None: nothing)."""
        news, self._seat_news = self._seat_news, None
        return news

    # -- bytes in, events out ------------------------------------------------------------

    def join(
        self, now: float, *, attempt: el.TryCandidate | None = None, port: int | None = None
    ) -> None:
        """Begin a new connection (to ``port``, if the shell says): a new session, the
        greeting queued.  ``attempt``: the connection is to a candidate's standby, as the
        election asked (a vote, then the new host: its ``succession`` is checked before
        it is followed)."""
        old = self.session
        if old is not None and self.token is not None and old.refusal is None and (
                self._welcomed_on is not old):  # fmt: skip
            self._stray_until = now + STRAY_FOR  # its hello, unanswered, may come late
        self._stray_replaced = False
        self.participant.connecting(attempt, port)
        self.session = ClientSession(
            self.name, token=None if self.spectate else self.token, spectate=self.spectate,
            pin=self.pin, seen=self.participant.vote_seen(self.received.shown),
            versions=self.versions, answer_pings=False,
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
            if isinstance(msg, m.Ping):
                # answered here, in order: a pong after a claim this laptop refuses
                # would count toward settling the refused host's state
                with contextlib.suppress(LocalProtocolError):
                    session.send(m.Pong(n=msg.n))
            elif self._holds(session, msg):
                assert isinstance(msg, HELD_MESSAGES)
                self._ahead = None
                self._learn(msg)
                self._held.append((msg, self.hand))
                if isinstance(msg, m.Rematch):  # (its game is over: the host left it)
                    self._show(len(self._held), out)
            elif isinstance(msg, m.Settled):
                self._on_settled(msg, out)
            else:
                self._on_message(msg, out)
                self.table.publish(out[told:], self.hand)
            if isinstance(msg, m.Rematch):
                self._settled = -1  # (a ``settled`` from now on is the next game's)
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
        self.table.moves = None

    def _holds(self, session: ClientSession, msg: m.Message) -> bool:
        """Protocol version 5: whether ``msg`` waits to be shown: a message about the
        table from the first state not settled yet on, that state included (chat and
        errors never wait: the news that the game waits is chat)."""
        if (session.version or 1) < SETTLE_VERSION or not isinstance(msg, HELD_MESSAGES):
            return False
        if self._held:
            return True
        return msg.TYPE in SID_TYPES and msg.sid > self._settled  # type: ignore[union-attr]

    def _on_settled(self, msg: m.Settled, out: list[ClientEvent]) -> None:
        """The states up to ``msg.sid`` are settled: the messages held up to the first
        state after it are shown, in order."""
        self._settled = max(self._settled, msg.sid)
        shown = 0
        for i, (x, _) in enumerate(self._held):
            if x.TYPE in SID_TYPES and x.sid > self._settled:  # type: ignore[union-attr]
                break
            shown = i + 1
        self._show(shown, out)

    def _show(self, count: int, out: list[ClientEvent]) -> None:
        """Show the first ``count`` messages held, in order."""
        if not count:
            return
        released, self._held = self._held[:count], self._held[count:]
        self._ahead = None
        for x, hand in released:
            told = len(out)
            self._on_message(x, out, learnt=True)
            self.table.publish(out[told:], hand)

    def _drop_held(self) -> None:
        """A new welcome: what was held from before is never shown (the host tells
        the table again, settled or not)."""
        self._held.clear()
        self._settled = -1
        self._ahead = None

    def _learn(self, msg: m.Message) -> None:
        """What a successor needs from a message about the game, at once, shown or not
        yet: the board's hand, the game in progress or over, this seat's news."""
        match msg:
            case m.Snapshot():
                self.participant.told_board(msg)
                if self.table.over is not None:  # a rematch: the seat is worth keeping again
                    self._seat_news = SeatNews.KEEP
            case m.Turn():
                self.participant.told_turn(msg)
            case m.Events():
                self.participant.played(msg, self.colour)
            case m.GameOver():
                self.participant.game_over()
                self._seat_news = SeatNews.FORGET
            case m.Rematch():
                self.participant.rematch()
                self.missed.forget()
                self._seat_news = SeatNews.KEEP  # the seat holds us in the next game's lobby
            case _:
                pass

    def _on_message(self, msg: m.Message, out: list[ClientEvent], learnt: bool = False) -> None:
        """Handle ``msg`` (``learnt``: held until settled, :meth:`_learn` took it in
        when it came)."""
        if isinstance(msg, m.Succession):  # (comes before the chat so far: not its end)
            self._on_succession(msg, out)
            return
        told_again = self.table.chat_so_far(msg, out)
        if told_again is None:
            return  # (a line of the table's chat so far: held until it ends)
        for line in told_again:
            self.participant.chat(line, told_again=True)
        if not learnt:
            self._learn(msg)
        told = len(out)
        if isinstance(msg, TABLE_MESSAGES):
            self.table.now = self._now
            self.table.fold(msg, out)
        match msg:
            case m.Welcome():
                self._welcomed(msg)
            case m.Challenge():
                self.pin_asked = True
            case m.LegalMoves():
                again = self.missed.again(self.pawns, self.table.card(), msg)
                if again is not None:  # the move this seat made that the new host missed
                    log.info("the new host missed our move at sid %d: played again", msg.sid)
                    out.remove(msg)
                    self.play(again)
            case m.Chat():
                self.participant.chat(msg, told_again=False)
            case m.Bye():
                self.bye = msg.reason
                if msg.reason is ByeReason.REPLACED and self._now < self._stray_until:
                    self._stray_replaced = True  # (once: a second one is another's)
                    self._stray_until = float("-inf")
            case m.Lobby():
                if swaps.asked_by(msg, self.pid) is not None:
                    self.swap_answered = None  # (a new ask: not answered yet)
            case m.Commit():
                self.participant.committed(msg)
            case m.Handover():
                self._on_handover(msg, out)
            case m.Error():  # (a candidate's standby of version 4 may reject a vote's seen)
                greeting = None if self.session is None else self.session.greeting
                self.participant.peer_error(msg, greeting)
            case m.Refuse():  # (the host's: see refusal; a candidate's: the election's)
                if self.participant.refused(msg, self._now):
                    self.spectate = True  # no seat left at the table: it watches it end
            case _:
                pass  # pong, lobby, error: nothing more than the fold's
        for ev in out[told:]:
            if isinstance(ev, ReplayMismatch):  # the fold cannot follow: the board again
                with contextlib.suppress(LocalProtocolError):
                    self.send(m.Resync())

    def _welcomed(self, welcome: m.Welcome) -> None:
        if not self.participant.hold(welcome):  # (a new host's: once its succession is checked)
            self._admit(welcome)

    def _admit(self, welcome: m.Welcome) -> None:
        self._drop_held()
        self.table.welcomed()
        self.welcome = welcome
        self._welcomed_on = self.session
        if welcome.token is not None:
            self.token = welcome.token
        elif welcome.pid is None:
            self.token = None  # watching: no seat to keep
        self.connected = True
        self._tell_profile()

    # -- who hosts (protocol version 4) -----------------------------------------------------

    def _on_succession(self, msg: m.Succession, out: list[ClientEvent]) -> None:
        """The host's ``succession``: kept, followed or refused, as the participant judges."""
        verdict = self.participant.judge(msg, self.session, self.pid, self._now)
        if verdict is Heed.KEEP:
            self._keep(msg)
        elif verdict is Heed.BACK:  # the host we follow, reached at its new address
            pending = self.participant.follow(self.received.shown)
            if pending is not None:
                self._admit(pending)
            self._keep(msg)
        elif verdict is Heed.FOLLOW:
            self._follow(msg, out)
        else:
            self._refuse_host(verdict, out)

    def _keep(self, msg: m.Succession) -> None:
        """``msg`` is the succession of the host we follow from now (a seat file keeps
        the table's id, epoch and order: written again when they change)."""
        known = self.participant.succession
        self.participant.keep(msg, self.session, self._me, self._now)
        self._tell_offer()
        moved = known is None or (known.table, known.epoch, known.order) != (
            msg.table, msg.epoch, msg.order)
        if moved and self._seat_news is None:  # (a seat forgotten stays forgotten)
            self._seat_news = SeatNews.KEEP

    def _follow(self, msg: m.Succession, out: list[ClientEvent]) -> None:
        """A new host at a greater epoch, checked: followed (admitted, if its welcome
        was held), and in a game for points, told this seat's hand and its salt."""
        pending = self.participant.follow(self.received.shown)
        if pending is not None:
            self._admit(pending)
        self._keep(msg)
        self.table.new_host()
        self._seat_news = SeatNews.KEEP  # (its seat file keeps the new epoch)
        you = msg.host is not None and msg.host == self.pid
        name = self.table.name_of(msg.host)
        out.append(TableNews(TableNewsKind.HOST_CHANGED, msg.host, name, msg.epoch, you))
        self.missed.followed()
        reveal = self.participant.reveal()
        if not you and reveal is not None and self._speaks_v4():
            self.send(reveal)

    def _refuse_host(self, refusal: el.RefuseHost, out: list[ClientEvent]) -> None:
        self._refused = self.session
        self.participant.drop_attempt()
        self.connected = False
        name = self.table.name_of(refusal.pid)
        out.append(
            TableNews(TableNewsKind.CLAIM_REFUSED, refusal.pid, name, refusal.epoch,
                      text=refusal.text, claim=refusal.reason)
        )
        # A fatal ``error``, then ``bye`` ``error``: never ``quit``, which says this seat
        # left the table on purpose; an old host that did not step down would forget
        # this laptop and find a quorum among the fewer left (SPEC 13).
        session = self.session
        if session is not None and not session.closed:
            told = m.Error(reason=ErrorReason.FORBIDDEN, text=clip_text(refusal.text), fatal=True)
            with contextlib.suppress(LocalProtocolError):
                session.send(told)
            with contextlib.suppress(LocalProtocolError):
                self.close(ByeReason.ERROR)

    def _on_handover(self, msg: m.Handover, out: list[ClientEvent]) -> None:
        mine = self.hosted_here
        you = msg.pid == self.pid and not self.spectate
        out.append(
            TableNews(TableNewsKind.HANDOVER, msg.pid, self.table.name_of(msg.pid), msg.epoch, you,
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
        self.table.moves = None
        chosen = next((o for o in offer.moves if o.id == move_id), None)
        if chosen is not None:
            self.missed.made(self.pawns, self.table.card(), chosen.move)

    def ask_more_time(self) -> None:
        """Ask for more time for the turn on offer, once a turn (protocol version 6).
        Raises :class:`LocalProtocolError`: ``not_your_turn`` with no offer held,
        ``unexpected`` when the offer has no timer or this turn already asked, or the
        host is older; the host may still refuse (an ``error``)."""
        offer = self.moves
        if offer is None:
            raise LocalProtocolError(ErrorReason.NOT_YOUR_TURN, "no moves are on offer")
        if offer.timeout is None:
            raise LocalProtocolError(ErrorReason.UNEXPECTED, "this table has no turn timer")
        if self.time_asked == offer.sid:
            raise LocalProtocolError(ErrorReason.UNEXPECTED, "this turn already got more time")
        self.send(m.AskMoreTime())
        self.time_asked = offer.sid

    def seconds_left(self, now: float) -> int | None:
        """Whole seconds before the host plays the turn on offer for this seat, as of
        ``now`` on the shell's clock (None: no offer, or no timer); follows ``time``."""
        deadline = self.table.deadline
        if self.moves is None or deadline is None:
            return None
        return max(0, math.ceil(deadline - now))

    def add_bot(self, colour: int | None = None, level: str | None = None) -> None:
        """Ask for a bot on ``colour`` (None: any free one) of strength ``level`` (None:
        the strength the host chose for its bots; a host on protocol version 1 cannot
        be asked for that, so it is asked for the default strength by name)."""
        session = self.session
        if level is None and session is not None and (session.version or 1) < 2:
            level = DEFAULT_STRENGTH
        self.send(m.AddBot(colour=colour, level=level))  # type: ignore[arg-type]

    def ask_swap(self, pid: int | None) -> None:
        """Ask player ``pid`` to trade colours (None: take this seat's ask back);
        protocol version 6 (on an older one: :class:`LocalProtocolError` ``unexpected``)."""
        self.send(m.AskSwap(pid=pid))

    def answer_swap(self, accept: bool) -> None:
        """Answer the player asking this seat to trade colours (the lobby's ask; raises
        :class:`LocalProtocolError` ``unexpected`` when nobody asks)."""
        asker = swaps.asked_by(self.lobby, self.pid)
        if asker is None:
            raise LocalProtocolError(ErrorReason.UNEXPECTED, "nobody asks to trade colours")
        self.send(m.AnswerSwap(pid=asker.pid, accept=accept))
        self.swap_answered = asker.pid

    def close(self, reason: ByeReason = ByeReason.QUIT) -> None:
        """Say bye (raises :class:`LocalProtocolError` when the session cannot)."""
        if self.session is not None and not self.session.closed:
            self.session.close(reason)
