"""A successor's journal resumed (``host --resume``), in memory on one fake clock: Ann
took the table over at epoch 2, her laptop crashes, her person resumes the game from
the journal her laptop kept; Bob and Cat, who followed her at epoch 2, follow her
back by themselves and the game is played to its end, every move kept.  Before, the
resumed table was hosted at epoch 1 under the journal file's own id: the laptops
refused it (an old epoch, another table) and the game never ended.  A resumed host
probes the laptops where its journal says they offered to host, and so learns that
the table moved on without it (before, its journal held no address to probe)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "authority"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from pair import Pair
from test_takeover_in_memory import TID, D, Lan, Laptop, play, table

from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.restore import moved_to, offers, replay, taken_over
from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.authority.takeover import resume_table, resumed_options
from sorry_lan.client.model import ClientModel
from sorry_lan.rules import Variant
from sorry_lan.succession import election as el
from sorry_lan.wire import messages as m


def successor() -> tuple[Lan, Pair, list[Laptop], dict[str, object]]:
    """The first host lost, Ann hosts at epoch 2 and Bob and Cat follow her; the
    takeover record her new journal began with."""
    old, laptops, _own = table(Variant.STANDARD)
    lan = Lan(old, laptops)
    lost = old.now
    lan.host_lost(lost + 0.1, laptops)
    lan.tick(lost + D + 3)
    ann = laptops[0]
    new = lan.hosts[ann.pid]
    head = dict(new.table.history[0])
    assert head["k"] == "takeover" and all(lap.model.epoch == 2 for lap in laptops)
    return lan, new, laptops, head


def paused(pair: Pair) -> bool:
    """Whether the host's game waits (a call: mypy does not narrow it between steps)."""
    return pair.core.paused


def test_a_resumed_successor_is_followed_back_and_its_game_ends() -> None:
    lan, new, laptops, head = successor()
    ann, bob, cat = laptops
    seat = ann.pid
    for lap in (bob, cat):  # (as GameClient tells it: Ann's host serves on her standby's)
        lap.election.host_port = ann.port
    play(new, laptops, moves=6)
    records = [head, *new.journal]
    crashed = new.table.game
    assert crashed is not None and not crashed.over
    before = replay(records)
    assert before is not None and before.moves > 0
    shown = {lap.model.name: lap.model.sid for lap in laptops}
    # Ann's laptop crashes: nothing more from her host, her client is gone too
    del lan.hosts[seat]
    lan.laptops.pop(seat)
    crash = lan.now
    for lap in (bob, cat):
        lap.model.connection_lost()
        lan.carry_out(lap, lap.election.host_lost(crash + 0.1))
    lan.tick(crash + 2.0)
    # her person runs `sorry-lan host --resume`: the journal, under a new file's id
    restored, start = replay(records), taken_over(records)
    assert restored is not None and start is not None and start.seat == seat
    resumed_table = resume_table(TableConfig(seats=4, auto_start=True, seed=9), restored,
                                 start, lan.now, None)
    options = resumed_options(HostOptions(table_id="0ther0file0id00", takeover_delay=D),
                              start)
    resumed = Pair(resumed_table, options)
    resumed.now = lan.now
    assert (resumed.core.epoch, options.table_id) == (2, TID) and paused(resumed)
    lan.hosts[seat] = resumed
    lan.laptops[seat] = ann
    assert resumed_table.owner == seat
    ann.model = ClientModel("ann")
    ann.model.token = resumed_table.new_token(seat)  # its own player's seat (the host's)
    ann.model.join(resumed.now)
    resumed.connect(ann, "127.0.0.1")
    resumed.pump()
    for lap in (bob, cat):  # its advert: the table at epoch 2, on Ann's laptop again
        lan.carry_out(lap, lap.election.advert(2, (ann.addr,), ann.port, lan.now))
    lan.tick(crash + D)
    for lap in laptops:
        assert lap.model.connected and lap.model.epoch == 2, lap.model.name
        assert lap.model.succession is not None and lap.model.succession.host == seat
        assert lap.model.sid >= shown[lap.model.name]
    assert not [d for _, d in lan.log if isinstance(d, el.TakeOver) and d.epoch > 2]
    lan.tick(crash + 2 * D)  # they answered the host's ping: a quorum is back
    game = resumed_table.game
    assert game is not None and game.state_id == crashed.state_id and not paused(resumed)
    play(resumed, laptops)
    assert game.over and all(lap.model.over is not None for lap in laptops)
    assert not [e for lap in (bob, cat) for e in lap.events if isinstance(e, m.Error)]
    whole = replay([*records, *resumed.journal])
    assert whole is not None and whole.game.over
    assert whole.moves == before.moves + game.moves_played - crashed.moves_played


def test_a_resumed_first_host_probes_the_laptops_where_they_offered() -> None:
    old, laptops, _own = table(Variant.STANDARD)
    records = list(old.journal)
    where = {lap.pid: ((lap.addr,), lap.port) for lap in laptops}
    assert {x.pid: (x.addrs, x.port) for x in offers(records)} == where
    restored = replay(records)
    assert restored is not None and restored.moves > 0
    assert all(rec["k"] != "laptop" for rec in restored.history)  # (no game record's)
    config = TableConfig(seats=4, auto_start=True, seed=9)
    resumed = Pair(Table.restore(config, restored, 0.0, None),
                   HostOptions(table_id=TID, takeover_delay=D, resumed=True),
                   expect=offers(records))
    assert paused(resumed)
    resumed.advance(3.0)
    asked = {p.pid: (p.addrs, p.port) for _, p in resumed.probes if p.addrs}
    assert asked == where
    # Bob's laptop answers that it hosts the table at epoch 2: this host steps down
    resumed.run(resumed.core.newer_epoch(2, laptops[1].pid, resumed.now))
    assert resumed.journal[-1]["k"] == "moved" and moved_to(resumed.journal) is not None
    assert [rec["k"] for rec in resumed.journal].count("laptop") == 0
