"""The host's lease (issue 31): at most one host accepts moves for a game at a time.

A host counts a laptop present only while its lease runs: L after the last ping of
the host's that it answered was sent (its answer proves it heard this host then, so
it cannot take part in choosing another before D after).  A cut-off host pauses
before any successor can start, never plays on alone by itself, says why to everyone
still there, and offers the player on turn its moves again when a majority is back."""

from __future__ import annotations

import pytest
from pair import Pair, SessionClient

from sorry_lan.authority.electorate import Laptop
from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.table import PAUSED_TEXT, Table, TableConfig
from sorry_lan.authority.timings import Timings, TimingsError
from sorry_lan.rules import Phase
from sorry_lan.wire import messages as m

D = 3.0  # the takeover delay of the LAN runs that found cases 2 and 4


class Deaf(SessionClient):
    """A laptop that hears nothing more from the host once :attr:`deaf` (the way from
    the host to it is broken) though what it says still arrives."""

    deaf = False

    def receive_data(self, data: bytes, now: float) -> list[m.Message]:
        if self.deaf:
            return []
        return super().receive_data(data, now)


def _successor(seats: int, grace: float = 60.0) -> tuple[Pair, dict[int, int], dict[int, Deaf]]:
    """A table of ``seats`` hosted from seat 0's laptop (a successor at epoch 2, the
    host's own player connected like everyone), default heartbeat and dead-after
    (5 s, 20 s), D = 3 s; every other seat is a laptop. By pid: cids and clients."""
    table = Table(TableConfig(seats=seats, auto_start=True, seed=11, grace=grace,
                              turn_timeout=None))  # fmt: skip
    pair = Pair(table, HostOptions(takeover_delay=D, epoch=2, table_id="tab1", seat=0))
    cids, clients = {}, {}
    for i in range(seats):
        cid, client = pair.connect(Deaf(f"p{i}"), address=f"10.0.0.{i + 2}")
        client.session.join()
        pair.pump()
        assert client.pid == i
        cids[i], clients[i] = cid, client
    pair.core.expect_laptops(
        [Laptop(i, (f"10.0.0.{i + 2}",), 5000 + i) for i in range(1, seats)]
    )
    assert pair.table.game is not None
    return pair, cids, clients


def _on_turn(pair: Pair) -> int:
    game = pair.table.game
    assert game is not None
    player = pair.table.by_colour(game.turn)
    assert player is not None
    return player.pid


def _paused(pair: Pair) -> bool:
    """Whether the host pauses now (a call: what a test asserted before narrows nothing)."""
    return pair.core.paused


def _offer(client: SessionClient) -> m.LegalMoves | None:
    return client.session.moves


def _moves(pair: Pair) -> int:
    return sum(1 for r in pair.journal if r["k"] == "move")


def test_timings_check_their_order_when_built() -> None:
    t = Timings.of(D, grace=60.0)
    assert t.heartbeat < t.lease < t.delay < 60.0
    assert t.lease < D and t.heartbeat <= t.lease / 3
    with pytest.raises(TimingsError):
        Timings(heartbeat=1.0, lease=2.0, delay=2.0)
    with pytest.raises(TimingsError):
        Timings.of(D, grace=D)
    assert HostOptions(takeover_delay=D).timings == Timings.of(D)


def test_a_2_2_split_pauses_the_old_host_before_a_successor_can_start() -> None:
    """Case 2: {host, p1} | {p2, p3}, the connections half-open (nothing of p2's and
    p3's arrives, nothing times out for 20 s).  p2 and p3 can give the host up at
    lost_at + D and elect another; the host must take no move from then on, so it
    pauses within its lease, before lost_at + D."""
    pair, cids, clients = _successor(4)
    pair.advance(1.0)
    split = pair.now
    for pid in (2, 3):
        pair.paused[cids[pid]] = 1e9  # the host reads nothing more from them
        clients[pid].deaf = True  # nor do they from it
    pair.advance(D - 0.01)
    assert pair.core.paused and len(pair.open) == 4
    lease = pair.core.timings.lease
    assert pair.table.paused_at is not None and pair.table.paused_at <= split + lease < split + D
    moved = _moves(pair)
    mover = clients[_on_turn(pair)]
    offer = mover.session.moves
    if offer is not None:  # (p2 or p3 on turn: nothing of theirs arrives anyway)
        mover.session.choose(offer.moves[0].id)
        pair.pump()
    pair.advance(20.0)
    assert _moves(pair) == moved


def test_laptops_whose_connections_closed_are_absent_at_once() -> None:
    """A laptop whose connection closed hears no more moves from this host, whatever
    its lease: counted absent from then on, the host pauses at once when that leaves
    it without a majority, and shows its own player no state a successor would
    replace (the simulator's partition and cut-off evenings found such states)."""
    pair, cids, _clients = _successor(4)
    pair.advance(1.0)
    moved = _moves(pair)
    for pid in (2, 3):
        pair.lose(cids[pid])
    assert pair.core.paused and pair.table.paused_at == pytest.approx(pair.now)
    pair.advance(D)
    assert _moves(pair) == moved


def test_a_laptop_heard_but_not_hearing_the_host_is_not_counted() -> None:
    """What a laptop says proves nothing about what it hears: p2 and p3 chat on, but
    the host's pings never reach them, so they give it up D after its last frame
    reached them; the host counts them absent at the end of their lease."""
    pair, _cids, clients = _successor(4)
    pair.advance(1.0)
    split = pair.now
    for pid in (2, 3):
        clients[pid].deaf = True
    for _ in range(int(D * 2)):
        for pid in (2, 3):
            clients[pid].send(m.Chat(pid=None, text="still here"))
        pair.advance(0.5)
        if pair.now < split + D / 2:
            assert not pair.core.paused
    assert pair.core.paused and pair.table.paused_at is not None
    assert pair.table.paused_at < split + D


def test_laptops_that_answer_pings_keep_the_host_in_its_lease() -> None:
    """A quiet table (no moves for minutes, nobody speaks of itself) is never paused:
    the host's pings keep every lease renewed."""
    pair, _cids, _clients = _successor(4)
    pair.advance(300.0)
    assert not pair.core.paused and pair.table.paused_at is None
    assert not pair.probes


def test_a_host_that_slept_offers_the_moves_again_once_a_majority_is_back() -> None:
    """Case 4: the host (seat 0's laptop) and one other laptop; the host asleep longer
    than D.  It wakes, the other laptop comes back on a new connection and its move is
    refused (paused); once the hold is over and a majority is present, the player on
    turn is offered its moves again, and the game goes on."""
    pair, cids, clients = _successor(2)
    pair.advance(1.0)
    pair.now += 4 * D  # asleep: nothing ran
    token = clients[1].token
    assert token is not None
    pair.lose(cids[1])
    assert pair.core.paused
    cid, back = pair.connect(Deaf("p1", token=token), address="10.0.0.3")
    back.session.join()
    pair.pump()
    clients[1], cids[1] = back, cid
    mover = clients[_on_turn(pair)]
    offer = mover.session.moves
    if offer is not None:
        mover.session.choose(offer.moves[0].id)
        pair.pump()
        assert any(isinstance(x, m.Error) and x.text == PAUSED_TEXT for x in mover.inbox)
    assert mover.session.moves is None
    pair.advance(D + 0.5)
    assert not _paused(pair)
    assert _offer(mover) is not None  # offered again
    moved = _moves(pair)
    pair.play_first_moves(list(clients.values()), rounds=3)
    assert _moves(pair) > moved


def test_a_cut_off_host_never_plays_on_alone_and_says_why() -> None:
    """Cases 5 and 7: cut off (here: everyone else gone), the host waits however long,
    past G, probing; no bot moves, no winner journalled; everyone still connected is
    told why the table waits."""
    pair, cids, clients = _successor(3, grace=20.0)
    pair.advance(1.0)
    moved = _moves(pair)
    for pid in (1, 2):
        pair.lose(cids[pid])
    pair.advance(D)
    assert pair.core.paused
    told = [x for x in clients[0].inbox if isinstance(x, m.Chat) and x.pid is None]
    assert [x.text for x in told] == [PAUSED_TEXT]
    pair.advance(10 * 20.0)  # long past G
    assert pair.core.paused and _moves(pair) == moved
    assert not any(r["k"] == "move" and r.get("t") for r in pair.journal)
    assert len({t for t, _ in pair.probes}) > 50
    assert pair.table.phase is Phase.PLAYING


def test_a_woken_headless_host_that_finds_nobody_stays_paused() -> None:
    """Case 5: a headless host asleep until its table's game ended at the successor
    wakes, finds nobody, and keeps the game as it stood: no move after G."""
    table = Table(TableConfig(seats=2, auto_start=True, seed=3, grace=20.0))
    pair = Pair(table, HostOptions(takeover_delay=D, table_id="tab1"))
    cids = []
    for i, name in enumerate(("ann", "bob")):
        cid, client = pair.join(name, address=f"10.0.0.{i + 2}")
        cids.append(cid)
        assert client.pid is not None
        pair.core.expect_laptops([Laptop(client.pid, (f"10.0.0.{i + 2}",), 5000 + i)])
    pair.advance(1.0)
    moved = _moves(pair)
    pair.now += 600.0  # asleep
    for cid in cids:
        pair.lose(cid)
    pair.advance(200.0)
    assert pair.core.paused and _moves(pair) == moved


def test_its_person_may_choose_to_play_on_alone_as_a_game_of_its_own() -> None:
    """The player at a cut-off host may play on alone (bots in the away seats): that
    game is its own, so the table's journal records nothing of it (no move, no
    winner).  A headless host, or one not cut off, cannot."""
    pair, cids, clients = _successor(3, grace=20.0)
    pair.advance(1.0)
    assert pair.core.play_alone(pair.now) == []  # not cut off: nothing to choose
    for pid in (1, 2):
        pair.lose(cids[pid])
    pair.advance(D)
    assert pair.core.paused
    records = len(pair.journal)
    pair.run(pair.core.play_alone(pair.now))
    assert not _paused(pair) and pair.core.alone
    assert pair.core.newer_epoch(3, 1, pair.now) == []  # it no longer claims the table
    for _ in range(200):  # bots play the away seats (after their grace)
        pair.play_first_moves([clients[0]])
        pair.advance(25.0)
        if pair.phase_now() is Phase.FINISHED:
            break
    assert pair.phase_now() is Phase.FINISHED
    assert len(pair.journal) == records  # nothing of the game alone is the table's


def test_a_headless_host_cannot_play_alone() -> None:
    table = Table(TableConfig(seats=2, auto_start=True, seed=3))
    pair = Pair(table, HostOptions(takeover_delay=D, table_id="tab1"))
    cids = []
    for i, name in enumerate(("ann", "bob")):
        cid, client = pair.join(name, address=f"10.0.0.{i + 2}")
        cids.append(cid)
        assert client.pid is not None
        pair.core.expect_laptops([Laptop(client.pid, (f"10.0.0.{i + 2}",), 5000 + i)])
    for cid in cids:
        pair.lose(cid)
    pair.advance(D)
    assert pair.core.paused
    assert pair.core.play_alone(pair.now) == [] and pair.core.paused


def test_a_pause_shorter_than_a_ping_round_is_not_news() -> None:
    """Two laptops' answers arrive late (a busy machine): the host pauses when their
    leases end and plays on when they come; nobody is told of a pause that short,
    and the player on turn is offered its moves again all the same."""
    pair, cids, clients = _successor(4)
    pair.advance(1.0)
    for pid in (2, 3):
        pair.paused[cids[pid]] = 1e9  # their pongs wait
    while not _paused(pair):
        pair.advance(0.05)
    paused_at = pair.now
    mover = clients[_on_turn(pair)]
    offers = len(mover.all(m.LegalMoves))
    pair.advance(pair.core.timings.heartbeat / 2)
    for pid in (2, 3):
        pair.paused[cids[pid]] = pair.now  # they come
    pair.pump()
    assert not _paused(pair) and pair.now - paused_at < pair.core.timings.heartbeat
    assert not [x for x in clients[0].all(m.Chat) if x.text == PAUSED_TEXT]
    if mover in (clients[0], clients[1]):
        assert len(mover.all(m.LegalMoves)) == offers + 1


def test_a_player_back_while_paused_is_told_why_at_once() -> None:
    """Case 4 again: the host woke and waits; the other laptop's player comes back on
    a new connection and is told why the table waits right after its welcome, before
    it tries any move (and a spectator who arrives then, too)."""
    pair, cids, clients = _successor(2)
    pair.advance(1.0)
    pair.now += 4 * D  # asleep: nothing ran
    token = clients[1].token
    assert token is not None
    pair.lose(cids[1])
    pair.advance(0.1)
    assert pair.core.paused
    _cid, back = pair.connect(Deaf("p1", token=token), address="10.0.0.3")
    back.session.join()
    pair.pump()
    assert [x.text for x in back.all(m.Chat) if x.pid is None] == [PAUSED_TEXT]
    _cid, watcher = pair.connect(Deaf("w", spectate=True), address="10.0.0.9")
    watcher.session.join()
    pair.pump()
    assert [x.text for x in watcher.all(m.Chat) if x.pid is None] == [PAUSED_TEXT]
    pair.advance(D + 0.5)
    assert not _paused(pair)
    _cid, late = pair.connect(Deaf("w2", spectate=True), address="10.0.0.10")
    late.session.join()
    pair.pump()
    assert not [x for x in late.all(m.Chat) if x.pid is None]  # no pause, no news


def test_a_successors_laptop_back_counts_only_once_it_answered_a_ping() -> None:
    """Raft: a new host commits nothing before a majority heard it at its epoch.  A
    successor whose laptops are not back yet pauses; a laptop back counts only once
    it answered a ping (it took the succession: it never follows the old host again),
    so a successor that dies at once made no state its laptops could play differently
    at the old host (the simulator's seed 6634)."""
    table = Table(TableConfig(seats=3, auto_start=True, seed=11, grace=60.0,
                              turn_timeout=None))  # fmt: skip
    pair = Pair(table, HostOptions(takeover_delay=D, epoch=2, table_id="tab1", seat=0))
    cids, clients = {}, {}
    for i in range(3):
        cid, client = pair.connect(Deaf(f"p{i}"), address=f"10.0.0.{i + 2}")
        client.session.join()
        pair.pump()
        cids[i], clients[i] = cid, client
    tokens = {i: clients[i].token for i in (1, 2)}
    for i in (1, 2):  # the laptops that chose this host: not connected to it yet
        pair.lose(cids[i])
    pair.core.expect_laptops([Laptop(i, (f"10.0.0.{i + 2}",), 5000 + i) for i in (1, 2)])
    cid, back = pair.connect(Deaf("p1", token=tokens[1]), address="10.0.0.3")
    back.session.join()
    pair.feed(cid, back.data_to_send())  # welcomed, and pinged: no answer read yet
    assert back.session.state.value == "playing"
    assert _paused(pair)  # (itself and a laptop that has not answered: 1 of 3)
    pair.pump()  # its pong: 2 of 3
    assert not _paused(pair)
