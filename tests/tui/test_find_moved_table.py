"""The find screen lists a table that moved to another laptop once, at its new host."""

from __future__ import annotations

import pytest
from tui_harness import running

from sorry_lan.discovery import SERVICE_TYPE, ChangeKind, FoundGame, GameAd, GameEvent
from sorry_lan.tui.finder import GameFinder
from sorry_lan.tui.state import UiState

pytestmark = pytest.mark.asyncio


def advert(name: str, host: str, address: str, epoch: int) -> FoundGame:
    ad = GameAd(name, host, seats_total=4, seats_taken=3, table_id="k3v9q2m7x4", epoch=epoch)
    return FoundGame(
        service_name=f"{name}.{SERVICE_TYPE}", instance=name, name=name, ad=ad,
        addresses=(address,), port=47475, reason=None, address=address,
    )


async def test_the_old_and_the_new_host_of_one_table_make_one_row() -> None:
    st = UiState(default_name="tess")
    async with running(st) as (d, actions):
        finder = GameFinder(st, d.tui)
        finder._on_change(GameEvent(ChangeKind.ADDED, advert("Friday", "Ann", "10.0.0.5", 1)))
        await d.settle()
        assert "Friday  host Ann" in d.screen_text()
        # Bob's laptop took the table over; Ann's advert has not gone yet.
        finder._on_change(GameEvent(ChangeKind.ADDED, advert("Friday-2", "Bob", "10.0.0.7", 2)))
        await d.settle()
        text = d.screen_text()
        assert "host Bob" in text and "10.0.0.7:47475" in text
        assert "host Ann" not in text and "10.0.0.5" not in text and "2." not in text
        await d.keys("\r")
        assert actions.calls == [("join", ("10.0.0.7:47475", "tess", ""))]
