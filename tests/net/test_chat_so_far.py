"""Whoever comes (back) to a table mid-game is told the game's chat so far: a player
whose own process died hears all of it again, a client that only lost its link hears
just what was said while it was away, and a resumed host tells it to everyone."""

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
async def test_a_player_whose_process_died_hears_the_chat_so_far() -> None:
    server = await start_host(seats=2, seed=3, options=HostOptions(stay=True))
    port = server.address[1]
    ann, bob = GameClient(LOCAL, port, "ann"), GameClient(LOCAL, port, "bob")
    again: GameClient | None = None
    try:
        await ann.connect()
        await bob.connect()  # the game starts
        ann.chat("good luck")
        bob.chat("you too")
        assert await _chat_lines(ann, "you too") == ["good luck", "you too"]
        token = bob.model.token
        bob.abort()  # its process dies: the new one knows nothing
        await bob.close()
        again = GameClient(LOCAL, port, "bob", ClientOptions(token=token))
        await again.connect()
        ann.chat("welcome back")
        assert await _chat_lines(again, "welcome back") == ["good luck", "you too", "welcome back"]
        pids = {p.pid for p in server.table.players.values()}
        assert again.model.pid in pids
    finally:
        for c in (ann, bob, again):
            if c is not None:
                await c.close()
        await server.close()


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


@pytest.mark.asyncio
async def test_a_spectator_hears_the_chat_so_far() -> None:
    server = await start_host(seats=2, seed=3, options=HostOptions(stay=True))
    port = server.address[1]
    ann, bob = GameClient(LOCAL, port, "ann"), GameClient(LOCAL, port, "bob")
    eve = GameClient(LOCAL, port, "eve", ClientOptions(spectate=True))
    try:
        await ann.connect()
        await bob.connect()
        ann.chat("hi")
        await _chat_lines(bob, "hi")
        await eve.connect()
        bob.chat("hello eve")
        assert await _chat_lines(eve, "hello eve") == ["hi", "hello eve"]
    finally:
        for c in (ann, bob, eve):
            await c.close()
        await server.close()
