"""The log's keys: a page back, a page on (not past the newest), the end, the log view."""

from __future__ import annotations

import random

import pytest
from fake_controls import LOG_PAGE, FakeControls, press
from parts_fake import parts_for

from sorry_lan.tui.screens import log as log_module
from sorry_lan.tui.screens.log import LogWindow, log_keys, log_rows
from sorry_lan.tui.state import Screen, UiState
from sorry_lan.tui.textfit import wrap


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


def _window(entries: list[str], scroll: int) -> tuple[LogWindow, UiState]:
    state = UiState(screen=Screen.GAME)
    state.log.extend(entries)
    state.log_scroll = scroll
    return LogWindow(parts_for(state)), state


def _whole(entries: list[str], scroll: int, cols: int, rows: int) -> tuple[str, int]:
    """What the log shows, from every entry wrapped (as it was drawn before)."""
    lines = [line for entry in entries for line in wrap(entry, cols)]
    scroll = max(0, min(scroll, len(lines) - rows))
    end = len(lines) - scroll
    return "\n".join(lines[max(0, end - rows + (1 if scroll else 0)) : end]), scroll


def test_the_log_shows_its_end_and_every_page_back_as_if_all_were_wrapped() -> None:
    pick = random.Random(5)
    words = ["Red", "plays", "a", "Sorry!", "and", "bumps", "Green's", "pawn", "home"]
    entries = [" ".join(pick.choices(words, k=pick.randint(1, 40))) for _ in range(300)]
    for scroll in (0, 1, 7, 60, 250, 10_000):
        window, state = _window(entries, scroll)
        shown = "".join(text for _, text, *_ in window._fragments())
        cols, rows = window._parts.board_width(), log_rows(state)
        expected, clamped = _whole(entries, scroll, cols, rows)
        assert state.log_scroll == clamped
        assert shown.startswith(expected), scroll
        assert shown.count("\n") == rows - 1


def test_a_redraw_wraps_only_the_entries_it_shows(monkeypatch: pytest.MonkeyPatch) -> None:
    """The board slowed down game by game while every entry was wrapped at each redraw."""
    wrapped: list[str] = []

    def counting(text: str, width: int) -> list[str]:
        wrapped.append(text)
        return wrap(text, width)

    monkeypatch.setattr(log_module, "wrap", counting)
    window, state = _window([f"move {n}" for n in range(5000)], 0)
    window._fragments()
    assert 0 < len(wrapped) <= log_rows(state)
    wrapped.clear()
    state.log_scroll = 30
    window._fragments()
    assert len(wrapped) <= log_rows(state) + 30
