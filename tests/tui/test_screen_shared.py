"""What the tables share: ? opens the help, Ctrl-C asks, host lost's keys."""

from __future__ import annotations

from fake_controls import FakeControls, press

from sorry_lan.tui.screens.shared import HELP_KEY, LOST, SHARED
from sorry_lan.tui.screens.tables import every_table
from sorry_lan.tui.state import Link, Screen, UiState


def test_every_screen_table_holds_the_shared_commands() -> None:
    for table in every_table():
        assert all(command in table.commands for command in SHARED), table.name


def test_help_key_opens_the_help_at_its_top() -> None:
    c = FakeControls(UiState(screen=Screen.GAME, help_scroll=5))
    assert HELP_KEY.keys == ("?",) and press(c, "?")
    assert c.state.help_visible and c.state.help_scroll == 0


def test_ctrl_c_at_a_table_asks_even_while_typing_and_closes_the_help() -> None:
    c = FakeControls(UiState(screen=Screen.LOBBY, help_visible=True))
    assert press(c, "c-c", typing=True)
    assert c.state.confirm_quit and not c.state.help_visible and c.called() == []


def test_host_lost_says_only_rejoin_help_and_leave() -> None:
    assert [c.keys for c in LOST.commands] == [("r",), ("?",), ("q",)]
    c = FakeControls(UiState(screen=Screen.LOBBY, link=Link.LOST, is_host=True))
    assert press(c, "r") and c.called() == ["reconnect"]
