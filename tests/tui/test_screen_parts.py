"""What the screens draw with: the size rule, wrapping to rows, the --ascii look, boxes."""

from __future__ import annotations

from parts_fake import parts_for

from sorry_lan.tui.screens.parts import (
    MIN_COLS,
    MIN_ROWS,
    PANEL_MIN,
    board_geometry,
    too_small,
    wrap_text,
)
from sorry_lan.tui.state import UiState
from sorry_lan.tui.textfit import width


def test_too_small_under_80x24_and_the_board_leaves_the_panel_its_columns() -> None:
    assert too_small(MIN_COLS - 1, MIN_ROWS) and too_small(MIN_COLS, MIN_ROWS - 1)
    assert not too_small(MIN_COLS, MIN_ROWS)
    for cols, rows in ((80, 24), (120, 40), (200, 60)):
        assert board_geometry(cols, rows).width <= cols - PANEL_MIN


def test_wrap_text_indents_and_ends_a_cut_text_in_an_ellipsis() -> None:
    text = wrap_text("one two three four five six seven eight", 12, rows=2)
    lines = text.split("\n")
    assert len(lines) == 2 and lines[0].startswith(" one") and lines[1].startswith("   ")
    assert lines[-1].endswith("…") and all(width(line) <= 12 for line in lines)


def test_ascii_spells_arrows_and_draws_rules_and_boxes_in_ascii() -> None:
    plain, ascii = parts_for(UiState()), parts_for(UiState(), ascii=True)
    assert ascii.text("↑↓ choose · ok…") == "Up/Down choose - ok..."
    assert plain.text("↑↓") == "↑↓" and ascii.glyph("─") == "-" and ascii.ellipsis == "..."
    box = ascii.box(["hello there"], "Title")
    assert box == ["+- Title -----+", "| hello there |", "+-------------+"]
    assert {width(line) for line in plain.box(["hello", "wider line"], "T")} == {14}


def test_a_box_longer_than_the_terminal_scrolls_and_says_what_is_left() -> None:
    body = [f"line {i} of a body wider than what is said under it" for i in range(60)]
    # the terminal outside an application has 40 rows
    top = parts_for(UiState()).box(body, "Help")
    assert "(Down/PgDn: 25 more lines)" in top[-2]
    end = parts_for(UiState()).box(body, "Help", scroll=99)
    assert "(Up/PgUp: back)" in end[-2] and "line 59" in end[-3]
