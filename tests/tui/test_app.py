"""The real application, driven in-process: what is on screen, and what keys do."""

from __future__ import annotations

import pytest
from board_demo import demo_moves
from tui_harness import running

from sorry_lan.rules.board import START
from sorry_lan.rules.variants import Variant
from sorry_lan.tui.board import COMPACT, track_cell
from sorry_lan.tui.options import option_from_compact
from sorry_lan.tui.state import FoundGame, Link, Screen, Seat, UiState

pytestmark = pytest.mark.asyncio


def game_state() -> UiState:
    pos = [START] * 16
    pos[0], pos[1] = 4, 10  # R1 R2
    pos[4] = 8  # B1
    pos[9] = 33  # Y2
    st = UiState(screen=Screen.GAME, link=Link.CONNECTED, you=0, turn=0, card=7)
    st.position = tuple(pos)
    st.set_moves(demo_moves(st.position, 0, 7))
    return st


def board_cell(lines: list[str], sq: int) -> str:
    r, c = track_cell(sq, 0)
    # the top bar takes row 0
    return lines[1 + r][c * COMPACT.cell_w : (c + 1) * COMPACT.cell_w]


async def test_pawns_on_their_cells_and_fits_80x24() -> None:
    async with running(game_state()) as (d, _):
        lines = d.screen_lines()
        assert len(lines) == 24 and all(len(line) == 80 for line in lines)
        assert "R1" in board_cell(lines, 4)
        assert "R2" in board_cell(lines, 10)
        assert "B1" in board_cell(lines, 8)
        assert "Y2" in board_cell(lines, 33)
        text = d.screen_text()
        assert "connected" in lines[0]
        assert "R1 4->11" in text  # the first legal move is listed
        assert "Card: 7" in text


async def test_selection_previews_then_enter_plays() -> None:
    # A card other than the 7: every move is one flat entry.
    pos = [START] * 16
    pos[0], pos[1], pos[4] = 4, 3, 8  # R1 R2 B1
    st = UiState(screen=Screen.GAME, you=0, turn=0, card=5, position=tuple(pos))
    st.set_moves(
        [
            option_from_compact(st.position, (0, 5, 0, 9), 4),
            option_from_compact(st.position, (0, 5, 1, 8), 5),
        ]
    )
    async with running(st) as (d, actions):
        assert board_cell(d.screen_lines(), 9) == ">R1"  # preview of move 1
        await d.keys("2")
        lines = d.screen_lines()
        assert board_cell(lines, 8) == ">B1"  # R2 lands on B1 (bumped: styled)
        assert "hl.bump" in d.styles_at(1 + track_cell(8, 0)[0])[track_cell(8, 0)[1] * 3]
        assert board_cell(lines, 9) != ">R1"
        assert "bumps B1" in d.screen_text()  # the plain description
        assert "first part" not in d.screen_text() and "Enter play " in lines[-1]
        await d.keys("\x1b[A")  # up
        assert st.selected == 0
        await d.keys("\r")
        assert actions.calls == [("play", (4,))]


async def test_mouse_click_selects_a_move() -> None:
    st = game_state()
    async with running(st) as (d, _):
        row = next(i for i, line in enumerate(d.screen_lines()) if " 2  R2 10->17" in line)
        col = d.screen_lines()[row].index(" 2  R2") + 2
        # SGR mouse: press and release at (col+1, row+1)
        await d.keys(f"\x1b[<0;{col + 1};{row + 1}M\x1b[<0;{col + 1};{row + 1}m")
        assert st.selected == 1


async def test_too_small_terminal_and_resize_back() -> None:
    async with running(game_state(), cols=60, rows=20) as (d, _):
        assert "too small" in d.screen_text()
        await d.resize(80, 24)
        assert "too small" not in d.screen_text()
        assert "R1" in board_cell(d.screen_lines(), 4)
        await d.resize(79, 24)
        assert "too small" in d.screen_text()


async def test_large_terminal_uses_the_large_board() -> None:
    async with running(game_state(), cols=120, rows=40) as (d, _):
        text = d.screen_text()
        assert "┌ START" in text  # framed boxes belong to the large layout
        assert " 13 " in text or "13" in text


async def test_ascii_mode_has_no_box_drawing() -> None:
    async with running(game_state(), ascii=True) as (d, _):
        lines = d.screen_lines()
        board = "\n".join(line[:48] for line in lines[1:17])
        assert board.isascii()


async def test_help_and_quit_confirmation() -> None:
    async with running(game_state()) as (d, actions):
        await d.keys("?")
        assert "Rules in short" in d.screen_text()
        await d.keys("?")
        assert "Rules in short" not in d.screen_text()
        await d.keys("q")
        assert "Leave the game?" in d.screen_text()
        await d.keys("n")
        assert "Leave the game?" not in d.screen_text() and actions.calls == []
        d.inp.send_text("qy")
        await d.wait_for(lambda: not d.tui.app.is_running)
        assert actions.calls == [("leave", ())]


async def test_connection_state_is_shown() -> None:
    st = game_state()
    async with running(st) as (d, _):
        st.link, st.link_hint = Link.RECONNECTING, "q to leave"
        await d.settle()
        assert "reconnecting..." in d.screen_lines()[0]
        st.link = Link.LOST
        await d.settle()
        assert "host lost" in d.screen_lines()[0]


async def test_on_turn_while_the_host_is_lost_the_panel_waits_for_it() -> None:
    """No move is offered while the host is away: that is not "no legal move"."""
    st = game_state()
    st.turn, st.you = 0, 0
    st.set_moves([])
    async with running(st) as (d, _):
        assert "(no legal move)" in d.screen_text()
        for link in (Link.LOST, Link.RECONNECTING):
            st.link = link
            await d.settle()
            assert "(waiting for the host)" in d.screen_text()
            assert "(no legal move)" not in d.screen_text()


async def test_on_turn_at_a_new_host_in_play_for_points_the_panel_says_it_waits_for_hands(
) -> None:
    """A successor offers no move until the players' hands are back: the panel says so."""
    st = game_state()
    st.variant, st.card = Variant.POINTS, None
    st.set_moves([])
    st.hands_awaited = True
    async with running(st) as (d, _):
        panel = " ".join(line.split("│")[-1].strip() for line in d.screen_lines())
        assert "(waiting for the other players' hands)" in " ".join(panel.split())
        assert "(no legal move)" not in d.screen_text()
        st.turn = 1  # someone else's turn: the table waits, as for any move
        await d.settle()
        assert "(waiting)" in d.screen_text() and "hands" not in d.screen_text()


async def test_eleven_offers_swaps_and_decline() -> None:
    pos = [START] * 16
    pos[0], pos[4] = 56, 20
    st = UiState(screen=Screen.GAME, you=0, turn=0, card=11, position=tuple(pos))
    st.set_moves(
        [
            option_from_compact(st.position, (2, 11, 0, 4), 0),
            option_from_compact(st.position, (4, 11), 1),
        ]
    )
    async with running(st) as (d, actions):
        text = d.screen_text()
        assert "R1 56<->B1 20" in text and "decline the 11" in text
        await d.keys("2\r")
        assert actions.calls == [("play", (1,))]


async def test_find_screen_joins_selected_game() -> None:
    st = UiState(default_name="ann")
    st.found = [
        FoundGame("bob's game", "127.0.0.1:7001", "1/4"),
        FoundGame("cy's game", "127.0.0.1:7002", "2/4"),
    ]
    async with running(st) as (d, actions):
        assert "bob's game" in d.screen_text()
        await d.keys("\x1b[B\r")
        assert actions.calls == [("join", ("127.0.0.1:7002", "ann", ""))]


async def test_lobby_keys_and_chat() -> None:
    st = UiState(screen=Screen.LOBBY, is_host=True, link=Link.CONNECTED)
    st.seats = [Seat(0, "ann", you=True, host=True), Seat(1, "bot1", bot=True), Seat(2), Seat(3)]
    async with running(st) as (d, actions):
        text = d.screen_text()
        assert "ann" in text and "bot1 [bot]" in text and "(free)" in text
        await d.keys("3 avs")
        await d.keys("thello there\r")
        assert actions.calls == [
            ("choose_colour", (2,)),
            ("ready", ()),
            ("add_bot", ()),
            ("set_variant", (Variant.TEAM,)),
            ("start", ()),
            ("chat", ("hello there",)),
        ]

