"""The old host's probe on loopback: it finds its table hosted at a newer epoch by a
real host, and nothing at a standby, another table or a closed port."""

from __future__ import annotations

import pytest
from netkit import LOCAL, free_port

from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.net.host import HostOptions, HostServer
from sorry_lan.net.probe import probe
from sorry_lan.net.standby import StandbyListener
from sorry_lan.wire import messages as m
from sorry_lan.wire.errors import ErrorReason

pytestmark = pytest.mark.asyncio

TID = "abcd1234abcd1234"


async def _host(tid: str = TID, epoch: int = 2) -> HostServer:
    table = Table(TableConfig(seats=2))
    player, _token = table.join(None, "bea")
    table.owner = player.pid
    server = HostServer(table, HostOptions(heartbeat=0.5, dead_after=3.0, table_id=tid,
                                           epoch=epoch))
    await server.start(LOCAL, 0)
    return server


async def test_a_host_at_a_newer_epoch_is_seen_and_its_link_kept_for_the_answer() -> None:
    server = await _host()
    try:
        found = await probe(["192.0.2.1", LOCAL], server.address[1], TID, timeout=0.5)
        assert found is not None
        seen, link = found
        assert (seen.table, seen.epoch, seen.address) == (TID, 2, (LOCAL, server.address[1]))
        link.tell(m.Error(reason=ErrorReason.FORBIDDEN, text="the host is alive", fatal=True))
        link.close()
        link.close()
    finally:
        await server.close()


async def test_nothing_is_seen_at_a_standby_another_table_or_a_closed_port() -> None:
    async with StandbyListener(bind=LOCAL) as standby:
        assert await probe([LOCAL], standby.port, TID) is None
    other = await _host("ffff0000ffff0000")
    try:
        assert await probe([LOCAL], other.address[1], TID) is None
    finally:
        await other.close()
    assert await probe([LOCAL], free_port(), TID, timeout=0.5) is None
