"""The reason each refusal puts on the wire, seen by a raw client of a real host.

Seat refusals arrive as ``refuse``; requests refused in the lobby as non-fatal
``error`` messages, after which the connection still answers.  (The move refusals
are in ``test_authority.py``; every refusal's reason at the table itself is in
``tests/authority/test_authority_refusals.py``.)
"""

from __future__ import annotations

import asyncio

import pytest
from netkit import LOCAL, RawClient

from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.net.host import HostOptions, HostServer
from sorry_lan.rules.board import Colour
from sorry_lan.wire import messages as m
from sorry_lan.wire.errors import ErrorReason
from sorry_lan.wire.limits import PID_MAX, SOFTWARE, SUPPORTED_VERSIONS
from sorry_lan.wire.vocab import ByeReason, RefuseReason


async def lobby_host(
    seats: int = 4, options: HostOptions | None = None, **config: object
) -> tuple[HostServer, RawClient]:
    """A host whose owner (a raw client) is seated and welcomed; nothing starts alone."""
    table = Table(TableConfig(seats=seats, seed=7, **config))  # type: ignore[arg-type]
    owner, token = table.join(None, "owner")
    table.owner = owner.pid
    server = HostServer(table, options or HostOptions(heartbeat=0.5, dead_after=3.0))
    await server.start(LOCAL, 0)
    raw = await RawClient.open(server.address[1])
    welcome = await raw.hello("owner", token)
    assert isinstance(welcome, m.Welcome) and welcome.owner
    return server, raw


async def joined(server: HostServer, name: str) -> RawClient:
    raw = await RawClient.open(server.address[1])
    assert isinstance(await raw.hello(name), m.Welcome)
    return raw


async def refused_entry(server: HostServer, name: str, token: bytes | None = None) -> m.Refuse:
    raw = await RawClient.open(server.address[1])
    try:
        answer = await raw.hello(name, token)
        assert isinstance(answer, m.Refuse)
        return answer
    finally:
        await raw.close()


async def refused(client: RawClient, msg: m.Message) -> ErrorReason:
    """Send ``msg``; return the reason of the error it gets, once the connection has
    shown it is still open (it answers a ping)."""
    client.inbox.clear()
    client.send(msg)
    err = await client.expect(m.Error)
    assert isinstance(err, m.Error) and not err.fatal
    client.send(m.Ping(n=77))
    pong = await client.expect(m.Pong)
    assert isinstance(pong, m.Pong) and pong.n == 77
    return err.reason


@pytest.mark.asyncio
async def test_seat_refusals_reach_the_wire_as_refuse_reasons() -> None:
    server, owner = await lobby_host(seats=3, max_spectators=0)
    clients = [owner]
    try:
        clients.append(await joined(server, "guest"))
        assert (await refused_entry(server, "Guest")).reason is RefuseReason.NAME_TAKEN
        assert (await refused_entry(server, "x", bytes(16))).reason is RefuseReason.BAD_TOKEN
        watcher = await RawClient.open(server.address[1])
        watcher.send(m.Spectate(versions=SUPPORTED_VERSIONS, software=SOFTWARE, name="eve"))
        refusal = await watcher.expect(m.Refuse)
        assert isinstance(refusal, m.Refuse) and refusal.reason is RefuseReason.NO_SPECTATORS
        await watcher.close()
        clients.append(await joined(server, "third"))
        assert (await refused_entry(server, "fourth")).reason is RefuseReason.FULL
        owner.send(m.Start())
        await owner.expect(m.Snapshot)
        clients[1].send(m.Bye(reason=ByeReason.QUIT))  # a free colour, but a game on
        await asyncio.sleep(0.05)
        assert (await refused_entry(server, "late")).reason is RefuseReason.STARTED
    finally:
        for c in clients:
            await c.close()
        await server.close()


@pytest.mark.asyncio
async def test_lobby_refusals_reach_the_wire_as_non_fatal_errors() -> None:
    server, owner = await lobby_host(options=HostOptions(chat_burst=1, chat_rate=0.01))
    clients = [owner]
    try:
        assert await refused(owner, m.Start()) is ErrorReason.NOT_READY
        guest = await joined(server, "guest")
        clients.append(guest)
        assert await refused(guest, m.ChooseColour(colour=Colour.RED)) is (
            ErrorReason.COLOUR_TAKEN
        )
        level = m.AddBot(colour=None, level="wizard")
        assert await refused(owner, level) is ErrorReason.BAD_VALUE
        taken = m.AddBot(colour=Colour.BLUE, level="greedy")
        assert await refused(owner, taken) is ErrorReason.COLOUR_TAKEN
        guest_pid = server.table.player_of(max(server.conns))
        assert guest_pid is not None
        assert await refused(owner, m.RemoveBot(pid=guest_pid.pid)) is ErrorReason.BAD_VALUE
        for _ in range(2):
            owner.send(m.AddBot(colour=None, level="greedy"))
        while len(server.table.players) < 4:
            await owner.expect(m.Lobby)
        # The bug this fixes: a full table's refusal went out as the fatal bad_value.
        full = m.AddBot(colour=None, level="greedy")
        assert await refused(owner, full) is ErrorReason.COLOUR_TAKEN
        watcher = await RawClient.open(server.address[1])
        clients.append(watcher)
        watcher.send(m.Spectate(versions=SUPPORTED_VERSIONS, software=SOFTWARE, name="eve"))
        await watcher.expect(m.Welcome)
        assert await refused(watcher, m.Chat(pid=None, text="hi")) is ErrorReason.FORBIDDEN
        guest.send(m.Chat(pid=None, text="one"))
        assert await refused(guest, m.Chat(pid=None, text="two")) is ErrorReason.RATE_LIMITED
    finally:
        for c in clients:
            await c.close()
        await server.close()


@pytest.mark.asyncio
async def test_a_lobby_with_many_comings_and_goings_still_welcomes() -> None:
    server, owner = await lobby_host()
    server.table._next_pid = PID_MAX  # as after 254 players came and went
    clients = [owner]
    try:
        for expected in (PID_MAX, 1):  # 0 is the owner's
            raw = await RawClient.open(server.address[1])
            clients.append(raw)
            welcome = await raw.hello(f"p{expected}")
            assert isinstance(welcome, m.Welcome) and welcome.pid == expected
            await raw.expect(m.Lobby)
    finally:
        for c in clients:
            await c.close()
        await server.close()
