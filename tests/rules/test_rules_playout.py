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


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("seed", range(6))
def test_run_game_plays_the_game_game_plays(variant: Variant, seed: int) -> None:
    """``run_game`` with the same choices as ``Game``: the same decisions, each with the
    same layout, player, cards in hand, discard pile and legal moves; the same end."""
    from sorry_lan.rules.cards import Card
    from sorry_lan.rules.moves import Move
    from sorry_lan.rules.playout import run_game

    seated = (0, 1, 2, 3) if variant is Variant.TEAM or seed % 2 else (1, 3)
    first = seated[seed % len(seated)] if seed % 3 else None
    game = Game(variant, seated, seed=seed, first=first)
    game.start()
    rng = random.Random(seed)
    seen: list[tuple[object, ...]] = []

    def decide(pawns: tuple[int, ...], turn: int, cards: tuple[Card, ...], after_two: bool,
               discards: list[int], moves: list[Move]) -> Move:
        held = tuple(game.hands[game.turn]) if variant.rules.deals_hands else (game.card,)
        counts = [0] * 14
        for card in game.deck.discards:
            counts[card] += 1
        assert (pawns, turn, cards, after_two, discards, moves) == (
            game.pawns, game.turn, held, game.after_two, counts, game.legal_moves())
        move = moves[rng.randrange(len(moves))]
        seen.append((turn, move))
        game.play(move)
        return move

    result = run_game(variant, seated, seed, decide, first)
    assert game.over and result.winner == game.winner
    assert result.pawns == game.pawns
    assert result.turns == game.turn_number
    assert result.moves == game.moves_played == len(seen)
    assert result.scores == game.final_scores


def test_run_game_checks_its_seating() -> None:
    from sorry_lan.rules.playout import run_game

    with pytest.raises(ValueError, match="team play needs all four"):
        run_game(Variant.TEAM, (0, 2), 1, lambda *a: a[-1][0])
    with pytest.raises(ValueError, match="first player must be seated"):
        run_game(Variant.STANDARD, (0, 2), 1, lambda *a: a[-1][0], first=1)


@pytest.mark.parametrize("variant", list(Variant))
def test_run_game_plays_forced_moves_itself_when_told(variant: Variant) -> None:
    """``ask_forced=False``: a decision with one legal move is played without asking,
    and the game is the one a decider asked at every decision plays."""
    from sorry_lan.rules.cards import Card
    from sorry_lan.rules.moves import Move
    from sorry_lan.rules.playout import run_game

    seated = (0, 1, 2, 3)

    def chooser(asked: list[int]) -> object:
        def decide(pawns: tuple[int, ...], turn: int, cards: tuple[Card, ...],
                   after_two: bool, discards: list[int], moves: list[Move]) -> Move:
            asked.append(len(moves))
            return moves[hash((pawns, turn)) % len(moves)]
        return decide

    every: list[int] = []
    some: list[int] = []
    full = run_game(variant, seated, 11, chooser(every))  # type: ignore[arg-type]
    fast = run_game(variant, seated, 11, chooser(some), ask_forced=False)  # type: ignore[arg-type]
    assert (fast.winner, fast.pawns, fast.turns, fast.moves, fast.scores) == (
        full.winner, full.pawns, full.turns, full.moves, full.scores)
    assert some == [n for n in every if n > 1] and 1 in every and min(some) > 1
