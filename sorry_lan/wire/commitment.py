"""The bytes a hand commitment hashes (protocol version 4, SPEC section 13).

A host commits to each seat's hand with ``sha256(salt || pack_hand(hand))``;
:func:`pack_hand` is the canonical part: the msgpack array of the hand's card ints,
sorted ascending, each in its shortest form (cards are 1..13: one byte each), so
every implementation hashes the same bytes for the same hand in any order.  The
hashing, the salts and the checking are :mod:`sorry_lan.succession.commitment`'s;
this module only packs (msgpack is the wire layer's alone).
"""

from __future__ import annotations

from collections.abc import Iterable

import msgpack

from sorry_lan.wire.vocab import HAND


def pack_hand(hand: Iterable[int]) -> bytes:
    """The msgpack array of ``hand``'s card ints in ascending order (a card int is a
    ``rules.Card``: 1-5, 7, 8, 10-12 or 13).  Raises :class:`LocalProtocolError` for
    anything else, or more than :data:`~sorry_lan.wire.limits.HAND_MAX` cards."""
    cards = HAND.check(tuple(hand), "hand")  # at most L.HAND_MAX cards
    data: bytes = msgpack.packb(sorted(int(c) for c in cards), use_bin_type=True)
    return data
