"""Two laptops at a real host core, in memory (``tests/authority/pair.py``), on one fake
clock: the faults of the simulator's two-laptop evenings (``tests/sim``), each pinned at
its root.  The host's laptop moves to a new address: the other laptop, which only knew
the old one, finds it by its advert at the epoch it knows and plays on with it (before,
an advert at the known epoch was ignored and the table waited for good).  A late hello
from a try the client gave up on takes its seat from its live link: the client
reconnects (before, the host's ``bye`` ``replaced`` ended it as a goodbye).  The
host's laptop crashes and its person resumes the game from its journal (``host
--resume``): the game waits for the other laptop, which may have chosen another host
meanwhile, and goes on once it is back (before, it went on at once, a bot soon in the
other's seat: a second table where a successor had been chosen)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "authority"))
from pair import Pair, RawClient, SessionClient
from test_takeover_in_memory import Laptop

from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.restore import replay
from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.client.model import TableNews
from sorry_lan.succession import election as el
from sorry_lan.wire import messages as m
from sorry_lan.wire.vocab import ByeReason

TID = "kitchen2"
D = 15.0


def table() -> tuple[Pair, Laptop, Laptop]:
    """The host's own player (the owner) and Ann, the one laptop of the order, a few
    moves into their game."""
    t = Table(TableConfig(seats=2, auto_start=True, seed=4))
    player, token = t.join(None, "host")
    t.owner = player.pid
    pair = Pair(t, HostOptions(table_id=TID, takeover_delay=D))
    own = Laptop("host", 1, standby=False)
    own.model.token = token
    ann = Laptop("ann", 2)
    for lap in (own, ann):
        lap.model.join(pair.now)
        pair.connect(lap, "127.0.0.1" if lap is own else lap.addr)
        pair.pump()
    assert t.game is not None and ann.model.connected
    return pair, own, ann


def paused(pair: Pair) -> bool:
    """Whether the host's game waits (a call: mypy does not narrow it between steps)."""
    return pair.core.paused


def dropped(lap: Laptop) -> bool:
    """Whether the host's last bye to ``lap`` is no goodbye (a call, as ``paused``)."""
    return lap.model.dropped


def cid_of(pair: Pair, lap: Laptop) -> int:
    return max(c for c, end in pair.clients.items() if end is lap and c in pair.open)


def test_the_host_found_at_a_new_address_by_its_advert_is_followed_back() -> None:
    """DHCP moves the host's laptop: Ann's link resets, her reconnects to the old
    address fail, and she stands (the order has nobody else).  The table's advert at
    the epoch she knows, at the new address, is tried: she is welcomed back into her
    seat by the same host, stops standing, and the table plays on (no new host)."""
    pair, own, ann = table()
    pair.lose(cid_of(pair, ann))
    ann.model.connection_lost()
    lost = pair.now
    e = ann.election
    e.host_port = 4242  # (the shell's: where the host served)
    assert e.host_lost(lost) == [el.KeepTrying()]
    assert e.tick(lost + D) == [el.OpenStandby(2)]
    # the host's claim replayed on another port (a rogue laptop): never tried
    assert e.advert(1, ("10.0.1.8",), 7090, lost + D + 1) == []
    hint = el.TryCandidate(None, ("10.0.1.9",), 4242)
    assert e.advert(1, hint.addrs, hint.port, lost + D + 1) == [hint]
    pair.advance(D + 1)  # (the host, cut off, paused meanwhile)
    assert paused(pair)
    ann.model.join(pair.now, attempt=hint)
    pair.connect(ann, ann.addr)
    pair.pump()
    assert ann.model.take_decisions() == [el.CloseStandby(), el.Follow(own.model.pid, 1)]
    assert ann.model.connected and ann.model.epoch == 1
    assert e.phase is el.Phase.WATCHING
    assert not [ev for ev in ann.events if isinstance(ev, TableNews)]  # no new host
    pair.advance(D / 3)  # her answers to the host's pings: present again
    assert not paused(pair)
    # once per D at one address: the same advert again is no new try
    pair.lose(cid_of(pair, ann))
    ann.model.connection_lost()
    e.host_lost(lost + D + 2)
    assert e.advert(1, hint.addrs, hint.port, lost + D + 2) == []


def test_an_advert_of_the_known_epoch_naming_no_host_there_is_passed_over() -> None:
    """The advert at the epoch we know leads to a laptop that does not host (a
    restarted laptop's standby at the host's old address): the walk goes on."""
    _pair, _own, ann = table()
    e = ann.election
    e.host_port = 7001
    lost = e.heard_at
    e.host_lost(lost)
    e.tick(lost + D)
    hint = el.TryCandidate(None, ("10.0.0.1",), 7001)
    assert e.advert(1, hint.addrs, hint.port, lost + D + 1) == [hint]
    assert e.busy(hint, lost + D + 1.1, standing=False) == []
    assert e.waiting_for is None and e.phase is el.Phase.STANDBY


def late_hello(pair: Pair, ann: Laptop) -> bytes:
    """Ann's link goes quiet (a slow network); she tries the host again, and the try
    times out with its hello still on the way (the bytes returned); then she is welcomed
    back on a new link, which replaces her old one."""
    pair.open.discard(cid_of(pair, ann))  # (the host does not know yet)
    pair.advance(1.0)
    ann.model.connection_lost()
    ann.model.join(pair.now)
    stray = ann.model.data_to_send()  # sent; no answer in time: the try is given up
    pair.advance(2.0)
    ann.model.connection_lost()
    ann.model.join(pair.now)
    pair.connect(ann, ann.addr)
    pair.pump()
    assert ann.model.connected
    return stray


def test_a_late_hello_of_our_own_that_replaced_the_live_link_is_no_goodbye() -> None:
    """The given-up try's hello reaches the host late, on a connection of its own, and
    takes the seat: the live link is told ``bye`` ``replaced``.  It was Ann's own: she
    reconnects (the try's connection is closed) and is back in her seat (before, she
    took it for the host's goodbye and stopped, and the host of two stayed paused)."""
    pair, _own, ann = table()
    stray = late_hello(pair, ann)
    pair.advance(1.0)
    cid, _ = pair.connect(RawClient(), ann.addr)
    pair.feed(cid, stray)
    pair.lose(cid)  # (the try's connection: Ann closed it when she gave up)
    assert ann.model.bye is ByeReason.REPLACED and ann.model.closed
    assert dropped(ann)  # a loss: reconnect
    ann.model.connection_lost()
    ann.model.join(pair.now)
    pair.connect(ann, ann.addr)
    pair.pump()
    assert ann.model.connected and not dropped(ann)
    pair.advance(5.0)
    assert not paused(pair)


def test_a_seat_taken_by_another_process_is_a_goodbye() -> None:
    """With no try given up lately, ``replaced`` is another process with Ann's token
    (she started the game again elsewhere): it has the seat, Ann stops."""
    pair, _own, ann = table()
    assert ann.model.token is not None
    other = SessionClient("ann", token=ann.model.token)
    pair.connect(other, "10.0.0.7")
    other.session.join()
    pair.pump()
    assert other.all(m.Welcome) and ann.model.bye is ByeReason.REPLACED
    assert not ann.model.dropped


def play_some(pair: Pair, laps: list[Laptop], moves: int) -> None:
    """The people play the first move offered until ``moves`` were played."""
    game = pair.table.game
    assert game is not None
    start = game.moves_played
    while game.moves_played - start < moves and not game.over:
        movers = [lap.model for lap in laps if lap.model.moves is not None]
        if not movers:
            pair.advance(0.5)
        for model in movers:
            assert model.moves is not None
            model.play(model.moves.moves[0].id)
        pair.pump()


def test_a_resumed_game_waits_for_the_other_laptop() -> None:
    """The host's laptop crashes; its person resumes the game from the journal.  The
    other laptop may have elected another host meanwhile: the resumed host holds the
    game (no move, no bot in the away seat, past the grace too) until that laptop is
    back in its seat and answers; then it goes on from where it was."""
    pair, own, ann = table()
    play_some(pair, [own, ann], 6)
    restored = replay(pair.journal)
    assert restored is not None and not restored.game.over
    config = TableConfig(seats=2, auto_start=True, seed=5, grace=10.0)
    resumed = Pair(Table.restore(config, restored, 0.0, None),
                   HostOptions(table_id=TID, takeover_delay=D, resumed=True))
    game = resumed.table.game
    assert game is not None and paused(resumed)
    sid = game.state_id
    own.model.connection_lost()
    own.model.join(resumed.now)
    resumed.connect(own, "127.0.0.1")
    resumed.pump()
    resumed.advance(30.0)  # past D and the grace: Ann is away all along
    assert paused(resumed) and game.state_id == sid
    assert own.model.moves is None
    ann.model.connection_lost()
    ann.model.join(resumed.now)
    resumed.connect(ann, ann.addr)
    resumed.pump()
    resumed.advance(D / 3)
    assert not paused(resumed)
    play_some(resumed, [own, ann], 4)
    assert game.state_id > sid


def test_a_resumed_game_of_one_person_and_bots_plays_on_at_once() -> None:
    t = Table(TableConfig(seats=2, auto_start=True, seed=4))
    player, token = t.join(None, "host")
    t.owner = player.pid
    t.add_bot(None)
    pair = Pair(t, HostOptions(table_id=TID, takeover_delay=D))
    own = Laptop("host", 1, standby=False)
    own.model.token = token
    own.model.join(pair.now)
    pair.connect(own, "127.0.0.1")
    pair.pump()
    play_some(pair, [own], 4)
    restored = replay(pair.journal)
    assert restored is not None
    config = TableConfig(seats=2, auto_start=True, seed=5)
    resumed = Pair(Table.restore(config, restored, 0.0, None),
                   HostOptions(table_id=TID, takeover_delay=D, resumed=True))
    assert not paused(resumed)
