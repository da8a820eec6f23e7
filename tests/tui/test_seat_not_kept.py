"""The board joining with a data dir that cannot be written: the lobby says, once and
in the player's language, that the seat cannot be kept on this machine (the notice
line and the log), and the game is joined all the same."""

from __future__ import annotations

from pathlib import Path

import pytest
from client_harness import LOCAL, board, host_table

from sorry_lan.i18n import use_language
from sorry_lan.net.client import ClientOptions, GameClient
from sorry_lan.net.seats import SeatStore
from sorry_lan.tui.play import JoinRequest
from sorry_lan.tui.state import Screen

pytestmark = pytest.mark.asyncio


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "your seat cannot be kept on this machine"),
    ("cy", "ni ellir cadw eich sedd ar y peiriant hwn"),
])  # fmt: skip
async def test_the_lobby_says_the_seat_cannot_be_kept(
    tmp_path: Path, lang: str, words: str
) -> None:
    blocker = tmp_path / "blocker"
    blocker.write_text("")  # a file where the data dir should be
    store = SeatStore(blocker / "seats")

    def make_client(host: str, port: int, name: str, pin: str | None) -> GameClient:
        return GameClient(host, port, name, ClientOptions(pin=pin, seats=store))

    server, _ = await host_table(seats=3)
    try:
        with use_language(lang):
            join = JoinRequest(f"{LOCAL}:{server.address[1]}", "ann")
            async with board(join=join, make_client=make_client) as (d, ctl, _task):
                st = ctl.state
                await d.wait_for(lambda: st.screen is Screen.LOBBY, timeout=10)
                await d.settle()
                told = [line for line in st.log if words in line]
                assert len(told) == 1 and str(blocker) in told[0]
                assert st.notice == told[0]
                assert any(words[:30] in line for line in d.screen_lines())
    finally:
        await server.close()
