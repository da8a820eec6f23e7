"""The host's leave dialog when another player's laptop can take the table (protocol
version 4): Enter hands the table over (the default), e ends the game for everyone,
n/Esc stays; with no laptop to take it, the dialog is the old one."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from fake_controls import FakeControls, press
from parts_fake import parts_for
from tui_harness import running

from sorry_lan.i18n import LANGUAGES, use_language
from sorry_lan.rules.board import START
from sorry_lan.tui.screens.leave import question
from sorry_lan.tui.state import HandOver, Link, Screen, UiState
from sorry_lan.tui.textfit import width


@dataclass
class Laptops:
    """A stand-in for the host's hand-over: whether a laptop is there, and the calls."""

    there: bool = True
    started: list[str] = field(default_factory=list)

    def hand_over(self) -> HandOver:
        return HandOver(lambda: self.there, lambda: self.started.append("hand over"))


def host_state(laptops: Laptops, screen: Screen = Screen.GAME) -> UiState:
    st = UiState(screen=screen, link=Link.CONNECTED, is_host=True, you=0)
    st.position = (START,) * 16
    st.hand_over = laptops.hand_over()
    return st


@pytest.mark.parametrize("key", ["enter", "h", "y"])
def test_enter_h_or_y_hands_the_table_over(key: str) -> None:
    c = FakeControls(host_state(Laptops()))
    c.state.confirm_quit = True
    assert press(c, key) and c.called() == ["hand_over"] and not c.state.confirm_quit


def test_e_ends_the_game_and_n_or_esc_stays() -> None:
    c = FakeControls(host_state(Laptops()))
    c.state.confirm_quit = True
    assert press(c, "n") and c.called() == [] and not c.state.confirm_quit
    c.state.confirm_quit = True
    assert press(c, "escape") and c.called() == []
    c.state.confirm_quit = True
    assert press(c, "e") and c.called() == ["leave"]


def test_a_second_ctrl_c_hands_over_when_it_can_and_ends_otherwise() -> None:
    laptops = Laptops()
    c = FakeControls(host_state(laptops))
    assert press(c, "c-c") and press(c, "c-c") and c.called() == ["hand_over"]
    laptops.there = False
    c = FakeControls(host_state(laptops))
    assert press(c, "c-c") and press(c, "c-c") and c.called() == ["leave"]


def test_without_a_laptop_to_take_it_the_host_is_asked_as_before() -> None:
    laptops = Laptops(there=False)
    st = host_state(laptops)
    st.confirm_quit = True
    assert question(st) == question(UiState(screen=Screen.GAME, is_host=True))
    c = FakeControls(st)
    assert not press(c, "enter") and not press(c, "e") and not press(c, "h")
    assert press(c, "y") and c.called() == ["leave"]
    player = FakeControls(UiState(screen=Screen.GAME, hand_over=laptops.hand_over()))
    laptops.there = True  # a player who is not the host has nothing to hand over
    player.state.confirm_quit = True
    assert not press(player, "enter") and press(player, "y") and player.called() == ["leave"]


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_the_choice_is_worded_in_every_language_and_fits(lang: str) -> None:
    laptops = Laptops()
    with use_language(lang):
        in_game = question(host_state(laptops))
        in_lobby = question(host_state(laptops, Screen.LOBBY))
        old = question(UiState(screen=Screen.GAME, is_host=True))
        box = parts_for(host_state(laptops)).box(in_game, "x")
    assert in_game != old and in_game != in_lobby and len(in_game) >= 2
    assert in_game[-1].startswith("Enter")  # the default comes first
    for asked in (in_game, in_lobby):  # wrapped to the width of its keys' line
        assert all(width(line) <= max(width(asked[-1]), 40) for line in asked)
    assert max(width(line) for line in box) <= 78  # fits 80 columns with its float's edge
    assert "…" not in "".join(box) and " ".join(in_game[:-1]).split()[-1] in "".join(box)



@pytest.mark.asyncio
async def test_on_the_board_q_then_enter_hands_the_table_over_and_leaves() -> None:
    laptops = Laptops()
    async with running(host_state(laptops)) as (d, actions):
        await d.keys("q")
        text = d.screen_text()
        assert "You host this table. Hand it" in text and "e: end the game" in text
        await d.keys("n")
        assert "You host this table" not in d.screen_text() and laptops.started == []
        d.inp.send_text("q\r")
        await d.wait_for(lambda: not d.tui.app.is_running)
    assert laptops.started == ["hand over"] and actions.calls == [("leave", ())]
    assert d.tui.state.handed_over


@pytest.mark.asyncio
async def test_on_the_board_q_then_e_ends_the_game_without_handing_over() -> None:
    laptops = Laptops()
    async with running(host_state(laptops)) as (d, actions):
        d.inp.send_text("qe")
        await d.wait_for(lambda: not d.tui.app.is_running)
    assert laptops.started == [] and actions.calls == [("leave", ())]
    assert not d.tui.state.handed_over


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_the_host_is_told_how_to_come_back_in_every_language(lang: str) -> None:
    from sorry_lan.commands.leaving import handed_over_text

    with use_language(lang):
        text = handed_over_text()
    assert "`sorry-lan join`" in text  # the command as it is typed, in every language
    assert lang == "en" or text != handed_over_text()


def test_a_player_whose_laptop_took_the_table_over_is_asked_as_the_host() -> None:
    laptops = Laptops()
    hosting = [True]
    hand = HandOver(lambda: laptops.there, lambda: laptops.started.append("hand over"),
                    hosting=lambda: hosting[0])  # fmt: skip
    st = UiState(screen=Screen.GAME, link=Link.CONNECTED, you=1, hand_over=hand)
    st.confirm_quit = True  # not the owner (a headless table's successor), but it hosts
    assert question(st) == question(host_state(laptops))
    c = FakeControls(st)
    assert press(c, "enter") and c.called() == ["hand_over"]
    laptops.there = False  # nobody to take it: leaving closes it, and it says so
    assert question(st) == question(UiState(screen=Screen.GAME, is_host=True))
    hosting[0] = False  # hosting no more: an ordinary player's question
    assert question(st) == question(UiState(screen=Screen.GAME))
