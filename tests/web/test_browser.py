"""A phone plays a whole game in a real browser: Debian's Chromium, headless, driven by
Playwright at a phone's viewport (390x844), on the page a real ``sorry-lan host``
process serves.  Everything runs in a loopback-only network namespace the test
creates (and the host is told ``--no-mdns`` as well): nothing reaches a real
interface.  The phone joins by its name, sees the lobby, and plays every turn it is
offered by tapping the first move until the game is over; a bot client in the test
fills the third seat.  A split 7 takes two taps: its first pawn's part, then the
split.  Screenshots of the lobby, a turn, a split and the game over are kept
in the test's tmp dir (their paths are printed with the timings)."""

from __future__ import annotations

import asyncio
import re
import statistics
import time
from pathlib import Path
from typing import Any

from chromium import hosted, pytestmark
from netns import run_in_loopback_netns

__all__ = ["pytestmark"]

#: The page told something new since a tap: its log's last line changed.
_TOLD = "(said) => document.querySelector('#log li:last-child')?.textContent !== said"


async def _play(shots: Path) -> dict[str, float]:
    from playwright.async_api import Error as PlaywrightError

    from sorry_lan.net.botrunner import run_bot
    from sorry_lan.net.client import ClientOptions, GameClient

    out: dict[str, float] = {}
    bot: asyncio.Task[object] | None = None
    async with hosted(shots / "data") as h:
        try:
            page = await h.phone()
            problems: list[str] = []
            page.on("console", lambda msg: problems.append(msg.text)
                    if msg.type == "error" else None)
            opened = time.monotonic()
            await page.goto(h.url)
            await page.locator("#join").wait_for(state="visible")
            out["page_drawn_s"] = time.monotonic() - opened
            await page.fill("#name", "Pip")
            tapped = time.monotonic()
            await page.click("#join-button")
            await page.locator("#lobby").wait_for(state="visible")
            await page.locator("#seats li.you").wait_for()
            out["lobby_drawn_s"] = time.monotonic() - tapped
            out["open_to_lobby_s"] = time.monotonic() - opened
            await page.screenshot(path=str(shots / "lobby.png"))
            client = GameClient("127.0.0.1", h.game, "Robo", ClientOptions())
            await client.connect()
            bot = asyncio.create_task(run_bot(client, "greedy"))
            taps = 0
            updated: list[float] = []
            splits = 0
            over = page.locator("#over")
            first_move = page.locator("#moves button").first
            async with asyncio.timeout(45):
                while True:
                    await page.locator("#moves button, #over:not([hidden])").first.wait_for(
                        state="visible", timeout=15_000)
                    if await over.is_visible():
                        break
                    if taps == 0:
                        await page.screenshot(path=str(shots / "turn.png"))
                        await _previewed(page)
                    if await first_move.get_attribute("data-group") is not None:
                        await first_move.click(timeout=1000)  # a split 7's first pawn
                        if not splits:
                            await page.screenshot(path=str(shots / "split.png"))
                        splits += 1
                        continue
                    said = await page.locator("#log li").last.text_content()
                    tap = time.monotonic()
                    try:
                        await first_move.click(timeout=1000)
                        # the board and log updated: the move played is told
                        await page.wait_for_function(_TOLD, arg=said, timeout=3000)
                    except PlaywrightError:  # the offer went (its time ran out) as we tapped
                        continue
                    updated.append(time.monotonic() - tap)
                    taps += 1
            result = await page.locator("#result").inner_text()
            saved = await _saved(page, shots)
            await page.screenshot(path=str(shots / "over.png"))  # (with its links to save)
            out["taps"] = taps
            out["split_first_taps"] = splits
            out["tap_to_update_median_s"] = statistics.median(updated)
            out["tap_to_update_max_s"] = max(updated)
            assert "won" in result, result
            assert saved["text"].splitlines()[-1] in result, (saved["text"], result)
            assert problems == [], problems  # no CSP violation, no script error
        finally:
            if bot is not None:
                bot.cancel()
    return out


async def _previewed(page: Any) -> None:
    """Each plain move on offer shows its number on the cells its pawns end on (a
    phone has no hover to preview with), and only those."""
    labels = await page.locator("#moves button:not([data-group])").all_text_contents()
    numbers = sorted(int(m.group(1)) for t in labels if (m := re.search(r"(\d+)", t)))
    badges = sorted(int(t) for t in await page.locator("#board .badge").all_text_contents())
    assert numbers and sorted(set(badges)) == numbers, (labels, badges)


async def _saved(page: Any, shots: Path) -> dict[str, str]:
    """Save the game's record and its text form with the page's two links, as a
    phone's browser downloads them; the record checked by replaying it."""
    from sorry_lan.records import check, load

    await page.locator("#saves").wait_for(state="visible", timeout=10_000)
    saved: dict[str, str] = {}
    for link, kind in (("#save", "record"), ("#save-text", "text")):
        async with page.expect_download() as info:
            await page.click(link)
        download = await info.value
        name = download.suggested_filename
        assert re.fullmatch(r"sorry-lan-\d{8}-\d{4}-game-1\.(json|txt)", name), name
        await download.save_as(shots / name)
        saved[kind] = (shots / name).read_text(encoding="utf-8")
    check(load(saved["record"].encode()))
    return saved


def test_a_phone_plays_a_whole_game_by_taps(tmp_path: Path) -> None:
    started = time.monotonic()
    measured = run_in_loopback_netns(lambda: _play(tmp_path), timeout=90)
    measured["whole_s"] = time.monotonic() - started
    print({k: round(v, 3) for k, v in measured.items()}, sorted(tmp_path.glob("*.png")))
    assert measured["taps"] >= 5
    assert measured["split_first_taps"] >= 1  # (seed 4 deals the phone a split 7)
    for name in ("lobby", "turn", "split", "over"):
        assert (tmp_path / f"{name}.png").stat().st_size > 1000
