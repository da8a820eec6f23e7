"""A phone whose link dies without a word: in a real headless Chromium on the page a
real ``sorry-lan host`` serves, inside a loopback-only network namespace the test
creates (``chromium``'s helpers).  Mid-game an nftables table in that namespace drops
every TCP packet to or from the page's port, both ways (no close, no reset: a phone's
Wi-Fi gone).  The page, hearing no tick, shows its lost words within 2.5 ticks (and its
check's second) and looks for its table; the server drops the silent page after its
quiet; the rule is deleted, and the page is back in its own seat (same colour) and
plays on.  The timings are printed."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path
from typing import Any

from chromium import hosted, pytestmark
from netns import run_in_loopback_netns
from test_browser_follow import _tap

from sorry_lan.i18n import _, use_language
from sorry_lan.web.server import QUIET, TICK

__all__ = ["pytestmark"]

#: The phone and a bot of the host's; the seat's grace outlasts the dead link.
TABLE = ("--players", "2", "--bots", "1", "--grace", "60")
#: When the page must show it lost its table after the link died: 2.5 ticks of
#: silence, its once-a-second check, and room for a loaded machine.
LOST_WITHIN = 2.5 * TICK + 1 + 4
_CUT = """table inet sl_cut {{
  chain in {{ type filter hook input priority 0; tcp dport {port} drop; tcp sport {port} drop; }}
  chain out {{ type filter hook output priority 0; tcp dport {port} drop; tcp sport {port} drop; }}
}}
"""


def _nft(*args: str, script: str | None = None) -> None:
    subprocess.run(["nft", *args], input=script, text=True, check=True, timeout=10)


async def _cut(page: Any, port: int, lost: str, hold: float, shot: Path) -> dict[str, Any]:
    """Drop the page's port both ways until the page shows ``lost`` and ``hold``
    seconds have passed since the cut, then let it through: the page's timings, and
    whether it is back in the seat it had (and plays on)."""
    out: dict[str, Any] = {}
    mine = await page.locator("#seats li.you").get_attribute("class")
    _nft("-f", "-", script=_CUT.format(port=port))
    cut = time.monotonic()
    try:
        await page.wait_for_function(
            "(lost) => document.querySelector('#news').textContent === lost",
            arg=lost, timeout=LOST_WITHIN * 1000)
        out["cut_to_lost_s"] = time.monotonic() - cut
        out["abandoned"] = await page.evaluate("ws === null")
        await page.screenshot(path=str(shot))
        await page.wait_for_timeout(max(0.0, hold - (time.monotonic() - cut)) * 1000)
        out["still_lost"] = await page.locator("#news").text_content() == lost
    finally:
        _nft("delete", "table", "inet", "sl_cut")
    back = time.monotonic()
    await page.wait_for_function(
        "(lost) => opened && ws !== null && document.querySelector('#seats li.you')"
        " && document.querySelector('#news').textContent !== lost",
        arg=lost, timeout=20_000)
    out["restored_to_seat_s"] = time.monotonic() - back
    out["same_colour"] = await page.locator("#seats li.you").get_attribute("class") == mine
    out["taps_after"] = await _tap(page, 1, 40)
    return out


async def _dead_link(shots: Path) -> dict[str, Any]:
    with use_language("en"):
        lost = _("host lost")
    out: dict[str, Any] = {}
    async with hosted(shots / "data", TABLE) as h:
        page = await h.phone()
        problems: list[str] = []
        page.on("pageerror", lambda exc: problems.append(str(exc)))
        await page.goto(h.url)
        await page.fill("#name", "Pip")
        await page.click("#join-button")
        await page.locator("#game").wait_for(state="visible", timeout=30_000)
        out["taps_before"] = await _tap(page, 1, 40)
        # dead past the server's quiet too: the page was dropped, its seat lingered
        out["dropped"] = await _cut(page, h.web, lost, QUIET + 1, shots / "lost.png")
        # back before the server's quiet: the page takes its seat from its dead socket
        out["quick"] = await _cut(page, h.web, lost, 0, shots / "lost-again.png")
        out["problems"] = problems
    return out


def test_a_phone_whose_link_dies_silently_finds_its_seat_again(tmp_path: Path) -> None:
    out = run_in_loopback_netns(lambda: _dead_link(tmp_path), timeout=150)
    print(out, tmp_path / "lost.png")
    assert out["taps_before"] == 1
    for case in ("dropped", "quick"):
        got = out[case]
        assert got["cut_to_lost_s"] > 2.5 * TICK - TICK, case  # the silence told it
        assert got["abandoned"] and got["still_lost"], case
        assert got["same_colour"] and got["taps_after"] == 1, case
    assert out["problems"] == []
