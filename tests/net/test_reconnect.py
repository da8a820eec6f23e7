"""Dropped players over sockets: a killed client reclaims its seat with its token, and
after the grace period a bot plays the seat until its owner returns.  (Turn timeouts
are in ``tests/authority/test_core_turn_timeout.py``, in memory.)"""

from __future__ import annotations

import asyncio

import pytest
from netkit import LOCAL, start_host

from sorry_lan.bots import play_out
from sorry_lan.client.model import Connection
from sorry_lan.net.botrunner import BotStats, run_bot
from sorry_lan.net.client import ClientOptions, GameClient
from sorry_lan.rules import Game, Variant


def offline(variant: Variant, seated: tuple[int, ...], seed: int) -> Game:
    game = Game(variant, seated, seed=seed)
    game.start()
    return play_out(game)


async def wait_moves(server: object, n: int) -> None:
    table = server.table  # type: ignore[attr-defined]
    while table.game is None or table.game.moves_played < n:
        await asyncio.sleep(0.002)


@pytest.mark.asyncio
async def test_a_client_killed_mid_game_reclaims_its_seat_and_the_game_finishes() -> None:
    seed = 31
    server = await start_host(Variant.STANDARD, seats=3, seed=seed)
    port = server.address[1]
    clients = [GameClient(LOCAL, port, f"p{i}", ClientOptions(reconnect_for=10)) for i in range(3)]
    try:
        for c in clients:
            await c.connect()
        stats = [BotStats() for _ in clients]
        tasks = [
            asyncio.create_task(run_bot(c, think=0.002, stats=s))
            for c, s in zip(clients, stats, strict=True)
        ]
        await wait_moves(server, 15)
        seat = clients[0].model.colour
        clients[0].abort()  # as if the process died: no bye
        await wait_moves(server, 40)
        clients[0].abort()  # and once more, later
        results = await asyncio.wait_for(asyncio.gather(*tasks), 30)
        game = server.table.game
        assert game is not None and game.over
        assert all(r is not None and list(r.winners) == list(game.winners) for r in results)
        assert game.winner == offline(Variant.STANDARD, game.seated, seed).winner
        assert clients[0].model.colour == seat and clients[0].model.pawns == game.pawns
        assert seat is not None and server.table.by_colour(seat) is not None
    finally:
        for c in clients:
            await c.close()
        await server.close()


@pytest.mark.asyncio
async def test_after_the_grace_period_a_bot_plays_the_seat_until_its_owner_returns() -> None:
    server = await start_host(Variant.STANDARD, seats=2, seed=41, grace=0.2)
    port = server.address[1]
    stay = GameClient(LOCAL, port, "stays")
    gone = GameClient(LOCAL, port, "leaves", ClientOptions(reconnect_for=0))
    try:
        await stay.connect()
        await gone.connect()
        token = gone.model.token
        player = asyncio.create_task(run_bot(stay))
        await asyncio.sleep(0.05)
        gone.abort()
        while True:  # the dropped client gives up at once
            ev = await asyncio.wait_for(gone.next_event(), 5)
            if isinstance(ev, Connection) and ev.state == "lost":
                break
        await wait_moves(server, 30)  # the game goes on: a bot plays the empty seat
        back = GameClient(LOCAL, port, "leaves", ClientOptions(token=token))
        await back.connect()
        assert back.model.pid == gone.model.pid
        result = await asyncio.wait_for(asyncio.gather(player, run_bot(back)), 30)
        assert all(r is not None for r in result)
        await back.close()
    finally:
        await stay.close()
        await gone.close()
        await server.close()
