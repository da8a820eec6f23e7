"""The bot registry and the random bot."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import pytest

from sorry_lan.bots import GreedyBot, RandomBot, UnknownBotError, bot_kinds, make_bot
from sorry_lan.rules import Card, Game, Variant, generate, move_context
from sorry_lan.rules.board import START


@dataclass(frozen=True)
class Position:
    variant: Variant
    seated: tuple[int, ...]
    pawns: tuple[int, ...]
    turn: int


def test_kinds_are_registered() -> None:
    assert bot_kinds() == ("greedy", "random")


def test_make_bot_builds_each_kind() -> None:
    assert isinstance(make_bot("random", 1), RandomBot)
    assert isinstance(make_bot("greedy", 1), GreedyBot)
    assert isinstance(make_bot(" Greedy ", None), GreedyBot)
    assert make_bot("random").kind == "random"


def test_unknown_kind_is_a_typed_error() -> None:
    expected = r"unknown bot kind 'clever' \(choose greedy, random\)"
    with pytest.raises(UnknownBotError, match=expected):
        make_bot("clever", 1)


def _eleven_position() -> tuple[Position, list]:  # type: ignore[type-arg]
    pawns = [START] * 16
    pawns[0], pawns[1], pawns[8], pawns[9] = 10, 20, 40, 50
    table = Position(Variant.STANDARD, (0, 2), tuple(pawns), 0)
    moves = generate(table.pawns, Card.ELEVEN, move_context(Variant.STANDARD, table.pawns, 0))
    return table, moves


@pytest.mark.parametrize("kind", ["random", "greedy"])
def test_bots_only_choose_offered_moves(kind: str) -> None:
    table, moves = _eleven_position()
    bot = make_bot(kind, 5)
    for _ in range(50):
        assert bot.choose(table, moves) in moves


@pytest.mark.parametrize("kind", ["random", "greedy"])
def test_no_legal_move_is_an_error(kind: str) -> None:
    table, _ = _eleven_position()
    with pytest.raises(ValueError, match="no legal move"):
        make_bot(kind, 1).choose(table, [])


def test_random_bot_is_reproducible_and_spreads_its_choices() -> None:
    table, moves = _eleven_position()
    assert len(moves) >= 4
    a, b, c = RandomBot(7), RandomBot(7), RandomBot(8)
    picks_a = [a.choose(table, moves) for _ in range(400)]
    picks_b = [b.choose(table, moves) for _ in range(400)]
    picks_c = [c.choose(table, moves) for _ in range(400)]
    assert picks_a == picks_b
    assert picks_a != picks_c
    counts = Counter(picks_a)
    assert set(counts) == set(moves)
    expected = 400 / len(moves)
    assert all(expected / 2 < n < expected * 2 for n in counts.values())


@pytest.mark.parametrize(
    ("variant", "seated"),
    [
        (Variant.STANDARD, (0, 2)),
        (Variant.STANDARD, (1, 2, 3)),
        (Variant.TEAM, (0, 1, 2, 3)),
        (Variant.POINTS, (0, 3)),
    ],
)
def test_bots_finish_whole_games_with_a_game_as_table(
    variant: Variant, seated: tuple[int, ...]
) -> None:
    for seed in range(3):
        game = Game(variant, seated, seed=seed)
        bots = {c: make_bot("greedy" if i % 2 else "random", seed + i) for i, c in
                enumerate(game.seated)}
        game.start()
        while not game.over:
            moves = game.legal_moves()
            move = bots[game.turn].choose(game, moves)
            assert move in moves
            game.play(move)
        game.check()
        assert game.winner in game.seated
