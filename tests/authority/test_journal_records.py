"""Journal records as data: the same bytes the journal always wrote; the buffer."""

from __future__ import annotations

import json

from sorry_lan.authority import journal_records as jr
from sorry_lan.authority.journal_format import encode
from sorry_lan.rules import Game, Variant


def _reference(record: dict[str, object]) -> bytes:
    return json.dumps(record, separators=(",", ":"), sort_keys=True).encode()


def test_each_record_encodes_as_sorted_compact_json() -> None:
    game = Game(Variant.STANDARD, [0, 2], seed=9)
    records = [
        jr.game_record(game, {0: "ann", 2: "bob"}, [2], {0: "ab" * 32}, t=1234, owner=0,
                       first_arg=None, table="kitchen", host="ann"),
        jr.move_record(17, (3, 1, 0, 12)),
        jr.seat_record(2, "bob", None),
        jr.chat_record(0, "hi \u00e9"),
        jr.end_record(),
    ]
    for record in records:
        assert encode(record) == _reference(record)
    assert encode(jr.move_record(5, [])) == b'{"k":"move","m":[],"sid":5}'
    head = records[0]
    assert head["t"] == 1234 and head["sid0"] == game.first_sid and head["bots"] == [2]
    assert "table" not in jr.game_record(game, {}, [], {}, t=0)


def test_the_buffer_keeps_records_until_taken() -> None:
    buffer = jr.RecordBuffer(wall=lambda: 99.7)
    game = Game(Variant.STANDARD, [0, 1], seed=1)
    buffer.game(game, {0: "a", 1: "b"}, [], {})
    buffer.move(0, [1, 2])
    buffer.seat(1, "b", "cd")
    buffer.chat(0, "x")
    taken = buffer.take()
    assert [r["k"] for r in taken] == ["game", "move", "seat", "chat"]
    assert taken[0]["t"] == 99
    assert buffer.take() == []
