"""A game record's bytes as ``record`` messages and back (``wire/record_parts``): parts
within the limits, put together in order, and refused (the parts so far dropped) when
out of order, not a zlib stream, cut short, or inflating past the limit."""

from __future__ import annotations

import os
import zlib

import pytest

from sorry_lan.wire import limits as L
from sorry_lan.wire.codec import Decoder, encode
from sorry_lan.wire.messages import RecordPart
from sorry_lan.wire.record_parts import RecordAssembler, RecordPartsError, record_parts


def _whole(parts: list[RecordPart]) -> bytes | None:
    assembler = RecordAssembler()
    got = [assembler.take(p) for p in parts]
    assert got[:-1] == [None] * (len(parts) - 1)
    return got[-1]


def test_a_record_goes_in_parts_within_the_frame_and_comes_back_whole() -> None:
    small = b'{"format": "sorry-lan game record"}'
    [one] = record_parts(3, small)
    assert (one.game, one.part, one.parts) == (3, 0, 1) and _whole([one]) == small
    noise = os.urandom(2 * L.RECORD_PART_MAX + 10)  # does not compress: three parts
    parts = record_parts(1, noise)
    assert [p.part for p in parts] == [0, 1, 2] and {p.parts for p in parts} == {3}
    for p in parts:
        frame = encode(p)
        assert len(frame) - 4 <= L.MAX_FRAME and Decoder().feed(frame) == [p]
    assert _whole(parts) == noise


def test_too_large_a_record_is_not_sent() -> None:
    with pytest.raises(RecordPartsError):
        record_parts(1, b" " * (L.RECORD_MAX + 1))
    with pytest.raises(RecordPartsError):
        record_parts(1, os.urandom(L.RECORD_PARTS_MAX * L.RECORD_PART_MAX + 1))


def _part(game: int, part: int, parts: int, data: bytes) -> RecordPart:
    return RecordPart(game=game, part=part, parts=parts, data=data)


def test_parts_out_of_order_are_dropped_and_the_next_record_still_comes() -> None:
    parts = record_parts(2, os.urandom(L.RECORD_PART_MAX + 5))
    assembler = RecordAssembler()
    with pytest.raises(RecordPartsError, match="out of order"):
        assembler.take(parts[1])
    assert assembler.take(parts[0]) is None
    with pytest.raises(RecordPartsError, match="out of order"):
        assembler.take(_part(3, 1, 2, parts[1].data))  # another game's part
    with pytest.raises(RecordPartsError):
        assembler.take(parts[1])  # the record was dropped
    [again] = record_parts(4, b"next")
    assert assembler.take(again) == b"next"


def test_a_stream_that_is_no_zlib_or_stops_short_or_inflates_too_far_is_refused() -> None:
    with pytest.raises(RecordPartsError, match="inflate"):
        RecordAssembler().take(_part(1, 0, 1, b"not zlib at all"))
    packed = zlib.compress(b"x" * 1000)
    with pytest.raises(RecordPartsError, match="short"):
        RecordAssembler().take(_part(1, 0, 1, packed[:-6]))
    bomb = zlib.compress(b"\0" * (L.RECORD_MAX + 1), 9)  # a few KiB that inflate past 4 MiB
    assert len(bomb) < L.RECORD_PART_MAX
    with pytest.raises(RecordPartsError, match="larger"):
        RecordAssembler().take(_part(1, 0, 1, bomb))
