"""The standby listener on loopback, driven by the election's standby machine: it
answers greetings (busy while it gathers votes, why not otherwise), reports each vote,
holds the greeting that made it host, and hands its listening socket and that
connection to a host that welcomes them on the same port."""

from __future__ import annotations

import asyncio
import hashlib
import socket

import pytest
from netkit import LOCAL, RawClient
from netns import has_ipv6_loopback

from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.net.host import HostError, HostOptions, HostServer
from sorry_lan.net.standby import IDLE_TEXT, StandbyListener
from sorry_lan.succession.standby import Standby
from sorry_lan.wire import messages as m
from sorry_lan.wire.codec import Decoder
from sorry_lan.wire.limits import SOFTWARE, SUPPORTED_VERSIONS
from sorry_lan.wire.vocab import RefuseReason

pytestmark = pytest.mark.asyncio

VOTING = tuple(sorted({*SUPPORTED_VERSIONS, 4}))  # a vote offers protocol version 4
TOKENS = {pid: bytes([pid]) * 16 for pid in (1, 2, 3, 4)}  # pid 1 is this laptop


def standby(laptops: tuple[int, ...] = (1, 2, 3)) -> Standby:
    seats = {pid: hashlib.sha256(TOKENS[pid]).digest() for pid in laptops}
    return Standby(me=1, laptops=laptops, seats=seats, delay=3.0)


def hello(token: bytes | None, name: str = "voter") -> m.Hello:
    return m.Hello(versions=VOTING, software=SOFTWARE, name=name, token=token)


async def _greet(port: int, token: bytes | None, spectate: bool = False) -> m.Message:
    client = await RawClient.open(port)
    try:
        if spectate:
            client.send(m.Spectate(versions=SUPPORTED_VERSIONS, software=SOFTWARE, name="x"))
            return await client.expect(m.Welcome, m.Refuse)
        client.send(hello(token))
        return await client.expect(m.Welcome, m.Refuse)
    finally:
        await client.close()


async def test_without_a_machine_every_greeting_is_refused_busy() -> None:
    async with StandbyListener(bind=LOCAL) as listener:
        assert listener.port > 0 and listener.listening
        answer = await _greet(listener.port, TOKENS[2])
        assert isinstance(answer, m.Refuse)
        assert (answer.reason, answer.text) == (RefuseReason.BUSY, IDLE_TEXT)
        spectator = await _greet(listener.port, None, spectate=True)
        assert isinstance(spectator, m.Refuse) and spectator.reason is RefuseReason.BUSY
        assert listener.greetings == 2 and not listener.hosting
    assert not listener.listening


async def test_votes_are_reported_and_the_deciding_hello_is_held_then_welcomed() -> None:
    votes: list[int] = []
    hosting: list[int] = []
    table = Table(TableConfig(seats=4))  # the new host's, with the seats' tokens
    seated = [table.join(None, name) for name in ("me", "bea", "carl", "dan")]
    tokens = {player.pid: token for player, token in seated}
    me = seated[0][0].pid
    machine = Standby(
        me=me, laptops=tuple(tokens), delay=3.0,
        seats={pid: hashlib.sha256(token).digest() for pid, token in tokens.items()},
    )  # four laptops: three votes host
    bea, carl = tokens[seated[1][0].pid], tokens[seated[2][0].pid]
    listener = StandbyListener(
        bind=LOCAL, on_vote=lambda: votes.append(1), on_host=lambda: hosting.append(1)
    )
    async with listener:
        listener.votes = machine
        first = await _greet(listener.port, bea)
        assert isinstance(first, m.Refuse)
        assert first.reason is RefuseReason.BUSY
        assert first.text.startswith("waiting for the table: ")
        stranger = await _greet(listener.port, b"\x09" * 16)
        assert isinstance(stranger, m.Refuse) and stranger.reason is RefuseReason.BAD_TOKEN
        assert votes == [1] and hosting == []
        deciding = await RawClient.open(listener.port)
        deciding.send(hello(carl, "carl"))
        for _ in range(100):
            if listener.hosting:
                break
            await asyncio.sleep(0.01)
        assert hosting == [1] and listener.held == 1
        sock = listener.take_socket()
        server = HostServer(table, HostOptions(heartbeat=0.5, dead_after=3.0))
        await server.start(sock=sock)
        try:
            assert listener.hand_to(server) == 1 and listener.held == 0
            welcome = await deciding.expect(m.Welcome, m.Refuse)
            assert isinstance(welcome, m.Welcome) and welcome.name == "carl"
            again = await _greet(listener.port, None, spectate=True)  # the new host's port
            assert isinstance(again, m.Welcome)
        finally:
            await deciding.close()
            await server.close()


async def test_garbage_is_answered_by_the_codec_and_asks_nothing() -> None:
    async with StandbyListener(bind=LOCAL) as listener:
        reader, writer = await asyncio.open_connection(LOCAL, listener.port)
        writer.write(b"\x00\x00\x00\x05hello")
        data = await asyncio.wait_for(reader.read(65536), 5)
        assert isinstance(Decoder().feed(data)[0], m.Error)
        assert await asyncio.wait_for(reader.read(65536), 5) == b""  # closed
        writer.close()
        assert listener.greetings == 0


async def test_a_connection_that_never_greets_is_closed() -> None:
    async with StandbyListener(bind=LOCAL, greet_within=0.2) as listener:
        reader, writer = await asyncio.open_connection(LOCAL, listener.port)
        assert await asyncio.wait_for(reader.read(65536), 5) == b""
        writer.close()


async def test_too_many_open_connections_are_refused_busy_at_once() -> None:
    async with StandbyListener(bind=LOCAL, max_open=1) as listener:
        quiet = await asyncio.open_connection(LOCAL, listener.port)
        reader, writer = await asyncio.open_connection(LOCAL, listener.port)
        answer = Decoder().feed(await asyncio.wait_for(reader.read(65536), 5))
        assert isinstance(answer[0], m.Refuse) and answer[0].reason is RefuseReason.BUSY
        writer.close()
        quiet[1].close()


async def test_a_port_in_use_is_a_host_error() -> None:
    with socket.socket() as taken:
        taken.bind((LOCAL, 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(HostError) as caught:
            await StandbyListener(bind=LOCAL, port=port).start()
    assert str(port) in str(caught.value)


async def test_connections_under_way_when_the_socket_is_taken_are_held_and_closing_frees_them(
) -> None:
    machine = standby((1, 2))
    async with StandbyListener(bind=LOCAL) as listener:
        listener.votes = machine
        refused = await _greet(listener.port, b"\x09" * 16)  # answered: never held
        assert isinstance(refused, m.Refuse)
        held = await RawClient.open(listener.port)
        held.send(hello(TOKENS[2]))  # two laptops: this vote hosts
        for _ in range(100):
            if listener.held:
                break
            await asyncio.sleep(0.01)
        reader, writer = await asyncio.open_connection(LOCAL, listener.port)
        await asyncio.sleep(0.05)  # accepted by the standby, no greeting yet
        sock = listener.take_socket()
        assert not listener.listening and listener.held == 2
        with pytest.raises(RuntimeError):
            listener.take_socket()
        sock.close()
    assert listener.held == 0  # closing the listener cut them
    assert await asyncio.wait_for(reader.read(65536), 5) == b""
    writer.close()
    with pytest.raises(EOFError):
        await held.expect(m.Welcome)
    await held.close()


def _free(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind((LOCAL, port))
        except OSError:
            return False
    return True


async def test_keep_next_holds_the_port_after_its_own_for_the_phones_page() -> None:
    """A laptop keeps its standby's port + 1 while it plays (nobody else may take it):
    the port its phones' page is served on if it hosts, where the phones look."""
    listener = StandbyListener(bind=LOCAL, keep_next=True)
    port = await listener.start()
    try:
        assert not _free(port + 1)  # kept: another program cannot bind it
        (kept,) = listener.take_next()  # (IPv4 only: the standby listens on no more)
        assert kept.getsockname()[1] == port + 1
        assert listener.take_next() == ()  # (given once)
        kept.listen(1)
        _reader, writer = await asyncio.open_connection(LOCAL, port + 1)  # it serves there
        writer.close()
        kept.close()
    finally:
        await listener.close()
    assert _free(port + 1)


async def test_a_standby_that_keeps_no_next_port_leaves_it_and_closing_frees_a_kept_one() -> None:
    plain = StandbyListener(bind=LOCAL)
    port = await plain.start()
    assert plain.take_next() == () and _free(port + 1)
    await plain.close()
    keeping = StandbyListener(bind=LOCAL, keep_next=True)
    port = await keeping.start()
    assert not _free(port + 1)
    await keeping.close()  # (never taken: closed with the listener)
    assert _free(port + 1)


def _free6(port: int) -> bool:
    with socket.socket(socket.AF_INET6) as probe:
        probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        try:
            probe.bind(("::1", port))
        except OSError:
            return False
    return True



@pytest.mark.skipif(not has_ipv6_loopback(), reason="no IPv6 loopback here")
async def test_a_standby_on_ipv6_too_keeps_the_next_port_on_ipv6_too() -> None:
    """Where the standby (the game's port once it hosts) listens on IPv6 as well, the
    page's port is kept for both families: the phones find the page on either."""
    listener = StandbyListener(bind=LOCAL, also=("::1",), keep_next=True)
    port = await listener.start()
    try:
        assert not _free(port + 1) and not _free6(port + 1)
        v4, v6 = listener.take_next()
        assert v4.getsockname()[:2] == (LOCAL, port + 1)
        assert v6.getsockname()[:2] == ("::1", port + 1)
        assert v6.getsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY) == 1
        for sock in (v4, v6):
            sock.close()
    finally:
        await listener.close()
    assert _free(port + 1) and _free6(port + 1)
    again = StandbyListener(bind=LOCAL, also=("::1",), keep_next=True)
    port = await again.start()
    await again.close()  # (never taken: both closed with the listener)
    assert _free(port + 1) and _free6(port + 1)
