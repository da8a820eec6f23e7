"""A laptop's standby listener: the port a player's laptop would host its table on.

Every laptop at a version-4 table (a ``join`` player, a remote ``sorry-lan bot``)
listens, while it plays, on a port of its own (chosen by the operating system, or
given) and tells the host where in its ``offer``.  Until the table's host is lost,
nobody has anything to say to that port but the old host's probes; once it is lost,
the other laptops connect to the first reachable laptop of the succession order and
send ``hello`` with their seat token: that is their vote.  :class:`StandbyListener`
answers each greeting through the election's :class:`~sorry_lan.succession.standby.Standby`
(sans I/O): a ``refuse`` (``busy``, "waiting for the table: 2 of 3", which the voter
retries every second; or why not), telling ``on_vote`` of each vote counted.  Once
the standby says this laptop hosts (its answer is ``Host``), the greetings that got
that answer are held, not refused; the caller takes the listening socket
(:meth:`StandbyListener.take_socket`), starts a :class:`~sorry_lan.net.host.HostServer`
on it, so the new host serves on the very port the others were told of, and gives
the held connections to it (:meth:`StandbyListener.hand_to`), which welcomes them.

It decodes and answers only greetings (one :class:`~sorry_lan.wire.session.HostSession`
per connection, no PIN: a vote needs a seat token, which the PIN would only have let
in), closes a connection that greets too slowly, and bounds how many are open.  It
does not count votes, check tokens or decide anything about the table (the standby
state machine does), does not build or run the new host (the caller does), and does
not find the laptop's addresses (the discovery layer does, for the offer).
"""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import Callable, Sequence
from typing import Protocol

from sorry_lan.succession.standby import Answer, Host, TurnAway, Wait
from sorry_lan.succession.timings import LaptopTimings
from sorry_lan.wire import messages as m
from sorry_lan.wire.session import HostSession
from sorry_lan.wire.standby import NOT_HOSTING
from sorry_lan.wire.vocab import RefuseReason

from .host import listen_error
from .weblisten import bound_also

__all__ = ["IDLE_TEXT", "Adopter", "StandbyListener", "Votes"]

log = logging.getLogger(__name__)

_DEFAULT = LaptopTimings()

#: What a standby says while it has no state machine (its laptop does not stand).
IDLE_TEXT = NOT_HOSTING
#: The highest TCP port.
PORT_MAX = 65535
#: Ports the system picks, tried in turn for one whose port + 1 is free (``keep_next``).
PAIR_TRIES = 8


class Votes(Protocol):
    """What the listener asks of the election's standby state machine."""

    def hello(
        self, token: bytes | None, versions: Sequence[int], now: float,
        seen: tuple[int, int] | None = None,
    ) -> Answer: ...

    def spectate(self, now: float) -> Answer: ...


class Adopter(Protocol):
    """What takes the held connections over (the new host's server)."""

    def adopt(self, transport: asyncio.Transport, data: bytes) -> None: ...


class StandbyListener:
    """Listens on ``bind`` and ``port`` (0: the system picks one), and on ``also``
    (``"::"``: IPv6 too, where the machine has it) on the same port, as the host
    binds.  ``async with`` it, or :meth:`start` then :meth:`close`.

    ``keep_next``: keep the port + 1 bound too (:meth:`take_next`), where this laptop
    serves the phones' page if it hosts (``sorry_lan.web.follow``: the phones look
    for it there): at ``bind``, and at each ``also`` address the standby listens on
    (an IPv6-only socket beside the IPv4 one; one that cannot be had is logged and
    left out).

    :attr:`votes` is the state machine answering greetings; while it is None every
    greeting is refused ``busy`` with :data:`IDLE_TEXT`.  ``on_vote`` is called after
    each greeting counted as a vote or turned away for a newer board (the election
    hears of both), ``on_host`` once, at the first ``Host`` answer."""

    def __init__(
        self,
        *,
        bind: str = "0.0.0.0",
        port: int = 0,
        also: Sequence[str] = (),
        on_vote: Callable[[], None] | None = None,
        on_host: Callable[[], None] | None = None,
        greet_within: float = _DEFAULT.greet_within,
        max_open: int = 64,
        keep_next: bool = False,
    ) -> None:
        self.bind = bind
        self.port = port
        self.keep_next = keep_next
        self.next_socket: socket.socket | None = None  # bound at port + 1 (keep_next)
        self.next_also: list[socket.socket] = []  # and at each ``also`` address bound
        self.also = tuple(also)
        self.on_vote = on_vote
        self.on_host = on_host
        self.greet_within = greet_within
        self.max_open = max_open
        self.votes: Votes | None = None
        self.greetings = 0  # greetings answered (for tests and reports)
        self._sock: socket.socket | None = None
        self._servers: list[asyncio.Server] = []
        self._open: set[_Greeter] = set()
        self._held: list[_Greeter] = []  # answered Host: for the new host to welcome
        self._hosting = False
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
    def hosting(self) -> bool:
        """Whether the standby answered ``Host`` (``on_host`` was called)."""
        return self._hosting

    @property
    def held(self) -> int:
        """Connections held for the new host."""
        return len(self._held)

    async def start(self) -> int:
        """Listen; returns the port bound (the same on every address)."""
        loop = asyncio.get_running_loop()
        sock = self._listening()
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
            if self.next_socket is not None:  # the page's port, in this family too
                kept = bound_also(extra, self.port + 1, reuse=False)
                if kept is not None:
                    self.next_also.append(kept)
        return self.port

    def _listening(self) -> socket.socket:
        """The listening socket at :attr:`bind` and :attr:`port`; with
        :attr:`keep_next`, one whose port + 1 is free too, kept bound in
        :attr:`next_socket` (a port the system picks is tried again a few times for
        that; a port given is kept whether or not its next one is free)."""
        self._close_next()  # (started again: kept afresh)
        tries = PAIR_TRIES if self.keep_next and not self.port else 1
        for attempt in range(1, tries + 1):
            try:
                sock = socket.create_server((self.bind, self.port), backlog=256)
            except OSError as exc:
                raise listen_error(exc, self.bind, self.port) from None
            if self.keep_next:
                self.next_socket = _bound(self.bind, int(sock.getsockname()[1]) + 1)
            if not self.keep_next or self.next_socket is not None or attempt == tries:
                break
            sock.close()
        return sock

    def take_next(self) -> tuple[socket.socket, ...]:
        """The sockets kept bound at the port + 1 (not listening), for the caller to
        serve the phones' page on once this laptop hosts: the one at :attr:`bind`
        first, then those at the ``also`` addresses; none if none was kept."""
        first, self.next_socket = self.next_socket, None
        more, self.next_also = self.next_also, []
        return tuple(sock for sock in (first, *more) if sock is not None)

    def _close_next(self) -> None:
        for sock in self.take_next():
            sock.close()

    def take_socket(self) -> socket.socket:
        """Stop answering as a standby and give the listening socket (bound and
        listening on :attr:`bind` and :attr:`port`) to the caller, to serve the table
        on: connections waiting in its backlog are the new host's.  The ``also``
        addresses are let go (the new host binds them again on the same port).
        Connections not answered yet are held with those answered ``Host``, for
        :meth:`hand_to` (a voter whose hello arrives as the standby hosts is welcomed,
        not cut)."""
        sock = self._sock
        if sock is None or self._taken:
            raise RuntimeError("the standby is not listening")
        self._taken = True
        self._sock = None
        for greeter in self._open:
            if not greeter.answered and greeter not in self._held:
                self._held.append(greeter)
        self._stop()
        return sock

    def stand_down(self) -> None:
        """Its laptop no longer stands: greetings are answered as by one that does not
        (:data:`IDLE_TEXT`) from now on.  When the standby already answered ``Host``
        but the socket was not taken (the laptop did not take the table over), the
        connections held for the new host are answered so too, and a later ``Host``
        (the laptop stands again) calls ``on_host`` again."""
        self.votes = None
        if self._taken:
            return
        self._hosting = False
        held, self._held = self._held, []
        for greeter in held:
            greeter.refuse(IDLE_TEXT)

    def hand_to(self, adopter: Adopter) -> int:
        """Give every held connection, with the bytes it sent, to ``adopter`` (the new
        host's server, which welcomes them); returns how many."""
        held, self._held = self._held, []
        given = 0
        for greeter in held:
            if greeter.give(adopter):
                given += 1
        return given

    async def close(self) -> None:
        """Stop listening (the socket too, unless it was taken) and close what is
        held; safe twice."""
        servers = list(self._servers)
        self._stop()
        held, self._held = self._held, []
        for greeter in held:
            greeter.cut()
        if self._sock is not None:
            self._sock.close()
            self._sock = None
        self._close_next()
        for server in servers:
            await server.wait_closed()

    def _stop(self) -> None:
        for server in self._servers:
            server.close()
        self._servers.clear()
        held = set(self._held)
        for greeter in list(self._open):
            if greeter not in held:
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
        if greeter in self._held:
            self._held.remove(greeter)

    def _answer(self, greeter: _Greeter, greeting: m.Hello | m.Spectate) -> Answer:
        now = asyncio.get_running_loop().time()
        self.greetings += 1
        votes = self.votes
        if votes is None:
            return Wait(IDLE_TEXT)
        if isinstance(greeting, m.Hello):
            answer = votes.hello(greeting.token, greeting.versions, now, greeting.seen)
        else:
            answer = votes.spectate(now)
        if isinstance(answer, Host):
            self._held.append(greeter)
        return answer

    def _answered(self, answer: Answer) -> None:
        told = isinstance(answer, Wait) and answer.counted
        told = told or (isinstance(answer, TurnAway) and answer.older)
        if told and self.on_vote is not None:
            self.on_vote()
        if isinstance(answer, Host) and not self._hosting:
            self._hosting = True
            if self.on_host is not None:
                self.on_host()


def _bound(host: str, port: int) -> socket.socket | None:
    """A TCP socket bound at ``host``:``port`` and not listening (so no other program
    can take the port), or None when the port is taken or past the last one."""
    if port > PORT_MAX:
        return None
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        return None
    return sock


class _Greeter(asyncio.Protocol):
    """One connection to the standby: its greeting is answered, then it is closed (or
    held for the new host, with every byte it sent)."""

    def __init__(self, owner: StandbyListener) -> None:
        self.owner = owner
        self.session = HostSession()
        self.transport: asyncio.Transport | None = None
        self.received = bytearray()  # what it sent: the new host reads it again
        self.answered = False  # refused (or about to be): not one for the new host
        self._timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        if not self.owner._opened(self):
            self.answered = True
            self.session.refuse(RefuseReason.BUSY, "too many connections; try again in a moment")
            self._flush()
            return
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(self.owner.greet_within, self.cut)

    def data_received(self, data: bytes) -> None:
        session = self.session
        self.received += data
        if session.closed or self.owner._taken:
            return  # (held for the new host: it reads all of it)
        answer: Answer | None = None
        for message in session.receive_data(data):
            if isinstance(message, m.Hello | m.Spectate):
                answer = self.owner._answer(self, message)
                break
        if isinstance(answer, Wait | TurnAway):
            self.answered = True
            session.refuse(answer.reason, answer.text)
        elif isinstance(answer, Host) and self._timer is not None:
            self._timer.cancel()  # held: the new host's own clock takes over
            self._timer = None
        if not isinstance(answer, Host):
            self._flush()
            self.answered = self.answered or session.closed  # (a codec error: closed)
        if answer is not None:
            self.owner._answered(answer)

    def _flush(self) -> None:
        transport = self.transport
        if transport is None or transport.is_closing():
            return
        out = self.session.data_to_send()
        if out:
            transport.write(out)
        if self.session.closed:
            transport.close()  # after what was written

    def give(self, adopter: Adopter) -> bool:
        """Hand this connection, and what it sent, to ``adopter``."""
        transport = self.transport
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if transport is None or transport.is_closing():
            return False
        self.transport = None
        self.owner._closed(self)
        adopter.adopt(transport, bytes(self.received))
        return True

    def refuse(self, text: str) -> None:
        """Answer a held greeting ``busy`` ``text`` after all, and close."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.answered = True
        if not self.session.closed:
            self.session.refuse(RefuseReason.BUSY, text)
        self._flush()
        if self.transport is not None and not self.transport.is_closing():
            self.transport.close()

    def cut(self) -> None:
        """Close now (greeted too slowly, or the standby stops)."""
        if self.transport is not None:
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.owner._closed(self)
