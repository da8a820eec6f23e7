"""A laptop that restarts after a takeover remembers the epoch its seat followed
(Raft's persisted current term), in memory on one fake clock.

The host and its own player are cut off from Ann and Bob; the host pauses (1 of 3),
Ann takes the table over at epoch 2 with Bob's vote and they play on; Ann's process
dies and starts again with her seat file.  The old host still advertises epoch 1: if
Ann, remembering nothing, rejoined it, it would have 2 of 3 again and play on from
its old board while Bob has seen the moves of epoch 2 (two tables, one after the
other; simulated seeds 40 and 191).  Her seat file keeps the epoch and its host, so
she refuses the old host as a claim at an old epoch, and it stays paused.  A first
host's own player that restarts likewise refuses a laptop claiming epoch 1 (simulated
seed 162), or claiming to be its own seat's table (seeds 1063 and 1174), while a
laptop that restarts follows another laptop at the epoch it knew (it took over when
the one it knew died taking over).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from test_takeover_in_memory import TID, Lan, Laptop, play

from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.authority.takeover import build_table
from sorry_lan.succession import election as el

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "authority"))
from pair import Pair

D = 15.0


def _table(cal: bool = False) -> tuple[Pair, Laptop, Laptop, Laptop]:
    """The host's own player and Ann and Bob (laptops), a few moves into a game;
    ``cal``: Cal's laptop too, a fourth seat (see :func:`_cal`)."""
    t = Table(TableConfig(seats=4 if cal else 3, auto_start=True, seed=4))
    player, token = t.join(None, "host")
    t.owner = player.pid
    pair = Pair(t, HostOptions(table_id=TID, takeover_delay=D))
    own = Laptop("host", 1)
    own.model.participant.standby, own.model.token = None, token
    ann, bob = Laptop("ann", 2), Laptop("bob", 3)
    laptops = [own, ann, bob, *([Laptop("cal", 4)] if cal else [])]
    for lap in laptops:
        lap.model.join(pair.now)
        pair.connect(lap, "127.0.0.1" if lap is own else lap.addr)
        pair.pump()
    play(pair, laptops, moves=6)
    return pair, own, ann, bob


def _cal(pair: Pair) -> Laptop:
    """The fourth laptop of a :func:`_table` with ``cal``."""
    return next(c for c in pair.clients.values()
                if isinstance(c, Laptop) and c.model.name == "cal")


def _restarted(lap: Laptop, port: int | None = None) -> Laptop:
    """``lap``'s process started again: a fresh client with its seat file's token and
    the host it followed, on ``port`` if known (as ``net/client.py`` reads them from the
    seat store)."""
    followed = lap.model.followed
    assert followed is not None and lap.model.token is not None
    again = Laptop(lap.model.name, int(lap.addr.rsplit(".", 1)[1]))
    again.model.token = lap.model.token
    again.model.recall(*followed, port=port)
    return again


@pytest.mark.parametrize("cal", [False, True])
def test_a_restarted_successor_never_brings_a_cut_off_host_back(cal: bool) -> None:
    """``cal``: a fourth laptop stays with the old host (2 of 4 with its own seat:
    cut off).  Ann's refusal is no goodbye: were her seat forgotten as one that left
    the table, the old host would count 2 of 3 and play on (simulated seed 191)."""
    old, own, ann, bob = _table(cal)
    stays = [own, *([_cal(old)] if cal else [])]
    for cid, end in list(old.clients.items()):
        if end not in stays:
            old.lose(cid)  # the host's link to Ann and Bob is cut
    assert old.core.paused
    game = old.table.game
    assert game is not None
    made = game.state_id
    lan = Lan(old, [ann, bob])
    lan.dead |= {x.pid for x in stays[1:]}  # (Cal is on the old host's side of the cut)
    lan.host_lost(old.now, (ann, bob))
    lan.tick(old.now + 4 * D)
    assert list(lan.hosts) == [ann.pid] and ann.model.epoch == bob.model.epoch == 2
    play(lan.hosts[ann.pid], [ann, bob], moves=3)
    assert ann.model.followed == (TID, 2, ann.pid)
    del lan.hosts[ann.pid]  # Ann's process dies with the table it hosted
    again = _restarted(ann)
    old.advance(lan.now - old.now)
    again.model.join(old.now)  # it finds the old host's advert, at epoch 1
    old.connect(again, again.addr)
    old.pump()
    refused = [n for n in again.news() if n.kind == "claim_refused"]
    assert [n.claim for n in refused] == [el.Claim.OLD_EPOCH]
    assert not again.model.connected and again.model.snapshot is None
    for _ in range(3):  # whoever is offered a move plays it; a bot takes an away seat
        for lap in (*stays, again):
            if lap.model.moves is not None and lap.model.connected:
                lap.model.play(lap.model.moves.moves[0].id)
        old.pump()
        old.advance(2 * D)
    assert old.core.paused and game.state_id == made


@pytest.mark.parametrize("as_itself", [False, True])
def test_a_restarted_first_host_refuses_a_laptop_claiming_its_epoch(as_itself: bool) -> None:
    """A rogue that copied Ann's knowledge hosts the table at epoch 1 as Ann (seed
    162), or as the first host's own seat (seeds 1063, 1174: what the first host's
    player, restarted, remembers exactly): refused, the board never shown."""
    _old, own, ann, _bob = _table()
    assert own.model.followed == (TID, 1, own.model.pid)
    again = _restarted(own)
    knowledge = ann.model.knowledge()
    assert knowledge is not None
    seat = own.model.pid if as_itself else ann.pid
    rogue = Pair(build_table(knowledge, epoch=2, now=0.0, seed=3),
                 HostOptions(table_id=TID, epoch=1, seat=seat))
    again.model.join(rogue.now)  # its advert is the only one left
    rogue.connect(again, again.addr)
    rogue.pump()
    refused = [n for n in again.news() if n.kind == "claim_refused"]
    stale = el.Claim.OUT_OF_TURN if as_itself else el.Claim.OLD_EPOCH
    assert [n.claim for n in refused] == [stale]
    assert not again.model.connected and again.model.snapshot is None
    assert not again.model.replay_refused  # (no replay: its join ends, telling why)


def test_a_restarted_laptop_refuses_its_host_replayed_on_another_port() -> None:
    """A rogue that copied the first host's own knowledge hosts the table at epoch 1
    as that host's seat, at an address and port of its own (simulated seed 454: a
    restarted laptop joined it, was shown its moves, settled by that laptop alone,
    and the real host's moves replaced them).  Bob's seat file keeps the port his
    host served on: the claim on another port is refused, its board never shown; the
    host itself on its port (perhaps at a new address) is followed back."""
    old, own, _ann, bob = _table()
    assert bob.model.followed == (TID, 1, own.model.pid)
    knowledge = own.model.knowledge()
    assert knowledge is not None
    rogue = Pair(build_table(knowledge, epoch=2, now=old.now, seed=3),
                 HostOptions(table_id=TID, epoch=1, seat=own.model.pid))
    again = _restarted(bob, port=7000)
    again.model.join(rogue.now, port=7090)
    rogue.connect(again, again.addr)
    rogue.pump()
    refused = [n.claim for n in again.news() if n.kind == "claim_refused"]
    assert refused == [el.Claim.OUT_OF_TURN]
    assert not again.model.connected and again.model.snapshot is None
    assert again.model.replay_refused  # (its join looks on for the host: net/client.py)
    back = _restarted(bob, port=7000)
    back.model.join(old.now, port=7000)
    old.connect(back, back.addr)
    old.pump()
    assert [n.kind for n in back.news() if n.kind == "claim_refused"] == []
    assert back.model.connected and back.model.followed == (TID, 1, own.model.pid)


def test_a_restarted_laptop_follows_another_laptop_at_the_epoch_it_knew() -> None:
    """Ann took over at epoch 2 and died before anyone followed her; Bob took over
    at epoch 2 in turn (SPEC 13: the dead one's epoch is not newer).  Ann, started
    again, is welcomed by Bob's table at epoch 2 and follows it."""
    old, _own, ann, bob = _table()
    knowledge = bob.model.knowledge()
    assert knowledge is not None
    bobs = Pair(build_table(knowledge, epoch=2, now=old.now, seed=5),
                HostOptions(table_id=TID, epoch=2, seat=bob.pid))
    again = Laptop("ann", 2)
    assert ann.model.token is not None
    again.model.token = ann.model.token
    again.model.recall(TID, 2, ann.pid)
    again.model.join(bobs.now)
    bobs.connect(again, again.addr)
    bobs.pump()
    assert [n.kind for n in again.news() if n.kind == "claim_refused"] == []
    assert again.model.connected and again.model.epoch == 2
    assert again.model.followed == (TID, 2, bob.pid)


def test_a_restarted_successor_that_refuses_the_old_host_still_counts_against_it() -> None:
    """Four laptops: the host with Cat | Ann and Bob, who take the table over.  Ann's
    process dies and starts again; she refuses the old host's claim (``bye``
    ``quit``).  She is a laptop of its electorate all the same (she votes at epoch
    2), not a player who left on purpose: forgetting her, the old host had 2 of the 3
    left (itself and Cat) and played on beside the table (simulated seed 191)."""
    t = Table(TableConfig(seats=4, auto_start=True, seed=4))
    player, token = t.join(None, "host")
    t.owner = player.pid
    old = Pair(t, HostOptions(table_id=TID, takeover_delay=D))
    own = Laptop("host", 1)
    own.model.participant.standby, own.model.token = None, token
    ann, bob, cat = Laptop("ann", 2), Laptop("bob", 3), Laptop("cat", 4)
    for lap in (own, ann, bob, cat):
        lap.model.join(old.now)
        old.connect(lap, "127.0.0.1" if lap is own else lap.addr)
        old.pump()
    play(old, [own, ann, bob, cat], moves=6)
    for cid, end in list(old.clients.items()):
        if end is ann or end is bob:
            old.lose(cid)
    old.advance(D)
    assert old.core.paused
    game = old.table.game
    assert game is not None
    made = game.state_id
    lan = Lan(old, [ann, bob])
    lan.host_lost(old.now, (ann, bob))
    lan.tick(old.now + 2 * D)
    assert ann.model.epoch == bob.model.epoch == 2
    del lan.hosts[ann.pid]
    again = _restarted(ann)
    old.advance(lan.now - old.now)
    again.model.join(old.now)
    old.connect(again, again.addr)
    old.pump()
    assert [n.claim for n in again.news() if n.kind == "claim_refused"] == [el.Claim.OLD_EPOCH]
    assert ann.pid in old.core.electorate.laptops
    for _ in range(5):
        for lap in (own, cat):
            if lap.model.moves is not None and lap.model.connected:
                lap.model.play(lap.model.moves.moves[0].id)
        old.pump()
        old.advance(2 * D)
    assert old.core.paused and game.state_id == made


@pytest.mark.parametrize("legit", [False, True])
def test_a_restarted_laptop_follows_a_newer_epoch_only_on_its_hosts_standby_port(
    legit: bool,
) -> None:
    """The first host's process dies; Ann takes over at epoch 2 (on her standby's
    port, as every successor does).  A rogue that copied Ann's knowledge hosts the
    table at epoch 2 as Ann, at an address and port of its own, and its advert is the
    one the first host's player finds when it starts again (simulated seed 3389: it
    followed, was shown the rogue's moves, which the rogue settled as Ann, and Ann's
    moves replaced them).  Its seat file recalls epoch 1 and each laptop's standby
    port: Ann at epoch 2 off hers is refused, the board never shown, and the join
    looks on; Ann's own table on her port (at whatever address: it may move) is
    followed."""
    _old, own, ann, _bob = _table()
    assert own.model.followed == (TID, 1, own.model.pid)
    assert own.model.standby_ports.get(ann.pid) == ann.port
    knowledge = ann.model.knowledge()
    assert knowledge is not None
    tables = Pair(build_table(knowledge, epoch=2, now=0.0, seed=3),
                  HostOptions(table_id=TID, epoch=2, seat=ann.pid))
    again = Laptop("host", 1)
    assert own.model.token is not None
    again.model.participant.standby, again.model.token = None, own.model.token
    followed = own.model.followed
    assert followed is not None
    again.model.recall(*followed, port=7000, standbys=own.model.standby_ports)
    again.model.join(tables.now, port=ann.port if legit else 7090)
    tables.connect(again, "10.0.0.90")
    tables.pump()
    refused = [n.claim for n in again.news() if n.kind == "claim_refused"]
    if legit:
        assert refused == []
        assert again.model.connected and again.model.followed == (TID, 2, ann.pid)
        return
    assert refused == [el.Claim.OUT_OF_TURN]
    assert not again.model.connected and again.model.snapshot is None
    assert again.model.replay_refused  # (its join looks on where its seat says)


@pytest.mark.parametrize("claimant", ["first host", "bob"])
def test_a_restarted_successor_follows_at_its_epoch_only_a_laptop_of_its_order(
    claimant: str,
) -> None:
    """Ann took the table over at epoch 2 and hosted it; her process dies.  A rogue
    that copied an old knowledge hosts the table at epoch 2 as the first host's seat,
    which stood in no order Ann followed (simulated seed 9078: restarted, she
    followed it, so resumed nothing, and the table was never found again): refused
    as out of turn, the board never shown, and her join looks on where her seat
    says.  Bob, of the order she was elected from, on his standby's port (he took
    over at epoch 2 when she died, as far as she can tell) is followed."""
    old, own, ann, bob = _table()
    lan = Lan(old, [ann, bob])
    lan.dead.add(own.pid)
    for cid in list(old.clients):
        old.lose(cid)
    lan.host_lost(old.now, (ann, bob))
    lan.tick(old.now + 4 * D)
    assert list(lan.hosts) == [ann.pid] and ann.model.followed == (TID, 2, ann.pid)
    play(lan.hosts[ann.pid], [ann, bob], moves=3)
    del lan.hosts[ann.pid]  # Ann's process dies with the table it hosted
    assert own.pid not in ann.model.standby_ports
    assert ann.model.standby_ports.get(bob.pid) == bob.port
    knowledge = bob.model.knowledge()
    assert knowledge is not None
    seat = own.model.pid if claimant == "first host" else bob.pid
    port = 7090 if claimant == "first host" else bob.port
    rival = Pair(build_table(knowledge, epoch=3, now=lan.now, seed=3),
                 HostOptions(table_id=TID, epoch=2, seat=seat))
    again = Laptop("ann", 2)
    assert ann.model.token is not None
    again.model.token = ann.model.token
    followed = ann.model.followed
    assert followed is not None
    again.model.recall(*followed, port=ann.port, standbys=ann.model.standby_ports)
    again.model.join(rival.now, port=port)
    rival.connect(again, again.addr)
    rival.pump()
    refused = [n.claim for n in again.news() if n.kind == "claim_refused"]
    if claimant == "bob":
        assert refused == []
        assert again.model.connected and again.model.followed == (TID, 2, bob.pid)
        return
    assert refused == [el.Claim.OUT_OF_TURN]
    assert not again.model.connected and again.model.snapshot is None
    assert again.model.replay_refused  # (its join looks on: net/client.py _past_replay)
