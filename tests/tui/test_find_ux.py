"""What a new player sees on the find screen, in the lobby and when the host is lost.

The real application on a pipe input (no network: the actions are recorded), with
assertions on the rendered 80x24 screen: empty states and hints, the highlighted game,
why a game cannot be joined, the keys always readable in the bottom bar, and ``r``
only meaning "rejoin" once the host is lost.
"""

from __future__ import annotations

import pytest
from tui_harness import running

from sorry_lan.discovery import ChangeKind, FoundGame, GameAd, GameEvent, Unjoinable
from sorry_lan.tui.finder import GameFinder
from sorry_lan.tui.state import NO_GAME_YET, Link, Screen, Seat, UiState
from sorry_lan.tui.state import FoundGame as Row

pytestmark = pytest.mark.asyncio


def advert(name: str, reason: Unjoinable | None = None) -> FoundGame:
    ad = GameAd(name, "Bob", seats_total=4, seats_taken=2)
    return FoundGame(
        service_name=f"{name}._sorry-lan._tcp.local.",
        instance=name,
        name=name,
        ad=ad,
        addresses=("10.0.0.5",),
        port=47474,
        reason=reason,
        address="10.0.0.5",
    )


async def test_empty_find_screen_says_it_is_searching_and_enter_explains() -> None:
    st = UiState(default_name="tess")
    async with running(st) as (d, actions):
        text = d.screen_text()
        assert "searching the network for games..." in text
        assert "Games appear above as they are found; or type an address below (Tab)." in text
        await d.keys("\r")
        assert actions.calls == [] and st.notice == NO_GAME_YET
        assert NO_GAME_YET in d.screen_lines()[-1]
        assert "q quit" in d.screen_lines()[-1]  # the keys still show beside the notice

        # A game turns up: the stale notice goes, the game is highlighted, the hint changes.
        finder = GameFinder(st, d.tui)
        finder._on_change(GameEvent(ChangeKind.ADDED, advert("Friday")))
        await d.settle()
        assert st.notice == ""
        lines = d.screen_lines()
        assert lines[2].startswith(">1. Friday  10.0.0.5:47474  host Bob")
        assert "Enter joins the highlighted game" in d.screen_text()
        await d.keys("\r")
        assert actions.calls == [("join", ("10.0.0.5:47474", "tess", ""))]
        assert st.game_title == "Friday"  # the top bar will name it


async def test_a_game_that_cannot_be_joined_says_why() -> None:
    st = UiState(default_name="tess")
    st.found = [Row("Busy", "10.0.0.5:47474", "host Bob · cannot join: playing", joinable=False)]
    async with running(st) as (d, actions):
        await d.keys("\r")
        assert actions.calls == []
        assert st.notice == "Busy cannot be joined (playing)"


async def test_typed_address_wins_over_the_list_and_the_hint_says_so() -> None:
    st = UiState(default_name="tess")
    st.found = [Row("Friday", "10.0.0.5:47474", "host Bob")]
    async with running(st) as (d, actions):
        await d.keys("\t")  # to the address field
        await d.keys("192.168.1.9:4000")
        assert "Enter joins the address typed below." in d.screen_text()
        await d.keys("\r")
        assert actions.calls == [("join", ("192.168.1.9:4000", "tess", ""))]
        assert st.game_title == ""  # the controller names it by its address


async def test_long_notices_never_hide_the_keys() -> None:
    st = UiState(screen=Screen.LOBBY, link=Link.CONNECTED)
    st.notice = "cannot say ready: " + "a very long reason " * 10
    async with running(st) as (d, _):
        bottom = d.screen_lines()[-1]
        assert bottom.rstrip().endswith("q leave") and "..." in bottom


async def test_lobby_tells_a_guest_what_happens_next() -> None:
    st = UiState(screen=Screen.LOBBY, link=Link.CONNECTED, game_title="Friday")
    bot, tess = Seat(0, "bot 1", bot=True, ready=True), Seat(1, "tess", you=True)
    st.seats = [bot, tess, Seat(2), Seat(3)]
    async with running(st) as (d, actions):
        text = d.screen_text()
        assert "lobby · Friday" in d.screen_lines()[0]
        assert ">2 Blue    tess" in text and "not ready" in text
        assert "waiting for the host to start the game (space: say you're ready)" in text
        await d.keys(" ")
        assert actions.calls == [("ready", ())]


async def test_r_rejoins_only_when_the_host_is_lost() -> None:
    st = UiState(screen=Screen.OVER, link=Link.CONNECTED, winner="Red wins")
    async with running(st) as (d, actions):
        await d.keys("r")
        assert actions.calls == [("rematch", ())]
        st.link, st.link_hint = Link.LOST, "r rejoins, q leaves"
        await d.settle()
        assert d.screen_lines()[-1].strip() == "r rejoin  ? help  q leave"
        await d.keys("r")
        assert actions.calls[-1] == ("reconnect", ())
        # Typing in the chat box never triggers it.
        st.screen = Screen.GAME
        await d.settle()
        calls = len(actions.calls)
        await d.keys("t")
        await d.keys("r")
        assert len(actions.calls) == calls
        assert d.tui.screens.chat_input.text == "r"
