"""The election of one client on a fake clock: the takeover delay from the last frame
heard, the walk of the order (passing over the unreachable, voting for the busy,
starting again when the voted-for candidate dies), this laptop's standby and its
quorum, the lone rule and a cut-off link, handover, the mDNS hint, epoch and turn
checks of a new host, two successive takeovers, and giving up."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tables import LAPTOPS, succession

from sorry_lan.succession.election import (
    CLAIM_TEXT,
    GIVE_UP,
    RETRY,
    AskAlone,
    Claim,
    CloseStandby,
    Election,
    Follow,
    GiveUp,
    KeepTrying,
    OpenStandby,
    Order,
    Phase,
    RefuseHost,
    TakeOver,
    TryCandidate,
    quorum,
)
from sorry_lan.wire.succession import Laptop

D = 15.0
G = 60.0
A = Laptop(1, ("10.0.0.1",), 7001)
B = Laptop(2, ("10.0.0.2", "fd00::2"), 7002)
C = Laptop(3, ("10.0.0.3",), 7003)
ORDER = Order(epoch=1, host=0, delay=D, grace=G, laptops=(A, B, C))


def phase(e: Election) -> Phase:
    """The election's phase (a call, so that mypy does not narrow it between inputs)."""
    return e.phase


def attempt(lap: Laptop) -> TryCandidate:
    return TryCandidate(lap.pid, lap.addrs, lap.port)


def lost(
    me: int | None, order: Order = ORDER, heard: float = 100.0, *, may_ask: bool = False
) -> Election:
    """An election whose host was last heard at ``heard`` and whose reconnect failed
    (``may_ask``: a person is at the laptop)."""
    e = Election(order, me=me, now=0.0, may_ask=may_ask)
    e.heard(heard)
    assert e.host_lost(heard + 1) == [KeepTrying()]
    return e


def test_quorum_is_a_majority() -> None:
    assert [quorum(n) for n in (1, 2, 3, 4, 5)] == [1, 2, 2, 3, 3]


def test_the_walk_waits_for_the_delay_from_the_last_frame_heard() -> None:
    e = lost(me=2)
    assert phase(e) is Phase.LOST
    assert e.wake_at == 100.0 + D
    assert e.tick(100.0 + D - 0.1) == []
    assert e.tick(100.0 + D) == [attempt(A)]
    assert phase(e) is Phase.WALKING
    assert e.lost_at == 100.0


def test_silence_for_the_delay_is_a_lost_host_too() -> None:
    e = Election(ORDER, me=3, now=0.0)
    e.heard(50.0)
    assert e.tick(50.0 + D - 1) == []
    assert e.tick(50.0 + D) == [KeepTrying(), attempt(A)]


def test_hearing_the_host_again_before_the_delay_keeps_it() -> None:
    e = lost(me=2)
    assert e.heard(110.0) == []
    assert phase(e) is Phase.WATCHING
    assert e.tick(100.0 + D) == []  # heard at 110: not lost any more
    assert e.tick(110.0 + D) == [KeepTrying(), attempt(A)]


def test_the_first_laptop_opens_its_standby_and_takes_over_with_a_quorum() -> None:
    e = lost(me=1)
    assert e.tick(100.0 + D) == [OpenStandby(2)]
    assert phase(e) is Phase.STANDBY
    assert e.standby_votes(1, 116.0) == []
    assert e.standby_votes(2, 117.0) == [TakeOver(2)]
    assert phase(e) is Phase.HOSTING
    assert e.tick(1000.0) == []


def test_unreachable_laptops_are_passed_over_down_to_this_one() -> None:
    e = lost(me=3)
    assert e.tick(115.0) == [attempt(A)]
    assert e.failed(attempt(A), 116.0) == [attempt(B)]
    assert e.failed(attempt(B), 117.0) == [OpenStandby(2)]


def test_a_busy_candidate_is_tried_again_each_second_and_followed() -> None:
    e = lost(me=3)
    e.tick(115.0)
    assert e.busy(attempt(A), 115.5) == []
    assert e.wake_at == 115.5 + RETRY
    assert e.tick(116.0) == []
    assert e.tick(116.5) == [attempt(A)]
    assert e.welcomed(attempt(A), 2, 1, 117.0) == [Follow(1, 2)]
    assert phase(e) is Phase.WATCHING


def test_a_candidate_holding_the_hello_is_tried_again_not_passed_over() -> None:
    """C's hello completed A's quorum; A's standby holds it while A starts the table
    (longer than one try may wait): C tries A again, and follows it once it serves;
    it never walks on to stand itself (and stay there, at the old epoch)."""
    e = lost(me=3)
    assert e.tick(115.0) == [attempt(A)]
    assert e.silent(attempt(A), 117.0) == []
    assert e.wake_at == 117.0 + RETRY
    assert e.tick(118.0) == [attempt(A)]
    assert e.silent(attempt(A), 120.0) == []  # still starting the table
    assert e.tick(121.0) == [attempt(A)]
    assert e.welcomed(attempt(A), 2, 1, 121.5) == [Follow(1, 2)]
    assert phase(e) is Phase.WATCHING


def test_a_candidate_silent_for_as_long_as_a_vote_is_kept_is_passed_over() -> None:
    """A laptop that takes connections and never answers (frozen) is passed over once
    it has been silent for 2 D (the time its standby would keep our vote)."""
    e = lost(me=3)
    e.tick(115.0)
    t = 115.0
    while True:
        t += 2.0
        out = e.silent(attempt(A), t)
        if out:
            break
        t += RETRY
        assert e.tick(t) == [attempt(A)]
    assert out == [attempt(B)]
    assert t - 117.0 >= 2 * D
    assert t - 117.0 < 2 * D + 2.0 + RETRY


def test_silence_at_an_advert_s_address_is_a_failure() -> None:
    e = lost(me=3)
    e.tick(115.0)
    hint = TryCandidate(None, ("10.0.0.9",), 7009)
    assert e.advert(3, hint.addrs, hint.port, 115.5) == []  # tried once A is answered
    assert e.failed(attempt(A), 116.0) == [hint]
    assert e.silent(hint, 118.0) == [attempt(B)]


def test_answers_about_an_attempt_not_waited_on_decide_nothing() -> None:
    e = lost(me=3)
    e.tick(115.0)
    assert e.failed(attempt(B), 115.5) == []
    assert e.welcomed(attempt(C), 2, 3, 115.5) == []
    assert e.waiting_for == attempt(A)


def test_a_successor_that_dies_during_its_takeover_passes_to_the_next() -> None:
    """C voted for A (busy); A dies: its next try fails, the walk starts again from the
    top (A fails once more), and B is tried, who takes over."""
    e = lost(me=3)
    e.tick(115.0)
    e.busy(attempt(A), 115.2)
    assert e.tick(116.2) == [attempt(A)]
    assert e.failed(attempt(A), 117.0) == [attempt(A)]  # the walk again, from the top
    assert e.failed(attempt(A), 118.0) == [attempt(B)]
    e.busy(attempt(B), 118.1)
    assert e.tick(119.1) == [attempt(B)]
    assert e.welcomed(attempt(B), 2, 2, 119.5) == [Follow(2, 2)]


def test_the_next_laptop_opens_its_standby_when_the_first_dies() -> None:
    e = lost(me=2)
    e.tick(115.0)
    e.busy(attempt(A), 115.1)
    e.tick(116.1)
    e.failed(attempt(A), 116.5)
    assert e.failed(attempt(A), 117.0) == [OpenStandby(2)]
    assert e.standby_votes(2, 118.0) == [TakeOver(2)]


def test_the_lone_walk_asks_the_person_after_the_grace_when_the_network_works() -> None:
    """Nobody answers C: at the grace it asks the person at the laptop (once), stands
    again meanwhile, and takes over alone only when they agree."""
    e = lost(me=3, may_ask=True)
    e.tick(115.0)
    e.failed(attempt(A), 116.0)
    assert e.failed(attempt(B), 117.0) == [OpenStandby(2)]
    # no vote for D after it stood: it stops standing and tries the others again
    assert e.wake_at == 117.0 + D
    assert e.tick(117.0 + D - 0.5) == []
    assert e.tick(117.0 + D) == [CloseStandby(), attempt(A)]
    assert phase(e) is Phase.WALKING
    e.failed(attempt(A), 133.0)
    assert e.failed(attempt(B), 134.0) == [OpenStandby(2)]  # nobody, but before G
    assert e.wake_at == 134.0 + D
    assert e.tick(134.0 + D) == [CloseStandby(), attempt(A)]
    e.failed(attempt(A), 150.0)
    assert e.failed(attempt(B), 151.0) == [OpenStandby(2)]
    assert e.wake_at == 100.0 + G  # the lone rule's own time (before 151 + D)
    assert e.tick(100.0 + G - 0.5) == []
    # it tests that it reaches nobody: it stops standing and tries the others again
    assert e.tick(100.0 + G) == [CloseStandby(), attempt(A)]
    assert phase(e) is Phase.WALKING
    assert e.failed(attempt(A), 100.0 + G + 1) == [attempt(B)]
    assert e.failed(attempt(B), 100.0 + G + 2) == [OpenStandby(2), AskAlone(2)]
    assert phase(e) is Phase.STANDBY  # (it walks on while the person decides)
    assert e.tick(100.0 + G + 2 + D) == [CloseStandby(), attempt(A)]
    e.failed(attempt(A), 100.0 + G + 18)
    assert e.failed(attempt(B), 100.0 + G + 19) == [OpenStandby(2)]  # asked once
    assert e.alone_agreed(100.0 + G + 20) == [TakeOver(2, alone=True)]
    assert phase(e) is Phase.HOSTING


def test_a_bot_or_headless_laptop_never_takes_over_alone() -> None:
    """The same walk with nobody to ask: C stands again and walks again every D, never
    asks and never takes over, until it gives up."""
    e = lost(me=3)
    decided = e.tick(115.0)
    now = 115.0
    while phase(e) is not Phase.GONE:
        waiting = e.waiting_for
        if waiting is not None:
            now += 0.5
            decided += e.failed(waiting, now)
            continue
        wake = e.wake_at
        assert wake is not None
        now = max(now, wake)
        decided += e.tick(now)
    assert not [d for d in decided if isinstance(d, TakeOver | AskAlone)]
    assert decided.count(OpenStandby(2)) > 30  # it walked every D for ten minutes
    assert decided[-1] == GiveUp() and now == 100.0 + GIVE_UP
    assert e.alone_agreed(now) == []  # (nothing was asked)


def test_a_yes_after_another_laptop_answered_takes_nothing_over() -> None:
    """Asked at the grace, the person says yes once B has answered (it stands): C is
    not alone, and votes or follows as anyone would."""
    e = lost(me=3, may_ask=True)
    e.tick(115.0)
    e.failed(attempt(A), 116.0)
    e.failed(attempt(B), 117.0)
    e.tick(100.0 + G)
    e.failed(attempt(A), 161.0)
    assert e.failed(attempt(B), 162.0) == [OpenStandby(2), AskAlone(2)]
    assert e.tick(162.0 + D) == [CloseStandby(), attempt(A)]
    e.failed(attempt(A), 178.0)
    assert e.busy(attempt(B), 178.5) == []  # B stands: "waiting for the table"
    assert e.alone_agreed(179.0) == []
    assert phase(e) is Phase.WALKING


def test_a_first_laptop_nobody_reaches_follows_the_host_its_last_walk_finds() -> None:
    """A's firewall drops incoming connections: B and C pass A over and B takes over
    with C's vote.  A stood with no votes; D later it tries B and C, and follows B,
    who hosts now (A looked past itself), well before the lone rule's time."""
    e = lost(me=1)
    assert e.tick(115.0) == [OpenStandby(2)]
    assert e.tick(115.0 + D - 0.5) == []
    assert e.tick(115.0 + D) == [CloseStandby(), attempt(B)]
    assert e.welcomed(attempt(B), 2, 2, 115.0 + D + 0.5) == [Follow(2, 2)]
    assert phase(e) is Phase.WATCHING


def test_the_last_walk_votes_for_a_laptop_that_stands() -> None:
    """Two laptops, neither reaching the other's standby until A's last walk: A votes
    for B (A does not stand any more: no vote counts twice) and follows B."""
    order = Order(epoch=1, host=0, delay=D, grace=G, laptops=(A, B))
    e = lost(me=1, order=order)
    assert e.tick(115.0) == [OpenStandby(2)]
    assert e.tick(100.0 + G) == [CloseStandby(), attempt(B)]
    assert e.busy(attempt(B), 100.0 + G + 0.5) == []  # "waiting for the table: 2 of 2"
    assert e.tick(100.0 + G + 0.5 + RETRY) == [attempt(B)]
    assert e.welcomed(attempt(B), 2, 2, 100.0 + G + 2) == [Follow(2, 2)]


def test_a_last_walk_that_reaches_someone_never_takes_over_alone() -> None:
    """B answers, then cannot be reached any more: A is not alone (B is alive
    somewhere); it stands again, counts on votes only, and walks again every D."""
    order = Order(epoch=1, host=0, delay=D, grace=G, laptops=(A, B))
    e = lost(me=1, order=order)
    e.tick(115.0)
    e.tick(100.0 + G)
    e.busy(attempt(B), 160.5)
    assert e.tick(161.5) == [attempt(B)]
    assert e.failed(attempt(B), 162.0) == [attempt(B)]  # from the top, past A
    assert e.failed(attempt(B), 163.0) == [OpenStandby(2)]
    assert phase(e) is Phase.STANDBY
    assert e.wake_at == 163.0 + D
    assert e.tick(163.0 + D - 0.5) == []
    assert e.tick(163.0 + D) == [CloseStandby(), attempt(B)]
    assert e.failed(attempt(B), 179.0) == [OpenStandby(2)]  # still never alone
    assert e.standby_votes(2, 180.0) == [TakeOver(2)]


def test_a_standing_laptop_refusing_an_advert_still_walks_when_nobody_votes() -> None:
    """A stands (nobody reaches it); B's advert at epoch 2 comes first: A refuses it
    (B is after A, and A stands), but nobody voted for A: D after it stood, A walks
    past itself and follows B."""
    e = lost(me=1)
    e.tick(115.0)
    hint = TryCandidate(None, B.addrs, B.port)
    assert e.advert(2, hint.addrs, hint.port, 120.0) == [hint]
    assert e.welcomed(hint, 2, 2, 120.5) == [RefuseHost(2, 2, Claim.OUT_OF_TURN)]
    assert e.wake_at == 115.0 + D
    assert e.tick(115.0 + D) == [CloseStandby(), attempt(B)]
    assert e.welcomed(attempt(B), 2, 2, 131.0) == [Follow(2, 2)]


def test_a_laptop_voted_for_walks_only_2d_after_it_stood_and_never_asks() -> None:
    """Votes hold a standing laptop for as long as a vote is kept (2 D), not D: its
    voters came, the others may be on their way.  Short of its quorum then (a split
    vote, as Raft's election timeout ends one) it walks past itself like the lone
    walk, and stands again: a laptop voted for is not alone, nobody is asked."""
    four = (A, B, C, Laptop(4, ("10.0.0.4",), 7004))
    e = lost(me=1, order=Order(epoch=1, host=0, delay=D, grace=G, laptops=four),
             may_ask=True)
    e.tick(115.0)
    e.standby_votes(2, 116.0)  # 2 of 3
    assert e.wake_at == 115.0 + 2 * D
    assert e.tick(115.0 + 2 * D - 0.1) == [] and phase(e) is Phase.STANDBY
    assert e.tick(115.0 + 2 * D) == [CloseStandby(), attempt(B)]
    assert e.busy(attempt(B), 146.0, standing=False) == [attempt(C)]
    assert e.busy(attempt(C), 147.0, standing=False) == [attempt(four[3])]
    assert e.failed(attempt(four[3]), 148.0) == [OpenStandby(2)]  # no AskAlone


def test_a_last_walk_with_the_network_down_stands_again_and_waits() -> None:
    e = lost(me=3, may_ask=True)
    e.tick(115.0)
    e.failed(attempt(A), 116.0)
    e.failed(attempt(B), 117.0)
    assert e.tick(100.0 + G) == [CloseStandby(), attempt(A)]
    assert e.failed(attempt(A), 161.0, unreachable=True) == [attempt(B)]
    assert e.failed(attempt(B), 162.0, unreachable=True) == [OpenStandby(2)]
    assert phase(e) is Phase.STANDBY
    assert e.wake_at == 100.0 + GIVE_UP  # the lone rule waits for the network
    assert e.tick(200.0) == []
    assert e.host_lost(201.0) == [CloseStandby(), attempt(A)]  # the link works again
    assert e.failed(attempt(A), 202.0) == [attempt(B)]
    assert e.failed(attempt(B), 203.0) == [OpenStandby(2), AskAlone(2)]
    assert e.alone_agreed(204.0) == [TakeOver(2, alone=True)]


@pytest.mark.parametrize("may_ask", [True, False])
def test_a_laptop_alone_at_the_table_waits_for_the_grace_and_asks(may_ask: bool) -> None:
    """Two laptops at the table, the host's lid closed: the other laptop is asked at the
    grace (a person: it plays on alone if they agree); a bot never takes over."""
    order = Order(epoch=4, host=None, delay=D, grace=G, laptops=(A,))
    e = lost(me=1, order=order, may_ask=may_ask)
    assert e.tick(115.0) == [OpenStandby(5)]
    assert e.standby_votes(1, 116.0) == []  # a quorum of one is not enough
    assert e.tick(100.0 + G) == ([AskAlone(5)] if may_ask else [])
    assert e.tick(100.0 + G + D) == []  # asked once
    yes = e.alone_agreed(100.0 + G + D + 1)
    assert yes == ([TakeOver(5, alone=True)] if may_ask else [])


def test_a_client_whose_own_link_is_down_never_takes_over() -> None:
    e = lost(me=3)
    e.host_lost(110.0, unreachable=True)
    e.tick(115.0)
    e.failed(attempt(A), 115.0, unreachable=True)
    assert e.failed(attempt(B), 115.0, unreachable=True) == [OpenStandby(2)]
    e.host_lost(130.0, unreachable=True)  # the shell keeps trying the host
    assert e.tick(100.0 + G) == []
    assert e.tick(300.0) == []
    assert e.heard(310.0) == [CloseStandby()]  # the link is back: the host is alive
    assert phase(e) is Phase.WATCHING


def test_no_usable_interface_blocks_the_lone_rule_too() -> None:
    e = lost(me=3, may_ask=True)
    e.interfaces(False)
    e.tick(115.0)
    e.failed(attempt(A), 115.0)
    e.failed(attempt(B), 115.0)
    assert e.tick(100.0 + G) == []
    e.interfaces(True)
    assert e.tick(100.0 + G + 1) == [CloseStandby(), attempt(A)]
    e.failed(attempt(A), 100.0 + G + 2)
    assert e.failed(attempt(B), 100.0 + G + 3) == [OpenStandby(2), AskAlone(2)]


def test_a_cut_off_client_that_reaches_another_laptop_never_takes_over_alone() -> None:
    """A still sees the host: its standby answers busy (not standing); C keeps trying
    A and never takes over, however long it waits."""
    e = lost(me=3)
    e.tick(115.0)
    now = 115.0
    while now < GIVE_UP:
        assert e.busy(attempt(A), now) == []
        now += RETRY
        assert e.tick(now) == [attempt(A)]
    assert phase(e) is Phase.WALKING


def test_votes_at_the_standby_mean_it_is_not_alone() -> None:
    four = (A, B, C, Laptop(4, ("10.0.0.4",), 7004))
    order = Order(epoch=1, host=0, delay=D, grace=G, laptops=four)
    e = lost(me=1, order=order)
    e.tick(115.0)
    assert e.standby_votes(2, 120.0) == []  # 2 of 3
    assert e.wake_at == 115.0 + 2 * D  # not alone: no lone rule at G, only 2 D's walk
    assert e.tick(100.0 + G - 16) == []
    assert e.standby_votes(3, 140.0) == [TakeOver(2)]


def test_handover_to_this_laptop_takes_over_at_once() -> None:
    e = Election(ORDER, me=2, now=0.0)
    assert e.handover(2, 2, 5.0) == [TakeOver(2)]


def test_handover_to_another_is_followed_at_once() -> None:
    e = Election(ORDER, me=3, now=0.0)
    assert e.handover(2, 2, 5.0) == [attempt(B)]
    assert e.welcomed(attempt(B), 2, 2, 5.5) == [Follow(2, 2)]


def test_handover_to_a_laptop_that_cannot_be_reached_walks_the_order() -> None:
    e = Election(ORDER, me=3, now=0.0)
    e.handover(2, 2, 5.0)
    assert e.failed(attempt(B), 6.0) == [attempt(A)]
    e.busy(attempt(A), 6.1)
    e.tick(7.1)
    assert e.welcomed(attempt(A), 3, 1, 7.5) == [Follow(1, 3)]


def test_handover_at_an_old_epoch_is_refused() -> None:
    e = Election(ORDER, me=3, now=0.0)
    assert e.handover(1, 2, 5.0) == [RefuseHost(2, 1, Claim.OLD_EPOCH)]
    assert phase(e) is Phase.WATCHING


def test_a_new_host_at_an_old_epoch_is_refused_and_passed_over() -> None:
    e = lost(me=3, order=Order(epoch=3, host=0, delay=D, grace=G, laptops=(A, B, C)))
    e.tick(115.0)
    assert e.welcomed(attempt(A), 2, 1, 115.5) == [
        RefuseHost(1, 2, Claim.OLD_EPOCH),
        attempt(B),
    ]


def test_the_host_lost_at_our_epoch_is_not_followed_again() -> None:
    e = lost(me=3)
    e.tick(115.0)
    assert e.welcomed(attempt(A), 1, 0, 115.5)[0] == RefuseHost(0, 1, Claim.OLD_EPOCH)


def test_a_host_out_of_turn_is_refused_with_a_reason() -> None:
    """C (hostile) hosts at epoch 2 and advertises it; B tries the advert first, finds
    that A was never passed over, refuses C and votes for A."""
    e = lost(me=2)
    assert e.advert(2, ("10.0.0.3",), 7003, 105.0) == []  # kept for the walk
    hint = TryCandidate(None, ("10.0.0.3",), 7003)
    assert e.tick(115.0) == [hint]
    refusal = RefuseHost(3, 2, Claim.OUT_OF_TURN)
    assert e.welcomed(hint, 2, 3, 115.2) == [refusal, attempt(A)]
    assert "out of turn" in refusal.text and CLAIM_TEXT[Claim.OUT_OF_TURN] in refusal.text
    e.busy(attempt(A), 115.3)
    assert e.tick(116.3) == [attempt(A)]
    assert e.welcomed(attempt(A), 2, 1, 117.0) == [Follow(1, 2)]


def test_someone_else_answering_at_a_candidates_standby_is_refused() -> None:
    e = lost(me=3)
    e.tick(115.0)
    assert e.welcomed(attempt(A), 2, 2, 115.5) == [
        RefuseHost(2, 2, Claim.OUT_OF_TURN),
        attempt(B),
    ]


def test_the_advert_of_the_next_host_is_followed_at_once() -> None:
    e = lost(me=3)
    e.tick(115.0)
    e.busy(attempt(A), 115.1)
    hint = TryCandidate(None, ("10.0.0.1",), 7001)
    assert e.advert(2, hint.addrs, hint.port, 115.5) == [hint]
    assert e.welcomed(hint, 2, 1, 115.6) == [Follow(1, 2)]


def test_an_advert_of_an_older_epoch_is_ignored() -> None:
    e = lost(me=3, order=Order(epoch=2, host=0, delay=D, grace=G, laptops=(A, B, C)))
    e.tick(115.0)
    e.busy(attempt(A), 115.1)
    assert e.advert(1, ("10.0.0.9",), 1, 115.5) == []
    assert e.tick(116.1) == [attempt(A)]


def test_an_advert_of_our_epoch_is_the_lost_host_at_a_new_address() -> None:
    """Only on the port the host served on, only the host we knew at that epoch is
    followed there, and only while lost (A does not stand: no vote of ours binds us to
    a newer epoch, test_watch's test_a_vote_keeps_the_voter_from_its_old_host)."""
    e = lost(me=3)
    e.host_port = 7000
    e.tick(115.0)
    e.busy(attempt(A), 115.1, standing=False)
    assert e.advert(1, ("10.0.0.9",), 7090, 115.5) == []  # another port: a replay
    hint = TryCandidate(None, ("10.0.0.9",), 7000)
    assert e.advert(1, hint.addrs, hint.port, 115.5) == [hint]
    assert e.welcomed(hint, 1, 0, 115.6) == [Follow(0, 1)]
    assert e.phase is Phase.WATCHING
    assert e.advert(1, ("10.0.0.8",), 7000, 116.0) == []  # not lost: nothing to try
    e = lost(me=3)
    e.host_port = 7000
    e.tick(115.0)
    e.busy(attempt(A), 115.1, standing=False)
    assert e.advert(1, hint.addrs, hint.port, 115.5) == [hint]
    # another laptop at that epoch, there: no host we knew (epoch 1: an old claim)
    assert e.welcomed(hint, 1, 2, 115.6)[0] == RefuseHost(2, 1, Claim.OLD_EPOCH)


def test_an_advert_that_cannot_be_reached_gives_way_to_the_order() -> None:
    e = lost(me=3)
    e.advert(2, ("10.0.0.8",), 7008, 101.0)
    hint = TryCandidate(None, ("10.0.0.8",), 7008)
    assert e.tick(115.0) == [hint]
    assert e.failed(hint, 116.0) == [attempt(A)]


def test_a_standing_laptop_follows_an_advert_of_a_laptop_before_it() -> None:
    """B could not reach A and stands; the others reached A, who took over: B's
    advert shows it, and B follows A (A comes before B, and B passed A over)."""
    e = lost(me=2)
    e.tick(115.0)
    assert e.failed(attempt(A), 116.0) == [OpenStandby(2)]
    hint = TryCandidate(None, ("10.0.0.1",), 7001)
    assert e.advert(2, hint.addrs, hint.port, 118.0) == [hint]
    assert e.welcomed(hint, 2, 1, 118.5) == [CloseStandby(), Follow(1, 2)]


def test_a_standing_laptop_refuses_an_advert_of_a_laptop_after_it() -> None:
    e = lost(me=2)
    e.tick(115.0)
    e.failed(attempt(A), 116.0)
    hint = TryCandidate(None, ("10.0.0.3",), 7003)
    assert e.advert(2, hint.addrs, hint.port, 118.0) == [hint]
    assert e.welcomed(hint, 2, 3, 118.5) == [RefuseHost(3, 2, Claim.OUT_OF_TURN)]
    assert phase(e) is Phase.STANDBY
    assert e.standby_votes(2, 119.0) == [TakeOver(2)]


def test_two_successive_takeovers_use_the_new_order() -> None:
    e = lost(me=3)
    e.tick(115.0)
    e.busy(attempt(A), 115.1)
    e.tick(116.1)
    assert e.welcomed(attempt(A), 2, 1, 116.5) == [Follow(1, 2)]
    # A hosts at epoch 2: its succession's electorate is B and C
    assert e.update(Order(epoch=2, host=1, delay=D, grace=G, laptops=(B, C)))
    e.heard(200.0)
    assert e.host_lost(201.0) == [KeepTrying()]
    assert e.tick(200.0 + D) == [attempt(B)]
    e.busy(attempt(B), 215.1)
    e.tick(216.1)
    # B knew only the first order when A died: it took over at epoch 2 (its own + 1)
    assert e.welcomed(attempt(B), 2, 2, 216.5) == [Follow(2, 2)]
    # the vote for epoch 3 made B host at 2: it binds C to nothing older than B now
    assert e.promised_until(216.6) is None


def test_the_second_takeover_follows_the_next_laptop_of_the_new_order() -> None:
    e = lost(me=3)
    e.tick(115.0)
    e.busy(attempt(A), 115.1)
    e.tick(116.1)
    e.welcomed(attempt(A), 2, 1, 116.5)
    e.update(Order(epoch=2, host=1, delay=D, grace=G, laptops=(B, C)))
    e.heard(200.0)
    assert e.tick(200.0 + D) == [KeepTrying(), attempt(B)]  # A is silent for D
    assert e.welcomed(attempt(B), 3, 2, 216.5) == [Follow(2, 3)]


def test_an_older_order_does_not_replace_the_one_known() -> None:
    e = Election(ORDER, me=3, now=0.0)
    assert not e.update(Order(epoch=0, host=0, delay=D, grace=G, laptops=(C,)))
    assert e.order == ORDER
    e.host_lost(1.0)
    assert not e.update(ORDER)  # no host to send it while lost


def test_after_taking_over_the_own_succession_keeps_it_quiet() -> None:
    e = Election(ORDER, me=1, now=0.0)
    e.handover(2, 1, 5.0)
    assert e.update(Order(epoch=2, host=1, delay=D, grace=G, laptops=(B, C)))
    assert phase(e) is Phase.HOSTING
    assert e.host_lost(10.0) == [] and e.tick(1000.0) == [] and e.wake_at is None


def test_a_spectator_follows_and_never_stands() -> None:
    e = lost(me=None)
    assert e.tick(115.0) == [attempt(A)]
    e.failed(attempt(A), 115.5)
    e.failed(attempt(B), 116.0)
    assert e.failed(attempt(C), 116.5) == []  # nobody: the walk again in a second
    assert e.wake_at == 116.5 + RETRY
    assert e.tick(117.5) == [attempt(A)]
    e.busy(attempt(A), 118.0)
    e.tick(119.0)
    assert e.welcomed(attempt(A), 2, 1, 119.5) == [Follow(1, 2)]


@pytest.mark.parametrize("me", [3, None])
def test_giving_up_when_no_host_is_found(me: int | None) -> None:
    e = lost(me=me)
    e.tick(115.0)
    while (waiting := e.waiting_for) is not None:
        e.failed(waiting, 116.0, unreachable=True)
    # (its network is down: the lone rule's time wakes nothing)
    assert e.wake_at == (100.0 + GIVE_UP if me is not None else 116.0 + RETRY)
    assert e.tick(100.0 + GIVE_UP - 1) == ([] if me is not None else [attempt(A)])
    expected = [CloseStandby(), GiveUp()] if me is not None else [GiveUp()]
    assert e.tick(100.0 + GIVE_UP) == expected
    assert phase(e) is Phase.GONE
    assert e.tick(2000.0) == [] and e.wake_at is None


def test_the_order_a_succession_message_tells() -> None:
    order = Order.of(succession(epoch=3, host=None))
    assert order == Order(epoch=3, host=None, delay=15.0, grace=60.0, laptops=LAPTOPS)
    assert order.pids() == (1, 2, 3) and order.laptop(2) == LAPTOPS[1]
    assert order.laptop(0) is None


def test_a_rival_at_our_epoch_out_of_turn_is_refused_as_such() -> None:
    e = lost(me=3, order=Order(epoch=2, host=0, delay=D, grace=G, laptops=(A, B, C)))
    e.tick(115.0)
    assert e.welcomed(attempt(A), 2, 2, 115.5)[0] == RefuseHost(2, 2, Claim.OUT_OF_TURN)


def test_a_rival_at_our_epoch_is_refused_while_our_vote_for_the_next_binds() -> None:
    """C voted for A (epoch 3), which then stopped answering; B, which took over at
    epoch 2 from an older order, is the walk's next: followed only once that vote can
    no longer make A the host (3 D), since A would count C present too.  The candidate
    voted for is followed at whatever epoch it stood (test_two_successive_takeovers)."""
    for bound, said in ((True, RefuseHost(2, 2, Claim.OLD_EPOCH)), (False, Follow(2, 2))):
        e = lost(me=3, order=Order(epoch=2, host=0, delay=D, grace=G, laptops=(A, B, C)))
        assert e.tick(115.0) == [attempt(A)]
        e.busy(attempt(A), 115.1, standing=bound)
        assert e.tick(116.1) == [attempt(A)]
        assert e.failed(attempt(A), 117.0) == [attempt(A)]  # the walk again from the top
        assert e.failed(attempt(A), 118.0) == [attempt(B)]
        assert e.welcomed(attempt(B), 2, 2, 118.5)[0] == said


def test_a_laptop_that_does_not_stand_for_d_is_passed_over_for_the_host_further_on() -> None:
    """A still says it does not host the table D after it first said so: it follows
    a host (C took the table over while A and B were away).  B, which comes before C,
    looks past A and itself, finds C hosting and follows it."""
    e = lost(me=2)
    assert e.tick(115.0) == [attempt(A)]
    assert e.busy(attempt(A), 115.0, standing=False) == []
    now = 115.0
    while now < 115.0 + D - RETRY:
        now += RETRY
        assert e.tick(now) == [attempt(A)]  # it may be about to stand: tried each second
        assert e.busy(attempt(A), now, standing=False) == []
    assert e.tick(now + RETRY) == [attempt(A)]
    assert e.busy(attempt(A), now + RETRY, standing=False) == [attempt(C)]  # not itself
    assert e.welcomed(attempt(C), 2, 3, now + RETRY + 0.1) == [Follow(3, 2)]


def test_a_laptop_passes_those_that_hear_a_host_stands_and_never_takes_over_alone() -> None:
    """A and C both hear a host (B's own link to it is down): B passes A over after D,
    finds no host past itself, stands with no vote, and never takes the table."""
    e = lost(me=2)
    now = 115.0
    decided = e.tick(now)
    seen: list[object] = []
    while now < 115.0 + 5 * D:
        for d in decided:
            seen.append(d)
            if isinstance(d, TryCandidate):
                decided = e.busy(d, now, standing=False)  # A and C: both hear a host
                break
        else:
            now += RETRY
            decided = e.tick(now)
    assert {d.pid for d in seen if isinstance(d, TryCandidate)} == {1, 3}
    assert [d for d in seen if isinstance(d, OpenStandby)]
    assert not [d for d in seen if isinstance(d, TakeOver | AskAlone)]
    assert phase(e) is not Phase.HOSTING


def test_a_laptop_that_stands_at_last_is_voted_for_again() -> None:
    e = lost(me=2)
    e.tick(115.0)
    e.busy(attempt(A), 115.0, standing=False)
    e.tick(116.0)
    assert e.busy(attempt(A), 116.0, standing=True) == []  # A stands now: a vote
    assert e.tick(117.0) == [attempt(A)]
    assert e.welcomed(attempt(A), 2, 1, 117.1) == [Follow(1, 2)]


def test_laptops_that_offer_but_never_stand_are_passed_over_within_d_each() -> None:
    """Issue 31 case 8: A and B offered to host but never stand (they cannot: a board
    they do not know, no successor); each answers that it does not host the table.
    C passes each over D after it first said so, looks past itself for a host
    further on (there is none), and then stands: two such laptops cost 2 D, not the
    table."""
    e = lost(me=3)
    now = 115.0
    decided = e.tick(now)
    stood: float | None = None
    while now < 115.0 + 5 * D and stood is None:
        for d in decided:
            if isinstance(d, OpenStandby):
                stood = now
                break
            if isinstance(d, TryCandidate):
                assert d.pid in (1, 2)
                decided = e.busy(d, now, standing=False)
                break
        else:
            now += RETRY
            decided = e.tick(now)
    assert stood is not None and stood <= 115.0 + 2 * D + 2 * RETRY
    assert phase(e) is Phase.STANDBY
    assert e.standby_votes(2, stood + 1) == [TakeOver(2)]  # A's or B's vote: the table


def test_a_laptop_that_cannot_host_walks_past_itself_and_votes() -> None:
    """A laptop that cannot host (no successor, or a game's board it does not know)
    never stands: its walk looks past it at once and votes for the next laptop."""
    e = lost(me=1)
    e.can_host = False
    assert e.tick(115.0) == [attempt(B)]
    assert e.busy(attempt(B), 115.0) == []  # B stands: a vote
    assert e.tick(116.0) == [attempt(B)]
    assert e.welcomed(attempt(B), 2, 2, 116.1) == [Follow(2, 2)]


def test_a_claim_at_the_first_hosts_epoch_is_an_old_one_even_when_it_was_headless() -> None:
    """Only the table's first host hosts at epoch 1 (a successor is at 2 or more): a
    laptop welcoming at epoch 1 is no rival successor, whether that host was headless
    (no seat: ``host`` nil) or had a seat of its own."""
    headless = Order(epoch=1, host=None, delay=D, grace=G, laptops=(A, B, C))
    e = lost(me=3, order=headless)
    assert e.tick(115.0) == [attempt(A)]
    assert e.welcomed(attempt(A), 1, 1, 115.5) == [RefuseHost(1, 1, Claim.OLD_EPOCH), attempt(B)]
    e = lost(me=3)
    e.tick(115.0)
    assert e.welcomed(attempt(A), 1, 1, 115.5)[0] == RefuseHost(1, 1, Claim.OLD_EPOCH)


def test_a_rival_at_a_successors_epoch_is_followed_in_turn() -> None:
    """The successor we followed at epoch 2 died during its takeover; A, which knew
    only epoch 1, took over at 2: followed (the epoch is ours, the laptop another)."""
    e = lost(me=3, order=Order(epoch=2, host=2, delay=D, grace=G, laptops=(A, C)))
    assert e.tick(115.0) == [attempt(A)]
    assert e.welcomed(attempt(A), 2, 1, 115.5) == [Follow(1, 2)]
