"""Raft's election restriction (issue 31, invariant (b); SPEC 13, election step 3): a
candidate counts no vote from a laptop that holds a newer state than its own, so the
laptop that saw the most of the game takes over.  On a fake clock: the standby's
comparison of ``seen`` (protocol version 5) with its own, the voter's walk past a
candidate that turned it away, and three laptops at a real host core in memory
(``test_takeover_in_memory``) where the first of the order missed the last move."""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import tables
from test_takeover_in_memory import D, Lan, Laptop, play, table

from sorry_lan.client.participant import Participant
from sorry_lan.codes import RefuseReason
from sorry_lan.rules import Variant
from sorry_lan.rules.board import Colour
from sorry_lan.succession import election as el
from sorry_lan.succession.knowledge import Board
from sorry_lan.succession.standby import Host, Standby, TurnAway, Wait, verifier
from sorry_lan.wire import messages as m
from sorry_lan.wire.codec import encode
from sorry_lan.wire.errors import ErrorReason
from sorry_lan.wire.session import HostSession
from sorry_lan.wire.standby import BOARD_OLDER, StandbyAnswer, standby_answer
from sorry_lan.wire.succession import Laptop as Laptop4
from sorry_lan.wire.vocab import RefuseReason as WireReason

V4 = (1, 2, 3, 4)
V5 = (1, 2, 3, 4, 5)
TOKENS = {pid: bytes([pid]) * 16 for pid in range(4)}
SEATS: dict[int, bytes | None] = {pid: verifier(TOKENS[pid]) for pid in range(4)}


def standby(seen: tuple[int, int] | None, laptops: tuple[int, ...] = (1, 2, 3)) -> Standby:
    return Standby(me=1, laptops=laptops, seats=SEATS, delay=D, seen=seen)


# -- the standby: which votes count -------------------------------------------------------


def test_a_vote_from_a_laptop_that_saw_more_is_turned_away_and_not_counted() -> None:
    s = standby((2, 49), (1, 2, 3, 4, 5))
    answer = s.hello(TOKENS[2], V5, 100.0, (2, 50))
    assert answer == TurnAway(RefuseReason.FULL, BOARD_OLDER, older=True)
    assert s.votes(100.0) == 1 and s.behind
    # a newer epoch wins over a greater sid (Raft compares the last entry's term first)
    s = standby((2, 49), (1, 2, 3, 4, 5))
    assert isinstance(s.hello(TOKENS[2], V5, 100.0, (3, 12)), TurnAway)
    assert s.votes(100.0) == 1


def test_a_vote_no_newer_counts_equal_boards_included() -> None:
    s = standby((2, 50), (1, 2, 3, 4, 5))  # quorum 3
    assert s.hello(TOKENS[2], V5, 100.0, (2, 50)) == Wait("waiting for the table: 2 of 3", True)
    assert s.hello(TOKENS[3], V5, 100.0, (1, 90)) == Host()  # an older epoch: the quorum
    assert s.votes(100.0) == 3 and not s.behind


def test_a_version_4_vote_and_one_with_no_board_count_as_before() -> None:
    s = standby((2, 49), (1, 2, 3, 4, 5))
    assert s.hello(TOKENS[2], V4, 100.0) == Wait("waiting for the table: 2 of 3", True)
    assert s.hello(TOKENS[3], V5, 100.0, None) == Host()
    assert s.votes(100.0) == 3 and not s.behind


def test_a_candidate_with_no_board_takes_no_vote_from_one_that_has_one() -> None:
    s = standby(None)
    assert isinstance(s.hello(TOKENS[2], V5, 100.0, (1, 3)), TurnAway)
    assert s.hello(TOKENS[3], V5, 100.0, None) == Host()  # none either: the quorum


def test_the_listener_refuses_it_full_and_the_voter_reads_older() -> None:
    s = standby((2, 49))
    hello = m.Hello(versions=V5, software="x", name="Bob", token=TOKENS[2], seen=(2, 50))
    reason, text = s.greeted(hello, 100.0)
    refuse = m.Refuse(reason=reason, text=text, versions=V5)
    assert standby_answer(refuse) is StandbyAnswer.OLDER
    # any other full is a plain refusal (trying again will not help either)
    other = m.Refuse(reason=WireReason.FULL, text="all four seats taken", versions=V5)
    assert standby_answer(other) is StandbyAnswer.REFUSED


# -- the election: the voter walks on, the stale candidate steps aside --------------------


def _walking(me: int) -> tuple[el.Election, list[el.Decision]]:
    order = el.Order.of(tables.succession())
    election = el.Election(order, me=me, now=0.0)
    return election, election.host_lost(D, unreachable=False)


def test_a_voter_turned_away_passes_the_candidate_over_and_stands_itself() -> None:
    bob, out = _walking(2)
    [ann] = [d for d in out if isinstance(d, el.TryCandidate)]
    assert ann.pid == 1
    assert bob.older(ann, D + 0.1) == [el.OpenStandby(2)]  # at once, not D later
    assert bob.phase is el.Phase.STANDBY


def test_the_last_voter_turned_away_votes_for_the_next_that_stands() -> None:
    cat, out = _walking(3)
    [ann] = [d for d in out if isinstance(d, el.TryCandidate)]
    [bob] = cat.older(ann, D + 0.1)
    assert isinstance(bob, el.TryCandidate) and bob.pid == 2
    assert cat.busy(bob, D + 0.2, standing=True) == []  # counted there: Cat retries Bob
    assert cat.tick(D + 1.2) == [bob]


def test_a_candidate_that_turned_a_vote_away_is_not_held_by_its_votes() -> None:
    """Ann stands with Bob's vote (no newer than hers) but turned Cat away: D after she
    stood (not 2 D) she stops standing and walks past herself, to vote for a newer
    laptop."""
    more = (Laptop4(4, ("127.0.0.5",), 7004), Laptop4(5, ("127.0.0.6",), 7005))
    order = el.Order.of(tables.succession(order=(*tables.LAPTOPS, *more)))
    ann = el.Election(order, me=1, now=0.0)
    assert ann.host_lost(D) == [el.KeepTrying(), el.OpenStandby(2)]
    assert ann.standby_votes(2, D + 1) == []  # Bob's: chosen, below the quorum of 3
    assert ann.wake_at == D + 2 * D  # held by its vote for as long as a vote is kept
    assert ann.standby_votes(2, D + 2, behind=True) == []  # Cat turned away
    assert ann.wake_at == 2 * D
    out = ann.tick(2 * D)
    assert out[0] == el.CloseStandby()
    assert isinstance(out[1], el.TryCandidate) and out[1].pid == 2


# -- three laptops at a real host core ------------------------------------------------------


def _ann_misses_a_move() -> tuple[Lan, list[Laptop], float]:
    """Ann's link goes; Bob, Cat and the host's own player play on (a bot in Ann's seat
    once her grace is over) until the board is a move past hers; then the host dies."""
    old, laptops, own = table()
    ann, bob, cat = laptops
    cid = next(c for c, end in old.clients.items() if end is ann)
    old.lose(cid)
    before = ann.model.sid
    game = old.table.game
    assert game is not None
    while bob.model.sid == before:
        play(old, [own, bob, cat], moves=1)
    assert ann.model.sid < bob.model.sid == cat.model.sid
    return Lan(old, laptops), laptops, old.now


def test_the_first_laptop_that_missed_a_move_is_not_elected_the_next_is() -> None:
    lan, laptops, lost = _ann_misses_a_move()
    ann, bob, cat = laptops
    newest = bob.model.newest_state
    assert newest is not None and ann.model.newest_state is not None
    assert ann.model.newest_state < newest == cat.model.newest_state
    lan.host_lost(lost + 0.1, laptops)
    lan.tick(lost + 3 * D)
    assert ("ann", el.OpenStandby(2)) in lan.log  # first of the order: she stood
    assert not [d for who, d in lan.log if who == "ann" and isinstance(d, el.TakeOver)]
    assert list(lan.hosts) == [bob.pid] and ("bob", el.TakeOver(2)) in lan.log
    new = lan.hosts[bob.pid]
    assert new.table.game is not None and new.table.game.state_id == newest[1]
    for lap in laptops:  # Ann too follows Bob, and is shown the move she missed
        assert lap.model.epoch == 2 and lap.model.connected, lap.model.name
        assert lap.model.sid == newest[1], lap.model.name
        assert lap.model.newest_state == (2, newest[1]), lap.model.name
    play(new, laptops)
    assert new.table.game.over


def test_equal_boards_elect_the_first_of_the_order() -> None:
    old, laptops, _own = table()
    ann, bob, cat = laptops
    assert ann.model.newest_state == bob.model.newest_state == cat.model.newest_state
    lan = Lan(old, laptops)
    lost = old.now
    lan.host_lost(lost + 0.1, laptops)
    lan.tick(lost + D + 3)
    assert list(lan.hosts) == [ann.pid]
    assert not [d for _, d in lan.log if isinstance(d, el.RefuseHost)]


def test_a_version_4_voter_that_saw_more_is_still_counted() -> None:
    """Cat's laptop speaks version 4 (no ``seen`` in its hello): its vote counts at Ann's
    standby though Ann missed a move (the guarantee needs every laptop on version 5)."""
    lan, laptops, lost = _ann_misses_a_move()
    ann, bob, cat = laptops
    lan.dead = {bob.pid}  # Bob's vote would be turned away: Ann's only voter is Cat
    lan.v4 = {cat.pid}
    lan.host_lost(lost + 0.1, (ann, cat))
    lan.tick(lost + D + 3)
    assert list(lan.hosts) == [ann.pid] and ("ann", el.TakeOver(2)) in lan.log
    assert cat.model.epoch == 2 and cat.model.connected


# -- what a laptop says it saw, and to whom --------------------------------------------------


def test_the_board_keeps_the_epoch_of_the_host_that_sent_it() -> None:
    """A new host followed that has not shown its board yet does not make the board
    newer: ``seen`` names the host a state was received from, not the newest epoch
    heard of."""
    board = Board(Variant.STANDARD, 18, (0, 1), tuple(range(16)), 0)
    me = Participant()
    me.keep(tables.succession(epoch=1), None, 1, 0.0)
    assert me.seen(lambda: None) is None  # no board
    assert me.seen(lambda: board) is None  # a board no host of ours sent
    me.told_turn(m.Turn(sid=18, colour=Colour.RED, card=None, hand=None, pile=29))
    assert me.seen(lambda: board) == (1, 18)
    me.keep(tables.succession(epoch=2, host=2), None, 1, 1.0)  # Bob's, followed
    assert me.seen(lambda: board) == (1, 18)
    later = Board(Variant.STANDARD, 19, (0, 1), tuple(range(16)), 1)
    me.told_turn(m.Turn(sid=19, colour=Colour.BLUE, card=None, hand=None, pile=28))
    assert me.seen(lambda: later) == (2, 19)  # Bob's first state


def test_a_vote_carries_seen_and_a_hello_to_a_host_does_not() -> None:
    old, laptops, _own = table()
    bob = laptops[1]
    newest = bob.model.newest_state
    assert newest is not None and newest[0] == 1
    ann = el.TryCandidate(laptops[0].pid, (laptops[0].addr,), laptops[0].port)

    def greeting(attempt: el.TryCandidate | None) -> m.Hello:
        bob.model.join(old.now, attempt=attempt)
        [hello] = HostSession().receive_data(bob.model.data_to_send())
        assert isinstance(hello, m.Hello)
        return hello

    assert greeting(ann).seen == newest
    assert greeting(None).seen is None  # the host: one of version 4 would reject it
    advert = el.TryCandidate(None, (laptops[0].addr,), laptops[0].port)
    assert greeting(advert).seen is None  # a host found by its advert: the same


def test_a_version_4_standby_that_rejects_seen_gets_the_hello_of_before() -> None:
    old, laptops, _own = table()
    bob = laptops[1]
    ann = el.TryCandidate(laptops[0].pid, (laptops[0].addr,), laptops[0].port)
    bob.model.join(old.now, attempt=ann)
    bob.model.data_to_send()
    said = m.Error(reason=ErrorReason.EXTRA_FIELD, text="hello: unknown field 'seen'",
                   fatal=True)
    bob.model.receive_data(encode(said), old.now)
    assert bob.model.plain_again() and not bob.model.plain_again()  # once
    bob.model.join(old.now, attempt=ann)
    [hello] = HostSession().receive_data(bob.model.data_to_send())
    assert isinstance(hello, m.Hello) and hello.seen is None and hello.token is not None
    bob.model.receive_data(encode(said), old.now)  # no seen sent: nothing to drop
    assert not bob.model.plain_again()


# -- liveness: every board a laptop may hold, every laptop reachable -------------------------


class MiniLan:
    """Elections and standbys of ``len(seens)`` laptops (sans I/O, one fake clock),
    every laptop reachable at once: each try is answered as a standby or the new host
    would.  ``seens``: each laptop's newest state, in the order's order."""

    def __init__(self, seens: tuple[tuple[int, int] | None, ...]) -> None:
        self.pids = list(range(1, len(seens) + 1))
        laptops = tuple(Laptop4(p, (f"10.0.0.{p}",), 7000 + p) for p in self.pids)
        order = el.Order(epoch=1, host=0, delay=D, grace=60.0, laptops=laptops)
        self.seats = {p: verifier(TOKENS_N[p]) for p in self.pids}
        self.elections = {p: el.Election(order, me=p, now=0.0) for p in self.pids}
        self.seen = dict(zip(self.pids, seens, strict=True))
        self.standbys: dict[int, Standby] = {}
        self.hosting: list[int] = []
        self.followed: dict[int, int | None] = {}
        self.now = 0.1

    def carry_out(self, pid: int, decisions: list[el.Decision]) -> None:
        queue = [(pid, d) for d in decisions]
        while queue:
            who, d = queue.pop(0)
            match d:
                case el.OpenStandby():
                    self.standbys[who] = Standby(me=who, laptops=self.pids, seats=self.seats,
                                                delay=D, seen=self.seen[who])
                case el.CloseStandby():
                    self.standbys.pop(who, None)
                case el.TakeOver():
                    self.hosting.append(who)
                    self.standbys.pop(who, None)
                case el.Follow():
                    self.followed[who] = d.pid
                case el.TryCandidate():
                    queue += self.answer(who, d)
                case _:
                    pass

    def answer(self, who: int, attempt: el.TryCandidate) -> list[tuple[int, el.Decision]]:
        voter, to = self.elections[who], attempt.pid
        assert to is not None
        if to in self.hosting:
            return [(who, d) for d in voter.welcomed(attempt, 2, to, self.now)]
        standby = self.standbys.get(to)
        if standby is None:
            return [(who, d) for d in voter.busy(attempt, self.now, standing=False)]
        said = standby.hello(TOKENS_N[who], V5, self.now, self.seen[who])
        out = [(who, d) for d in (voter.older(attempt, self.now) if isinstance(said, TurnAway)
                                  else voter.busy(attempt, self.now, standing=True))]
        votes = self.elections[to].standby_votes(standby.votes(self.now), self.now,
                                                 behind=standby.behind)
        return out + [(to, d) for d in votes]

    def run(self, until: float) -> float:
        """The host lost at 0: the time all laptops host or follow (or ``until``)."""
        for pid in self.pids:
            self.carry_out(pid, self.elections[pid].host_lost(self.now))
        while self.now < until and len(self.hosting) + len(self.followed) < len(self.pids):
            self.now += 0.5
            for pid in self.pids:
                if pid not in self.hosting and pid not in self.followed:
                    self.carry_out(pid, self.elections[pid].tick(self.now))
        return self.now


TOKENS_N = {pid: bytes([pid]) * 16 for pid in range(1, 9)}
BOARDS: tuple[tuple[int, int] | None, ...] = ((1, 49), (1, 50), (2, 10), None)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_every_mix_of_boards_elects_one_laptop_that_holds_a_quorums_newest(n: int) -> None:
    """Every assignment of the boards 49 and 50 of epoch 1, 10 of epoch 2 and none to
    ``n`` laptops: one laptop takes over within 12 D, everyone follows it, and its
    board is at least the newest one a quorum holds (what Raft promises: a state a
    quorum held is never lost; before, the first laptop won whatever it held)."""
    need = el.quorum(n)
    for seens in itertools.product(BOARDS, repeat=n):
        lan = MiniLan(seens)
        took = lan.run(until=600.0)
        assert len(lan.hosting) == 1, (seens, lan.hosting, took)
        [host] = lan.hosting
        assert set(lan.followed.values()) == {host}, seens
        assert took <= 12 * D, (seens, took)
        ranked = sorted(((0, 0) if s is None else s for s in seens), reverse=True)
        won = lan.seen[host] or (0, 0)
        assert won >= ranked[need - 1], (seens, host)


def test_a_split_vote_is_started_over() -> None:
    """Six laptops, three with board 49 first, three with 50: the first stands with
    the 49s' votes (3 of 4), the 50s are turned away and elect among themselves (3 of
    4): neither reaches the quorum.  Each walks again 2 D after it stood (the one of
    49, turned away, D after), and a laptop with 50 takes over."""
    lan = MiniLan(((1, 49),) * 3 + ((1, 50),) * 3)
    took = lan.run(until=600.0)
    [host] = lan.hosting
    assert lan.seen[host] == (1, 50) and took <= 12 * D
