"""The game over screen drawn: each player in their place in the standings."""

from __future__ import annotations

import pytest
from tui_harness import running

from sorry_lan.rules.board import HOME, START
from sorry_lan.rules.variants import Variant
from sorry_lan.tui.state import Link, Screen, UiState

pytestmark = pytest.mark.asyncio


def _over(variant: Variant, position: list[int], won: tuple[int, ...]) -> UiState:
    return UiState(
        screen=Screen.OVER, link=Link.CONNECTED, variant=variant, position=tuple(position),
        seated=(0, 1, 2, 3), won=won, winner="Green (Dai) wins",
        names={0: "Ann", 1: "Bob", 2: "Cerys", 3: "Dai"},
    )


async def test_the_result_lists_players_by_place_not_by_seat() -> None:
    position = [START] * 16
    position[0:4] = [HOME, 30, START, START]  # Ann: 1 home, 26 past her exit
    position[4:8] = [HOME, HOME, HOME, START]  # Bob: 3 home
    position[8:12] = [HOME, 4, START, START]  # Cerys: 1 home, 30 past her exit
    position[12:16] = [HOME] * 4  # Dai won
    st = _over(Variant.STANDARD, position, (3,))
    async with running(st) as (d, _actions):
        text = d.screen_text()
        rows = [text.index(f"{n}. {who}") for n, who in
                ((1, "Green (Dai)"), (2, "Blue (Bob)"), (3, "Yellow (Cerys)"), (4, "Red (Ann)"))]
        assert rows == sorted(rows), text


async def test_a_team_shares_its_place() -> None:
    position = [START] * 16
    position[0:4] = [HOME] * 4
    position[8:12] = [HOME] * 4
    position[4:8] = [HOME, START, START, START]
    st = _over(Variant.TEAM, position, (0, 2))
    async with running(st, cols=100, rows=30) as (d, _actions):
        text = d.screen_text()
        for n, who in ((1, "Red (Ann)"), (1, "Yellow (Cerys)"), (2, "Blue (Bob)"),
                       (2, "Green (Dai)")):
            assert f"{n}. {who}" in text, text
