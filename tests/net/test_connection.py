"""Connection: a real TCP connection on 127.0.0.1 reporting to a recording owner.

(Its session and bookkeeping moved to the core's Peer: tests/authority/test_peers.py.)"""

from __future__ import annotations

import asyncio
import logging
import socket
import struct

import pytest
from netkit import LOCAL

from sorry_lan.net.connection import READ_SIZE, Connection


class Owner:
    """Records what its connections report, on the running loop's clock."""

    def __init__(self) -> None:
        self.events: list[tuple[str, int, bytes]] = []
        self.changed = asyncio.Event()
        self.conns: list[Connection] = []

    def connected(self, conn: Connection) -> None:
        self.conns.append(conn)
        self._note("connected", conn, b"")

    def received(self, conn: Connection, data: bytes) -> None:
        self._note("received", conn, data)

    def lost(self, conn: Connection) -> None:
        self._note("lost", conn, b"")

    def fell_behind(self, conn: Connection) -> None:
        self._note("behind", conn, b"")

    def _note(self, what: str, conn: Connection, data: bytes) -> None:
        self.events.append((what, conn.cid, data))
        self.changed.set()

    async def until(self, what: str) -> None:
        while not any(e[0] == what for e in self.events):
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), 5)


async def _serve(owner: Owner) -> tuple[asyncio.Server, int]:
    loop = asyncio.get_running_loop()
    ids = iter(range(7, 100))
    server = await loop.create_server(lambda: Connection(owner, next(ids)), LOCAL, 0)
    return server, int(server.sockets[0].getsockname()[1])


@pytest.mark.asyncio
async def test_socket_events_reach_the_owner_and_output_stops_at_close() -> None:
    owner = Owner()
    server, port = await _serve(owner)
    reader, writer = await asyncio.open_connection(LOCAL, port)
    try:
        await owner.until("connected")
        conn = owner.conns[0]
        assert (conn.cid, conn.closed, conn.address) == (7, False, LOCAL)
        sock = conn.transport.get_extra_info("socket") if conn.transport else None
        assert sock is not None
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
        writer.write(b"abc")
        await owner.until("received")
        assert ("received", 7, b"abc") in owner.events
        conn.write(b"hello")
        conn.write(b"")
        assert await asyncio.wait_for(reader.readexactly(5), 5) == b"hello"
        conn.close()
        conn.write(b"too late")
        assert conn.closed
        assert await asyncio.wait_for(reader.read(), 5) == b""  # EOF, nothing after
        await owner.until("lost")
        assert conn.closed
    finally:
        writer.close()
        server.close()
        await server.wait_closed()


@pytest.mark.asyncio
async def test_a_peer_that_goes_is_reported_lost() -> None:
    owner = Owner()
    server, port = await _serve(owner)
    _reader, writer = await asyncio.open_connection(LOCAL, port)
    try:
        await owner.until("connected")
        writer.close()
        await owner.until("lost")
        assert owner.conns[0].closed
        assert [e[0] for e in owner.events] == ["connected", "lost"]
    finally:
        server.close()
        await server.wait_closed()


@pytest.mark.asyncio
async def test_a_peer_that_does_not_read_is_reported_and_drop_cuts_it_after_the_linger() -> None:
    owner = Owner()
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: Connection(owner, 1, max_unsent=4096), LOCAL, 0)
    port = server.sockets[0].getsockname()[1]
    peer = socket.create_connection((LOCAL, port))
    peer.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    try:
        await owner.until("connected")
        (conn,) = owner.conns
        chunk = b"x" * 1024
        while not any(e[0] == "behind" for e in owner.events):
            conn.write(chunk)  # the peer never reads: the kernel fills, then our buffer
            await asyncio.sleep(0)
        assert conn.unsent > 4096
        conn.drop(b"bye", linger=0.2)
        assert conn.closed
        conn.write(chunk)  # ignored once dropped
        await owner.until("lost")  # cut after the linger, though the peer never read
    finally:
        peer.close()
        server.close()


@pytest.mark.asyncio
async def test_a_burst_is_read_in_short_pieces() -> None:
    """A peer's burst reaches the owner READ_SIZE bytes at most at a time, so a flood is
    judged after a short read, not after decoding a quarter of a megabyte."""
    owner = Owner()
    server, port = await _serve(owner)
    _reader, writer = await asyncio.open_connection(LOCAL, port)
    try:
        await owner.until("connected")
        burst = bytes(range(256)) * 800  # 200 KiB at once
        writer.write(burst)
        while sum(len(e[2]) for e in owner.events if e[0] == "received") < len(burst):
            owner.changed.clear()
            await asyncio.wait_for(owner.changed.wait(), 5)
        pieces = [e[2] for e in owner.events if e[0] == "received"]
        assert b"".join(pieces) == burst
        assert max(map(len, pieces)) <= READ_SIZE < len(burst)
    finally:
        writer.close()
        server.close()
        await server.wait_closed()


@pytest.mark.asyncio
async def test_a_connection_that_is_gone_is_dropped_once_quietly(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A peer that reset the connection while the host was not reading from it (its
    input paused): the host's next round of output finds it gone; nothing more is
    written to it, and asyncio warns of nothing ("socket.send() raised exception")."""
    owner = Owner()
    server, port = await _serve(owner)
    peer = socket.create_connection((LOCAL, port))
    try:
        await owner.until("connected")
        (conn,) = owner.conns
        conn.pause_input(60.0)  # so the loop does not notice the reset by reading
        peer.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        peer.close()  # a reset
        await asyncio.sleep(0.1)  # the reset has arrived
        caplog.set_level(logging.DEBUG)
        for _event in range(20):  # one round of output to it, all at once
            conn.write(b"news " * 20)
        assert conn.closed
        await owner.until("lost")
        await asyncio.sleep(0)
    finally:
        server.close()
        await server.wait_closed()
    asyncio_warnings = [
        r for r in caplog.records if r.name == "asyncio" and r.levelno >= logging.WARNING
    ]
    assert asyncio_warnings == []
    gone = [r for r in caplog.records if r.name == "sorry_lan.net.connection"]
    assert [r.levelno for r in gone] == [logging.DEBUG]
    assert [e[0] for e in owner.events] == ["connected", "lost"]
