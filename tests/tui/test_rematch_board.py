"""Another game and coming back, on the real board (run_tui on a pipe) against real
hosts on 127.0.0.1: the host's ``r`` at the game over opens the next game's lobby
(``s`` then starts it); a board that rejoins a new table at the same address shows
that table's lobby and can get ready there; a watcher gets the same ``r`` as players."""

from __future__ import annotations

import pytest
from client_harness import LOCAL, board, host_table
from relay import Relay
from test_controller import play_to_the_end

from sorry_lan.net.client import ClientOptions, GameClient
from sorry_lan.tui.play import JoinRequest
from sorry_lan.tui.state import Link, Screen

pytestmark = pytest.mark.asyncio


async def test_the_hosts_r_opens_the_next_games_lobby_and_s_starts_it() -> None:
    server, token = await host_table(bots=1, seats=2, owner="ann", bot_delay=0.0, seed=3)
    try:
        client = GameClient(LOCAL, server.address[1], "ann", ClientOptions(token=token))
        await client.connect()
        async with board(client=client) as (d, ctl, _task):
            st = ctl.state
            await d.wait_for(lambda: st.screen is Screen.LOBBY and st.is_host)
            await d.keys("s")
            await d.wait_for(lambda: st.screen is Screen.GAME, timeout=10)
            first = server.table.game
            await play_to_the_end(d, st)
            d.inp.send_text("?")
            await d.settle()
            assert "open the next game's lobby, with the same seats" in d.screen_text()
            d.inp.send_text("?")
            await d.keys("r")
            await d.wait_for(lambda: st.screen is Screen.LOBBY, timeout=10)
            await d.settle()
            assert "Lobby" in d.screen_text() and "s start" in d.screen_lines()[-1]
            assert "you opened the next game's lobby, with the same seats: s starts it" in st.log
            assert server.table.game is first  # nothing started by itself
            await d.keys("s")
            await d.wait_for(lambda: st.screen is Screen.GAME, timeout=10)
            assert server.table.game is not first
    finally:
        await server.close()


def _quick(spectate: bool = False) -> object:
    def make(host: str, port: int, name: str, pin: str | None) -> GameClient:
        options = ClientOptions(pin=pin, spectate=spectate, reconnect_for=0.3,
                                connect_timeout=2.0)  # fmt: skip
        return GameClient(host, port, name, options)

    return make


@pytest.mark.parametrize("watching", [False, True], ids=["player", "watcher"])
async def test_r_after_the_host_restarted_shows_the_new_tables_lobby(watching: bool) -> None:
    first, _ = await host_table(bots=2 - (not watching), seats=2, auto_start=True,
                                bot_delay=0.02)  # fmt: skip
    second, _ = await host_table(bots=1, seats=3)  # the new table at the same address
    relay = Relay(first.address[1])
    await relay.start()
    try:
        join = JoinRequest(f"{LOCAL}:{relay.port}", "ann")
        make = _quick(watching)
        async with board(join=join, make_client=make) as (d, ctl, task):  # type: ignore[arg-type]
            st = ctl.state
            await d.wait_for(lambda: st.screen is Screen.GAME, timeout=10)
            await relay.cut()  # the host quits
            await d.wait_for(lambda: st.link is Link.LOST, timeout=10)
            await relay.resume(target_port=second.address[1])
            for _ in range(2):  # a player's first r learns the old seat is gone
                await d.keys("r")
                await d.wait_for(lambda: st.link is not Link.CONNECTING, timeout=10)
                if st.link is Link.CONNECTED:
                    break
            await d.wait_for(lambda: st.link is Link.CONNECTED, timeout=10)
            await d.wait_for(lambda: st.screen is Screen.LOBBY, timeout=5)
            await d.settle()
            assert "your turn" not in d.screen_text() and "Lobby" in d.screen_text()
            if not watching:  # and the lobby's keys work: get ready
                await d.keys(" ")
                await d.wait_for(
                    lambda: any(p.name == "ann" and p.ready
                                for p in second.table.players.values()), timeout=5)  # fmt: skip
            d.inp.send_text("qy")
            await d.wait_for(lambda: task.done(), timeout=10)
        assert task.result() == 0  # left while connected: no "connection lost"
    finally:
        await relay.close()
        await first.close()
        await second.close()
