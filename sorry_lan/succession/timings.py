"""A laptop's delays for its link to the host and for finding who hosts next, in one
place, with the relations they must keep.

The host's own delays (the lease, its heartbeat, the takeover delay D and the grace
G) are :class:`sorry_lan.authority.timings.Timings`; D and G reach a laptop in the
host's ``succession`` (the election's ``Order``).  These are the laptop's:

- **connect_timeout**: to connect to the host and be welcomed (a first join, a
  reconnect, the laptop's own new table);
- **heartbeat**: a host silent this long is pinged (section 4), and at a table that
  outlives its host at least three times per D (:meth:`LaptopTimings.beat`);
- **dead_after**: a host silent this long is gone (section 4);
- **pong_wait**: a ping the host has not answered this long (or for a beat, when
  that is shorter) tells the player that the host is quiet, and how long until
  another laptop takes over;
- **reconnect_for**: a plain reconnect (no election) gives up after this long, and
  **asleep_for** after this long in all when the host took the connection and never
  answered (a closed lid: it keeps the seat);
- **backoff** and **backoff_max**: the first wait between two reconnects, doubled up
  to the most;
- **attempt_timeout**: one try of a candidate's standby or of the old host;
- **host_retry_max**: while the election goes on, the old host is tried again at
  least this often (the waits start at ``backoff``, doubled);
- **idle**: how long the heir waits when the election names no time, and
  **min_pause** the shortest wait (the event loop always gets a turn);
- **own_retry**: how often a laptop that took the table over tries to join it;
- **greet_within**: a connection to the laptop's standby that says nothing this long
  is closed (longer than any laptop's try of it).

The election's own delays (its retry of a busy candidate, giving up) are
``election.RETRY`` and ``election.GIVE_UP``.  :class:`LaptopTimings` checks the
relations when built; it schedules nothing (``watch`` and ``retry`` decide, the net
shells wait).
"""

from __future__ import annotations

from dataclasses import dataclass

from sorry_lan.errors import SorryLanError

#: The connection heartbeat and silence of protocol section 4 (seconds), for host and
#: client alike (``authority.timings`` takes them from here).
HEARTBEAT = 5.0
DEAD_AFTER = 20.0

#: Heartbeats per takeover delay D at a table that outlives its host: a laptop notices
#: a lost host within D plus a third of it.
BEATS_PER_DELAY = 3


class LaptopTimingsError(SorryLanError):
    """Laptop delays that break a relation (a heartbeat not shorter than the silence
    that ends a connection...)."""


@dataclass(frozen=True, slots=True)
class LaptopTimings:
    """A laptop's delays (seconds); see the module docstring."""

    connect_timeout: float = 5.0
    heartbeat: float = HEARTBEAT
    dead_after: float = DEAD_AFTER
    pong_wait: float = 2.0
    reconnect_for: float = 60.0
    asleep_for: float = 600.0
    backoff: float = 0.05
    backoff_max: float = 2.0
    attempt_timeout: float = 2.0
    host_retry_max: float = 2.0
    idle: float = 1.0
    min_pause: float = 0.02
    own_retry: float = 0.1
    greet_within: float = 10.0

    def __post_init__(self) -> None:
        broken = [
            text for text, kept in (
                ("0 <= connect_timeout", self.connect_timeout >= 0),
                ("0 < heartbeat < dead_after", 0 < self.heartbeat < self.dead_after),
                ("0 < pong_wait", self.pong_wait > 0),
                ("0 <= reconnect_for <= asleep_for", 0 <= self.reconnect_for <= self.asleep_for),
                ("0 < backoff <= backoff_max", 0 < self.backoff <= self.backoff_max),
                ("backoff <= host_retry_max", self.backoff <= self.host_retry_max),
                ("0 < attempt_timeout", self.attempt_timeout > 0),
                ("0 < min_pause < idle", 0 < self.min_pause < self.idle),
                ("0 < own_retry", self.own_retry > 0),
                ("attempt_timeout < greet_within", self.attempt_timeout < self.greet_within),
            ) if not kept
        ]
        if broken:
            raise LaptopTimingsError(f"the laptop's timings must keep {', '.join(broken)}: {self}")

    def beat(self, delay: float | None) -> float:
        """How often the link to the host is looked at: the heartbeat, and at a table
        whose laptops wait ``delay`` (D) for a lost host, at least three times per D."""
        if delay is None:
            return self.heartbeat
        return min(self.heartbeat, delay / BEATS_PER_DELAY)
