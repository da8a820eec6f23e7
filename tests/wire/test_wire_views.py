"""Per-receiver views: the mover's hand goes to the mover alone."""

from __future__ import annotations

import pytest

from sorry_lan.rules.board import START, Colour
from sorry_lan.rules.cards import Card
from sorry_lan.wire.codec import encode
from sorry_lan.wire.errors import LocalProtocolError
from sorry_lan.wire.messages import Variant
from sorry_lan.wire.views import lobby_from, snapshot_for, turn_for

HANDS = {0: [1, 2, 3, 4, 5], 1: [7, 8, 10, 11, 12], 3: [13, 13, 1, 1, 2]}
PAWNS = [4, START, START, START] * 4


def _snap(receiver: int | None) -> bytes:
    return encode(
        snapshot_for(
            receiver, sid=9, variant=Variant.POINTS, colours=[0, 1, 3], pawns=PAWNS, turn=1,
            card=None, pile=20, discards=3, top=12, hands=HANDS, scores=[0, 5, 0, 0],
        )
    )


def test_snapshot_carries_only_the_receivers_hand() -> None:
    snap = snapshot_for(
        1, sid=9, variant=Variant.POINTS, colours=[0, 1, 3], pawns=PAWNS, turn=1,
        card=None, pile=20, discards=3, top=12, hands=HANDS, scores=[0, 5, 0, 0],
    )
    assert snap.you is Colour.BLUE and snap.hand == (7, 8, 10, 11, 12)
    spectator = snapshot_for(
        None, sid=9, variant=Variant.POINTS, colours=[0, 1, 3], pawns=PAWNS, turn=1,
        card=None, pile=20, discards=3, top=12, hands=HANDS,
    )
    assert spectator.you is None and spectator.hand is None


def test_turn_hand_only_to_the_mover() -> None:
    mover = turn_for(3, sid=2, colour=3, card=None, pile=20, hands=HANDS)
    other = turn_for(0, sid=2, colour=3, card=None, pile=20, hands=HANDS)
    watcher = turn_for(None, sid=2, colour=3, card=None, pile=20, hands=HANDS)
    assert mover.hand == (Card.SORRY, Card.SORRY, Card.ONE, Card.ONE, Card.TWO)
    assert other.hand is None and watcher.hand is None
    assert turn_for(0, sid=2, colour=0, card=7, pile=20).card is Card.SEVEN


def test_bytes_sent_to_one_seat_do_not_hold_anothers_hand() -> None:
    # Blue's hand is the only one holding a 10 (0x0a) after the hand marker 0x95.
    blue_hand = bytes([0x95, 7, 8, 10, 11, 12])
    assert blue_hand in _snap(1)
    for receiver in (0, 3, None):
        assert blue_hand not in _snap(receiver)


def test_bad_values_are_local_protocol_errors() -> None:
    with pytest.raises(LocalProtocolError):
        turn_for(0, sid=1, colour=5, card=None, pile=1)
    with pytest.raises(LocalProtocolError):
        turn_for(0, sid=1, colour=0, card=6, pile=1)
    with pytest.raises(LocalProtocolError):
        turn_for(0, sid=1, colour=0, card=None, pile=1, hands={0: [9]})


def test_lobby_from_rows() -> None:
    lobby = lobby_from(Variant.TEAM, 0, [(0, "Ann", 0, False, True, True),
                                         (1, "bot", None, True, False, True)], spectators=2)
    assert lobby.players[0].colour is Colour.RED and lobby.players[1].colour is None
    assert lobby.host == 0 and lobby.spectators == 2
