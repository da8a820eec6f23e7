"""Secrets of the protocol: seat tokens, nonces and the PIN challenge-response.

The PIN never crosses the wire.  Both sides derive a key from it with PBKDF2
(:func:`pin_key`); the host sends a random nonce in ``challenge``; the client answers
with its own nonce and ``HMAC-SHA256(key, host_nonce + client_nonce)``
(:func:`pin_proof`); the host recomputes and compares in constant time
(:func:`check_pin_proof`).

What this does NOT do: protect a short PIN from someone who records one exchange and
then guesses offline (PBKDF2 only slows that down), authenticate the host to the
client, or encrypt anything.  It keeps strangers on the same network out of a table;
it is not a substitute for TLS.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import unicodedata
from collections.abc import Callable
from typing import Final

from sorry_lan.wire import limits as L

#: PBKDF2 parameters; part of the protocol (see protocol/SPEC.md, "PIN proof").
PIN_SALT: Final = b"sorry-lan pin v1"
PIN_ITERATIONS: Final = 20_000
PIN_MAX: Final = 64

RandomBytes = Callable[[int], bytes]


def normalise_pin(pin: str) -> bytes:
    """The bytes a PIN stands for: NFC-normalised, surrounding whitespace removed, UTF-8."""
    text = unicodedata.normalize("NFC", pin.strip())
    if not text:
        raise ValueError("a PIN cannot be empty")
    if len(text) > PIN_MAX:
        raise ValueError(f"a PIN has at most {PIN_MAX} characters")
    return text.encode("utf-8")


def pin_key(pin: str) -> bytes:
    """The 32-byte key both sides derive from the PIN (slow on purpose: compute once)."""
    return hashlib.pbkdf2_hmac("sha256", normalise_pin(pin), PIN_SALT, PIN_ITERATIONS)


def proof_from_key(key: bytes, host_nonce: bytes, client_nonce: bytes) -> bytes:
    """``HMAC-SHA256(key, host_nonce + client_nonce)``."""
    if len(host_nonce) != L.NONCE_SIZE or len(client_nonce) != L.NONCE_SIZE:
        raise ValueError(f"nonces are {L.NONCE_SIZE} bytes")
    return hmac.new(key, host_nonce + client_nonce, hashlib.sha256).digest()


def pin_proof(pin: str, host_nonce: bytes, client_nonce: bytes) -> bytes:
    """The ``mac`` a client sends in ``proof`` for this PIN and these nonces."""
    return proof_from_key(pin_key(pin), host_nonce, client_nonce)


def check_pin_proof(key: bytes, host_nonce: bytes, client_nonce: bytes, mac: bytes) -> bool:
    """True when ``mac`` proves knowledge of the PIN behind ``key`` (constant time)."""
    return hmac.compare_digest(proof_from_key(key, host_nonce, client_nonce), mac)


def new_token(random_bytes: RandomBytes = os.urandom) -> bytes:
    """A fresh secret seat token (16 random bytes)."""
    return random_bytes(L.TOKEN_SIZE)


def new_nonce(random_bytes: RandomBytes = os.urandom) -> bytes:
    """A fresh 16-byte nonce for ``challenge`` or ``proof``."""
    return random_bytes(L.NONCE_SIZE)


def tokens_equal(a: bytes | None, b: bytes | None) -> bool:
    """Constant-time token comparison; ``None`` never matches anything."""
    if a is None or b is None:
        return False
    return hmac.compare_digest(a, b)


def redact(token: bytes | None) -> str:
    """How to show a token in logs: never the token, only whether there is one."""
    return "<none>" if token is None else "<token>"
