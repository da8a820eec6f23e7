"""Issue 31, case 7: a seated host that was cut off while its table moved steps down,
and its own player still learns how the game ended.

While the host's laptop was away, Ann took the table over and the game was played to
its end, a bot in the host's player's seat; once the game was over and the grace had
passed, that seat was given up.  The old host finds the new epoch, steps down and
hands the table over to Ann: Ann's host knows no seat for the player's token
(``bad_token``).  The player's client follows the table as a spectator from then on
and is shown the end, instead of walking the order for ever; and a walk after a
handover goes on in time whoever hosted before (the election of the host's own
player is not frozen as its own host's)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_takeover_in_memory import D, Lan, play, table

from sorry_lan.client.model import TableNewsKind
from sorry_lan.rules import Phase
from sorry_lan.succession import election as el
from sorry_lan.wire import messages as m
from sorry_lan.wire.succession import Laptop as Seat
from sorry_lan.wire.vocab import RefuseReason

ANN = Seat(1, ("10.0.0.1",), 7001)
BOB = Seat(2, ("10.0.0.2",), 7002)


def test_a_stepped_down_hosts_walk_goes_on_after_a_busy_candidate() -> None:
    """The host's own player (seat 0) is handed over to Ann, whose standby still counts
    votes (busy): it is tried again after RETRY, as anyone's walk would."""
    order = el.Order(epoch=1, host=0, delay=D, grace=60.0, laptops=(ANN, BOB))
    e = el.Election(order, me=0, now=0.0)
    ann = el.TryCandidate(ANN.pid, ANN.addrs, ANN.port)
    assert e.handover(2, ANN.pid, 100.0) == [ann]
    assert e.busy(ann, 100.1) == []
    assert e.wake_at is not None and e.wake_at <= 100.1 + el.RETRY
    assert e.tick(100.1 + el.RETRY) == [ann]
    # and it gives up in the end, like any walk, told why (never silent for ever)
    assert e.busy(ann, 101.2) == []
    assert el.GiveUp() in e.tick(100.0 + el.GIVE_UP)


def test_a_host_whose_seat_was_given_up_steps_down_and_is_shown_the_end() -> None:
    old, laptops, own = table()
    ann = laptops[0]
    # the host's laptop is cut off: the others' links to it are gone, and it hears
    # nobody (its clock stands still meanwhile: nothing it does reaches anyone)
    for cid, client in list(old.clients.items()):
        if client is not own:
            old.open.discard(cid)
    lan = Lan(old, laptops)
    lost = old.now
    lan.host_lost(lost + 0.1, laptops)
    lan.tick(lost + D + 3)
    new = lan.hosts[ann.pid]
    assert all(lap.model.epoch == 2 and lap.model.connected for lap in laptops)
    seat = own.model.pid
    play(new, laptops)  # a bot plays the host's player's seat to the end
    assert new.table.game is not None and new.table.game.over
    new.advance(new.table.config.grace + 1)
    assert new.table.phase is Phase.FINISHED and seat not in new.table.players
    lan.now = new.now
    # the old host wakes, finds the table at epoch 2 and steps down (cut off)
    for cid, client in list(old.clients.items()):
        if client is not own:
            old.run(old.core.closed(cid, old.now))
    old.advance(lan.now - old.now)
    old.run(old.core.newer_epoch(2, ann.pid, old.now))
    assert [n.kind for n in own.news()][-1] is TableNewsKind.HANDOVER
    own.model.connection_lost()
    to_ann = el.TryCandidate(ann.pid, (ann.addr,), ann.port)
    assert own.model.take_decisions() == [to_ann]
    lan.laptops[seat or 0] = own
    lan.carry_out(own, [to_ann])
    # Ann's host refused the token: the try is over (the shell says so), and the same
    # laptop is tried again, watching
    refusal = own.model.refusal
    assert refusal is not None and refusal.reason is RefuseReason.BAD_TOKEN
    lan.carry_out(own, own.election.failed(to_ann, lan.now))
    assert own.model.spectate and own.model.connected and own.model.epoch == 2
    assert own.model.over is not None  # the person is shown how the game ended
    assert isinstance(own.model.over, m.GameOver) and own.model.token is None
    assert own.election.me is None and not own.election.can_host


def test_a_stepped_down_hosts_player_is_a_laptop_of_the_next_electorate() -> None:
    """The host's own player has a standby like any player (``host``'s client has an
    heir): once the host stepped down and its player followed Ann (its seat kept: the
    game goes on), it is in Ann's order, and when Ann is lost too its vote counts:
    with Cat gone as well, the table still has a majority (the player and Bob) and a
    host, instead of Bob standing for ever with nobody's vote."""
    old, laptops, own = table()
    ann, bob, cat = laptops
    own.model.participant.standby = (own.port, (own.addr,))
    for cid, client in list(old.clients.items()):
        if client is not own:
            old.open.discard(cid)
    lan = Lan(old, laptops)
    lost = old.now
    lan.host_lost(lost + 0.1, laptops)
    lan.tick(lost + D + 3)
    new = lan.hosts[ann.pid]
    play(new, laptops, moves=3)
    lan.now = new.now
    for cid, client in list(old.clients.items()):
        if client is not own:
            old.run(old.core.closed(cid, old.now))
    old.advance(lan.now - old.now)
    old.run(old.core.newer_epoch(2, ann.pid, old.now))
    own.model.connection_lost()
    lan.laptops[own.pid] = own
    lan.carry_out(own, own.model.take_decisions())
    assert own.model.connected and own.model.epoch == 2 and not own.model.spectate
    new.pump()
    order = [x.pid for x in bob.election.order.laptops]
    assert own.pid in order and ann.pid not in order
    # Ann's laptop and Cat's die: the player and Bob are two of the three
    del lan.hosts[ann.pid]
    lan.dead |= {ann.pid, cat.pid}
    gone = lan.now
    for lap in (own, bob):
        lap.model.connection_lost()
        lan.carry_out(lap, lap.election.host_lost(gone + 0.1))
    del lan.laptops[ann.pid], lan.laptops[cat.pid]
    lan.tick(gone + 3 * D)
    took = [who for who, d in lan.log if isinstance(d, el.TakeOver) and d.epoch == 3]
    assert len(took) == 1
    assert own.model.epoch == 3 and bob.model.epoch == 3
    assert own.model.connected and bob.model.connected


def test_a_host_whose_player_missed_its_step_down_walks_once_it_is_not_taken_back() -> None:
    """The host's own player lost its link to its own host (the host woke and dropped
    it) and the host stepped down before the player was back: the player never
    heard the ``handover``.  Rejoining its own host then fails (nobody listens there
    any more): its election walks the order and finds the table at Ann's, instead of
    trying its own host for ever, never told anything (the simulator's seeds 1032,
    1088, 1089 and 1093 before its own fix)."""
    order = el.Order(epoch=1, host=0, delay=D, grace=60.0, laptops=(ANN, BOB))
    e = el.Election(order, me=0, now=0.0)
    e.heard(10.0)
    assert e.host_lost(70.0) == []  # its link: no loss, it rejoins its own host
    assert e.phase is el.Phase.LOST and e.tick(75.0) == []
    ann = el.TryCandidate(ANN.pid, ANN.addrs, ANN.port)
    assert e.host_lost(70.1) == [ann]  # the rejoin failed: gone (silent since 10 s)
    assert e.welcomed(ann, 2, ANN.pid, 70.2) == [el.Follow(ANN.pid, 2)]


def test_a_host_whose_player_is_taken_back_is_not_walked_away_from() -> None:
    """The rejoin succeeds: the host is its own again (no walk, no giving up); a link
    lost later is again no loss by itself."""
    order = el.Order(epoch=1, host=0, delay=D, grace=60.0, laptops=(ANN, BOB))
    e = el.Election(order, me=0, now=0.0)
    assert e.host_lost(5.0) == []
    e.heard(5.1)
    assert e.phase is el.Phase.WATCHING and e.tick(100.0) == [] and e.wake_at is None
    assert e.host_lost(100.0) == [] and e.tick(200.0) == []
    assert el.GiveUp() not in e.tick(100.0 + el.GIVE_UP)
