"""The leave confirmation: y leaves, n or Esc stays, a second Ctrl-C leaves at once; the
host is told what its leaving does to everyone."""

from __future__ import annotations

import pytest
from fake_controls import FakeControls, press
from parts_fake import parts_for

from sorry_lan.i18n import LANGUAGES, use_language
from sorry_lan.tui.screens.leave import question
from sorry_lan.tui.state import Screen, UiState
from sorry_lan.tui.textfit import width


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


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_the_host_is_told_that_leaving_ends_the_game_for_everyone(lang: str) -> None:
    with use_language(lang):
        ask = question(UiState(screen=Screen.GAME))
        assert len(ask) == 1  # a player who leaves ends nothing for the others
        in_game = question(UiState(screen=Screen.GAME, is_host=True))
        in_lobby = question(UiState(screen=Screen.LOBBY, is_host=True))
        box = parts_for(UiState(is_host=True, screen=Screen.GAME)).box(in_game, "x")
    assert in_game[-1] == ask[0] and len(in_game) >= 2 and in_game != in_lobby
    limit = max(width(ask[0]), 40)
    assert all(width(line) <= limit for line in in_game + in_lobby)
    assert max(width(line) for line in box) <= 78  # fits 80 columns with its float's edge
    said = " ".join(in_game[:-1])
    assert "…" not in "".join(box) and said.split()[-1] in "".join(box)  # nothing cut
