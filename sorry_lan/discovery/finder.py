"""Picking a game to join from a live `GameBrowser` (for `sorry-lan bot` and scripts).

`matches` says whether a found game answers to a name the user typed;
`async_wait_for_game` waits until the browser lists a joinable game that
matches and was not tried yet (or a game under way where the caller says it
holds a seat: those come first).  The caller joins it and, if the host turns
it away (a seat taken a moment earlier), asks again with it skipped.

Nothing here connects to a game; it only reads the browser's list, which
holds nothing but games whose host answered the liveness check, each table once
at its newest host (`GameBrowser.tables`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection

from sorry_lan.discovery.advert import FoundGame
from sorry_lan.discovery.browser import GameBrowser


def matches(game: FoundGame, wanted: str | None) -> bool:
    """True if `wanted` is None or equals the game's name or its mDNS instance name.

    Case and surrounding spaces are ignored, so `--game "friday night"`
    finds "Friday night", and "Friday night-2" picks the renamed one of two
    games with the same name.
    """
    if wanted is None:
        return True
    key = wanted.strip().casefold()
    return key in (game.name.casefold(), game.instance.casefold())


def _candidate(
    games: Collection[FoundGame],
    wanted: str | None,
    skip: Collection[str],
    mine: Callable[[FoundGame], bool] | None = None,
) -> FoundGame | None:
    def seat(g: FoundGame) -> bool:
        return mine is not None and (g.joinable or g.watchable) and mine(g)

    ready = [
        (seat(g), g)
        for g in games
        if g.address is not None and g.service_name not in skip and matches(g, wanted)
    ]
    ready = [(own, g) for own, g in ready if own or g.joinable]
    # Our own seat first, then the fullest lobby (it starts soonest), then by name.
    ready.sort(
        key=lambda x: (not x[0], -(x[1].seats_taken or 0), x[1].name.casefold(), x[1].service_name)
    )
    return ready[0][1] if ready else None


async def async_wait_for_game(
    browser: GameBrowser,
    timeout: float,
    *,
    wanted: str | None = None,
    skip: Collection[str] = (),
    mine: Callable[[FoundGame], bool] | None = None,
) -> FoundGame | None:
    """The first joinable game matching `wanted` (not in `skip`, by service name), or None;
    a full or playing game for which `mine` is true (the caller holds a seat there)
    counts as joinable, and comes first.

    Waits at most `timeout` seconds for one to appear; returns at once if the
    browser already lists one.  The browser must be started.
    """
    if timeout < 0:
        raise ValueError(f"timeout must be >= 0, not {timeout}")
    events = browser.events()
    try:
        found = _candidate(browser.tables, wanted, skip, mine)
        if found is not None:
            return found
        try:
            async with asyncio.timeout(timeout):
                async for _event in events:
                    found = _candidate(browser.tables, wanted, skip, mine)
                    if found is not None:
                        return found
        except TimeoutError:
            return None
        return None  # the browser was closed
    finally:
        await events.aclose()
