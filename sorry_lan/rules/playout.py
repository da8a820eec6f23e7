"""Fast playouts: finish a game with a move chooser, recording nothing.

This is the engine's hot loop for bots that look ahead by playing games out (and for
benchmarks).  It follows exactly the turn flow of :class:`~sorry_lan.rules.game.Game`
for standard and team play -- the tests replay the same choices through ``Game`` and
compare -- but keeps no events, views or state ids.  It does not handle play for
points (hands): use ``Game`` for that.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from .board import HOME
from .cards import Card, Deck
from .game import MAX_IDLE_DRAWS, Game
from .movegen import HANDLERS
from .moves import Move, MoveContext
from .variants import Variant, all_home, move_context, winner

Chooser = Callable[[list[Move]], Move]


class PlayoutResult:
    __slots__ = ("moves", "pawns", "turns", "winner")

    def __init__(self, winner: int, pawns: tuple[int, ...], turns: int, moves: int) -> None:
        self.winner = winner
        self.pawns = pawns
        self.turns = turns
        self.moves = moves


class RandomChooser:
    """A chooser picking uniformly among the legal moves (``rng.random()`` scaled).

    One C call per choice: cheaper than ``randrange``'s rejection sampling, and as
    uniform for lists this short (a double has 53 bits; lists hold at most ~100 moves).
    :func:`playout` makes the same pick inline instead of calling it.
    """

    __slots__ = ("rand",)

    def __init__(self, rng: random.Random) -> None:
        self.rand = rng.random

    def __call__(self, moves: list[Move]) -> Move:
        return moves[int(self.rand() * len(moves))]


def random_chooser(rng: random.Random) -> Chooser:
    """A :class:`RandomChooser` drawing from ``rng``."""
    return RandomChooser(rng)


def playout(
    variant: Variant,
    seated: Sequence[int],
    pawns: tuple[int, ...],
    turn: int,
    deck: Deck,
    choose: Chooser,
    *,
    card: Card | None = None,
    after_two: bool = False,
) -> PlayoutResult:
    """Play from the given state to the end; ``deck`` is used up (pass a copy to keep it).

    ``card`` is the card already drawn for ``turn`` (None: the turn starts by drawing).
    """
    if variant is Variant.POINTS:
        raise ValueError("playout does not handle play for points; use Game")
    seated = tuple(sorted(seated))
    nxt = [0] * 4
    for i, c in enumerate(seated):
        nxt[c] = seated[(i + 1) % len(seated)]
    team = variant is Variant.TEAM
    # Move contexts: outside team play one per colour (``after_two`` changes nothing);
    # in team play by turn * 4 + after_two * 2 + (all the player's pawns HOME).
    contexts: list[MoveContext | None] = [None] * 16
    handlers = HANDLERS
    # A random chooser's pick, made inline (the same call on the same generator).
    rand = choose.rand if type(choose) is RandomChooser else None
    two = Card.TWO
    draw = deck.draw
    pile = deck.pile
    discards = deck.discards
    turns = 1
    moves_played = 0
    idle = 0
    while True:
        if card is None:
            if pile:
                card = pile.pop()
            else:  # the deck reshuffles its discards into a new pile
                card = draw()
                pile = deck.pile
                discards = deck.discards
        if team:
            slot = turn * 4 + 2 if after_two else turn * 4
            if all_home(pawns, turn):
                slot += 1
        else:
            slot = turn
        ctx = contexts[slot]
        if ctx is None:
            ctx = contexts[slot] = move_context(variant, pawns, turn, after_two)
        moves = handlers[card](pawns, card, ctx)
        if moves:
            idle = 0
            move = choose(moves) if rand is None else moves[int(rand() * len(moves))]
            moves_played += 1
            changes = move[3]
            after_move = list(pawns)
            if len(changes) == 1:  # most moves: one pawn moves, no one is bumped
                pawn, _before, after = changes[0]
                after_move[pawn] = after
                pawns = tuple(after_move)
                home = after == HOME
            else:
                home = False
                for pawn, _before, after in changes:
                    after_move[pawn] = after
                    if after == HOME:
                        home = True
                pawns = tuple(after_move)
            if home:  # only a pawn reaching HOME can end the game
                won = winner(variant, pawns, seated)
                if won is not None:
                    discards.append(card)
                    return PlayoutResult(won, pawns, turns, moves_played)
        else:
            idle += 1
            if idle > MAX_IDLE_DRAWS:
                raise RuntimeError("no legal move for any player over 10000 draws")
        discards.append(card)
        if card == two:
            after_two = True
        else:
            turn = nxt[turn]
            after_two = False
            turns += 1
        card = None


def playout_game(game: Game, choose: Chooser) -> PlayoutResult:
    """Play ``game``'s current state out on copies (the game itself is untouched)."""
    if game.over or not game.legal_moves():
        raise ValueError("the game has no decision pending")
    return playout(
        game.variant,
        game.seated,
        game.pawns,
        game.turn,
        game.deck.copy(),
        choose,
        card=game.card,
        after_two=game.after_two,
    )
