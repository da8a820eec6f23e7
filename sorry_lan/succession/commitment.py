"""Hand commitments: how a host commits to a hand, and how a new host checks a reveal.

``digest = sha256(salt || msgpack(sorted card ints))`` with a fresh 16-byte ``salt``
per seat per deal (:func:`new_salt`, :func:`hand_digest`): every player is sent every
seat's digest, but only its own salt, so a digest tells nobody a hand (the salt makes
it unguessable even though a hand has few possible values), and a player who reveals
a hand and salt to a new host cannot claim cards it was not dealt
(:func:`hand_matches`).  The canonical packing of the hand is
:func:`sorry_lan.wire.commitment.pack_hand`.

It deals nothing and keeps no hands: which digest belongs to which seat is the host's
(``authority``) and the client's (``client``) business.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable, Iterable

from sorry_lan.wire.commitment import pack_hand
from sorry_lan.wire.errors import LocalProtocolError
from sorry_lan.wire.limits import DIGEST_SIZE, SALT_SIZE


def new_salt(random_bytes: Callable[[int], bytes] = secrets.token_bytes) -> bytes:
    """A fresh salt for one seat's hand in one deal (16 random bytes)."""
    salt = random_bytes(SALT_SIZE)
    if len(salt) != SALT_SIZE:
        raise ValueError(f"a salt is {SALT_SIZE} bytes, not {len(salt)}")
    return salt


def hand_digest(salt: bytes, hand: Iterable[int]) -> bytes:
    """``sha256(salt || msgpack(sorted card ints of hand))``: 32 bytes.  The order of
    ``hand`` does not matter; raises ``ValueError`` for a salt of the wrong size and
    ``LocalProtocolError`` for a hand that is not one."""
    if len(salt) != SALT_SIZE:
        raise ValueError(f"a salt is {SALT_SIZE} bytes, not {len(salt)}")
    return hashlib.sha256(salt + pack_hand(hand)).digest()


def hand_matches(digest: bytes | None, salt: bytes, hand: Iterable[int]) -> bool:
    """Whether ``hand`` with ``salt`` is what ``digest`` committed to (constant time);
    never for a missing digest, a salt of the wrong size or a hand that is not one."""
    if digest is None or len(digest) != DIGEST_SIZE or len(salt) != SALT_SIZE:
        return False
    try:
        mine = hand_digest(salt, hand)
    except LocalProtocolError:
        return False
    return hmac.compare_digest(mine, digest)
