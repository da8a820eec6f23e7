"""A host cut off from most of its laptops pauses the game, probes them, and resumes
when a majority is back (however long that takes: never after the grace by itself),
with the paused time counted against nobody."""

from __future__ import annotations

import itertools

import pytest
from pair import Pair, SessionClient

from sorry_lan.authority.electorate import Laptop
from sorry_lan.authority.fencing import PROBE_EVERY, Fence, quorum
from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.table import PAUSED_TEXT, Table, TableConfig
from sorry_lan.wire import messages as m
from sorry_lan.wire.errors import ErrorReason

D = 5.0
L = HostOptions(takeover_delay=D).timings.lease  # a laptop's lease: present until then


def _state(fence: Fence) -> tuple[bool, bool]:
    """(cut off, paused): a call, so that what a test asserted before narrows nothing."""
    return fence.cut_off, fence.paused


def _waking(fence: Fence) -> bool:
    return fence.waking


def _paused(pair: Pair) -> bool:
    return pair.core.paused


@pytest.mark.parametrize(("n", "q"), [(1, 1), (2, 2), (3, 2), (4, 3), (5, 3)])
def test_the_quorum_is_a_majority_of_the_electorate(n: int, q: int) -> None:
    assert quorum(n) == q


def test_a_fence_cuts_off_once_most_are_absent_and_stays_paused_probing_all_along() -> None:
    fence = Fence()
    absent_at = [100.0, D, D + 1]  # one heard lately; two absent from D and D + 1 on
    fence.note(0.0, absent_at)
    assert not _state(fence)[0] and fence.next_wakeup() == D + 1  # then 1 of 3 present
    fence.note(D + 0.5, absent_at)
    assert not _state(fence)[0] and not fence.probe_due(D + 0.5)
    fence.note(D + 1, absent_at)
    assert _state(fence) == (True, True) and fence.probe_due(D + 1)
    assert not fence.probe_due(D + 2) and fence.probe_due(D + 1 + PROBE_EVERY)
    fence.advance(D + 21.0)
    assert _state(fence) == (True, True)  # past any grace: still paused; the probes go on
    assert fence.next_wakeup() == D + 1 + 2 * PROBE_EVERY
    fence.note(D + 22, [100.0, 100.0, D])  # a majority is back
    assert not _state(fence)[0] and fence.next_wakeup() == 100.0  # when 2 would be gone


def test_a_fence_that_woke_is_cut_off_for_d_whoever_is_heard_and_probes_at_once() -> None:
    fence = Fence()
    fence.note(0.0, [100.0, 100.0])  # all present
    fence.woke(10.0, D)  # its own process slept until 10
    assert _state(fence) == (True, True) and _waking(fence) and fence.probe_due(10.0)
    fence.note(11.0, [100.0, 100.0])  # everyone heard (stale news): still held
    assert _state(fence) == (True, True) and fence.next_wakeup() == 10.0 + PROBE_EVERY
    fence.note(10.0 + D, [100.0, 100.0])  # D after it woke, a quorum present: it resumes
    assert not _state(fence)[0] and not _waking(fence)
    fence.note(30.0, [25.0, 100.0])  # cut off before a sleep (paused however long)
    fence.advance(51.0)
    assert _state(fence) == (True, True)
    fence.woke(60.0, D)  # a sleep then: paused again, the cut counted from the wake
    assert _state(fence) == (True, True)
    fence.advance(60.0 + D)
    assert _state(fence) == (True, True) and not _waking(fence)  # still cut off: 1 of 2


def test_a_host_without_laptops_is_never_cut_off() -> None:
    fence = Fence()
    fence.note(0.0, [])
    assert not _state(fence)[0] and fence.next_wakeup() is None


# -- at the table ---------------------------------------------------------------------------


def _table(turn_timeout: float | None = 40.0, grace: float = 60.0
           ) -> tuple[Pair, list[SessionClient]]:
    """A headless three-seat table whose three people are laptops; the game starts
    when the third joins, at time 0."""
    table = Table(TableConfig(seats=3, auto_start=True, seed=11, turn_timeout=turn_timeout,
                              grace=grace))  # fmt: skip
    pair = Pair(table, HostOptions(heartbeat=1000.0, dead_after=5000.0, takeover_delay=D))
    clients = []
    for i, name in enumerate(("ann", "bob", "cy")):
        _cid, client = pair.join(name, address=f"10.0.0.{i + 2}")
        clients.append(client)
        pid = client.pid
        assert pid is not None
        pair.core.expect_laptops([Laptop(pid, (f"10.0.0.{i + 2}",), 5000 + i)])
    assert pair.table.game is not None
    return pair, clients


def _on_turn(pair: Pair, clients: list[SessionClient]) -> SessionClient:
    game = pair.table.game
    assert game is not None
    player = pair.table.by_colour(game.turn)
    assert player is not None
    return next(c for c in clients if c.pid == player.pid)


def _moves(pair: Pair) -> int:
    return sum(1 for r in pair.journal if r["k"] == "move")


def _lose_all_but(pair: Pair, clients: list[SessionClient], keep: SessionClient) -> float:
    """Lose every connection but ``keep``'s; returns when they count absent: at once
    (a laptop whose connection closed hears no more moves, whatever its lease)."""
    for cid, client in list(pair.clients.items()):
        if client is not keep and cid in pair.open:
            pair.lose(cid)
    return pair.now


def test_cut_off_the_game_pauses_probes_the_absent_and_refuses_moves() -> None:
    pair, clients = _table()
    mover = _on_turn(pair, clients)
    pair.advance(1.0)
    assert not _paused(pair) and not pair.probes
    ends = _lose_all_but(pair, clients, mover)  # 1 of 3 connected: fewer than the quorum, 2
    assert ends == pytest.approx(1.0)
    assert _paused(pair) and pair.table.paused_at == pytest.approx(ends)
    moved = _moves(pair)
    offer = mover.session.moves
    assert offer is not None
    mover.take()
    mover.session.choose(offer.moves[0].id)
    pair.pump()
    error = mover.last(m.Error)
    assert (error.reason, error.text, error.fatal) == (ErrorReason.UNEXPECTED, PAUSED_TEXT, False)
    pair.advance(30.0)  # past the turn timeout: no bot moves for anyone while paused
    assert _moves(pair) == moved
    absent = {c.pid for c in clients if c is not mover}
    probed = [(t, p) for t, p in pair.probes]
    assert {p.pid for _, p in probed} == absent
    first = {p.pid: p for t, p in probed if t == probed[0][0]}
    for pid, probe in first.items():
        laptop = pair.core.electorate.laptops[pid]
        assert (probe.addrs, probe.port) == (laptop.addrs, laptop.port)
    times = sorted({t for t, _ in probed})
    assert times[0] == pytest.approx(ends)
    assert all(b - a == pytest.approx(PROBE_EVERY) for a, b in itertools.pairwise(times))


def test_a_host_that_slept_holds_the_game_for_d_and_probes_every_laptop_at_once() -> None:
    """What a host hears first when its process wakes is stale (here a connection that
    closed while it slept): it pauses at once, for D, and asks every laptop whether
    another hosts now; its sleep counts against nobody's turn clock."""
    pair, clients = _table(turn_timeout=40.0)
    mover = _on_turn(pair, clients)
    other = next(c for c in clients if c is not mover)
    pair.advance(1.0)
    moved = _moves(pair)
    pair.now += 4 * D  # asleep (SIGSTOP): nothing ran; t = 21
    pair.lose(next(cid for cid, c in pair.clients.items() if c is other))
    assert _paused(pair) and pair.table.paused_at is not None
    assert pair.table.paused_at <= 1.0 + HostOptions().sweep  # from when it went quiet
    assert {p.pid for t, p in pair.probes if t == pair.now} == {c.pid for c in clients}
    offer = mover.session.moves
    assert offer is not None
    mover.take()
    mover.session.choose(offer.moves[0].id)
    pair.pump()
    assert mover.last(m.Error).text == PAUSED_TEXT
    pair.advance(D - 0.1)
    assert _paused(pair) and _moves(pair) == moved
    pair.advance(0.2)  # D after it woke: 2 of 3 connected, a quorum: it goes on
    assert not _paused(pair)
    pair.advance(35.0)  # the mover's 40 s: about 1 used before the sleep
    assert _moves(pair) == moved
    pair.advance(5.0)
    assert _moves(pair) > moved  # its time ran out: a bot moved for it


def test_a_majority_back_resumes_and_the_paused_time_counts_against_nobody() -> None:
    pair, clients = _table(turn_timeout=40.0)
    mover = _on_turn(pair, clients)
    other = next(c for c in clients if c is not mover)
    pair.advance(1.0)
    ends = _lose_all_but(pair, clients, mover)
    pair.advance(L)
    assert _paused(pair) and pair.table.paused_at == pytest.approx(ends)  # at once
    pair.advance(26.0 - pair.now)
    moved = _moves(pair)
    token = other.token
    assert token is not None
    pair.join("again", address="10.0.0.9", token=token)  # 2 of 3: a quorum
    assert not _paused(pair) and pair.table.paused_at is None
    probes = len(pair.probes)
    pair.advance(40.0 - ends - 0.5)  # its own time used: less than 40 s
    assert _moves(pair) == moved and len(pair.probes) == probes
    pair.advance(1.0)  # its 40 s are up: a bot moves for it
    assert _moves(pair) > moved


def test_after_the_grace_the_game_still_waits_and_the_probes_go_on() -> None:
    """A cut-off host never plays on by itself (issue 31: a woken or cut-off host
    played alone after G, a game nobody else saw): it waits for a majority."""
    pair, clients = _table(turn_timeout=None, grace=20.0)
    mover = _on_turn(pair, clients)
    pair.advance(1.0)
    _lose_all_but(pair, clients, mover)
    pair.advance(L + 19.0)
    assert _paused(pair)
    moved = _moves(pair)
    pair.advance(1.5 + 60.0)  # G and more after the pause began
    assert _paused(pair) and _state(pair.core.fence)[0]
    offer = mover.session.moves
    assert offer is not None
    mover.take()
    mover.session.choose(offer.moves[0].id)
    pair.pump()
    assert mover.last(m.Error).text == PAUSED_TEXT  # the move was refused
    assert _moves(pair) == moved
    probes = len(pair.probes)
    pair.advance(PROBE_EVERY * 2)
    assert len(pair.probes) >= probes + 2 * 2  # two absent laptops, probed twice more


def test_a_table_that_starts_at_a_later_epoch_fences_the_same_way() -> None:
    table = Table(TableConfig(seats=2, auto_start=True, seed=3))
    pair = Pair(table, HostOptions(heartbeat=1000.0, dead_after=5000.0, takeover_delay=D,
                                   epoch=7, table_id="tab1"))  # fmt: skip
    assert pair.core.epoch == 7
    _a, ann = pair.join("ann")
    _b, bob = pair.join("bob", address="10.0.0.3")
    assert ann.pid is not None and bob.pid is not None
    pair.core.expect_laptops([Laptop(ann.pid, ("10.0.0.2",), 5000),
                              Laptop(bob.pid, ("10.0.0.3",), 5001)])  # fmt: skip
    pair.lose(_b)
    pair.advance(D + 0.1)
    assert _paused(pair)  # 1 of 2: fewer than the quorum, 2
    assert {p.pid for _, p in pair.probes} == {bob.pid}


def test_laptops_that_said_bye_do_not_cut_the_host_off() -> None:
    pair, clients = _table()
    mover = _on_turn(pair, clients)
    for i, client in enumerate(clients):
        if client is not mover:
            # (a version-4 laptop offers as soon as it accepts the host's succession:
            # a bye before any offer is a refusal of the host, SPEC 13)
            client.send(m.Offer(port=5000 + i, addrs=(f"10.0.0.{i + 2}",)))
            client.session.close()  # bye (quit): it left on purpose and will not vote
    pair.pump()
    assert [x.pid for x in pair.core.electorate.order(pair.table)] == [mover.pid]
    pair.advance(D + 1)
    assert not _paused(pair) and not pair.probes


def test_a_split_without_a_goodbye_cuts_the_host_off_at_the_end_of_their_lease() -> None:
    # The laptops' connections stay open but nothing of theirs arrives (a network
    # split) from 3 s on, before the first ping (at L / 3, about 3.3 s) was answered:
    # their leases run from when they connected (0 s), so they count as absent at
    # L = 10 s, before the laptops on their side can give this host up (D = 15 s after
    # its last frame reached them) and long before the connections time out (20 s).
    table = Table(TableConfig(seats=3, auto_start=True, seed=11))
    pair = Pair(table, HostOptions(takeover_delay=15.0))  # heartbeat 5 s, dead after 20 s
    clients = [pair.join(n, address=f"10.0.0.{i + 2}")[1] for i, n in enumerate("abc")]
    for i, client in enumerate(clients):
        client.send(m.Offer(port=5000 + i, addrs=("192.0.2.1",)))
    pair.pump()
    pair.advance(3.0)
    for client in clients:
        client.send(m.Chat(pid=None, text="still here"))  # heard at 3 s: no lease
    pair.pump()
    keep = _on_turn(pair, clients)
    for cid in list(pair.clients):
        if pair.clients[cid] is not keep:
            pair.paused[cid] = 1e9  # the host reads nothing more from them
    assert pair.core.timings.lease == pytest.approx(10.0)
    pair.advance(6.9)
    assert not _paused(pair)
    pair.advance(0.2)  # 0 + L = 10 s
    assert _paused(pair) and len(pair.open) == 3
    assert pair.table.paused_at == pytest.approx(10.0)


def test_a_host_that_is_a_laptop_counts_itself_in_the_majority() -> None:
    fence = Fence()
    fence.note(0.0, [100.0, D], hosting=True)  # itself, one present, one absent from D
    fence.note(D + 1, [100.0, D], hosting=True)
    assert not _state(fence)[0]  # 2 of 3 (itself and one other): a majority
    fence.note(D + 1, [D, D], hosting=True)
    assert _state(fence) == (True, True)  # only itself: 1 of 3
    fence.note(0.0, [D], hosting=True)
    assert fence.next_wakeup() == D  # itself and its one other laptop: both needed
    fence.note(0.0, [], hosting=True)
    assert not _state(fence)[0] and fence.next_wakeup() is None


def _successor() -> tuple[Pair, dict[str, int]]:
    """A successor's three-seat table, hosted from the laptop of seat "ann" (its own
    player joins like everyone): its electorate is bob's and cy's laptops."""
    table = Table(TableConfig(seats=3, auto_start=True, seed=11))
    pair = Pair(table, HostOptions(heartbeat=1000.0, dead_after=5000.0, takeover_delay=D,
                                   epoch=2, table_id="tab1", seat=0))  # fmt: skip
    cids = {}
    for i, name in enumerate(("ann", "bob", "cy")):
        cid, client = pair.join(name, address=f"10.0.0.{i + 2}")
        assert client.pid == i
        cids[name] = cid
    pair.core.expect_laptops([Laptop(1, ("10.0.0.3",), 5001), Laptop(2, ("10.0.0.4",), 5002)])
    assert [x.pid for x in pair.core.electorate.order(pair.table)] == [1, 2]
    return pair, cids


def test_a_successor_plays_on_with_one_of_its_two_other_laptops() -> None:
    """The table survived its first host with ann's laptop and bob's vote: cy not back
    (cut off, asleep) must not pause ann's table, which has the majority (2 of 3)."""
    pair, cids = _successor()
    pair.lose(cids["cy"])
    pair.advance(D + 1)
    assert not _paused(pair) and not pair.probes
    pair.lose(cids["bob"])  # now ann's laptop is alone: 1 of 3
    pair.advance(D + 1)
    assert _paused(pair) and {p.pid for _, p in pair.probes} == {1, 2}
