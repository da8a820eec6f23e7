"""Fast playouts follow exactly the turn flow of Game (same choices -> same game)."""

from __future__ import annotations

import random

import pytest

from sorry_lan.rules.game import Game
from sorry_lan.rules.playout import playout_game, random_chooser
from sorry_lan.rules.variants import Variant


@pytest.mark.parametrize("variant", [Variant.STANDARD, Variant.TEAM])
@pytest.mark.parametrize("seed", range(12))
def test_playout_matches_game(variant: Variant, seed: int) -> None:
    seated = (0, 1, 2, 3) if variant is Variant.TEAM or seed % 3 == 0 else (0, 2, 3)[: 2 + seed % 2]
    game = Game(variant, seated, seed=seed)
    game.start()
    fast = playout_game(game, random_chooser(random.Random(seed)))
    choose = random_chooser(random.Random(seed))
    moves = 0
    while not game.over:
        game.play(choose(game.legal_moves()))
        moves += 1
    assert fast.winner == game.winner
    assert fast.pawns == game.pawns
    assert fast.moves == moves == game.moves_played


def test_playout_leaves_the_game_untouched() -> None:
    game = Game(Variant.STANDARD, (0, 2), seed=5)
    game.start()
    before = (game.pawns, list(game.deck.pile), list(game.deck.discards), game.card, game.turn)
    playout_game(game, random_chooser(random.Random(1)))
    assert before == (game.pawns, game.deck.pile, game.deck.discards, game.card, game.turn)


def test_playout_refuses_play_for_points() -> None:
    game = Game(Variant.POINTS, (0, 2), seed=5)
    game.start()
    with pytest.raises(ValueError, match="points"):
        playout_game(game, random_chooser(random.Random(1)))
