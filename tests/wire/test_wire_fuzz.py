"""Hostile input: only typed errors, bounded buffers, no hangs (hypothesis)."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgpack
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from wire_fuzzing import SAMPLE_FRAMES, SAMPLE_MAPS, check_decoder, hostile_input

from sorry_lan.wire import limits as L
from sorry_lan.wire.codec import Decoder, encode
from sorry_lan.wire.errors import RemoteProtocolError
from sorry_lan.wire.messages import Message
from sorry_lan.wire.session import ClientSession, HostSession

ROOT = Path(__file__).resolve().parents[2]
FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

msgpack_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.floats(allow_nan=False)
    | st.text(max_size=40)
    | st.binary(max_size=40),
    lambda inner: st.lists(inner, max_size=6)
    | st.dictionaries(st.sampled_from(["t", "sid", "id", "n", "name", "x"]), inner, max_size=6),
    max_leaves=20,
)


def _frame(obj: object) -> bytes:
    body: bytes = msgpack.packb(obj, use_bin_type=True)
    return len(body).to_bytes(4, "big") + body


def decode_all(data: bytes, cuts: list[int]) -> tuple[list[Message], RemoteProtocolError | None]:
    decoder = Decoder()
    out: list[Message] = []
    pos = 0
    try:
        for cut in [*sorted(c % (len(data) + 1) for c in cuts), len(data)]:
            out += decoder.feed(data[pos:cut] if cut >= pos else b"")
            pos = max(pos, cut)
            assert decoder.buffered <= L.HEADER_SIZE + L.MAX_FRAME
    except RemoteProtocolError as exc:
        return out, exc
    return out, None


@FAST
@given(st.binary(max_size=600), st.lists(st.integers(min_value=0), max_size=8))
def test_random_bytes_only_raise_typed_errors(data: bytes, cuts: list[int]) -> None:
    decode_all(data, cuts)


@FAST
@given(
    st.lists(st.sampled_from(SAMPLE_FRAMES), min_size=1, max_size=8),
    st.lists(st.integers(min_value=0), max_size=10),
)
def test_any_chunking_of_valid_frames_gives_the_same_messages(
    frames: list[bytes], cuts: list[int]
) -> None:
    whole = b"".join(frames)
    out, err = decode_all(whole, cuts)
    assert err is None
    assert [encode(m) for m in out] == frames


@FAST
@given(st.sampled_from(SAMPLE_FRAMES), st.data())
def test_truncated_frame_waits_without_error(frame: bytes, data: st.DataObject) -> None:
    cut = data.draw(st.integers(min_value=0, max_value=len(frame) - 1))
    decoder = Decoder()
    assert decoder.feed(frame[:cut]) == []
    # The 4 header bytes are consumed once complete; only body bytes stay buffered.
    assert decoder.buffered == (cut if cut < L.HEADER_SIZE else cut - L.HEADER_SIZE)


@FAST
@given(st.integers(min_value=L.MAX_FRAME + 1, max_value=2**32 - 1), st.binary(max_size=64))
def test_oversized_frames_are_refused_at_the_header(size: int, tail: bytes) -> None:
    _, err = decode_all(size.to_bytes(4, "big") + tail, [])
    assert err is not None and err.reason.value == "too_large"


@FAST
@given(msgpack_values)
def test_random_msgpack_values_decode_or_fail_typed(value: Any) -> None:
    out, err = decode_all(_frame(value), [])
    assert (err is None) == (len(out) == 1)
    for message in out:
        assert Decoder().feed(encode(message)) == [message]


@FAST
@given(st.sampled_from(SAMPLE_MAPS), st.data(), msgpack_values)
def test_sample_with_one_field_replaced(
    obj: dict[str, Any], data: st.DataObject, value: Any
) -> None:
    key = data.draw(st.sampled_from(sorted(obj)))
    mutated = {**obj, key: value}
    out, err = decode_all(_frame(mutated), [])
    if err is None:
        [message] = out
        assert Decoder().feed(encode(message)) == [message]


@FAST
@given(
    st.sampled_from(SAMPLE_FRAMES),
    st.lists(st.tuples(st.integers(0), st.integers(0, 255)), min_size=1, max_size=4),
)
def test_flipped_bytes_only_raise_typed_errors(frame: bytes, flips: list[tuple[int, int]]) -> None:
    data = bytearray(frame)
    for pos, value in flips:
        data[pos % len(data)] = value
    decode_all(bytes(data), [])


@FAST
@given(st.lists(st.sampled_from(SAMPLE_FRAMES) | st.binary(max_size=30), max_size=12))
def test_sessions_never_raise_on_received_data(chunks: list[bytes]) -> None:
    host = HostSession()
    client = ClientSession("Ann")
    client.join()
    for chunk in chunks:
        host.receive_data(chunk)
        client.receive_data(chunk)
    host.data_to_send()
    client.data_to_send()


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_fuzz_generator_finds_no_failure(seed: int) -> None:
    rng = random.Random(seed)
    assert check_decoder(hostile_input(rng), rng) is None


def test_fuzz_script_runs_and_reports() -> None:
    result = subprocess.run(
        [sys.executable, "scripts/fuzz_protocol.py", "--seconds", "1", "--seed", "3"],
        cwd=ROOT, capture_output=True, text=True, timeout=50, check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "frames/s" in result.stdout and "0 failures" in result.stdout
