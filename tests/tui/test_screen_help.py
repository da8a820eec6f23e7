"""The help overlay's keys: scroll, close; while it is up the screen's keys rest."""

from __future__ import annotations

from fake_controls import FakeControls, press

from sorry_lan.tui.state import Screen, UiState


def test_the_help_scrolls_by_lines_and_pages_and_not_above_its_top() -> None:
    c = FakeControls(UiState(screen=Screen.GAME, help_visible=True))
    assert press(c, "j") and press(c, "pagedown") and c.state.help_scroll == 11
    assert press(c, "pageup") and press(c, "up") and press(c, "k") and c.state.help_scroll == 0


def test_esc_or_question_mark_closes_it_and_the_screens_keys_wait() -> None:
    c = FakeControls(UiState(screen=Screen.GAME, help_visible=True))
    assert not press(c, "enter") and not press(c, "t") and not press(c, "q")
    assert press(c, "escape") and not c.state.help_visible
    c.state.help_visible = True
    assert press(c, "?") and not c.state.help_visible and c.called() == []
