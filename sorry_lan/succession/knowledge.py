"""What a player's laptop knows of its table that a successor needs (issue 19).

A :class:`Knowledge` is a plain, frozen value the client model makes
(``ClientModel.knowledge()``) from what its host told it: the last ``succession``
message as it came (the table's id and epoch, the succession order, the table's
config, every seat's token verifier or bot strength), the last roster (``lobby``:
the seats' names and colours), this seat's pid and token, the board as this client
shows it (:class:`Board`), its own hand and the last hand commitment it holds, the
chat so far and the game's record so far, when it is known (the host sent it, or the
client built it from what it was shown: ``client.so_far``).  ``authority.takeover``
builds a host's table from one.

It holds no secrets of other seats (verifiers are hashes; the host's commitments are
salted), decides nothing and checks only that its parts belong together.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sorry_lan.rules import Card, Variant
from sorry_lan.rules.cards import CARD_VALUES, NO_CARDS
from sorry_lan.wire import messages as m
from sorry_lan.wire.records import EventKind, EventTuple
from sorry_lan.wire.succession import ChatLine

_CARD_EVENTS = (EventKind.PLAY, EventKind.DISCARD, EventKind.TURN_LOST, EventKind.DRAW_AGAIN)


def draws_again(events: Sequence[EventTuple], before: bool = False) -> bool:
    """Whether the decision after ``events`` (an ``events`` message's) follows a 2:
    the last card event in them is a draw again (``before``, the answer for the
    decision before them, when they hold no card event: pawns' moves alone)."""
    for ev in reversed(events):
        if ev[0] in _CARD_EVENTS:
            return bool(ev[0] == EventKind.DRAW_AGAIN)
    return before


@dataclass(frozen=True)
class Board:
    """The game as this client shows it, at state ``sid``.

    ``seated`` the colours playing (a snapshot's ``colours``), ``pawns`` all sixteen,
    ``turn`` the colour to move, ``card`` the card in play (None in play for points,
    or once the game is over), ``after_two`` whether the decision follows a 2 (the
    last events ended in a draw again), ``discarded`` the discard pile by card value,
    ``pile`` the draw pile's size, ``over`` the game has ended (``winners`` then)."""

    variant: Variant
    sid: int
    seated: tuple[int, ...]
    pawns: tuple[int, ...]
    turn: int
    card: Card | None = None
    after_two: bool = False
    discarded: tuple[int, ...] = NO_CARDS
    pile: int = 0
    over: bool = False
    winners: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if len(self.discarded) != CARD_VALUES:
            raise ValueError(f"the discard pile is counted by {CARD_VALUES} card values")


@dataclass(frozen=True)
class Knowledge:
    """Everything a laptop's client knows that a successor needs; see the module
    docstring.  ``hand`` and ``salt`` are this seat's (play for points), ``commit`` the
    last commitment received (every seat's digest at its ``sid``); ``chat`` is the
    current game's chat so far, oldest first; ``so_far`` the game's record so far
    (``protocol/RECORD.md``: its ``first``, ``options``, ``started`` and ``turns`` at
    least) when it is known; ``games_played`` how many games
    the table began before the one on the board (so the board's is number
    ``games_played + 1``); ``left`` the seat of the host that handed the table over
    to leave it (its player went on purpose), when this laptop was told so.

    ``board`` is the newest state this laptop received, shown or not yet (protocol
    version 5 shows a state only once it is settled; a successor continues from
    what it holds, as a Raft log holds entries not committed yet), and
    ``board_epoch`` the epoch of the host the board came from (None: not known, or no
    board), which may be older than ``epoch`` (a new host that has not shown its own)."""

    succession: m.Succession
    lobby: m.Lobby
    pid: int
    token: bytes
    board: Board | None = None
    hand: tuple[Card, ...] | None = None
    salt: bytes | None = None
    commit: m.Commit | None = None
    chat: tuple[ChatLine, ...] = ()
    so_far: Mapping[str, Any] | None = field(default=None, compare=False)
    games_played: int = 0
    left: int | None = None
    board_epoch: int | None = None
    began: float | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if not any(s.pid == self.pid for s in self.succession.seats):
            raise ValueError(f"seat {self.pid} is not among the table's seats")

    @property
    def table(self) -> str:
        """The table's id (the same across hosts)."""
        return self.succession.table

    @property
    def epoch(self) -> int:
        """The epoch of the host this laptop knew (the successor's is one more)."""
        return self.succession.epoch

    @property
    def seen(self) -> tuple[int, int] | None:
        """``(epoch, sid)`` of the newest state this laptop holds (a vote's ``seen``,
        SPEC section 13): the epoch of the host that sent the board, and its state id;
        None without a board (or when where it came from is not known)."""
        if self.board is None or self.board_epoch is None:
            return None
        return (self.board_epoch, self.board.sid)

    @property
    def colour(self) -> int | None:
        """This seat's colour, if it has chosen one."""
        for seat in self.succession.seats:
            if seat.pid == self.pid:
                return None if seat.colour is None else int(seat.colour)
        return None

    def names(self) -> dict[int, str]:
        """Each seat's name, by pid, from the roster."""
        return {p.pid: p.name for p in self.lobby.players}

    def digest(self, colour: int) -> bytes | None:
        """The last digest this laptop holds of ``colour``'s hand (None: none)."""
        if self.commit is None or not 0 <= colour < len(self.commit.digests):
            return None
        return self.commit.digests[colour]
