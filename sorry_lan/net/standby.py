"""A laptop's standby listener: the port a player's laptop would host its table on.

Every laptop at a version-4 table (a ``join`` player, a remote ``sorry-lan bot``)
listens, while it plays, on a port of its own (chosen by the operating system, or
given) and tells the host where in its ``offer``.  Until the table's host is lost,
nobody has anything to say to that port but the old host's probes; once it is lost,
the other laptops connect to the first reachable laptop of the succession order and
send ``hello`` with their seat token: that is their vote.  :class:`StandbyListener`
answers each greeting through a :class:`Votes` object (the election's standby state
machine, sans I/O): a ``refuse`` (``busy``, "waiting for the table: 2 of 3", which
the voter retries every second; or why not), and once the votes are enough it calls
``on_elected`` once.  The caller then takes the listening socket
(:meth:`StandbyListener.take_socket`) and hands it to a
:class:`~sorry_lan.net.host.HostServer`, so the new host serves on the very port the
others were told of: their next ``hello`` is welcomed.

It decodes and answers only greetings (one :class:`~sorry_lan.wire.session.HostSession`
per connection, no PIN: a vote needs a seat token, which the PIN would only have let
in), closes a connection that greets too slowly, and bounds how many are open.  It
does not count votes, check tokens or decide anything about the table (the
:class:`Votes` object does), does not build or run the new host (the caller does),
and does not find the laptop's addresses (the discovery layer does, for the offer).
"""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import Callable, Sequence
from typing import Protocol

from sorry_lan.wire import messages as m
from sorry_lan.wire.session import HostSession
from sorry_lan.wire.vocab import RefuseReason

from .host import listen_error

__all__ = ["IDLE_TEXT", "StandbyListener", "Votes"]

log = logging.getLogger(__name__)

#: What a standby says while it gathers no votes (its table's host is alive to it).
IDLE_TEXT = "this laptop does not host the table"


class Votes(Protocol):
    """What the listener asks of the election's standby state machine."""

    def greeted(self, greeting: m.Hello | m.Spectate, now: float) -> tuple[RefuseReason, str]:
        """The refusal to answer ``greeting`` with (counting it as a vote if it is one)."""
        ...

    def elected(self, now: float) -> bool:
        """Whether the votes are enough (this laptop's own included) to host."""
        ...


class StandbyListener:
    """Listens on ``bind`` and ``port`` (0: the system picks one), and on ``also``
    (``"::"``: IPv6 too, where the machine has it) on the same port, as the host
    binds.  ``async with`` it, or :meth:`start` then :meth:`close`.

    :attr:`votes` is the state machine answering greetings; while it is None (no
    election under way) every greeting is refused ``busy`` with :data:`IDLE_TEXT`.
    ``on_elected`` is called once, when :meth:`Votes.elected` first says so after a
    greeting (or on :meth:`check`)."""

    def __init__(
        self,
        *,
        bind: str = "0.0.0.0",
        port: int = 0,
        also: Sequence[str] = (),
        on_elected: Callable[[], None] | None = None,
        greet_within: float = 10.0,
        max_open: int = 64,
    ) -> None:
        self.bind = bind
        self.port = port
        self.also = tuple(also)
        self.on_elected = on_elected
        self.greet_within = greet_within
        self.max_open = max_open
        self.votes: Votes | None = None
        self.greetings = 0  # greetings answered (for tests and reports)
        self._sock: socket.socket | None = None
        self._servers: list[asyncio.Server] = []
        self._open: set[_Greeter] = set()
        self._elected = False
        self._taken = False

    async def __aenter__(self) -> StandbyListener:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def listening(self) -> bool:
        return bool(self._servers)

    @property
    def elected(self) -> bool:
        """Whether ``on_elected`` was called (the votes were enough)."""
        return self._elected

    async def start(self) -> int:
        """Listen; returns the port bound (the same on every address)."""
        loop = asyncio.get_running_loop()
        try:
            sock = socket.create_server((self.bind, self.port), backlog=256)
        except OSError as exc:
            raise listen_error(exc, self.bind, self.port) from None
        self._sock = sock
        self.port = int(sock.getsockname()[1])
        # asyncio's server closes the socket it serves on: it serves on a duplicate,
        # so that the listening socket itself outlives it (see take_socket).
        self._servers.append(await loop.create_server(self._factory, sock=sock.dup()))
        for extra in self.also:
            try:
                server = await loop.create_server(
                    self._factory, extra, self.port, reuse_address=True, backlog=256
                )
            except OSError as exc:
                log.info("standby not listening on %s too: %s", extra, exc.strerror or exc)
                continue
            self._servers.append(server)
        return self.port

    def check(self, now: float) -> bool:
        """Ask :attr:`votes` whether it is elected now (a vote may count by time, or
        the laptop's own vote be the quorum); calls ``on_elected`` the first time."""
        votes = self.votes
        if self._elected or votes is None or not votes.elected(now):
            return self._elected
        self._elected = True
        if self.on_elected is not None:
            self.on_elected()
        return True

    def take_socket(self) -> socket.socket:
        """Stop answering as a standby and give the listening socket (bound and
        listening on :attr:`bind` and :attr:`port`) to the caller, to serve the table
        on: connections waiting in its backlog are the new host's.  The ``also``
        addresses are let go (the new host binds them again on the same port).
        Greetings under way are closed (their voters retry within a second)."""
        sock = self._sock
        if sock is None or self._taken:
            raise RuntimeError("the standby is not listening")
        self._taken = True
        self._sock = None
        self._stop()
        return sock

    async def close(self) -> None:
        """Stop listening (the socket too, unless it was taken); safe twice."""
        servers = list(self._servers)
        self._stop()
        if self._sock is not None:
            self._sock.close()
            self._sock = None
        for server in servers:
            await server.wait_closed()

    def _stop(self) -> None:
        for server in self._servers:
            server.close()
        self._servers.clear()
        for greeter in list(self._open):
            greeter.cut()

    def _factory(self) -> _Greeter:
        return _Greeter(self)

    # -- what a greeter reports ------------------------------------------------------

    def _opened(self, greeter: _Greeter) -> bool:
        if len(self._open) >= self.max_open or not self._servers:
            return False
        self._open.add(greeter)
        return True

    def _closed(self, greeter: _Greeter) -> None:
        self._open.discard(greeter)

    def _answer(self, greeting: m.Hello | m.Spectate) -> tuple[RefuseReason, str]:
        now = asyncio.get_running_loop().time()
        self.greetings += 1
        votes = self.votes
        if votes is None:
            return RefuseReason.BUSY, IDLE_TEXT
        return votes.greeted(greeting, now)

    def _after_answer(self) -> None:
        self.check(asyncio.get_running_loop().time())


class _Greeter(asyncio.Protocol):
    """One connection to the standby: its greeting is answered, then it is closed."""

    def __init__(self, owner: StandbyListener) -> None:
        self.owner = owner
        self.session = HostSession()
        self.transport: asyncio.Transport | None = None
        self._timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        if not self.owner._opened(self):
            self._refuse(RefuseReason.BUSY, "too many connections; try again in a moment")
            return
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(self.owner.greet_within, self.cut)

    def data_received(self, data: bytes) -> None:
        session = self.session
        if session.closed:
            return
        answered = False
        for message in session.receive_data(data):
            if isinstance(message, m.Hello | m.Spectate):
                reason, text = self.owner._answer(message)
                session.refuse(reason, text)
                answered = True
                break
        self._flush()
        if answered:
            self.owner._after_answer()

    def _refuse(self, reason: RefuseReason, text: str) -> None:
        """Refuse before any greeting (the versions are ours: the peer said none)."""
        self.session.refuse(reason, text)
        self._flush()

    def _flush(self) -> None:
        transport = self.transport
        if transport is None or transport.is_closing():
            return
        out = self.session.data_to_send()
        if out:
            transport.write(out)
        if self.session.closed:
            transport.close()  # after what was written

    def cut(self) -> None:
        """Close now (greeted too slowly, or the standby stops)."""
        if self.transport is not None:
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.owner._closed(self)

