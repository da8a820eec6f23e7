"""When a host is cut off from most of its table's laptops: the pause and the probes.

A laptop is **present** while its **lease** runs: until L (``authority/timings.py``,
shorter than D) after the host sent the last ping that laptop answered (a laptop not
heard from yet: from when it connected, or was first counted).  The answer proves the
laptop heard this host when the ping was sent or later, and a laptop gives a host up
only D after it last heard it: so a host on the small side of a split stops before
the large side can start choosing another (Raft's leader lease).  A host with fewer
present laptops than the quorum is **cut off** (protocol/SPEC.md, Succession); a
host that is itself a player's laptop (a successor, a host with its own seat) counts
itself among them, present: with the laptops of a majority it needs only that
majority's others.  :class:`Fence` follows that from when each laptop is (or will
be) absent (:meth:`Fence.note`) and the time:

- cut off, the game **pauses** (no move is played: whatever the majority does next
  must not race a game the old host plays on) until a quorum is present again,
  however long that takes: a cut-off host never plays on by itself.  Only its own
  person may choose to (:meth:`Fence.play_alone`), which makes the game one of its
  own, never the table's;
- while cut off it asks for a **probe** of the absent laptops every
  :data:`PROBE_EVERY` seconds (a newer epoch of the table found there: the host steps
  down);
- a laptop seen hosting the table at a newer epoch in an advert (:meth:`Fence.advertised`:
  its network may have given it an address this host was never told) is probed at
  the advert's addresses first (:meth:`Fence.where`);
- a host that **woke** (:meth:`Fence.woke`: its own process slept past D, a closed
  lid, SIGSTOP) is cut off and paused at once for D whoever it hears: what it hears
  first is stale (connections that closed while it slept, hellos that waited in its
  backlog), and the laptops may have chosen another host meanwhile; it probes all of
  them (:attr:`Fence.waking`) at once and every :data:`PROBE_EVERY` seconds.

Pure bookkeeping on given times: it does not pause the table, send a probe or decide
to step down (the host core does, from what this says).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from sorry_lan.wire.limits import ADDRS_MAX

PROBE_EVERY = 2.0  # seconds between two probes of the absent laptops, while cut off


def quorum(electorate: int) -> int:
    """How many laptops of an electorate of ``electorate`` make a majority."""
    return electorate // 2 + 1


@dataclass
class Fence:
    """The cut-off state of one host."""

    due: float | None = None  # when a quorum is absent unless one is heard from before
    cut_since: float | None = None  # since when cut off
    # Its own person chose to play on alone while cut off: the game is theirs, not the
    # table's, from then on (for good: it is never merged back).
    alone: bool = False
    next_probe: float | None = None
    woke_until: float | None = None  # this host slept: cut off until then, whoever is heard
    # Where an advert of a newer epoch showed a laptop (by pid), to probe it there first.
    seen_at: dict[int, tuple[str, ...]] = field(default_factory=dict)

    @property
    def waking(self) -> bool:
        """This host slept and woke lately: every laptop is to be probed."""
        return self.woke_until is not None

    @property
    def cut_off(self) -> bool:
        return self.cut_since is not None

    @property
    def paused(self) -> bool:
        """The game waits: cut off (unless its person chose to play on alone)."""
        return self.cut_since is not None and not self.alone

    def play_alone(self) -> bool:
        """Its person chose to play on alone: returns whether it was cut off (else
        there is nothing to choose, and nothing changes)."""
        if self.cut_since is None or self.alone:
            return False
        self.alone = True
        return True

    def note(self, now: float, absent_at: Sequence[float], *, hosting: bool = False) -> None:
        """At ``now``, each laptop of the electorate is absent from its time in
        ``absent_at`` on (a time to come: present until then, unless heard again).
        ``hosting``: the host is itself a laptop of the table (a player's machine: a
        successor, or a host with its own seat), one more of the majority, always
        present to itself."""
        self.advance(now)
        if self.woke_until is not None:  # (cut off since it woke: until D after)
            self.due = None
            return
        if absent_at:
            times = [*absent_at, math.inf] if hosting else list(absent_at)
            last = sorted(times, reverse=True)[quorum(len(times)) - 1]
            if now >= last:  # fewer than a quorum present
                self.due = None
                if self.cut_since is None:
                    self.cut_since = self.next_probe = now
                self.advance(now)
                return
            self.due = last
        else:
            self.due = None
        self.cut_since = self.next_probe = None

    def woke(self, now: float, hold: float) -> None:
        """This host's own process slept (its clock jumped past D): cut off and paused
        from ``now`` until ``now + hold`` whatever is heard, probing every laptop."""
        self.woke_until = now + hold
        self.cut_since = self.next_probe = now  # (a cut before it slept starts again)

    def advance(self, now: float) -> None:
        """Let the time pass to ``now``: the hold after a wake is over at its end."""
        if self.woke_until is not None and now >= self.woke_until:
            self.woke_until = None

    def advertised(self, pid: int, addrs: tuple[str, ...]) -> None:
        """Seat ``pid``'s laptop was seen hosting the table at a newer epoch at
        ``addrs`` (the last such advert is kept)."""
        self.seen_at[pid] = addrs

    def where(self, pid: int, addrs: tuple[str, ...]) -> tuple[str, ...]:
        """Where to probe seat ``pid``'s laptop, which offered ``addrs``: where an
        advert last showed it first, then those, each once, eight at most."""
        out: list[str] = []
        for address in (*self.seen_at.get(pid, ()), *addrs):
            if address not in out:
                out.append(address)
        return tuple(out[:ADDRS_MAX])

    def probe_due(self, now: float) -> bool:
        """Whether the absent laptops are to be probed now (then again in 2 s)."""
        if self.next_probe is None or now < self.next_probe:
            return False
        self.next_probe = now + PROBE_EVERY
        return True

    def next_wakeup(self) -> float | None:
        """When the state changes by itself, or a probe is due (None: only news)."""
        if self.cut_since is None:
            return self.due
        times = [t for t in (self.next_probe, self.woke_until) if t is not None]
        return min(times, default=None)
