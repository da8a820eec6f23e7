"""The simulator's shortcuts (``shortcuts``) change no evening: a chunk decoded once
gives every later decoder equal messages that are new objects, a chunk cut inside a
frame or refused is decoded every time, the replay check answers as the real one,
and a seed's trace is the same with the shortcuts off."""

from __future__ import annotations

import contextlib
import sys

import pytest

from sorry_lan.rules import START, Variant
from sorry_lan.wire import messages as m
from sorry_lan.wire.apply import check_events
from sorry_lan.wire.codec import DecodeError, Decoder, encode
from sorry_lan.wire.records import EventKind

from . import evening as evening_module
from . import shortcuts as sc
from .evening import run_evening
from .faults import CLASSES


def test_a_chunk_decoded_once_gives_new_equal_messages() -> None:
    chunk = encode(m.Ping(n=7)) + encode(m.Chat(pid=1, text="hi"))
    first, second = Decoder(), Decoder()
    with sc.shortcuts():
        assert Decoder.feed is sc._feed
        got = first.feed(chunk)
        again = second.feed(chunk)
    assert got == again == [m.Ping(n=7), m.Chat(pid=1, text="hi")]
    assert all(a is not b for a, b in zip(got, again, strict=True))
    assert first.frames == second.frames == 2
    assert Decoder.feed is sc._real_feed


def test_a_chunk_cut_inside_a_frame_or_refused_is_decoded_every_time() -> None:
    frame = encode(m.Pong(n=3))
    cut = encode(m.Ping(n=4)) + frame[:3]
    with sc.shortcuts():
        for _ in range(2):
            decoder = Decoder()
            assert decoder.feed(cut) == [m.Ping(n=4)]
            assert decoder.feed(frame[3:]) == [m.Pong(n=3)]
        bad = (3).to_bytes(4, "big") + b"\xc1\xc1\xc1"
        for _ in range(2):
            with pytest.raises(DecodeError):
                Decoder().feed(bad)
    assert not any(data in (cut, bad) for _, data in sc._decoded)


def test_the_replay_check_is_swapped_where_the_client_imports_it() -> None:
    def swapped() -> list[str]:
        return [name for name, module in list(sys.modules.items())
                if name.startswith("sorry_lan.client")
                and vars(module).get("check_events") is sc._check_events]  # fmt: skip

    with sc.shortcuts():
        assert swapped()
        pawns = (START,) * 16
        wrong = ((EventKind.MOVE, 0, 5, 9),)  # pawn 0 moved from a square it is not on
        for _ in range(2):
            assert sc._check_events(pawns, wrong, Variant.STANDARD) == check_events(
                pawns, wrong, Variant.STANDARD) is not None  # fmt: skip
            assert sc._check_events(pawns, (), Variant.STANDARD) is None
    assert not swapped()


def test_an_evening_is_the_same_with_the_shortcuts_off(monkeypatch: pytest.MonkeyPatch) -> None:
    every = list(CLASSES)
    on = run_evening(5, every)
    monkeypatch.setattr(evening_module, "shortcuts", contextlib.nullcontext)
    off = run_evening(5, every)
    assert on.takeovers and on.steps > 2000
    assert on.trace == off.trace and on.trace_digest == off.trace_digest
