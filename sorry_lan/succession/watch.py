"""When a laptop's host is lost, and how long a plain reconnect goes on: sans I/O.

:class:`Watch` is the rule for a link on which nothing came for a beat
(:meth:`~sorry_lan.succession.timings.LaptopTimings.beat`)::

    watch = Watch(timings)
    watch.beat(delay)                                   # how long to read before asking
    watch.silent(now, heard_at, delay=..., here=...)    # Ping | HostLost
    watch.after_ping(delay)                             # how long to wait for its pong
    watch.quiet(now, heard_at, delay=...)               # SayQuiet: it did not answer

The host is **lost** when nothing was heard from it for the takeover delay D (at a
table that outlives its host: ``delay``) or for ``dead_after`` (the connection is
dead); else it is pinged.  A host on this very laptop (``here``) is never lost by
silence: it is silent only while this process slept (SIGSTOP, a closed lid), and
says what it found when it runs again.  A ping not answered within ``pong_wait`` is
told to the player once per silence (:class:`SayQuiet`), with the seconds left until
another laptop takes the table over (at ``heard_at`` + D) or, with no succession,
until the connection is given up as dead: a board never just says "connected" while
its host is gone.

:class:`Reconnect` is a plain reconnect (no election: a protocol before version 4,
or a laptop with no heir)::

    reconnect = Reconnect(timings, now, seat=True)
    reconnect.due(now)                  # try again, or give up (False)
    reconnect.failed(now, asleep=...)   # [SayAsleep,] Pause

It tries for ``reconnect_for``, with a backoff between tries.  A host that welcomed
this client before and now takes connections without answering is asleep
(``asleep``): the seat is kept, so the player is told once (:class:`SayAsleep`; a
spectator has no seat and is not told) and the tries go on for ``asleep_for`` in all,
since the host's clock, and so the seat's grace, starts again only when it wakes.

It reads no socket and sends nothing: the shell (``net/client.py``) reads, pings,
connects and says what happened.  Which failures are worth another try is the
shell's (a refusal is not a timing).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .retry import Backoff, Pause
from .timings import LaptopTimings


@dataclass(frozen=True, slots=True)
class Ping:
    """Nothing heard for a beat: ping the host (and read on)."""


@dataclass(frozen=True, slots=True)
class HostLost:
    """The host stopped answering: the link is over."""


@dataclass(frozen=True, slots=True)
class SayAsleep:
    """Tell the player, once, that the host is asleep or out of reach and keeps the
    seat."""


@dataclass(frozen=True, slots=True)
class SayQuiet:
    """The host did not answer a ping in time: tell the player, once per silence, that
    another laptop takes the table over in ``seconds`` if it stays quiet (``heir``), or
    that this one starts reconnecting then."""

    seconds: int
    heir: bool


class Watch:
    """The loss rule of a link to the host; see the module docstring."""

    def __init__(self, timings: LaptopTimings) -> None:
        self.timings = timings

    def beat(self, delay: float | None) -> float:
        """How long to read before looking at the silence (``delay``: D, at a table
        that outlives its host and whose election this laptop takes part in)."""
        return self.timings.beat(delay)

    def after_ping(self, delay: float | None) -> float:
        """How long to read after a ping before the host counts as quiet."""
        return min(self.beat(delay), self.timings.pong_wait)

    def quiet(self, now: float, heard_at: float, *, delay: float | None) -> SayQuiet:
        """The ping sent went unanswered: what to tell the player (``delay``: D, at a
        table that outlives its host)."""
        end = heard_at + (self.timings.dead_after if delay is None else delay)
        return SayQuiet(max(0, math.ceil(end - now)), heir=delay is not None)

    def silent(
        self, now: float, heard_at: float, *, delay: float | None, here: bool = False
    ) -> Ping | HostLost:
        """Nothing came for a beat; the host was last heard at ``heard_at``."""
        if here:
            return Ping()
        silence = now - heard_at
        if delay is not None and silence > delay:
            return HostLost()
        if silence > self.timings.dead_after:
            return HostLost()
        return Ping()


class Reconnect:
    """A plain reconnect's tries; see the module docstring.  ``seat``: a player's
    (told when the host is asleep), not a spectator's."""

    def __init__(self, timings: LaptopTimings, now: float, *, seat: bool) -> None:
        self.timings = timings
        self.seat = seat
        self.began = now
        self.deadline = now + timings.reconnect_for
        self.asleep = False  # the player was told the host is asleep
        self._backoff = Backoff(timings.backoff, timings.backoff_max)

    def due(self, now: float) -> bool:
        """Whether to try (again) at ``now``; False: give up."""
        return now < self.deadline

    def failed(self, now: float, *, asleep: bool = False) -> list[SayAsleep | Pause]:
        """A try that may succeed later failed at ``now`` (``asleep``: the host took
        the connection, or had welcomed us, and said nothing in time)."""
        out: list[SayAsleep | Pause] = []
        if asleep:
            self.deadline = max(self.deadline, self.began + self.timings.asleep_for)
            if self.seat and not self.asleep:
                self.asleep = True
                out.append(SayAsleep())
        wait = self._backoff.next()
        out.append(Pause(max(now, min(now + wait, self.deadline))))
        return out
