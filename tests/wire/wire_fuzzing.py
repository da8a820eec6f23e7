"""Hostile-input generators and the one check every input must pass.

``hostile_input(rng)`` makes one byte string from the sample frames: random bytes,
truncations, oversized or zero lengths, byte flips, splices, random msgpack values
and sample maps with one field replaced.  ``check_decoder(data, rng)`` feeds it to a
fresh :class:`Decoder` in random chunks and to a :class:`HostSession`, and returns a
description of what went wrong, or ``None`` when only typed errors appeared and the
buffers stayed bounded.  Used by ``scripts/fuzz_protocol.py`` and the tests; it does
not time anything (the caller does).
"""

from __future__ import annotations

import random
from typing import Any

import msgpack
from wire_samples import SAMPLES

from sorry_lan.wire import limits as L
from sorry_lan.wire.codec import Decoder, encode, to_wire
from sorry_lan.wire.errors import RemoteProtocolError
from sorry_lan.wire.messages import Message
from sorry_lan.wire.session import HostSession

SAMPLE_FRAMES: tuple[bytes, ...] = tuple(encode(m) for _, m in SAMPLES)
SAMPLE_MAPS: tuple[dict[str, Any], ...] = tuple(to_wire(m) for _, m in SAMPLES)


def _frame(body: bytes) -> bytes:
    return len(body).to_bytes(L.HEADER_SIZE, "big") + body


def random_value(rng: random.Random, depth: int = 0) -> Any:
    """A random msgpack-encodable value (bounded depth and size)."""
    kind = rng.randrange(10 if depth < 3 else 7)
    if kind == 0:
        return None
    if kind == 1:
        return rng.random() < 0.5
    if kind == 2:
        return rng.choice([0, 1, -1, 7, 13, 66, 67, 255, 256, 2**32 - 1, 2**32, -(2**63)])
    if kind == 3:
        return rng.randrange(-(2**63), 2**64)
    if kind == 4:
        return rng.random() * 1000
    if kind == 5:
        return "".join(chr(rng.randrange(0x20, 0x2FF)) for _ in range(rng.randrange(30)))
    if kind == 6:
        return rng.randbytes(rng.randrange(40))
    if kind in (7, 8):
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(6))]
    return {
        rng.choice(["t", "sid", "id", "name", "x", ""]): random_value(rng, depth + 1)
        for _ in range(rng.randrange(5))
    }


def hostile_input(rng: random.Random) -> bytes:
    """One hostile byte string (see module docstring for the kinds)."""
    frame = rng.choice(SAMPLE_FRAMES)
    kind = rng.randrange(9)
    if kind == 0:  # pure noise
        return rng.randbytes(rng.randrange(1, 200))
    if kind == 1:  # a truncated valid frame
        return frame[: rng.randrange(len(frame))]
    if kind == 2:  # a lying length prefix
        size = rng.choice([0, 1, L.MAX_FRAME, L.MAX_FRAME + 1, 2**32 - 1, rng.randrange(2**32)])
        return size.to_bytes(4, "big") + frame[4:]
    if kind == 3:  # flipped bytes in the body
        data = bytearray(frame)
        for _ in range(rng.randrange(1, 4)):
            i = rng.randrange(4, len(data))
            data[i] = rng.randrange(256)
        return bytes(data)
    if kind == 4:  # inserted or deleted bytes, length kept
        body = bytearray(frame[4:])
        i = rng.randrange(len(body))
        if rng.random() < 0.5:
            del body[i]
        else:
            body[i:i] = rng.randbytes(rng.randrange(1, 4))
        return _frame(bytes(body))
    if kind == 5:  # a random msgpack value in a frame
        return _frame(msgpack.packb(random_value(rng), use_bin_type=True))
    if kind == 6:  # a sample map with one field replaced, removed or added
        obj = dict(rng.choice(SAMPLE_MAPS))
        key = rng.choice(list(obj))
        action = rng.randrange(3)
        if action == 0:
            obj[key] = random_value(rng)
        elif action == 1:
            del obj[key]
        else:
            obj["x" + key] = random_value(rng)
        return _frame(msgpack.packb(obj, use_bin_type=True))
    if kind == 7:  # several valid frames then garbage
        return b"".join(rng.choices(SAMPLE_FRAMES, k=3)) + rng.randbytes(rng.randrange(1, 20))
    return b"".join(rng.choices(SAMPLE_FRAMES, k=rng.randrange(1, 6)))  # all valid


def _chunks(data: bytes, rng: random.Random) -> list[bytes]:
    out = []
    pos = 0
    while pos < len(data):
        step = rng.choice([1, 2, 3, 5, 64, len(data)])
        out.append(data[pos : pos + step])
        pos += step
    return out


def check_decoder(data: bytes, rng: random.Random) -> str | None:
    """Feed ``data`` (in random chunks) to a Decoder and a HostSession.

    Returns ``None`` when all went as the protocol promises, else a description.
    """
    return check_and_count(data, rng)[0]


def check_and_count(data: bytes, rng: random.Random) -> tuple[str | None, int]:
    """Like :func:`check_decoder`, also returning how many frames the decoder judged."""
    problem = _check(data, rng)
    decoder = Decoder()
    try:
        decoder.feed(data)
    except RemoteProtocolError:
        return problem, decoder.frames + 1
    return problem, decoder.frames


def _check(data: bytes, rng: random.Random) -> str | None:
    decoder = Decoder()
    decoded: list[Message] = []
    try:
        for chunk in _chunks(data, rng):
            decoded += decoder.feed(chunk)
            if decoder.buffered > L.HEADER_SIZE + L.MAX_FRAME:
                return f"decoder buffered {decoder.buffered} bytes"
    except RemoteProtocolError:
        pass
    except Exception as exc:  # the point of fuzzing: anything untyped is a failure
        return f"decoder raised {type(exc).__name__}: {exc}"
    for message in decoded:
        try:
            again = Decoder().feed(encode(message))
        except Exception as exc:
            return f"re-encoding {message!r} failed: {type(exc).__name__}: {exc}"
        if again != [message]:
            return f"round trip changed {message!r}"
    host = HostSession()
    try:
        for chunk in _chunks(data, rng):
            host.receive_data(chunk)
        host.data_to_send()
    except Exception as exc:
        return f"host session raised {type(exc).__name__}: {exc}"
    return None
