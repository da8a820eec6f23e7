"""A vote that reaches a standing laptop's standby just past the lone walk's time, on
one fake clock.

On a loaded machine the laptop's loop may wake late from its wait for the lone walk
(D after it stood): its standby has meanwhile counted the vote that makes the quorum
and holds that voter's hello for the new host.  Told the time before the votes, the
election stopped standing and walked the order; the standby, which had said it hosts,
then held every hello of that voter unanswered, and the voter passed this laptop over
only after 2 D of silence, twice (a browser test at D = 1 s saw the new host serve
10-12 s after the host was killed, 3 runs in 14, where 1-3 s is usual).  The shell's
wake (``Recovery.woke``) tells the votes first: the laptop takes over."""

from __future__ import annotations

from tables import LAPTOPS, TOKENS, succession

from sorry_lan.succession import election as el
from sorry_lan.succession.retry import Recovery
from sorry_lan.succession.standby import Host, Standby
from sorry_lan.succession.timings import LaptopTimings

D = 15.0  # (tables.succession's takeover delay)


def standing() -> tuple[el.Election, Standby, Recovery, float]:
    """Laptop 1, first of an order of two (1, 2), stands D after its host was lost; its
    standby has counted laptop 2's vote, the quorum, just past the lone walk's time
    (D after it stood): the time the shell wakes at, a moment later."""
    told = succession(order=LAPTOPS[:2])
    election = el.Election(el.Order.of(told), me=1, now=0.0)
    steps = Recovery(election, LaptopTimings(), 0.0)
    assert election.host_lost(0.0) == [el.KeepTrying()]
    assert election.tick(D) == [el.OpenStandby(2)]
    standby = Standby.of(told, 1)
    assert isinstance(standby.hello(TOKENS[2], (4, 5), 2 * D + 0.01), Host)  # held
    return election, standby, steps, 2 * D + 0.02


def test_the_vote_counted_before_a_late_wake_takes_the_table_over() -> None:
    election, standby, steps, now = standing()
    assert steps.woke(now, standby.votes(now), standby.behind) == [el.TakeOver(2)]
    assert election.phase is el.Phase.HOSTING


def test_told_the_time_first_the_election_would_walk_away_from_its_quorum() -> None:
    """What the shell did before: the lone walk first (the vote then comes too late)."""
    election, standby, _steps, now = standing()
    walked = election.tick(now)
    assert walked[0] == el.CloseStandby() and isinstance(walked[1], el.TryCandidate)
    assert election.standby_votes(standby.votes(now), now) == []


def test_with_no_vote_the_lone_walk_comes_at_its_time() -> None:
    told = succession(order=LAPTOPS[:2])
    election = el.Election(el.Order.of(told), me=1, now=0.0)
    steps = Recovery(election, LaptopTimings(), 0.0)
    election.host_lost(0.0)
    assert steps.woke(D, None) == [el.OpenStandby(2)]
    walked = steps.woke(2 * D, 1)
    assert walked[0] == el.CloseStandby() and isinstance(walked[1], el.TryCandidate)
    assert walked[1].pid == 2
