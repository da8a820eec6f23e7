"""Every way joining fails, and the typed reason the client reports for it.

A refusal carries the host's own :class:`RefuseReason`; anything else is a
:class:`JoinFailure`.  The fake hosts here are plain asyncio servers on loopback
that misbehave on purpose.  (The PIN cases are in ``test_limits.py``.)
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
from netkit import LOCAL, free_port, start_host

from sorry_lan.errors import SorryLanError
from sorry_lan.net.client import ClientOptions, GameClient, JoinError, JoinFailure
from sorry_lan.wire.vocab import RefuseReason

Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


@contextlib.asynccontextmanager
async def fake_host(handle: Handler) -> AsyncIterator[int]:
    """A host on loopback that answers each connection with ``handle``; on the way out
    its connections are closed, and their handlers end, before the test's loop does
    (a handler still reading the client's last words would leave its socket open)."""
    writers: list[asyncio.StreamWriter] = []

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writers.append(writer)
        await handle(reader, writer)

    server = await asyncio.start_server(serve, LOCAL, 0)
    try:
        yield int(server.sockets[0].getsockname()[1])
    finally:
        server.close()
        for writer in writers:
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()
        await server.wait_closed()


async def join_error(port: int, **options: object) -> JoinError:
    client = GameClient(LOCAL, port, "ann", ClientOptions(**options))  # type: ignore[arg-type]
    with pytest.raises(JoinError) as failed:
        await client.connect()
    assert isinstance(failed.value, SorryLanError)
    return failed.value


@pytest.mark.asyncio
async def test_nobody_listening_is_unreachable() -> None:
    exc = await join_error(free_port())
    assert exc.reason is JoinFailure.UNREACHABLE and "nobody is hosting" in exc.text


@pytest.mark.asyncio
async def test_no_answer_in_time_is_unreachable() -> None:
    exc = await join_error(free_port(), connect_timeout=0)
    assert exc.reason is JoinFailure.UNREACHABLE and "no answer" in exc.text


@pytest.mark.asyncio
async def test_a_connection_reset_during_the_greeting_is_unreachable() -> None:
    async def reset(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read(1)  # the hello is on its way
        sock = writer.get_extra_info("socket")
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        writer.transport.abort()

    async with fake_host(reset) as port:
        exc = await join_error(port)
    assert exc.reason is JoinFailure.UNREACHABLE and "connection failed" in exc.text


@pytest.mark.parametrize(
    ("reply", "said"),
    [(b"", "before welcoming"), (bytes(4), "malformed")],  # bytes(4): an empty frame
    ids=["hangs up", "breaks the protocol"],
)
@pytest.mark.asyncio
async def test_a_host_that_ends_the_greeting_without_an_answer_is_lost(
    reply: bytes, said: str
) -> None:
    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read(65536)
        if reply:
            writer.write(reply)
            await writer.drain()
            await reader.read(65536)  # our fatal error, then the client goes
        writer.close()

    async with fake_host(answer) as port:
        exc = await join_error(port)
    assert exc.reason is JoinFailure.LOST and said in exc.text


@pytest.mark.asyncio
async def test_a_refusal_keeps_the_hosts_reason() -> None:
    server = await start_host(seats=2)
    first = GameClient(LOCAL, server.address[1], "ann")
    try:
        await first.connect()
        exc = await join_error(server.address[1])
        assert exc.reason is RefuseReason.NAME_TAKEN and "name is taken" in exc.text
    finally:
        await first.close()
        await server.close()
