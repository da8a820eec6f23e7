"""A tape from a game record: every turn with the board the rules engine reached after
it, the parts a viewer is shown (who, card, pawns moved, bumps, a Sorry!), the points
in play for points; a record that does not replay is refused at its turn."""

from __future__ import annotations

import copy

import pytest
from replay_records import golden, played

from sorry_lan.codes import RecordFailure
from sorry_lan.records import RecordError
from sorry_lan.records.entries import board
from sorry_lan.replay import from_record
from sorry_lan.replay.tape import marks
from sorry_lan.rules import START, Variant, check_layout


@pytest.mark.parametrize("name", ["standard-2", "team-4", "points-3"])
def test_each_turn_of_a_record_is_a_step_with_the_board_after_it(name: str) -> None:
    record = golden(name)
    tape = from_record(record)
    assert [s.n for s in tape.steps] == [t["n"] for t in record["turns"]]
    assert [s.kind for s in tape.steps] == [t["type"] for t in record["turns"]]
    assert board(tape.steps[-1].pawns, tape.seated) == record["board"]
    assert tape.over and tape.winners
    for step in tape.steps:
        check_layout(step.pawns, tape.seated)
    # each move's pawns end where its parts say (unless a later part of it moved them)
    for step in tape.steps:
        if step.kind == "move" and step.moved:
            last = step.moved[-1]
            assert step.pawns[last.pawn] == last.end


def test_a_move_says_who_played_which_card_and_what_it_sent_back() -> None:
    tape = from_record(golden("standard-2"))
    sorry = next(s for s in tape.steps if s.sorry)
    assert sorry.card == 13 and sorry.who is not None
    target = sorry.moved[1].pawn
    assert sorry.bumps[0] == target and sorry.pawns[target] == START and sorry.marked
    bump = next(s for s in tape.steps if s.kind == "move" and not s.sorry and s.bumps)
    assert all(bump.pawns[p] == START for p in bump.bumps)
    quiet = next(s for s in tape.steps if s.kind == "move" and not s.marked)
    assert quiet.bumps == () and not quiet.sorry
    assert marks(tape.steps) == [k for k, s in enumerate(tape.steps, 1) if s.marked]
    assert tape.start == (START,) * 16 and tape.names[0] and 0 in tape.seated


def test_play_for_points_counts_the_points_after_each_step_and_the_final_ones() -> None:
    record = golden("points-3")
    tape = from_record(record)
    assert all(set(s.scores) == set(tape.seated) for s in tape.steps)
    final = {int(c): n for c, n in tape.steps[-1].scores.items()}
    words = ["red", "blue", "yellow", "green"]
    assert {words[c]: n for c, n in final.items()} == record["result"]["points"]
    assert from_record(golden("standard-2")).steps[-1].scores == {}


def test_a_game_so_far_replays_to_where_it_stopped() -> None:
    tape = from_record(played(Variant.STANDARD, (0, 1, 2), seed=4, moves=15))
    assert not tape.over and tape.steps and tape.winners == ()
    assert tape.last_n() == tape.steps[-1].n == len(tape.steps)


def test_an_edited_record_is_refused_at_the_edited_turn() -> None:
    record = golden("standard-2")
    edited = copy.deepcopy(record)
    turn = next(t for t in edited["turns"] if t["type"] == "move" and t["n"] > 10)
    turn["card"] = "sorry" if turn["card"] != "sorry" else "1"
    with pytest.raises(RecordError) as info:
        from_record(edited)
    assert info.value.code is RecordFailure.EDITED_CARD
    assert str(turn["n"]) in str(info.value)
