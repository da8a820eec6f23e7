"""Succession on loopback, in one process: a host and three laptops' clients (bots),
each with its heir (a standby listener, the election carried out); the host dies
mid-game without a word, the first laptop of the order takes the table over on its
standby's port after the takeover delay, the others vote for it and follow, and the
game finishes there."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import tempfile
from pathlib import Path

import pytest
from netns import netns_skip_reason, run_in_loopback_netns

from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.net.botrunner import BotStats, run_bot
from sorry_lan.net.client import ClientOptions, GameClient
from sorry_lan.net.heir import Heir, HeirOptions, start_table
from sorry_lan.net.host import HostOptions, HostServer
from sorry_lan.net.hosted import HostedTable
from sorry_lan.net.journal import Journal
from sorry_lan.succession.knowledge import Knowledge
from sorry_lan.wire import messages as m

_skip = netns_skip_reason()
pytestmark = [
    pytest.mark.netns,
    pytest.mark.lan,
    pytest.mark.skipif(_skip is not None, reason=_skip or ""),
]

DELAY = 1.0
LOCAL = "10.99.0.1"  # an address of this namespace's own (loopback ones are offered to nobody)


def crash(server: HostServer) -> None:
    """The host dies: no bye, no goodbye; its port closes."""
    server._stop_listening()
    for conn in list(server.conns.values()):
        if conn.transport is not None:
            conn.transport.abort()
    if server._timer is not None:
        server._timer.cancel()
    server._closing = True


def heir(tmp: Path) -> Heir:
    async def successor(knowledge: Knowledge, epoch: int, sock: socket.socket) -> HostedTable:
        options = HostOptions(heartbeat=0.5, dead_after=3.0)
        return await start_table(knowledge, epoch, sock, tmp, also=(), options=options)

    return Heir(lambda: [LOCAL], successor, HeirOptions(bind=LOCAL, also=()))


def test_a_crashed_host_is_taken_over_and_the_game_finishes() -> None:
    assert run_in_loopback_netns(_crashed_host, timeout=60) == 1


async def _crashed_host() -> int:
    subprocess.run(["ip", "addr", "add", f"{LOCAL}/8", "dev", "lo"], check=True, timeout=10)
    tmp_path = Path(tempfile.mkdtemp(prefix="sorry-lan-heir-"))
    journal = tmp_path / "host.journal"
    table = Table(TableConfig(seats=3, auto_start=True, seed=3), Journal(journal))
    options = HostOptions(heartbeat=0.5, dead_after=3.0, table_id="feedc0de12345678",
                          takeover_delay=DELAY)
    server = HostServer(table, options)
    await server.start(LOCAL, 0)
    port = server.address[1]
    heirs = [heir(tmp_path / f"b{i}") for i in range(3)]
    clients = [
        GameClient(LOCAL, port, f"b{i}", ClientOptions(), heirs[i]) for i in range(3)
    ]
    seen: list[list[int]] = [[], [], []]

    def progress(i: int):  # type: ignore[no-untyped-def]
        def say(news: object, number: int, total: int) -> None:
            if isinstance(news, m.Events):
                seen[i].append(news.sid)
                if i == 0 and len(seen[0]) == 8:
                    crash(server)
        return say

    try:
        for c in clients:
            await c.connect()
        results = await asyncio.wait_for(asyncio.gather(
            *(run_bot(c, progress=progress(i), moves=True, think=0.05, stats=BotStats())
              for i, c in enumerate(clients))
        ), 60)
        assert all(r is not None for r in results), [c.model.election for c in clients]
        return sum(h.took_over for h in heirs)
    finally:
        for c in clients:
            await c.close()
        for h in heirs:
            await h.close()
        await server.close()
