"""When a host is cut off from most of its table's laptops: the pause and the probes.

A host whose connected laptops (``authority/electorate.py``) are fewer than the
quorum for the takeover delay D is **cut off** (protocol/SPEC.md, Succession): a
majority of the table may be choosing another host.  :class:`Fence` follows that
from the counts it is told (:meth:`Fence.note`) and the time:

- cut off, the game **pauses** (no move is played: whatever the majority does next
  must not race a game the old host plays on); the pause ends when a quorum is
  connected again, or G (the table's grace) after it began, whichever is first (then
  the bots cover the away seats, as they would without succession);
- while cut off (paused or not) it asks for a **probe** of the absent laptops every
  :data:`PROBE_EVERY` seconds (a newer epoch of the table found there: the host steps
  down).

Pure bookkeeping on given times: it does not pause the table, send a probe or decide
to step down (the host core does, from what this says).
"""

from __future__ import annotations

from dataclasses import dataclass

PROBE_EVERY = 2.0  # seconds between two probes of the absent laptops, while cut off


def quorum(electorate: int) -> int:
    """How many laptops of an electorate of ``electorate`` make a majority."""
    return electorate // 2 + 1


@dataclass
class Fence:
    """The cut-off state of one host: ``delay`` is D, ``grace`` is G (seconds)."""

    delay: float
    grace: float
    short_since: float | None = None  # since when fewer than a quorum are connected
    cut_since: float | None = None  # since when cut off (short for D)
    resumed: bool = False  # the pause of this cut ended after G (probes go on)
    next_probe: float | None = None

    @property
    def cut_off(self) -> bool:
        return self.cut_since is not None

    @property
    def paused(self) -> bool:
        """The game waits: cut off, and G has not passed since."""
        return self.cut_since is not None and not self.resumed

    def note(self, now: float, connected: int, electorate: int) -> None:
        """``connected`` of the ``electorate`` laptops are connected at ``now``."""
        if electorate == 0 or connected >= quorum(electorate):
            self.short_since = self.cut_since = self.next_probe = None
            self.resumed = False
            return
        if self.short_since is None:
            self.short_since = now
        self.advance(now)

    def advance(self, now: float) -> None:
        """Let the time pass to ``now``: cut off after D short, the pause over after G."""
        if self.short_since is None:
            return
        if self.cut_since is None and now >= self.short_since + self.delay:
            self.cut_since = now
            self.next_probe = now
        if self.cut_since is not None and not self.resumed and now >= self.cut_since + self.grace:
            self.resumed = True

    def probe_due(self, now: float) -> bool:
        """Whether the absent laptops are to be probed now (then again in 2 s)."""
        if self.next_probe is None or now < self.next_probe:
            return False
        self.next_probe = now + PROBE_EVERY
        return True

    def next_wakeup(self) -> float | None:
        """When the state changes by itself, or a probe is due (None: only a count)."""
        if self.short_since is None:
            return None
        if self.cut_since is None:
            return self.short_since + self.delay
        times = [t for t in (self.next_probe,) if t is not None]
        if not self.resumed:
            times.append(self.cut_since + self.grace)
        return min(times, default=None)
