"""A client's board kept from the events it is told matches the host's, over whole games.

A client keeps its board by replaying each ``events`` message (SPEC section 3); this
plays many whole games of every variant and player count, as the host tells them to
each seat, and checks after every state that the replay (``apply_events``) equals the
host's layout, that the discard pile kept by ``apply_discards`` equals the one a fresh
``snapshot`` would carry (the seat's view it is built from), and that the client's own
check (``check_events``) finds nothing wrong.

The default run plays ``REPLAY_GAMES`` games per variant (a few hundred, to keep the
suite quick); set the environment variable ``SORRY_REPLAY_GAMES`` to play more (the
issue's bar is 2,000 per variant: ``SORRY_REPLAY_GAMES=2000 pytest
tests/wire/test_wire_apply.py -o timeout=0``).
"""

from __future__ import annotations

import os
import random

import pytest

from sorry_lan.authority import seat_messages
from sorry_lan.rules import START, Card, Game, Move, MoveKind, Part, Variant
from sorry_lan.rules.view import view_for
from sorry_lan.wire.apply import apply_discards, apply_events, check_events
from sorry_lan.wire.records import EventKind, EventTuple

REPLAY_GAMES = int(os.environ.get("SORRY_REPLAY_GAMES", "100"))

# Every player count each variant allows, and seatings that are not the first colours.
SEATINGS: dict[Variant, tuple[tuple[int, ...], ...]] = {
    Variant.STANDARD: ((0, 1), (1, 3), (0, 1, 2), (0, 2, 3), (0, 1, 2, 3)),
    Variant.TEAM: ((0, 1, 2, 3),),
    Variant.POINTS: ((0, 2), (2, 3), (0, 1, 3), (0, 1, 2, 3)),
}


def pick(rng: random.Random, moves: list[Move]) -> Move:
    """A random legal move, half the time among those that bump or slide (when there
    are any), so the awkward orders come up often."""
    if rng.random() < 0.5:
        busy = [mv for mv in moves if any(p.bumps or p.slid for p in mv.parts)]
        if busy:
            return rng.choice(busy)
    return rng.choice(moves)


def replay_game(variant: Variant, seated: tuple[int, ...], seed: int) -> int:
    """Play one game to its end; return how many ``events`` messages were checked."""
    game = Game(variant, seated, seed=seed)
    game.start()
    rng = random.Random(seed)
    seat = rng.choice((None, *seated))
    snap = seat_messages.snapshot(game, seat)
    board, discarded = snap.pawns, snap.discarded
    assert discarded is not None  # protocol version 2 tells the discard pile
    assert board == game.pawns
    checked = 0
    while not game.over:
        assert game.moves_played < 5000, "the game does not end"
        events = game.play(pick(rng, game.legal_moves()))
        messages = seat_messages.events_messages(game, events, seat)
        for msg in messages:
            problem = check_events(board, msg.events, variant)
            assert problem is None, f"seed {seed} sid {msg.sid}: {problem}"
            board = apply_events(board, msg.events)
            discarded = apply_discards(discarded, msg.events)
            assert msg.sid == game.state_id
            checked += 1
        assert board == game.pawns, f"seed {seed}, sid {game.state_id}: {messages}"
        assert discarded == view_for(game, seat).discard_counts, (
            f"seed {seed}, sid {game.state_id}: {messages}")
    return checked


@pytest.mark.parametrize("variant", list(Variant), ids=lambda v: v.value)
def test_replaying_every_events_message_gives_the_hosts_board(variant: Variant) -> None:
    seatings = SEATINGS[variant]
    checked = 0
    for n in range(REPLAY_GAMES):
        checked += replay_game(variant, seatings[n % len(seatings)], seed=n * 7919 + 1)
    assert checked > REPLAY_GAMES * 20


# -- the orders the issue saw go wrong, one move each -------------------------------------


def test_a_pawn_moved_by_a_seven_then_bumped_by_the_other_half_is_bumped() -> None:
    # 7: B4 10->12, B2 4->9, slides to 13, bumps B4
    part_a = Part(7, 10, 12, 12, ())
    part_b = Part(5, 4, 9, 13, (7,))
    move = Move(MoveKind.SPLIT, Card.SEVEN, (part_a, part_b), ((5, 4, 13), (7, 10, START)))
    before = [START] * 16
    before[7], before[5] = 10, 4
    events = seat_messages.move_events(move, 1)
    assert events[-1] == (EventKind.BUMP, 7, 12)
    assert apply_events(before, events) == move.result(before)


def test_a_swap_whose_slide_bumps_the_other_pawn_moves_both_before_the_slide() -> None:
    # R1 55 <-> G1 54, R1 slides to 58, bumps G1
    part_p = Part(0, 55, 54, 58, (12,))
    part_q = Part(12, 54, 55, 55, ())
    move = Move(MoveKind.SWAP, Card.ELEVEN, (part_p, part_q), ((0, 55, 58), (12, 54, START)))
    before = [START] * 16
    before[0], before[12] = 55, 54
    events = seat_messages.move_events(move, 0)
    assert events[1:] == [
        (EventKind.MOVE, 0, 55, 54),
        (EventKind.MOVE, 12, 54, 55),
        (EventKind.SLIDE, 0, 54, 58),
        (EventKind.BUMP, 12, 55),
    ]
    assert apply_events(before, events) == move.result(before)
    assert check_events(before, events, Variant.STANDARD) is None


def test_the_client_check_catches_a_missing_bump_and_a_bump_out_of_order() -> None:
    before = [START] * 16
    before[0], before[12] = 55, 54
    late = [
        (EventKind.PLAY, 0, 11),
        (EventKind.BUMP, 12, 54),
        (EventKind.MOVE, 0, 55, 54),
        (EventKind.MOVE, 12, 54, 55),
        (EventKind.SLIDE, 0, 54, 58),
    ]
    problem = check_events(before, late, Variant.STANDARD)
    assert problem is not None and "G1" in problem
    before = [START] * 16
    before[7], before[5] = 10, 4
    missing = [
        (EventKind.PLAY, 1, 7),
        (EventKind.MOVE, 7, 10, 12),
        (EventKind.MOVE, 5, 4, 9),
        (EventKind.SLIDE, 5, 9, 13),
    ]
    assert check_events(before, missing, Variant.STANDARD) is not None


def test_only_moves_slides_and_bumps_change_the_board() -> None:
    pawns = (START,) * 16
    quiet: list[EventTuple] = [
        (int(EventKind.PLAY), 0, 1),
        (int(EventKind.DISCARD), 0, 2),
        (int(EventKind.TURN_LOST), 0, 3),
        (int(EventKind.DRAW_AGAIN), 0),
        (int(EventKind.RESHUFFLE), 45),
    ]
    assert apply_events(pawns, quiet) == pawns
    told: list[EventTuple] = [
        (int(EventKind.MOVE), 0, START, 4),
        (int(EventKind.SLIDE), 0, 4, 8),
        (int(EventKind.MOVE), 5, START, 20),
        (int(EventKind.BUMP), 5, 20),
    ]
    after = apply_events(pawns, told)
    assert after[0] == 8 and after[5] == START
    assert after[1:5] == pawns[1:5] and after[6:] == pawns[6:]
    assert pawns == (START,) * 16  # the input is not changed
