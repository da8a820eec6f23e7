"""The host's delays for succession, in one place, in the order they must keep.

- **heartbeat**: how often the host pings each laptop of the table; its ``pong``
  renews that laptop's lease.
- **lease** L: how long a laptop counts as present after the host sent a ping it
  answered (the answer proves the laptop heard this host at the ping's sending, or
  later, so it cannot take part in choosing another host before D after that).  A
  host with fewer than a majority present pauses at once.  This is Raft's leader
  lease (PySyncObj, etcd's raft ``CheckQuorum``/lease read): L is shorter than the
  election timeout D, so the host stops before a successor can start.
- **delay** D: how long a laptop waits for a lost host before choosing the next.
- **grace** G: how long a laptop that reached no other waits before it may take the
  table alone (the laptops' rule, given where known), and a seat waits for its player.

The connection heartbeat and silence of protocol section 4 (:data:`HEARTBEAT`,
:data:`DEAD_AFTER`) are another matter: they find a dead connection, not a lost
majority, and are longer than L.

:class:`Timings` checks ``heartbeat < lease < delay < grace`` when built.  It does not
schedule anything (the host core does).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from sorry_lan.errors import SorryLanError
from sorry_lan.succession.timings import DEAD_AFTER as DEAD_AFTER
from sorry_lan.succession.timings import HEARTBEAT as HEARTBEAT

#: Our defaults (seconds): D and G.  ``HostOptions`` and ``TableConfig`` start from
#: them and from the connection heartbeat and silence of section 4 (a ping to a
#: connection heard from for this long; a connection silent this long is gone), which
#: host and client share: defined once, in ``succession/timings.py``.
DELAY = 15.0
GRACE = 60.0

#: L as a share of D.  A laptop gives its host up no sooner than D after the last
#: frame it heard, which came no sooner than the ping it answered, so any L < D is
#: safe while the two clocks run at the same rate; the rest of D is the margin for
#: clocks and timers that do not.  Not less: a lease runs out unless a pong comes
#: back within L of the ping before it (a busy laptop, a slow link would pause the
#: table for nothing).
LEASE_SHARE = 2 / 3
#: Pings per lease: a laptop's lease is renewed this often while all goes well, so
#: that one lost or late answer does not end it.
PINGS_PER_LEASE = 3


class TimingsError(SorryLanError):
    """Delays that would break the table's safety (a lease not shorter than D...)."""


@dataclass(frozen=True, slots=True)
class Timings:
    """The host's delays (seconds); see the module docstring."""

    heartbeat: float
    lease: float
    delay: float
    grace: float | None = None  # the laptops' G, where the host is given it

    def __post_init__(self) -> None:
        chain = [self.heartbeat, self.lease, self.delay]
        if self.grace is not None:
            chain.append(self.grace)
        if chain[0] <= 0 or any(a >= b for a, b in itertools.pairwise(chain)):
            raise TimingsError(
                f"the timings must keep 0 < heartbeat < lease < delay < grace: {self}"
            )

    @classmethod
    def of(cls, delay: float, grace: float | None = None) -> Timings:
        """The timings of a table whose laptops wait ``delay`` (D) for a lost host."""
        lease = delay * LEASE_SHARE
        return cls(heartbeat=lease / PINGS_PER_LEASE, lease=lease, delay=delay, grace=grace)
