"""The laptop's own machines on a fake clock, their transitions as data: the loss
rule of a link (:class:`Watch`), a plain reconnect's tries and its asleep host
(:class:`Reconnect`), the heir's steps while the host is lost (:class:`Recovery`),
and the relations :class:`LaptopTimings` checks when built."""

from __future__ import annotations

from typing import Any

import pytest

from sorry_lan.authority import timings as host
from sorry_lan.succession.election import (
    Election,
    Follow,
    GiveUp,
    OpenStandby,
    Order,
    Phase,
    TryCandidate,
)
from sorry_lan.succession.retry import Backoff, Pause, Recovery, TryHost
from sorry_lan.succession.standby import Standby
from sorry_lan.succession.timings import LaptopTimings, LaptopTimingsError
from sorry_lan.succession.watch import HostLost, Ping, Reconnect, SayAsleep, SayQuiet, Watch
from sorry_lan.wire.succession import Laptop

T = LaptopTimings()  # heartbeat 5, dead_after 20, reconnect_for 60, asleep_for 600
D = 15.0
A = Laptop(1, ("10.0.0.1",), 7001)
B = Laptop(2, ("10.0.0.2",), 7002)
ORDER = Order(epoch=1, host=0, delay=D, grace=60.0, laptops=(A, B))


# -- the loss rule ----------------------------------------------------------------------

#: (seconds of silence, D or None, the host is this laptop's own, what the watch says)
SILENCES = [
    (4.0, None, False, Ping()),
    (20.0, None, False, Ping()),  # dead_after is "longer than"
    (20.5, None, False, HostLost()),
    (15.0, D, False, Ping()),
    (15.5, D, False, HostLost()),  # D before dead_after at a version-4 table
    (20.5, 30.0, False, HostLost()),  # dead_after before a long D
    (15.5, D, True, Ping()),  # its own host is silent only while this process slept
    (500.0, None, True, Ping()),
]


@pytest.mark.parametrize(("silence", "delay", "here", "said"), SILENCES)
def test_the_loss_rule(silence: float, delay: float | None, here: bool, said: object) -> None:
    assert Watch(T).silent(1000.0 + silence, 1000.0, delay=delay, here=here) == said


@pytest.mark.parametrize(("delay", "beat"), [(None, 5.0), (30.0, 5.0), (15.0, 5.0), (6.0, 2.0)])
def test_the_beat_is_the_heartbeat_or_a_third_of_d(delay: float | None, beat: float) -> None:
    assert Watch(T).beat(delay) == beat


@pytest.mark.parametrize(("delay", "wait"), [(None, 2.0), (D, 2.0), (3.0, 1.0)])
def test_a_ping_is_waited_for_a_short_while_or_a_beat(delay: float | None, wait: float) -> None:
    assert Watch(T).after_ping(delay) == wait


#: (seconds of silence when the ping went unanswered, D or None, what the player is told)
QUIET = [
    (7.0, D, SayQuiet(8, heir=True)),  # another laptop takes over at D
    (7.2, D, SayQuiet(8, heir=True)),  # (rounded up: never "0 s" while time is left)
    (16.0, D, SayQuiet(0, heir=True)),
    (7.0, None, SayQuiet(13, heir=False)),  # no succession: reconnecting at dead_after
]


@pytest.mark.parametrize(("silence", "delay", "said"), QUIET)
def test_an_unanswered_ping_tells_how_long_until_the_next_host(
    silence: float, delay: float | None, said: SayQuiet
) -> None:
    assert Watch(T).quiet(1000.0 + silence, 1000.0, delay=delay) == said


# -- a plain reconnect ------------------------------------------------------------------

#: A reconnect begun at 0: each row an input at a time and what it returns (``due``:
#: whether to try; ``failed``/``asleep``: a try failed, the host silent or not).
RECONNECT: list[tuple[str, float, Any]] = [
    ("due", 0.0, True),
    ("failed", 0.0, [Pause(0.05)]),
    ("failed", 0.05, [Pause(0.15)]),
    ("failed", 0.15, [Pause(0.35)]),
    ("failed", 0.35, [Pause(0.75)]),
    ("failed", 0.75, [Pause(1.55)]),
    ("failed", 1.55, [Pause(3.15)]),  # 1.6 s wait, then...
    ("failed", 3.15, [Pause(5.15)]),  # ...at most 2 s between tries
    ("failed", 59.0, [Pause(60.0)]),  # never past the end
    ("due", 59.99, True),
    ("due", 60.0, False),  # reconnect_for is over: give up
]

ASLEEP: list[tuple[str, float, Any]] = [
    ("failed", 0.0, [Pause(0.05)]),
    ("asleep", 1.0, [SayAsleep(), Pause(1.1)]),  # told once...
    ("asleep", 2.0, [Pause(2.2)]),  # ...not again
    ("due", 60.0, True),  # the host keeps the seat until it wakes: asleep_for in all
    ("failed", 599.8, [Pause(600.0)]),  # (a 0.4 s wait, cut at the end)
    ("due", 599.99, True),
    ("due", 600.0, False),
]


def rounded(value: Any) -> Any:
    """``value`` with each pause's time rounded (sums of binary fractions)."""
    if isinstance(value, list):
        return [rounded(v) for v in value]
    if isinstance(value, Pause):
        return Pause(round(value.until, 9))
    return value


def run_reconnect(script: list[tuple[str, float, Any]], *, seat: bool = True) -> None:
    r = Reconnect(T, 0.0, seat=seat)
    for step, (what, now, expected) in enumerate(script):
        if what == "due":
            got: Any = r.due(now)
        else:
            got = r.failed(now, asleep=what == "asleep")
        assert rounded(got) == rounded(expected), (step, what, now)


def test_a_reconnect_backs_off_up_to_two_seconds_and_gives_up() -> None:
    run_reconnect(RECONNECT)


def test_an_asleep_host_is_told_once_and_waited_for_longer() -> None:
    run_reconnect(ASLEEP)


def test_a_spectator_is_not_told_of_an_asleep_host_but_waits_as_long() -> None:
    run_reconnect([(w, t, [d for d in x if d != SayAsleep()] if isinstance(x, list) else x)
                   for w, t, x in ASLEEP], seat=False)


def test_no_reconnect_at_all() -> None:
    r = Reconnect(LaptopTimings(reconnect_for=0.0), 5.0, seat=True)
    assert not r.due(5.0)


def test_a_backoff_doubles_up_to_its_most() -> None:
    b = Backoff(0.5, 3.0)
    assert [b.next() for _ in range(5)] == [0.5, 1.0, 2.0, 3.0, 3.0]


# -- the heir's steps -------------------------------------------------------------------


def election(me: int = 2) -> Election:
    e = Election(ORDER, me=me, now=0.0)
    e.heard(100.0)
    e.host_lost(101.0)
    return e


#: The heir's steps for laptop 2 whose host was last heard at 100 and lost at 101:
#: (input, time, what it returns).  ``next`` the step; ``host`` the old host failed;
#: ``tick`` the election told the time (returns its decisions).
RECOVERY: list[tuple[str, float, Any]] = [
    ("next", 101.0, TryHost()),  # at once
    ("host", 101.0, None),
    ("next", 101.01, Pause(101.05)),  # the backoff's first wait
    ("next", 101.05, TryHost()),
    ("host", 101.06, None),
    ("next", 101.06, Pause(101.16)),
    ("host", 101.16, None),
    ("host", 101.36, None),
    ("host", 101.76, None),
    ("host", 102.56, None),
    ("host", 104.16, None),  # 1.6 s, then at most host_retry_max (2 s)
    ("next", 104.17, Pause(106.16)),
    ("host", 106.16, None),
    ("next", 106.17, Pause(108.16)),
    ("host", 114.5, None),
    ("next", 114.6, Pause(115.0)),  # the election's time (100 + D) comes first
    ("tick", 115.0, [TryCandidate(1, A.addrs, A.port)]),
    ("next", 115.0, TryCandidate(1, A.addrs, A.port)),  # the candidate it waits on
]


def run_recovery(script: list[tuple[str, float, Any]], e: Election,
                 timings: LaptopTimings = T, *, here: bool = False) -> None:  # fmt: skip
    r = Recovery(e, timings, script[0][1])
    for step, (what, now, expected) in enumerate(script):
        if what == "next":
            got: Any = r.next(now, hosted_here=here)
        elif what == "host":
            r.host_failed(now)
            got = None
        else:
            got = e.tick(now)
        assert rounded(got) == rounded(expected), (step, what, now)


def test_the_old_host_is_tried_with_a_backoff_until_the_walk() -> None:
    run_recovery(RECOVERY, election())


def test_the_backoff_s_most_is_the_timings() -> None:
    quick = LaptopTimings(host_retry_max=0.2)
    run_recovery([("host", 0.0, None), ("host", 0.05, None), ("host", 0.15, None),
                  ("next", 0.16, Pause(0.35)), ("host", 0.35, None),
                  ("next", 0.36, Pause(0.55))], election(), quick)


def test_with_no_time_named_the_heir_waits_idle_and_never_less_than_a_pause() -> None:
    mine = Order(epoch=2, host=2, delay=D, grace=60.0, laptops=(A,))
    e = Election(mine, me=2, now=0.0)  # this laptop hosts: the election names no time
    r = Recovery(e, T, 0.0)
    assert r.next(3.0) == Pause(4.0)
    e = election()
    r = Recovery(e, T, 200.0)
    assert rounded(r.next(114.999)) == Pause(115.019)


def test_its_own_table_s_host_is_tried_again_without_an_election() -> None:
    e = Election(ORDER, me=2, now=0.0)
    r = Recovery(e, T, 1.0)
    assert r.next(1.0, hosted_here=True) == TryHost()
    r.host_failed(1.0)
    assert r.next(1.01, hosted_here=True) == Pause(1.05)


def test_a_gone_election_ends_the_steps() -> None:
    e = election()
    e.tick(100.0 + D)
    assert e.tick(100.0 + 600.0) == [GiveUp()]
    assert Recovery(e, T, 700.0).next(700.0) == GiveUp()


def voted(me: int = 2) -> tuple[Election, Recovery]:
    """Seeds 945 and 1744 of the simulator (issue 31): laptop 2, its host lost at 101,
    voted for laptop 1 at 115.1 (its standby stands: the hello counts there for 2 D);
    the old host, tried in vain meanwhile, is due again."""
    e = election(me)
    e.host_port = 7000
    r = Recovery(e, T, 101.0)
    assert r.next(101.0) == TryHost()
    r.host_failed(101.0)
    assert e.tick(100.0 + D) == [TryCandidate(1, A.addrs, A.port)]
    assert e.busy(TryCandidate(1, A.addrs, A.port), 115.1) == []  # "waiting: 2 of 2"
    return e, r


def test_a_vote_keeps_the_voter_from_its_old_host() -> None:
    """Raft's rule (a server that voted in a term never follows a leader of an older
    one): laptop 1 may take over with this vote and count this laptop present, so
    the old host is neither tried nor followed at its new address, and the candidate
    voted for is tried again and followed at the new epoch.  Before: the old host,
    paused, counted the returning laptop at once and played on beside laptop 1."""
    e, r = voted()
    assert e.promised_until(115.2) == 115.1 + 3 * D
    assert r.next(115.2) == Pause(116.1)  # the retry of laptop 1, not the old host
    assert e.advert(1, ("10.0.0.9",), 7000, 115.5) == []  # the old host, moved
    assert e.tick(116.1) == [TryCandidate(1, A.addrs, A.port)]
    assert r.next(116.1) == TryCandidate(1, A.addrs, A.port)
    assert e.welcomed(TryCandidate(1, A.addrs, A.port), 2, 1, 116.2) == [Follow(1, 2)]
    e.update(Order(epoch=2, host=1, delay=D, grace=60.0, laptops=(B,)))
    assert e.promised_until(116.3) is None  # it follows the host its vote made


def test_a_vote_binds_for_3_d_then_the_old_host_is_tried_again() -> None:
    """The candidate voted for is gone (this laptop stands, nobody votes for it): the
    old host waits until the vote can count nowhere, nor the voter count present at
    a host it made: kept 2 D by the standby, then its lease L (< D) at that host."""
    e, r = voted()
    a = TryCandidate(1, A.addrs, A.port)
    assert e.tick(116.1) == [a]
    assert e.failed(a, 117.0) == [a]  # the walk again from the top
    assert e.failed(a, 119.0) == [OpenStandby(2)]
    assert e.phase is Phase.STANDBY
    until = 115.1 + 3 * D
    assert isinstance(r.next(until - 0.01), Pause)
    assert r.next(until) == TryHost()
    # a hello the standby held (its votes were enough) binds the voter too
    e, r = voted()
    e.tick(116.1)
    e.silent(TryCandidate(1, A.addrs, A.port), 118.0)
    assert e.promised_until(118.0) == 118.0 + 3 * D
    assert isinstance(r.next(118.0 + 3 * D - 0.01), Pause)
    keep = Standby(me=1, laptops=(1, 2), seats={}, delay=D).keep_for
    assert keep + host.Timings.of(D).lease < 3 * D


def test_no_vote_no_binding() -> None:
    """A standby that does not stand counts no vote, and a spectator never votes: the
    old host is tried as before."""
    e = election()
    r = Recovery(e, T, 101.0)
    r.host_failed(101.0)
    e.tick(100.0 + D)
    e.busy(TryCandidate(1, A.addrs, A.port), 115.1, standing=False)
    assert e.promised_until(115.2) is None and r.next(115.2) == TryHost()
    e = Election(ORDER, me=None, now=0.0)
    e.heard(100.0)
    e.host_lost(101.0)
    r = Recovery(e, T, 101.0)
    r.host_failed(101.0)
    e.tick(100.0 + D)
    e.busy(TryCandidate(1, A.addrs, A.port), 115.1)
    assert e.promised_until(115.2) is None and r.next(115.2) == TryHost()


# -- the timings --------------------------------------------------------------------------

BROKEN = [
    {"heartbeat": 20.0},  # not before dead_after
    {"reconnect_for": 700.0},  # past asleep_for
    {"reconnect_for": -1.0},
    {"backoff": 0.0},
    {"backoff": 3.0},  # past backoff_max
    {"backoff": 1.0, "host_retry_max": 0.5},
    {"attempt_timeout": 0.0},
    {"min_pause": 1.0},  # not before idle
    {"connect_timeout": -1.0},  # (0: no wait at all)
    {"own_retry": 0.0},
    {"greet_within": 2.0},  # a standby would cut a voter's try short
]


@pytest.mark.parametrize("changed", BROKEN)
def test_timings_that_break_a_relation_are_refused(changed: dict[str, float]) -> None:
    with pytest.raises(LaptopTimingsError):
        LaptopTimings(**changed)


def test_the_default_timings_keep_every_relation() -> None:
    assert LaptopTimings() == T
    assert (T.heartbeat, T.dead_after) == (host.HEARTBEAT, host.DEAD_AFTER)  # section 4
    assert LaptopTimings(heartbeat=0.2, dead_after=1.0, reconnect_for=0.0).beat(None) == 0.2
