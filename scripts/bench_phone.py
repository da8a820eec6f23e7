#!/usr/bin/env python3
"""The phone's page, timed in a real headless Chromium (needs root and Linux; never
touches a real interface).

Two settings, each in network namespaces this script creates and deletes:

* loopback: the host and the browser in one namespace with only ``lo``;
* link: the host in one namespace, the browser in another, joined by a veth pair
  (a real LAN's and Wi-Fi's own delay is not modelled: netem is not everywhere).

Each round starts a real ``sorry-lan host --headless`` (a phone and a bot of the
host's: ``tests/web/chromium.py``'s helpers, as the browser tests use), opens its
address in a fresh browser context and times it until the lobby is drawn with the
phone's seat (the name typed and joined, as ``tests/web/test_browser.py`` times it);
then the phone taps the first move offered until ``--taps`` taps are timed, each from
the tap to the board drawn anew (a new game when one ends).  Medians and p95 are
printed; with few rounds, p95 is about the slowest.  It asserts nothing.

Usage: sudo python3 scripts/bench_phone.py [--rounds 5] [--taps 40]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import functools
import os
import pickle
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests" / "discovery"), str(REPO / "tests" / "web")]

#: A phone and a bot of the host's: the game starts as the phone sits.
TABLE = ("--players", "2", "--bots", "1", "--grace", "30")
CLONE_NEWNET = 0x40000000
#: The board's cells and pawns, as drawn.
_BOARD = "() => document.querySelector('#board').innerHTML"
_REDRAWN = "(was) => document.querySelector('#board').innerHTML !== was"


def refuse() -> str | None:
    """Why this cannot run here, or None."""
    if sys.platform != "linux":
        return "bench_phone.py needs Linux (network namespaces)"
    if os.geteuid() != 0:
        return "bench_phone.py needs root (it creates network namespaces): run it with sudo"
    if shutil.which("ip") is None:
        return "bench_phone.py needs the 'ip' command (iproute2)"
    from chromium import CHROMIUM

    if shutil.which(CHROMIUM) is None:
        return f"bench_phone.py needs Chromium at {CHROMIUM}"
    return None


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=10)


def in_namespace(name: str, fn: Callable[[], Coroutine[Any, Any, Any]], timeout: float) -> Any:
    """``asyncio.run(fn())`` in a forked child inside the namespace ``name``; its
    result (or its failure, raised here)."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        status = 0
        try:
            os.close(read_fd)
            libc = ctypes.CDLL(None, use_errno=True)
            with open(f"/run/netns/{name}") as ns:
                if libc.setns(ns.fileno(), CLONE_NEWNET) != 0:
                    raise OSError(ctypes.get_errno(), "setns")
            payload = pickle.dumps(("ok", asyncio.run(asyncio.wait_for(fn(), timeout))))
        except BaseException:
            status = 1
            payload = pickle.dumps(("error", traceback.format_exc()))
        with os.fdopen(write_fd, "wb") as out:
            out.write(payload)
        os._exit(status)
    os.close(write_fd)
    with os.fdopen(read_fd, "rb") as inp:
        data = inp.read()
    os.waitpid(pid, 0)
    kind, value = pickle.loads(data)
    if kind != "ok":
        raise RuntimeError(f"failure inside namespace {name}:\n{value}")
    return value


class Namespaces:
    """The namespaces of one setting: ``phone`` (the browser) and ``table`` (the
    host), the same one for loopback; all deleted on leaving."""

    def __init__(self, link: bool) -> None:
        prefix = f"sl-{os.getpid()}-{secrets.token_hex(3)}"
        self.phone = f"{prefix}-phone"
        self.table = f"{prefix}-table" if link else self.phone
        subnet = secrets.randbelow(250) + 1
        self.address = f"10.78.{subnet}.1" if link else "127.0.0.1"
        self._phone_address = f"10.78.{subnet}.2"
        self.link = link
        self._made: list[str] = []

    def __enter__(self) -> Namespaces:
        try:
            for name in dict.fromkeys((self.phone, self.table)):
                _ip("netns", "add", name)
                self._made.append(name)
                _ip("-n", name, "link", "set", "lo", "up")
            if self.link:
                _ip("-n", self.phone, "link", "add", "eth0", "type", "veth",
                    "peer", "name", "eth0", "netns", self.table)
                for name, address in ((self.table, self.address),
                                      (self.phone, self._phone_address)):
                    _ip("-n", name, "addr", "add", f"{address}/24", "dev", "eth0")
                    _ip("-n", name, "link", "set", "eth0", "up")
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        while self._made:
            with contextlib.suppress(subprocess.SubprocessError, OSError):
                subprocess.run(["ip", "netns", "del", self._made.pop()],
                               capture_output=True, timeout=10, check=False)


async def _taps(page: Any, wanted: int, into: list[float]) -> None:
    """Tap the first move offered until ``wanted`` taps are timed (into ``into``) or
    the game is over."""
    from playwright.async_api import Error as PlaywrightError

    first = page.locator("#moves button").first
    while len(into) < wanted:
        await page.locator("#moves button, #over:not([hidden])").first.wait_for(
            state="visible", timeout=30_000)
        if await page.locator("#over").is_visible():
            return
        try:
            if await first.get_attribute("data-group", timeout=1000) is not None:
                await first.click(timeout=1000)  # a split 7's first part: drawn here alone
                continue
            was = await page.evaluate(_BOARD)
            tapped = time.monotonic()
            await first.click(timeout=1000)
            await page.wait_for_function(_REDRAWN, arg=was, timeout=5000)
        except PlaywrightError:  # the offer went as we tapped
            continue
        into.append(time.monotonic() - tapped)


async def _round(data: Path, ns: Namespaces, taps: int) -> dict[str, Any]:
    """One host, one phone: the open's time, then the taps' (new games as needed)."""
    from chromium import PHONE, hosted

    via = ("ip", "netns", "exec", ns.table) if ns.link else ()
    out: dict[str, Any] = {"taps": []}
    async with hosted(data, TABLE, bind=ns.address, via=via) as h:
        context = await h.browser.new_context(viewport={"width": PHONE[0], "height": PHONE[1]})
        page = await context.new_page()
        opened = time.monotonic()
        await page.goto(h.url)
        await page.fill("#name", "Pip")
        await page.click("#join-button")
        await page.locator("#seats li.you").wait_for(state="attached")
        out["open_to_lobby"] = time.monotonic() - opened
        while len(out["taps"]) < taps:
            await _taps(page, taps, out["taps"])
            if len(out["taps"]) < taps:
                await page.click("#rematch")
                await page.locator("#game").wait_for(state="visible", timeout=30_000)
                await page.locator("#over").wait_for(state="hidden", timeout=30_000)
    return out


def _figures(values: list[float]) -> str:
    ms = sorted(v * 1000 for v in values)
    p95 = statistics.quantiles(ms, n=20, method="inclusive")[18] if len(ms) > 1 else ms[0]
    return (f"median {statistics.median(ms):7.1f} ms  p95 {p95:7.1f} ms  "
            f"min {ms[0]:7.1f}  max {ms[-1]:7.1f}  (n={len(ms)})")


def setting(link: bool, rounds: int, taps: int) -> dict[str, list[float]]:
    opens: list[float] = []
    timed: list[float] = []
    with Namespaces(link) as ns, tempfile.TemporaryDirectory() as tmp:
        for n in range(rounds):
            per_round = taps // rounds + (n < taps % rounds)
            data = Path(tmp) / f"round{n}"
            got = in_namespace(ns.phone, functools.partial(_round, data, ns, per_round),
                               timeout=300)
            opens.append(got["open_to_lobby"])
            timed.extend(got["taps"])
    return {"opens": opens, "taps": timed}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="hosts started, one open each")
    parser.add_argument("--taps", type=int, default=40, help="taps timed in all, per setting")
    args = parser.parse_args()
    why = refuse()
    if why is not None:
        sys.exit(why)
    for name, link in (("loopback", False), ("link", True)):
        got = setting(link, args.rounds, args.taps)
        print(f"{name}:")
        print(f"  open -> lobby drawn      {_figures(got['opens'])}")
        print(f"  tap  -> board redrawn    {_figures(got['taps'])}", flush=True)


if __name__ == "__main__":
    main()
