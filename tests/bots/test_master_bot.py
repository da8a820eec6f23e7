"""The master: its depth, its budget, determinism, the draw odds it counts, its play."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

import pytest
from botpositions import layout, legal

from sorry_lan.bots import MasterBot, Position, make_bot, master, position_of
from sorry_lan.bots.base import blocks, draw_weights
from sorry_lan.bots.master import MARGIN, MIN_DEPTH, SETTLED, Search
from sorry_lan.bots.winchance import evaluator
from sorry_lan.rules import Card, Game, Variant
from sorry_lan.rules.board import HOME, S1
from sorry_lan.rules.cards import DECK_SIZE


def midgame() -> Position:
    return Position(Variant.STANDARD, (0, 2), layout(R1=12, R2=30, Y1=40, Y2=5, Y3=50), 0,
                    (Card.SEVEN,))


def test_the_draw_odds_leave_out_the_discard_pile_and_the_card_held() -> None:
    discards = [0] * 14
    discards[Card.FIVE] = 4  # every 5 has been played: none can come next
    discards[Card.ONE] = 2
    position = midgame()._replace(discards=tuple(discards))
    odds = dict(draw_weights(position))
    assert Card.FIVE not in odds
    left = DECK_SIZE - 4 - 2 - 1
    assert odds[Card.ONE] == pytest.approx(3 / left)
    assert odds[Card.SEVEN] == pytest.approx(3 / left)  # one 7 is the card held
    assert sum(odds.values()) == pytest.approx(1.0)
    # A pile that was just reshuffled (no discards) is the deck less the card held.
    fresh = dict(draw_weights(midgame()))
    assert fresh[Card.ONE] == pytest.approx(5 / (DECK_SIZE - 1))


def test_it_searches_two_own_turns_ahead_in_a_midgame() -> None:
    bot = MasterBot(0, budget=60.0)
    position = midgame()
    move = bot.choose(position, legal(position))
    assert move in legal(position)
    # Depth 2 = the reply and our next move (two own turns counting this one).
    assert bot.depths[-1] >= 2


def test_its_choice_is_a_function_of_the_position() -> None:
    position = midgame()
    moves = legal(position)
    assert MasterBot(0, budget=60.0).choose(position, moves) == \
        MasterBot(9, budget=60.0).choose(position, moves)


def test_it_takes_the_winning_move() -> None:
    pawns = layout(R1=HOME, R2=HOME, R3=HOME, R4=S1 + 2, Y1=20)
    position = Position(Variant.STANDARD, (0, 2), pawns, 0, (Card.THREE,))
    moves = legal(position)
    move = MasterBot(0, budget=60.0).choose(position, moves)
    assert move.result(pawns)[3] == HOME


def test_a_bump_beats_a_plain_step() -> None:
    # Red's 8 from 12 lands on yellow's pawn at 20 (sent to START, 15 squares from HOME).
    position = Position(Variant.STANDARD, (0, 2), layout(R1=12, R2=40, Y1=20, Y2=45), 0,
                        (Card.EIGHT,))
    move = MasterBot(0, budget=60.0).choose(position, legal(position))
    assert move.bumped() == (8,)


def test_a_settled_choice_stops_deepening_after_two_own_turns(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The bump leads every other 8 by far: two own turns decide it, work to spare.
    position = Position(Variant.STANDARD, (0, 2), layout(R1=12, R2=40, Y1=20, Y2=45), 0,
                        (Card.EIGHT,))
    bot = MasterBot(0, budget=60.0)
    values = bot.values(position, legal(position))
    assert bot.depths == [MIN_DEPTH]
    first, second = sorted(values, reverse=True)[:2]
    assert first - second > SETTLED
    assert len(bot.values(position, legal(position)[:1])) == 1  # one move: settled
    assert bot.depths[-1] == MIN_DEPTH
    monkeypatch.setattr(master, "SETTLED", 1.0)  # never settled: it searches deeper
    bot.values(position, legal(position))
    assert bot.depths[-1] > MIN_DEPTH


@pytest.mark.parametrize("budget", [0.02, 0.08])
def test_it_answers_within_its_budget(budget: float) -> None:
    # On the thread's CPU clock, so a busy machine cannot fail it; the work limit is
    # lifted so that the clock decides.  The garbage of the tests a worker ran before
    # is collected first and the collector held off meanwhile: a full collection of a
    # long-lived worker's heap (tens of ms on its CPU clock) is not the bot's search.
    clock = time.thread_time
    gc.collect()
    gc.disable()
    try:
        _within_budget(budget, clock)
    finally:
        gc.enable()


def _within_budget(budget: float, clock: Callable[[], float]) -> None:
    bot = MasterBot(0, budget=budget, work=10**9, clock=clock)
    game = Game(Variant.STANDARD, (0, 2), seed=5)
    game.start()
    worst = 0.0
    for _ in range(30):
        if game.over:
            break
        moves = game.legal_moves()
        started = clock()
        game.play(bot.choose(position_of(game), moves))
        worst = max(worst, clock() - started)
    assert worst <= budget + MARGIN, worst
    assert bot.cut_short > 0  # the clock did stop some searches


def test_a_tiny_budget_still_answers_a_legal_move() -> None:
    ticks = iter(range(10**6))
    bot = MasterBot(0, budget=1e-9, clock=lambda: float(next(ticks)))
    position = midgame()
    assert bot.choose(position, legal(position)) in legal(position)
    assert bot.cut_short == 1


def test_in_play_for_points_its_next_turn_counts_the_cards_kept() -> None:
    hand = (Card.TWELVE, Card.THREE, Card.FOUR, Card.FOUR, Card.TEN)
    position = Position(Variant.POINTS, (0, 2), layout(R1=20, Y1=50), 0, hand)
    moves = {m.card: m for m in legal(position)}
    search = Search(position, evaluator(position.variant, position.seated), float("inf"),
                    10**9)
    # The 3 and the 12 move red's pawn to the same squares only in the other order:
    # keeping the 12 for next turn is worth more than keeping the 3.
    keep_twelve = search.root_value(moves[Card.THREE], 2)
    keep_three = search.root_value(moves[Card.THREE]._replace(card=Card.TWELVE), 2)
    assert keep_twelve > keep_three


@pytest.mark.parametrize(("variant", "seated"), [
    (Variant.STANDARD, (0, 1, 2, 3)), (Variant.TEAM, (0, 1, 2, 3)), (Variant.POINTS, (0, 2)),
])
def test_it_finishes_games_of_every_variant(variant: Variant, seated: tuple[int, ...]
                                            ) -> None:
    game = Game(variant, seated, seed=3)
    bots = {c: MasterBot(0, work=400) if i % 2 == 0 else make_bot("greedy", i)
            for i, c in enumerate(seated)}
    game.start()
    while not game.over:
        moves = game.legal_moves()
        move = bots[game.turn].choose(position_of(game), moves)
        assert move in moves
        game.play(move)
    assert game.winner in game.seated


def test_beats_random_over_16_games() -> None:
    wins = 0
    for seed in range(16):
        kinds = ("master", "random") if seed % 2 else ("random", "master")
        game = Game(Variant.STANDARD, (0, 2), seed=seed)
        bots = {c: MasterBot(0, work=250) if k == "master" else make_bot(k, seed)
                for c, k in zip(game.seated, kinds, strict=True)}
        game.start()
        while not game.over:
            game.play(bots[game.turn].choose(position_of(game), game.legal_moves()))
        wins += kinds[game.seated.index(game.winner)] == "master"
    assert wins >= 13, wins


def test_the_host_and_the_network_bot_run_it_off_their_event_loops() -> None:
    assert blocks(MasterBot())  # host: its bot thread; sorry-lan bot: a worker thread
    assert blocks(make_bot("master"))
