"""Limits and errors people see: hello timeout, PIN, version, port in use, chat rate."""

from __future__ import annotations

import socket

import pytest
from netkit import LOCAL, RawClient, start_host

from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.commands.join import parse_address
from sorry_lan.net.client import GameClient, JoinError, JoinFailure
from sorry_lan.net.host import HostError, HostOptions, HostServer
from sorry_lan.wire import messages as m
from sorry_lan.wire.errors import ErrorReason


@pytest.mark.asyncio
async def test_a_connection_that_never_says_hello_is_dropped() -> None:
    server = await start_host(options=HostOptions(hello_timeout=0.2, sweep=0.05))
    raw = await RawClient.open(server.address[1])
    try:
        bye = await raw.expect(m.Bye, timeout=3)
        assert isinstance(bye, m.Bye) and bye.reason is m.ByeReason.TIMEOUT
    finally:
        await raw.close()
        await server.close()


@pytest.mark.asyncio
async def test_pin_right_and_wrong() -> None:
    server = await start_host(options=HostOptions(pin="1234"))
    port = server.address[1]
    try:
        with pytest.raises(JoinError) as e:
            await GameClient(LOCAL, port, "nopin").connect()
        assert e.value.reason is JoinFailure.PIN_NEEDED
        with pytest.raises(JoinError) as e:
            await GameClient(LOCAL, port, "wrong", pin="9999").connect()
        assert e.value.reason is m.RefuseReason.BAD_PIN and "wrong PIN" in e.value.text
        good = GameClient(LOCAL, port, "right", pin="1234")
        await good.connect()
        await good.close()
    finally:
        await server.close()


@pytest.mark.asyncio
async def test_wrong_version_full_unreachable_and_port_in_use() -> None:
    server = await start_host(seats=2)
    port = server.address[1]
    try:
        raw = await RawClient.open(port)
        raw.send(m.Hello(versions=(7,), software="other/9", name="old", token=None))
        refuse = await raw.expect(m.Refuse)
        assert isinstance(refuse, m.Refuse) and refuse.reason is m.RefuseReason.VERSION
        await raw.close()
        a, b = GameClient(LOCAL, port, "a"), GameClient(LOCAL, port, "b")
        await a.connect()
        await b.connect()
        with pytest.raises(JoinError) as e:
            await GameClient(LOCAL, port, "c").connect()
        assert e.value.reason in (m.RefuseReason.FULL, m.RefuseReason.STARTED)
        await a.close()
        await b.close()
        other = HostServer(Table(TableConfig()))
        with pytest.raises(HostError, match="already in use"):
            await other.start(LOCAL, port)
    finally:
        await server.close()
    with socket.socket() as s:
        s.bind((LOCAL, 0))
        dead = s.getsockname()[1]
    with pytest.raises(JoinError) as e:
        await GameClient(LOCAL, dead, "x", connect_timeout=2).connect()
    assert e.value.reason is JoinFailure.UNREACHABLE and "nobody is hosting" in e.value.text


@pytest.mark.asyncio
async def test_chat_is_relayed_and_rate_limited() -> None:
    server = await start_host(options=HostOptions(chat_burst=2, chat_rate=0.01))
    raw = await RawClient.open(server.address[1])
    try:
        assert isinstance(await raw.hello("talker"), m.Welcome)
        for i in range(3):
            raw.send(m.Chat(pid=None, text=f"hello {i}"))
        first = await raw.expect(m.Chat)
        assert isinstance(first, m.Chat) and first.text == "hello 0"
        err = await raw.expect(m.Error)
        assert isinstance(err, m.Error) and err.reason is ErrorReason.RATE_LIMITED
    finally:
        await raw.close()
        await server.close()


def test_parse_address() -> None:
    assert parse_address("10.0.0.2:5000") == ("10.0.0.2", 5000)
    assert parse_address("[::1]:7") == ("::1", 7)
    assert parse_address("box")[0] == "box"
