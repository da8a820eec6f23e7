"""The replay's hints: the moves a hint would have rated much lower than the best.

:class:`Costs` replays a finished game's record once (``records.check`` tells it each
decision with the game as it stood), keeps each person's decisions that had a choice,
and judges one when the replay shows it: the move's chance to win against the best
move's, both by :func:`sorry_lan.bots.hints.move_chances` from what that player knew
then (the board, their card or hand, the discard pile: ``position_of``), never a card
still hidden then.  Bots' moves are not judged.  A tape without its record (what a
board was told of a game it joined late) has no costs.

This module words nothing but its one line (:func:`cost_line`); the panel places it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from sorry_lan.bots import Position, position_of
from sorry_lan.bots.hints import COSTLY, cost, move_chances
from sorry_lan.i18n import _, pgettext
from sorry_lan.records import RecordError
from sorry_lan.records.check import check
from sorry_lan.replay import Tape
from sorry_lan.rules import Game, Move, MoveKind

from .menu import percent

#: Seconds the replay's hints may take for one turn (when the replay first shows it).
REPLAY_BUDGET: Final = 0.25


@dataclass(frozen=True)
class Decision:
    """One person's move with a choice: what they knew, the legal moves, the one played."""

    position: Position
    moves: tuple[Move, ...]
    played: int


@dataclass(frozen=True)
class Cost:
    """What a move gave away: ``lost`` win chance against the best move, which had
    ``best``."""

    lost: float
    best: float
    move: Move


class Costs:
    """The costs of one tape's decisions, judged when first asked for."""

    def __init__(self, tape: Tape, budget: float = REPLAY_BUDGET) -> None:
        self.tape = tape
        self.budget = budget
        self._decisions: dict[int, Decision] | None = None
        self._costs: dict[int, Cost] = {}

    def decisions(self) -> dict[int, Decision]:
        """Each person's decision with more than one legal move, by turn number."""
        if self._decisions is None:
            self._decisions = {}
            if self.tape.record is not None and self.tape.whole:
                try:
                    check(self.tape.record, decided=self._decided)
                except RecordError:  # (a tape's record replayed once already)
                    self._decisions = {}
        return self._decisions

    def _decided(self, n: int, game: Game, move: Move) -> None:
        assert self._decisions is not None
        if game.turn in self.tape.bots:
            return
        moves = game.legal_moves()
        if len(moves) > 1:
            self._decisions[n] = Decision(position_of(game), tuple(moves), moves.index(move))

    def cost(self, n: int) -> Cost | None:
        """Turn ``n``'s cost (None: no person's decision with a choice)."""
        got = self._costs.get(n)
        if got is not None:
            return got
        decision = self.decisions().get(n)
        if decision is None:
            return None
        chances = move_chances(decision.position, decision.moves, self.budget)
        got = self._costs[n] = Cost(cost(chances, decision.played), max(chances),
                                    decision.moves[decision.played])
        return got

    def costly(self, n: int) -> Cost | None:
        """Turn ``n``'s cost when a hint would have rated it much lower than the best
        (by :data:`~sorry_lan.bots.hints.COSTLY` or more), else None."""
        got = self.cost(n)
        return got if got is not None and got.lost >= COSTLY else None


def _what(move: Move) -> str:
    if move.kind == MoveKind.SPLIT:
        return pgettext("costly move", "this 7 split")
    if move.kind == MoveKind.SWAP:
        return pgettext("costly move", "this 11 swap")
    if move.kind == MoveKind.SORRY:
        return pgettext("costly move", "this Sorry!")
    if move.kind == MoveKind.DISCARD:
        return pgettext("costly move", "this discard")
    return pgettext("costly move", "this move")


def cost_line(got: Cost, player: str | None) -> str:
    """"this 7 split cost you 8% (the best move had 61%)"; ``player`` None: the
    viewer's own move."""
    if player is None:
        text = _("{what} cost you {lost} of your chance to win (the best move had {best})")
    else:
        text = _("{what} cost {player} {lost} of their chance to win (the best move had "
                 "{best})")
    return text.format(what=_what(got.move), player=player, lost=percent(got.lost),
                       best=percent(got.best))


def costly_turns(costs: Costs, numbers: Sequence[int]) -> list[int]:
    """Which of the turns ``numbers`` a hint would have rated much lower (judging each)."""
    return [n for n in numbers if costs.costly(n) is not None]
