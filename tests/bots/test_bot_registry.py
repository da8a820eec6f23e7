"""The bot registry, what a bot sees (``Position``) and the random bot."""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Sequence

import pytest

from sorry_lan.bots import (
    ExpertBot,
    GreedyBot,
    MasterBot,
    Position,
    RandomBot,
    UnknownBotError,
    bot_kinds,
    bot_name,
    made_name,
    make_bot,
    parse_strength,
    position_of,
)
from sorry_lan.bots.base import pick, searched_choice, unseen_counts
from sorry_lan.rules import Card, Game, Move, Variant, generate, move_context
from sorry_lan.rules.board import START
from sorry_lan.rules.cards import card_counts


def test_kinds_are_registered_weakest_first() -> None:
    assert bot_kinds() == ("random", "greedy", "expert", "master")


def test_make_bot_builds_each_kind() -> None:
    assert isinstance(make_bot("random", 1), RandomBot)
    assert isinstance(make_bot("greedy", 1), GreedyBot)
    assert isinstance(make_bot(" Greedy ", None), GreedyBot)
    assert isinstance(make_bot("expert", 1, budget=0.02), ExpertBot)
    assert make_bot("expert", budget=0.02).budget == 0.02  # type: ignore[attr-defined]
    assert make_bot("random").kind == "random"
    assert parse_strength(" EXPERT ") == "expert"
    assert isinstance(make_bot("master", 1, budget=0.02), MasterBot)
    assert make_bot("master", budget=0.02).budget == 1.0  # type: ignore[attr-defined]


def test_unknown_kind_is_a_typed_error() -> None:
    expected = r"unknown bot strength 'clever' \(choose random, greedy, expert, master\)"
    with pytest.raises(UnknownBotError, match=expected):
        make_bot("clever", 1)


def test_position_of_a_game_holds_only_what_the_player_may_know() -> None:
    game = Game(Variant.POINTS, (0, 2), seed=3)
    game.start()
    for _ in range(6):
        game.play(game.legal_moves()[0])
    position = position_of(game)
    assert position.cards == tuple(game.hands[game.turn])
    assert position == (game.variant, game.seated, game.pawns, game.turn, position.cards,
                        game.after_two, card_counts(game.deck.discards))
    assert sum(position.discards) == len(game.deck.discards) > 0  # the pile is public
    # What it does not hold: the draw pile, the discards and the other hand, together.
    unseen = unseen_counts(position)
    other = next(c for c in game.seated if c != game.turn)
    assert sorted(c for c in Card for _ in range(unseen[c])) == sorted(
        [*game.deck.pile, *game.deck.discards, *game.hands[other]])


def test_unseen_counts_refuse_an_impossible_position() -> None:
    position = Position(Variant.POINTS, (0, 2), (START,) * 16, 0, (Card.SORRY,) * 5)
    with pytest.raises(ValueError, match="more than the deck has"):
        unseen_counts(position)


def test_pick_depends_on_seed_and_position_only() -> None:
    table, _ = _eleven_position()
    assert pick(1, table, 7) == pick(1, table, 7)
    spread = Counter(pick(seed, table, 5) for seed in range(500))
    assert set(spread) == set(range(5))
    assert all(60 < n < 140 for n in spread.values())


def _eleven_position() -> tuple[Position, list[Move]]:
    pawns = [START] * 16
    pawns[0], pawns[1], pawns[8], pawns[9] = 10, 20, 40, 50
    table = Position(Variant.STANDARD, (0, 2), tuple(pawns), 0, (Card.ELEVEN,))
    moves = generate(table.pawns, Card.ELEVEN, move_context(Variant.STANDARD, table.pawns, 0))
    return table, moves


@pytest.mark.parametrize("kind", ["random", "greedy", "expert"])
def test_bots_only_choose_offered_moves(kind: str) -> None:
    table, moves = _eleven_position()
    bot = make_bot(kind, 5)
    for _ in range(50):
        assert bot.choose(table, moves) in moves


@pytest.mark.parametrize("kind", ["random", "greedy", "expert"])
def test_no_legal_move_is_an_error(kind: str) -> None:
    table, _ = _eleven_position()
    with pytest.raises(ValueError, match="no legal move"):
        make_bot(kind, 1).choose(table, [])


def test_random_bot_is_a_function_of_seed_and_position_and_spreads_its_choices() -> None:
    table, moves = _eleven_position()
    assert len(moves) >= 4
    picks_a = [RandomBot(seed).choose(table, moves) for seed in range(400)]
    picks_b = [RandomBot(seed).choose(table, moves) for seed in range(400)]
    bot = RandomBot(7)
    assert len({bot.choose(table, moves) for _ in range(20)}) == 1
    assert picks_a == picks_b
    counts = Counter(picks_a)
    assert set(counts) == set(moves)
    expected = 400 / len(moves)
    assert all(expected / 2 < n < expected * 2 for n in counts.values())


def test_random_bot_picks_what_base_pick_picks() -> None:
    """The random bot inlines ``pick``: the same index for every seed and list length."""
    table, moves = _eleven_position()
    for seed in range(300):
        for n in range(1, len(moves) + 1):
            assert RandomBot(seed).choose(table, moves[:n]) == moves[pick(seed, table, n)]


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
    for seed in range(2):
        game = Game(variant, seated, seed=seed)
        kinds = ("random", "greedy", "expert")
        bots = {c: make_bot(kinds[(i + seed) % 3], seed + i) for i, c in
                enumerate(game.seated)}
        game.start()
        while not game.over:
            moves = game.legal_moves()
            move = bots[game.turn].choose(position_of(game), moves)
            assert move in moves
            game.play(move)
        game.check()
        assert game.winner in game.seated


def test_a_name_the_table_made_gives_its_strength_and_number_a_persons_name_none() -> None:
    assert made_name(bot_name("expert", 2)) == ("expert", 2)
    assert made_name("greedy bot 12") == ("greedy", 12)
    for name in ("Robo", "greedy bot", "greedy bot x", "greedy bot 1 jr", "clever bot 1"):
        assert made_name(name) is None


def test_searched_choice_searches_only_a_real_choice_with_the_collector_paused() -> None:
    game = Game(Variant.STANDARD, (0, 2), seed=3)
    game.start()
    position = position_of(game)
    calls: list[bool] = []

    def search(seen: Position, moves: Sequence[Move]) -> Move:
        calls.append(gc.isenabled())
        assert seen is position
        return moves[-1]

    one = game.legal_moves()[:1]
    assert searched_choice(position, one, search) is one[0]
    assert calls == []  # a single legal move is played without a search
    with pytest.raises(ValueError):
        searched_choice(position, [], search)
    two = [one[0], one[0]._replace()]
    assert searched_choice(position, two, search) is two[1]
    assert calls == [False]  # the search ran with the collector paused...
    assert gc.isenabled()  # ...and it is back on after it
