"""Run the line mode against a host on 127.0.0.1, typing what a test answers to each
line said.  Test code only."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from sorry_lan.net.client import GameClient
from sorry_lan.net.host import HostServer
from sorry_lan.tui.lines import play_lines

Answer = Callable[[str, list[str]], list[str]]


async def lines_at(server: HostServer, answer: Answer) -> list[str]:
    """Ann's line mode at ``server`` until she quits: every line said (then the loop's
    exit status as ``(status N)``); ``answer`` (a line just said, all said so far)
    gives what she types back."""
    client = GameClient("127.0.0.1", server.address[1], "Ann")
    said: list[str] = []
    typed: asyncio.Queue[str | None] | None = None

    async def read(queue: asyncio.Queue[str | None]) -> None:
        nonlocal typed
        typed = queue

    def say(line: str) -> None:
        said.append(line)
        assert typed is not None
        for text in answer(line, said):
            typed.put_nowait(text)

    try:
        await client.connect()
        status = await asyncio.wait_for(play_lines(client, say, read), 60)
    finally:
        await client.close()
        await server.close()
    said.append(f"(status {status})")
    return said
