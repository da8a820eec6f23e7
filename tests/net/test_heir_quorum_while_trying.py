"""A laptop that gets its quorum while it tries its asleep old host takes over at once.

The old host is asleep (SIGSTOP, a closed lid): its machine still accepts connections
but nobody answers.  The laptop that stands for the table keeps trying it meanwhile
(the real ``GameClient.try_host``, which waits up to its attempt timeout for a
welcome).  The vote that makes the quorum lands just as such a try's connection opens;
the standby holds that voter, unanswered, for the new host.  The heir must cut the try
short and take over at once: a try that goes on waiting out the host's silence keeps
the voter waiting as long as its own attempt timeout, so it gives up on this laptop and
elects the next one (two tables at one epoch, as a LAN test of a host asleep for 5
minutes showed).  ``asyncio.wait_for`` on Python 3.11 drops a cancellation that comes
as the step it waits on completes; the client bounds its steps with ``asyncio.timeout``.

Only the heir and the client's try are real here (and loopback sockets); the election
is the test_heir fake's, and the takeover itself is only recorded.
"""

from __future__ import annotations

import asyncio
import socket
import time
from typing import Any

import pytest
from test_heir import FakeClient, heir, in_thread, laptops, vote

from sorry_lan.net.client import GameClient
from sorry_lan.net.recovery import recover

ATTEMPT = 2.0  # GameClient.try_host's timeout without an heir of its own (seconds)


class TryingClient(FakeClient):
    """The fake client, but each try of the old host is the real client's."""

    def __init__(self, real: GameClient, port: int) -> None:
        super().__init__(laptops(port), me=1)
        self.real = real

    async def try_host(self) -> bool:
        self.host_tries += 1
        return await self.real.try_host()


async def _quorum_as_the_try_opens(monkeypatch: pytest.MonkeyPatch) -> tuple[float, int, Any]:
    asleep = socket.create_server(("127.0.0.1", 0))  # accepts (the kernel does), never reads
    asleep_port = int(asleep.getsockname()[1])
    h, took = heir()
    port, _addrs = await h.start()
    client = TryingClient(GameClient("127.0.0.1", asleep_port, "p1"), port)
    took_at: list[float] = []

    async def take(_knowledge: Any, epoch: int, *, alone: bool = False) -> tuple[str, int]:
        took.append(epoch)
        took_at.append(time.monotonic())
        return ("127.0.0.1", 1)

    h.take_over = take  # type: ignore[method-assign,assignment]
    counted = asyncio.Event()
    on_host = h.listener.on_host
    assert on_host is not None

    def hosting() -> None:
        on_host()
        counted.set()

    h.listener.on_host = hosting
    real_open = asyncio.open_connection
    voted: list[float] = []
    voter: list[asyncio.Future[Any]] = []

    async def opens_as_the_vote_lands(host: str, at: int, **kw: Any) -> Any:
        reader, writer = await real_open(host, at, **kw)
        if at == asleep_port and h.standing and not voter:
            voted.append(time.monotonic())
            voter.append(asyncio.ensure_future(vote(port, 3)))  # 2 of 2: the quorum
            try:
                await counted.wait()  # counted (and held) as this connection opens
            except BaseException:  # (cut short here: as open_connection would, close it)
                writer.close()
                raise
        return reader, writer

    monkeypatch.setattr(asyncio, "open_connection", opens_as_the_vote_lands)
    try:
        done = await asyncio.wait_for(recover(client, h), 10.0)
    finally:
        monkeypatch.undo()
        await h.close()  # (the held voter is let go)
        asleep.close()
    return took_at[0] - voted[0], int(done), await voter[0]


def test_the_quorum_made_as_the_old_host_is_tried_takes_over_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    after, done, answer = in_thread(lambda: _quorum_as_the_try_opens(monkeypatch), 20.0)
    assert done == 1
    assert answer is None  # held for the new host (which the fake takeover never serves)
    # Well within the voter's own attempt timeout: not after the try waited out the host.
    assert after < ATTEMPT / 4, f"took the table over {after:.2f} s after the quorum"
