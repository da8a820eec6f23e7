"""Issue 31: the successor's laptop got a new address while the old host was away.

The old host (seat 0's laptop, with its own player) slept past D; Ann and Bob took the
table over at Ann's laptop, whose network then gave it another address.  The old host
wakes cut off and probes each laptop where it offered: Ann is not there any more, and
Bob's standby only says it does not host the table.  Before, it stayed paused for
ever and its own player never learned the end of the game (the simulator's seeds 578,
857 and 875).  SPEC 13 has a host step down on an advert of its table at a higher
epoch too: the advert shows Ann's laptop at its new address, the host probes it there
(with every probe after), finds epoch 2 and steps down, and its player follows."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "authority"))
from pair import Pair, SessionClient

from sorry_lan.authority import effects as fx
from sorry_lan.authority.electorate import Laptop
from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.table import Table, TableConfig

D = 3.0
ANN = Laptop(1, ("10.0.0.3",), 7001)
BOB = Laptop(2, ("10.0.0.4",), 7002)
MOVED = ("10.1.0.77",)  # Ann's laptop's address now


def _woken() -> Pair:
    """The first host (seat 0's own player connected) with Ann and Bob, asleep for a
    minute while they took the table over: it wakes cut off."""
    table = Table(TableConfig(seats=3, auto_start=True, seed=5, grace=60.0, turn_timeout=None))
    pair = Pair(table, HostOptions(takeover_delay=D, table_id="tab1", seat=0))
    cids = {}
    own = SessionClient("own")
    for i, client in enumerate((own, SessionClient("ann"), SessionClient("bob"))):
        cid, _ = pair.connect(client, address="127.0.0.1" if i == 0 else f"10.0.0.{i + 2}")
        client.session.join()
        pair.pump()
        cids[client.pid] = cid
    pair.core.expect_laptops([ANN, BOB])
    assert pair.table.game is not None
    pair.advance(1.0)
    pair.now += 60.0  # asleep
    for pid in (ANN.pid, BOB.pid):
        pair.lose(cids[pid])
    pair.advance(D + 1)
    assert pair.core.paused
    return pair


def _probed_at(pair: Pair, pid: int, since: float) -> set[tuple[str, ...]]:
    return {p.addrs for t, p in pair.probes if p.pid == pid and t >= since}


def test_a_cut_off_host_probes_the_successor_where_its_advert_shows_it() -> None:
    pair = _woken()
    assert _probed_at(pair, ANN.pid, 0.0) == {ANN.addrs}  # only where it offered
    now = pair.now
    told = pair.core.advert(2, MOVED, ANN.port, now)
    assert told == [fx.Probe((*MOVED, *ANN.addrs), ANN.port, ANN.pid)]
    pair.advance(5.0)  # and so is every probe of Ann's laptop after it
    assert _probed_at(pair, ANN.pid, now + 0.01) == {(*MOVED, *ANN.addrs)}
    assert _probed_at(pair, BOB.pid, now + 0.01) == {BOB.addrs}
    # the probe there finds Ann's table at epoch 2: the host steps down (its player,
    # back in its own host, is handed over: test_stepped_down.py)
    pair.run(pair.core.newer_epoch(2, ANN.pid, pair.now))
    assert pair.journal[-1] == {"k": "moved", "epoch": 2, "pid": ANN.pid, "name": "ann"}
    assert not pair.listening


def test_other_adverts_probe_nobody() -> None:
    """An advert at this host's epoch or an older one, or on a port no laptop offered
    (a successor hosts on its standby's port: a claim on another is forged), probes
    nobody; nor does any advert while a quorum is present (it never steps down)."""
    pair = _woken()
    now = pair.now
    assert pair.core.advert(1, MOVED, ANN.port, now) == []
    assert pair.core.advert(2, MOVED, 9999, now) == []
    assert pair.core.advert(2, (), ANN.port, now) == []
    pair.advance(5.0)
    assert _probed_at(pair, ANN.pid, now) == {ANN.addrs}

    table = Table(TableConfig(seats=3, auto_start=True, seed=5, grace=60.0, turn_timeout=None))
    alive = Pair(table, HostOptions(takeover_delay=D, table_id="tab1", seat=0))
    for i in range(3):
        _, client = alive.connect(SessionClient(f"p{i}"), address=f"10.0.0.{i + 2}")
        client.session.join()
        alive.pump()
    alive.core.expect_laptops([ANN, BOB])
    alive.advance(1.0)
    assert not alive.core.paused
    assert alive.core.advert(2, MOVED, ANN.port, alive.now) == []
    alive.advance(10.0)
    assert alive.probes == [] and alive.listening
