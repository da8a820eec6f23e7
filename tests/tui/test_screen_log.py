"""The log's keys: a page back, a page on (not past the newest), the end, the log view."""

from __future__ import annotations

from fake_controls import LOG_PAGE, FakeControls, press

from sorry_lan.tui.screens.log import log_keys
from sorry_lan.tui.state import Screen, UiState


def test_pages_back_and_on_and_to_the_end_even_while_chatting() -> None:
    c = FakeControls(UiState(screen=Screen.GAME))
    assert press(c, "pageup", typing=True) and press(c, "pageup", typing=True)
    assert c.state.log_scroll == 2 * LOG_PAGE
    assert press(c, "pagedown") and c.state.log_scroll == LOG_PAGE
    assert press(c, "pagedown") and press(c, "pagedown") and c.state.log_scroll == 0
    c.state.log_scroll = 33
    assert press(c, "end") and c.state.log_scroll == 0


def test_l_shows_the_log_in_the_boards_place_but_not_while_typing() -> None:
    c = FakeControls(UiState(screen=Screen.OVER))
    assert not press(c, "L", typing=True)
    assert press(c, "L") and c.state.log_view and press(c, "L") and not c.state.log_view


def test_only_the_first_key_carries_the_footer_hint() -> None:
    assert [c.hint is not None for c in log_keys(hint=True)] == [True, False, False, False]
    assert all(c.hint is None for c in log_keys(hint=False))
