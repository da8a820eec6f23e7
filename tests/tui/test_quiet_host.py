"""A host that stops answering: the board says so at once, with a countdown to the
laptop that takes over, while the link is still up (issue 33)."""

from __future__ import annotations

import time

import pytest
from told import shown
from tui_harness import running

from sorry_lan.client.model import ClientModel, Connection
from sorry_lan.codes import LinkNews
from sorry_lan.tui.state import Link, Screen, UiState

pytestmark = pytest.mark.asyncio


async def test_a_quiet_host_shows_a_countdown_to_the_next_host_until_it_answers() -> None:
    st = UiState(screen=Screen.GAME, link=Link.CONNECTED, game_title="Friday")
    client = ClientModel("ann")
    shown(st, client, Connection(LinkNews.QUIET(seconds=8)))
    assert st.link is Link.CONNECTED and st.quiet_heir
    left = st.quiet_left()
    assert left is not None and 7 <= left <= 8
    assert st.notice == (
        "the host is not answering; if it stays quiet, another laptop takes over in 8 s"
    )
    async with running(st) as (d, _actions):
        top = d.screen_lines()[0]
        assert "host quiet: another laptop in 8s" in top or "in 7s" in top, top
        st.quiet_until = time.monotonic() + 3.2
        await d.settle()
        top = d.screen_lines()[0]  # (4 s, or 3 s on a machine slow to draw)
        assert "host quiet: another laptop in 4s" in top or "in 3s" in top, top
        shown(st, client, Connection(LinkNews.ANSWERS()))
        await d.settle()
        assert st.quiet_left() is None and st.notice == "the host answers again"
        assert "● connected" in d.screen_lines()[0]


async def test_with_no_next_host_the_countdown_is_to_reconnecting() -> None:
    st = UiState(screen=Screen.LOBBY, link=Link.CONNECTED)
    shown(st, ClientModel("ann"), Connection(LinkNews.QUIET_NO_HEIR(seconds=13)))
    assert not st.quiet_heir
    async with running(st) as (d, _actions):
        assert "host quiet: reconnecting in 13s" in d.screen_lines()[0]
    shown(st, ClientModel("ann"), Connection(LinkNews.HELD(reason="x")))
    assert st.quiet_left() is None and st.link is Link.RECONNECTING


@pytest.mark.parametrize("lang", ["el", "en"])
async def test_the_title_bar_keeps_whose_turn_and_the_time_left_whole(lang: str) -> None:
    """A long game name gives way first, then "sorry-lan" (the Greek bar lost its
    countdown: "σειρά: Κόκκινο (Μαρία) · απομένο…")."""
    from sorry_lan.i18n import _, use_language

    with use_language(lang):
        st = UiState(screen=Screen.GAME, link=Link.CONNECTED, game_title="Friday night game",
                     turn=0, names={0: "Μαρία"}, deadline=time.monotonic() + 25.5)
        async with running(st) as (d, _actions):
            top = d.screen_lines()[0]
            # (26 s, or less on a machine slow to draw the first screen)
            assert any(_("{n}s left").format(n=n) in top for n in (24, 25, 26)), top
            assert "Μαρία" in top and "…" not in top.split("●")[0], top
