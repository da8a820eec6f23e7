"""Helpers for the phone's server tests: a table and its web server on 127.0.0.1, and a
page's WebSocket that reads frames by kind."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import aiohttp

from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.net.host import HostOptions, HostServer
from sorry_lan.net.weblisten import web_socket
from sorry_lan.web.server import QUIET, TICK, WebServer

LOCAL = "127.0.0.1"
Frame = dict[str, Any]


@dataclass
class Served:
    host: HostServer
    web: WebServer
    session: aiohttp.ClientSession

    @property
    def url(self) -> str:
        return f"http://{LOCAL}:{self.web.address[1]}"

    async def page(self, *, autoping: bool = True) -> Page:
        """A page opened (``autoping``: its client answers the server's pings)."""
        ws = await self.session.ws_connect(self.url + "/ws", autoping=autoping)
        page = Page(ws)
        assert (await page.next("screen"))["phase"] == "join"
        return page


@asynccontextmanager
async def served(seats: int = 2, bots: int = 0, linger: float = 60.0, pin: str | None = None,
                 tick: float = TICK, quiet: float = QUIET, **config: Any
                 ) -> AsyncIterator[Served]:
    """A table of ``seats`` that starts by itself, ``bots`` of them bots, and its page
    (``pin``: the table's PIN; ``tick`` and ``quiet``: the page's, as ``WebServer``)."""
    table = Table(TableConfig(seats=seats, auto_start=True, seed=7, **config))
    for _ in range(bots):
        table.add_bot(None)
    host = HostServer(table, HostOptions(heartbeat=0.5, dead_after=3.0, pin=pin))
    await host.start(LOCAL, 0)
    web = WebServer((LOCAL, host.address[1]), linger=linger, tick=tick, quiet=quiet)
    await web.start(web_socket(LOCAL, 0))
    try:
        async with aiohttp.ClientSession() as session:
            yield Served(host, web, session)
    finally:
        await web.close()
        await host.close()


class Page:
    """A page's WebSocket: choices out, frames in."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.last: Frame = {}  # the last screen read
        self._frames: asyncio.Queue[Frame] = asyncio.Queue()
        self._reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        async for msg in self.ws:
            if msg.type is aiohttp.WSMsgType.TEXT:
                self._frames.put_nowait(json.loads(msg.data))

    async def send(self, **frame: Any) -> None:
        await self.ws.send_str(json.dumps(frame))

    async def next(self, kind: str, timeout: float = 30.0) -> Frame:
        """The next frame of ``kind`` (``screen``, ``seat``, ``error``, ``tick``)."""
        while True:
            frame = await asyncio.wait_for(self._frames.get(), timeout)
            if frame["t"] == "screen":
                self.last = frame
            if frame["t"] == kind:
                return frame

    def drain(self) -> list[Frame]:
        """The frames already arrived, without waiting (the last screen kept)."""
        frames = []
        while not self._frames.empty():
            frame = self._frames.get_nowait()
            if frame["t"] == "screen":
                self.last = frame
            frames.append(frame)
        return frames

    async def until(self, seen: Callable[[Frame], bool], timeout: float = 30.0) -> Frame:
        """The first screen for which ``seen`` holds (the last one read counts)."""
        if self.last and seen(self.last):
            return self.last
        async with asyncio.timeout(timeout):
            while True:
                frame = await self.next("screen")
                if seen(frame):
                    return frame

    async def join(self, name: str, token: str | None = None) -> str:
        """Join as ``name``; the seat's token."""
        await self.send(t="join", name=name, token=token)
        seat = await self.next("seat")
        token_given: str = seat["token"]
        return token_given


def me(screen: Frame) -> Frame | None:
    return next((s for s in screen.get("seats", ()) if s.get("you")), None)
