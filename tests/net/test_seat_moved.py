"""A laptop that joined by address finds its seat where the table went (issue 31, case
6): its seat file keeps the table's id, epoch and where the table may be hosted next
(the succession order), so that ``sorry-lan join --address OLDHOST`` started again
after the old host was lost takes the seat back at the laptop that took the table
over, well before the grace runs out.  Real sockets on loopback: an old host, the
successor's table built from what a laptop knew (``net.heir.start_table``, as a
takeover builds it), and the seat file a real client wrote."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from netkit import LOCAL, start_host

from sorry_lan.authority import electorate
from sorry_lan.net.client import ClientOptions, GameClient, JoinError, JoinFailure
from sorry_lan.net.heir import start_table
from sorry_lan.net.host import HostOptions
from sorry_lan.net.seats import SeatStore
from sorry_lan.wire.succession import is_ip_literal

TID = "00112233aabbccdd"  # the table's id (it has one: it has a succession)
GRACE = 30.0  # a dropped player's seat waits this long for them (then a bot plays it)


async def _until(done: Callable[[], bool], seconds: float = 5.0) -> None:
    end = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < end, "timed out"
        await asyncio.sleep(0.01)


def _seats_known(client: GameClient) -> tuple[object, ...]:
    known = client.model.succession
    return () if known is None else known.seats


@pytest.mark.asyncio
async def test_a_laptop_that_joined_by_address_takes_its_seat_back_at_the_new_host(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # On loopback every laptop is 127.0.0.1, which a real order leaves out (it means
    # "this machine" to each): kept here so that the order names Ann's standby.
    monkeypatch.setattr(electorate, "_usable", is_ip_literal)
    store = SeatStore(tmp_path / "seats")
    options = HostOptions(heartbeat=0.5, dead_after=3.0, table_id=TID)
    old = await start_host(seats=2, options=options, grace=GRACE)
    at = old.address[1]
    standby = socket.create_server((LOCAL, 0))  # Ann's laptop's standby listener
    port = standby.getsockname()[1]
    ann = GameClient(LOCAL, at, "Ann", ClientOptions(heartbeat=0.5, dead_after=3.0))
    ann.model.set_standby(port, (LOCAL,))
    bob = GameClient(LOCAL, at, "Bob", ClientOptions(seats=store))  # join --address
    new = again = None
    try:
        await bob.connect()  # (first: the order that names Ann's laptop comes after)
        await ann.connect()
        await _until(lambda: old.table.game is not None and bob.model.snapshot is not None)
        await _until(lambda: any((LOCAL, port) in s.hosts for s in store.seats()))
        (kept,) = store.seats()
        assert (kept.table, kept.epoch, kept.hosts[0]) == (TID, 1, (LOCAL, at))
        pid, colour = bob.model.pid, bob.model.colour
        await _until(lambda: len(_seats_known(ann)) == 2)  # (Bob's seat too, as a successor)
        know = ann.model.knowledge()
        assert know is not None
        bob.abort()  # Bob's laptop stops (its process dies)...
        await bob.close()
        ann.abort()
        await old.close()  # ...the old host is lost, and Ann's laptop takes the table over
        new = await start_table(know, 2, standby, tmp_path, also=(), options=options)
        started = time.monotonic()
        again = GameClient(LOCAL, at, "Bob", ClientOptions(seats=store))  # join --address
        welcome = await again.connect()
        assert time.monotonic() - started < GRACE / 3
        assert (welcome.pid, again.model.colour) == (pid, colour)  # the same seat
        assert (again.host, again.port) == (LOCAL, port)
        assert pid is not None
        player = new.table.players[pid]
        assert player.conn is not None and not player.bot
        await _until(lambda: any(s.epoch == 2 for s in store.seats()))
    finally:
        for c in (ann, bob, again):
            if c is not None:
                await c.close()
        if new is not None:
            await new.close()
        await old.close()


@pytest.mark.asyncio
async def test_with_nowhere_else_known_the_old_host_s_silence_is_the_answer(
    tmp_path: Path,
) -> None:
    """A seat file from before successions (no epoch, no hosts) still loads and is
    offered; with nowhere else to look, joining fails as it always did."""
    store = SeatStore(tmp_path)
    server = await start_host(seats=2)
    gone = server.address[1]
    await server.close()
    store.save("Bob", bytes(range(16)), [LOCAL], gone)
    (path,) = tmp_path.glob("*.seat")
    raw = json.loads(path.read_text())
    for field in ("table", "epoch", "hosts"):
        del raw[field]
    path.write_text(json.dumps(raw))
    (seat,) = store.seats()
    assert (seat.table, seat.epoch, seat.hosts) == (None, None, ())
    assert store.elsewhere(seat, [(LOCAL, gone)]) == []
    bob = GameClient(LOCAL, gone, "Bob", ClientOptions(seats=store, connect_timeout=1.0))
    with pytest.raises(JoinError) as failed:
        await bob.connect()
    assert failed.value.reason is JoinFailure.UNREACHABLE
    assert store.seats() == [seat]  # kept: the host may come back


def test_where_else_a_seat_s_table_may_be_the_latest_host_first(tmp_path: Path) -> None:
    store = SeatStore(tmp_path)
    token = bytes(range(16))
    store.save("Bob", token, ["10.0.0.1"], 47474, table=TID, epoch=1,
               hosts=[("10.0.0.1", 47474), ("10.0.0.2", 5000), ("10.0.0.3", 5001)])  # fmt: skip
    store.save("Bob", token, ["10.0.0.2"], 5000, table=TID, epoch=2,
               hosts=[("10.0.0.2", 5000), ("10.0.0.3", 5001)])  # fmt: skip
    (seat,) = store.find(["10.0.0.1"], 47474, name="bob")  # join --address the old host
    assert (seat.epoch, seat.hosts[0]) == (1, ("10.0.0.1", 47474))
    assert store.elsewhere(seat, [("10.0.0.1", 47474)]) == [
        ("10.0.0.2", 5000), ("10.0.0.3", 5001), ("10.0.0.1", 5000),
    ]  # (epoch 2's host, then its order, then the other address a file kept)
    store.forget(token)
    assert store.seats() == []
