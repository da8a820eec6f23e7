"""One connection as the host core sees it: its wire session and its bookkeeping.

A :class:`Peer` holds the connection's :class:`~sorry_lan.wire.session.HostSession`,
its source address, when it opened, was last heard from and last pinged, its chat
and resync allowances (:class:`Allowance`, a token bucket), and the table revision
of the last lobby it was told.  :class:`PeerPin` is its PIN policy: a hello with a
valid seat token needs no PIN, and wrong PINs are throttled per address and per
table (``authority/admission.py``).

Pure bookkeeping: no socket, no clock of its own (every time is given).  It does
not decide what to do about a peer (the core and ``limits.due`` do).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from sorry_lan.authority.admission import PinThrottle
from sorry_lan.authority.table import Table
from sorry_lan.wire import messages as m
from sorry_lan.wire.session import HostSession
from sorry_lan.wire.transitions import State

log = logging.getLogger(__name__)


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


PINGS_KEPT = 16  # pings not answered yet whose sending is remembered, per peer

WELCOMED = (State.LOBBY, State.PLAYING, State.GAME_OVER)
NOT_ADMITTED = (State.GREETING, State.JOINING, State.PROVING)


class Peer:
    """Connection ``cid`` from ``address``, opened at ``now``."""

    def __init__(
        self, cid: int, address: str, now: float, session: HostSession, *,
        chat_burst: int = 5, resync_burst: int = 3,
    ) -> None:
        self.cid = cid
        self.address = address
        self.session = session
        self.opened = now
        self.heard = now
        self.pinged = now
        self.ping_n = 0
        #: When the pings not answered yet were sent, by number (the last few).
        self.ping_sent: dict[int, float] = {}
        #: Since when this peer is known to have heard the host: the sending of the
        #: last ping it answered (from the start: when it connected).  A laptop's
        #: lease runs from it (``authority/fencing.py``).
        self.renewed = now
        #: Whether it answered a ping on this connection: it read what came before
        #: (at a successor, the succession that binds it to this host's epoch).
        self.proved = False
        self.result_ping: int | None = None  # the ping sent after a game's ``over``
        self.chat = Allowance(chat_burst, now)
        self.resyncs = Allowance(resync_burst, now)
        self.lobby_revision = -1  # the table revision of the last lobby sent here
        self.closed = False  # closed or dropped by us, or gone: nothing more is read
        #: Protocol version 4: where this player's laptop would host next (its last
        #: ``offer``), ``None`` until it offers.
        self.offer: m.Offer | None = None
        #: Protocol version 4: the ``succession`` last sent here, without its chat.
        self.succession: m.Succession | None = None
        #: Protocol version 5: the (game, sid) of the last ``settled`` sent here.
        self.settled: tuple[int, int] | None = None
        #: Protocol version 3: the (game, journal records) of the game record last
        #: sent here (a record sent again unchanged tells it nothing).
        self.record_told: tuple[int, int] | None = None

    @property
    def protocol(self) -> int:
        """The protocol version this connection settled on (1 before it greeted)."""
        return self.session.version or 1

    @property
    def welcomed(self) -> bool:
        return self.session.state in WELCOMED

    @property
    def admitted(self) -> bool:
        """Past admission: welcomed, or closed (refused, gone)."""
        return self.session.state not in NOT_ADMITTED

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
        self.ping_sent[self.ping_n] = now
        if len(self.ping_sent) > PINGS_KEPT:  # (a peer that does not answer: forget the oldest)
            del self.ping_sent[next(iter(self.ping_sent))]
        return self.ping_n

    def ponged(self, n: int) -> None:
        """The peer answered ping ``n``: it heard this host when that was sent, and
        every ping sent before is answered or lost."""
        sent = self.ping_sent.get(n)
        if sent is None:
            return
        self.renewed = max(self.renewed, sent)
        self.proved = True
        for k in [k for k, at in self.ping_sent.items() if at <= sent]:
            del self.ping_sent[k]


class PeerPin:
    """The PIN policy of one connection from ``address``: a hello with a valid seat
    token needs no PIN; wrong PINs are throttled per address and per table.
    ``clock`` gives the time of the input being handled."""

    def __init__(
        self, table: Table, throttle: PinThrottle, address: str, clock: Callable[[], float]
    ) -> None:
        self.table = table
        self.throttle = throttle
        self.address = address
        self.clock = clock

    def exempt(self, greeting: m.Hello | m.Spectate) -> bool:
        token = greeting.token if isinstance(greeting, m.Hello) else None
        return token is not None and self.table.player_by_token(token) is not None

    def wait(self) -> float:
        return self.throttle.wait(self.address, self.clock())

    def failed(self) -> None:
        log.info("wrong PIN from %s", self.address)
        self.throttle.failed(self.address, self.clock())

    def passed(self) -> None:
        self.throttle.passed(self.address)
