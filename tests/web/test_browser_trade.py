"""A phone's seat trades colours and asks for more time as any seat does (protocol
version 6): in a real headless Chromium on the page a real ``sorry-lan host`` serves
inside a loopback-only network namespace the test creates (``chromium``'s
helpers).  Phone A trades with the host's bot (a bot accepts at once); phone B asks A,
who accepts on the page; phone C fills the table; then, on a turn of A's with its
timer, A asks for more time and the button goes (once a turn)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from chromium import PHONE, hosted, pytestmark
from netns import run_in_loopback_netns
from test_browser_table import _seated

__all__ = ["pytestmark"]

#: Four seats: a bot of the host's and three phones; the game starts once C sits.
TABLE = ("--players", "4", "--bots", "1", "--grace", "30")


async def _colour(page: Any) -> str:
    return str(await page.locator("#seats li.you").get_attribute("class"))


async def _trade(shots: Path) -> dict[str, Any]:
    out: dict[str, Any] = {}
    async with hosted(shots / "data", TABLE) as h:
        browser, url = h.browser, h.url
        a = await _seated(browser, url, "Ada", PHONE)
        was = await _colour(a)
        bot = a.locator("#seats li:not(.you) button", has_text="trade").first
        bot_row = await a.locator("#seats li:not(.you)").first.get_attribute("class")
        await bot.click()
        await a.wait_for_function(  # (its row is the bot's colour, and "you")
            "(c) => document.querySelector('#seats li.you').className === c + ' you'",
            arg=bot_row)
        out["traded_with_bot"] = (was, await _colour(a))
        b = await _seated(browser, url, "Bea", PHONE)
        ada = b.locator("#seats li:not(.you)", has_text="Ada")
        a_before, b_before = await _colour(a), await _colour(b)
        await ada.locator("button").click()
        await a.locator("#accept").wait_for(state="visible", timeout=10_000)
        out["asked_text"] = await a.locator("#ask-text").text_content()
        await a.locator("#accept").click()
        await a.wait_for_function(
            "(c) => document.querySelector('#seats li.you').className === c", arg=b_before)
        out["traded"] = ((a_before, b_before), (await _colour(a), await _colour(b)))
        await _seated(browser, url, "Cy", PHONE)  # (the table is full: the game starts)
        more = a.locator("#more-time")
        await more.wait_for(state="visible", timeout=40_000)
        await more.click()
        await more.wait_for(state="hidden", timeout=10_000)
        out["more_time_told"] = await a.locator("#log li", has_text="more seconds").count()
        await a.screenshot(path=str(shots / "more-time.png"))
    return out


def test_phones_trade_colours_and_ask_for_more_time(tmp_path: Path) -> None:
    out = run_in_loopback_netns(lambda: _trade(tmp_path), timeout=100)
    print(out)
    was, now = out["traded_with_bot"]
    assert was != now  # the bot took A's colour and gave its own
    (a_before, b_before), (a_after, b_after) = out["traded"]
    assert (a_after, b_after) == (b_before, a_before)
    assert "Bea" in str(out["asked_text"])
    assert out["more_time_told"] >= 1
