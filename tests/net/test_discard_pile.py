"""The discard pile on the wire (protocol version 2): a real host tells it in each
``snapshot`` to a connection on version 2, and leaves the field out for a version-1
peer, which would refuse a field it does not know."""

from __future__ import annotations

import asyncio

import pytest
from netkit import LOCAL, start_host
from test_profile import OldClient

from sorry_lan.net.client import GameClient
from sorry_lan.rules.cards import card_counts
from sorry_lan.wire import messages as m


@pytest.mark.asyncio
async def test_a_snapshot_tells_the_pile_on_version_2_and_leaves_it_out_on_version_1() -> None:
    server = await start_host(seats=3, bots=1, seed=4)
    port = server.address[1]
    new = GameClient(LOCAL, port, "new")
    old = await OldClient.join(port, "old")
    try:
        await new.connect()
        while True:  # the table is full: the game starts by itself
            ev = await asyncio.wait_for(new.next_event(), 5)
            if isinstance(ev, m.Snapshot):
                break
        game = server.table.game
        session = new.model.session
        assert game is not None and session is not None and session.version == 2
        snap = ev
        assert snap.discarded == card_counts(game.deck.discards[: snap.discards])
        assert new.model.discarded == snap.discarded and len(new.model.discarded) == 14
        first = await old.read_until(lambda msg: msg.get("t") == "snapshot")
        assert "discarded" not in first
        assert set(first) == {"t"} | {n for n, _ in m.Snapshot.FIELDS} - {"discarded"}
    finally:
        await new.close()
        await old.close()
        await server.close()
