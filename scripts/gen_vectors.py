#!/usr/bin/env python3
"""Regenerate (or, with --check, verify) the protocol's golden vectors.

Writes ``protocol/vectors/messages.json`` (every sample message: its wire map as JSON
beside the exact frame bytes in hex) and ``protocol/vectors/invalid.json`` (frames a
receiver must reject, with the error reason it must report), ``protocol/vectors/accepted.json``
(frames our encoder never writes that a receiver must accept),
``protocol/vectors/commitments.json`` (version 4's seat verifiers and hand digests), and
refills the ``generated`` blocks of ``protocol/SPEC.md`` (the state table, each
message's fields).
``--check`` writes nothing and exits 1 when the committed files differ from what the
code produces.

Run from anywhere: ``python scripts/gen_vectors.py [--check]``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "wire"))  # the sample messages are test data

import msgpack  # noqa: E402
from wire_samples import DEAL, PIN, SAMPLES, SEAT_TOKENS  # noqa: E402

from sorry_lan.authority.admission import PinThrottle  # noqa: E402
from sorry_lan.authority.table import TableConfig  # noqa: E402
from sorry_lan.net.client import ClientOptions  # noqa: E402
from sorry_lan.net.host import HostOptions  # noqa: E402
from sorry_lan.rules.board import Colour  # noqa: E402
from sorry_lan.succession.commitment import hand_digest  # noqa: E402
from sorry_lan.wire import limits as L  # noqa: E402
from sorry_lan.wire.codec import Decoder, encode, to_wire  # noqa: E402
from sorry_lan.wire.commitment import pack_hand  # noqa: E402
from sorry_lan.wire.errors import ErrorReason  # noqa: E402
from sorry_lan.wire.messages import MESSAGE_TYPES, Message  # noqa: E402
from sorry_lan.wire.transitions import render_transitions  # noqa: E402
from sorry_lan.wire.vocab import MsgType  # noqa: E402

VECTOR_DIR = ROOT / "protocol" / "vectors"
SPEC = ROOT / "protocol" / "SPEC.md"
_BLOCK = re.compile(r"(<!-- generated:([a-z_:]+) -->\n)(.*?)(<!-- /generated -->)", re.DOTALL)


def field_table(mtype: MsgType) -> str:
    """Markdown table of one message's fields, from the code's field specs."""
    cls = MESSAGE_TYPES[mtype]
    lines = ["| field | type and limits |", "| --- | --- |", f'| `t` | `"{mtype.value}"` |']
    lines += [f"| `{name}` | {spec.describe()} |" for name, spec in cls.FIELDS]
    return "\n".join(lines) + "\n"


def _secs(value: float) -> str:
    if value >= 3600 and value % 3600 == 0:
        return f"{value / 3600:g} h"
    if value >= 60 and value % 60 == 0:
        return f"{value / 60:g} min"
    return f"{value:g} s"


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}.get(n, f"{n}th")


def limits_table() -> str:
    """Markdown table of our host's (and client's) timers and limits, from their defaults."""
    host, table, pin = HostOptions(), TableConfig(), PinThrottle()
    client = ClientOptions()
    rows = [
        ("greeting", f"a connection not admitted (no `welcome` sent) {_secs(host.hello_timeout)} "
         "after it opened gets `bye` reason `timeout` and is closed"),
        ("heartbeat", f"the host sends `ping` to a welcomed connection it has heard nothing from "
         f"for {_secs(host.heartbeat)} (at most one every {_secs(host.heartbeat)})"),
        ("silence", f"a welcomed connection from which nothing at all has arrived for "
         f"{_secs(host.dead_after)} is closed without a word (a drop)"),
        ("our client", f"pings the host after {_secs(client.heartbeat)} of silence, tells "
         f"its player that the host is quiet when that ping is not answered within "
         f"{_secs(client.timings.pong_wait)} (with the seconds left until another laptop takes "
         f"over), and drops a connection silent for {_secs(client.dead_after)} (then "
         "reconnects to reclaim its seat)"),
        ("chat", f"{host.chat_burst} lines at once per connection, then one more every "
         f"{_secs(1 / host.chat_rate)}; beyond that `error` `rate_limited`"),
        ("grace", f"a seat whose owner is gone is kept {_secs(table.grace)} in the lobby; in a "
         f"game a bot plays it after {_secs(table.grace)}"),
        ("waiting", f"at most {host.max_waiting_per_address} connections not yet admitted from one "
         f"address, {host.max_waiting} in all"),
        ("spectators", f"at most {table.max_spectators}"),
        ("resync", f"{host.resync_burst} answered at once per connection, then one more every "
         f"{_secs(1 / host.resync_rate)}; beyond that `error` `rate_limited` (one per read) and "
         f"nothing read from the connection for {_secs(host.resync_pause)}; more than "
         f"{host.flood_limit} refused in one read: `bye` `kicked`"),
        ("wrong PINs, one address", f"after the {_ordinal(pin.free)} wrong PIN in a row the next "
         f"try waits {_secs(pin.first_wait)}, and each further wrong PIN doubles the wait, up to "
         f"{_secs(pin.max_wait)} (the first {pin.free} tries need no wait); forgotten after a "
         f"right PIN or {_secs(pin.forget_after)} without a wrong one"),
        ("wrong PINs, whole table",
         f"{pin.burst} at once, refilled at {pin.per_minute:g} a minute"),
    ]
    lines = ["| what | our host |", "| --- | --- |"]
    lines += [f"| {what} | {text} |" for what, text in rows]
    return "\n".join(lines) + "\n"


def render_spec(text: str) -> str:
    """``text`` with every generated block refilled from the code."""

    def fill(match: re.Match[str]) -> str:
        key = match.group(2)
        if key == "table":
            body = render_transitions()
        elif key == "limits":
            body = limits_table()
        elif key.startswith("fields:"):
            body = field_table(MsgType(key.removeprefix("fields:")))
        else:
            raise SystemExit(f"SPEC.md: unknown generated block {key!r}")
        return match.group(1) + body + match.group(4)

    return _BLOCK.sub(fill, text)


def json_value(value: Any) -> Any:
    """Wire data as JSON: bytes become ``{"bin": "<hex>"}``, the rest is unchanged."""
    if isinstance(value, bytes):
        return {"bin": value.hex()}
    if isinstance(value, list | tuple):
        return [json_value(v) for v in value]
    if isinstance(value, dict):
        return {k: json_value(v) for k, v in value.items()}
    return value


def _frame(body: bytes) -> str:
    return (len(body).to_bytes(L.HEADER_SIZE, "big") + body).hex()


def _pack(obj: Any) -> bytes:
    data: bytes = msgpack.packb(obj, use_bin_type=True)
    return data


def _succession() -> Message:
    return next(m for name, m in SAMPLES if name == "succession")


def _succession_with_seat(seat: list[Any]) -> dict[str, Any]:
    wire = to_wire(_succession())
    return {**wire, "seats": [seat]}


def invalid_vectors() -> list[dict[str, str]]:
    """Frames that must be rejected, each with its reason code and why."""
    hello = to_wire(SAMPLES[0][1])
    move = {"t": "move", "sid": 18, "id": 1}
    cases: list[tuple[str, str, ErrorReason, str]] = [
        ("empty_frame", (0).to_bytes(4, "big").hex(), ErrorReason.MALFORMED,
         "a length of zero"),
        ("too_large", (L.MAX_FRAME + 1).to_bytes(4, "big").hex(), ErrorReason.TOO_LARGE,
         "a length over the maximum is refused before any body byte arrives"),
        ("not_msgpack", _frame(b"\xc1"), ErrorReason.MALFORMED, "0xc1 is never used"),
        ("not_a_map", _frame(_pack([1, 2, 3])), ErrorReason.MALFORMED, "an array"),
        ("trailing_bytes", _frame(_pack(move) + b"\x00"), ErrorReason.MALFORMED,
         "a second value after the map"),
        ("truncated_body", _frame(_pack(move)[:-1]), ErrorReason.MALFORMED,
         "the map ends after the frame"),
        ("missing_type", _frame(_pack({"sid": 1, "id": 1})), ErrorReason.MISSING_FIELD,
         "no 't'"),
        ("unknown_type", _frame(_pack({"t": "teleport"})), ErrorReason.UNKNOWN_TYPE,
         "no such message"),
        ("missing_field", _frame(_pack({"t": "move", "sid": 18})), ErrorReason.MISSING_FIELD,
         "move without id"),
        ("extra_field", _frame(_pack({**move, "x": 1})), ErrorReason.EXTRA_FIELD,
         "a field the message does not have"),
        ("wrong_type", _frame(_pack({**move, "id": "1"})), ErrorReason.BAD_VALUE,
         "text where an int belongs"),
        ("bool_is_not_int", _frame(_pack({**move, "id": True})), ErrorReason.BAD_VALUE,
         "booleans are not integers"),
        ("out_of_range", _frame(_pack({**move, "sid": -1})), ErrorReason.BAD_VALUE,
         "negative state id"),
        ("name_too_long", _frame(_pack({**hello, "name": "x" * (L.NAME_MAX + 1)})),
         ErrorReason.BAD_VALUE, "25 characters"),
        ("unprintable_chat", _frame(_pack({"t": "chat", "pid": None, "text": "a\x07"})),
         ErrorReason.BAD_VALUE, "a control character"),
        ("bad_compact_move", _frame(_pack({"t": "moves", "sid": 1, "timeout": None,
                                           "moves": [[0, "R1 4->5", [0, 6, 0, 5]]]})),
         ErrorReason.BAD_VALUE, "there is no 6 card"),
        ("ext_type", _frame(_pack({"t": "ping", "n": msgpack.ExtType(1, b"x")})),
         ErrorReason.MALFORMED, "msgpack ext types are never valid"),
        ("timestamp", _frame(_pack({"t": "ping", "n": msgpack.Timestamp(1, 0)})),
         ErrorReason.MALFORMED, "a timestamp is an ext type too"),
        ("str_over_limit",
         _frame(_pack({"t": "chat", "pid": None, "text": "x" * (L.UNPACK_MAX_STR + 1)})),
         ErrorReason.MALFORMED, "a str over 800 bytes is refused while unpacking"),
        ("bin_over_limit", _frame(_pack({**hello, "token": b"x" * (L.UNPACK_MAX_BIN + 1)})),
         ErrorReason.MALFORMED, "a bin over 49152 bytes is refused while unpacking"),
        ("array_over_limit",
         _frame(_pack({"t": "moves", "sid": 1, "timeout": None,
                       "moves": [0] * (L.UNPACK_MAX_ARRAY + 1)})),
         ErrorReason.MALFORMED, "an array over 512 items is refused while unpacking"),
        ("map_over_limit",
         _frame(_pack({"t": "ping", **{f"k{i}": 0 for i in range(L.UNPACK_MAX_MAP)}})),
         ErrorReason.MALFORMED, "a map over 32 keys is refused while unpacking"),
        ("key_not_text", _frame(_pack({"t": "ping", 1: 0})), ErrorReason.MALFORMED,
         "map keys are strings"),
        ("duplicate_key", _frame(b"\x83\xa1t\xa4ping\xa1n\x01\xa1n\x02"),
         ErrorReason.MALFORMED, "the key 'n' twice"),
        ("type_not_text", _frame(_pack({"t": 5})), ErrorReason.BAD_VALUE,
         "'t' holds an int"),
        ("sorry_as_a_step_move", _frame(_pack({"t": "moves", "sid": 1, "timeout": None,
                                               "moves": [[0, "R1 4->17", [0, 13, 0, 17]]]})),
         ErrorReason.BAD_VALUE, "kind 0 takes any card but 13"),
        ("player_record_of_7", _frame(_pack({
            "t": "lobby", "variant": "standard", "seats": 2, "host": None, "spectators": 0,
            "players": [[0, "Ann", 0, False, True, True, "el"]]})),
         ErrorReason.BAD_VALUE, "a player record has 6 items, or 8 from version 2"),
        ("profile_lang_not_a_code", _frame(_pack({"t": "profile", "lang": "el_GR",
                                                  "program": False})),
         ErrorReason.BAD_VALUE, "a language code joins its subtags with '-'"),
        ("profile_lang_too_long", _frame(_pack({"t": "profile", "lang": "a" * 8 + "-bcdefghi",
                                                "program": False})),
         ErrorReason.BAD_VALUE, "a language code has at most 16 characters"),
        ("record_part_past_the_last", _frame(_pack({"t": "record", "game": 1, "part": 4,
                                                    "parts": 4, "data": b"x"})),
         ErrorReason.BAD_VALUE, "a record has at most 4 parts, numbered from 0"),
        ("record_data_empty", _frame(_pack({"t": "record", "game": 1, "part": 0,
                                            "parts": 1, "data": b""})),
         ErrorReason.BAD_VALUE, "a record's part carries 1 to 49152 bytes"),
        ("offer_addr_with_zone", _frame(_pack({"t": "offer", "port": 47475,
                                               "addrs": ["fe80::1%eth0"]})),
         ErrorReason.BAD_VALUE, "an address's zone names the sender's own interface"),
        ("offer_no_addrs", _frame(_pack({"t": "offer", "port": 47475, "addrs": []})),
         ErrorReason.BAD_VALUE, "a laptop offers 1 to 8 addresses"),
        ("commit_three_digests", _frame(_pack({"t": "commit", "sid": 4, "salt": None,
                                               "digests": [bytes(32)] * 3})),
         ErrorReason.BAD_VALUE, "commit.digests has one entry per colour: 4"),
        ("seat_with_verifier_and_level", _frame(_pack(_succession_with_seat(
            [1, 1, bytes(32), "greedy"]))),
         ErrorReason.BAD_VALUE, "a seat has a verifier (a player) or a level (a bot), not both"),
        ("succession_epoch_0", _frame(_pack({**to_wire(_succession()), "epoch": 0})),
         ErrorReason.BAD_VALUE, "epochs count from 1"),
        ("no_common_version", _frame(_pack({**hello, "versions": [99], "future": 1})),
         ErrorReason.VERSION,
         "a greeting is judged on its versions first; a host answers refuse 'version'"),
    ]
    return [
        {"name": name, "frame": frame, "reason": reason.value, "why": why}
        for name, frame, reason, why in cases
    ]


def accepted_vectors() -> list[dict[str, Any]]:
    """Frames our encoder never writes that a receiver must accept, each with the
    message it decodes to (as our encoder would write it) and why it is valid."""
    lobby = {"t": "lobby", "variant": "standard", "seats": 2, "host": None,
             "players": [[0, "Ann", 0, False, True, True, None, False]], "spectators": 0}
    cases: list[tuple[str, bytes, str]] = [
        ("fields_in_another_order", _pack({"id": 1, "sid": 18, "t": "move"}),
         "key order does not matter to a receiver"),
        ("ints_not_in_shortest_form",
         b"\x83\xa1t\xa4move\xa3sid\xce\x00\x00\x00\x12\xa2id\xcd\x00\x01",
         "18 as a uint32 and 1 as a uint16: any valid msgpack encoding is accepted"),
        ("str_as_str8", b"\x83\xa1t\xd9\x04move\xa3sid\x12\xa2id\x01",
         "a short string in the str8 form"),
        ("player_record_of_8_with_nothing_to_say", _pack(lobby),
         "an 8-item player record whose lang is nil and program false reads as the 6-item "
         "one: writing 6 items then is a rule for senders only (section 3)"),
        ("profile_lang_any_case", _pack({"t": "profile", "lang": "PT-br", "program": False}),
         "language codes are decoded as sent, in any case; a host keeps them in canonical "
         "case (pt-BR) and a receiver compares them without regard to case (section 3)"),
    ]
    out = []
    for name, body, why in cases:
        [message] = Decoder().feed(bytes.fromhex(_frame(body)))
        out.append({"name": name, "frame": _frame(body), "message": json_value(to_wire(message)),
                    "why": why})
    return out


def commitment_vectors() -> dict[str, Any]:
    """Version 4's hashes: each seat token's verifier, and each hand of the sample
    deal packed and committed to (the digests of the ``commit`` vectors)."""
    return {
        "protocol_version": 4,
        "about": (
            "Version 4 (SPEC section 13). 'verifiers': a seat token and its verifier "
            "sha256(token), as succession.seats lists it. 'hands': a hand (card ints in "
            "the order dealt), msgpack of its sorted card ints ('packed'), a salt, and "
            "digest = sha256(salt || packed), as commit.digests carries it."
        ),
        "verifiers": [
            {"pid": pid, "token": token.hex(), "verifier": hashlib.sha256(token).hexdigest()}
            for pid, token in SEAT_TOKENS.items()
        ],
        "hands": [
            {"colour": Colour(colour).name.lower(), "hand": [int(c) for c in hand],
             "packed": pack_hand(hand).hex(), "salt": salt.hex(),
             "digest": hand_digest(salt, hand).hex()}
            for colour, (salt, hand) in enumerate(DEAL)
        ],
    }


def samples() -> list[tuple[str, Message]]:
    """The hand-written samples, then, named after its type, the made-up example
    (``Message.example``) of each declared message that has none: a message just
    declared gets a vector without a sample written for it."""
    have = {message.TYPE for _, message in SAMPLES}
    made = [(cls.TYPE.value, cls.example()) for cls in MESSAGE_TYPES.values()]
    return [*SAMPLES, *((name, ex) for name, ex in made if ex.TYPE not in have)]


def build() -> dict[Path, str]:
    messages = {
        "protocol_version": L.PROTOCOL_VERSION,
        "about": (
            "One entry per example message: 'message' is the msgpack map as JSON "
            "(bin values shown as {\"bin\": hex}), 'frame' the exact bytes on the wire "
            "(4-byte big-endian length, then the map). The 'proof' example uses PIN "
            f"{PIN!r} with the nonces shown in 'challenge' and 'proof'."
        ),
        "vectors": [
            {
                "name": name,
                "type": message.TYPE.value,
                "message": json_value(to_wire(message)),
                "frame": encode(message).hex(),
            }
            for name, message in samples()
        ],
    }
    invalid = {
        "protocol_version": L.PROTOCOL_VERSION,
        "about": (
            "Frames a receiver must reject, with the error reason it reports. "
            "Each is sent alone on a fresh connection."
        ),
        "vectors": invalid_vectors(),
    }

    accepted = {
        "protocol_version": L.PROTOCOL_VERSION,
        "about": (
            "Frames a receiver must accept although our encoder never writes them this way, "
            "each with the message it decodes to (written as in messages.json). "
            "Each is sent alone on a fresh connection."
        ),
        "vectors": accepted_vectors(),
    }

    def dump(obj: object) -> str:
        return json.dumps(obj, indent=2, ensure_ascii=False) + "\n"

    return {
        VECTOR_DIR / "messages.json": dump(messages),
        VECTOR_DIR / "invalid.json": dump(invalid),
        VECTOR_DIR / "accepted.json": dump(accepted),
        VECTOR_DIR / "commitments.json": dump(commitment_vectors()),
        SPEC: render_spec(SPEC.read_text(encoding="utf-8")),
    }


def stale_files(files: dict[Path, str]) -> list[Path]:
    """The files whose committed text differs from ``files`` (or that are missing)."""
    return [
        path
        for path, text in files.items()
        if not path.exists() or path.read_text(encoding="utf-8") != text
    ]


def _shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="verify, do not write")
    args = parser.parse_args(argv)
    files = build()
    if args.check:
        stale = stale_files(files)
        for path in stale:
            print(f"out of date: {_shown(path)}", file=sys.stderr)
        if stale:
            print("run: python scripts/gen_vectors.py", file=sys.stderr)
            return 1
        print(f"protocol vectors and spec up to date ({len(files)} files)")
        return 0
    VECTOR_DIR.mkdir(parents=True, exist_ok=True)
    for path, text in files.items():
        path.write_text(text, encoding="utf-8")
        print(f"wrote {_shown(path)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
