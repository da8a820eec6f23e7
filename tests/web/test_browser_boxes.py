"""The START and HOME boxes of the phone's board, drawn by the page's own script and
style (``app.js`` ``board()``, ``app.css``) in a real headless Chromium, at a phone's
viewport (390x844) and a tablet's (820x1180): every colour's box with four pawns
shows them two by two, and no pawn's token reaches past its box (a round one: past
its circle), with three pawns too.  The cells are ``web.board``'s, as a screen sends
them; the page is served on loopback inside a network namespace the test creates."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from chromium import CHROMIUM, FLAGS, PHONE, pytestmark
from netns import run_in_loopback_netns
from webkit import served

from sorry_lan.rules.board import HOME, START
from sorry_lan.web.board import cells

__all__ = ["pytestmark"]

TABLET = (820, 1180)

#: Each pawn token that reaches past its cell (past the circle of a round one), and
#: how each cell holding four pawns lays them out: its rows and columns of tokens.
_MEASURE = """(drawn) => {
  board({cells: drawn});
  $("join").hidden = true;
  $("game").hidden = false;
  const out = {past: [], grids: [], tokens: 0};
  for (const cell of document.querySelectorAll("#board .cell")) {
    const c = cell.getBoundingClientRect();
    const round = getComputedStyle(cell).borderTopLeftRadius === "50%";
    const edge = parseFloat(getComputedStyle(cell).borderTopWidth);
    const cx = c.left + c.width / 2, cy = c.top + c.height / 2;
    const rx = c.width / 2 - edge, ry = c.height / 2 - edge;
    const pawns = [...cell.querySelectorAll(".pawn")];
    const rows = new Set(), cols = new Set();
    for (const pawn of pawns) {
      out.tokens += 1;
      const r = pawn.getBoundingClientRect();
      rows.add(Math.round(r.top)); cols.add(Math.round(r.left));
      const corners = [[r.left, r.top], [r.right, r.top], [r.left, r.bottom], [r.right, r.bottom]];
      const inside = round
        ? corners.every(([x, y]) => ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1.0001)
        : r.left >= c.left + edge - 0.5 && r.right <= c.right - edge + 0.5
          && r.top >= c.top + edge - 0.5 && r.bottom <= c.bottom - edge + 0.5;
      const whole = pawn.scrollWidth <= pawn.clientWidth + 0.5 || pawn.clientWidth === 0;
      if (!inside || !whole) {
        out.past.push(pawn.textContent + " in " + cell.className + " " + Math.round(c.width)
                      + "px: " + [r.left, r.top, r.right, r.bottom].map(Math.round).join(","));
      }
    }
    if (pawns.length === 4) out.grids.push([cell.className, rows.size, cols.size]);
  }
  return out;
}"""


def _drawn(pawns: list[int]) -> list[list[Any]]:
    """The cells as a screen sends them (``web.screen``)."""
    return [[c.x, c.y, c.kind, c.colour, list(c.pawns), list(c.area)] for c in cells(pawns)]


#: Every pawn in START; every pawn HOME; three of each colour in START (its fourth
#: HOME), then three HOME (its fourth in START).
LAYOUTS = {
    "start": [START] * 16,
    "home": [HOME] * 16,
    "start3": [HOME if pawn % 4 == 0 else START for pawn in range(16)],
    "home3": [START if pawn % 4 == 0 else HOME for pawn in range(16)],
}


async def _measure(shots: Path) -> dict[str, dict[str, Any]]:
    from playwright.async_api import async_playwright

    out: dict[str, dict[str, Any]] = {}
    async with served() as s, async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        for device, (width, height) in (("phone", PHONE), ("tablet", TABLET)):
            context = await browser.new_context(viewport={"width": width, "height": height},
                                                has_touch=True)
            page = await context.new_page()
            await page.goto(s.url + "/")
            await page.locator("#join").wait_for(state="visible")
            for name, pawns in LAYOUTS.items():
                out[f"{device}-{name}"] = await page.evaluate(_MEASURE, _drawn(pawns))
                await page.locator("#board").screenshot(path=str(shots / f"{device}-{name}.png"))
            await context.close()
        await browser.close()
    return out


@pytest.fixture(scope="module")
def measured(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    shots = tmp_path_factory.mktemp("boxes")
    got = run_in_loopback_netns(lambda: _measure(shots), timeout=120)
    print(sorted(shots.glob("*.png")))
    return got


def test_every_pawn_token_is_whole_inside_its_box(measured: dict[str, dict[str, Any]]) -> None:
    for name, got in measured.items():
        assert got["tokens"] == 16, name
        assert got["past"] == [], (name, got["past"])


def test_four_pawns_in_a_start_or_home_box_are_laid_out_two_by_two(
    measured: dict[str, dict[str, Any]],
) -> None:
    for device in ("phone", "tablet"):
        for name in ("start", "home"):
            grids = measured[f"{device}-{name}"]["grids"]
            assert len(grids) == 4, (device, name, grids)  # every colour's box
            assert all(rows == 2 and cols == 2 for _kind, rows, cols in grids), (device, grids)
