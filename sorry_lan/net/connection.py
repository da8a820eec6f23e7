"""One TCP connection to the host: an asyncio protocol, and nothing else.

:class:`Connection` owns the connection's transport.  It forwards every socket event
to its :class:`ConnectionOwner` (the host server), reading at most
:data:`READ_SIZE` bytes at a time, and tells it when the output the peer has not
read yet passes ``max_unsent`` bytes (:meth:`ConnectionOwner.fell_behind`).  It
writes, closes, drops (a last word, then cut after a linger) and pauses its input
when told; a connection found gone (the peer reset it) is written to no more, with a
debug line, not asyncio's warning per write.

It decides nothing: it holds no wire session, reads no message, keeps no clock and
holds no output back for the journal; the host core (``authority/core.py``) decides
and the server (``net/host.py``) tells it what to do.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from typing import Protocol

log = logging.getLogger(__name__)


class ConnectionOwner(Protocol):
    """What a :class:`Connection` reports to (the host server)."""

    def connected(self, conn: Connection) -> None: ...

    def received(self, conn: Connection, data: bytes) -> None: ...

    def lost(self, conn: Connection) -> None: ...

    def fell_behind(self, conn: Connection) -> None: ...


READ_SIZE = 1024  # bytes read from a peer at once (a client message is smaller)


class Connection(asyncio.BufferedProtocol):
    """The connection numbered ``cid``."""

    def __init__(self, owner: ConnectionOwner, cid: int, *, max_unsent: int = 256 * 1024) -> None:
        self.owner = owner
        self.cid = cid
        self.transport: asyncio.Transport | None = None
        self.max_unsent = max_unsent  # bytes the peer may leave unread before it is dropped
        self.closed = False
        self.paused = False  # not reading from the peer for a while (it sent too much)
        self._cut: asyncio.TimerHandle | None = None  # after drop: when it is cut
        self._resume: asyncio.TimerHandle | None = None  # after pause_input
        # Reads of at most READ_SIZE: a flood is judged (and stopped) after decoding
        # some 70 requests, a millisecond or two, not a thousand (16 KiB reads held up
        # every other connection for 25-35 ms each time a flooder was judged).
        self._inbuf = bytearray(READ_SIZE)
        self.address = ""  # the peer's IP address (known once connected)

    # -- asyncio.Protocol ----------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        peer = transport.get_extra_info("peername")
        if isinstance(peer, tuple) and peer:
            self.address = str(peer[0])
        with contextlib.suppress(OSError):
            sock = transport.get_extra_info("socket")
            if sock is not None:
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.owner.connected(self)

    def get_buffer(self, sizehint: int) -> bytearray:
        return self._inbuf

    def buffer_updated(self, nbytes: int) -> None:
        self.data_received(bytes(self._inbuf[:nbytes]))

    def data_received(self, data: bytes) -> None:
        self.owner.received(self, data)

    def connection_lost(self, exc: Exception | None) -> None:
        if exc is not None:
            log.debug("connection %d: %s", self.cid, exc)
        self.closed = True
        for handle in (self._cut, self._resume):
            if handle is not None:
                handle.cancel()
        self._cut = self._resume = None
        self.owner.lost(self)

    # -- output ----------------------------------------------------------------------------

    @property
    def unsent(self) -> int:
        """Bytes written that the operating system has not taken yet (the peer is slow)."""
        return 0 if self.transport is None else self.transport.get_write_buffer_size()

    def write(self, data: bytes) -> None:
        """Write ``data`` now (nothing once closed or gone); past ``max_unsent`` unread
        bytes, tell the owner."""
        if data and not self._gone():
            assert self.transport is not None
            self.transport.write(data)
            if self.transport.get_write_buffer_size() > self.max_unsent:
                self.owner.fell_behind(self)

    def _gone(self) -> bool:
        """Whether nothing more may be written: closed by us, or the transport is going
        (the peer reset it, a write failed).  A transport found going is let go
        quietly: its ``connection_lost`` follows, with one debug line saying why,
        whereas writing on would make asyncio warn "socket.send() raised exception"
        for each write."""
        if self.transport is None or self.closed:
            return True
        if self.transport.is_closing():
            self.closed = True
            return True
        return False

    def drop(self, last: bytes, linger: float) -> None:
        """Write ``last`` (a bye) after what is queued and end our side (read nothing
        more, but do not close: closing with input unread would reset the connection
        and lose the bye); ``linger`` seconds later, cut it whether or not the peer
        has read it all (freeing the output)."""
        transport = self.transport
        if transport is None or self._gone():
            return
        if last:
            transport.write(last)
        transport.pause_reading()  # whatever it still sends is of no interest
        if transport.can_write_eof():
            transport.write_eof()
        else:
            transport.close()
        self.closed = True
        self._cut = asyncio.get_running_loop().call_later(linger, transport.abort)

    def close(self) -> None:
        """Close after what was written; nothing written later goes out.  A connection
        already dropped (:meth:`drop`) is cut now."""
        if self._cut is not None:
            self._cut.cancel()
            self._cut = None
            if self.transport is not None:
                self.transport.abort()
        elif self.transport is not None and not self._gone():
            self.transport.close()
        self.closed = True

    def pause_input(self, seconds: float) -> None:
        """Read nothing from the peer for ``seconds`` (it floods us): what it sends
        waits in the operating system's buffers, then its own."""
        transport = self.transport
        if transport is None or self.closed or self.paused:
            return
        self.paused = True
        transport.pause_reading()
        self._resume = asyncio.get_running_loop().call_later(seconds, self._resume_input)

    def _resume_input(self) -> None:
        self.paused = False
        self._resume = None
        transport = self.transport
        if transport is not None and not transport.is_closing() and not self.closed:
            transport.resume_reading()
