"""Protocol version 4's messages and records: bounds, decoding, the sessions' rules."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import msgpack
import pytest
from wire_samples import LAPTOPS, SEAT_RECORDS, SETTINGS, TABLE_ID

from sorry_lan.rules.board import Colour
from sorry_lan.rules.cards import Card
from sorry_lan.wire import limits as L
from sorry_lan.wire.auth import new_token
from sorry_lan.wire.codec import decode_frame_body, encode, to_wire
from sorry_lan.wire.errors import ErrorReason, LocalProtocolError, RemoteProtocolError
from sorry_lan.wire.messages import (
    Commit,
    Handover,
    Lobby,
    Message,
    Offer,
    Reveal,
    Snapshot,
    Succession,
)
from sorry_lan.wire.session import ClientSession, HostSession
from sorry_lan.wire.succession import ChatLine, Laptop, SeatRecord, is_ip_literal
from sorry_lan.wire.transitions import State
from sorry_lan.wire.trim import fit_succession
from sorry_lan.wire.vocab import MsgType

V4 = (MsgType.OFFER, MsgType.SUCCESSION, MsgType.COMMIT, MsgType.REVEAL, MsgType.HANDOVER)


def _bad() -> pytest.RaisesExc[LocalProtocolError]:
    return pytest.raises(LocalProtocolError, match="bad_value")


def _succession(**changes: Any) -> Succession:
    base = Succession(table=TABLE_ID, epoch=1, host=0, delay=15, order=LAPTOPS,
                      config=SETTINGS, seats=SEAT_RECORDS, chat=())
    return replace(base, **changes)


def _decode(wire: dict[str, object]) -> Message:
    return decode_frame_body(msgpack.packb(wire, use_bin_type=True))


def _pump(host: HostSession, client: ClientSession) -> tuple[list[Message], list[Message]]:
    got_host: list[Message] = []
    got_client: list[Message] = []
    for _ in range(20):
        to_host, to_client = client.data_to_send(), host.data_to_send()
        if not to_host and not to_client:
            return got_host, got_client
        got_host += host.receive_data(to_host)
        got_client += client.receive_data(to_client)
    raise AssertionError("sessions never went quiet")


def _settled(client_versions: tuple[int, ...], *, spectate: bool = False
             ) -> tuple[HostSession, ClientSession]:
    client = ClientSession("Bob", versions=client_versions, spectate=spectate)
    host = HostSession()
    client.join()
    _pump(host, client)
    host.welcome(None, None) if spectate else host.welcome(1, new_token())
    _pump(host, client)
    return host, client


@pytest.mark.parametrize(
    "text", ["192.168.1.23", "10.0.0.1", "fd00::28", "fe80::1", "::ffff:192.0.2.1"]
)
def test_ip_literals_are_addresses(text: str) -> None:
    assert is_ip_literal(text)
    assert Offer(port=47475, addrs=(text,)).addrs == (text,)


@pytest.mark.parametrize(
    "text", ["fe80::1%eth0", "laptop.local", "192.168.1", "256.1.1.1", "", "1.2.3.4 "]
)
def test_anything_else_is_not(text: str) -> None:
    assert not is_ip_literal(text)
    with _bad():
        Offer(port=47475, addrs=(text,))


def test_offer_bounds() -> None:
    with _bad():
        Offer(port=0, addrs=("10.0.0.1",))
    with _bad():
        Offer(port=47475, addrs=())  # a laptop reachable nowhere offers nothing
    with _bad():
        Offer(port=47475, addrs=("10.0.0.1", "10.0.0.1"))
    many = tuple(f"10.0.0.{i}" for i in range(L.ADDRS_MAX + 1))
    with _bad():
        Offer(port=47475, addrs=many)
    assert len(Offer(port=47475, addrs=many[:-1]).addrs) == L.ADDRS_MAX


def test_a_seat_is_a_player_with_a_verifier_or_a_bot_with_a_level() -> None:
    verifier = bytes(32)
    assert not SeatRecord(pid=1, colour=Colour.BLUE, verifier=verifier, level=None).bot
    assert SeatRecord(pid=2, colour=Colour.YELLOW, verifier=None, level="greedy").bot
    with _bad():
        SeatRecord(pid=1, colour=None, verifier=verifier, level="greedy")
    with _bad():
        SeatRecord(pid=1, colour=None, verifier=None, level=None)
    with _bad():
        SeatRecord(pid=1, colour=None, verifier=bytes(16), level=None)
    bad = to_wire(_succession())
    bad["seats"][0][3] = "greedy"
    with pytest.raises(RemoteProtocolError, match="exactly one"):
        _decode(bad)


def test_seats_and_order_name_each_pid_and_colour_once() -> None:
    twice = (*SEAT_RECORDS, replace(SEAT_RECORDS[0], colour=None))
    with pytest.raises(LocalProtocolError, match="same pid"):
        _succession(seats=twice)
    same_colour = (SEAT_RECORDS[0], replace(SEAT_RECORDS[1], colour=Colour.RED))
    with pytest.raises(LocalProtocolError, match="same colour"):
        _succession(seats=same_colour)
    uncoloured = (replace(SEAT_RECORDS[0], colour=None), replace(SEAT_RECORDS[1], colour=None))
    assert len(_succession(seats=uncoloured).seats) == 2  # lobby players without a colour
    with pytest.raises(LocalProtocolError, match="same pid"):
        _succession(order=(LAPTOPS[0], LAPTOPS[0]))
    nine = tuple(Laptop(pid=i, addrs=("10.0.0.1",), port=47475) for i in range(L.ORDER_MAX + 1))
    with _bad():
        _succession(order=nine)


def test_succession_bounds() -> None:
    for changes in ({"table": "abc"}, {"table": "ABCD"}, {"table": "x" * 33},
                    {"epoch": 0}, {"delay": 0}, {"delay": L.TIMEOUT_MAX + 1}):
        with _bad():
            _succession(**changes)
    with _bad():
        replace(SETTINGS, grace_ms=-1)
    with _bad():
        replace(SETTINGS, turn_timeout_ms=0)  # nil is "no timer", not 0
    with _bad():
        replace(SETTINGS, pin_verifier=b"1234")  # the derived key, never the PIN
    with _bad():
        replace(SETTINGS, bot_level="no spaces")
    with _bad():
        _succession(chat=tuple(ChatLine(pid=1, text="hi") for _ in range(L.CHAT_KEPT_MAX + 1)))


def test_a_succession_survives_the_wire() -> None:
    message = _succession(chat=(ChatLine(pid=None, text="Ann's table"),
                                ChatLine(pid=3, text="ΓΕΙΑ")))
    assert _decode(to_wire(message)) == message
    assert decode_frame_body(encode(message)[L.HEADER_SIZE:]) == message


def test_commit_and_reveal_bounds() -> None:
    digests = (bytes(32), None, bytes(32), None)
    assert Commit(sid=4, digests=digests, salt=bytes(16)).digests == digests
    with _bad():
        Commit(sid=4, digests=digests[:3], salt=None)
    with _bad():
        Commit(sid=4, digests=(bytes(31), None, None, None), salt=None)
    with _bad():
        Commit(sid=4, digests=digests, salt=bytes(32))
    assert Reveal(hand=(13, 1), salt=bytes(16)).hand == (Card.SORRY, Card.ONE)  # type: ignore[arg-type]
    with _bad():
        Reveal(hand=(6,), salt=bytes(16))  # type: ignore[arg-type]
    with _bad():
        Reveal(hand=(Card.ONE,) * (L.HAND_MAX + 1), salt=bytes(16))


def test_a_long_chat_is_cut_to_fit_a_frame_oldest_lines_first() -> None:
    lines = tuple(ChatLine(pid=1, text=f"{i:03d}" + "🎲" * 197) for i in range(L.CHAT_KEPT_MAX))
    whole = _succession(chat=lines)
    with pytest.raises(LocalProtocolError, match="too_large"):
        encode(whole)
    kept, frame = fit_succession(whole)
    assert frame == encode(kept) and len(frame) - L.HEADER_SIZE <= L.MAX_FRAME
    assert 0 < len(kept.chat) < len(lines) and kept.chat == lines[-len(kept.chat):]
    one_more = replace(kept, chat=lines[-len(kept.chat) - 1:])
    with pytest.raises(LocalProtocolError, match="too_large"):
        encode(one_more)
    small = _succession(chat=lines[:3])
    assert fit_succession(small) == (small, encode(small))


def test_v4_settles_between_our_client_and_host() -> None:
    host, client = _settled(L.SUPPORTED_VERSIONS)
    assert host.version == client.version == 5
    assert all(client.speaks(t) and host.speaks(t) for t in V4)


def _samples() -> list[Message]:
    return [Offer(port=47475, addrs=("10.0.0.2",)), Reveal(hand=(Card.ONE,), salt=bytes(16))]


@pytest.mark.parametrize("old", [(1,), (1, 2), (1, 2, 3)])
def test_an_older_connection_never_sends_nor_accepts_them(old: tuple[int, ...]) -> None:
    host, client = _settled(old)
    assert not any(client.speaks(t) or host.speaks(t) for t in V4)
    for message in _samples():
        with pytest.raises(LocalProtocolError, match="needs protocol version 4"):
            client.send(message)
        assert host.receive_data(encode(message)) == []
        reply = msgpack.unpackb(host.data_to_send()[L.HEADER_SIZE:])
        assert (reply["t"], reply["reason"], reply["fatal"]) == ("error", "unexpected", False)
    for message in (_succession(), Handover(epoch=2, pid=3)):
        with pytest.raises(LocalProtocolError, match="needs protocol version 4"):
            host.send(message)
        assert client.receive_data(encode(message)) == []
    assert host.state is client.state is State.LOBBY


def test_a_player_offers_and_the_host_tells_the_succession() -> None:
    host, client = _settled(L.SUPPORTED_VERSIONS)
    offer = Offer(port=47475, addrs=("192.168.1.23",))
    client.send(offer)
    host.send(_succession())
    got_host, got_client = _pump(host, client)
    assert got_host == [offer] and got_client == [_succession()]


def test_a_spectator_is_told_the_succession_but_offers_and_reveals_nothing() -> None:
    host, client = _settled(L.SUPPORTED_VERSIONS, spectate=True)
    host.send(_succession())
    assert _pump(host, client)[1] == [_succession()]
    for message in _samples():
        with pytest.raises(LocalProtocolError, match="forbidden"):
            client.send(message)


def test_commit_only_while_playing_and_reveal_from_the_lobby_on() -> None:
    host, client = _settled(L.SUPPORTED_VERSIONS)
    commit = Commit(sid=3, digests=(bytes(32), bytes(32), None, None), salt=bytes(16))
    with pytest.raises(LocalProtocolError, match="unexpected"):
        host.send(commit)
    reveal = Reveal(hand=(Card.ONE, Card.SEVEN), salt=bytes(16))
    client.send(reveal)  # welcomed by a new host, before its snapshot
    assert _pump(host, client)[0] == [reveal]
    host.send(Snapshot.example())
    host.send(commit)
    assert _pump(host, client)[1][-1] == commit
    assert client.state is State.PLAYING


def test_handover_closes_the_connection() -> None:
    host, client = _settled(L.SUPPORTED_VERSIONS)
    host.send(Handover(epoch=2, pid=3))
    assert host.closed
    _, got = _pump(host, client)
    assert got == [Handover(epoch=2, pid=3)] and client.closed


def test_lobby_hints_are_left_out_unless_set() -> None:
    lobby = replace(Lobby.example(), hints=None)
    assert lobby.hints is None and "hints" not in to_wire(lobby)
    told = replace(lobby, hints=True)
    assert to_wire(told)["hints"] is True and _decode(to_wire(told)) == told
    with pytest.raises(RemoteProtocolError, match="bad_value"):
        _decode({**to_wire(lobby), "hints": 1})


def test_reveal_errors_name_what_broke() -> None:
    wire = to_wire(Reveal(hand=(Card.ONE,), salt=bytes(16)))
    with pytest.raises(RemoteProtocolError) as info:
        _decode({**wire, "salt": bytes(15)})
    assert info.value.reason is ErrorReason.BAD_VALUE and "reveal.salt" in info.value.text
