"""The game over's keys: a rematch (not once the host is lost), the log, chat."""

from __future__ import annotations

from fake_controls import LOG_PAGE, FakeControls, press

from sorry_lan.tui.state import Link, Screen, UiState


def test_r_asks_for_a_rematch_and_after_the_host_is_lost_rejoins() -> None:
    c = FakeControls(UiState(screen=Screen.OVER))
    assert press(c, "r") and c.called() == ["rematch"]
    c = FakeControls(UiState(screen=Screen.OVER, link=Link.LOST))
    assert press(c, "r") and c.called() == ["reconnect"]


def test_the_log_scrolls_and_the_chat_opens() -> None:
    c = FakeControls(UiState(screen=Screen.OVER))
    assert press(c, "pageup") and c.state.log_scroll == LOG_PAGE
    assert press(c, "t") and c.state.chat_open and c.called() == ["focus_chat"]
