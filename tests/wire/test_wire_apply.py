"""A client's board kept from the events it is told matches the host's, over whole games."""

from __future__ import annotations

import random

import pytest

from sorry_lan.authority import seat_messages
from sorry_lan.rules import START, Game, Variant
from sorry_lan.wire.apply import apply_events
from sorry_lan.wire.records import EventKind, EventTuple

SEATINGS = {Variant.STANDARD: (0, 1, 2), Variant.TEAM: (0, 1, 2, 3), Variant.POINTS: (0, 2)}


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("seed", [3, 8, 21])
def test_told_events_keep_a_client_board_equal_to_the_engine(variant: Variant, seed: int) -> None:
    game = Game(variant, SEATINGS[variant], seed=seed)
    game.start()
    rng = random.Random(seed)
    client = seat_messages.snapshot(game, None).pawns
    while not game.over:
        events = game.play(rng.choice(game.legal_moves()))
        for msg in seat_messages.events_messages(game, events, None):
            client = apply_events(client, msg.events)
        assert client == game.pawns, f"after move {game.moves_played}"
    assert game.moves_played > 10


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
