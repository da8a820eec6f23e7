"""The journal's line format from bytes alone: framing, the checksum chain, scan, carry on."""

from __future__ import annotations

import json
import zlib
from typing import Any

from sorry_lan.authority.journal_format import carry_on, encode, frame, scan, split_checksum

#: A small game's records, as a host writes them (their meaning does not matter here).
RECORDS: list[dict[str, Any]] = [
    {
        "k": "game", "variant": "standard", "seated": [0, 2], "seed": 4, "first": 2,
        "first_arg": None, "names": {"0": "ann", "2": "bob"}, "bots": [],
        "tokens": {"0": "ab" * 32}, "owner": None, "sid0": 0, "t": 1764580000, "table": "t",
    },
    {"k": "move", "m": [0, 1, 4, 66], "sid": 1},
    {"k": "move", "m": [2, 1, 4, 51], "sid": 2},
    {"k": "seat", "colour": 2, "name": "bob", "token": "cd" * 32},
    {"k": "chat", "colour": 0, "text": "hi"},
    {"k": "move", "m": [0, 7, 4, 67], "sid": 3},
    {"k": "move", "m": [2, 10, 4, 52, 1, 3], "sid": 4},
    {"k": "move", "m": [0, 2], "sid": 5},
    {"k": "move", "m": [2, 12, 4, 55], "sid": 6},
    {"k": "end"},
]


def journal_bytes(records: list[dict[str, Any]], checksums: bool = True) -> bytes:
    """The bytes of a journal holding ``records`` (without checksums: an old one)."""
    chain: int | None = 0 if checksums else None
    out = bytearray()
    for record in records:
        line, chain = frame(encode(record), chain)
        out += line
    return bytes(out)


def line_of(data: bytes, index: int) -> int:
    """The 1-based line a byte belongs to (a line's newline is part of it)."""
    return data.count(b"\n", 0, index) + 1


def test_a_line_is_compact_json_a_tab_and_the_chained_crc() -> None:
    body = encode({"sid": 3, "k": "move", "m": [1, 2]})
    assert body == b'{"k":"move","m":[1,2],"sid":3}'
    first, chain = frame(body, 0)
    assert chain == zlib.crc32(body) and first == body + b"\t%08x\n" % chain
    second, after = frame(body, chain)
    assert after == zlib.crc32(body, chain) != chain and second != first
    assert frame(body, None) == (body + b"\n", None)  # an old journal stays one kind
    assert split_checksum(first[:-1]) == (body, chain)
    assert split_checksum(first[:-1].upper()) is None  # upper-case hex is a flipped bit
    assert split_checksum(body) is None


def test_every_single_bit_flip_is_detected_and_names_its_line() -> None:
    data = journal_bytes(RECORDS)
    whole = scan(data)
    assert whole.damage is None and not whole.torn and whole.records == RECORDS
    assert whole.valid_bytes == len(data) and whole.ends[-1] == len(data)
    missed = []
    for i in range(len(data)):
        for bit in range(8):
            flipped = bytearray(data)
            flipped[i] ^= 1 << bit
            found = scan(bytes(flipped))
            if found.damage is None:
                missed.append((i, bit))
                continue
            assert found.damage[0] == line_of(data, i), (i, bit, found.damage)
            assert found.records == whole.records[: found.damage[0] - 1]
    assert missed == [], f"{len(missed)} of {8 * len(data)} flips went unnoticed"


def test_damage_keeps_the_intact_lines_and_where_they_end() -> None:
    data = bytearray(journal_bytes(RECORDS))
    third = data.index(b"\n", data.index(b"\n") + 1) + 1
    data[third + 20] ^= 0x04
    found = scan(bytes(data))
    assert found.damage is not None and found.damage[0] == 3 and "checksum" in found.damage[1]
    assert found.records == RECORDS[:2] and found.valid_bytes == third
    assert found.ends == [data.index(b"\n") + 1, third]


def test_a_lost_or_swapped_line_breaks_the_chain() -> None:
    lines = journal_bytes(RECORDS).splitlines(keepends=True)
    lost = scan(b"".join(lines[:2] + lines[3:])).damage
    assert lost is not None and lost[0] == 3 and "checksum" in lost[1]
    swapped = scan(b"".join([*lines[:2], lines[3], lines[2], *lines[4:]])).damage
    assert swapped is not None and swapped[0] == 3
    spliced = scan(lines[0] + journal_bytes(RECORDS[1:2])).damage  # from another journal
    assert spliced is not None and spliced[0] == 2


def test_a_torn_last_line_is_not_damage_but_a_lost_line_end_is() -> None:
    data = journal_bytes(RECORDS)
    for cut in range(1, 12):
        torn = scan(data[:-cut])
        assert torn.damage is None and torn.torn and torn.records == RECORDS[:9]
        assert torn.valid_bytes == len(data) - len(data.splitlines(keepends=True)[-1])
    assert scan(data[:-1] + b"\x0b").damage == (10, "its line end is damaged")


def test_lines_that_are_not_records_are_damage() -> None:
    head = journal_bytes(RECORDS[:1])
    chain = split_checksum(head[:-1])
    assert chain is not None
    for body, problem in (
        (b"not json", "it is not valid JSON"),
        (b"[1, 2]", "it is not a journal record"),
        (b'{"k": 5}', "it is not a journal record"),
    ):
        line, _chain = frame(body, chain[1])
        assert scan(head + line).damage == (2, problem)
    assert scan(head + encode(RECORDS[1]) + b"\n").damage == (2, "it has no checksum")


def test_journals_written_before_checksums_still_scan() -> None:
    data = journal_bytes(RECORDS, checksums=False)
    assert b"\t" not in data
    found = scan(data)
    assert found.damage is None and not found.checksums and found.records == RECORDS
    torn = scan(data + b'{"k":"mo')
    assert torn.torn and torn.damage is None
    assert scan(data + encode(RECORDS[-1]) + b"\x0b").damage == (11, "its line end is damaged")
    assert scan(data + b"}\n").damage == (11, "it is not valid JSON")


def test_carry_on_cuts_a_half_line_and_gives_the_chain() -> None:
    data = journal_bytes(RECORDS)
    last = split_checksum(data.splitlines()[-1])
    assert last is not None
    assert carry_on(data, data, len(data)) == (len(data), last[1])
    assert carry_on(data, data + b'{"k":"mo', len(data) + 8) == (len(data), last[1])
    window = data[-40:]  # only the end of a long file is read
    assert carry_on(data[:300], window, len(data)) == (len(data), last[1])
    assert carry_on(b"", b"", 0) == (0, 0)
    assert carry_on(b'{"k":"ga', b'{"k":"ga', 8) == (0, 0)  # a torn first line
    old = journal_bytes(RECORDS, checksums=False)
    assert carry_on(old, old + b"{", len(old) + 1) == (len(old), None)
    # The next line, framed from what carry_on says, scans clean.
    line, _chain = frame(encode({"k": "end"}), last[1])
    assert scan(data + line).damage is None


def test_encode_is_the_json_the_standard_library_writes_sorted() -> None:
    for record in RECORDS:
        assert encode(record) == json.dumps(record, separators=(",", ":"), sort_keys=True).encode()
