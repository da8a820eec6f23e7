"""A bot at a networked table: reads a :class:`GameClient`'s events and answers its turns.

:class:`SeatView` (no I/O) reads what the seat was told from the client model's
:class:`~sorry_lan.client.view.TableView` as of the offer -- the board, its card or
hand, the discard pile, whether the decision follows a 2 -- and turns it into the
:class:`~sorry_lan.bots.Position` the host would build for that seat, so a ``sorry-lan
bot`` of a strength plays exactly the move the host's own bot of that strength plays;
it keeps no board of its own (the model folds each message once).  Its moves are the
engine's, in the order offered.  :func:`run_bot` drives a connected client with it
and can measure how long each move takes to come back as events (the move round
trip).  :class:`GamesSeen` tells a game shown again (a reconnection, a new host after a
takeover: the board and the result of a game already counted) from a new one, so a
bot told to play N games plays N.  It does not connect by itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import assert_never

from sorry_lan.bots import Bot, Position, make_bot
from sorry_lan.bots.base import blocks, legal_moves
from sorry_lan.client.figures import Figures
from sorry_lan.client.model import Connection, GameRecord, ReplayMismatch, TableNews
from sorry_lan.client.swaps import asked_by
from sorry_lan.client.view import TableView
from sorry_lan.rules import Card, Move, Variant
from sorry_lan.rules.cards import NO_CARDS
from sorry_lan.wire import messages as m
from sorry_lan.wire.errors import LocalProtocolError

from .client import GameClient


@dataclass(frozen=True)
class SeatView:
    """What one seat knows of the game at a decision, read from a table view."""

    variant: Variant = Variant.STANDARD
    seated: tuple[int, ...] = ()
    discards: tuple[int, ...] = NO_CARDS  # the discard pile by card value
    after_two: bool = False  # the decision follows a 2 (as far as the events tell)
    cards: tuple[Card, ...] = ()

    @classmethod
    def of(cls, view: TableView) -> SeatView:
        """The seat's knowledge in ``view`` (its hand, or the card in play)."""
        cards = view.hand if view.hand else ((view.card,) if view.card is not None else ())
        return cls(Variant(view.variant.value), tuple(sorted(view.seated)), view.discarded,
                   view.after_two, tuple(Card(int(c)) for c in cards))  # fmt: skip

    def decision(self, pawns: tuple[int, ...], colour: int, offer: m.LegalMoves
                 ) -> tuple[Position, list[Move]] | None:
        """The position to judge and the engine's moves in the order offered, or None
        when the offer is not what the engine lists here (then play by the offer)."""
        offered = [tuple(o.move) for o in offer.moves]
        for after_two in (self.after_two, not self.after_two):
            position = Position(self.variant, self.seated, pawns, colour, self.cards,
                                after_two, self.discards)
            moves = legal_moves(position)
            if [mv.compact() for mv in moves] == offered:
                return position, moves
        return None


def choose_option(bot: Bot, view: SeatView, pawns: tuple[int, ...], colour: int,
                  offer: m.LegalMoves) -> int:
    """The id of the offered option ``bot`` plays."""
    found = view.decision(pawns, colour, offer)
    if found is None:  # not expected: play the first option rather than stall
        return offer.moves[0].id
    position, moves = found
    return offer.moves[moves.index(bot.choose(position, moves))].id


class GamesSeen:
    """Which games a bot has seen begin and end, from its client's events (no I/O).

    A host shows a player who comes back (or who follows the table to a new host) the
    game as it stands: a ``snapshot``, and after the game its ``over`` again.  Those are
    not a new game nor a second result: a game is new when a snapshot comes after a
    result or a ``rematch`` (or as the first), or shows an earlier state than the last
    one seen; a result is new unless it repeats the last one counted with no play (a
    turn, an offer, events) or rematch since.  It does not read the table's game numbers:
    a bot that joins a table at its third game counts that one as its first."""

    def __init__(self) -> None:
        self._sid: int | None = None  # the last state seen of the game on the board
        self._over: m.GameOver | None = None  # the result counted, until play goes on

    def snapshot(self, snap: m.Snapshot) -> bool:
        """``snap`` came: True if it begins a game not seen before."""
        shown_again = self._sid is not None and snap.sid >= self._sid and (
            self._over is None or snap.sid == self._over.sid
        )
        self._sid = snap.sid
        return not shown_again

    def played(self, sid: int) -> None:
        """The game went on (a turn, an offer, events at ``sid``)."""
        self._sid, self._over = sid, None

    def rematch(self) -> None:
        """The next game's lobby opened."""
        self._sid = self._over = None

    def over(self, ev: m.GameOver) -> bool:
        """``ev`` came: True if it is a result not counted before."""
        if self._over is not None and ev == self._over:
            return False
        self._over, self._sid = ev, ev.sid
        return True


#: What :func:`run_bot` tells its ``progress``: a game began or ended, the link changed,
#: or (to a ``progress`` that asked for moves) a move was played.
BotNews = m.Snapshot | m.GameOver | Connection | m.Events


@dataclass
class BotStats:
    round_trips: list[float] = field(default_factory=list)  # seconds, move -> its events
    refused: list[str] = field(default_factory=list)
    games: int = 0
    decisions: list[tuple[Position, int]] = field(default_factory=list)  # if recording
    figures: Figures = field(default_factory=Figures)  # the last game's, as the view has them
    # The roster as of the last result (not the model's, which may already hold a
    # lobby queued behind the result: a player who left after the game)
    roster: m.Lobby | None = None


async def run_bot(
    client: GameClient,
    strength: str = "greedy",
    think: float = 0.0,
    games: int = 1,
    stats: BotStats | None = None,
    record: bool = False,
    budget: float | None = None,
    progress: Callable[[BotNews, int, int], None] | None = None,
    moves: bool = False,
) -> m.GameOver | None:
    """Play until ``games`` games have ended (then return the last result), or the
    connection is lost for good (then return None).  ``record``: keep each decision's
    position and the option chosen in ``stats.decisions``; ``budget``: the expert's
    seconds per decision (its search runs on a worker thread, so the connection's
    heartbeats go on meanwhile).  ``progress`` is told (the event, the number of the
    game it concerns, and ``games``) when a game begins and ends and when the connection
    drops or comes back, and with ``moves`` each move's events as they come; putting
    that in words is the caller's."""
    say = progress if progress is not None else (lambda news, number, total: None)
    stats = stats if stats is not None else BotStats()
    bot = make_bot(strength, 0, budget=budget)
    seat = client.model  # what the client knows: board, colour, the offer
    seen = GamesSeen()  # (a snapshot taken before this began reading is still to come)
    sent_at: float | None = None
    while True:
        ev = await client.next_event()
        match ev:
            case m.Snapshot():
                if seen.snapshot(ev):
                    say(ev, stats.games + 1, games)
            case m.LegalMoves():
                seen.played(ev.sid)
                if seat.snapshot is None or seat.colour is None:
                    continue
                table = seat.view_at(ev)  # (the table as of the offer: read, not kept)
                view = SeatView.of(table)
                if think > 0:
                    await asyncio.sleep(think)
                if seat.moves is not ev:
                    continue  # the offer went stale while thinking
                colour = seat.colour
                if blocks(bot):  # a search runs off the event loop
                    option = await asyncio.to_thread(
                        choose_option, bot, view, table.pawns, colour, ev)
                else:
                    option = choose_option(bot, view, table.pawns, colour, ev)
                if record:
                    found = view.decision(table.pawns, colour, ev)
                    if found is not None:
                        stats.decisions.append((found[0], option))
                sent_at = time.monotonic()
                try:
                    client.play(option)
                except LocalProtocolError:
                    sent_at = None  # not connected just now: the offer comes again on rejoin
            case m.Events():
                seen.played(ev.sid)
                if moves:
                    say(ev, stats.games + 1, games)
                if sent_at is not None and ev.colour == seat.colour:
                    stats.round_trips.append(client.event_at - sent_at)
                sent_at = None
            case m.Error():
                stats.refused.append(f"{ev.reason}: {ev.text}")
                sent_at = None
            case m.GameOver():
                table = seat.view_at(ev)
                stats.figures, stats.roster = table.figures, table.lobby
                if seen.over(ev):  # (a result shown again is not a game more)
                    stats.games += 1
                    say(ev, stats.games, games)
                if stats.games >= games:
                    return ev
                with contextlib.suppress(LocalProtocolError):  # the lobby may be open already
                    client.rematch()
            case Connection():
                say(ev, stats.games + 1, games)
                if ev.state == "lost":
                    return None
            case m.Rematch():  # the next game's lobby opened: we want that game
                seen.rematch()
                with contextlib.suppress(LocalProtocolError):
                    client.ready(True)
            case m.Turn():
                seen.played(ev.sid)
            case m.Lobby():
                if asked_by(ev, client.model.pid) is not None:  # a bot prefers no colour
                    with contextlib.suppress(LocalProtocolError):
                        client.answer_swap(True)
            case m.Chat() | m.MoreTime() | ReplayMismatch() | GameRecord():
                pass  # the client keeps what the bot reads (board, colour, offer)
            case TableNews():
                pass  # the shell follows a new host; the bot plays on at its seat
            case _:
                assert_never(ev)
