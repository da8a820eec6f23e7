"""A laptop that takes a table over serves the phones' page at the port it hosts on
+ 1 and tells its person where (``join``'s lobby shows the code, its line mode says
the address): a real headless host, SIGKILLed in a loopback-only network namespace
the test creates, and two laptops' clients in this process, with the heirs
``sorry-lan join`` gives them (``commands.successor.make_heir``).  The page answers
on IPv6 too, as the table taken over does."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
from pathlib import Path

import pytest
from chromium import host
from netns import netns_skip_reason, run_in_loopback_netns

from sorry_lan.net.client import GameClient

pytestmark = [
    pytest.mark.netns,
    pytest.mark.skipif(netns_skip_reason() is not None, reason=str(netns_skip_reason())),
]

TABLE = ("--players", "3", "--bots", "0", "--grace", "30", "--takeover-delay", "1")


async def _drain(clients: list[GameClient], seconds: float) -> None:
    """Read what the clients' hosts tell them for ``seconds`` (their news unread)."""
    end = asyncio.get_running_loop().time() + seconds
    while (left := end - asyncio.get_running_loop().time()) > 0:
        for client in clients:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(client.next_event(), min(left, 0.05))


async def _take_over(data: Path) -> dict[str, object]:
    import aiohttp

    from sorry_lan.commands.successor import make_heir
    from sorry_lan.net.client import ClientOptions

    proc, game, _web = await host(data, TABLE)
    told: list[str] = []
    clients: list[GameClient] = []
    try:
        for name in ("Ada", "Bea"):
            args = argparse.Namespace(interface=None, ipv6=False, data_dir=data / name,
                                      standby_port=0)
            heir = make_heir(args, None, told.append)
            client = GameClient("127.0.0.1", game, name, ClientOptions(), heir)
            await client.connect()
            clients.append(client)
        async with asyncio.timeout(20):
            while any(len(getattr(c.model.succession, "order", ())) < 2 for c in clients):
                await _drain(clients, 0.1)
        table = clients[0].model.succession.table  # type: ignore[union-attr]
        os.kill(proc.pid, signal.SIGKILL)
        async with asyncio.timeout(40):
            while not told:
                await _drain(clients, 0.1)
        hosting = [c.heir.listener.port for c in clients if c.heir and c.heir.hosting]
        async with aiohttp.ClientSession() as session:
            async with session.get(told[0] + "/table") as r:
                served = await r.json()
            try:  # and on IPv6, as the table it hosts (where the namespace has ::1)
                async with session.get(f"http://[::1]:{hosting[0] + 1}/table") as r:
                    served6 = await r.json()
            except aiohttp.ClientConnectorError as exc:
                served6 = {"error": str(exc)}
        ipv6 = [c.heir.hosted.server.also for c in clients if c.heir and c.heir.hosted]
        return {"told": told, "table": table, "served": served, "hosting": hosting,
                "served6": served6, "ipv6": ipv6}
    finally:
        for client in clients:
            await client.close()
        if proc.returncode is None:
            proc.kill()
        await proc.wait()


def test_the_laptop_that_takes_over_serves_the_phones_and_says_where(tmp_path: Path) -> None:
    got = run_in_loopback_netns(lambda: _take_over(tmp_path), timeout=90)
    told, hosting = got["told"], got["hosting"]
    assert isinstance(told, list) and isinstance(hosting, list) and len(hosting) == 1
    assert told == [f"http://127.0.0.1:{hosting[0] + 1}"]  # its standby's port + 1
    assert got["served"] == {"table": got["table"]}
    if got["ipv6"] == [[("::", hosting[0])]]:  # the table taken over listens on IPv6 too
        assert got["served6"] == {"table": got["table"]}  # and so does its page
    else:
        pytest.skip(f"no IPv6 in the namespace: {got['ipv6']}")
