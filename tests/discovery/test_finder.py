"""Picking a game to join: name matching, the choice among several, waiting for one."""

from __future__ import annotations

import asyncio

import pytest
from netns import netns_skip_reason, run_in_loopback_netns

from sorry_lan.discovery import (
    FoundGame,
    GameAd,
    GameAdvertiser,
    GameBrowser,
    Unjoinable,
    async_wait_for_game,
    make_zeroconf,
    matches,
)
from sorry_lan.discovery.finder import _candidate

_skip = netns_skip_reason()
LO = "127.0.0.1"


def found(
    name: str, instance: str | None = None, taken: int = 1, reason: Unjoinable | None = None
) -> FoundGame:
    inst = instance or name
    return FoundGame(
        service_name=f"{inst}._sorry-lan._tcp.local.",
        instance=inst,
        name=name,
        ad=GameAd(name, "Ann", 4, taken),
        addresses=(LO,),
        port=4000,
        reason=reason,
        address=None if reason is Unjoinable.UNREACHABLE else LO,
    )


def test_names_match_by_game_or_instance_ignoring_case_and_spaces() -> None:
    g = found("Friday night", "Friday night-2")
    assert matches(g, None)
    assert matches(g, "friday NIGHT")
    assert matches(g, "  Friday night-2 ")
    assert not matches(g, "Friday")
    assert not matches(g, "Saturday night")


def test_the_fullest_joinable_lobby_is_chosen_and_skips_are_honoured() -> None:
    games = [
        found("Alpha", taken=1),
        found("Beta", taken=3),
        found("Gamma", taken=3, reason=Unjoinable.PLAYING),
        found("Delta", taken=2, reason=Unjoinable.UNREACHABLE),
        found("Beta", "Beta-2", taken=2),
    ]
    pick = _candidate(games, None, ())
    assert pick is not None and pick.instance == "Beta"
    pick = _candidate(games, None, {"Beta._sorry-lan._tcp.local."})
    assert pick is not None and pick.instance == "Beta-2"
    pick = _candidate(games, "alpha", ())
    assert pick is not None and pick.instance == "Alpha"
    assert _candidate(games, "Gamma", ()) is None  # playing: never offered
    assert _candidate(games, "Delta", ()) is None  # unreachable: never offered
    assert _candidate([], None, ()) is None


def test_a_negative_timeout_is_refused() -> None:
    async def go() -> None:
        browser = GameBrowser.__new__(GameBrowser)  # never started: the check comes first
        await async_wait_for_game(browser, -1)

    with pytest.raises(ValueError, match="timeout"):
        asyncio.run(go())


@pytest.mark.netns
@pytest.mark.skipif(_skip is not None, reason=_skip or "")
def test_waiting_finds_a_live_game_and_never_a_dead_one() -> None:
    async def body() -> tuple[str | None, str | None, str | None, float]:
        live = await asyncio.start_server(lambda r, w: w.close(), LO, 0)
        live_port = live.sockets[0].getsockname()[1]
        dead = await asyncio.start_server(lambda r, w: w.close(), LO, 0)
        dead_port = dead.sockets[0].getsockname()[1]
        dead.close()  # advertised, but nobody answers: a killed host's cached record
        await dead.wait_closed()
        host_zc, player_zc = make_zeroconf([LO]), make_zeroconf([LO])
        loop = asyncio.get_running_loop()
        try:
            async with GameBrowser(player_zc) as browser:
                waiting = asyncio.create_task(async_wait_for_game(browser, 5, wanted="later"))
                async with (
                    GameAdvertiser(
                        host_zc,
                        GameAd("Dead", "Ann", 4, 3),
                        dead_port,
                        [LO],
                        cooperating_responders=True,
                    ),
                    GameAdvertiser(
                        host_zc,
                        GameAd("Later", "Bob", 4),
                        live_port,
                        [LO],
                        cooperating_responders=True,
                    ),
                ):
                    got = await waiting
                    t0 = loop.time()
                    dead_pick = await async_wait_for_game(browser, 0.8, wanted="Dead")
                    waited = loop.time() - t0
                    any_pick = await async_wait_for_game(browser, 0.5)
                    return (
                        got.name if got else None,
                        dead_pick.name if dead_pick else None,
                        any_pick.name if any_pick else None,
                        waited,
                    )
        finally:
            live.close()
            await host_zc.async_close()
            await player_zc.async_close()

    got, dead_pick, any_pick, waited = run_in_loopback_netns(body)
    assert (got, dead_pick, any_pick) == ("Later", None, "Later")
    assert 0.7 < waited < 3
