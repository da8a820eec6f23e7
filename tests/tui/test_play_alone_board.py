"""Playing on alone on the board (issue 31).

The host's ``a``: bound, in the footer and in the help only while its game is paused
because its laptop is cut off; it asks first (y plays on alone, n/Esc waits).  A
``join`` laptop that nobody answers puts the heir's question up in a box (y starts a
game of its own, n/Esc keeps looking) and takes it down when it is withdrawn.  Then
the real controller on a real table on 127.0.0.1 whose link to Bob's laptop is cut:
Ann's board says why her game waits, and a, y plays on alone at her host."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from fake_controls import FakeControls, press
from parts_fake import parts_for
from test_line_alone import two_laptops
from tui_harness import running

from sorry_lan.commands.host import _alone
from sorry_lan.i18n import LANGUAGES, use_language
from sorry_lan.rules.board import START
from sorry_lan.tui.alone import AloneQuestion, cut_off_words
from sorry_lan.tui.controller import ClientController
from sorry_lan.tui.footer import footer_hints
from sorry_lan.tui.helptext import help_text
from sorry_lan.tui.screens.alone import question
from sorry_lan.tui.state import AloneAsk, Link, PlayAlone, Screen, UiState
from sorry_lan.tui.textfit import width


@dataclass
class Host:
    """A stand-in for the host command's ``PlayAlone``: whether it is cut off, and the
    times its person chose to play on alone."""

    cut_off: bool = False
    started: list[str] = field(default_factory=list)

    def play_alone(self) -> PlayAlone:
        def start() -> bool:
            self.started.append("alone")
            return self.cut_off

        return PlayAlone(lambda: self.cut_off, start)


def host_state(host: Host) -> UiState:
    st = UiState(screen=Screen.GAME, link=Link.CONNECTED, is_host=True, you=0)
    st.position = (START,) * 16
    st.play_alone = host.play_alone()
    return st


def asking(st: UiState) -> AloneAsk | None:
    """The question up now (looked at afresh each time)."""
    return st.alone_ask


def _footer_keys(st: UiState) -> list[str]:
    return [hint.key for hint in footer_hints(st)]


def test_a_is_the_host_s_key_only_while_it_is_cut_off() -> None:
    host = Host()
    c = FakeControls(host_state(host))
    assert not press(c, "a") and "a" not in _footer_keys(c.state)
    assert "play on alone" not in help_text(c.state)
    host.cut_off = True
    assert "a" in _footer_keys(c.state)
    assert " a cut off, the game paused: play on alone" in " ".join(help_text(c.state).split())
    player = FakeControls(UiState(screen=Screen.GAME, link=Link.CONNECTED, you=1))
    assert not press(player, "a")  # a join player has no such key


def test_a_asks_first_n_waits_and_y_plays_on_alone() -> None:
    host = Host(cut_off=True)
    c = FakeControls(host_state(host))
    assert press(c, "a")
    up = asking(c.state)
    assert up is not None and up.cut_off
    assert "the others' game goes on without you" in " ".join(question(c.state))
    assert not press(c, "q")  # the question is modal
    assert press(c, "n") and asking(c.state) is None and host.started == []
    assert c.state.notice == "Your game waits for the other laptops."
    assert press(c, "a") and press(c, "escape") and host.started == []
    assert press(c, "a") and press(c, "y") and host.started == ["alone"]
    assert c.state.notice == "You play on alone: a game of your own."
    assert press(c, "a")
    host.cut_off = False  # a majority came back while it asked: nothing chosen, it says so
    assert press(c, "y") and c.state.notice == "your game is not paused"


@pytest.mark.asyncio
async def test_a_join_laptop_s_question_is_up_until_answered_or_withdrawn() -> None:
    st = UiState(screen=Screen.GAME, link=Link.RECONNECTING, you=1)
    controller = ClientController(st)
    asked = AloneQuestion()
    controller.ask_alone(asked)
    answer = asyncio.ensure_future(asked(2))
    await asyncio.sleep(0)
    up = asking(st)
    assert up is not None and not up.cut_off
    assert question(st)[-1] == "y: start here   n/Esc: keep looking"
    assert "No other laptop answers." in " ".join(question(st))
    c = FakeControls(st)
    assert press(c, "y") and asking(st) is None
    assert await answer is True
    answer = asyncio.ensure_future(asked(2))
    await asyncio.sleep(0)
    assert press(c, "n") and await answer is False and asking(st) is None
    answer = asyncio.ensure_future(asked(2))
    await asyncio.sleep(0)
    assert asking(st) is not None
    answer.cancel()  # withdrawn: the table was found again
    await asyncio.sleep(0)
    assert asking(st) is None and not asked.asking


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_both_questions_are_worded_in_every_language_and_fit(lang: str) -> None:
    host = Host(cut_off=True)
    with use_language(lang):
        st = host_state(host)
        st.alone_ask = AloneAsk(lambda yes: None, cut_off=True)
        cut = question(st)
        st.alone_ask = AloneAsk(lambda yes: None)
        joining = question(st)
        box = parts_for(st).box(joining, "x")
        hints = [hint.word for hint in footer_hints(host_state(host))]
    assert cut != joining and len(cut) >= 2 and len(joining) >= 2
    for asked in (cut, joining):  # wrapped to the width of its keys' line
        assert all(width(line) <= max(width(asked[-1]), 40) for line in asked)
    assert max(width(line) for line in box) <= 78
    assert lang == "en" or ("play alone" not in hints and "No other laptop" not in joining[0])


@pytest.mark.asyncio
async def test_on_the_board_the_join_question_shows_and_y_answers_it() -> None:
    st = UiState(screen=Screen.GAME, link=Link.RECONNECTING, you=1)
    st.position = (START,) * 16
    said: list[bool] = []
    async with running(st) as (d, _actions):
        st.alone_ask = AloneAsk(said.append)
        d.tui.invalidate()
        await d.settle()
        assert "No other laptop answers." in d.screen_text()
        await d.keys("y")
        assert said == [True] and "No other laptop" not in d.screen_text()


@pytest.mark.asyncio
async def test_ann_s_board_says_why_her_game_waits_and_a_then_y_plays_on(tmp_path: Path) -> None:
    async with two_laptops(tmp_path, None) as t:
        st = UiState(screen=Screen.LOBBY)
        st.play_alone = _alone(t.hosted.server)
        controller = ClientController(st)
        controller.adopt(t.ann)
        c = FakeControls(st)
        while st.screen is not Screen.GAME:
            await asyncio.sleep(0.05)
        assert not press(c, "a")  # not cut off: nothing to choose
        await t.relay.cut()  # Bob's laptop is gone: Ann's is one of two
        while st.notice != cut_off_words():
            await asyncio.sleep(0.05)
        assert st.screen is Screen.GAME and cut_off_words() in st.log
        assert "a" in _footer_keys(st)
        assert press(c, "a") and press(c, "y")
        assert t.hosted.server.core.alone and not t.hosted.server.core.paused
        assert st.notice == "You play on alone: a game of your own."
        await controller.close()
