"""The heir's loop while the host is lost, as decisions: what to do next, sans I/O.

While :class:`~sorry_lan.succession.election.Election` decides who hosts next, the
laptop's shell (``net/heir.py``) does one thing at a time: try the candidate the
election waits on, try the old host again (it may be back: then this laptop neither
votes nor hosts), or wait for the election's next time, a vote or an answer.
:class:`Recovery` says which, from the election and the clock::

    recovery = Recovery(election, timings, now)
    recovery.next(now, hosted_here=...)   # TryCandidate | TryHost | Pause | GiveUp
    recovery.host_failed(now)             # the old host did not welcome us
    recovery.woke(now, votes, behind)     # the shell woke: the election's decisions

The old host is tried at once, then after waits that start at ``timings.backoff``
and double up to ``timings.host_retry_max``, for as long as the election still looks
for a host (lost, walking or standing), or while the table is this laptop's own
(its own host is tried again, there is no election); never while a vote of this
laptop may still make a host at a newer epoch (``Election.promised_until``).  With
no time named the shell waits ``timings.idle``; never less than ``timings.min_pause``.

It opens nothing, counts no votes and carries out none of the election's decisions:
it only orders the shell's next step.  :class:`Backoff` is the doubling wait, also
used by ``watch.Reconnect``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .election import Decision, Election, GiveUp, Phase, TryCandidate
from .timings import LaptopTimings

#: The phases in which the old host is still tried.
TRY_HOST = (Phase.LOST, Phase.WALKING, Phase.STANDBY)


class Backoff:
    """Waits that start at ``first`` and double up to ``most``."""

    def __init__(self, first: float, most: float) -> None:
        self.first = first
        self.most = most
        self._wait = first

    def next(self) -> float:
        """The wait before the next try (each call doubles the one after)."""
        wait = self._wait
        self._wait = min(wait * 2, self.most)
        return wait


@dataclass(frozen=True, slots=True)
class TryHost:
    """Try the old host once (report :meth:`Recovery.host_failed` if it did not
    welcome us)."""


@dataclass(frozen=True, slots=True)
class Pause:
    """Wait until ``until`` (the clock's), or until an input comes (a vote, an answer,
    an advert), whichever is first; then tell the election the time."""

    until: float


#: What the shell does next.
Step = TryCandidate | TryHost | Pause | GiveUp


class Recovery:
    """The order of the heir's steps; see the module docstring."""

    def __init__(self, election: Election, timings: LaptopTimings, now: float) -> None:
        self.election = election
        self.timings = timings
        self.host_at = now  # when the old host is tried next
        self._backoff = Backoff(timings.backoff, timings.host_retry_max)

    def next(self, now: float, *, hosted_here: bool = False) -> Step:
        """The next step at ``now``: the candidate the election waits on, the end
        (the election gave up), the old host when due, else a pause until the
        election's next time or the old host's (``hosted_here``: the table is this
        laptop's own, whose host is tried again while there is no election)."""
        election = self.election
        attempt = election.waiting_for
        if attempt is not None:
            return attempt
        if election.phase is Phase.GONE:
            return GiveUp()
        trying = election.phase in TRY_HOST or hosted_here
        # (never while a vote of ours may still make a newer host: the old one would
        # count us towards its quorum too)
        host_at = max(self.host_at, election.promised_until(now) or self.host_at)
        if trying and now >= host_at:
            return TryHost()
        wake = election.wake_at
        if trying:
            wake = host_at if wake is None else min(wake, host_at)
        until = now + self.timings.idle if wake is None else wake
        return Pause(max(until, now + self.timings.min_pause))

    def woke(self, now: float, votes: int | None, behind: bool = False) -> list[Decision]:
        """The shell woke at ``now``: what the election decides, told first the votes
        this laptop's standby counts by now (``votes``, its own included; None: it does
        not stand; ``behind``: it turned a vote away), then the time.  The votes came
        before ``now``: on a loaded machine the shell may wake only after a vote that
        came past the lone walk's time (D after it stood), and the standby has already
        answered it; told the time first, the election would stop standing and walk,
        and a standby whose votes were enough holds that voter's hello for a host that
        never comes (the voter passes this laptop over only after 2 D of silence, at
        each walk from the top: about ten seconds with D = 1 s)."""
        election = self.election
        counted = [] if votes is None else election.standby_votes(votes, now, behind)
        return [*counted, *election.tick(now)]

    def host_failed(self, now: float) -> None:
        """The old host did not welcome us at ``now``: it is tried again after the
        next wait of the backoff."""
        self.host_at = now + self._backoff.next()
