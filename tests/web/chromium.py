"""Helpers for the browser lane: a real ``sorry-lan host --headless`` process and
Debian's Chromium, headless, driven by Playwright.

:func:`hosted` starts both and stops both; it creates no network namespace (the
caller runs it inside one: ``netns.run_in_loopback_netns``) and opens no page."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from netns import netns_skip_reason

CHROMIUM = "/usr/bin/chromium"
#: The flags that run Chromium here: no sandbox (root in a container), no GPU, nothing
#: fetched in the background.
FLAGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
PHONE = (390, 844)
#: The table of a whole game: three seats, one of them the host's bot.
TABLE = ("--players", "3", "--bots", "1", "--grace", "5")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(netns_skip_reason() is not None, reason=str(netns_skip_reason())),
    pytest.mark.skipif(shutil.which(CHROMIUM) is None, reason="no Chromium at /usr/bin"),
]


async def host(data: Path, table: tuple[str, ...] = TABLE, bind: str = "127.0.0.1",
               via: tuple[str, ...] = ()) -> tuple[asyncio.subprocess.Process, int, int]:
    """A headless table (``table``: its seats and grace) and its phone page, served at
    ``bind`` (``via``: what the command is run through, e.g. ``ip netns exec NS``):
    the process, the game's port and the page's."""
    env = {**os.environ, "SORRY_LAN_DATA_DIR": str(data), "LANG": "C.UTF-8"}
    proc = await asyncio.create_subprocess_exec(
        *via, sys.executable, "-m", "sorry_lan", "host", "--headless", "--no-mdns", "--lang", "en",
        "--bind", bind, "--port", "0", *table,
        "--bot-delay", "0.05", "--bot-strength", "greedy", "--turn-timeout", "10",
        "--seed", "4",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT, env=env,
    )
    assert proc.stdout is not None
    address = re.compile(rb"http://" + re.escape(bind.encode()) + rb":(\d+)")
    listening = b"listening on " + bind.encode() + b":"
    game = web = 0
    async with asyncio.timeout(40):  # (a loaded machine starts Python slowly)
        while not web:
            line = await proc.stdout.readline()
            assert line, "the host ended before serving the page"
            if line.startswith(listening):
                game = int(line.rsplit(b":", 1)[1])
            found = address.search(line)
            if found and b"listening" not in line:
                web = int(found.group(1))
    return proc, game, web


@dataclass
class Hosted:
    """A running host and a launched Chromium."""

    proc: asyncio.subprocess.Process
    game: int  # the table's port
    web: int  # the page's port
    browser: Any  # playwright's Browser
    url: str  # the page's address

    async def phone(self) -> Any:
        """A new page at a phone's viewport, in the browser's default context."""
        return await self.browser.new_page(viewport={"width": PHONE[0], "height": PHONE[1]})


@asynccontextmanager
async def hosted(data: Path, table: tuple[str, ...] = TABLE, bind: str = "127.0.0.1",
                 via: tuple[str, ...] = ()) -> AsyncIterator[Hosted]:
    """A host (see :func:`host`) and Chromium; on leaving, the browser is closed and
    the host terminated (if it still runs) and waited for."""
    from playwright.async_api import async_playwright

    proc, game, web = await host(data, table, bind, via)
    try:
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                               args=FLAGS)
            try:
                yield Hosted(proc, game, web, browser, f"http://{bind}:{web}/")
            finally:
                await browser.close()
    finally:
        if proc.returncode is None:
            proc.terminate()
        await proc.wait()
