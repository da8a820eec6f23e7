"""What the host tells each connection about the table and the game.

:class:`Announcer` builds the messages a connection may see (the lobby, its seat's
snapshot, the turn, the legal moves offered to the seat on turn, what happened, the
end) from the :class:`~sorry_lan.authority.table.Table` and hands them to a ``send``
function, one connection at a time.  What every seat is told alike is built and
encoded once (:func:`shared`) and the same bytes go to each connection.

It does not write to sockets, does not decide who is welcomed (callers pass the
connections), does not hold anything back for the journal and does not change the
table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Generic, Protocol, TypeVar

from sorry_lan.authority import seat_messages
from sorry_lan.authority.game_log import speaks_records
from sorry_lan.authority.table import Table
from sorry_lan.rules import Event, Phase
from sorry_lan.wire import messages as m
from sorry_lan.wire.codec import encode
from sorry_lan.wire.errors import LocalProtocolError
from sorry_lan.wire.limits import SUPPORTED_VERSIONS, SWAP_VERSION
from sorry_lan.wire.records import PlayerInfo, for_version

Shared = tuple[m.Message, bytes | None]  # a message and its frame, encoded once


class Listener(Protocol):
    """A connection as far as the announcer cares."""

    cid: int
    lobby_revision: int

    @property
    def protocol(self) -> int:
        """The protocol version the connection settled on."""
        ...


C = TypeVar("C", bound=Listener)


def shared(msg: m.Message) -> Shared:
    """``msg`` with its frame, for sending the same bytes to many connections (no
    frame if it cannot be encoded: each send then reports why)."""
    try:
        return msg, encode(msg)
    except LocalProtocolError:
        return msg, None


class Announcer(Generic[C]):
    """Tells connections about ``table`` through ``send(conn, msg, frame)``."""

    def __init__(
        self, table: Table, send: Callable[[C, m.Message, bytes | None], None],
        record: Callable[[], Sequence[Shared]] = lambda: (),
        now: Callable[[], float] | None = None,
    ) -> None:
        """``record`` gives the ``record`` messages of the current game as it stands
        (the whole record once it is over, the game so far before); ``now`` the time
        (the table's clock), so an offer says the time left of its turn (None: the
        whole turn timeout, as at a fresh decision)."""
        self.table = table
        self.send = send
        self.record = record
        self.now = now

    def send_record(self, conn: C) -> None:
        """The game's record, to a connection on protocol version 3 or later."""
        if speaks_records(conn.protocol):
            for msg, frame in self.record():
                self.send(conn, msg, frame)

    def seat_of(self, conn: C) -> int | None:
        player = self.table.player_of(conn.cid)
        return None if player is None else player.colour

    def lobby_message(self, version: int = SUPPORTED_VERSIONS[-1]) -> m.Lobby:
        """The roster as a connection on protocol ``version`` may be told it; after a
        game ``ready`` says who wants a rematch (SPEC, ``lobby``)."""
        table = self.table
        over = table.phase is Phase.FINISHED
        players = tuple(
            for_version(
                PlayerInfo(
                    pid=p.pid,
                    name=p.name,
                    colour=p.colour,  # type: ignore[arg-type]
                    bot=p.bot,
                    ready=(p.rematch or p.bot) if over else p.ready,
                    connected=p.connected,
                    lang=p.lang,
                    program=p.program,
                ),
                version,
            )
            for p in sorted(table.players.values(), key=lambda p: p.colour)
        )
        return m.Lobby(
            variant=table.variant,
            seats=table.config.seats,
            host=table.owner,
            players=players,
            spectators=min(len(table.spectators), 1000),
            hints=table.config.hints if version >= 4 else None,
            swaps=tuple(table.swaps.items()) if version >= SWAP_VERSION else None,
        )

    def lobbies(self) -> Callable[[C], Shared]:
        """The lobby for a connection, built and encoded once per protocol version."""
        made: dict[int, Shared] = {}

        def lobby_for(conn: C) -> Shared:
            version = conn.protocol
            if version not in made:
                made[version] = shared(self.lobby_message(version))
            return made[version]

        return lobby_for

    def send_lobby(self, conn: C, lobby: m.Message, frame: bytes | None = None) -> None:
        """Send ``lobby`` and note that ``conn`` knows the table's current revision."""
        conn.lobby_revision = self.table.revision
        self.send(conn, lobby, frame)

    def send_chat_so_far(self, conn: C) -> None:
        """The current game's chat so far (what the table keeps of it), each line from
        the player now in the speaker's seat, or in the lobby what was said there by
        those still seated: sent right after ``welcome``, before the lobby, so a client
        can tell it from what is said afterwards."""
        if self.table.phase is Phase.LOBBY:
            for pid, text in self.table.lobby_chat:
                if pid in self.table.players:
                    self.send(conn, m.Chat(pid=pid, text=text), None)
            return
        for colour, text in self.table.chat:
            speaker = self.table.by_colour(colour)
            if speaker is not None:
                self.send(conn, m.Chat(pid=speaker.pid, text=text), None)

    def send_state(self, conn: C, result: bool = False, history: bool = True) -> None:
        """The lobby and, during or after a game, the full snapshot of this connection's
        seat.  In the next game's lobby the last game is told only with ``result`` (a
        player owed its result; the core then says ``rematch``).  With ``history`` the
        game's record too (version 3: the game so far, after the snapshot, or the
        whole game after ``over``)."""
        self.send_lobby(conn, self.lobby_message(conn.protocol))
        game = self.table.game
        if game is None or (self.table.phase is Phase.LOBBY and not (result and game.over)):
            return
        seat = self.seat_of(conn)
        self.send(conn, seat_messages.snapshot(game, seat, conn.protocol), None)
        if game.over:
            self.send(conn, seat_messages.game_over(game), None)
            if history:
                self.send_record(conn)
        else:
            if history:
                self.send_record(conn)
            self.send(conn, seat_messages.turn(game, seat), None)
            self.offer(conn, seat)

    def offer(self, conn: C, seat: int | None) -> None:
        """The legal moves, if ``seat`` is the one on turn (and the table does not hold
        the decision back)."""
        game = self.table.game
        if game is not None and not game.over and seat == game.turn and not self.table.offer_held():
            self.send(conn, seat_messages.legal_moves(game, self.time_left()), None)

    def time_left(self) -> float | None:
        """Seconds left of the turn on its timer (a seat back mid-turn, or offered again
        after more time, is told what is left, not the whole timeout); None: no timer."""
        deadline = self.table.turn_deadline()
        if deadline is None or self.now is None:
            return self.table.config.turn_timeout
        return max(1.0, deadline - self.now())

    def begin_game(self, conns: Iterable[C]) -> None:
        """Tell ``conns`` a game has begun: lobby, snapshot, turn; and between them,
        when turns were lost before the first decision in an order the snapshot does
        not tell (two different cards before the last), the game's record so far
        (version 3), so that every laptop can write the game down from its start."""
        game = self.table.game
        assert game is not None
        lobby_for = self.lobbies()
        public_turn = shared(seat_messages.turn(game, None))
        lost = list(game.deck.discards)
        untold = len(set(lost[:-1])) > 1
        for conn in conns:
            self.send_lobby(conn, *lobby_for(conn))
            seat = self.seat_of(conn)
            self.send(conn, seat_messages.snapshot(game, seat, conn.protocol), None)
            if untold:
                self.send_record(conn)
            self.send_turn(conn, seat, public_turn)

    def send_turn(self, conn: C, seat: int | None, public: Shared) -> None:
        """The ``turn`` (``public`` unless it carries this seat's hand), then the offer."""
        game = self.table.game
        assert game is not None
        if seat == game.turn and game.rules.deals_hands:
            self.send(conn, seat_messages.turn(game, seat), None)
        else:
            self.send(conn, *public)
        self.offer(conn, seat)

    def events(self, conns: list[C], events: list[Event]) -> None:
        """Tell ``conns`` what happened, then the turn or the end.

        What a seat may learn of the events is the same for every seat (a card drawn
        into a hand travels only in its owner's ``turn``), so those messages, like the
        public ``turn`` and ``over``, are built and encoded once for everyone."""
        game = self.table.game
        if game is None or not events or not conns:
            return
        told = [shared(msg) for msg in seat_messages.events_messages(game, events, None)]
        if game.over:
            told.append(shared(seat_messages.game_over(game)))
            for conn in conns:
                for msg, frame in told:
                    self.send(conn, msg, frame)
                self.send_record(conn)  # every player and spectator gets the game
            return
        public_turn = shared(seat_messages.turn(game, None))
        for conn in conns:
            for msg, frame in told:
                self.send(conn, msg, frame)
            self.send_turn(conn, self.seat_of(conn), public_turn)
