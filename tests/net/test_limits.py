"""Limits and errors over loopback: PIN and join errors a GameClient words, port in use,
short reads and pauses against a flood, a reader that never reads.  (The limits the
core decides, on a fake clock: tests/authority/test_core_limits.py.)"""

from __future__ import annotations

import asyncio
import contextlib
import socket

import pytest
from netkit import LOCAL, RawClient, start_host

from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.net.botrunner import BotStats, run_bot
from sorry_lan.net.client import ClientOptions, GameClient, JoinError, JoinFailure
from sorry_lan.net.connection import Connection
from sorry_lan.net.host import HostError, HostOptions, HostServer
from sorry_lan.wire import messages as m
from sorry_lan.wire.codec import Decoder, encode
from sorry_lan.wire.errors import ErrorReason
from sorry_lan.wire.limits import SOFTWARE, SUPPORTED_VERSIONS
from sorry_lan.wire.transitions import Role
from sorry_lan.wire.vocab import ByeReason, RefuseReason


@pytest.mark.asyncio
async def test_pin_right_and_wrong() -> None:
    server = await start_host(options=HostOptions(pin="1234"))
    port = server.address[1]
    try:
        with pytest.raises(JoinError) as e:
            await GameClient(LOCAL, port, "nopin").connect()
        assert e.value.reason is JoinFailure.PIN_NEEDED
        with pytest.raises(JoinError) as e:
            await GameClient(LOCAL, port, "wrong", ClientOptions(pin="9999")).connect()
        assert e.value.reason is RefuseReason.BAD_PIN and "wrong PIN" in e.value.text
        good = GameClient(LOCAL, port, "right", ClientOptions(pin="1234"))
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
        assert isinstance(refuse, m.Refuse) and refuse.reason is RefuseReason.VERSION
        await raw.close()
        a, b = GameClient(LOCAL, port, "a"), GameClient(LOCAL, port, "b")
        await a.connect()
        await b.connect()
        with pytest.raises(JoinError) as e:
            await GameClient(LOCAL, port, "c").connect()
        assert e.value.reason in (RefuseReason.FULL, RefuseReason.STARTED)
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
        await GameClient(LOCAL, dead, "x", ClientOptions(connect_timeout=2)).connect()
    assert e.value.reason is JoinFailure.UNREACHABLE and "nobody is hosting" in e.value.text


@pytest.mark.asyncio
async def test_a_flood_is_judged_after_about_a_kilobyte() -> None:
    """A flooder is kicked after the host decoded about a kilobyte of its flood (some
    70 requests), not 16 KiB (over a thousand, which held up every other connection
    for 25-35 ms)."""
    server = await start_host(options=HostOptions(resync_burst=1, resync_rate=0.01))
    fed: list[int] = []
    received = server.received

    def spy(conn: Connection, data: bytes) -> None:
        fed.append(len(data))
        received(conn, data)

    server.received = spy  # type: ignore[method-assign]
    watcher = await RawClient.open(server.address[1])
    try:
        watcher.send(m.Spectate(versions=SUPPORTED_VERSIONS, software=SOFTWARE, name="eve"))
        await watcher.expect(m.Welcome)
        await watcher.expect(m.Lobby)
        watcher.send(m.Resync())
        await watcher.expect(m.Lobby)
        watcher.send(m.Resync())
        error = await watcher.expect(m.Error)
        assert isinstance(error, m.Error) and error.reason is ErrorReason.RATE_LIMITED
        (conn,) = server.conns.values()
        assert conn.paused  # the shell carried out the core's PauseInput
        fed.clear()
        watcher.writer.write(encode(m.Resync()) * 5000)  # 70 KB at once
        bye = await watcher.expect(m.Bye, timeout=5)  # read after the pause
        assert bye == m.Bye(reason=ByeReason.KICKED)
        assert 0 < sum(fed) <= 2048
    finally:
        await watcher.close()
        await server.close()


@pytest.mark.asyncio
async def test_a_spectator_that_never_reads_is_dropped_and_the_game_goes_on() -> None:
    """It asks for resync after resync and reads nothing: the host's unsent output for
    it stays bounded, it gets a bye (timeout) after what it was sent, and the player
    plays on meanwhile."""
    options = HostOptions(
        max_unsent=64 * 1024, resync_burst=10**6, drop_linger=5.0, stay=True, dead_after=30
    )
    server = await start_host(seats=2, bots=1, bot_delay=0.001, options=options)
    port = server.address[1]
    loop = asyncio.get_running_loop()
    hog = socket.create_connection((LOCAL, port))
    hog.setblocking(False)
    ann = GameClient(LOCAL, port, "Ann")
    stats = BotStats()
    try:
        await ann.connect()
        hog.send(encode(m.Spectate(versions=SUPPORTED_VERSIONS, software=SOFTWARE, name="hog")))
        playing = asyncio.create_task(run_bot(ann, games=10**6, stats=stats))
        spectators: list[Connection] = []
        while not spectators:
            await asyncio.sleep(0.001)
            spectators = [
                server.conns[p.cid]
                for p in server.core.peers.values()
                if p.session.role is Role.SPECTATOR
            ]
        (conn,) = spectators
        moves_before = len(stats.round_trips)
        most = 0
        for _ in range(20000):
            if conn.closed:
                break
            most = max(most, conn.unsent)
            with contextlib.suppress(BlockingIOError):
                hog.send(encode(m.Resync()) * 20)
            await asyncio.sleep(0.001)
        assert conn.closed, "the slow reader was never dropped"
        assert most <= 64 * 1024 + 70_000  # the limit, plus at most one round of output
        assert len(stats.round_trips) > moves_before  # Ann played on meanwhile
        rest = bytearray()
        while data := await asyncio.wait_for(loop.sock_recv(hog, 65536), 5):
            rest += data
        frames = Decoder().feed(bytes(rest))
        assert frames[-1] == m.Bye(reason=ByeReason.TIMEOUT)
        assert not playing.done() and ann.connected
        playing.cancel()
    finally:
        hog.close()
        await ann.close()
        await server.close()
