"""The find screen's keys: choose a game, join, the fields, quit at once."""

from __future__ import annotations

from fake_controls import FakeControls, press

from sorry_lan.tui.state import FoundGame, UiState


def test_arrows_choose_around_the_list_enter_joins_tab_moves_between_fields() -> None:
    c = FakeControls(UiState(found=[FoundGame("a", "x:1"), FoundGame("b", "y:2")]))
    assert press(c, "up") and c.state.found_selected == 1
    assert press(c, "down") and c.state.found_selected == 0
    assert press(c, "enter") and press(c, "tab") and press(c, "s-tab")
    assert c.called() == ["join", "focus_next", "focus_previous"]


def test_in_a_field_the_arrows_and_letters_are_the_fields_but_enter_still_joins() -> None:
    c = FakeControls(UiState())
    assert not press(c, "up", typing=True) and not press(c, "q", typing=True)
    assert press(c, "enter", typing=True) and c.called() == ["join"]


def test_q_and_ctrl_c_quit_without_asking() -> None:
    for key in ("q", "c-c"):
        c = FakeControls(UiState())
        assert press(c, key)
        assert c.called() == ["leave"] and not c.state.confirm_quit
