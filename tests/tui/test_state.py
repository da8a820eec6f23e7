"""UI state helpers: selection, timer, highlights, names."""

from __future__ import annotations

from sorry_lan.rules.board import START
from sorry_lan.tui.board import spot
from sorry_lan.tui.options import card_name, option_from_compact
from sorry_lan.tui.state import UiState, card_help

POS = (4, 10) + (START,) * 14


def test_selection_wraps_and_rejects_missing_moves() -> None:
    st = UiState(position=POS)
    assert st.selected_move() is None and not st.select(0)
    st.set_moves(
        [option_from_compact(POS, (0, 5, 0, 9), 7), option_from_compact(POS, (0, 5, 1, 15), 8)]
    )
    assert st.selected_move() is not None and st.selected_move().id == 7  # type: ignore[union-attr]
    st.move_selection(-1)
    assert st.selected == 1
    st.move_selection(1)
    assert st.selected == 0
    assert not st.select(2) and st.selected == 0
    st.set_moves([])
    assert st.selected_move() is None


def test_highlights_follow_the_selection_and_the_last_move() -> None:
    st = UiState(position=POS)
    first = option_from_compact(POS, (0, 5, 0, 9), 0)
    st.set_moves([first, option_from_compact(POS, (0, 5, 1, 15), 1)])
    st.last_move = first
    hl = st.highlights()
    assert (spot(0, 9), 0) in hl.dest and spot(0, 4) in hl.last
    st.select(1)
    assert (spot(0, 15), 1) in st.highlights().dest


def test_timer_names_and_cards() -> None:
    st = UiState(deadline=100.0)
    assert st.seconds_left(now=90.5) == 10
    assert st.seconds_left(now=120.0) == 0
    assert UiState().seconds_left() is None
    st.names = {1: "bob"}
    assert st.player_name(1) == "Blue (bob)" and st.player_name(2) == "Yellow"
    assert card_name(13) == "Sorry!" and card_name(0) == "0" and "split" in card_help(7)
    st.you, st.turn = 0, 0
    assert not st.your_turn()  # no moves yet
