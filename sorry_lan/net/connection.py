"""One TCP connection to the host: an asyncio protocol around a wire session.

:class:`Connection` owns the connection's :class:`~sorry_lan.wire.session.HostSession`,
its transport and the per-connection bookkeeping the host needs (when it opened, when
it was last heard from or pinged, its chat allowance, the lobby revision it was last
told).  It forwards every socket event to its :class:`ConnectionOwner`.

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


class Connection(asyncio.Protocol):
    """A connection numbered ``cid``; its session checks the PIN with ``pin_key``."""

    def __init__(
        self,
        owner: ConnectionOwner,
        cid: int,
        *,
        pin_key: bytes | None = None,
        chat_burst: int = 5,
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
        self.chat_burst = chat_burst
        self.chat_tokens = float(chat_burst)
        self.chat_at = now
        self.closed = False
        self.lobby_revision = -1  # the table revision of the last lobby sent here

    # -- asyncio.Protocol ----------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        with contextlib.suppress(OSError):
            sock = transport.get_extra_info("socket")
            if sock is not None:
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.owner.connected(self)

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

    def write(self, data: bytes) -> None:
        """Write ``data`` now (nothing once closed)."""
        if data and self.transport is not None and not self.closed:
            self.transport.write(data)

    def close(self) -> None:
        """Close after what was written; nothing written later goes out."""
        if self.transport is not None and not self.closed:
            self.transport.close()
        self.closed = True

    # -- bookkeeping -----------------------------------------------------------------------

    def take_chat_token(self, now: float, rate: float) -> bool:
        """Spend one chat line of the allowance (``chat_burst`` at once, refilled at
        ``rate`` per second); False if none is left."""
        self.chat_tokens = min(
            float(self.chat_burst), self.chat_tokens + (now - self.chat_at) * rate
        )
        self.chat_at = now
        if self.chat_tokens < 1:
            return False
        self.chat_tokens -= 1
        return True

    def next_ping(self, now: float) -> int:
        """Note a ping sent at ``now``; returns its number."""
        self.pinged = now
        self.ping_n = (self.ping_n + 1) % 2**32
        return self.ping_n
