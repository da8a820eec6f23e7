"""The lobby shows each player's language by its own name, laid out by display width."""

from __future__ import annotations

import unicodedata

import pytest
from tui_harness import running

from sorry_lan.i18n import LANGUAGES, language_name
from sorry_lan.rules.board import Colour
from sorry_lan.rules.variants import Variant
from sorry_lan.tui import cells
from sorry_lan.tui.feed import seats_from_lobby
from sorry_lan.tui.state import Link, Screen, Seat, UiState
from sorry_lan.wire import messages as m
from sorry_lan.wire.records import PlayerInfo


def test_a_language_is_named_in_itself_and_an_unknown_code_as_sent() -> None:
    assert [language_name(c) for c in ("el", "hi", "lo", "th", "cy", "en")] == [
        "Ελληνικά", "हिन्दी", "ລາວ", "ไทย", "Cymraeg", "English",
    ]
    assert language_name("cy-GB") == "Cymraeg"
    assert language_name("pt-BR") == "pt-BR"


def test_the_roster_carries_language_and_program_to_the_seats() -> None:
    lobby = m.Lobby(
        variant=Variant.STANDARD, seats=4, host=0, spectators=0,
        players=(
            PlayerInfo(0, "ann", Colour.RED, False, True, True, lang="th"),
            PlayerInfo(1, "robo", Colour.BLUE, False, True, True, program=True),
        ),
    )
    seats = seats_from_lobby(lobby, 0)
    assert (seats[0].lang, seats[0].program) == ("th", False)
    assert (seats[1].lang, seats[1].program) == (None, True)
    assert seats[2].lang is None


def _row(lines: list[str], name: str) -> str:
    [row] = [line for line in lines if name in line]
    return row.rstrip()


def _ends_with(row: str, text: str) -> bool:
    """``row`` ends with ``text`` (the screen buffer may repeat a trailing combining
    sign of the last cell: the test reads cells, not what the terminal shows)."""
    at = row.rfind(text)
    rest = row[at + len(text) :] if at >= 0 else "x"
    return all(unicodedata.category(c).startswith("M") for c in rest)


@pytest.mark.asyncio
@pytest.mark.parametrize("code", list(LANGUAGES))
async def test_each_players_language_ends_its_lobby_row(code: str) -> None:
    st = UiState(screen=Screen.LOBBY, is_host=True, link=Link.CONNECTED)
    st.seats = [
        Seat(0, "ann", you=True, host=True, lang=code),
        Seat(1, "Βασίλης", ready=True, lang="el"),
        Seat(2, "robo", program=True, ready=True),  # a bot program: no language told
        Seat(3, "pat", lang="pt-BR"),
    ]
    async with running(st) as (d, _):
        lines = d.screen_lines()
        own = _row(lines, "ann")
        assert _ends_with(own, LANGUAGES[code]), own
        assert _ends_with(_row(lines, "Βασίλης"), "Ελληνικά")
        assert _ends_with(_row(lines, "pt-BR"), "pt-BR")
        assert "robo [bot]" in _row(lines, "robo")
        # The languages start in one column (the names before them are steady text),
        # the host's too, whose flags ("not ready, host") are the longest.
        starts = {cells.width(r[: r.rindex(n)]) for r, n in (
            (own, LANGUAGES[code]), (_row(lines, "Βασίλης"), "Ελληνικά"),
            (_row(lines, "pt-BR"), "pt-BR"))}
        assert len(starts) == 1
        for line in lines:  # as a terminal counts, not only as the renderer does
            assert cells.room(line.rstrip()) <= 80, line


@pytest.mark.asyncio
async def test_a_long_name_is_clipped_and_the_language_still_shows() -> None:
    st = UiState(screen=Screen.LOBBY, link=Link.CONNECTED)
    long = "Bartholomew Fitzwilliams"  # 24 characters: more than the name column
    st.seats = [Seat(0, long, lang="hi"), Seat(1), Seat(2), Seat(3)]
    async with running(st) as (d, _):
        [row] = [line.rstrip() for line in d.screen_lines() if "…" in line]
        assert cells.room(row) <= 80 and _ends_with(row, "हिन्दी"), row
        assert "Bartholomew Fitzwilli…" in row
