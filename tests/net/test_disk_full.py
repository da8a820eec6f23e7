"""A full disk under a running host: nothing unsaved is shown, everyone is told, the
journal resumes to exactly what players saw (a fake file here; a real small tmpfs in
``test_disk_full_process``)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from netkit import LOCAL, start_host
from test_journal import FullDisk

from sorry_lan.authority.restore import replay
from sorry_lan.net.botrunner import BotStats, run_bot
from sorry_lan.net.client import ClientOptions, GameClient
from sorry_lan.net.host import HostOptions
from sorry_lan.net.journal import load


@pytest.mark.asyncio
@pytest.mark.parametrize("room", [0, 37, 400, 2000])
async def test_a_full_disk_stops_the_table_with_every_move_shown_saved(
    tmp_path: Path, room: int
) -> None:
    path = tmp_path / "g.journal"
    server = await start_host(
        seats=3, bots=1, seed=7, journal=path, options=HostOptions(heartbeat=5, dead_after=20)
    )
    journal = server.journal
    assert journal is not None
    port = server.address[1]
    clients = [GameClient(LOCAL, port, n, ClientOptions(reconnect_for=0.5)) for n in ("ann", "bob")]
    for c in clients:
        await c.connect()  # the second one starts the game (its record is written)
    journal._file = FullDisk(journal._file, room=room)
    stats = [BotStats(), BotStats()]
    results = await asyncio.wait_for(
        asyncio.gather(*(run_bot(c, stats=s) for c, s in zip(clients, stats, strict=True))), 30
    )
    await asyncio.wait_for(server.wait_done(), 5)
    assert server.failure is not None and "No space" in str(server.failure)
    assert results == [None, None]  # nobody saw an end: the table stopped
    for s in stats:
        told = [r for r in s.refused if "cannot save the game" in r]
        assert len(told) == 1 and "No space left on device" in told[0], s.refused
    await server.close()
    for c in clients:
        await c.close()
    journal.close()
    restored = replay(load(path))
    assert restored is not None
    seen = {c.model.sid for c in clients}
    assert seen == {restored.game.state_id}, (seen, restored.game.state_id, restored.moves)
