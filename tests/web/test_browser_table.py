"""Phones at one table, in a real headless Chromium driven by Playwright, on the page a
real ``sorry-lan host`` serves inside a loopback-only network namespace the test
creates (the helpers of ``chromium``).

The first table seats two pages: a phone held upright whose browser speaks Greek,
and a tablet (820x1180) switched to Welsh on the page.  Each shows its own
language's words, both play by taps, the tablet's lobby and board fit its width
with touch targets of 44 px at least, and the phone closes its page mid-game for a few
seconds and opens the address again, back in its own seat to play on.  The second table plays for
points with two phones, every WebSocket frame each receives recorded: the hand one
phone is shown is in no frame sent to the other.  Timings and screenshots are
printed; the screenshots stay in the test's tmp dir."""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from chromium import PHONE, hosted, pytestmark
from netns import run_in_loopback_netns
from test_browser_follow import _tap

from sorry_lan.i18n import _, pgettext, use_language

if TYPE_CHECKING:
    from playwright.async_api import WebSocket

__all__ = ["pytestmark"]

TABLET = (820, 1180)
#: Two seats, both pages; the grace outlasts the phone's time away.
TABLE = ("--players", "2", "--bots", "0", "--grace", "30")
POINTS = ("--players", "2", "--bots", "0", "--grace", "30", "--variant", "points")
AWAY_S = 3.0
#: What overflows the page's width, and any control smaller than 44 px either way.
_FITS = """() => {
  const wide = document.scrollingElement.scrollWidth;
  const small = [...document.querySelectorAll('button, select, input, [role=button]')]
    .filter((e) => e.offsetParent !== null)
    .map((e) => [e.id || e.textContent, e.getBoundingClientRect()])
    .filter(([, r]) => r.width < 44 || r.height < 44)
    .map(([name, r]) => name + ' ' + Math.round(r.width) + 'x' + Math.round(r.height));
  return {wide: wide, inner: window.innerWidth, small: small};
}"""


def _catalog(lang: str) -> dict[str, str]:
    """A few of the page's words in ``lang``, from the game's catalogs."""
    with use_language(lang):
        return {"#join-button": pgettext("key", "join"), "#ready": pgettext("key", "ready"),
                "#lang-label": pgettext("key", "language"), "#log-label": pgettext("key", "log")}


async def _words(page: Any, lang: str) -> None:
    """The page shows the catalog's words of ``lang``, most of them not English's."""
    ours, english = _catalog(lang), _catalog("en")
    assert await page.evaluate("document.documentElement.lang") == lang
    differ = 0
    for where, word in ours.items():
        text = (await page.locator(where).text_content() or "").strip()
        assert text == word, (lang, where, text)
        differ += word != english[where]
    assert differ >= 3, (lang, ours)


async def _fits(page: Any, shots: Path, name: str) -> dict[str, Any]:
    fit = await page.evaluate(_FITS)
    await page.screenshot(path=str(shots / f"{name}.png"), full_page=True)
    assert fit["wide"] <= fit["inner"], (name, fit)
    assert fit["small"] == [], (name, fit)
    return dict(fit)


async def _keep_tapping(page: Any) -> int:
    """Tap every move offered (until cancelled); the taps made."""
    taps = 0
    try:
        while True:
            taps += await _tap(page, 1, 60)
    except asyncio.CancelledError:
        return taps


async def _seated(browser: Any, url: str, name: str, size: tuple[int, int],
                  locale: str = "en-GB", lang: str | None = None) -> Any:
    """A page of its own browser context at ``url``, joined as ``name`` (``lang``:
    chosen on the page's language switch first)."""
    context = await browser.new_context(
        viewport={"width": size[0], "height": size[1]}, locale=locale, has_touch=True)
    page = await context.new_page()
    await page.goto(url)
    await page.locator("#join").wait_for(state="visible")
    if lang is not None:
        await page.select_option("#lang", lang)
        await page.wait_for_function("(lang) => document.documentElement.lang === lang", arg=lang)
    await page.fill("#name", name)
    await page.click("#join-button")
    await page.locator("#seats li.you").wait_for(state="attached")
    return page


async def _reopened(page: Any, url: str) -> Any:
    """The page closed and its address opened again in its browser: back in its seat."""
    context = page.context
    await page.close()
    page = await context.new_page()
    await page.goto(url)
    await page.wait_for_function(
        "() => opened && document.querySelector('#seats li.you') !== null", timeout=20_000)
    return page


async def _two_languages(shots: Path) -> dict[str, Any]:
    out: dict[str, Any] = {}
    async with hosted(shots / "data", TABLE) as h:
        browser, url = h.browser, h.url
        phone = await _seated(browser, url, "Eleni", PHONE, locale="el-GR")
        await _words(phone, "el")
        tablet = await _seated(browser, url, "Dai", TABLET, lang="cy")
        await _words(tablet, "cy")
        out["tablet_lobby"] = await _fits(tablet, shots, "tablet-lobby")
        await phone.locator("#game").wait_for(state="visible", timeout=20_000)
        await tablet.locator("#game").wait_for(state="visible", timeout=20_000)
        await _fits(tablet, shots, "tablet-board")
        mine = await phone.locator("#seats li.you").get_attribute("class")
        theirs = await tablet.locator("#seats li.you").get_attribute("class")
        assert mine != theirs
        other = asyncio.create_task(_keep_tapping(tablet))
        out["phone_taps_before"] = await _tap(phone, 2, 40)
        out["tablet_board"] = await _fits(tablet, shots, "tablet-turn")
        # (Chromium's offline emulation leaves open WebSockets be: the page is
        # closed, as a locked phone's browser may, and its address opened again)
        context = phone.context
        await phone.close()
        await asyncio.sleep(AWAY_S)
        phone = await context.new_page()
        back = time.monotonic()
        await phone.goto(url)
        await phone.wait_for_function(
            "() => opened && document.querySelector('#seats li.you') !== null",
            timeout=20_000)
        out["reopened_to_seat_back_s"] = time.monotonic() - back
        assert await phone.locator("#seats li.you").get_attribute("class") == mine
        await phone.locator("#moves button").first.wait_for(state="visible", timeout=30_000)
        out["reopened_to_first_offer_s"] = time.monotonic() - back
        out["phone_taps_after"] = await _tap(phone, 2, 40)
        other.cancel()
        out["tablet_taps"] = await other
        tablet = await _reopened(tablet, url)
        await _words(phone, "el")
        await _words(tablet, "cy")
        await phone.screenshot(path=str(shots / "phone-back.png"))
    return out


@pytest.fixture(scope="module")
def two_languages(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path]:
    """One table for the first three tests: a Greek phone and a Welsh tablet."""
    shots = tmp_path_factory.mktemp("table")
    started = time.monotonic()
    measured = run_in_loopback_netns(lambda: _two_languages(shots), timeout=120)
    measured["whole_s"] = time.monotonic() - started
    print(measured, sorted(shots.glob("*.png")))
    return measured, shots


def test_two_phones_in_two_languages_play_by_taps(
    two_languages: tuple[dict[str, Any], Path]
) -> None:
    measured, _shots = two_languages
    assert measured["phone_taps_before"] == 2 and measured["phone_taps_after"] == 2
    assert measured["tablet_taps"] >= 2


def test_a_tablet_draws_the_lobby_and_board_within_its_width(
    two_languages: tuple[dict[str, Any], Path]
) -> None:
    measured, shots = two_languages
    assert measured["tablet_lobby"]["inner"] == TABLET[0]
    for name in ("tablet-lobby", "tablet-board", "tablet-turn"):
        assert (shots / f"{name}.png").stat().st_size > 1000


def test_a_phone_offline_for_a_while_is_back_in_its_own_seat(
    two_languages: tuple[dict[str, Any], Path]
) -> None:
    measured, _shots = two_languages
    assert measured["reopened_to_seat_back_s"] < 10


def _recorder(into: list[str]) -> Callable[[WebSocket], None]:
    """What records every frame a page's WebSockets receive ``into`` the list."""

    def opened(ws: WebSocket) -> None:
        ws.on("framereceived", lambda data: into.append(str(data)))

    return opened


async def _points(shots: Path) -> dict[str, Any]:
    frames: dict[str, list[str]] = {"A": [], "B": []}
    out: dict[str, Any] = {}
    async with hosted(shots / "data", POINTS) as h:
        browser, url = h.browser, h.url
        pages = {}
        for who in ("A", "B"):
            context = await browser.new_context(
                viewport={"width": PHONE[0], "height": PHONE[1]})
            page = await context.new_page()
            page.on("websocket", _recorder(frames[who]))
            await page.goto(url)
            await page.fill("#name", "Ann" if who == "A" else "Bob")
            await page.click("#join-button")
            await page.locator("#seats li.you").wait_for(state="attached")
            pages[who] = page
        shown: set[str] = set()
        async def watch_b() -> None:
            turn = pages["B"].locator("#turn")
            while True:
                said = await turn.text_content()
                if said and re.search(r"\d", said) and "hand" in said:
                    shown.add(said)
                await asyncio.sleep(0.05)

        watching = asyncio.create_task(watch_b())
        taps = await asyncio.gather(*(_tap(p, 3, 50) for p in pages.values()))
        watching.cancel()
        await pages["B"].screenshot(path=str(shots / "points-b.png"))
        out["taps"] = taps
        out["b_shown"] = sorted(shown)
    out["frames"] = {who: len(got) for who, got in frames.items()}
    out["a_frames"] = frames["A"]
    out["b_frames"] = frames["B"]
    return out


def _hands(frames: list[str]) -> set[str]:
    """The hands a page's frames show it: the cards of each "your hand is" turn."""
    with use_language("en"):
        template = _("It is your turn: your hand is {cards}.")
    head, _sep, tail = template.partition("{cards}")
    found = set()
    for frame in frames:
        turn = json.loads(frame).get("turn") or ""
        if turn.startswith(head):  # (a hand ending in "Sorry!" ends the sentence itself)
            cards = turn[len(head):]
            found.add(cards[: -len(tail)] if tail and cards.endswith(tail) else cards)
    return found


def test_a_points_hand_is_sent_to_its_phone_alone(tmp_path: Path) -> None:
    started = time.monotonic()
    measured = run_in_loopback_netns(lambda: _points(tmp_path), timeout=90)
    seconds = time.monotonic() - started
    a, b = measured.pop("a_frames"), measured.pop("b_frames")
    print({**measured, "whole_s": round(seconds, 1)}, tmp_path / "points-b.png")
    assert measured["taps"] == [3, 3]
    hands_b, hands_a = _hands(b), _hands(a)
    assert len(hands_b) >= 2 and len(hands_a) >= 2  # each was shown its hand
    # what the page drew as B's hand is what B's frames said
    assert {t.split(": ", 1)[1].removesuffix(".") for t in measured["b_shown"]} <= {
        f"your hand is {cards}" for cards in hands_b}
    for cards in hands_b - hands_a:
        assert not any(cards in frame for frame in a), cards
