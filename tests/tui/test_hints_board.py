"""The board at a table with hints and a bot that thinks: the real client and host on
127.0.0.1, a real prompt_toolkit screen of 80x24, driven by keys."""

from __future__ import annotations

import re

import pytest
from client_harness import LOCAL, board, host_table

from sorry_lan.net.client import ClientOptions, GameClient
from sorry_lan.tui.menu import MoveMenu, menu_rows
from sorry_lan.tui.options import option_from_compact
from sorry_lan.tui.state import Screen

PERCENT = re.compile(r"^[> ](\d+)\s+(\d+)% ")


def thinking_shown(screen: str) -> bool:
    """The panel says the bot is thinking (its words wrapped to the panel's width)."""
    panel = " ".join(line.split("│")[-1].strip() for line in screen.split("\n"))
    return "Blue (greedy bot 1) is thinking..." in panel


@pytest.mark.asyncio
async def test_the_lobby_tells_hints_the_board_shows_a_bot_thinking_and_h_ranks_moves(
) -> None:
    server, token = await host_table(owner="ann", bots=1, seats=2, hints=True, bot_delay=1.5)
    try:
        client = GameClient(LOCAL, server.address[1], "ann", ClientOptions(token=token))
        await client.connect()
        async with board(client=client) as (d, ctl, _task):
            st = ctl.state
            await d.wait_for(lambda: st.screen is Screen.LOBBY and st.hints_on)
            assert "Hints are on at this table" in d.screen_text()
            await d.keys("s")  # the host starts the game
            await d.wait_for(lambda: st.screen is Screen.GAME)
            # Until our turn comes, the bot's turns show it thinking (its 1.5 s pause).
            seen_thinking = False
            for _ in range(6):
                await d.wait_for(lambda: st.your_turn() or thinking_shown(d.screen_text()),
                                 timeout=20)
                if st.your_turn():
                    break
                seen_thinking = True
                assert thinking_shown(d.screen_text())
                await d.wait_for(lambda: not thinking_shown(d.screen_text()), timeout=20)
            await d.wait_for(lambda: st.your_turn(), timeout=20)
            await d.keys("h")
            await d.wait_for(lambda: bool(st.hints), timeout=20)
            await d.settle()
            lines = d.screen_lines()
            assert len(lines) == 24 and all(len(line) == 80 for line in lines)
            panel = [line.split("│")[-1] for line in lines]
            shown = [int(m.group(2)) for m in map(PERCENT.match, panel) if m]
            assert len(shown) == len(st.menu.top)  # each move with its chance
            assert shown == sorted(shown, reverse=True)  # best first
            assert "best has" in lines[-1]  # the notice names the best chance
            for _ in range(10):  # play on until a bot's turn has been seen thinking
                if seen_thinking or st.screen is not Screen.GAME:
                    break
                if st.your_turn():
                    await d.keys("\r")
                await d.wait_for(lambda: st.your_turn() or thinking_shown(d.screen_text())
                                 or st.screen is not Screen.GAME, timeout=20)
                seen_thinking = thinking_shown(d.screen_text())
            assert seen_thinking
            d.inp.send_text("qy")
    finally:
        await server.close()


def test_hints_order_the_menu_best_first_with_each_chance() -> None:
    pawns = [60] * 16  # off the track: the options' parts are not explained here
    pawns[0], pawns[1] = 10, 20
    moves = [option_from_compact(tuple(pawns), (0, 5, 0, 15), 0),
             option_from_compact(tuple(pawns), (0, 5, 1, 25), 1)]
    menu = MoveMenu(moves, chances={0: 0.31, 1: 0.58})
    assert [e.id for e in menu.top] == [1, 0]  # type: ignore[union-attr]
    rows = menu_rows(menu.top, None, menu.chances)
    assert [r.text.split()[1] for r in rows] == ["58%", "31%"]
    plain = menu_rows(MoveMenu(moves).top, None)
    assert "%" not in " ".join(r.text for r in plain)
