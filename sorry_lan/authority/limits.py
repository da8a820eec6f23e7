"""The host's limits and timings, and the deadlines they set for each connection.

:class:`HostOptions` holds the numbers (connections waiting, hello timeout, PIN
throttle, heartbeat, dead-after, chat and resync rates, unread output, flood limit,
linger, sweep; the table's id, epoch and takeover delay for succession), and
:attr:`HostOptions.words`, how the host words a code for a player in that player's
language (:func:`in_english` unless the shell gives it the catalogs' words: this layer
has none).
:func:`due` says what a connection's clock calls for now: a connection not admitted
in time is dropped, a silent one is cut, an idle one is pinged.  Pure: every call is given ``now``.

It does not act on what it says (the host core does), does not count tokens (the
allowances in ``authority/peers.py`` do) and does not measure unread output (the
shell's transports do; the core is told when a peer fell behind).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum

from sorry_lan.authority.admission import PinThrottle
from sorry_lan.authority.timings import DEAD_AFTER, DELAY, HEARTBEAT, Timings
from sorry_lan.codes import Said

#: How a code with its fields is worded for a player who reads a language (a code as
#: its ``profile`` named it, ``el`` or ``pt-BR``; None: it named none).
Words = Callable[[Said, str | None], str]


def in_english(said: Said, lang: str | None) -> str:
    """``said`` in English, whatever language the player reads: the words of a host
    given none (``str()`` of it)."""
    return str(said)


@dataclass
class HostOptions:
    """Connection limits and timings (seconds)."""

    pin: str | None = None
    # The PIN's derived key (``wire.auth.pin_key``) when the PIN itself is not known:
    # a successor has only the verifier the old host sent (used when ``pin`` is None).
    pin_key: bytes | None = None
    name: str = "sorry-lan"
    max_waiting: int = 64  # connections not yet admitted, from all addresses ...
    max_waiting_per_address: int = 8  # ... and from one (the oldest make room)
    hello_timeout: float = 5.0  # a connection not admitted by then is dropped
    pin_throttle: PinThrottle = field(default_factory=PinThrottle)
    heartbeat: float = HEARTBEAT  # ping an idle connection this often
    dead_after: float = DEAD_AFTER  # nothing heard for this long: the peer is gone
    chat_burst: int = 5  # chat lines allowed at once ...
    chat_rate: float = 0.5  # ... refilled at this many per second
    resync_burst: int = 3  # resyncs answered at once ...
    resync_rate: float = 1.0  # ... refilled at this many per second
    max_unsent: int = 256 * 1024  # output a connection may leave unread before it is dropped
    flood_limit: int = 50  # rate-limited requests in one read that get a connection dropped
    drop_linger: float = 2.0  # a dropped connection's bye may take this long to be read
    stay: bool = False  # keep serving after a headless game ends
    sweep: float = 0.5  # how often timeouts are checked
    # Succession (protocol version 4): the table's id (its advert's), this host's epoch
    # (1 for the table's first host, one more for each host after), and D, how long
    # the laptops wait for a lost host before choosing the next (the host's lease, and
    # how often it pings its laptops, follow from it: :attr:`timings`).
    table_id: str = ""
    epoch: int = 1
    takeover_delay: float = DELAY
    # The seat (pid) of the player whose laptop hosts the table, when that is not the
    # owner's (lobby rights): a successor of a headless table hosts from one of its
    # players' laptops, which ``succession.host`` names and the order leaves out.
    seat: int | None = None
    # The table's game was read back from its journal (``host --resume``): the table's
    # laptops may have chosen another host while it was down (``HostCore.start``).
    resumed: bool = False
    # The words of the news told to each player in its own language (the table moved,
    # to a connection on an older version): English unless the shell gives others.
    words: Words = in_english

    @property
    def timings(self) -> Timings:
        """The lease and its heartbeat, from D (``authority/timings.py``)."""
        return Timings.of(self.takeover_delay)

    @property
    def resync_pause(self) -> float:
        """How long a connection refused a resync is not read from (a second at most)."""
        return min(1.0, 1.0 / max(self.resync_rate, 1e-3))


class Due(Enum):
    """What a connection's clock calls for."""

    HELLO_TIMEOUT = "hello-timeout"  # not admitted in time: bye (timeout), close
    SILENT = "silent"  # nothing heard for too long: the peer is gone, close
    PING = "ping"  # idle for a heartbeat: ping it


def due(
    options: HostOptions, now: float, *, admitted: bool, opened: float, heard: float,
    pinged: float,
) -> Due | None:
    """What is due for a connection opened at ``opened``, last heard from at ``heard``
    and last pinged at ``pinged`` (``admitted``: welcomed, or refused on its way out)."""
    if not admitted:
        return Due.HELLO_TIMEOUT if now - opened > options.hello_timeout else None
    if now - heard > options.dead_after:
        return Due.SILENT
    if now - pinged >= options.heartbeat and now - heard >= options.heartbeat:
        return Due.PING
    return None
