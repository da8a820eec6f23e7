"""Team play (RULES.md section 7): red with yellow, blue with green."""

from __future__ import annotations

from rules_helpers import (
    Spec,
    by_notation,
    canon,
    canon_spec,
    layout,
    moves_for,
    notations,
    play_notation,
    staged_game,
)

from sorry_lan.rules import Card, Colour, GameOver, MoveKind, TurnStarted, Variant
from sorry_lan.rules.variants import team_of, winner

TEAM = Variant.TEAM
ALL = (Colour.RED, Colour.BLUE, Colour.YELLOW, Colour.GREEN)


def team_moves(spec: Spec, card: Card, player: str = "red", after_two: bool = False) -> set[str]:
    return notations(moves_for(spec, card, player, TEAM, after_two))


def test_teams_are_opposite_colours() -> None:
    assert team_of(Colour.RED) == team_of(Colour.YELLOW) == (Colour.RED, Colour.YELLOW)
    assert team_of(Colour.BLUE) == team_of(Colour.GREEN) == (Colour.BLUE, Colour.GREEN)


def test_a_pawn_may_land_on_its_partners_pawn_and_bump_it() -> None:
    spec: Spec = {"red": [10], "yellow": [13]}
    assert team_moves(spec, Card.THREE) == {"R1 10->13, bumps Y1"}


def test_own_pawn_means_the_moving_pawns_colour() -> None:
    # Red may not land on red; after a 2 a yellow pawn may land on red and bump it.
    spec: Spec = {"red": [10, 13], "yellow": [8]}
    assert team_moves(spec, Card.THREE) == {"R2 13->16, slides to 19"}
    after = team_moves(spec, Card.FIVE, after_two=True)
    assert "Y1 8->13, bumps R2" in after
    assert "R1 10->15" in after


def test_sorry_must_be_played_on_the_partner_when_it_is_the_only_target() -> None:
    spec: Spec = {"red": ["start"], "yellow": [40]}
    game = staged_game(layout(spec), "red", Card.SORRY, variant=TEAM, seated=ALL)
    assert [m.notation() for m in game.legal_moves()] == ["Sorry! R1 start->40 bumps Y1"]


def test_eleven_may_swap_with_the_partner() -> None:
    spec: Spec = {"red": [20], "yellow": [40]}
    assert team_moves(spec, Card.ELEVEN) == {"R1 20->31, slides to 34", "R1 20 <-> Y1 40"}


def test_seven_splits_between_any_two_of_the_teams_eight_pawns() -> None:
    spec: Spec = {"red": [10], "yellow": [40, 20]}
    moves = moves_for(spec, Card.SEVEN, "red", TEAM)
    splits = [m for m in moves if m.kind == MoveKind.SPLIT]
    colours = {tuple(sorted(p.pawn >> 2 for p in m.parts)) for m in splits}
    assert colours == {(Colour.RED, Colour.YELLOW), (Colour.YELLOW, Colour.YELLOW)}
    # A whole 7 still moves only the player's own pawns.
    singles = [m for m in moves if m.kind == MoveKind.SIMPLE]
    assert [m.notation() for m in singles] == ["R1 10->17"]
    assert "7: Y1 40->43, Y2 20->24, slides to 28" in notations(moves)


def test_seven_split_first_part_may_not_bump_the_partners_second_pawn() -> None:
    spec: Spec = {"red": [10], "yellow": [13]}
    moves = moves_for(spec, Card.SEVEN, "red", TEAM)
    # R1 10->13 first would bump Y1 before Y1 moves: only the other order is legal.
    move = by_notation(moves, "7: Y1 13->17, R1 10->13")
    assert move.result(layout(spec)) == layout({"red": [13], "yellow": [17]})
    for m in moves:
        if m.kind == MoveKind.SPLIT:
            assert m.parts[1].pawn not in m.parts[0].bumps


def test_seven_split_second_part_may_bump_the_partners_first_pawn() -> None:
    spec: Spec = {"red": [10], "yellow": [11]}
    pawns = layout(spec)
    moves = moves_for(spec, Card.SEVEN, "red", TEAM)
    # Y1 11->14 (3), then R1 10->14 (4) lands on Y1 and bumps it.
    bumped = [m for m in moves if canon(m.result(pawns)) == canon_spec({"red": [14]})]
    assert len(bumped) == 1
    first, second = bumped[0].parts
    assert (first.pawn, second.pawn) == (8, 0)
    assert second.bumps == (8,)


def test_one_and_two_may_bring_out_either_partners_pawn() -> None:
    spec: Spec = {"red": [10, "start"], "yellow": ["start"]}
    for card in (Card.ONE, Card.TWO):
        got = team_moves(spec, card)
        assert {"R2 start->4", "Y1 start->34"} <= got
        assert not any(n.startswith("Y") and "start" not in n for n in got)


def test_without_a_two_only_own_pawns_move() -> None:
    spec: Spec = {"red": [10], "yellow": [40], "blue": [25]}
    assert team_moves(spec, Card.FIVE) == {"R1 10->15"}
    assert team_moves(spec, Card.SORRY) == {"Sorry! R2 start->25 bumps B1",
                                           "Sorry! R2 start->40 bumps Y1"}


def test_after_a_two_either_partners_pawns_move_with_any_card() -> None:
    spec: Spec = {"red": [10], "yellow": [40], "blue": [25]}
    assert team_moves(spec, Card.FIVE, after_two=True) == {"R1 10->15", "Y1 40->45"}
    assert team_moves(spec, Card.FOUR, after_two=True) == {"R1 10->6", "Y1 40->36"}
    assert team_moves(spec, Card.SORRY, after_two=True) == {
        "Sorry! R2 start->25 bumps B1",
        "Sorry! R2 start->40 bumps Y1",
        "Sorry! Y2 start->25 bumps B1",
        "Sorry! Y2 start->10 bumps R1",
    }


def test_after_a_two_in_the_game_the_next_card_may_move_the_partner() -> None:
    spec: Spec = {"red": [10], "yellow": ["start"], "blue": [25]}
    game = staged_game(layout(spec), "red", Card.TWO, variant=TEAM, seated=ALL,
                       upcoming=[Card.SORRY])
    play_notation(game, "R1 10->12")
    assert (game.card, game.after_two) == (Card.SORRY, True)
    assert "Sorry! Y1 start->25 bumps B1" in notations(game.legal_moves())


def test_player_plays_for_the_partner_once_all_own_pawns_are_home() -> None:
    home: list[object] = ["home"] * 4
    spec: Spec = {"red": home, "yellow": [10], "blue": [25]}
    assert team_moves(spec, Card.FIVE) == {"Y1 10->15"}
    assert team_moves(spec, Card.SORRY) == {"Sorry! Y2 start->25 bumps B1"}
    not_yet: Spec = {"red": ["home", "home", "home", "S1"], "yellow": [10]}
    assert team_moves(not_yet, Card.FIVE) == {"R4 S1->home"}


def test_own_colour_triangle_still_slides_the_partners_pawn() -> None:
    spec: Spec = {"red": ["home"] * 4, "yellow": [5]}
    assert team_moves(spec, Card.FOUR) == {"Y1 5->1, slides to 4"}
    after: Spec = {"red": [20], "yellow": [7]}
    assert "Y1 7->9, slides to 13" in team_moves(after, Card.TWO, after_two=True)


def test_blue_and_green_are_partners_too() -> None:
    spec: Spec = {"blue": ["home"] * 4, "green": [20], "red": [30]}
    assert team_moves(spec, Card.FIVE, "blue") == {"G1 20->25"}
    assert team_moves(spec, Card.SORRY, "blue") == {"Sorry! G2 start->30 bumps R1"}


def test_one_colour_home_does_not_win_team_play() -> None:
    spec: Spec = {"red": ["home", "home", "home", "S5"], "yellow": [10]}
    game = staged_game(layout(spec), "red", Card.ONE, variant=TEAM, seated=ALL,
                       upcoming=[Card.THREE])
    events = game.play(by_notation(game.legal_moves(), "R4 S5->home"))
    assert not game.over
    assert next(e.player for e in events if isinstance(e, TurnStarted)) == Colour.BLUE


def test_the_first_team_with_all_eight_home_wins() -> None:
    spec: Spec = {"red": ["home"] * 4, "yellow": ["home", "home", "home", "S5"], "blue": [3]}
    game = staged_game(layout(spec), "red", Card.ONE, variant=TEAM, seated=ALL)
    events = game.play(by_notation(game.legal_moves(), "Y4 S5->home"))
    over = events[-1]
    assert isinstance(over, GameOver)
    assert over.winners == (Colour.RED, Colour.YELLOW)
    assert game.winners == (Colour.RED, Colour.YELLOW)
    pawns = layout({"blue": ["home"] * 4, "green": ["home"] * 4})
    assert winner(TEAM, pawns, ALL) == Colour.BLUE
