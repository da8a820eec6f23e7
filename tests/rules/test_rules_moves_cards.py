"""Legal moves card by card (RULES.md sections 4 and 5), with each card's edge cases.

Coordinates used below (RULES.md section 2): red b=0 (exit 4, safety entry 2,
triangles 1->4 and 9->13); blue b=15 (exit 19, entry 17, triangles 16->19, 24->28);
yellow b=30 (exit 34, entry 32, triangles 31->34, 39->43); green b=45 (exit 49,
entry 47, triangles 46->49, 54->58).
"""

from __future__ import annotations

from rules_helpers import (
    Spec,
    by_notation,
    canon,
    canon_spec,
    layout,
    moves_for,
    notations,
    only,
    results,
)

from sorry_lan.rules import HOME, Card, MoveKind
from sorry_lan.rules.state import check_layout

ALL = (0, 1, 2, 3)
DONE = ("home", "home", "home")  # fill a colour's other pawns so 1, 2 cannot leave START


def assert_sound(spec: Spec, card: Card) -> None:
    """Every move's result is a valid layout and no two results are the same position."""
    pawns = layout(spec)
    moves = moves_for(spec, card)
    for m in moves:
        check_layout(m.result(pawns), ALL)
    res = results(moves, pawns)
    assert len(res) == len(set(res))


# -- 1 -----------------------------------------------------------------------------


def test_one_leaves_start_to_the_exit_square() -> None:
    moves = moves_for({"red": ["start", "start", "start", "start"]}, Card.ONE)
    assert notations(moves) == {"R1 start->4"}  # pawns in START are interchangeable


def test_one_cannot_leave_start_when_own_pawn_is_on_the_exit() -> None:
    moves = moves_for({"red": ["start", 4]}, Card.ONE)
    assert notations(moves) == {"R2 4->5"}


def test_one_leaving_start_bumps_an_opponent_on_the_exit() -> None:
    spec: Spec = {"red": ["start"], "yellow": [4]}
    move = only(moves_for(spec, Card.ONE))
    assert move.notation() == "R1 start->4, bumps Y1"
    assert move.result(layout(spec)) == layout({"red": [4]})


def test_one_moves_forward_one() -> None:
    assert notations(moves_for({"red": [20, "home", "home", "home"]}, Card.ONE)) == {"R1 20->21"}


# -- 2 -----------------------------------------------------------------------------


def test_two_leaves_start_or_moves_forward_two() -> None:
    moves = moves_for({"red": ["start", 20]}, Card.TWO)
    assert notations(moves) == {"R1 start->4", "R2 20->22"}


def test_two_cannot_leave_start_onto_own_pawn() -> None:
    assert notations(moves_for({"red": ["start", 4]}, Card.TWO)) == {"R2 4->6"}


def test_two_with_no_move_gives_no_move() -> None:
    # Drawing again after an unusable 2 is the game's job (test_rules_game_flow.py).
    assert moves_for({"red": ["home", "home", "home", "S5"]}, Card.TWO) == []


# -- 3, 5, 8, 12: plain forward moves ------------------------------------------------


def test_forward_moves_count_exactly() -> None:
    for card, dest in ((Card.THREE, 23), (Card.FIVE, 25), (Card.EIGHT, 28), (Card.TWELVE, 32)):
        # 28 is blue's long slide end, 32 yellow's safety entry: no triangle there.
        assert notations(moves_for({"red": [20]}, card)) == {f"R1 20->{dest}"}


def test_forward_wraps_from_59_to_0() -> None:
    assert notations(moves_for({"blue": [58]}, Card.THREE, "blue")) == {"B1 58->1, slides to 4"}
    assert notations(moves_for({"blue": [57]}, Card.THREE, "blue")) == {"B1 57->0"}


def test_landing_on_own_pawn_is_illegal() -> None:
    assert notations(moves_for({"red": [20, 23]}, Card.THREE)) == {"R2 23->26"}


def test_landing_on_opponent_bumps_it_to_start() -> None:
    spec: Spec = {"red": [20], "blue": [25]}
    move = only(moves_for(spec, Card.FIVE))
    assert move.notation() == "R1 20->25, bumps B1"
    assert move.bumped() == (4,)
    assert move.result(layout(spec)) == layout({"red": [25]})


def test_pawns_jump_over_pawns_in_their_path() -> None:
    spec: Spec = {"red": [20, 21], "blue": [22, 23]}
    assert "R1 20->25" in notations(moves_for(spec, Card.FIVE))


def test_forward_enters_own_safety_zone_past_the_entry() -> None:
    assert notations(moves_for({"red": [2, *DONE]}, Card.ONE)) == {"R1 2->S1"}
    assert notations(moves_for({"red": [59]}, Card.EIGHT)) == {"R1 59->S5"}
    assert notations(moves_for({"red": [0]}, Card.EIGHT)) == {"R1 0->home"}


def test_other_colours_pass_a_safety_entry_on_the_track() -> None:
    # Blue passes red's safety entry (square 2) and stays on the track.
    assert notations(moves_for({"blue": [0]}, Card.THREE, "blue")) == {"B1 0->3"}
    assert notations(moves_for({"blue": [1, *DONE]}, Card.ONE, "blue")) == {"B1 1->2"}


def test_home_needs_the_exact_count() -> None:
    assert notations(moves_for({"red": ["S1"]}, Card.FIVE)) == {"R1 S1->home"}
    assert moves_for({"red": ["S2"]}, Card.FIVE) == []  # would pass HOME
    assert moves_for({"red": ["S5", *DONE]}, Card.TWO) == []
    assert moves_for({"red": [58]}, Card.TWELVE) == []  # 58 is 10 from HOME


def test_home_pawns_never_move() -> None:
    for card in Card:
        for m in moves_for({"red": ["home", "home", "home", 30], "blue": [20]}, card):
            assert all(before != HOME for _pawn, before, _after in m.changes)
    assert moves_for({"red": ["home", "home", "home", "home"]}, Card.FOUR) == []
    assert moves_for({"red": ["home", "home", "home", "home"]}, Card.TEN) == []


def test_safety_squares_belong_to_one_colour() -> None:
    # Red moves onto its S2 while blue holds blue's S2: different squares, no bump.
    move = only(moves_for({"red": [2, *DONE], "blue": ["S2"]}, Card.TWO))
    assert move.notation() == "R1 2->S2"
    assert move.bumped() == ()


def test_safety_square_held_by_own_pawn_blocks() -> None:
    assert notations(moves_for({"red": [2, "S2", "home", "home"]}, Card.TWO)) == {"R2 S2->S4"}


# -- 4 -----------------------------------------------------------------------------


def test_four_moves_backward() -> None:
    assert notations(moves_for({"red": [20]}, Card.FOUR)) == {"R1 20->16, slides to 19"}
    assert notations(moves_for({"red": [27]}, Card.FOUR)) == {"R1 27->23"}


def test_four_from_s2_backs_out_of_safety_to_b0() -> None:
    assert notations(moves_for({"red": ["S2"]}, Card.FOUR)) == {"R1 S2->0"}
    assert notations(moves_for({"blue": ["S2"]}, Card.FOUR, "blue")) == {"B1 S2->15"}


def test_four_passes_the_start_exit_backward() -> None:
    assert notations(moves_for({"red": [5]}, Card.FOUR)) == {"R1 5->1"}  # own triangle
    assert notations(moves_for({"red": [6]}, Card.FOUR)) == {"R1 6->2"}
    assert notations(moves_for({"red": [3]}, Card.FOUR)) == {"R1 3->59"}


def test_backward_never_enters_a_safety_zone() -> None:
    # From S3 back 4: S2, S1, then the track (2, 1); never back into safety.
    assert notations(moves_for({"red": ["S3"]}, Card.FOUR)) == {"R1 S3->1"}
    # Blue backing past its own entry from 21 stays on the track.
    assert notations(moves_for({"blue": [21]}, Card.FOUR, "blue")) == {"B1 21->17"}


def test_pawn_backed_behind_its_entry_enters_safety_on_a_later_forward_move() -> None:
    assert notations(moves_for({"red": [2]}, Card.FIVE)) == {"R1 2->S5"}
    assert notations(moves_for({"red": [0]}, Card.THREE)) == {"R1 0->S1"}
    assert notations(moves_for({"red": [58]}, Card.FIVE)) == {"R1 58->S1"}
    assert notations(moves_for({"red": [58]}, Card.TEN)) == {"R1 58->home", "R1 58->57"}


def test_four_needs_a_pawn_on_the_board() -> None:
    assert moves_for({"red": ["start", "start", "home", "home"]}, Card.FOUR) == []


def test_four_landing_on_another_colours_triangle_slides() -> None:
    spec: Spec = {"yellow": [20], "red": [17]}
    move = only(moves_for(spec, Card.FOUR, "yellow"))
    assert move.notation() == "Y1 20->16, slides to 19, bumps R1"
    assert move.result(layout(spec)) == layout({"yellow": [19]})


def test_four_bouncing_back_to_the_same_square_is_one_move() -> None:
    # Both pawns back onto a triangle that slides them to where they started:
    # two moves with the same resulting position, listed once (bug fixed in c98b3d2).
    spec: Spec = {"blue": [13, 58, "start", "start"]}
    moves = moves_for(spec, Card.FOUR, "blue")
    assert len(moves) == 1
    assert moves[0].result(layout(spec)) == layout(spec)


# -- 7 -----------------------------------------------------------------------------


def test_seven_whole_or_split_every_way() -> None:
    spec: Spec = {"red": [10, 30]}
    got = results(moves_for(spec, Card.SEVEN), layout(spec))
    # 10+6 = 16 is blue's triangle (slides to 19), 30+1 = 31 yellow's (slides to 34).
    slide = {16: 19, 31: 34}
    want = [
        canon_spec({"red": [slide.get(10 + k, 10 + k), slide.get(37 - k, 37 - k)]})
        for k in range(8)
    ]
    assert sorted(got) == sorted(want)


def test_seven_split_equal_to_a_whole_seven_is_listed_once() -> None:
    # R2 13->17 then R1 10->13 leaves the position R1 10->17 leaves.
    spec: Spec = {"red": [10, 13]}
    moves = moves_for(spec, Card.SEVEN)
    res = results(moves, layout(spec))
    assert res.count(canon_spec({"red": [13, 17]})) == 1
    assert len(res) == len(set(res)) == 5


def test_seven_parts_never_end_on_one_square() -> None:
    spec: Spec = {"red": [10, 11]}
    for m in moves_for(spec, Card.SEVEN):
        if m.kind == MoveKind.SPLIT:
            a, b = m.parts
            assert a.end != b.end
    assert_sound(spec, Card.SEVEN)


def test_seven_slide_in_first_part_acts_before_second() -> None:
    spec: Spec = {"red": [14, 12], "blue": [17]}
    moves = moves_for(spec, Card.SEVEN)
    first = by_notation(moves, "7: R1 14->16, slides to 19, bumps B1, R2 12->17")
    assert first.parts[1].bumps == ()  # B1 had already gone
    assert first.result(layout(spec)) == layout({"red": [19, 17]})


def test_seven_second_part_may_bump_the_first_pawn_by_its_slide() -> None:
    spec: Spec = {"red": [14, 12], "blue": [17]}
    pawns = layout(spec)
    # R2 12->17 bumps B1, then R1 14->16 slides to 19 over R2 (or R1 14->17, then
    # R2 12->16 slides over R1: the same position, listed once).
    want = canon_spec({"red": [19]})
    move = only([m for m in moves_for(spec, Card.SEVEN) if canon(m.result(pawns)) == want])
    assert move.kind == MoveKind.SPLIT
    first, second = move.parts
    assert first.pawn in second.bumps


def test_seven_first_part_may_not_bump_the_second_pawn() -> None:
    spec: Spec = {"red": [14, 18]}
    pawns = layout(spec)
    moves = moves_for(spec, Card.SEVEN)
    # R1 14->16 slides to 19 over R2 at 18: R2 could not then move its part.
    assert canon_spec({"red": [19]}) not in results(moves, pawns)
    assert all(not (m.kind == MoveKind.SPLIT and m.parts[0].pawn == 0 and m.parts[0].to == 16)
               for m in moves)
    assert "7: R2 18->23, R1 14->16, slides to 19" in notations(moves)


def test_seven_home_with_a_part_only_if_another_pawn_takes_the_rest() -> None:
    assert moves_for({"red": ["S1"]}, Card.SEVEN) == []
    assert moves_for({"red": ["S1", "home", "home", "home"]}, Card.SEVEN) == []
    spec: Spec = {"red": ["S1", 30]}
    got = results(moves_for(spec, Card.SEVEN), layout(spec))
    assert canon_spec({"red": ["home", 32]}) in got
    assert canon_spec({"red": ["S1", 37]}) in got
    assert moves_for({"red": ["S3", "S5"]}, Card.SEVEN) == []


def test_seven_part_cannot_leave_start() -> None:
    moves = moves_for({"red": ["start", "start", "start", 10]}, Card.SEVEN)
    assert notations(moves) == {"R4 10->17"}


def test_seven_split_results_are_distinct_positions() -> None:
    assert_sound({"red": [10, 11, 12, 14], "blue": [16, 17, 20]}, Card.SEVEN)


# -- 10 ----------------------------------------------------------------------------


def test_ten_forward_ten_or_back_one() -> None:
    assert notations(moves_for({"red": [20]}, Card.TEN)) == {"R1 20->30", "R1 20->19"}


def test_ten_back_one_from_s1_and_back_one_only_near_home() -> None:
    assert notations(moves_for({"red": ["S1"]}, Card.TEN)) == {"R1 S1->2"}
    assert notations(moves_for({"red": ["S3"]}, Card.TEN)) == {"R1 S3->S2"}


def test_ten_back_one_onto_a_triangle_slides() -> None:
    assert "R1 17->16, slides to 19" in notations(moves_for({"red": [17]}, Card.TEN))


# -- 11 ----------------------------------------------------------------------------


def test_eleven_forward_or_swap_with_an_opponent_on_the_track() -> None:
    spec: Spec = {"red": [10], "yellow": [40, "S1", "home", "start"]}
    moves = moves_for(spec, Card.ELEVEN)
    assert notations(moves) == {"R1 10->21", "R1 10 <-> Y1 40"}
    swap = by_notation(moves, "R1 10 <-> Y1 40")
    assert swap.result(layout(spec)) == layout({"red": [40], "yellow": [10, "S1", "home"]})
    assert swap.compact() == (2, 11, 0, 8)


def test_eleven_swap_needs_own_pawn_on_the_track() -> None:
    spec: Spec = {"red": ["S1", "start"], "yellow": [40]}
    assert moves_for(spec, Card.ELEVEN) == []


def test_eleven_swap_onto_triangles_slides_both_pawns() -> None:
    # R1 on yellow's triangle 31, B1 on blue's own triangle 24.
    spec: Spec = {"red": [31], "blue": [24, 26], "yellow": [33]}
    moves = moves_for(spec, Card.ELEVEN)
    swap = by_notation(
        moves, "R1 31 <-> B1 24, R1 slides to 28, bumps B2, B1 slides to 34, bumps Y1"
    )
    assert swap.result(layout(spec)) == layout({"red": [28], "blue": [34]})


def test_eleven_swap_onto_own_triangle_does_not_slide() -> None:
    spec: Spec = {"red": [20], "yellow": [9]}
    swap = by_notation(moves_for(spec, Card.ELEVEN), "R1 20 <-> Y1 9")
    assert swap.result(layout(spec)) == layout({"red": [9], "yellow": [20]})


def test_eleven_decline_offered_exactly_when_no_pawn_can_move_eleven() -> None:
    spec: Spec = {"red": [58], "yellow": [40]}  # 58 is 10 from HOME
    moves = moves_for(spec, Card.ELEVEN)
    assert notations(moves) == {"R1 58 <-> Y1 40", "decline the 11 (turn lost)"}
    decline = by_notation(moves, "decline the 11 (turn lost)")
    assert decline.kind == MoveKind.DECLINE
    assert decline.result(layout(spec)) == layout(spec)
    assert decline.compact() == (4, 11)


def test_eleven_no_decline_when_some_pawn_can_move_eleven() -> None:
    spec: Spec = {"red": [58, 20], "yellow": [40]}
    moves = moves_for(spec, Card.ELEVEN)
    assert all(m.kind != MoveKind.DECLINE for m in moves)
    assert "R2 20->31, slides to 34" in notations(moves)


def test_eleven_with_no_forward_and_no_swap_has_no_move() -> None:
    assert moves_for({"red": [58], "yellow": ["S1"]}, Card.ELEVEN) == []


def test_eleven_forward_blocked_by_own_pawn() -> None:
    spec: Spec = {"red": [10, 21], "yellow": ["S1"]}
    assert notations(moves_for(spec, Card.ELEVEN)) == {"R2 21->32"}


def test_eleven_declinable_swaps_are_distinct_positions() -> None:
    # B3 swapping with R3 (on 19) or with R4 (on 17): either red pawn lands on blue's
    # triangle 16, slides to 19 and bumps the other red pawn and B3 -- one position.
    spec: Spec = {"red": [59, "S3", 19, 17], "blue": ["home", "home", 16, "S2"]}
    pawns = layout(spec)
    moves = moves_for(spec, Card.ELEVEN, "blue")
    res = results(moves, pawns)
    assert len(res) == len(set(res))
    assert sum(m.kind == MoveKind.SWAP for m in moves) == 2
    assert any(m.kind == MoveKind.DECLINE for m in moves)


# -- 12 ----------------------------------------------------------------------------


def test_twelve_forward_and_overshoot() -> None:
    assert notations(moves_for({"red": [40]}, Card.TWELVE)) == {"R1 40->52"}
    assert notations(moves_for({"red": [51]}, Card.TWELVE)) == {"R1 51->S1"}
    assert moves_for({"red": [57]}, Card.TWELVE) == []  # 57 is 11 from HOME


# -- Sorry! --------------------------------------------------------------------------


def test_sorry_takes_a_pawn_from_start_onto_an_opponent() -> None:
    spec: Spec = {"red": ["start", "start"], "yellow": [40]}
    move = only(moves_for(spec, Card.SORRY))
    assert move.notation() == "Sorry! R1 start->40 bumps Y1"
    assert move.compact() == (3, 13, 0, 8)
    assert move.result(layout(spec)) == layout({"red": [40]})


def test_sorry_with_no_pawn_in_start_has_no_move() -> None:
    assert moves_for({"red": [10, 11, 12, 13], "yellow": [40]}, Card.SORRY) == []


def test_sorry_with_no_target_on_the_track_has_no_move() -> None:
    assert moves_for({"yellow": ["S1", "home", "start", "start"]}, Card.SORRY) == []


def test_sorry_never_targets_safety_start_or_home() -> None:
    spec: Spec = {"yellow": ["S1", "home", "start", 40], "blue": ["S5"]}
    assert notations(moves_for(spec, Card.SORRY)) == {"Sorry! R1 start->40 bumps Y4"}


def test_sorry_never_targets_own_colour() -> None:
    assert moves_for({"red": ["start", 40]}, Card.SORRY) == []


def test_sorry_onto_another_colours_triangle_slides_after() -> None:
    spec: Spec = {"red": ["start", 33], "blue": [31], "yellow": [34]}
    moves = moves_for(spec, Card.SORRY)
    assert notations(moves) == {
        "Sorry! R1 start->31 bumps B1, slides to 34, bumps R2,Y1",
        "Sorry! R1 start->34 bumps Y1",
    }
    move = by_notation(moves, "Sorry! R1 start->31 bumps B1, slides to 34, bumps R2,Y1")
    assert move.result(layout(spec)) == layout({"red": [34]})


def test_sorry_onto_own_triangle_stays() -> None:
    spec: Spec = {"red": ["start"], "yellow": [1]}
    move = only(moves_for(spec, Card.SORRY))
    assert move.result(layout(spec)) == layout({"red": [1]})


# -- slides ----------------------------------------------------------------------------


def test_own_triangle_does_not_slide() -> None:
    assert notations(moves_for({"red": [7, *DONE]}, Card.TWO)) == {"R1 7->9"}


def test_other_triangle_slides_and_bumps_every_pawn_on_it_including_own() -> None:
    spec: Spec = {"red": [12, 27], "yellow": [25], "blue": [28]}
    move = by_notation(moves_for(spec, Card.TWELVE), "R1 12->24, slides to 28, bumps Y1,R2,B1")
    assert move.result(layout(spec)) == layout({"red": [28]})


def test_slide_onto_own_pawn_on_the_triangle_is_illegal() -> None:
    # The landing square itself holds an own pawn: the move would land on it.
    spec: Spec = {"red": [12, 24]}
    assert "R1 12->24, slides to 28" not in notations(moves_for(spec, Card.TWELVE))


def test_passing_over_a_triangle_does_nothing() -> None:
    spec: Spec = {"red": [14], "yellow": [18]}
    move = only(moves_for(spec, Card.THREE))
    assert move.notation() == "R1 14->17"
    assert move.result(layout(spec)) == layout({"red": [17], "yellow": [18]})


def test_landing_on_a_slide_end_without_a_triangle_does_not_slide() -> None:
    assert notations(moves_for({"red": [15]}, Card.FOUR)) == {"R1 15->11"}
