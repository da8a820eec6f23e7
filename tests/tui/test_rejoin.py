"""``r`` after "host lost": the board rejoins with the same seat token.

A real HostServer on 127.0.0.1 sits behind a :class:`relay.Relay`; cutting the relay
drops our connection and refuses new ones, so the client's own retries (kept short
here) give up and the board says "host lost".  Then ``r``: refused while the relay is
down (the board says why and stays "lost"), seat reclaimed once it is back (same
player, same colour, and the game goes on by keys).  A table that no longer knows our
token: ``r`` says so, and the next ``r`` asks that table for a new seat.
"""

from __future__ import annotations

import pytest
from client_harness import LOCAL, board, host_table
from relay import Relay
from test_controller import ours, play_our_moves

from sorry_lan.net.client import ClientOptions, GameClient
from sorry_lan.tui.play import JoinRequest
from sorry_lan.tui.state import Link, Screen

pytestmark = pytest.mark.asyncio


def quick_to_give_up(host: str, port: int, name: str, pin: str | None) -> GameClient:
    """A client whose own reconnection gives up after 0.3 s (the default is a minute)."""
    options = ClientOptions(pin=pin, reconnect_for=0.3, connect_timeout=2.0)
    return GameClient(host, port, name, options)


def seat_token(client: GameClient) -> bytes | None:
    return client.model.token


async def test_r_rejoins_the_same_seat_after_the_host_was_lost() -> None:
    server, _ = await host_table(bots=1, seats=2, auto_start=True, bot_delay=0.02)
    relay = Relay(server.address[1])
    await relay.start()
    try:
        join = JoinRequest(f"{LOCAL}:{relay.port}", "ann")
        async with board(join=join, make_client=quick_to_give_up) as (d, ctl, task):
            st = ctl.state
            await d.wait_for(lambda: st.screen is Screen.GAME, timeout=10)
            await play_our_moves(d, st, until=1)
            client = ctl.client
            assert client is not None and client.model.token is not None
            pid, colour, played = client.model.pid, st.you, ours(st)

            await relay.cut()
            await d.wait_for(lambda: st.link is Link.LOST, timeout=10)
            await d.settle()
            lines = d.screen_lines()
            assert "host lost" in lines[0] and "r rejoins" in lines[0]
            assert "r rejoin" in lines[-1] and "q leave" in lines[-1]

            # Still unreachable: r says why, the board stays "lost", r can be pressed again.
            accepted = relay.accepted
            await d.keys("r")
            await d.wait_for(lambda: "could not rejoin" in st.notice, timeout=10)
            assert st.link is Link.LOST and "nobody is hosting" in st.notice
            assert relay.accepted == accepted  # nothing got through
            await d.settle()
            assert "could not rejoin" in d.screen_lines()[-1]

            await relay.resume()
            await d.keys("r")
            await d.wait_for(lambda: st.link is Link.CONNECTED, timeout=10)
            assert relay.accepted == accepted + 1
            # The same seat, not a new one (a started table would refuse a new player).
            assert client.model.pid == pid and st.you == colour and not task.done()
            seat = next(p for p in server.table.players.values() if p.pid == pid)
            assert seat.connected and not seat.bot
            assert len(server.table.players) == 2
            assert "rejoined: you are back at the table" in st.log
            await d.settle()
            assert "● connected" in d.screen_lines()[0]
            # And the game goes on by keys.
            await play_our_moves(d, st, until=played + 1)
            assert ours(st) >= played + 1 or st.screen is Screen.OVER
            d.inp.send_text("qy")
            await d.wait_for(lambda: task.done())
        assert task.result() == 0  # left while connected
    finally:
        await relay.close()
        await server.close()


async def test_r_on_a_table_that_forgot_our_seat_asks_for_a_new_one() -> None:
    first, _ = await host_table(bots=1, seats=2, auto_start=True, bot_delay=0.02)
    second, _ = await host_table(bots=1, seats=4)  # a new table behind the same address
    relay = Relay(first.address[1])
    await relay.start()
    try:
        join = JoinRequest(f"{LOCAL}:{relay.port}", "ann")
        async with board(join=join, make_client=quick_to_give_up) as (d, ctl, _task):
            st = ctl.state
            await d.wait_for(lambda: st.screen is Screen.GAME, timeout=10)
            await relay.cut()
            await d.wait_for(lambda: st.link is Link.LOST, timeout=10)
            await relay.resume(target_port=second.address[1])

            await d.keys("r")
            await d.wait_for(lambda: "could not rejoin" in st.notice, timeout=10)
            assert "no longer held" in st.notice and "r asks for a new seat" in st.notice
            assert st.link is Link.LOST
            client = ctl.client
            assert client is not None and seat_token(client) is None

            await d.keys("r")
            await d.wait_for(lambda: st.link is Link.CONNECTED, timeout=10)
            await d.wait_for(lambda: any(s.you and s.name == "ann" for s in st.seats))
            assert ctl.client is client and seat_token(client) is not None  # the new seat's
            assert sorted(p.name for p in second.table.players.values()) == ["ann", "greedy bot 1"]
    finally:
        await relay.close()
        await first.close()
        await second.close()


async def test_r_does_nothing_while_connected() -> None:
    server, _ = await host_table(bots=1)
    try:
        join = JoinRequest(f"{LOCAL}:{server.address[1]}", "ann")
        async with board(join=join) as (d, ctl, _task):
            st = ctl.state
            await d.wait_for(lambda: st.screen is Screen.LOBBY)
            client = ctl.client
            await d.keys("r")
            assert st.link is Link.CONNECTED and ctl.client is client
            assert len(server.table.players) == 2
    finally:
        await server.close()
