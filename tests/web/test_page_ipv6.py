"""The phone's page on IPv6 beside IPv4, on loopback (``::1`` and 127.0.0.1), with
real sockets: served on both families at one port wherever the table's own port is
(the first host, and a laptop that takes a table over on the ports its standby kept),
and on the one address ``--bind`` names alone."""

from __future__ import annotations

import argparse
import socket
from pathlib import Path

import aiohttp
import pytest
from netns import has_ipv6_loopback

from sorry_lan.authority.table import TableConfig
from sorry_lan.commands import host, successor
from sorry_lan.net.host import HostOptions
from sorry_lan.net.hosted import HostedTable
from sorry_lan.net.standby import StandbyListener
from sorry_lan.web.follow import page_url

LOCAL = "127.0.0.1"



pytestmark = [
    pytest.mark.asyncio,
    pytest.mark.skipif(not has_ipv6_loopback(), reason="no IPv6 loopback here"),
]


def _table(tmp_path: Path, also: tuple[str, ...] = (), sock: socket.socket | None = None,
           tid: str | None = None) -> HostedTable:
    """A table of two on loopback (on ``sock`` if given), on ``also`` too."""
    return HostedTable(
        TableConfig(seats=2), tmp_path / "t.journal", HostOptions(heartbeat=0.5, dead_after=3.0),
        bind=LOCAL, also=also, sock=sock, tid=tid,
    )


async def _tables(port: int) -> dict[str, object]:
    """What ``GET /table`` answers at the page's port, by address (an error's name
    where no page answers)."""
    out: dict[str, object] = {}
    async with aiohttp.ClientSession() as session:
        for address in (LOCAL, "::1"):
            try:
                async with session.get(page_url(address, port) + "/table") as r:
                    out[address] = (await r.json())["table"]
            except aiohttp.ClientConnectorError as exc:
                out[address] = type(exc.os_error).__name__
    return out


async def test_the_first_hosts_page_answers_on_ipv4_and_ipv6(tmp_path: Path) -> None:
    async with _table(tmp_path, also=("::1",)) as hosted:
        port = hosted.address[1]
        also = [extra for extra, _port in hosted.server.also]
        assert also == ["::1"]  # the table listens on both
        args = argparse.Namespace(bind=LOCAL, web_port=None, grace=1.0)
        phones = await host._serve_phones(args, port, hosted.table_id, also)
        assert phones is not None
        try:
            web = phones.address[1]
            assert phones.also == [("::1", web)]
            tid = hosted.table_id
            assert await _tables(web) == {LOCAL: tid, "::1": tid}
        finally:
            await phones.close()


async def test_a_bound_address_alone_serves_the_page_there_alone(tmp_path: Path) -> None:
    async with _table(tmp_path) as hosted:  # (--bind: no IPv6 beside it)
        args = argparse.Namespace(bind=LOCAL, web_port=None, grace=1.0)
        phones = await host._serve_phones(args, hosted.address[1], hosted.table_id)
        assert phones is not None
        try:
            assert phones.also == []
            assert await _tables(phones.address[1]) == {
                LOCAL: hosted.table_id, "::1": "ConnectionRefusedError"}
        finally:
            await phones.close()


@pytest.mark.parametrize("standby_v6", [True, False])
async def test_a_table_taken_over_serves_its_page_on_ipv4_and_ipv6(
    tmp_path: Path, standby_v6: bool
) -> None:
    """The laptop's standby kept its port + 1 for both families (or, one that did not
    listen on IPv6 itself, for IPv4 alone: the page's IPv6 socket is bound as the
    table is hosted); the table taken over on the standby's socket listens on both."""
    listener = StandbyListener(bind=LOCAL, also=("::1",) if standby_v6 else (),
                               keep_next=True)
    port = await listener.start()
    try:
        kept = listener.take_next()
        assert len(kept) == (2 if standby_v6 else 1)
        sock = listener.take_socket()
        async with _table(tmp_path, sock=sock, also=("::1",), tid="0123456789abcdef") as hosted:
            assert hosted.address[1] == port
            served = await successor._serve_phones(hosted, "0123456789abcdef", kept)
            assert served == port + 1
            assert await _tables(port + 1) == {
                LOCAL: "0123456789abcdef", "::1": "0123456789abcdef"}
    finally:
        await listener.close()
