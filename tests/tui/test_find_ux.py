"""What a new player sees on the find screen, in the lobby and when the host is lost.

The real application on a pipe input (no network: the actions are recorded), with
assertions on the rendered 80x24 screen: empty states and hints, the highlighted game,
why a game cannot be joined, the keys always readable in the bottom bar, and ``r``
only meaning "rejoin" once the host is lost.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from tui_harness import running

from sorry_lan.discovery import ChangeKind, FoundGame, GameAd, GameEvent, Unjoinable
from sorry_lan.rules.variants import Variant
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
        assert lines[2].startswith(">1. Friday  host Bob · standard · 2/4 seats  10.0.0.5:47474")
        assert "Enter joins the highlighted game" in d.screen_text()
        await d.keys("\r")
        assert actions.calls == [("join", ("10.0.0.5:47474", "tess", ""))]
        assert st.game_title == "Friday"  # the top bar will name it


async def test_a_game_that_cannot_be_joined_says_why() -> None:
    st = UiState(default_name="tess")
    busy = Row("Busy", "10.0.0.5:47474", "host Bob · cannot join: playing", joinable=False)
    st.found = [replace(busy, why="playing")]
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
        assert bottom.rstrip().endswith("q leave") and "…" in bottom


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


async def test_q_on_the_find_screen_quits_without_asking() -> None:
    async with running(UiState(default_name="tess")) as (d, actions):
        d.inp.send_text("q")
        await d.wait_for(lambda: not d.tui.app.is_running)
        assert actions.calls == [("leave", ())] and not d.tui.state.confirm_quit


async def test_a_second_ctrl_c_leaves_at_once() -> None:
    st = UiState(screen=Screen.LOBBY, link=Link.CONNECTED)
    async with running(st) as (d, actions):
        await d.keys("\x03")
        assert st.confirm_quit and "Leave the game?" in d.screen_text()
        d.inp.send_text("\x03")
        await d.wait_for(lambda: not d.tui.app.is_running)
        assert actions.calls == [("leave", ())]


async def test_esc_acts_at_once() -> None:
    """prompt_toolkit waits for the rest of an escape sequence; here only briefly."""
    st = UiState(screen=Screen.LOBBY, link=Link.CONNECTED)
    async with running(st) as (d, _):
        await d.keys("?")
        assert st.help_visible
        d.inp.send_text("\x1b")
        await d.wait_for(lambda: not st.help_visible, timeout=0.2)


async def test_help_is_per_screen_and_per_variant() -> None:
    st = UiState(default_name="tess")
    async with running(st, cols=100, rows=50) as (d, _):
        await d.keys("?")
        text = d.screen_text()
        assert "Find a game" in text and "Rules in short" not in text
        await d.keys("?")
        st.screen, st.link, st.is_host = Screen.LOBBY, Link.CONNECTED, True
        st.variant = Variant.TEAM
        await d.keys("?")
        text = d.screen_text()
        assert "add a bot" in text and "Team play" in text and "Red plays with Yellow" in text
        await d.keys("?")
        st.screen, st.variant = Screen.GAME, Variant.POINTS
        await d.keys("?")
        text = d.screen_text()
        assert "j/k" in text and "Play for points" in text and "Team play" not in text
        await d.keys("?")
        st.spectating = True
        await d.keys("?")
        assert "You have no seat" in d.screen_text() and "j/k" not in d.screen_text()


async def test_lobby_shows_only_real_seats_and_how_the_game_starts() -> None:
    st = UiState(screen=Screen.LOBBY, link=Link.CONNECTED, seat_limit=3, auto_start=True)
    st.seats = [Seat(0, "hal", bot=True, ready=True), Seat(1, "tess", you=True), Seat(2), Seat(3)]
    st.watchers = 2
    async with running(st) as (d, _):
        text = d.screen_text()
        assert text.count("(free)") == 1  # 3 seats: two taken, one free, no fourth
        assert "2 of 3 seats taken · 2 watching" in text
        assert "starts by itself when all 3 seats are taken" in text
        assert "waiting for the host" not in text


async def test_team_lobby_names_partners_and_says_bots_fill_the_table() -> None:
    st = UiState(screen=Screen.LOBBY, link=Link.CONNECTED, variant=Variant.TEAM, is_host=True)
    st.seats = [Seat(0, "ann", you=True, host=True), Seat(1, "bob"), Seat(2), Seat(3)]
    async with running(st) as (d, _):
        lines = d.screen_lines()
        ann = next(line for line in lines if "ann" in line)
        bob = next(line for line in lines if "bob" in line)
        assert "partner Yellow" in ann and "partner Green" in bob
        assert "Team play needs four players: 2 free seats are played by bots." in d.screen_text()


async def test_the_top_bar_shows_the_connection_whole_or_its_state_alone() -> None:
    st = UiState(screen=Screen.GAME, link=Link.RECONNECTING, game_title="Ann's table")
    st.link_hint = "your seat is held; wait, or q to leave"
    async with running(st) as (d, _):
        top = d.screen_lines()[0].rstrip()
        assert top.endswith("● reconnecting...") and "…" not in top
    async with running(st, cols=160) as (d, _):
        top = d.screen_lines()[0].rstrip()
        assert top.endswith("● reconnecting... (your seat is held; wait, or q to leave)")


async def test_help_longer_than_the_terminal_scrolls() -> None:
    st = UiState(screen=Screen.GAME, link=Link.CONNECTED, variant=Variant.POINTS)
    async with running(st) as (d, _):
        await d.keys("?")
        assert "more lines" in d.screen_text() and "Play for points" not in d.screen_text()
        await d.keys("\x1b[6~")  # PgDn
        await d.keys("\x1b[6~")
        assert "Play for points" in d.screen_text() and "Up/PgUp: back" in d.screen_text()
        await d.keys("k" * 30)
        assert "Keys" in d.screen_text() and st.help_scroll == 0


async def test_the_log_view_shows_the_whole_column_of_log() -> None:
    st = UiState(screen=Screen.GAME, link=Link.CONNECTED, you=0, turn=1)
    for i in range(40):
        st.add_log(f"line {i}")
    async with running(st) as (d, _):
        assert "line 39" in d.screen_text() and "line 30" not in d.screen_text()
        await d.keys("L")
        text = d.screen_text()
        assert "line 18" in text and "line 39" in text and "START" not in text  # no board
        await d.keys("\x1b[5~")  # PgUp: further back
        assert "line 0" in d.screen_text() or "line 1 " in d.screen_text()
        await d.keys("L")
        assert "START" in d.screen_text()


async def test_an_empty_search_says_the_likeliest_reason_and_the_address_fallback() -> None:
    from sorry_lan.discovery.doctor import Checkup
    from sorry_lan.discovery.echo import Echo
    from sorry_lan.discovery.interfaces import Kind, NetInterface
    from sorry_lan.i18n import set_language

    eth = NetInterface("eth0", "eth0", ("192.168.1.20",), Kind.LAN)
    echo = (Echo("192.168.1.20", False),)
    lost = Checkup("darwin", False, 47474, (eth,), ("192.168.1.20",), echo)
    asked: list[str] = []

    async def diagnose() -> Checkup:
        asked.append("checkup")
        return lost

    st = UiState(default_name="tess")
    async with running(st) as (d, _actions):
        finder = GameFinder(st, d.tui, diagnose=diagnose, quiet_after=0.05)
        # The screen, not the network: browsing never starts; the search goes quiet.
        st.searching = True
        finder._quiet = None
        finder._nothing_yet()
        await d.wait_for(lambda: "Most likely" in d.screen_text())
        text = d.screen_text()
        assert asked == ["checkup"]
        assert "Local Network" in text and "sorry-lan join --address HOST:PORT" in text
        assert all(len(line) <= 80 for line in d.screen_lines())
        assert "q quit" in d.screen_lines()[-1]
        try:
            await d.keys("g")  # the next language: the reason is worded again
            await d.wait_for(lambda: "Most likely" not in d.screen_text())
            assert "macOS" in d.screen_text()  # still the same reason, in Greek
            assert "sorry-lan join --address HOST:PORT" in d.screen_text()
        finally:
            set_language("en")
        await finder.close()


@pytest.mark.parametrize("lang", ["en", "el", "hi", "lo", "th", "cy"])
@pytest.mark.parametrize("platform", ["win32", "darwin", "linux"])
async def test_the_reason_and_the_fallback_fit_80x24_in_every_language(
    lang: str, platform: str
) -> None:
    from sorry_lan.discovery import nothing_found_message
    from sorry_lan.discovery.advice import likely_reason
    from sorry_lan.discovery.doctor import Checkup
    from sorry_lan.discovery.echo import Echo
    from sorry_lan.discovery.interfaces import Kind, NetInterface
    from sorry_lan.i18n import set_language

    eth = NetInterface("wlp0s20f3", "wlp0s20f3", ("192.168.100.200",), Kind.LAN)
    echo = (Echo("192.168.100.200", False),)  # the longest advice: a lost echo
    lost = Checkup(platform, False, 47474, (eth,), ("192.168.100.200",), echo)
    set_language(lang)
    try:
        st = UiState(default_name="tess", searching=False)
        st.find_message = nothing_found_message(3, reason=likely_reason(lost))
        async with running(st) as (d, _actions):
            lines = d.screen_lines()
            assert any("sorry-lan join --address HOST:PORT" in line for line in lines), lines
            assert any("192.168.100.200" in line for line in lines), lines
            assert "? " in lines[-1]  # the footer's keys still show
    finally:
        set_language("en")
