"""The standings at a game's end: the winner first, then by score, then by progress."""

from __future__ import annotations

from sorry_lan.rules.board import BASE, HOME, S1, START, safety_entry, start_exit
from sorry_lan.rules.standings import WHOLE_WAY, Place, progress, standings
from sorry_lan.rules.variants import Variant

RED, BLUE, YELLOW, GREEN = range(4)


def _pawns(**where: tuple[int, int, int, int]) -> list[int]:
    pawns = [START] * 16
    for name, locs in where.items():
        colour = ("red", "blue", "yellow", "green").index(name)
        pawns[colour * 4 : colour * 4 + 4] = locs
    return pawns


def test_progress_counts_each_pawns_squares_from_start() -> None:
    assert progress(_pawns(), BLUE) == 0
    assert progress(_pawns(blue=(start_exit(BLUE), START, START, START)), BLUE) == 1
    # four squares back from the exit is close to the safety zone, as in the game
    back_four = (start_exit(BLUE) - 4) % 60
    assert back_four == BASE[BLUE]
    assert progress(_pawns(blue=(back_four, START, START, START)), BLUE) == 57
    assert progress(_pawns(blue=(safety_entry(BLUE), S1, HOME, START)), BLUE) == (
        59 + 60 + WHOLE_WAY
    )


def test_the_winner_is_first_then_pawns_home_then_how_far_they_got() -> None:
    pawns = _pawns(
        red=(HOME, HOME, HOME, HOME),
        blue=(HOME, 20, START, START),
        yellow=(HOME, S1, START, START),
        green=(HOME, HOME, START, START),
    )
    got = standings(Variant.STANDARD.rules, pawns, (RED, BLUE, YELLOW, GREEN), RED)
    assert got == [
        Place(1, (RED,), 4), Place(2, (GREEN,), 2), Place(3, (YELLOW,), 1),
        Place(4, (BLUE,), 1),
    ]


def test_sides_equal_on_both_counts_share_a_place_and_the_next_skips() -> None:
    pawns = _pawns(
        red=(HOME, HOME, HOME, HOME), blue=(start_exit(BLUE) + 1, START, START, START),
        yellow=(start_exit(YELLOW) + 1, START, START, START), green=(START,) * 4,
    )
    got = standings(Variant.STANDARD.rules, pawns, (RED, BLUE, YELLOW, GREEN), RED)
    assert [(p.place, p.colours) for p in got] == [
        (1, (RED,)), (2, (BLUE,)), (2, (YELLOW,)), (4, (GREEN,)),
    ]


def test_a_team_is_placed_as_one_side_with_its_score_summed() -> None:
    pawns = _pawns(
        red=(HOME,) * 4, yellow=(HOME,) * 4,
        blue=(HOME, HOME, HOME, START), green=(START,) * 4,
    )
    got = standings(Variant.TEAM.rules, pawns, (RED, BLUE, YELLOW, GREEN), RED)
    assert [(p.place, p.colours) for p in got] == [(1, (RED, YELLOW)), (2, (BLUE, GREEN))]


def test_points_are_the_score_and_a_game_not_won_has_no_first_by_right() -> None:
    pawns = _pawns(red=(HOME, HOME, 10, START), blue=(HOME, HOME, HOME, START))
    rules = Variant.POINTS.rules
    got = standings(rules, pawns, (RED, BLUE), None)
    assert [(p.place, p.colours) for p in got] == [(1, (BLUE,)), (2, (RED,))]
    assert [p.score for p in got] == [
        rules.scores(pawns, (RED, BLUE), None)[BLUE], rules.scores(pawns, (RED, BLUE), None)[RED]
    ]
