"""PIN proof, tokens and nonces."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from sorry_lan.wire.auth import (
    PIN_ITERATIONS,
    PIN_SALT,
    check_pin_proof,
    new_nonce,
    new_token,
    normalise_pin,
    pin_key,
    pin_proof,
    redact,
    tokens_equal,
)

H = bytes(range(16))
C = bytes(range(16, 32))


def test_pin_proof_matches_the_spec_formula() -> None:
    key = hashlib.pbkdf2_hmac("sha256", b"1234", PIN_SALT, PIN_ITERATIONS, 32)
    assert pin_key("1234") == key
    assert pin_proof("1234", H, C) == hmac.new(key, H + C, hashlib.sha256).digest()


def test_check_accepts_only_the_right_pin_and_nonces() -> None:
    mac = pin_proof("1234", H, C)
    key = pin_key("1234")
    assert check_pin_proof(key, H, C, mac)
    assert not check_pin_proof(pin_key("1235"), H, C, mac)
    assert not check_pin_proof(key, C, H, mac)
    assert not check_pin_proof(key, H, C, mac[:-1] + bytes([mac[-1] ^ 1]))


def test_pin_normalisation() -> None:
    assert normalise_pin("  1234\n") == b"1234"
    assert normalise_pin("e\u0301") == normalise_pin("\u00e9")  # NFC
    for bad in ("", "   ", "x" * 65):
        with pytest.raises(ValueError):
            normalise_pin(bad)


def test_nonce_size_is_enforced() -> None:
    with pytest.raises(ValueError):
        pin_proof("1234", H[:8], C)


def test_tokens() -> None:
    a, b = new_token(), new_token()
    assert len(a) == 16 and a != b
    assert len(new_nonce()) == 16
    assert tokens_equal(a, bytes(a)) and not tokens_equal(a, b)
    assert not tokens_equal(None, None) and not tokens_equal(a, None)
    assert redact(a) == "<token>" and a.hex() not in redact(a)
    assert new_token(lambda n: b"\x01" * n) == b"\x01" * 16
