"""A client that only lost its link reconnects by itself and passes on just what was
said while it was away, over real sockets.  (A new process, a spectator and the
dedupe itself are in ``tests/client/test_model_paired.py``, in memory.)"""

from __future__ import annotations

import asyncio

import pytest
from netkit import LOCAL, start_host

from sorry_lan.client.model import Connection
from sorry_lan.net.client import ClientOptions, GameClient
from sorry_lan.net.host import HostOptions
from sorry_lan.wire import messages as m


async def _chat_lines(client: GameClient, until: str) -> list[str]:
    """The chat texts ``client`` passes on, up to and including ``until``."""
    seen: list[str] = []
    while True:
        ev = await asyncio.wait_for(client.next_event(), 5)
        if isinstance(ev, m.Chat):
            seen.append(ev.text)
            if ev.text == until:
                return seen


async def _back(client: GameClient) -> list[str]:
    """Wait until ``client`` has reconnected; the chat texts it passed on meanwhile."""
    seen: list[str] = []
    while True:
        ev = await asyncio.wait_for(client.next_event(), 10)
        if isinstance(ev, m.Chat):
            seen.append(ev.text)
        if isinstance(ev, Connection) and ev.state == "connected":
            return seen


@pytest.mark.asyncio
async def test_a_reconnected_client_hears_only_what_it_missed() -> None:
    server = await start_host(seats=2, seed=3, options=HostOptions(stay=True))
    port = server.address[1]
    ann = GameClient(LOCAL, port, "ann")
    bob = GameClient(LOCAL, port, "bob", ClientOptions(reconnect_for=10))
    try:
        await ann.connect()
        await bob.connect()
        ann.chat("one")
        ann.chat("one")  # said twice: heard twice
        assert await _chat_lines(bob, "one") == ["one"]
        assert await _chat_lines(bob, "one") == ["one"]
        bob.abort()  # the link drops; the client reconnects by itself
        ann.chat("while away")
        meanwhile = await _back(bob)
        ann.chat("after")
        assert meanwhile + await _chat_lines(bob, "after") == ["while away", "after"]
        assert bob.model.chat_heard == ["one", "one", "while away", "after"]
    finally:
        await ann.close()
        await bob.close()
        await server.close()
