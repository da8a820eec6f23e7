"""The frame codec: round trips, incremental feeding, limits, and its typed errors."""

from __future__ import annotations

import gc
import tracemalloc

import msgpack
import pytest
from wire_samples import SAMPLES

from sorry_lan.rules.board import Colour
from sorry_lan.rules.variants import Variant
from sorry_lan.wire import limits as L
from sorry_lan.wire import messages as m
from sorry_lan.wire.codec import (
    DecodeError,
    Decoder,
    decode_frame_body,
    encode,
    from_wire,
    to_wire,
)
from sorry_lan.wire.errors import ErrorReason, LocalProtocolError, RemoteProtocolError
from sorry_lan.wire.messages import Chat, LegalMoves, Message, Move, Ping
from sorry_lan.wire.records import MoveOption, PlayerInfo, for_version

ALL_FRAMES = b"".join(encode(m) for _, m in SAMPLES)
ALL_MESSAGES = [m for _, m in SAMPLES]


def _frame(obj: object) -> bytes:
    body: bytes = msgpack.packb(obj, use_bin_type=True)
    return len(body).to_bytes(4, "big") + body


@pytest.mark.parametrize(("name", "message"), SAMPLES, ids=[n for n, _ in SAMPLES])
def test_every_sample_round_trips(name: str, message: object) -> None:
    frame = encode(message)  # type: ignore[arg-type]
    assert int.from_bytes(frame[:4], "big") == len(frame) - 4
    assert decode_frame_body(frame[4:]) == message
    assert Decoder().feed(frame) == [message]


def test_type_key_comes_first_then_fields_in_order() -> None:
    wire = to_wire(Move(sid=5, id=2))
    assert list(wire) == ["t", "sid", "id"]
    assert encode(Move(sid=5, id=2))[4:] == msgpack.packb({"t": "move", "sid": 5, "id": 2})


def test_key_order_is_not_significant_when_decoding() -> None:
    assert Decoder().feed(_frame({"id": 2, "sid": 5, "t": "move"})) == [Move(sid=5, id=2)]


def test_non_minimal_msgpack_ints_are_accepted() -> None:
    body = b"\x83\xa1t\xa4move\xa3sid\xce\x00\x00\x00\x05\xa2id\xcd\x00\x02"
    assert Decoder().feed(len(body).to_bytes(4, "big") + body) == [Move(sid=5, id=2)]


def test_byte_at_a_time_gives_the_same_messages() -> None:
    decoder = Decoder()
    out = []
    for i in range(len(ALL_FRAMES)):
        out.extend(decoder.feed(ALL_FRAMES[i : i + 1]))
        assert decoder.buffered <= L.HEADER_SIZE + L.MAX_FRAME
    assert out == ALL_MESSAGES
    assert decoder.frames == len(ALL_MESSAGES)
    assert decoder.buffered == 0


def test_one_chunk_with_many_frames() -> None:
    assert Decoder().feed(ALL_FRAMES) == ALL_MESSAGES


def test_empty_feed_is_harmless() -> None:
    decoder = Decoder()
    assert decoder.feed(b"") == []
    assert decoder.feed(encode(Ping(n=1))[:3]) == []
    assert decoder.buffered == 3


def test_oversized_length_is_refused_before_the_body() -> None:
    decoder = Decoder()
    with pytest.raises(RemoteProtocolError) as info:
        decoder.feed((L.MAX_FRAME + 1).to_bytes(4, "big"))
    assert info.value.reason is ErrorReason.TOO_LARGE
    assert decoder.buffered == 0


def test_largest_allowed_frame_is_accepted_as_a_frame() -> None:
    # A body of exactly MAX_FRAME bytes passes framing (and then fails as msgpack).
    decoder = Decoder()
    assert decoder.feed(L.MAX_FRAME.to_bytes(4, "big") + b"\x00" * (L.MAX_FRAME - 1)) == []
    assert decoder.buffered == L.MAX_FRAME - 1
    with pytest.raises(RemoteProtocolError) as info:
        decoder.feed(b"\x00")
    assert info.value.reason is ErrorReason.MALFORMED


def test_dead_decoder_keeps_failing() -> None:
    decoder = Decoder()
    with pytest.raises(RemoteProtocolError):
        decoder.feed(_frame([1]))
    assert decoder.error is not None
    with pytest.raises(RemoteProtocolError, match="earlier error"):
        decoder.feed(encode(Ping(n=1)))


def test_messages_before_a_bad_frame_are_kept_on_the_error() -> None:
    good = encode(Ping(n=1)) + encode(Chat(pid=None, text="hi"))
    with pytest.raises(DecodeError) as info:
        Decoder().feed(good + _frame({"t": "nope"}) + encode(Ping(n=2)))
    assert info.value.messages == (Ping(n=1), Chat(pid=None, text="hi"))
    assert info.value.reason is ErrorReason.UNKNOWN_TYPE


@pytest.mark.parametrize(
    ("obj", "reason"),
    [
        ({"t": "ping"}, ErrorReason.MISSING_FIELD),
        ({"t": "ping", "n": 1, "m": 2}, ErrorReason.EXTRA_FIELD),
        ({"t": 3, "n": 1}, ErrorReason.BAD_VALUE),
        ({"t": "ping", "n": 1.0}, ErrorReason.BAD_VALUE),
        ({"t": "ping", "n": 2**32}, ErrorReason.BAD_VALUE),
        ({"t": "ping", "n": None}, ErrorReason.BAD_VALUE),
        ({"t": "chat", "pid": None, "text": b"bytes"}, ErrorReason.BAD_VALUE),
        ({"t": "hello", "versions": [0], "software": "", "name": "a", "token": None},
         ErrorReason.BAD_VALUE),
        ({"t": "hello", "versions": "1", "software": "", "name": "a", "token": None},
         ErrorReason.BAD_VALUE),
        ({"t": "hello", "versions": [9], "software": "", "name": "a", "token": None},
         ErrorReason.VERSION),
        ({"t": "proof", "cnonce": "x" * 16, "mac": b"\x00" * 32}, ErrorReason.BAD_VALUE),
        ({"t": "turn", "sid": 1, "colour": 0, "card": 1, "hand": [1] * 9, "pile": 1},
         ErrorReason.BAD_VALUE),
        ({"t": "events", "sid": 1, "colour": 0, "notation": "", "events": [[]]},
         ErrorReason.BAD_VALUE),
        ({"t": "events", "sid": 1, "colour": 0, "notation": "", "events": [[0, 1, 2]]},
         ErrorReason.BAD_VALUE),
    ],
)
def test_field_errors_carry_their_reason(obj: dict[str, object], reason: ErrorReason) -> None:
    with pytest.raises(RemoteProtocolError) as info:
        Decoder().feed(_frame(obj))
    assert info.value.reason is reason
    assert info.value.fatal


def test_msgpack_limits_apply_before_field_checks() -> None:
    for obj in (
        {"t": "chat", "pid": None, "text": "x" * (L.UNPACK_MAX_STR + 1)},
        {"t": "ping", "n": list(range(L.UNPACK_MAX_ARRAY + 1))},
        {"t": "ping", "n": b"\x00" * (L.UNPACK_MAX_BIN + 1)},
        {str(i): i for i in range(L.UNPACK_MAX_MAP + 1)},
        {"t": "ping", "n": msgpack.ExtType(1, b"x")},
    ):
        with pytest.raises(RemoteProtocolError) as info:
            Decoder().feed(_frame(obj))
        assert info.value.reason is ErrorReason.MALFORMED


def test_deep_nesting_is_a_typed_error() -> None:
    body = b"\x91" * 5000 + b"\x00"
    with pytest.raises(RemoteProtocolError) as info:
        Decoder().feed(len(body).to_bytes(4, "big") + body)
    assert info.value.reason is ErrorReason.MALFORMED


def test_from_wire_rejects_non_maps_and_non_text_keys() -> None:
    with pytest.raises(RemoteProtocolError):
        from_wire([1, 2])
    with pytest.raises(RemoteProtocolError) as info:
        Decoder().feed(_frame({b"t": "ping", "n": 1}))
    assert info.value.reason is ErrorReason.MISSING_FIELD


def test_encode_refuses_a_frame_over_the_limit() -> None:
    wide = "é" * L.NOTATION_MAX  # two UTF-8 bytes per character
    moves = tuple(MoveOption(i, wide, (0, 1, 0, 5)) for i in range(L.MOVES_MAX))
    with pytest.raises(LocalProtocolError) as info:
        encode(LegalMoves(sid=1, moves=moves, timeout=None))
    assert info.value.reason is ErrorReason.TOO_LARGE


def test_encode_refuses_non_messages() -> None:
    with pytest.raises(LocalProtocolError):
        encode({"t": "ping", "n": 1})  # type: ignore[arg-type]


def test_decoder_retains_nothing_between_frames() -> None:
    decoder = Decoder()
    decoder.feed(ALL_FRAMES)
    gc.collect()
    tracemalloc.start()
    try:
        for _ in range(50):
            decoder.feed(ALL_FRAMES)
            decoder.feed(encode(Ping(n=3))[:5])  # leave half a frame buffered
            decoder.feed(encode(Ping(n=3))[5:])
        gc.collect()  # also empties the interpreter's free lists
        current, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert decoder.frames == 51 * len(ALL_MESSAGES) + 50
    assert current < 16 * 1024


def test_a_flood_in_one_chunk_is_not_copied_whole() -> None:
    # A maximal frame of junk followed by megabytes more: the decoder reads one frame,
    # fails on it, and never holds more than that frame.
    flood = L.MAX_FRAME.to_bytes(4, "big") + bytes(8 * 1024 * 1024)
    decoder = Decoder()
    tracemalloc.start()
    try:
        with pytest.raises(RemoteProtocolError):
            decoder.feed(flood)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < len(flood) // 8
    assert decoder.buffered == 0


def _reference_frame(message: Message) -> bytes:
    """The frame built the plain way: every field through its spec's ``dump``."""
    body: bytes = msgpack.packb(to_wire(message), use_bin_type=True)
    return len(body).to_bytes(4, "big") + body


@pytest.mark.parametrize("name", [name for name, _ in SAMPLES])
def test_encode_gives_the_bytes_of_every_field_dumped_by_its_spec(name: str) -> None:
    message = dict(SAMPLES)[name]
    assert encode(message) == _reference_frame(message)


# -- the player record's version-2 tail (lang, program) -------------------------------

_V1_ITEMS = [3, "Ann", 0, False, True, True]


def _lobby_with(record: list[object]) -> bytes:
    body: bytes = msgpack.packb({"t": "lobby", "variant": "standard", "seats": 2, "host": None,
                          "players": [record], "spectators": 0})
    return len(body).to_bytes(4, "big") + body


def test_a_player_record_of_6_items_reads_as_no_language() -> None:
    [lobby] = Decoder().feed(_lobby_with(_V1_ITEMS))
    assert isinstance(lobby, m.Lobby)
    assert (lobby.players[0].lang, lobby.players[0].program) == (None, False)


@pytest.mark.parametrize(("lang", "program"), [("el", False), (None, True), ("pt-BR", True)])
def test_a_player_record_of_8_items_carries_lang_and_program(
    lang: str | None, program: bool
) -> None:
    [lobby] = Decoder().feed(_lobby_with([*_V1_ITEMS, lang, program]))
    assert isinstance(lobby, m.Lobby)
    player = lobby.players[0]
    assert (player.lang, player.program) == (lang, program)
    assert msgpack.unpackb(encode(lobby)[4:])["players"][0] == [*_V1_ITEMS, lang, program]


def test_a_record_without_lang_or_program_is_written_in_version_1_shape() -> None:
    player = PlayerInfo(3, "Ann", Colour.RED, False, True, True)
    lobby = m.Lobby(variant=Variant.STANDARD, seats=2, host=None, players=(player,), spectators=0)
    assert msgpack.unpackb(encode(lobby)[4:])["players"][0] == _V1_ITEMS
    assert to_wire(lobby)["players"][0] == _V1_ITEMS  # the slow path agrees


@pytest.mark.parametrize(
    "record",
    [
        [*_V1_ITEMS, "el"],  # 7 items
        [*_V1_ITEMS, "el", False, 1],  # 9 items
        [*_V1_ITEMS, "el", 1],  # program not a bool
        [*_V1_ITEMS, "e", False],  # lang too short
        [*_V1_ITEMS, "en_GB", False],  # not a language code
        [*_V1_ITEMS, "ελ", False],  # not ASCII
        [*_V1_ITEMS, "abcdefgh-abcdefgh", False],  # 17 characters
    ],
)
def test_a_bad_player_record_tail_is_bad_value(record: list[object]) -> None:
    with pytest.raises(RemoteProtocolError) as info:
        Decoder().feed(_lobby_with(record))
    assert info.value.reason is ErrorReason.BAD_VALUE


def test_a_version_1_connection_is_told_no_language() -> None:
    player = PlayerInfo(3, "Ann", Colour.RED, False, True, True, lang="cy", program=True)
    assert for_version(player, 2) is player
    old = for_version(player, 1)
    assert (old.lang, old.program, old.name, old.ready) == (None, False, "Ann", True)


@pytest.mark.parametrize("code", ["en", "cy", "qps", "pt-BR", "zh-Hant-TW", "tlh"])
def test_language_codes_of_bcp47_shape_are_accepted(code: str) -> None:
    assert m.Profile(lang=code, program=False).lang == code


@pytest.mark.parametrize("code", ["", "e", "en_GB", "en-", "-en", "e1", "en--GB", "en GB"])
def test_other_language_codes_are_refused(code: str) -> None:
    with pytest.raises(LocalProtocolError):
        m.Profile(lang=code, program=False)
