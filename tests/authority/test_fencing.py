"""A host cut off from most of its laptops pauses the game, probes them, and resumes
when a majority is back or the grace has passed, with the paused time counted
against nobody."""

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


def _state(fence: Fence) -> tuple[bool, bool]:
    """(cut off, paused): a call, so that what a test asserted before narrows nothing."""
    return fence.cut_off, fence.paused


def _paused(pair: Pair) -> bool:
    return pair.core.paused


@pytest.mark.parametrize(("n", "q"), [(1, 1), (2, 2), (3, 2), (4, 3), (5, 3)])
def test_the_quorum_is_a_majority_of_the_electorate(n: int, q: int) -> None:
    assert quorum(n) == q


def test_a_fence_cuts_off_after_d_and_resumes_after_g_probing_all_along() -> None:
    fence = Fence(delay=D, grace=20.0)
    fence.note(0.0, connected=1, electorate=3)
    assert not _state(fence)[0] and fence.next_wakeup() == D
    fence.advance(D - 0.1)
    assert not _state(fence)[0] and not fence.probe_due(D - 0.1)
    fence.advance(D)
    assert _state(fence)[0] and _state(fence)[1] and fence.probe_due(D)
    assert not fence.probe_due(D + 1) and fence.probe_due(D + PROBE_EVERY)
    fence.advance(D + 20.0)
    assert _state(fence)[0] and not _state(fence)[1]  # resumed anyway; the probes go on
    assert fence.next_wakeup() == D + 2 * PROBE_EVERY
    fence.note(D + 21, connected=2, electorate=3)  # a majority is back
    assert not _state(fence)[0] and fence.next_wakeup() is None


def test_a_host_without_laptops_is_never_cut_off() -> None:
    fence = Fence(delay=D, grace=20.0)
    fence.note(0.0, connected=0, electorate=0)
    fence.advance(100.0)
    assert not _state(fence)[0] and fence.next_wakeup() is None


def test_a_short_gap_shorter_than_d_does_not_cut_off() -> None:
    fence = Fence(delay=D, grace=20.0)
    fence.note(0.0, connected=0, electorate=1)
    fence.note(D - 1, connected=1, electorate=1)
    fence.advance(D + 1)
    assert not _state(fence)[0]


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


def _lose_all_but(pair: Pair, clients: list[SessionClient], keep: SessionClient) -> None:
    for cid, client in list(pair.clients.items()):
        if client is not keep and cid in pair.open:
            pair.lose(cid)


def test_cut_off_the_game_pauses_probes_the_absent_and_refuses_moves() -> None:
    pair, clients = _table()
    mover = _on_turn(pair, clients)
    pair.advance(1.0)
    _lose_all_but(pair, clients, mover)  # 1 of 3 connected: fewer than the quorum, 2
    pair.advance(D - 0.5)
    assert not _paused(pair) and not pair.probes
    pair.advance(1.0)
    assert _paused(pair) and pair.table.paused_at == pytest.approx(1.0 + D)
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
    assert times[0] == pytest.approx(1.0 + D)
    assert all(b - a == pytest.approx(PROBE_EVERY) for a, b in itertools.pairwise(times))


def test_a_majority_back_resumes_and_the_paused_time_counts_against_nobody() -> None:
    pair, clients = _table(turn_timeout=40.0)
    mover = _on_turn(pair, clients)
    other = next(c for c in clients if c is not mover)
    pair.advance(1.0)
    _lose_all_but(pair, clients, mover)
    pair.advance(D)  # paused at 1 + D = 6: the mover had used 6 s of its 40
    assert _paused(pair)
    pair.advance(20.0)  # t = 26
    moved = _moves(pair)
    token = other.token
    assert token is not None
    pair.join("again", address="10.0.0.9", token=token)  # 2 of 3: a quorum
    assert not _paused(pair) and pair.table.paused_at is None
    probes = len(pair.probes)
    pair.advance(33.5)  # t = 59.5: 6 + 33.5 < 40 of the mover's own time
    assert _moves(pair) == moved and len(pair.probes) == probes
    pair.advance(1.0)  # t = 60.5: its 40 s are up: a bot moves for it
    assert _moves(pair) > moved


def test_after_the_grace_the_game_goes_on_anyway_and_the_probes_go_on() -> None:
    pair, clients = _table(turn_timeout=None, grace=20.0)
    mover = _on_turn(pair, clients)
    pair.advance(1.0)
    _lose_all_but(pair, clients, mover)
    pair.advance(D + 19.0)
    assert _paused(pair)
    pair.advance(1.5)  # 20 s after the pause began
    assert not _paused(pair) and _state(pair.core.fence)[0]
    offer = mover.session.moves
    assert offer is not None
    mover.take()
    mover.session.choose(offer.moves[0].id)
    pair.pump()
    assert not mover.all(m.Error)  # the move was played
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
    for client in clients:
        if client is not mover:
            client.session.close()  # bye (quit): it left on purpose and will not vote
    pair.pump()
    assert [x.pid for x in pair.core.electorate.order(pair.table)] == [mover.pid]
    pair.advance(D + 1)
    assert not _paused(pair) and not pair.probes
