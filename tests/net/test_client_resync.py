"""Our client checks every ``events`` message against its board and resyncs on a mismatch."""

from __future__ import annotations

import pytest
from netkit import LOCAL, start_host

from sorry_lan.client.model import REPLAY_MISMATCH, ReplayMismatch
from sorry_lan.net.client import ClientOptions, GameClient
from sorry_lan.rules import HOME, Variant
from sorry_lan.wire import messages as m


@pytest.mark.asyncio
async def test_our_client_resyncs_when_the_events_do_not_add_up(
    caplog: pytest.LogCaptureFixture,
) -> None:
    server = await start_host(Variant.STANDARD, seats=2, bots=2, seed=3, bot_delay=0.05)
    watcher = GameClient(LOCAL, server.address[1], "watcher", ClientOptions(spectate=True))
    try:
        await watcher.connect()
        while not isinstance(await watcher.next_event(), m.Snapshot):
            pass
        watcher.model.pawns = (HOME,) * 16  # a board out of step with the host's
        mismatches = []
        while not isinstance(ev := await watcher.next_event(), m.Snapshot):
            if isinstance(ev, ReplayMismatch):
                mismatches.append(ev)
                continue
            assert isinstance(ev, m.Events | m.Turn | m.Lobby), ev
        assert watcher.model.replay_mismatches == 1 and len(mismatches) == 1
        assert [r.getMessage() for r in caplog.records if REPLAY_MISMATCH in r.getMessage()]
        snap = ev
        assert snap.pawns == watcher.model.pawns and snap.sid == watcher.model.sid
    finally:
        caplog.clear()  # seen: the suite-wide check must not count it
        await watcher.close()
        await server.close()
