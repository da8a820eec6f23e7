"""The checks the per-language terminal tests apply, on screens made up to break them."""

from __future__ import annotations

from screen_checks import (
    at_column,
    clipped_sentences,
    cut_with_room,
    english_left,
    layout_faults,
    term_width,
    too_wide,
    without_names,
)

from sorry_lan.tui.screens.parts import board_geometry

SEP = board_geometry(80, 24).width


def _screen(title: str, body: list[str], footer: str) -> str:
    rows = [title, *body]
    rows += [" " * SEP + "│"] * (23 - len(rows))
    return "\n".join([*rows, footer])


ENGLISH = _screen(" sorry-lan · game" + " " * 51 + "● connected",
                  [" board".ljust(SEP) + "│ You: Red"], " Enter play")


def test_terminal_width_counts_marks_as_terminals_do() -> None:
    assert term_width("ไทย") == 3  # Thai: no marks here
    assert term_width("ที่") == 1  # a base and two non-spacing marks
    assert term_width("हि") == 2  # the vowel sign takes a column in a terminal
    assert term_width("漢") == 2
    assert at_column(" हि│", 3) == "│"


def test_a_line_wider_than_the_terminal_is_found() -> None:
    assert too_wide("x" * 80) == []
    assert too_wide("x" * 79 + "हि") == ["x" * 79 + "हि"]


def test_english_words_are_found_and_the_catalogs_own_words_allowed() -> None:
    left = english_left(" Τσίπουρο · 4 of 4 seats taken  Esc", "el", {"taken"}, ())
    assert set(left) == {"of", "seats", "taken"}
    # "Sorry!" is the Welsh catalog's own word; key caps are no English
    assert english_left(" Sorry! PgUp/PgDn", "cy", {"sorry"}, ()) == {}


def test_names_and_pawn_tokens_are_not_read_even_when_wrapped() -> None:
    text = without_names(" Πράσινο (greedy\n bot 3) κερδίζει  R1 4->6 xB2", ["greedy bot 3"])
    assert "greedy" not in text and "bot" not in text and "xB" not in text
    assert "Πράσινο" in text and "κερδίζει" in text


def test_a_title_bar_that_ends_short_a_moved_border_and_a_lost_footer_are_found() -> None:
    assert layout_faults(ENGLISH, ENGLISH) == []
    short_title = ENGLISH.replace("● connected", "● συνδ.")
    assert any("title bar" in f for f in layout_faults(short_title, ENGLISH))
    lines = ENGLISH.splitlines()
    lines[1] = " हिन्दी".ljust(SEP) + "│ You: Red"  # padded by code points: the border moves
    assert any("row 1" in f for f in layout_faults("\n".join(lines), ENGLISH))
    lines = [*ENGLISH.splitlines()[:-1], ""]
    assert any("footer" in f for f in layout_faults("\n".join(lines), ENGLISH))


SINCE = "Ers eich symudiad diwethaf: anfonodd Glas (Cai) eich Y1 yn ôl"  # 61 columns


def _panel(rows: list[str]) -> str:
    return _screen(" sorry-lan", [" board".ljust(SEP) + "│" + row for row in rows], " Enter")


def test_a_clipped_sentence_is_found_where_the_whole_one_fits_on_two_lines() -> None:
    whole = _panel([" Ers eich symudiad diwethaf:", "   anfonodd Glas (Cai) eich Y1",
                    "   yn ôl"])  # fmt: skip
    assert clipped_sentences(whole, [SINCE], 31) == [] and cut_with_room(whole) == []
    cut = _panel([" Ers eich symudiad diwethaf:", "   anfonodd Glas (Cai) eich Y…"])
    assert clipped_sentences(cut, [SINCE], 31) == [f"cut: {SINCE!r}"]
    # A sentence longer than two lines may be cut, unless more lines are asked for.
    longer = SINCE + " i DECHRAU"
    assert clipped_sentences(cut, [longer], 31) == []
    assert clipped_sentences(cut, [longer], 31, lines=3) == [f"cut: {longer!r}"]
    # the same cut in the whole width is found too
    assert clipped_sentences(" " + SINCE[:40] + "…\n\n", [SINCE], 80) == [f"cut: {SINCE!r}"]


def test_a_line_cut_above_an_empty_line_is_found_a_row_cut_above_a_row_is_not() -> None:
    cut = _panel([" Ers eich symudiad diwethaf:", "   anfonodd Glas (Cai) eich Y…"])
    assert cut_with_room(cut) == ["cut with room under it (panel): 'anfonodd Glas (Cai) eich Y…'"]
    rows = "\n".join([" 1. Friday  host Konstantina · standa…", " 2. Grandma  host Bob"])
    assert cut_with_room(rows) == []
