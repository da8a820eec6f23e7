"""A split 7 chosen in two steps, on the rendered screen of the real application.

The offers are the rules engine's legal moves, sent through the client's own path
(``feed.options_for`` on a ``LegalMoves`` message), so what is listed and played is
what a host would offer.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from tui_harness import Driver, running

from sorry_lan.rules.board import START
from sorry_lan.rules.cards import Card
from sorry_lan.rules.movegen import generate
from sorry_lan.rules.moves import MoveContext
from sorry_lan.tui.board import COMPACT, track_cell
from sorry_lan.tui.feed import options_for
from sorry_lan.tui.menu import SplitFirst
from sorry_lan.tui.screens.parts import board_geometry
from sorry_lan.tui.state import Link, Screen, UiState
from sorry_lan.wire import messages as m
from sorry_lan.wire import records as r

pytestmark = pytest.mark.asyncio

RED = tuple(range(4))
CTX = MoveContext(RED, RED, (0,), (0,))
UP, DOWN, LEFT, RIGHT = "\x1b[A", "\x1b[B", "\x1b[D", "\x1b[C"
BACKSPACE = "\x7f"


def opened(st: UiState) -> SplitFirst | None:
    """The first part whose completions are listed (read afresh: keys change it)."""
    return st.split


def key_of(first: SplitFirst | None) -> tuple[int, int, int] | None:
    return None if first is None else first.key


def position() -> tuple[int, ...]:
    pos = [START] * 16
    pos[0], pos[1], pos[2] = 4, 10, 20  # R1 R2 R3
    pos[4] = 8  # B1
    return tuple(pos)


def offer(pos: tuple[int, ...], cards: Sequence[Card]) -> m.LegalMoves:
    moves = [mv for card in cards for mv in generate(pos, card, CTX)]
    options = tuple(
        r.MoveOption(id=100 + i, notation=mv.notation(), move=mv.compact())
        for i, mv in enumerate(moves)
    )
    return m.LegalMoves(sid=1, moves=options, timeout=None)


def seven_state(hand: tuple[int, ...] = ()) -> UiState:
    st = UiState(screen=Screen.GAME, link=Link.CONNECTED, you=0, turn=0, position=position())
    st.card = None if hand else 7
    st.hand = hand
    cards = [Card(c) for c in sorted(set(hand))] if hand else [Card.SEVEN]
    st.set_moves(options_for(st.position, offer(st.position, cards), st.hand))
    return st


def move_id(st: UiState, compact: tuple[int, ...]) -> int:
    return next(o.id for o in st.moves if o.compact == compact)


def panel(d: Driver) -> list[str]:
    """The move list's side of the screen (right of the board), between the bars."""
    width = board_geometry(d.cols, len(d.screen_lines())).width
    return [line[width + 1 :].rstrip() for line in d.screen_lines()[1:-1]]


def panel_words(d: Driver) -> str:
    """The side panel as one line of words (wrapped descriptions joined up)."""
    return " ".join(" ".join(panel(d)).split())


def cell(d: Driver, sq: int) -> str:
    row, col = track_cell(sq, 0)
    return d.screen_lines()[1 + row][col * COMPACT.cell_w : (col + 1) * COMPACT.cell_w]


def cell_style(d: Driver, sq: int) -> str:
    row, col = track_cell(sq, 0)
    return d.styles_at(1 + row)[col * COMPACT.cell_w + 1]


def row_of(d: Driver, text: str) -> tuple[int, int]:
    """(row, column) on screen of the first occurrence of ``text``."""
    for y, line in enumerate(d.screen_lines()):
        if text in line:
            return y, line.index(text)
    raise AssertionError(f"{text!r} not on screen:\n{d.screen_text()}")


async def click(d: Driver, text: str) -> None:
    y, x = row_of(d, text)
    await d.keys(f"\x1b[<0;{x + 2};{y + 1}M\x1b[<0;{x + 2};{y + 1}m")


async def test_a_seven_lists_single_moves_and_first_parts() -> None:
    st = seven_state()
    async with running(st, cols=120, rows=40) as (d, _):
        lines = panel(d)
        start = lines.index(">1  R1 4->11")
        listed = lines[start : start + 22]
        assert listed == [
            ">1  R1 4->11",
            " 2  R2 10->17",
            " 3  R3 20->27",
            " split the 7, first part:",
            " 4  R1 4->5 (1), then 6 more...",
            " 5  R1 4->6 (2), then 5 more...",
            " 6  R1 4->7 (3), then 4 more...",
            " 7  R1 4->8 xB1 (4), then 3 more...",
            " 8  R1 4->9 (5), then 2 more...",
            " 9  R2 10->11 (1), then 6 more...",
            " 10 R2 10->12 (2), then 5 more...",
            " 11 R2 10->13 (3), then 4 more...",
            " 12 R2 10->14 (4), then 3 more...",
            " 13 R2 10->15 (5), then 2 more...",
            " 14 R2 10->16>19 (6), then 1 more...",
            " 15 R3 20->21 (1), then 6 more...",
            " 16 R3 20->22 (2), then 5 more...",
            " 17 R3 20->23 (3), then 4 more...",
            " 18 R3 20->24>28 (4), then 3 more...",
            " 19 R3 20->25 (5), then 2 more...",
            " 20 R3 20->26 (6), then 1 more...",
            "",
        ]
        assert not any("7: R" in line for line in lines)  # no whole split listed flat
        assert "Enter play/open" in d.screen_lines()[-1]


async def test_choosing_a_first_part_lists_only_its_completions_and_enter_plays_it() -> None:
    st = seven_state()
    async with running(st) as (d, actions):
        await d.keys("5")  # R1 4->6 (2)
        # The board previews the first part alone: its path, R1's new square.
        assert cell(d, 6) == ">R1" and "hl.path" in cell_style(d, 5)
        assert "R2" in cell(d, 10) and "hl.path" not in cell_style(d, 12)
        assert "first R1 forward 2: 4 to 6, then 5 more with another pawn" in panel_words(d)
        await d.keys("\r")
        lines = panel(d)
        start = lines.index("< R1 4->6 (2), then:")
        assert lines[start + 1 : start + 3] == [">1 R2 10->15", " 2 R3 20->25"]
        assert not any("R1 4->11" in line or "then 6 more" in line for line in lines)
        # The whole move is previewed: both parts.
        assert cell(d, 6) == ">R1" and cell(d, 15) == ">R2" and "hl.path" in cell_style(d, 12)
        assert "Esc/← back" in d.screen_lines()[-1]
        await d.keys(DOWN)
        assert cell(d, 25) == ">R3" and cell(d, 15) != ">R2"
        assert "then R3 forward 5: 20 to 25" in panel_words(d)
        await d.keys("\r")
        assert actions.calls == [("play", (move_id(st, (1, 7, 0, 6, 2, 25)),))]


@pytest.mark.parametrize("back", [LEFT, BACKSPACE, "\x1b", "h"])
async def test_back_returns_to_the_first_parts(back: str) -> None:
    st = seven_state()
    async with running(st) as (d, actions):
        await d.keys(DOWN * 4 + RIGHT)  # -> opens the highlighted first part
        assert opened(st) is not None and "< R1 4->6 (2), then:" in d.screen_text()
        if back == "\x1b":  # a lone Esc is read once the input goes quiet
            d.inp.send_text(back)
            await d.wait_for(lambda: opened(st) is None)
            await d.settle()
        else:
            await d.keys(back)
        assert opened(st) is None
        assert any(line.startswith(">5  R1 4->6 (2)") for line in panel(d))
        assert "R1 4->11" in d.screen_text() and actions.calls == []
        await d.keys(UP)
        assert st.selected == 3


async def test_digits_and_arrows_at_both_levels() -> None:
    st = seven_state()
    async with running(st) as (d, actions):
        await d.keys("7")  # R1 4->8 xB1: the bump is previewed
        assert cell(d, 8) == ">B1" and "hl.bump" in cell_style(d, 8)
        await d.keys("j\r")  # j: down to R1 4->9, Enter opens it
        assert key_of(opened(st)) == (7, 0, 9)
        await d.keys("2")
        assert panel(d)[panel(d).index("< R1 4->9 (5), then:") + 2] == ">2 R3 20->22"
        await d.keys("3")  # there is no third completion
        assert "no move 3" in d.screen_lines()[-1] and st.selected == 1
        await d.keys("k")
        assert st.selected == 0
        await d.keys("\r")
        assert actions.calls == [("play", (move_id(st, (1, 7, 0, 9, 1, 12)),))]


async def test_a_split_is_found_from_either_pawn_by_two_digits() -> None:
    """R3's 2 with R2's 5 was offered as "R2 first": it is under R3's first part too."""
    st = seven_state()
    async with running(st, cols=120, rows=40) as (d, actions):
        await d.keys("16")  # typed quickly: entry 16, not 1 then 6
        assert key_of(st.selected_entry()) == (7, 2, 22)  # type: ignore[arg-type]
        await d.keys("\r")
        lines = panel(d)
        start = lines.index("< R3 20->22 (2), then:")
        assert lines[start + 1 : start + 3] == [">1 R1 4->9", " 2 R2 10->15"]
        await d.keys("2\r")
        assert actions.calls == [("play", (move_id(st, (1, 7, 1, 15, 2, 22)),))]


async def test_digits_typed_apart_start_a_new_number() -> None:
    st = seven_state()
    assert st.type_digit("1", now=100.0) and st.selected == 0
    assert st.type_digit("2", now=100.5) and st.selected == 11  # 12
    assert st.type_digit("3", now=102.0) and st.selected == 2  # a pause: 3 alone
    assert st.type_digit("0", now=104.0) and st.selected == 9  # 0 alone is 10
    assert st.type_digit("9", now=104.1) and st.selected == 8  # no entry 109: 9 alone
    assert st.type_digit("2", now=106.0) and st.type_digit("5", now=106.2)  # no 25: 5
    assert st.selected == 4
    st.set_moves(st.moves[:3])  # three moves: no 10th, nor a 4th
    assert not st.type_digit("0", now=108.0) and not st.type_digit("4", now=110.0)


async def test_a_first_part_with_one_completion_still_asks_for_it() -> None:
    st = seven_state()
    async with running(st) as (d, actions):
        await d.keys("9\r")  # R2 10->11 (1): only R3 can take the other 6
        lines = panel(d)
        start = lines.index("< R2 10->11 (1), then:")
        assert lines[start + 1 : start + 3] == [">1 R3 20->26", ""]
        assert actions.calls == []
        await d.keys("\r")
        assert actions.calls == [("play", (move_id(st, (1, 7, 1, 11, 2, 26)),))]


async def test_mouse_at_both_levels() -> None:
    st = seven_state()
    async with running(st) as (d, actions):
        await click(d, "R1 4->7 (3)")
        assert st.selected == 5 and opened(st) is None  # the first click selects
        assert cell(d, 7) == ">R1"
        await click(d, "R1 4->7 (3)")  # a click on the highlighted first part opens it
        assert key_of(opened(st)) == (7, 0, 7)
        await click(d, "R3 20->24>28")
        assert st.selected == 1 and cell(d, 28) == ">R3"  # the slide's end is previewed
        assert actions.calls == []
        await click(d, "< R1 4->7 (3)")  # the heading goes back
        assert opened(st) is None and st.selected == 5
        await click(d, "R2 10->17")
        assert st.selected == 1
        await click(d, "R2 10->17")  # a second click on a move does not play it
        assert actions.calls == [] and opened(st) is None
        await d.keys("\r")
        assert actions.calls == [("play", (move_id(st, (0, 7, 1, 17)),))]


async def test_play_for_points_offers_the_same_two_steps() -> None:
    st = seven_state(hand=(3, 7))
    async with running(st, cols=120, rows=40) as (d, actions):
        lines = panel(d)
        assert ">1  [3] R1 4->7" in lines
        assert " [7] split the 7, first part:" in lines
        assert " 4  [7] R1 4->11" in lines and " 8  [7] R1 4->6 (2), then 5 more..." in lines
        await d.keys("8")
        assert "play the 7: split the 7: first R1 forward 2" in panel_words(d)
        await d.keys(RIGHT)
        lines = panel(d)
        start = lines.index("< [7] R1 4->6 (2), then:")
        assert lines[start + 1 : start + 3] == [">1 R2 10->15", " 2 R3 20->25"]
        await d.keys(DOWN + "\r")
        assert actions.calls == [("play", (move_id(st, (1, 7, 0, 6, 2, 25)),))]


async def test_a_new_offer_returns_to_the_top_level() -> None:
    st = seven_state()
    async with running(st) as (d, _):
        await d.keys("5\r")
        assert opened(st) is not None
        st.set_moves(options_for(st.position, offer(st.position, [Card.SEVEN])))
        await d.settle()
        assert opened(st) is None and ">1  R1 4->11" in panel(d)
        assert "Enter play/open" in d.screen_lines()[-1]


async def test_help_names_the_split_keys() -> None:
    async with running(seven_state()) as (d, _):
        await d.keys("?")
        text = d.screen_text()
        assert "split 7: open a first part's second parts" in text
        assert "Esc, <-, h, Bksp  split 7: back to the first parts" in text
