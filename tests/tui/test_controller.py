"""The board as the real client: a HostServer on 127.0.0.1, driven by keys."""

from __future__ import annotations

import logging
import socket

import pytest
from client_harness import LOCAL, board, host_table
from tui_harness import Driver

from sorry_lan.i18n import use_language
from sorry_lan.net.client import ClientOptions, GameClient
from sorry_lan.tui.board import COMPACT, spot, track_cell
from sorry_lan.tui.play import JoinRequest
from sorry_lan.tui.state import Link, Screen, UiState

pytestmark = pytest.mark.asyncio


def closed_port() -> int:
    with socket.socket() as s:
        s.bind((LOCAL, 0))
        return int(s.getsockname()[1])


def over(st: UiState) -> bool:
    return st.screen is Screen.OVER


def our_move(line: str) -> bool:
    """A log line of a move we made (a lost turn, "You: 8, no move...", is not one)."""
    return line.startswith("You: ") and "no move" not in line


def ours(st: UiState) -> int:
    return sum(our_move(line) for line in st.log)


async def play_our_moves(d: Driver, st: UiState, until: int) -> None:
    """Play by keys (Enter on the first legal move) until ``until`` of our moves landed."""
    while ours(st) < until:
        await d.wait_for(lambda: st.your_turn() or over(st), timeout=20)
        if over(st):
            return
        before = ours(st)
        await d.keys("\r")

        def landed(n: int = before) -> bool:
            return ours(st) > n or over(st)

        await d.wait_for(landed, timeout=10)


async def play_to_the_end(d: Driver, st: UiState) -> None:
    """Play by keys (Enter on the first legal move) until the game is over."""
    while not over(st):
        await d.wait_for(lambda: st.your_turn() or over(st), timeout=20)
        if st.your_turn():
            offer = st.moves  # replaced (by []) once the key is handled
            d.inp.send_text("\r")

            def played(o: object = offer) -> bool:
                return st.moves is not o or over(st)

            await d.wait_for(lambda: played() or st.split is not None, timeout=10)
            if not played():  # Enter opened a split 7's first part:
                d.inp.send_text("\r")  # play its first completion
                await d.wait_for(played, timeout=10)


async def test_host_player_starts_and_plays_against_three_bots() -> None:
    server, token = await host_table(bots=3, owner="ann", bot_delay=0.02)
    try:
        client = GameClient(LOCAL, server.address[1], "ann", ClientOptions(token=token))
        await client.connect()
        async with board(client=client) as (d, ctl, _task):
            st = ctl.state
            await d.wait_for(lambda: st.screen is Screen.LOBBY and st.is_host)
            await d.wait_for(lambda: "bot 3 [bot]" in d.screen_text())
            text = d.screen_text()
            assert "ann" in text and "s start" in text and "connected" in d.screen_lines()[0]
            await d.keys("s")
            await d.wait_for(lambda: st.screen is Screen.GAME)
            assert st.you == 0 and st.seated == (0, 1, 2, 3)
            # Our first move: the list on screen is the host's, and Enter plays it.
            await d.wait_for(lambda: st.your_turn(), timeout=20)
            first = st.moves[0]
            await d.settle()
            assert first.notation in d.screen_text()
            assert "Card:" in d.screen_text()
            pawn, end = first.parts[0].pawn, first.parts[0].end
            log_before = len(st.log)
            await d.keys("\r")
            await d.wait_for(lambda: any(our_move(line) for line in list(st.log)[log_before:]))
            # A bot's move follows ours, and is written in the log.
            await d.wait_for(
                lambda: any(" bot " in line and "): " in line
                            for line in list(st.log)[log_before:]),
                timeout=20,
            )
            await d.settle()
            text = d.screen_text()
            assert "You:" in text
            if end < 60:  # our pawn drawn on its square (unless a bot bumped it since)
                r, c = track_cell(end, 0)
                cell = d.screen_lines()[1 + r][c * COMPACT.cell_w : (c + 1) * COMPACT.cell_w]
                assert st.position[pawn] != end or f"R{pawn + 1}" in cell
            assert st.last_move is not None and spot(0, 0) == 0
            await play_our_moves(d, st, until=2)
            assert ours(st) >= 2 or st.screen is Screen.OVER
            d.inp.send_text("qy")
            await d.wait_for(lambda: not d.tui.app.is_running)
    finally:
        await server.close()


async def test_the_lobby_key_a_adds_a_bot_of_the_hosts_chosen_strength() -> None:
    """``sorry-lan host --bot-strength expert``: the owner's ``a`` seats an expert bot
    (not a greedy one), also when asked twice."""
    server, token = await host_table(owner="ann", bot_level="expert")
    try:
        client = GameClient(LOCAL, server.address[1], "ann", ClientOptions(token=token))
        await client.connect()
        async with board(client=client) as (d, ctl, _task):
            st = ctl.state
            await d.wait_for(lambda: st.screen is Screen.LOBBY and st.is_host)
            await d.keys("a")
            await d.wait_for(lambda: "expert bot 1" in d.screen_text())
            assert [p.level for p in server.table.players.values() if p.bot] == ["expert"]
            await d.keys("a")
            await d.wait_for(lambda: "expert bot 2" in d.screen_text())
            assert "greedy" not in d.screen_text()
            d.inp.send_text("qy")
            await d.wait_for(lambda: not d.tui.app.is_running)
    finally:
        await server.close()


async def test_join_by_typed_address_then_game_advances() -> None:
    server, _ = await host_table(bots=1, seats=2, auto_start=True, bot_delay=0.02)
    try:
        async with board() as (d, ctl, _task):
            st = ctl.state
            assert st.screen is Screen.FIND
            await d.keys("\t")  # to the address field
            await d.keys(f"{LOCAL}:{server.address[1]}\r")
            await d.wait_for(lambda: st.screen is Screen.GAME, timeout=10)
            assert st.link is Link.CONNECTED
            turns = st.log.count("the game begins")
            await play_our_moves(d, st, until=3)
            assert turns == 1
            assert ours(st) >= 1
            assert any("bot 1): " in line for line in st.log)
    finally:
        await server.close()


async def test_join_errors_are_shown_and_the_player_can_try_again() -> None:
    server, _ = await host_table(bots=1, seats=4, pin="4321")
    port = server.address[1]
    try:
        async with board(join=JoinRequest(f"{LOCAL}:{closed_port()}", "ann")) as (d, ctl, _t):
            st = ctl.state
            await d.wait_for(lambda: "Could not join" in d.screen_text())
            assert "nobody is hosting" in d.screen_text() and st.screen is Screen.FIND
            # Right address, no PIN: asked for one.
            d.tui.screens.address.text = f"{LOCAL}:{port}"
            await d.keys("\r")
            await d.wait_for(lambda: "needs a PIN" in d.screen_text())
            # The keyboard is in the PIN field at once, and the PIN does not echo.
            await d.wait_for(lambda: d.tui.app.layout.has_focus(d.tui.screens.pin))
            await d.keys("1111")
            assert d.tui.screens.pin.text == "1111"
            assert "1111" not in d.screen_text() and "PIN:     ****" in d.screen_text()
            # Wrong PIN.
            await d.keys("\r")
            await d.wait_for(lambda: "wrong PIN" in d.screen_text())
            assert d.tui.app.layout.has_focus(d.tui.screens.pin)
            # A name already taken (the bot is "greedy bot 1"): the keyboard goes to the name.
            d.tui.screens.pin.text = "4321"
            d.tui.screens.name.text = "Greedy Bot 1"
            await d.keys("\r")
            await d.wait_for(lambda: "name is taken" in d.screen_text())
            await d.wait_for(lambda: d.tui.app.layout.has_focus(d.tui.screens.name))
            # A bad address is refused before any connection.
            d.tui.screens.address.text = "no such:place:1"
            d.tui.screens.name.text = "ann"
            await d.keys("\r")
            await d.wait_for(lambda: "Could not join" in d.screen_text())
            # And finally everything right: the lobby.
            d.tui.screens.address.text = f"{LOCAL}:{port}"
            await d.keys("\r")
            await d.wait_for(lambda: st.screen is Screen.LOBBY)
            assert "ann" in d.screen_text() and "bot 1 [bot]" in d.screen_text()
            # This table has no host player (as a headless one): it says how it starts.
            assert "starts by itself when all 4 seats are taken" in d.screen_text()
    finally:
        await server.close()


async def test_full_table_is_refused_on_screen() -> None:
    server, _ = await host_table(bots=2, seats=2)
    try:
        join = JoinRequest(f"{LOCAL}:{server.address[1]}", "ann")
        async with board(join=join) as (d, ctl, _t):
            await d.wait_for(lambda: "Could not join" in d.screen_text())
            assert "full" in d.screen_text() and ctl.state.screen is Screen.FIND
            assert ctl.state.error.endswith("press Enter to watch it instead")
            await d.keys("\r")  # takes the offer
            await d.wait_for(lambda: ctl.state.screen is Screen.LOBBY)
            assert ctl.client is not None
            assert ctl.client.model.spectate and ctl.client.model.pid is None
    finally:
        await server.close()


async def test_host_lost_is_shown_with_what_to_do() -> None:
    server, _ = await host_table(bots=1)
    join = JoinRequest(f"{LOCAL}:{server.address[1]}", "ann")
    async with board(join=join) as (d, ctl, task):
        st = ctl.state
        await d.wait_for(lambda: st.screen is Screen.LOBBY)
        await server.close()
        await d.wait_for(lambda: st.link is Link.LOST, timeout=10)
        await d.settle()
        top = d.screen_lines()[0]
        assert "host lost" in top and "q leaves" in top
        d.inp.send_text("qy")
        await d.wait_for(lambda: task.done())
        assert task.result() == 1


async def test_a_whole_game_to_the_game_over_screen_then_rematch() -> None:
    server, _ = await host_table(bots=1, seats=2, auto_start=True, bot_delay=0.0, seed=3)
    try:
        join = JoinRequest(f"{LOCAL}:{server.address[1]}", "ann")
        async with board(join=join) as (d, ctl, _task):
            st = ctl.state
            await d.wait_for(lambda: st.screen is Screen.GAME, timeout=10)
            await play_to_the_end(d, st)
            await d.settle()
            text = d.screen_text()
            assert "Game over" in text and ("wins" in text) and "r: rematch" in text
            assert st.winner in text
            await d.keys("r")
            await d.wait_for(lambda: st.screen is Screen.GAME, timeout=10)
            opened = "everyone asked for another game: its lobby is open, with the same seats"
            assert opened in st.log
    finally:
        await server.close()


async def test_warnings_go_to_the_board_log_not_over_the_screen() -> None:
    async with board() as (_d, ctl, _task):
        logging.getLogger("sorry_lan.net.client").warning("heartbeat late by %d s", 3)
        assert "[warning] sorry_lan.net.client: heartbeat late by 3 s" in ctl.state.log
    assert not any(type(h).__name__ == "_LogToBoard" for h in logging.getLogger().handlers)


async def test_a_language_change_reaches_the_host_and_every_lobby() -> None:
    server, token = await host_table(bots=1, owner="ann")
    try:
        client = GameClient(LOCAL, server.address[1], "ann", ClientOptions(token=token, lang="el"))
        await client.connect()
        async with board(client=client) as (d, ctl, _task):
            st = ctl.state
            await d.wait_for(lambda: st.screen is Screen.LOBBY and "Ελληνικά" in d.screen_text())
            with use_language("th"):
                ctl.language_changed()
            await d.wait_for(lambda: "ไทย" in d.screen_text())
            [ann] = [p for p in server.table.players.values() if p.name == "ann"]
            assert ann.lang == "th"
            d.inp.send_text("qy")
            await d.wait_for(lambda: not d.tui.app.is_running)
    finally:
        await server.close()
