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
from .moves import Move, MoveContext, generate
from .variants import Variant, all_home, move_context, winner

Chooser = Callable[[list[Move]], Move]


class PlayoutResult:
    __slots__ = ("moves", "pawns", "turns", "winner")

    def __init__(self, winner: int, pawns: tuple[int, ...], turns: int, moves: int) -> None:
        self.winner = winner
        self.pawns = pawns
        self.turns = turns
        self.moves = moves


def random_chooser(rng: random.Random) -> Chooser:
    """A chooser picking uniformly among the legal moves."""
    randbelow = rng._randbelow  # type: ignore[attr-defined]

    def choose(moves: list[Move]) -> Move:
        return moves[randbelow(len(moves))]  # type: ignore[no-any-return]

    return choose


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
    nxt = {c: seated[(i + 1) % len(seated)] for i, c in enumerate(seated)}
    contexts: dict[tuple[int, bool, bool], MoveContext] = {}
    team = variant is Variant.TEAM
    draw = deck.draw
    discard = deck.discard
    turns = 1
    moves_played = 0
    idle = 0
    while True:
        if card is None:
            card = draw()
        done = team and all_home(pawns, turn)
        key = (turn, after_two, done)
        ctx = contexts.get(key)
        if ctx is None:
            ctx = contexts[key] = move_context(variant, pawns, turn, after_two)
        moves = generate(pawns, card, ctx)
        if moves:
            idle = 0
            move = choose(moves)
            moves_played += 1
            pawns = move.result(pawns)
            for _pawn, _before, after in move.changes:
                if after == HOME:
                    won = winner(variant, pawns, seated)
                    if won is not None:
                        discard(card)
                        return PlayoutResult(won, pawns, turns, moves_played)
                    break
        else:
            idle += 1
            if idle > MAX_IDLE_DRAWS:
                raise RuntimeError("no legal move for any player over 10000 draws")
        discard(card)
        if card == Card.TWO:
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
