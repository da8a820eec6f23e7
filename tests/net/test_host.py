"""HostServer over loopback: output waits for the journal, in order; probes; a bot failing
on the bot thread; ``async with`` and closing twice.  (What the host decides is tested
without sockets in tests/authority/test_core_*.py.)"""

from __future__ import annotations

import asyncio
import logging
import socket
import struct
from pathlib import Path

import pytest
from netkit import LOCAL, FailingJournal, RawClient, start_host

from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.net.botrunner import run_bot
from sorry_lan.net.client import GameClient
from sorry_lan.net.host import HostOptions, HostServer
from sorry_lan.net.journal import load
from sorry_lan.wire import messages as m
from sorry_lan.wire.limits import SOFTWARE, SUPPORTED_VERSIONS
from sorry_lan.wire.vocab import ByeReason


def _hello(name: str) -> m.Hello:
    return m.Hello(versions=SUPPORTED_VERSIONS, software=SOFTWARE, name=name, token=None)


async def _journalled_host(tmp_path: Path) -> tuple[HostServer, FailingJournal]:
    journal = FailingJournal(tmp_path / "g.journal")
    table = Table(TableConfig(seats=2, auto_start=True, seed=5), journal)
    table.add_bot(None)
    server = HostServer(table, HostOptions(heartbeat=0.5, dead_after=3.0))
    await server.start(LOCAL, 0)
    return server, journal


@pytest.mark.asyncio
async def test_what_depends_on_a_record_arrives_with_the_record_durable(
    tmp_path: Path,
) -> None:
    server, journal = await _journalled_host(tmp_path)
    raw = await RawClient.open(server.address[1])
    try:
        # The join starts the game (the bot fills the other seat): the welcome and the
        # snapshot are sent only once the game's record is on stable storage.
        raw.send(_hello("ann"))
        assert isinstance(await raw.expect(m.Welcome), m.Welcome)
        assert journal.synced == journal.appended >= 1
        assert load(journal.path)[0]["k"] == "game"
        await raw.expect(m.Snapshot)
        raw.send(m.Chat(pid=None, text="hi"))
        await raw.expect(m.Chat)
    finally:
        await raw.close()
        await server.close()
        journal.close()
    assert journal.synced == journal.appended  # close() leaves the journal durable


@pytest.mark.asyncio
async def test_a_failed_sync_closes_the_table_without_sending_what_it_guarded(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    server, journal = await _journalled_host(tmp_path)
    journal.fail = True
    raw = await RawClient.open(server.address[1])
    try:
        with caplog.at_level(logging.INFO, logger="sorry_lan.net.host"):
            raw.send(_hello("ann"))
            bye = await raw.expect(m.Bye, m.Welcome, m.Snapshot)
        assert isinstance(bye, m.Bye) and bye.reason is ByeReason.ERROR
        assert not any(isinstance(x, m.Snapshot | m.Welcome) for x in raw.inbox)
        assert journal.appended >= 1 and journal.synced == 0
        await asyncio.wait_for(server.wait_done(), 5)
        assert isinstance(server.failure, OSError)
        assert "cannot be saved" in caplog.text
    finally:
        await raw.close()
        await server.close()
        journal.close()


@pytest.mark.asyncio
async def test_probes_that_connect_and_close_are_quiet(
    caplog: pytest.LogCaptureFixture,
) -> None:
    server = await start_host()
    port = server.address[1]
    try:
        with caplog.at_level(logging.DEBUG):
            for reset in (False, True, False, True):
                sock = socket.create_connection((LOCAL, port))
                if reset:  # close with a RST rather than a FIN
                    sock.setsockopt(
                        socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0)
                    )
                sock.close()
            for _ in range(100):
                if not server.conns:
                    break
                await asyncio.sleep(0.02)
        assert not server.conns
        loud = [r for r in caplog.records if r.levelno > logging.DEBUG]
        assert not loud, [r.getMessage() for r in loud]
        assert not any(r.exc_info for r in caplog.records)
        assert server.table.players == {}
        client = GameClient(LOCAL, port, "real")  # the host still serves people
        await client.connect()
        await client.close()
    finally:
        await server.close()


class _BrokenSearch:
    """An expert that raises on the bot thread whenever it is asked to choose."""

    kind = "expert"
    blocks = True

    def __init__(self, seed: int = 0, **_options: object) -> None:
        self.seed = seed

    def choose(self, position: object, legal_moves: object) -> object:
        raise RuntimeError("the search broke")


@pytest.mark.asyncio
async def test_a_bot_that_fails_on_the_bot_thread_falls_back_and_the_game_goes_on(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from sorry_lan.bots.registry import FACTORIES

    monkeypatch.setitem(FACTORIES, "expert", _BrokenSearch)
    table = Table(TableConfig(seats=2, auto_start=True, seed=9, bot_level="expert"))
    table.add_bot(None, level="expert")
    async with HostServer(table, HostOptions(heartbeat=0.5, dead_after=3.0)) as server:
        await server.start(LOCAL, 0)
        ann = GameClient(LOCAL, server.address[1], "Ann")
        await ann.connect()
        with caplog.at_level(logging.INFO, logger="sorry_lan.authority"):
            over = await asyncio.wait_for(run_bot(ann), 30)
        await ann.close()
    game = table.game
    assert over is not None and game is not None and game.over
    assert "the expert bot failed" in caplog.text and "a greedy bot plays" in caplog.text


@pytest.mark.asyncio
async def test_async_with_closes_the_server_and_closing_twice_is_safe() -> None:
    table = Table(TableConfig(seats=2, auto_start=True, seed=1))
    async with HostServer(table, HostOptions(heartbeat=0.5, dead_after=3.0)) as server:
        await server.start(LOCAL, 0)
        raw = await RawClient.open(server.address[1])
        assert isinstance(await raw.hello("ann"), m.Welcome)
        tasks = asyncio.all_tasks()
    bye = await raw.expect(m.Bye)
    assert bye == m.Bye(reason=ByeReason.SHUTDOWN)
    await server.close()  # again: nothing more happens
    await server.close(ByeReason.ERROR)
    assert asyncio.all_tasks() <= tasks  # it started no task of its own
    with pytest.raises(OSError):
        await asyncio.wait_for(asyncio.open_connection(LOCAL, server.address[1]), 2)
    await raw.close()
