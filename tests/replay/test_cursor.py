"""A viewer's place in a tape: steps forward and back, jumps (a turn, the next or
previous Sorry! or bump, the start, the end), playing on with a fake clock at each
speed, pausing, and moving by hand while it plays."""

from __future__ import annotations

import pytest
from replay_records import golden, played

from sorry_lan.replay import SPEEDS, Replay, from_record
from sorry_lan.replay.tape import Step, Tape
from sorry_lan.rules import START


def shown(r: Replay) -> Step | None:
    return r.step  # (read again each time: a property mypy would narrow)


def playing(r: Replay) -> bool:
    return r.playing


def due(r: Replay) -> float | None:
    return r.due


@pytest.fixture(scope="module")
def tape() -> Tape:
    return from_record(golden("standard-2"))


def test_forward_and_back_show_each_board_in_turn(tape: Tape) -> None:
    r = Replay(tape)
    assert r.at == 0 and shown(r) is None and r.pawns == tape.start and not r.back()
    assert r.forward() and shown(r) is tape.steps[0] and r.pawns == tape.steps[0].pawns
    assert r.before == tape.start
    assert r.forward() and r.before == tape.steps[0].pawns
    assert r.back() and r.at == 1
    assert r.to_end() and r.at_end and r.pawns == tape.steps[-1].pawns and not r.forward()
    assert r.shown() == tape.steps
    assert r.to_start() and r.shown() == () and not r.to_start()


def test_a_jump_to_a_turn_shows_the_board_after_it(tape: Tape) -> None:
    r = Replay(tape)
    assert r.to_turn(12) and r.step is not None and r.step.n == 12
    assert r.to_turn(0) and r.at == 0
    assert r.to_turn(tape.last_n()) and r.at_end
    assert not r.to_turn(tape.last_n() + 1) and r.at_end  # no such turn: stays
    assert not r.to_turn(-1)


def test_a_game_seen_from_part_way_jumps_to_the_last_turn_before(tape: Tape) -> None:
    late = Tape(tape.variant, tape.seated, tape.names, tape.bots, tape.steps[9].pawns,
                tape.steps[10:], whole=False)  # fmt: skip
    r = Replay(late)
    assert r.to_turn(5) and r.at == 0  # before what it saw: its start
    assert r.to_turn(11) and r.step is not None and r.step.n == 11


def test_next_and_previous_sorry_or_bump(tape: Tape) -> None:
    r = Replay(tape)
    marked = [k for k, s in enumerate(tape.steps, 1) if s.marked]
    assert len(marked) >= 2
    for k in marked:
        assert r.next_mark() and r.at == k and r.step is not None and r.step.marked
    assert not r.next_mark()
    r.to_end()
    for k in reversed(marked):
        if k < r.at:
            assert r.previous_mark() and r.at == k
    assert not r.previous_mark()


def test_playing_takes_a_step_each_interval_and_stops_at_the_end() -> None:
    tape = from_record(played(moves=6))
    r = Replay(tape)
    r.play(now=100.0)
    assert r.playing and due(r) == 100.0 + SPEEDS[r.speed]
    assert not r.tick(100.5) and r.at == 0  # not yet due
    assert r.tick(101.0) and r.at == 1 and due(r) == 102.0
    now = 102.0
    while playing(r):
        assert r.tick(now)
        now += r.interval
    assert r.at_end and due(r) is None and not r.tick(now + 100)


def test_pause_resume_and_play_again_from_the_start(tape: Tape) -> None:
    r = Replay(tape)
    r.toggle(0.0)
    assert playing(r)
    r.toggle(0.5)
    assert not playing(r) and not r.tick(10.0) and r.at == 0
    r.toggle(10.0)
    assert r.tick(11.0) and r.at == 1
    r.to_end()
    assert not r.playing  # the end stops it
    r.play(20.0)
    assert r.at == 0 and r.playing  # at the end, play starts again


def test_faster_and_slower_within_the_speeds(tape: Tape) -> None:
    r = Replay(tape, speed=0)
    assert not r.slower(0.0) and r.interval == SPEEDS[0]
    r.play(0.0)
    while r.faster(1.0):
        pass
    assert r.interval == SPEEDS[-1] == min(SPEEDS) and r.due == 1.0 + SPEEDS[-1]
    assert r.slower(1.0) and r.interval == SPEEDS[-2]


def test_moving_by_hand_while_playing_plays_on_from_there(tape: Tape) -> None:
    r = Replay(tape)
    r.play(0.0)
    r.to_turn(20, now=0.9)
    assert r.playing and r.due == 0.9 + r.interval
    assert not r.tick(1.0) and r.tick(1.9) and r.step is not None and r.step.n == 21


def test_an_empty_tape_does_not_play() -> None:
    empty = Tape(from_record(golden("standard-2")).variant, (0, 2), {}, frozenset(),
                 (START,) * 16, ())  # fmt: skip
    r = Replay(empty)
    r.play(0.0)
    assert not r.playing and r.at_end and not r.forward() and not r.to_turn(1)
