"""The phone follows the table: its host is SIGKILLed mid-game (or, told to stop,
hands its table over) and the page, in a real headless Chromium at a phone's
viewport, finds the laptop that took the table over and plays on there in its own
seat and its own language, with no rescan.

A real ``sorry-lan host --headless`` and two real ``sorry-lan bot`` laptops (each
with its standby, either may host next) run in a loopback-only network namespace
the test creates; the phone joins at the host's page and taps moves; the host is
killed; the bots elect one of them, which hosts the table on its standby's port and
serves the page at that port + 1, where the page looks (it was told the order).
The takeover time the phone sees (from the kill to the board drawn again at the
new host, and to its first move there) is printed with a screenshot of it."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from chromium import hosted, pytestmark
from netns import run_in_loopback_netns

__all__ = ["pytestmark"]

#: The table: the phone and the two bot laptops; the seat grace outlasts the
#: takeover, and the takeover waits 1 s (D) after the host went quiet.
TABLE = ("--players", "3", "--bots", "0", "--grace", "30", "--takeover-delay", "1")


async def _laptop(data: Path, game: int, name: str) -> asyncio.subprocess.Process:
    """A ``sorry-lan bot`` laptop at the table (it may host it next)."""
    env = {**os.environ, "SORRY_LAN_DATA_DIR": str(data / name), "LANG": "C.UTF-8"}
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "sorry_lan", "bot", "--address", f"127.0.0.1:{game}",
        "--name", name, "--think", "0.05", "--timeout", "30", "--lang", "en",
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL, env=env,
    )


async def _tap(page: object, count: int, within: float) -> int:
    """Tap the first move offered ``count`` times (a split 7: its first part, then
    the split); the taps made."""
    from playwright.async_api import Error as PlaywrightError
    from playwright.async_api import Page

    assert isinstance(page, Page)
    first = page.locator("#moves button").first
    taps = 0
    async with asyncio.timeout(within):
        while taps < count:
            await first.wait_for(state="visible", timeout=within * 1000)
            try:
                split = await first.get_attribute("data-group", timeout=1000) is not None
                await first.click(timeout=1000)
            except PlaywrightError:  # the offer went as we tapped
                continue
            if not split:
                taps += 1
                await page.wait_for_timeout(150)
    return taps


async def _first_served(hosts: list[str], since: float) -> float:
    """Seconds from ``since`` until one of ``hosts`` serves its ``/table`` (asked
    every 50 ms): the takeover's own share of what the phone waits."""
    import aiohttp

    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=0.5)) as session:
        while True:
            for base in hosts:
                try:
                    async with session.get(base + "/table") as answer:
                        if answer.status == 200:
                            return time.monotonic() - since
                except (aiohttp.ClientError, TimeoutError):
                    pass
            await asyncio.sleep(0.05)


async def _follow(shots: Path, stop: signal.Signals) -> dict[str, float]:
    laptops: list[asyncio.subprocess.Process] = []
    out: dict[str, float] = {}
    async with hosted(shots / "data", TABLE) as h:
        proc, game_port, web_port = h.proc, h.game, h.web
        try:
            page = await h.phone()
            await page.goto(f"http://127.0.0.1:{web_port}/")
            await page.fill("#name", "Pip")
            await page.click("#join-button")
            await page.locator("#seats li.you").wait_for(state="attached")
            await page.select_option("#lang", "el")  # (the phone reads Greek from now)
            await page.wait_for_function("() => document.documentElement.lang === 'el'")
            for name in ("Ada", "Bea"):
                laptops.append(await _laptop(shots / "data", game_port, name))
            await page.locator("#game").wait_for(state="visible", timeout=40_000)
            mine = await page.locator("#seats li.you").get_attribute("class")
            out["taps_before"] = await _tap(page, 2, 40)
            hosts = await page.evaluate("hosts")  # the next hosts' pages it was told
            assert len(hosts) == 2, hosts
            os.kill(proc.pid, stop)
            killed = time.monotonic()
            served = asyncio.create_task(_first_served(hosts, killed))
            await page.wait_for_function(
                "(port) => location.port !== port && !document.querySelector('#game').hidden",
                arg=str(web_port), timeout=40_000,
            )
            out["kill_to_board_at_new_host_s"] = time.monotonic() - killed
            out["kill_to_new_host_serving_s"] = await served
            await page.screenshot(path=str(shots / "followed.png"))
            await page.locator("#moves button").first.wait_for(state="visible", timeout=40_000)
            out["kill_to_first_offer_s"] = time.monotonic() - killed
            out["taps_after"] = await _tap(page, 2, 40)
            assert await page.locator("#seats li.you").get_attribute("class") == mine
            assert await page.evaluate("document.documentElement.lang") == "el"
            out["new_port"] = float(urlsplit(page.url).port or 0)
            assert page.url.endswith("/")  # the seat's token left the address bar
            assert await page.evaluate("localStorage.getItem('sorry-lan-seat')")
        finally:
            for laptop in laptops:
                if laptop.returncode is None:
                    laptop.terminate()
                await laptop.wait()
            if proc.returncode is None:
                proc.kill()  # (told to stop, it may still be handing its table over)
    out["old_port"] = float(web_port)
    return out


@pytest.mark.parametrize("stop", [signal.SIGKILL, signal.SIGTERM], ids=["killed", "handed"])
def test_the_phone_plays_on_at_the_new_host_when_the_host_goes(
    tmp_path: Path, stop: signal.Signals
) -> None:
    """SIGKILL: the host is lost and the laptops elect its successor; SIGTERM: the
    headless host hands its table over (its phones' seats kept there)."""
    measured = run_in_loopback_netns(lambda: _follow(tmp_path, stop), timeout=150)
    print({k: round(v, 3) for k, v in measured.items()}, tmp_path / "followed.png")
    assert measured["taps_before"] == 2 and measured["taps_after"] == 2
    assert measured["new_port"] != measured["old_port"]
    assert (tmp_path / "followed.png").stat().st_size > 1000
