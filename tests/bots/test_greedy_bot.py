"""The greedy bot: its position score, its choices in hand-built positions, its strength."""

from __future__ import annotations

from sorry_lan.bots import GreedyBot, Position, make_bot, position_of
from sorry_lan.bots.greedy import VALUE, score, side_of
from sorry_lan.rules import Card, Game, Move, Variant, generate, move_context
from sorry_lan.rules.board import HOME, NUM_LOCATIONS, S1, START, start_exit


def Table(variant: Variant, seated: tuple[int, ...], pawns: tuple[int, ...], turn: int
          ) -> Position:  # reads like the record it builds
    return Position(variant, seated, pawns, turn, ())


def layout(**where: int) -> tuple[int, ...]:
    """A 16-pawn layout: ``layout(R1=10, Y2=40)``; every other pawn in START."""
    pawns = [START] * 16
    for label, loc in where.items():
        pawns["RBYG".index(label[0]) * 4 + int(label[1]) - 1] = loc
    return tuple(pawns)


def legal(table: Position, card: Card) -> list[Move]:
    ctx = move_context(table.variant, table.pawns, table.turn)
    return generate(table.pawns, card, ctx)


def choose(table: Position, card: Card) -> Move:
    return GreedyBot(0).choose(table, legal(table, card))


def test_pawn_values_rise_toward_home() -> None:
    red = [VALUE[loc] for loc in (START, start_exit(0), 30, 59, 2, S1, S1 + 4, HOME)]
    assert red == sorted(red)
    assert len(set(red)) == len(red)
    # Backing up behind the exit puts a pawn close to its safety zone.
    assert VALUE[0] > VALUE[50] > VALUE[10]
    # The same square is worth a different amount to another colour.
    assert VALUE[NUM_LOCATIONS + 20] < VALUE[NUM_LOCATIONS + 10]


def test_score_counts_own_progress_against_the_opponents() -> None:
    seated = (0, 2)
    base = layout(R1=10, Y1=50)
    assert score(layout(R1=15, Y1=50), seated, (0,)) > score(base, seated, (0,))
    # An opponent's progress is bad for us; bumping it is good.
    assert score(layout(R1=10, Y1=55), seated, (0,)) < score(base, seated, (0,))
    assert score(layout(R1=10), seated, (0,)) > score(base, seated, (0,))
    assert score(base, seated, (2,)) != score(base, seated, (0,))


def test_score_discounts_a_pawn_an_enemy_can_reach() -> None:
    seated = (0, 2)
    # Y1 at 20 is 5 behind R1 at 25 (reachable), or 14 behind R1 at 34 (not reachable).
    near = score(layout(R1=25, Y1=20), seated, (0,)) - VALUE[25]
    far = score(layout(R1=34, Y1=20), seated, (0,)) - VALUE[34]
    assert near < far


def test_partner_pawns_count_as_own_in_team_play() -> None:
    table = Table(Variant.TEAM, (0, 1, 2, 3), layout(R1=10), 2)
    assert side_of(table) == (2, 0)
    assert side_of(Table(Variant.STANDARD, (0, 2), layout(), 2)) == (2,)
    seated = table.seated
    assert score(layout(R1=20), seated, (2, 0)) > score(layout(R1=10), seated, (2, 0))


def test_prefers_bumping_an_opponent() -> None:
    # A 5: R1 20->25 bumps Y1; R2 40->45 bumps nothing.
    table = Table(Variant.STANDARD, (0, 2), layout(R1=20, R2=40, Y1=25), 0)
    move = choose(table, Card.FIVE)
    assert move.bumped() == (8,)


def test_avoids_bumping_its_partner() -> None:
    # Team play, yellow to move with a 5: Y1 45->50 would bump red (the partner),
    # Y2 10->15 bumps nobody.  (Y1 at 45, R1 at 50.)
    table = Table(Variant.TEAM, (0, 1, 2, 3), layout(Y1=45, Y2=10, R1=50, B1=33, G1=5), 2)
    move = choose(table, Card.FIVE)
    assert move.bumped() == ()
    assert move.parts[0].pawn == 9


def test_takes_a_sorry_on_the_most_advanced_opponent() -> None:
    table = Table(Variant.STANDARD, (0, 2), layout(Y1=36, Y2=25), 0)
    move = choose(table, Card.SORRY)
    # Yellow's exit is 34, so Y2 at 25 is far more advanced than Y1 at 36.
    assert move.parts[1].pawn == 9


def test_moves_into_safety_rather_than_stay_exposed() -> None:
    # A 3: R1 at 0 can reach S1 (safe), R2 at 30 just walks on.  Y1 behind both.
    table = Table(Variant.STANDARD, (0, 2), layout(R1=0, R2=30, Y1=55, Y2=25), 0)
    move = choose(table, Card.THREE)
    assert move.parts[0].pawn == 0
    assert move.parts[0].end == S1


def test_prefers_a_swap_that_gains_ground() -> None:
    # R1 far from home at 10; Y1 at 55 is close to red's safety entry (2).
    table = Table(Variant.STANDARD, (0, 2), layout(R1=10, Y1=55), 0)
    move = choose(table, Card.ELEVEN)
    assert move.result(table.pawns)[0] == 55


def test_ties_are_broken_by_the_seed_reproducibly() -> None:
    # A 1: R1 S1->S2 or R2 S3->S4 score the same.
    table = Table(Variant.STANDARD, (0, 2), layout(R1=S1, R2=S1 + 2, R3=HOME, R4=HOME, Y1=40), 0)
    moves = legal(table, Card.ONE)
    assert len(moves) == 2
    picks = [GreedyBot(seed).choose(table, moves) for seed in range(30)]
    assert set(picks) == set(moves)
    assert picks == [GreedyBot(seed).choose(table, moves) for seed in range(30)]


def _play(seed: int, kinds: tuple[str, str]) -> str:
    game = Game(Variant.STANDARD, (0, 2), seed=seed)
    pairs = enumerate(zip(game.seated, kinds, strict=True))
    bots = {c: make_bot(k, seed * 2 + i) for i, (c, k) in pairs}
    game.start()
    while not game.over:
        game.play(bots[game.turn].choose(position_of(game), game.legal_moves()))
    assert game.winner is not None
    return kinds[game.seated.index(game.winner)]


def test_greedy_beats_random_clearly_over_200_games() -> None:
    wins = 0
    for seed in range(200):
        kinds = ("greedy", "random") if seed % 2 else ("random", "greedy")
        wins += _play(seed, kinds) == "greedy"
    assert wins / 200 > 0.70, wins
