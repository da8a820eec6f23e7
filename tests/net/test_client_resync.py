"""Our client checks every ``events`` message against its board and resyncs on a mismatch."""

from __future__ import annotations

import pytest
from netkit import LOCAL, start_host

from sorry_lan.net.client import (
    REPLAY_MISMATCH,
    GameClient,
    GameStarted,
    Happened,
    LobbyChanged,
    TurnChanged,
)
from sorry_lan.rules import HOME, Variant


@pytest.mark.asyncio
async def test_our_client_resyncs_when_the_events_do_not_add_up(
    caplog: pytest.LogCaptureFixture,
) -> None:
    server = await start_host(Variant.STANDARD, seats=2, bots=2, seed=3, bot_delay=0.05)
    watcher = GameClient(LOCAL, server.address[1], "watcher", spectate=True)
    try:
        await watcher.connect()
        while not isinstance(await watcher.events.get(), GameStarted):
            pass
        watcher.pawns = (HOME,) * 16  # a board out of step with the host's
        while not isinstance(ev := await watcher.events.get(), GameStarted):
            assert isinstance(ev, Happened | TurnChanged | LobbyChanged), ev
        assert watcher.replay_mismatches == 1
        assert [r.getMessage() for r in caplog.records if REPLAY_MISMATCH in r.getMessage()]
        snap = ev.snapshot
        assert snap.pawns == watcher.pawns and snap.sid == watcher.sid
    finally:
        caplog.clear()  # seen: the suite-wide check must not count it
        await watcher.close()
        await server.close()
