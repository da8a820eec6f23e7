"""A restarted ``join`` whose table is found at a replay of its host looks on for it
(simulated seed 2189).  Real sockets on loopback: a headless host, Bob's seat file
(the table's id, epoch 1, the port the host serves on), and a rogue that copied what
a laptop knew and hosts the table at epoch 1 as that host, on a port of its own.
Bob's client, started again at the rogue (its advert carries the table's id), refuses
the claim as a replay (SPEC 13: a claim replayed on another port is forged); it then
looks where its seat says the table may be, as a walk goes on past a refused claim,
and takes its seat back at the host on its own port, instead of ending."""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from netkit import LOCAL, start_host

from sorry_lan.authority import electorate
from sorry_lan.authority.takeover import build_table
from sorry_lan.client.events import TableNews, TableNewsKind
from sorry_lan.net.client import ClientOptions, GameClient, JoinError
from sorry_lan.net.host import HostOptions, HostServer
from sorry_lan.net.seats import SeatStore
from sorry_lan.succession import election as el
from sorry_lan.wire.succession import is_ip_literal

TID = "00112233aabbccdd"


async def _until(done: Callable[[], bool], seconds: float = 5.0) -> None:
    end = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < end, "timed out"
        await asyncio.sleep(0.01)


def _news(client: GameClient) -> list[TableNews]:
    out: list[TableNews] = []
    while not client._events.empty():
        ev, _at = client._events.get_nowait()
        if isinstance(ev, TableNews):
            out.append(ev)
    return out


@pytest.mark.asyncio
async def test_a_restarted_join_refusing_its_host_replayed_looks_on_and_finds_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(electorate, "_usable", is_ip_literal)
    store = SeatStore(tmp_path / "seats")
    options = HostOptions(heartbeat=0.5, dead_after=3.0, table_id=TID)
    host = await start_host(seats=2, options=options, grace=30.0)
    at = host.address[1]
    standby = socket.create_server((LOCAL, 0))  # Ann's laptop's standby listener
    ann = GameClient(LOCAL, at, "Ann", ClientOptions(heartbeat=0.5, dead_after=3.0))
    ann.model.set_standby(standby.getsockname()[1], (LOCAL,))
    bob = GameClient(LOCAL, at, "Bob", ClientOptions(seats=store))
    rogue: HostServer | None = None
    again: GameClient | None = None
    try:
        await bob.connect()
        await ann.connect()
        await _until(lambda: host.table.game is not None and bob.model.snapshot is not None)
        await _until(lambda: any(s.epoch == 1 and s.table == TID for s in store.seats()))
        pid = bob.model.pid
        know = ann.model.knowledge()
        assert know is not None and pid is not None
        bob.abort()  # Bob's process dies
        await bob.close()
        table = build_table(know, epoch=2, now=time.monotonic(), seed=3)
        rogue = HostServer(table, HostOptions(table_id=TID, epoch=1, heartbeat=0.5,
                                              dead_after=3.0))
        await rogue.start(LOCAL, 0)
        again = GameClient(LOCAL, rogue.address[1], "Bob",
                           ClientOptions(seats=store, table_id=TID, connect_timeout=1.0))
        welcome = await again.connect()
        assert welcome.pid == pid  # Bob's own seat...
        assert (again.host, again.port) == (LOCAL, at)  # ...at the host on its port
        assert again.model.followed == (TID, 1, None)
        refused = [n for n in _news(again) if n.kind is TableNewsKind.CLAIM_REFUSED]
        assert [n.claim for n in refused] == [el.Claim.OUT_OF_TURN]
        assert not any(p.conn is not None for p in rogue.table.players.values())
    finally:
        for c in (ann, bob, again):
            if c is not None:
                await c.close()
        if rogue is not None:
            await rogue.close()
        await host.close()
        standby.close()


@pytest.mark.asyncio
async def test_a_restarted_join_refusing_a_replay_ends_once_it_waited_enough(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nobody hosts the table where the seat says it may be: the join ends, with
    the refusal, once a reconnect would have given up (here 1 s)."""
    monkeypatch.setattr(electorate, "_usable", is_ip_literal)
    store = SeatStore(tmp_path / "seats")
    options = HostOptions(heartbeat=0.5, dead_after=3.0, table_id=TID)
    host = await start_host(seats=2, options=options, grace=30.0)
    at = host.address[1]
    standby = socket.create_server((LOCAL, 0))
    ann = GameClient(LOCAL, at, "Ann", ClientOptions(heartbeat=0.5, dead_after=3.0))
    ann.model.set_standby(standby.getsockname()[1], (LOCAL,))
    bob = GameClient(LOCAL, at, "Bob", ClientOptions(seats=store))
    rogue: HostServer | None = None
    again: GameClient | None = None
    try:
        await bob.connect()
        await ann.connect()
        await _until(lambda: host.table.game is not None and bob.model.snapshot is not None)
        await _until(lambda: any(s.epoch == 1 and s.table == TID for s in store.seats()))
        know = ann.model.knowledge()
        assert know is not None
        bob.abort()
        await bob.close()
        ann.abort()
        await host.close()  # gone for good
        standby.close()  # (Ann's laptop too)
        table = build_table(know, epoch=2, now=time.monotonic(), seed=3)
        rogue = HostServer(table, HostOptions(table_id=TID, epoch=1, heartbeat=0.5,
                                              dead_after=3.0))
        await rogue.start(LOCAL, 0)
        again = GameClient(LOCAL, rogue.address[1], "Bob",
                           ClientOptions(seats=store, table_id=TID, connect_timeout=0.5,
                                         reconnect_for=1.0))
        started = time.monotonic()
        with pytest.raises(JoinError):
            await again.connect()
        assert 1.0 <= time.monotonic() - started < 8.0
        assert (again.host, again.port) == (LOCAL, rogue.address[1])
    finally:
        for c in (ann, bob, again):
            if c is not None:
                await c.close()
        if rogue is not None:
            await rogue.close()
        standby.close()
