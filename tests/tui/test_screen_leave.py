"""The leave confirmation: y leaves, n or Esc stays, a second Ctrl-C leaves at once."""

from __future__ import annotations

from fake_controls import FakeControls, press

from sorry_lan.tui.state import Screen, UiState


def test_y_leaves_and_n_or_esc_stays() -> None:
    c = FakeControls(UiState(screen=Screen.GAME, confirm_quit=True))
    assert press(c, "n") and not c.state.confirm_quit and c.called() == []
    c.state.confirm_quit = True
    assert press(c, "escape") and not c.state.confirm_quit
    c.state.confirm_quit = True
    assert not press(c, "?") and not press(c, "enter")
    assert press(c, "y") and c.called() == ["leave"] and not c.state.confirm_quit


def test_a_second_ctrl_c_leaves() -> None:
    c = FakeControls(UiState(screen=Screen.LOBBY))
    assert press(c, "c-c") and c.called() == []
    assert press(c, "c-c") and c.called() == ["leave"]
