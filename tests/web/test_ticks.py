"""The server's side of a phone at the table: every open page is sent a ``tick`` at
the server's interval, and a page the server hears nothing from (no frame, no pong)
for ``quiet`` seconds is dropped, its seat kept for the page opened again.  A real
host and web server on loopback, pages as aiohttp clients (short intervals)."""

from __future__ import annotations

import asyncio
from itertools import pairwise

import pytest
from webkit import Page, me, served

TICK = 0.2
QUIET = 0.9


@pytest.mark.asyncio
async def test_a_page_is_sent_a_tick_at_once_and_then_every_interval() -> None:
    async with served(tick=TICK) as s:
        page = await s.page()
        loop = asyncio.get_running_loop()
        first = await page.next("tick", timeout=1.0)  # (sent as the page opened)
        assert first == {"t": "tick", "every": TICK}
        times = [loop.time()]
        for _ in range(4):
            await page.next("tick", timeout=5.0)
            times.append(loop.time())
        gaps = [b - a for a, b in pairwise(times)]
        assert min(gaps) > TICK * 0.75, gaps  # at the interval, never in a burst
        await page.ws.close()


@pytest.mark.asyncio
async def test_a_page_that_answers_nothing_is_dropped_after_the_quiet() -> None:
    async with served(tick=TICK, quiet=QUIET) as s:
        loop = asyncio.get_running_loop()
        opened = loop.time()
        silent = await s.page(autoping=False)  # (its client answers no ping)
        await page_closed(silent, within=QUIET + 5)
        waited = loop.time() - opened
        assert waited >= QUIET * 0.9, waited  # not before its quiet was over
        async with asyncio.timeout(5):
            while s.web._open:
                await asyncio.sleep(0.02)


@pytest.mark.asyncio
async def test_a_page_whose_browser_answers_pings_stays_though_it_says_nothing() -> None:
    async with served(tick=TICK, quiet=QUIET) as s:
        page = await s.page()  # (its client answers pings, as a browser does)
        await asyncio.sleep(QUIET * 3)
        assert not page.ws.closed and not page._reader.done()
        page.drain()
        assert (await page.next("tick", timeout=2.0))["t"] == "tick"
        assert len(s.web._open) == 1
        await page.ws.close()


@pytest.mark.asyncio
async def test_a_dropped_page_s_seat_lingers_for_the_page_opened_again() -> None:
    async with served(seats=3, linger=30.0, tick=TICK, quiet=QUIET) as s:
        gone = await s.page(autoping=False)
        token = await gone.join("Ann")
        await gone.until(lambda f: me(f) is not None)
        colour = me(gone.last)["colour"]  # type: ignore[index]
        await page_closed(gone, within=QUIET + 5)
        assert [p.name for p in s.host.table.players.values()] == ["Ann"]  # still seated
        back = await s.page()
        assert await back.join("Ann", token) == token
        seat = me(await back.until(lambda f: me(f) is not None))
        assert seat is not None and seat["colour"] == colour
        await back.ws.close()


async def page_closed(page: Page, within: float) -> None:
    """Wait until the server closed ``page``'s socket (its reader ended)."""
    await asyncio.wait_for(asyncio.shield(page._reader), within)
