"""A seat's own move that the new host never heard of, played again (issue 19).

When the host dies just after it told the table of a move, the laptop that takes the
table over may not have received it yet: it builds the table from the last state it
saw, so the move is gone from the game although the other players saw it.  In play
with a public card (standard and team play: the card in play is the same for everyone
and is kept across the takeover) the player who made the move still knows it, and is
offered the very same decision again: :class:`MissedMove` remembers this seat's last
move with the board and card it was made on, and, on the first decision a new host
offers after the client followed it, finds the same move (by its compact form) when
the board and the card are those it was made on, so that the client plays it again at
once and the game goes on as every player saw it.

It plays nothing itself (the client model sends the move), keeps only the last move,
and leaves a game for points alone (the hand a successor deals is not the one the
move was made from).  A move by the old host's own seat or bots that the new host
missed is decided afresh (the old host that knew it is gone).
"""

from __future__ import annotations

from dataclasses import dataclass

from sorry_lan.rules import Card
from sorry_lan.wire import messages as m
from sorry_lan.wire.records import CompactMove


@dataclass(frozen=True, slots=True)
class Made:
    """A move this seat sent: the board (``pawns``) and ``card`` it was made on."""

    pawns: tuple[int, ...]
    card: Card
    move: CompactMove


class MissedMove:
    """See the module docstring.  :meth:`made` after each move sent; :meth:`followed`
    when the client follows a new host; :meth:`again` on each decision offered."""

    def __init__(self) -> None:
        self.last: Made | None = None
        self._armed = False  # a new host followed: its first decision may be the move
        self.replayed = 0  # moves played again (tests, logs)

    def made(self, pawns: tuple[int, ...], card: Card | None, move: CompactMove) -> None:
        """This seat sent ``move`` on board ``pawns`` with ``card`` in play (None: a
        hand's card, play for points: nothing to play again)."""
        self.last = None if card is None else Made(pawns, card, move)

    def followed(self) -> None:
        """The client follows a new host: its first decision is checked."""
        self._armed = self.last is not None

    def forget(self) -> None:
        """A new game, or the move was heard: nothing to play again."""
        self.last = None
        self._armed = False

    def again(
        self, pawns: tuple[int, ...], card: Card | None, offer: m.LegalMoves
    ) -> int | None:
        """The id of the offered move to play again at once (None: decide as usual), on
        board ``pawns`` with ``card`` in play.  Only the first decision after following
        a new host is looked at."""
        armed, self._armed = self._armed, False
        last = self.last
        if not armed or last is None or card is None or card != last.card:
            return None
        if pawns != last.pawns:
            return None  # the new host heard the move (or the board moved on)
        for option in offer.moves:
            if option.move == last.move:
                self.replayed += 1
                self.last = None
                return option.id
        return None
