"""The table as one client knows it, sans-I/O: each host message folded once.

:class:`TableFold` takes the messages about the table that a client model routes to
it (the lobby, the board, whose turn, the moves on offer, the discard counts, the
chat heard, the game's result, the game records, a rematch), keeps what they say,
and publishes the table as a frozen :class:`~sorry_lan.client.view.TableView` after
each (:attr:`TableFold.view`; the view as of an event it handed out:
:meth:`TableFold.view_at`), which every reader reads.  The board and the game so far
are ``client.so_far``'s (the one board, the one history and whether the decision
follows a 2); the records the host sent are ``client.records``'s.

It checks every ``events`` message against its board and says when the host must be
asked for the board again (a :class:`~sorry_lan.client.events.ReplayMismatch` among
the events it hands out: they do not add up, or the game so far cannot follow them);
it passes on only the part of the table's chat so far (told after ``welcome``) that
it has not heard.

It does not send anything (the model asks for the ``resync`` and plays a missed move
again), nor know the connection, the seat token or who hosts next.
"""

from __future__ import annotations

import copy
import logging
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

from sorry_lan.client.events import ClientEvent, ReplayMismatch
from sorry_lan.client.records import RecordBook
from sorry_lan.client.so_far import FoldError, SoFar
from sorry_lan.client.view import NO_VIEW, TableView
from sorry_lan.rules import Card, Variant
from sorry_lan.rules.cards import NO_CARDS
from sorry_lan.succession.knowledge import Board
from sorry_lan.wire import messages as m
from sorry_lan.wire.apply import apply_discards, check_events

__all__ = [
    "HEARD_KEPT", "REPLAY_MISMATCH", "TABLE_MESSAGES", "VIEWS_KEPT", "TableFold", "TableMessage",
]

log = logging.getLogger(__name__)

HEARD_KEPT = 200  # chat lines remembered, to tell the table's chat so far from news
VIEWS_KEPT = 4096  # events whose view a reader behind its queue can still ask for
REPLAY_MISMATCH = "the host's events do not add up on our board at sid"

#: The messages a client model routes here.
TableMessage = (
    m.Lobby | m.Snapshot | m.Turn | m.LegalMoves | m.MoreTime | m.Events | m.GameOver
    | m.Chat | m.RecordPart | m.Rematch | m.Error
)
TABLE_MESSAGES = (
    m.Lobby, m.Snapshot, m.Turn, m.LegalMoves, m.MoreTime, m.Events, m.GameOver, m.Chat,
    m.RecordPart, m.Rematch, m.Error,
)  # fmt: skip


class TableFold:
    """What one client knows of its table's game; see the module docstring."""

    def __init__(self) -> None:
        self.lobby: m.Lobby | None = None
        self.snapshot: m.Snapshot | None = None
        # The discard pile by card value, kept from the snapshot and every event since
        # (empty when the host speaks protocol version 1, which does not tell it).
        self.discarded: tuple[int, ...] = ()
        self.turn: m.Turn | None = None
        self.moves: m.LegalMoves | None = None
        # When the turn timer of the offer runs out, on the shell's clock (None: no
        # timer, or no offer): from the offer's ``timeout``, moved on by a ``time``.
        self.deadline: float | None = None
        self.over: m.GameOver | None = None
        self.sid = 0
        self.replay_mismatches = 0  # events that did not add up on our board
        # The chat lines heard (the last HEARD_KEPT texts), and while joining, the
        # table's chat so far as the host tells it after ``welcome`` (see chat_so_far).
        self.chat_heard: list[str] = []
        self._chat_held: list[m.Chat] | None = None
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
        # The shell's clock (monotonic seconds) as the message being folded was shown,
        # and when this client saw the game on the board begin (None: it did not): a
        # successor dates the game's start from it (the host's clock is not told).
        self.now = 0.0
        self.began: float | None = None

    # -- what it knows -----------------------------------------------------------------

    @property
    def pawns(self) -> tuple[int, ...]:
        """The board as the last message left it (empty: no game known)."""
        return () if self.snapshot is None else self.seen.board

    @property
    def after_two(self) -> bool:
        """The decision on the board follows a 2 (the game so far's, the one answer)."""
        return self.snapshot is not None and self.seen.after_two

    def card(self) -> Card | None:
        """The card in play, when it is public (not in a game for points)."""
        snap = self.snapshot
        if snap is None or snap.variant.rules.deals_hands or self.over is not None:
            return None
        if self.turn is not None:
            return self.turn.card
        return snap.card

    def colour(self, pid: int | None) -> int | None:
        """This seat's colour (``pid``: its player id): the board's, or the roster's."""
        if self.snapshot is not None and self.snapshot.you is not None:
            return int(self.snapshot.you)
        if self.lobby is not None and pid is not None:
            for p in self.lobby.players:
                if p.pid == pid and p.colour is not None:
                    return int(p.colour)
        return None

    def name_of(self, pid: int | None) -> str | None:
        players = () if self.lobby is None else self.lobby.players
        return next((p.name for p in players if p.pid == pid), None)

    def shown(self) -> Board | None:
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

    def so_far_record(self) -> dict[str, Any] | None:
        """The record of the game on the board as far as this laptop knows it: once it
        is over, the whole game the host sent; else the game so far this client built
        (from its first state, or from the host's record of it on); None when not known
        (never the host's record as it was when sent, which misses the moves since)."""
        whole = self.book.whole_of_game()
        if self.over is not None and whole is not None:
            return whole
        return self.seen.record()  # (the host's record so far goes on in it, or is stale)

    def ahead(self, held: Iterable[TableMessage]) -> TableFold:
        """A copy of this fold with ``held`` folded in (messages not shown yet: protocol
        version 5's states not settled), for what a successor needs; this fold, its
        view and the views it handed out stay as they are."""
        views, self._views = self._views, OrderedDict()
        try:
            twin = copy.deepcopy(self)
        finally:
            self._views = views
        out: list[ClientEvent] = []
        for msg in held:
            if twin.chat_so_far(msg, out) is not None:
                twin.fold(msg, out)
        return twin

    # -- the view ----------------------------------------------------------------------

    def view_at(self, ev: ClientEvent) -> TableView:
        """The table as of ``ev``, one of the last :data:`VIEWS_KEPT` events handed
        out (a reader behind its queue reads the board its event left); for any other
        (a shell's :class:`Connection`), the view now."""
        kept = self._views.get(id(ev))
        return kept[1] if kept is not None and kept[0] is ev else self.view

    def publish(self, events: list[ClientEvent], hand: tuple[Card, ...] | None) -> None:
        """The view after a message (``hand``: this seat's, as the model knows it),
        and the events it made as of it."""
        if len(self._chat_told) != len(self.chat_heard) or (
            self.chat_heard and self._chat_told[-1:] != tuple(self.chat_heard[-1:])
        ):
            self._chat_told = tuple(self.chat_heard)
        snap, turn, over = self.snapshot, self.turn, self.over
        lobby = self.lobby
        self.view = TableView(
            sid=self.sid,
            variant=snap.variant if snap is not None else (
                lobby.variant if lobby is not None else NO_VIEW.variant),
            seated=() if snap is None else tuple(int(c) for c in snap.colours),
            pawns=self.pawns,
            you=None if snap is None or snap.you is None else int(snap.you),
            turn=None if snap is None or over is not None else (
                int(turn.colour) if turn is not None else
                None if snap.turn is None else int(snap.turn)),
            card=self.card(),
            hand=hand,
            offer=self.moves,
            discarded=self.discarded or NO_CARDS,
            after_two=self.after_two,
            over=over,
            lobby=lobby,
            chat=self._chat_told,
            history=self.seen.history() if snap is not None else NO_VIEW.history,
            game=self.book.game_number,
        )  # fmt: skip
        for ev in events:
            self._views[id(ev)] = (ev, self.view)
        while len(self._views) > VIEWS_KEPT:
            self._views.popitem(last=False)

    # -- the messages ------------------------------------------------------------------

    def welcomed(self) -> None:
        """A welcome: whatever game we knew is told again after it (the snapshot and,
        if it ended, its over); a table in its lobby tells none: a rematch's lobby, or
        a new table at the same address.  The table's chat so far comes next."""
        self._forget_game()
        self._lobbies = 0
        self._chat_held = []

    def new_host(self) -> None:
        """A new host is followed: mid-game, its table forgets the last winner."""
        if self.over is None:
            self._prior, self._prior_known = None, True

    def chat_so_far(self, msg: m.Message, out: list[ClientEvent]) -> list[m.Chat] | None:
        """While joining, hold ``msg`` when it is a line of the table's chat so far
        (None); at the first other message, pass on the lines not heard and return all
        of them (then, and at every later message: [])."""
        held = self._chat_held
        if held is None:
            return []
        if isinstance(msg, m.Chat):
            held.append(msg)
            return None
        self._chat_held = None
        self._told_so_far(held, out)
        return held

    def fold(self, msg: TableMessage, out: list[ClientEvent]) -> None:
        """Fold one of :data:`TABLE_MESSAGES` in; the events it makes onto ``out``."""
        match msg:
            case m.Lobby():
                self.lobby = msg
                if self.snapshot is None:
                    self._lobbies += 1
                else:
                    self.seen.lobby(msg)
            case m.Snapshot():
                self._seen_snapshot(msg)
                self.snapshot = msg
                self.discarded = msg.discarded or ()
                self.sid = msg.sid
                self.over = None
                self.moves = None
            case m.Turn():
                self.turn = msg
                self.sid = msg.sid
            case m.LegalMoves():
                self.moves = msg
                self.deadline = None if msg.timeout is None else self.now + msg.timeout
            case m.MoreTime():
                if self.moves is not None and self.moves.sid == msg.sid:
                    self.deadline = self.now + msg.left
            case m.Events():
                self._events(msg, out)
            case m.GameOver():
                self.over = msg
                if msg.winners:  # the table's winner: the lower seat of a team
                    self._prior, self._prior_known = min(int(c) for c in msg.winners), True
                elif self._told_again:  # abandoned: a host restarted meanwhile forgot
                    self._prior_known = False  # its last winner, one reconnected did not
                self.moves = None
            case m.Chat():
                self._remember_chat(msg.text)
            case m.RecordPart():
                self._record_part(msg, out)
                return
            case m.Rematch():  # back in the lobby: the game we knew is over and gone
                self._forget_game()
                self.seen.forget()
                self._lobbies = 1  # the next roster's snapshot begins a game
                self.book.rematch()
        out.append(msg)

    def _events(self, msg: m.Events, out: list[ClientEvent]) -> None:
        self._check_replay(msg, out)
        try:
            self.seen.events(msg)
        except FoldError as exc:  # (the board is told again: the fold begins there)
            self._mismatch(msg.sid, str(exc), out)
        if self.discarded:
            self.discarded = apply_discards(self.discarded, msg.events)
        self.sid = msg.sid

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
            self.began = self.now
        else:
            self.seen.snapshot(snap)
            self._told_again = True
        if self.lobby is not None:  # (told just before the snapshot: who is away)
            self.seen.lobby(self.lobby)

    def _forget_game(self) -> None:
        """Nothing of a game is known: the table is in its lobby (until a snapshot)."""
        self.began = None
        self.snapshot = None
        self.turn = None
        self.moves = None
        self.over = None
        self.discarded = ()
        self.book.so_far = None  # (the records of whole games stay: kept)

    def _remember_chat(self, text: str) -> None:
        self.chat_heard.append(text)
        del self.chat_heard[:-HEARD_KEPT]

    def _told_so_far(self, lines: list[m.Chat], out: list[ClientEvent]) -> None:
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
        """A mismatch (and a log line why) when ``msg`` does not add up on our board."""
        snap = self.snapshot
        if snap is None or len(self.pawns) != len(snap.pawns):
            return
        problem = check_events(self.pawns, msg.events, Variant(snap.variant.value))
        if problem is None:
            return
        log.warning("%s %d: %s; asking for a resync", REPLAY_MISMATCH, msg.sid, problem)
        self._mismatch(msg.sid, problem, out)

    def _mismatch(self, sid: int, problem: str, out: list[ClientEvent]) -> None:
        """Our fold cannot follow the host at ``sid``: the game so far is not known
        from here, and the host is to be asked for the board again (its snapshot
        begins the fold anew)."""
        self.replay_mismatches += 1
        log.info("the game so far cannot follow the host at sid %d: %s", sid, problem)
        self.seen.give_up(f"{REPLAY_MISMATCH} {sid}: {problem}")
        out.append(ReplayMismatch(sid, problem))
