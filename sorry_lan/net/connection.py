"""One TCP connection to the host: an asyncio protocol around a wire session.

:class:`Connection` owns the connection's :class:`~sorry_lan.wire.session.HostSession`,
its transport and the per-connection bookkeeping the host needs (when it opened, when
it was last heard from or pinged, its chat and resync allowances, the lobby revision
it was last told).  It forwards every socket event to its :class:`ConnectionOwner`,
and tells it when the output the peer has not read yet passes ``max_unsent`` bytes
(:meth:`ConnectionOwner.fell_behind`); :meth:`Connection.drop` then writes a last
word and closes, aborting if the peer still has not read it after a moment.

It does not decide anything: it does not read the messages it receives, does not
talk to the table, does not time anything out and does not hold output back for the
journal; the owner (:class:`~sorry_lan.net.host.HostServer`) does all of that.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from typing import Protocol

from sorry_lan.wire.session import HostSession

log = logging.getLogger(__name__)


class ConnectionOwner(Protocol):
    """What a :class:`Connection` reports to (the host server)."""

    def now(self) -> float: ...

    def connected(self, conn: Connection) -> None: ...

    def received(self, conn: Connection, data: bytes) -> None: ...

    def lost(self, conn: Connection) -> None: ...

    def fell_behind(self, conn: Connection) -> None: ...


class Allowance:
    """``burst`` actions at once, refilled at ``rate`` a second (a token bucket)."""

    def __init__(self, burst: int, now: float) -> None:
        self.burst = burst
        self.tokens = float(burst)
        self.at = now

    def take(self, now: float, rate: float) -> bool:
        """Spend one action; False (nothing spent) if none is left."""
        self.tokens = min(float(self.burst), self.tokens + (now - self.at) * rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


READ_SIZE = 1024  # bytes read from a peer at once (a client message is smaller)


class Connection(asyncio.BufferedProtocol):
    """A connection numbered ``cid``; its session checks the PIN with ``pin_key``."""

    def __init__(
        self,
        owner: ConnectionOwner,
        cid: int,
        *,
        pin_key: bytes | None = None,
        chat_burst: int = 5,
        resync_burst: int = 3,
        max_unsent: int = 256 * 1024,
    ) -> None:
        self.owner = owner
        self.cid = cid
        self.session = HostSession(pin_key=pin_key)
        self.transport: asyncio.Transport | None = None
        now = owner.now()
        self.opened = now
        self.heard = now
        self.pinged = now
        self.ping_n = 0
        self.chat = Allowance(chat_burst, now)
        self.resyncs = Allowance(resync_burst, now)
        self.max_unsent = max_unsent  # bytes the peer may leave unread before it is dropped
        self.closed = False
        self.paused = False  # not reading from the peer for a while (it sent too much)
        self._cut: asyncio.TimerHandle | None = None  # after drop: when it is cut
        # Reads of at most READ_SIZE: a flood is judged (and stopped) after decoding
        # some 70 requests, a millisecond or two, not a thousand (16 KiB reads held up
        # every other connection for 25-35 ms each time a flooder was judged).
        self._inbuf = bytearray(READ_SIZE)
        self.lobby_revision = -1  # the table revision of the last lobby sent here
        self.address = ""  # the peer's IP address (known once connected)

    @property
    def protocol(self) -> int:
        """The protocol version this connection settled on (1 before it greeted)."""
        return self.session.version or 1

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
        self.heard = self.owner.now()
        self.owner.received(self, data)

    def connection_lost(self, exc: Exception | None) -> None:
        if exc is not None:
            log.debug("connection %d: %s", self.cid, exc)
        self.closed = True
        self.session.connection_lost()
        self.owner.lost(self)

    # -- output ----------------------------------------------------------------------------

    @property
    def unsent(self) -> int:
        """Bytes written that the operating system has not taken yet (the peer is slow)."""
        return 0 if self.transport is None else self.transport.get_write_buffer_size()

    def write(self, data: bytes) -> None:
        """Write ``data`` now (nothing once closed); past ``max_unsent`` unread bytes,
        tell the owner."""
        if data and self.transport is not None and not self.closed:
            self.transport.write(data)
            if self.transport.get_write_buffer_size() > self.max_unsent:
                self.owner.fell_behind(self)

    def drop(self, last: bytes, linger: float) -> None:
        """Write ``last`` (a bye) after what is queued and end our side (read nothing
        more, but do not close: closing with input unread would reset the connection
        and lose the bye); ``linger`` seconds later, cut it whether or not the peer
        has read it all (freeing the output)."""
        transport = self.transport
        if transport is None or self.closed:
            return
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
        elif self.transport is not None and not self.closed:
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
        asyncio.get_running_loop().call_later(seconds, self._resume_input)

    def _resume_input(self) -> None:
        self.paused = False
        transport = self.transport
        if transport is not None and not transport.is_closing() and not self.closed:
            transport.resume_reading()

    # -- bookkeeping -----------------------------------------------------------------------

    @property
    def chat_at(self) -> float:
        """When the chat allowance was last counted."""
        return self.chat.at

    def take_chat_token(self, now: float, rate: float) -> bool:
        """Spend one chat line of the allowance (``chat_burst`` at once, refilled at
        ``rate`` per second); False if none is left."""
        return self.chat.take(now, rate)

    def next_ping(self, now: float) -> int:
        """Note a ping sent at ``now``; returns its number."""
        self.pinged = now
        self.ping_n = (self.ping_n + 1) % 2**32
        return self.ping_n
