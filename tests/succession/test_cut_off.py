"""A laptop cut off from everyone while the host lives (issue 31, case 1), in memory on
one fake clock: its cable out, its interface up, so its network "works" but it
reaches nobody.  The host and the others play on.  A bot (or headless) laptop never
takes the table by itself; one with a person at it asks them once, at the grace, and
only their yes starts a game of its own."""

from __future__ import annotations

import pytest
from test_takeover_in_memory import Lan, play, table

from sorry_lan.succession import election as el


@pytest.mark.parametrize("may_ask", [False, True])
def test_a_laptop_that_reaches_nobody_never_takes_the_table_by_itself(may_ask: bool) -> None:
    old, laptops, own = table()
    ann, bob, cat = laptops
    cat.election.may_ask = may_ask
    cid = next(c for c, end in old.clients.items() if end is cat)
    old.lose(cid)  # Cat's cable is out: it reaches nobody, nobody reaches it
    lan = Lan(old, laptops)
    lan.dead = {ann.pid, bob.pid}  # (only Cat tries anyone)
    lost = cat.election.heard_at
    lan.carry_out(cat, cat.election.host_lost(old.now))
    while lan.now < lost + 3 * 60:  # three minutes: past the delay and the grace
        old.advance(0.5)
        if old.table.game is not None and not old.table.game.over:
            play(old, [own, ann, bob], moves=1)
        lan.now = old.now
        lan.carry_out(cat, cat.election.tick(lan.now))
    mine = [d for who, d in lan.log if who == "cat"]
    assert not [d for d in mine if isinstance(d, el.TakeOver)]
    assert cat.pid not in lan.hosts
    asked = [d for d in mine if isinstance(d, el.AskAlone)]
    assert asked == ([el.AskAlone(2)] if may_ask else [])
    # it kept walking (it would find a host that took over), standing again each time
    assert sum(isinstance(d, el.OpenStandby) for d in mine) >= 5
    assert ann.model.epoch == bob.model.epoch == cat.model.epoch == 1
    if may_ask:  # the person says yes: a game of its own, with bots in the others' seats
        lan.carry_out(cat, cat.election.alone_agreed(lan.now))
        assert ("cat", el.TakeOver(2, alone=True)) in lan.log
