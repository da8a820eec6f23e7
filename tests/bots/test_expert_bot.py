"""The expert: its budget, that it never looks at hidden cards, determinism, its play."""

from __future__ import annotations

import copy
import gc
import random
import time

import pytest
from botpositions import layout, legal

from sorry_lan.bots import ExpertBot, Position, make_bot, position_of
from sorry_lan.bots.expert import MARGIN, Search, move_chances, sides
from sorry_lan.rules import Card, Game, Variant
from sorry_lan.rules.board import HOME, S1


def many_sevens() -> Position:
    """Team play, red to move a 7 with eight team pawns out: a few hundred splits."""
    pawns = layout(R1=5, R2=12, R3=20, R4=27, Y1=35, Y2=41, Y3=48, Y4=55,
                   B1=8, B2=30, G1=16, G2=50)
    return Position(Variant.TEAM, (0, 1, 2, 3), pawns, 0, (Card.SEVEN,), after_two=True)


def test_a_seven_among_eight_pawns_has_dozens_of_splits() -> None:
    assert len(legal(many_sevens())) > 100


@pytest.mark.parametrize("budget", [0.002, 0.010])
def test_the_expert_stays_within_its_budget_plus_the_margin(budget: float) -> None:
    # Measured on this thread's CPU time, so a busy machine cannot fail the test: what
    # is checked is how often the search reads its clock, which is the bot's part.
    clock = time.thread_time
    bot = ExpertBot(1, budget=budget, work=10**9, clock=clock)
    positions = [many_sevens()]
    game = Game(Variant.STANDARD, (0, 1, 2, 3), seed=8)
    game.start()
    while not game.over and len(positions) < 40:
        positions.append(position_of(game))
        game.play(game.legal_moves()[0])
    worst = 0.0
    for position in positions:
        moves = legal(position)
        started = clock()
        move = bot.choose(position, moves)
        worst = max(worst, clock() - started)
        assert move in moves
    assert worst <= budget + MARGIN
    assert bot.cut_short > 0  # the budget, not the work limit, ended some searches


def test_the_cyclic_collector_is_paused_during_a_decision_only() -> None:
    seen: list[bool] = []

    def clock() -> float:
        seen.append(gc.isenabled())
        return time.perf_counter()

    bot = ExpertBot(2, budget=60.0, clock=clock)
    position = many_sevens()
    moves = legal(position)
    assert gc.isenabled()
    bot.choose(position, moves)
    assert seen and not any(seen)  # every clock reading fell inside the pause
    assert gc.isenabled()
    gc.disable()
    try:  # a caller that paused the collector itself finds it still paused
        bot.choose(position, moves)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_new_expert_has_the_engine_tables_built() -> None:
    from sorry_lan.rules import seven

    seven._seven_table.clear()
    ExpertBot(0)
    assert seven._seven_table


def _scrambled(game: Game) -> Game:
    """A copy of ``game`` whose hidden cards (draw order, other hands) are reshuffled."""
    other = copy.deepcopy(game)
    rng = random.Random(99)
    hidden = list(other.deck.pile)
    for c, hand in other.hands.items():
        if c != other.turn:
            hidden += hand
    rng.shuffle(hidden)
    for c, hand in other.hands.items():
        if c != other.turn:
            hand[:] = [hidden.pop() for _ in hand]
    other.deck.pile[:] = hidden
    return other


@pytest.mark.parametrize("variant", list(Variant))
def test_the_expert_never_peeks_at_hidden_cards(variant: Variant) -> None:
    seated = (0, 1, 2, 3) if variant is Variant.TEAM else (0, 2, 3)
    game = Game(variant, seated, seed=21)
    game.start()
    greedy = make_bot("greedy", 2)
    bot = ExpertBot(5, budget=60.0)
    checked = 0
    while not game.over and checked < 25:
        moves = game.legal_moves()
        if len(moves) > 1 and len(set(game.deck.pile)) > 2:
            other = _scrambled(game)
            assert other.deck.pile != game.deck.pile or other.hands != game.hands
            assert position_of(other) == position_of(game)
            assert bot.choose(position_of(other), other.legal_moves()) == bot.choose(
                position_of(game), moves)
            checked += 1
        game.play(greedy.choose(position_of(game), moves))
    assert checked == 25


def test_the_same_seed_and_position_give_the_same_move() -> None:
    position = many_sevens()
    moves = legal(position)
    picks = {ExpertBot(3, budget=60.0).choose(position, moves) for _ in range(3)}
    assert len(picks) == 1


def test_team_play_counts_the_partner_as_own() -> None:
    assert sides(many_sevens()) == ((0, 2), (1, 3))
    standard = Position(Variant.STANDARD, (0, 1, 2), layout(), 1, (Card.ONE,))
    assert sides(standard) == ((1,), (0, 2))


def test_takes_the_winning_move() -> None:
    # Red has three pawns HOME and R4 on S3: the 3 takes it HOME and wins at once.
    position = Position(Variant.STANDARD, (0, 2), layout(R1=HOME, R2=HOME, R3=HOME,
                        R4=S1 + 2, Y1=10, Y2=3), 0, (Card.THREE,))
    moves = legal(position)
    move = ExpertBot(0, budget=60.0).choose(position, moves)
    assert move.result(position.pawns)[3] == HOME


def test_bumps_rather_than_walks_by() -> None:
    # A 5: R1 20->25 bumps Y1 (far along); R2 40->45 bumps nothing.
    position = Position(Variant.STANDARD, (0, 2), layout(R1=20, R2=40, Y1=25), 0, (Card.FIVE,))
    move = ExpertBot(0, budget=60.0).choose(position, legal(position))
    assert move.bumped() == (8,)


def test_play_for_points_uses_its_hand() -> None:
    position = Position(Variant.POINTS, (0, 2), layout(R1=20, R2=40, Y1=25, Y4=34), 0,
                        (Card.FIVE, Card.THREE, Card.TEN, Card.TWELVE, Card.ONE))
    moves = legal(position)
    assert {m.card for m in moves} >= {Card.FIVE, Card.THREE}
    move = ExpertBot(0, budget=60.0).choose(position, moves)
    assert move.bumped() == (8,)


def test_beats_random_over_30_games() -> None:
    wins = 0
    for seed in range(30):
        kinds = ("expert", "random") if seed % 2 else ("random", "expert")
        game = Game(Variant.STANDARD, (0, 2), seed=seed)
        bots = {c: make_bot(k, seed) for c, k in zip(game.seated, kinds, strict=True)}
        game.start()
        while not game.over:
            game.play(bots[game.turn].choose(position_of(game), game.legal_moves()))
        assert game.winner is not None
        wins += kinds[game.seated.index(game.winner)] == "expert"
    assert wins >= 22, wins


def test_in_play_for_points_our_next_turn_counts_the_cards_kept() -> None:
    # Red keeps either a Sorry! and a 1 or two 4s; with pawns in START the first is the
    # better hand to hold when red is next to move, and the search scores it so.
    position = Position(Variant.POINTS, (0, 2), layout(R1=20, Y1=50, Y2=30), 0,
                        (Card.SORRY, Card.ONE, Card.FOUR, Card.FOUR, Card.TEN))
    search = Search(position, float("inf"), 10**9)
    pawns = position.pawns
    starters = search.leaf(pawns, 0, (Card.SORRY, Card.ONE, Card.TEN, Card.FOUR))
    fours = search.leaf(pawns, 0, (Card.FOUR, Card.FOUR, Card.TEN, Card.ONE))
    assert starters[search.mine] > fours[search.mine]
    # When the opponent is next, our hand does not enter the leaf.
    assert search.leaf(pawns, 2, (Card.SORRY,)) == search.leaf(pawns, 2, (Card.FOUR,))
    moves = legal(position)
    assert search.kept(moves[0]) is not None and len(search.kept(moves[0]) or ()) == 4


def test_move_chances_rate_every_move_as_a_probability() -> None:
    position = Position(Variant.STANDARD, (0, 2), layout(R1=HOME, R2=HOME, R3=HOME,
                        R4=S1 + 2, Y1=10, Y2=3), 0, (Card.THREE,))
    moves = legal(position)
    chances = move_chances(position, moves, budget=60.0)
    assert len(chances) == len(moves)
    for move, chance in zip(moves, chances, strict=True):
        assert chance is not None and 0.0 <= chance <= 1.0
        if move.result(position.pawns)[3] == HOME:
            assert chance == 1.0
    best = max(range(len(moves)), key=lambda i: chances[i] or 0.0)
    assert ExpertBot(0, budget=60.0).choose(position, moves) == moves[best]


def _positions(variant: Variant, n: int, seed: int) -> list[Position]:
    """Positions with a choice, from a seeded game of greedy bots."""
    seated = (0, 1, 2, 3) if variant is Variant.TEAM else (0, 2)
    game = Game(variant, seated, seed=seed)
    greedy = make_bot("greedy", 1)
    game.start()
    out: list[Position] = []
    while not game.over and len(out) < n:
        moves = game.legal_moves()
        if len(moves) > 1:
            out.append(position_of(game))
        game.play(greedy.choose(position_of(game), moves))
    return out


def test_the_second_pass_is_a_probability_and_a_win_stays_one() -> None:
    position = Position(Variant.STANDARD, (0, 2), layout(R1=HOME, R2=HOME, R3=HOME,
                        R4=S1 + 2, Y1=10, Y2=3), 0, (Card.THREE,))
    search = Search(position, float("inf"), 10**9)
    for move in legal(position):
        deep = search.value(move, depth=2)
        assert 0.0 <= deep <= 1.0
        if move.result(position.pawns)[3] == HOME:
            assert deep == 1.0 == search.value(move)


def test_the_second_pass_plays_one_of_the_first_passes_best_moves() -> None:
    changed = 0
    for position in _positions(Variant.STANDARD, 30, 17):
        moves = legal(position)
        first = move_chances(position, moves, budget=60.0)
        order = sorted(range(len(moves)), key=lambda i: -(first[i] or 0.0))
        shallow = ExpertBot(0, budget=60.0, deep=0).choose(position, moves)
        assert shallow == moves[order[0]]
        # No work for the second pass: the first pass's choice.
        assert ExpertBot(0, budget=60.0, deep_work=0).choose(position, moves) == shallow
        # A margin of 0: only a tie with the best gets a second look.
        if sum(c == first[order[0]] for c in first) == 1:
            assert ExpertBot(0, budget=60.0, deep=3, margin=0.0).choose(
                position, moves) == shallow
        deep = ExpertBot(0, budget=60.0, deep=3, deep_work=10**9, margin=1.0).choose(
            position, moves)
        assert deep in [moves[i] for i in order[:3]]
        changed += deep != shallow
        near = [moves[i] for i in order[:3] if (first[i] or 0.0) >= (first[order[0]] or 0.0)
                - 0.01]
        assert ExpertBot(0, budget=60.0, deep=3, deep_work=10**9, margin=0.01).choose(
            position, moves) in near
    assert changed > 0  # looking a turn deeper changes some choices


@pytest.mark.parametrize("variant", [Variant.TEAM, Variant.POINTS])
def test_the_second_pass_runs_in_team_play_and_play_for_points(variant: Variant) -> None:
    for position in _positions(variant, 6, 23):
        moves = legal(position)
        search = Search(position, float("inf"), 10**9)
        for move in moves[:3]:
            assert 0.0 <= search.value(move, depth=2) <= 1.0
        assert ExpertBot(0, budget=60.0).choose(position, moves) in moves
