"""Settling (protocol version 5, issue 31 invariant (b)): a client shows a state only
once the host knows enough laptops of the order hold it that no successor replaces
it (Raft's commit rule).  In memory, on the pair's fake clock, with client models:
the host pings the laptops after each state, their pongs settle it, ``settled`` lets
each version-5 view show it; a version-4 client shows it at once; a host cut off
from most laptops never shows the moves it takes in its last lease; and nothing
waits for settling (bots play on)."""

from __future__ import annotations

from pair import Pair

from sorry_lan.authority import effects as fx
from sorry_lan.authority.electorate import Laptop
from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.settling import Settling, holders_needed
from sorry_lan.authority.table import PAUSED_TEXT, Table, TableConfig
from sorry_lan.client.model import ClientEvent, ClientModel
from sorry_lan.wire import messages as m
from sorry_lan.wire.codec import Decoder, encode, to_wire
from sorry_lan.wire.errors import LocalProtocolError
from sorry_lan.wire.session import ClientSession, HostSession
from sorry_lan.wire.vocab import ByeReason

D = 3.0
V4 = (1, 2, 3, 4)


class Link:
    """A client model on a link that can be cut both ways (what either side sends
    meanwhile waits, as TCP would hold it, until :meth:`heal`)."""

    def __init__(self, name: str, *, spectate: bool = False,
                 versions: tuple[int, ...] | None = None) -> None:  # fmt: skip
        kw = {} if versions is None else {"versions": versions}
        self.model = ClientModel(name, spectate=spectate, **kw)  # type: ignore[arg-type]
        self.events: list[ClientEvent] = []
        self.cut = False
        self._in: list[bytes] = []
        self._out = bytearray()

    def receive_data(self, data: bytes, now: float) -> list[ClientEvent]:
        if self.cut:
            self._in.append(data)
            return []
        got = self.model.receive_data(data, now)
        self.events += got
        return got

    def data_to_send(self) -> bytes:
        self._out += self.model.data_to_send()
        if self.cut:
            return b""
        data = bytes(self._out)
        self._out.clear()
        return data

    def heal(self, now: float) -> None:
        self.cut = False
        held, self._in = self._in, []
        for data in held:
            self.receive_data(data, now)

    def shown(self) -> list[int]:
        """The sids of the states its view showed, in order."""
        return [self.model.view_at(e).sid for e in self.events
                if isinstance(e, m.Events | m.Snapshot)]


def _table(seats: int = 4, bots: int = 0) -> tuple[Pair, dict[int, int], dict[int, Link]]:
    """A game hosted from the first person's laptop (a successor at epoch 2, its own
    player connected like everyone); every other person's seat is a laptop of the
    order; the first ``bots`` seats are bots.  By pid: the cids and the links."""
    table = Table(TableConfig(seats=seats, auto_start=True, seed=11, turn_timeout=None))
    for _ in range(bots):
        table.add_bot(None)
    pair = Pair(table, HostOptions(takeover_delay=D, epoch=2, table_id="tab1", seat=bots))
    cids, links = {}, {}
    for i in range(bots, seats):
        cid, link = pair.connect(Link(f"p{i}"), address=f"10.0.0.{i + 2}")
        link.model.join(pair.now)
        pair.pump()
        assert link.model.pid == i
        cids[i], links[i] = cid, link
    pair.core.expect_laptops(
        [Laptop(i, (f"10.0.0.{i + 2}",), 5000 + i) for i in range(bots + 1, seats)]
    )
    pair.advance(0.1)  # (the laptops are pinged for the state as it is: it settles)
    assert pair.table.game is not None
    return pair, cids, links


def _sid(pair: Pair) -> int:
    game = pair.table.game
    assert game is not None
    return game.state_id


def _paused(pair: Pair) -> bool:
    """Whether the host pauses now (a call: what was asserted before narrows nothing)."""
    return pair.core.paused


def _mover(pair: Pair, links: dict[int, Link]) -> Link:
    game = pair.table.game
    assert game is not None
    player = pair.table.by_colour(game.turn)
    assert player is not None
    return links[player.pid]


def _move(pair: Pair, cids: dict[int, int], links: dict[int, Link]) -> int:
    """The player on turn answers the offer its view shows; the host reads it at once
    (nobody else's answer, a pong, is read): the new sid."""
    mover = _mover(pair, links)
    offer = mover.model.view.offer
    assert offer is not None and mover.model.moves is offer
    mover.model.play(offer.moves[0].id)
    pid = mover.model.pid
    assert pid is not None
    pair.feed(cids[pid], mover.data_to_send())
    return _sid(pair)


def test_holders_needed_meet_every_quorum() -> None:
    assert [holders_needed(n) for n in range(6)] == [0, 1, 1, 2, 2, 3]
    for n in range(1, 9):  # a holder in every majority, and no more than a majority
        assert holders_needed(n) + (n // 2 + 1) > n >= holders_needed(n) + n // 2
    settling = Settling()
    settling.ping(7, pid=1, n=1, game=1, sid=3)
    settling.ping(7, pid=1, n=2, game=1, sid=4)
    assert not settling.settle(1, 4, [1, 2, 3])
    settling.ponged(7, 2)  # (an answer to a later ping covers the earlier ones)
    assert settling.held == {1: 4} and settling.asked[7] == []
    settling.held[2] = 3
    assert settling.settle(1, 4, [1, 2, 3]) and settling.settled == 3
    assert settling.settle(2, 0, []) and settling.settled == 0  # a new game, no order


def test_a_state_is_shown_once_enough_laptops_hold_it() -> None:
    pair, cids, links = _table()
    before = _sid(pair)
    assert all(link.model.sid == before for link in links.values())
    after = _move(pair, cids, links)
    assert after > before
    for link in links.values():  # made, sent, not shown: no laptop answered yet
        assert link.model.sid == before and link.model.view.sid == before
        assert link.model.received.sid == after and link.model.unsettled > 0
        assert after not in link.shown()
    # one laptop of three holds it: a majority of the order may not (2 needed)
    pair.feed(cids[1], links[1].data_to_send())
    assert all(link.model.sid == before for link in links.values())
    pair.feed(cids[2], links[2].data_to_send())  # two of three: settled, shown everywhere
    assert all(link.model.sid == after and link.model.unsettled == 0
               for link in links.values())
    assert all(after in link.shown() for link in links.values())


def test_a_cut_off_hosts_last_move_is_never_shown_on_its_side() -> None:
    """The window of the lease (simulator seeds 24 34 69 132 157): the host with its
    own player and one laptop of three, the other two cut off; the player on turn
    here moves before the lease runs out.  The host takes it (its lease runs), but
    nobody on its side is ever shown it: one laptop of three is no share every
    quorum meets.  The laptop on its side keeps it to host from (Raft's log)."""
    pair, cids, links = _table()
    mover = _mover(pair, links)
    near = mover.model.pid if mover.model.pid != 0 else 1  # (the laptop on its side)
    assert near is not None
    for i in (1, 2, 3):
        links[i].cut = i != near
    before = _sid(pair)
    after = _move(pair, cids, links)
    pair.advance(0.2)
    assert after > before and not pair.core.paused  # taken within the lease
    pair.advance(3 * D)  # the lease runs out: the host pauses, cut off
    assert _paused(pair)
    for i, link in links.items():
        if not link.cut:
            assert link.model.sid == before and after not in link.shown(), i
            assert link.model.received.sid == after, i
    knowledge = links[near].model.knowledge()
    assert knowledge is not None and knowledge.board is not None
    assert knowledge.board.sid == after and knowledge.board_epoch == 2
    assert links[near].model.view.offer is None  # nobody answers an unsettled offer
    for i, link in links.items():  # why the game waits is told at once: chat never waits
        if not link.cut:
            assert PAUSED_TEXT in link.model.view.chat, i


def test_a_version_4_client_shows_states_at_once() -> None:
    pair, cids, links = _table()
    old = Link("old", spectate=True, versions=V4)
    new = Link("new", spectate=True)
    watchers = {}
    for watcher in (old, new):
        cid, _ = pair.connect(watcher, address="10.0.0.9")
        watchers[cid] = watcher
        watcher.model.join(pair.now)
        pair.pump()
    before = _sid(pair)
    assert old.model.sid == new.model.sid == before
    after = _move(pair, cids, links)
    assert old.model.sid == after and after in old.shown()  # at once, as before
    assert new.model.sid == before
    pair.pump()
    assert new.model.sid == after
    told = {cid: Decoder() for cid in watchers}
    got: dict[int, list[m.Message]] = {cid: [] for cid in watchers}
    for effect in pair.effects:
        if isinstance(effect, fx.Send) and effect.cid in told:
            got[effect.cid] += told[effect.cid].feed(effect.data)
    settled = {watchers[cid].model.name: any(isinstance(x, m.Settled) for x in msgs)
               for cid, msgs in got.items()}
    assert settled == {"old": False, "new": True}  # never sent to version 4


def test_bots_play_on_while_nothing_settles() -> None:
    """The host never waits for settling: a person's move and the bots' after it are
    made at once, in one round, though no laptop has answered for any of them."""
    pair, cids, links = _table(seats=4, bots=2)
    table, game = pair.table, pair.table.game
    assert game is not None
    bots = {int(p.colour) for p in table.players.values() if p.bot}
    for _ in range(50):  # the persons play until one is on turn with a bot after it
        if (int(game.turn) + 1) % 4 in bots:
            break
        _move(pair, cids, links)
        pair.pump()
    else:
        raise AssertionError("no person was followed by a bot")
    start, before = game.moves_played, _sid(pair)
    assert all(link.model.sid == before for link in links.values())
    after = _move(pair, cids, links)
    assert game.moves_played >= start + 2  # the person's move and a bot's, at once
    assert all(link.model.sid == before for link in links.values())
    pair.pump()
    assert all(link.model.sid == after == _sid(pair) for link in links.values())


def test_settled_round_trips_and_needs_version_5() -> None:
    msg = m.Settled(sid=12)
    assert to_wire(msg) == {"t": "settled", "sid": 12}
    assert Decoder().feed(encode(msg)) == [msg]
    host = HostSession()
    client = ClientSession("ann", versions=V4)
    client.join()
    host.receive_data(client.data_to_send())
    host.welcome(0, bytes(16))
    client.receive_data(host.data_to_send())
    assert host.version == 4
    try:
        host.send(msg)
    except LocalProtocolError as exc:
        assert "version 5" in str(exc)
    else:
        raise AssertionError("settled sent on version 4")


def test_the_end_is_shown_and_the_next_game_settles_afresh() -> None:
    pair, cids, links = _table(seats=2)
    game = pair.table.game
    assert game is not None
    for _ in range(5000):
        if game.over:
            break
        _move(pair, cids, links)
        pair.pump()
    assert game.over and pair.table.games_played == 1
    for link in links.values():  # the end, settled, shown
        assert link.model.over is not None and link.model.unsettled == 0
    for pid, link in links.items():
        link.model.send(m.Rematch())
        pair.feed(cids[pid], link.data_to_send())
    pair.pump()
    again = pair.table.game
    assert pair.table.games_played == 2 and again is not None and again is not game
    for link in links.values():  # the next game's board, settled afresh, shown
        assert link.model.over is None and link.model.unsettled == 0
        assert link.model.sid == again.state_id and link.model.pawns == tuple(again.pawns)


def test_a_host_closing_the_table_settles_what_it_sent() -> None:
    """The table closes here for good (nobody takes over after a ``bye``): the last
    move, sent and not yet answered by any laptop, is shown before the bye, so a
    game's end is never left held (tests/net/test_resume.py found it); a host cut
    off from the order's quorum shows nothing more as it closes."""
    pair, cids, links = _table()
    before = _sid(pair)
    after = _move(pair, cids, links)
    assert all(link.model.sid == before for link in links.values())
    pair.run(pair.core.shutdown(ByeReason.SHUTDOWN, pair.now))
    for link in links.values():
        assert link.model.sid == after and link.model.unsettled == 0
        assert after in link.shown()

    pair, cids, links = _table()
    mover = _mover(pair, links)
    near = mover.model.pid if mover.model.pid != 0 else 1
    assert near is not None
    for i in (1, 2, 3):
        links[i].cut = i != near
    before = _sid(pair)
    after = _move(pair, cids, links)
    pair.advance(3 * D)
    assert _paused(pair)
    pair.run(pair.core.shutdown(ByeReason.SHUTDOWN, pair.now))
    assert links[near].model.sid == before and after not in links[near].shown()
