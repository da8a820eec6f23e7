"""The game's keys: choose a move, play it, a split 7's levels, the bell."""

from __future__ import annotations

from board_demo import demo_moves
from fake_controls import FakeControls, press

from sorry_lan.rules.board import START
from sorry_lan.tui.menu import MoveMenu, SplitFirst
from sorry_lan.tui.screens.game import summary_lines
from sorry_lan.tui.state import Screen, UiState
from sorry_lan.tui.textfit import width


def _game() -> UiState:
    st = UiState(screen=Screen.GAME)
    st.menu = MoveMenu(())
    return st


def test_enter_plays_and_a_digit_with_no_such_move_says_so() -> None:
    c = FakeControls(_game())
    assert press(c, "enter") and c.called() == ["play"]
    assert press(c, "7") and c.state.notice == "no move 7"


def test_right_opens_a_split_and_the_back_keys_act_only_inside_it() -> None:
    pawns = [START] * 16
    pawns[0], pawns[1] = 5, 10
    c = FakeControls(_game())
    c.state.set_moves(demo_moves(pawns, 0, 7))
    assert not press(c, "escape") and not press(c, "h")
    c.state.selected = next(i for i, e in enumerate(c.state.entries()) if isinstance(e, SplitFirst))
    assert press(c, "right") and c.state.split is not None
    assert press(c, "h") and c.state.split is None


def test_b_rings_or_silences_the_bell() -> None:
    c = FakeControls(_game())
    assert press(c, "b") and not c.state.bell and c.state.notice == "bell off"
    assert press(c, "b") and c.state.bell


def test_the_turn_summary_fits_whole_events_and_counts_the_rest() -> None:
    news = ["Blue (Cai) sent your Y1 back to START", "Green (Dee) played Sorry! on your Y2"]
    lines = summary_lines(news, 31, 8)
    text = " ".join(line.strip() for line in lines)
    assert text == ("Since your last move: Blue (Cai) sent your Y1 back to START; Green (Dee) "
                    "played Sorry! on your Y2.")  # fmt: skip
    assert all(width(line) <= 31 for line in lines)
    short = " ".join(line.strip() for line in summary_lines(news, 31, 3))
    assert short == (
        "Since your last move: Blue (Cai) sent your Y1 back to START; 1 more in the log (L)."
    )
    # one event is shown whole even where it takes more rows than there are
    assert len(summary_lines(news[:1], 31, 1)) == 3
