"""Hand commitments: the digest's exact bytes, salts, and checking a reveal."""

from __future__ import annotations

import hashlib

import pytest

from sorry_lan.rules.cards import Card
from sorry_lan.succession.commitment import hand_digest, hand_matches, new_salt
from sorry_lan.wire.commitment import pack_hand
from sorry_lan.wire.errors import LocalProtocolError

HAND = (Card.SORRY, Card.ONE, Card.SEVEN, Card.ELEVEN, Card.SEVEN)
SALT = bytes(range(16))


def test_the_hand_is_packed_sorted_as_a_msgpack_array_of_ints() -> None:
    # fixarray of 5, then positive fixints 1, 7, 7, 11, 13: the bytes SPEC section 13 gives
    assert pack_hand(HAND) == bytes([0x95, 1, 7, 7, 11, 13])
    assert pack_hand(()) == bytes([0x90])
    assert pack_hand([13, 1]) == pack_hand([1, 13])


def test_the_digest_is_sha256_of_salt_then_packed_hand() -> None:
    expected = hashlib.sha256(SALT + bytes([0x95, 1, 7, 7, 11, 13])).digest()
    assert hand_digest(SALT, HAND) == expected
    assert hand_digest(SALT, reversed(HAND)) == expected  # order does not matter
    assert hand_digest(new_salt(), HAND) != expected


def test_a_reveal_matches_only_its_own_hand_and_salt() -> None:
    digest = hand_digest(SALT, HAND)
    assert hand_matches(digest, SALT, list(reversed(HAND)))
    assert not hand_matches(digest, SALT, HAND[:-1])  # a card kept back
    assert not hand_matches(digest, SALT, (*HAND[:-1], Card.SORRY))  # a card swapped
    assert not hand_matches(digest, bytes(16), HAND)  # another salt
    assert not hand_matches(None, SALT, HAND)  # nothing was committed
    assert not hand_matches(digest, SALT[:8], HAND)
    assert not hand_matches(digest, SALT, (6,))  # no card is 6


def test_salts_are_fresh_and_sixteen_bytes() -> None:
    salts = {new_salt() for _ in range(50)}
    assert len(salts) == 50 and all(len(s) == 16 for s in salts)
    assert new_salt(lambda n: b"\x01" * n) == b"\x01" * 16
    with pytest.raises(ValueError):
        new_salt(lambda n: b"\x01" * (n - 1))
    with pytest.raises(ValueError):
        hand_digest(b"short", HAND)
    with pytest.raises(LocalProtocolError):
        hand_digest(SALT, (Card.ONE,) * 9)
