"""Picking a game to join from a live `GameBrowser` (for `sorry-lan bot` and scripts).

`matches` says whether a found game answers to a name the user typed;
`async_wait_for_game` waits until the browser lists a joinable game that
matches and was not tried yet.  The caller joins it and, if the host turns
it away (a seat taken a moment earlier), asks again with it skipped.

Nothing here connects to a game; it only reads the browser's list, which
holds nothing but games whose host answered the liveness check.
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection

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
    games: Collection[FoundGame], wanted: str | None, skip: Collection[str]
) -> FoundGame | None:
    ready = [
        g
        for g in games
        if g.joinable
        and g.address is not None
        and g.service_name not in skip
        and matches(g, wanted)
    ]
    # Fullest lobby first (it starts soonest), then by name for a stable choice.
    ready.sort(key=lambda g: (-(g.seats_taken or 0), g.name.casefold(), g.service_name))
    return ready[0] if ready else None


async def async_wait_for_game(
    browser: GameBrowser,
    timeout: float,
    *,
    wanted: str | None = None,
    skip: Collection[str] = (),
) -> FoundGame | None:
    """The first joinable game matching `wanted` (not in `skip`, by service name), or None.

    Waits at most `timeout` seconds for one to appear; returns at once if the
    browser already lists one.  The browser must be started.
    """
    if timeout < 0:
        raise ValueError(f"timeout must be >= 0, not {timeout}")
    events = browser.events()
    try:
        found = _candidate(browser.games.values(), wanted, skip)
        if found is not None:
            return found
        try:
            async with asyncio.timeout(timeout):
                async for _event in events:
                    found = _candidate(browser.games.values(), wanted, skip)
                    if found is not None:
                        return found
        except TimeoutError:
            return None
        return None  # the browser was closed
    finally:
        await events.aclose()
