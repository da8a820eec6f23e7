"""The table as one client knows it after a message: a frozen view for every reader.

The client model folds each message from the host once and publishes a
:class:`TableView` after it (``ClientModel.view``); each event it hands out has the
view as of that event (``ClientModel.view_at``), so a reader that takes its events
from a queue sees the board its event left, never one ahead of it.  The board, the
line mode, a bot, the hints and the replay read it and keep no board or history of
their own; the figures of the game (``client.figures``) are its history's, the same
for every reader.

Nothing here folds or checks anything: it is what the model built (the history is
``client.so_far``'s, shared and frozen by its length).
"""

from __future__ import annotations

from dataclasses import dataclass

from sorry_lan.client.figures import Figures
from sorry_lan.client.so_far import NO_HISTORY, History
from sorry_lan.rules import Card
from sorry_lan.rules.cards import NO_CARDS
from sorry_lan.rules.variants import Variant
from sorry_lan.wire import messages as m


@dataclass(frozen=True)
class TableView:
    """What a client knows of its table after one message (empty before a game)."""

    sid: int = 0
    variant: Variant = Variant.STANDARD
    seated: tuple[int, ...] = ()  # the colours at play, in seat order
    pawns: tuple[int, ...] = ()  # 16 locations, or () when no game is on the board
    you: int | None = None  # this seat's colour in the game (None: watching)
    turn: int | None = None  # whose turn it is
    card: Card | None = None  # the card in play, when it is public
    hand: tuple[Card, ...] | None = None  # this seat's hand (play for points)
    offer: m.LegalMoves | None = None  # the moves on offer to this seat
    discarded: tuple[int, ...] = NO_CARDS  # the discard pile by card value
    after_two: bool = False  # the decision on the board follows a 2
    over: m.GameOver | None = None  # the game's result, once it ended
    lobby: m.Lobby | None = None  # the roster last told
    chat: tuple[str, ...] = ()  # the chat lines heard (the last few hundred)
    history: History = NO_HISTORY  # the game so far: entries, boards, figures, record
    game: int = 1  # the table's number of the game on the board (or next)

    @property
    def figures(self) -> Figures:
        """The game's figures so far (the one count every reader shows)."""
        return self.history.figures

    @property
    def playing(self) -> bool:
        return bool(self.pawns)


NO_VIEW = TableView()
