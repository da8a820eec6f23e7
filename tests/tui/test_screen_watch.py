"""A watcher's keys: the log, chat, the bell, the language in the lobby; nothing that plays."""

from __future__ import annotations

from fake_controls import FakeControls, press

from sorry_lan.tui.screens.watch import TABLES, WATCHING
from sorry_lan.tui.state import Screen, UiState


def test_a_watcher_has_no_seat_keys() -> None:
    for screen, seat_keys in {
        Screen.LOBBY: "1234 ",
        Screen.GAME: "1234567890jk",
        Screen.OVER: "r",
    }.items():
        c = FakeControls(UiState(screen=screen, spectating=True))
        pressed = [key for key in seat_keys.replace(" ", "") if press(c, key)]
        assert pressed == [] and not press(c, "space") and not press(c, "enter")
        assert c.called() == []


def test_a_watcher_follows_the_log_chats_and_in_the_lobby_changes_language() -> None:
    c = FakeControls(UiState(screen=Screen.GAME, spectating=True))
    assert press(c, "L") and c.state.log_view and press(c, "b") and press(c, "t")
    c = FakeControls(UiState(screen=Screen.LOBBY, spectating=True))
    assert press(c, "g") and c.called() == ["next_language"]


def test_each_watched_table_opens_with_the_watching_note_and_says_so_in_the_help() -> None:
    for table in TABLES.values():
        assert table.commands[0] is WATCHING and table.about is not None
