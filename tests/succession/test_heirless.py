"""Whether any laptop can take a table over when its host is lost (``heirless``):
from the order alone (``tables.py``'s, or none) and what this laptop may do, and at a
real host core in memory (``tests/authority/pair.py``) whose laptops all offered
loopback addresses only (every program on one machine, no network): their order is
empty, so each knows at once, when the host is lost, that nobody can host next, and
knows it still when its election gives up; the same table on a LAN does not."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from tables import LAPTOPS, succession

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "authority"))
from pair import Pair
from test_takeover_in_memory import TID, D, Lan, Laptop, play

from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.succession import election as el
from sorry_lan.succession.election import GIVE_UP, Election, Order
from sorry_lan.succession.heirless import heirless


def election(
    order: tuple[int, ...], me: int | None, *, can_host: bool = True, may_ask: bool = True
) -> Election:
    laptops = tuple(lap for lap in LAPTOPS if lap.pid in order)
    e = Election(Order.of(succession(order=laptops)), me=me, now=0.0, may_ask=may_ask)
    e.can_host = can_host
    return e


@pytest.mark.parametrize(
    ("order", "me", "can_host", "may_ask", "nobody"),
    [
        ((), 1, True, True, True),  # an empty order: every laptop was left out
        ((), None, True, False, True),  # a spectator of such a table
        ((1, 2), 1, True, True, False),  # another laptop may take over
        ((2,), 1, False, False, False),  # another laptop, though this one cannot
        ((1,), 1, True, True, False),  # alone in the order: its person may say yes
        ((1,), 1, True, False, True),  # ...but a bot has nobody to ask
        ((1,), 1, False, True, True),  # ...and one that cannot host never does
        ((), 1, False, False, True),
        ((1,), None, True, True, False),  # a spectator: laptop 1 may (its person's yes)
        ((1,), 2, True, True, False),  # a laptop left out of the order: likewise
    ],
)
def test_nobody_can_host_when_the_order_holds_no_one_who_could(
    order: tuple[int, ...], me: int | None, can_host: bool, may_ask: bool, nobody: bool
) -> None:
    assert heirless(election(order, me, can_host=can_host, may_ask=may_ask)) is nobody


def test_the_lost_host_itself_in_the_order_is_no_successor() -> None:
    e = Election(Order.of(succession(host=1, order=LAPTOPS[:1])), me=2, now=0.0)
    assert heirless(e)


def _table(addresses: tuple[str, ...], names: tuple[str, ...]) -> tuple[Pair, list[Laptop]]:
    """The host's own player and a laptop for each of ``names``, each one's standby
    offered at its address of ``addresses`` and connected from it, a few moves into
    their game."""
    t = Table(TableConfig(seats=len(names) + 1, auto_start=True, seed=4))
    player, token = t.join(None, "host")
    t.owner = player.pid
    pair = Pair(t, HostOptions(table_id=TID, takeover_delay=D))
    own = Laptop("host", 1)
    own.model.participant.standby, own.model.token = None, token
    laptops = [Laptop(name, n) for n, name in enumerate(names, start=2)]
    for lap, address in zip(laptops, addresses, strict=True):
        lap.addr = address
        lap.model.set_standby(lap.port, (address,))
    for lap in [own, *laptops]:
        lap.model.join(pair.now)
        pair.connect(lap, "127.0.0.1" if lap is own else lap.addr)
        pair.pump()
    play(pair, [own, *laptops], moves=6)
    return pair, laptops


def test_two_laptops_on_one_machine_take_the_table_over() -> None:
    old, laptops = _table(("127.0.0.1",) * 2, ("ann", "bob"))
    ann, bob = laptops
    for lap in laptops:  # every program on one machine: a loopback order, for all
        assert [(x.pid, x.addrs) for x in lap.election.order.laptops] == [
            (ann.pid, ("127.0.0.1",)), (bob.pid, ("127.0.0.1",))
        ]
    lan = Lan(old, laptops)
    lost = old.now  # the host's process is killed
    for lap in laptops:
        decided = lap.election.host_lost(lost + 0.1)
        assert decided[:1] == [el.KeepTrying()] and not heirless(lap.election)
        lan.carry_out(lap, decided)
    lan.tick(lost + D + 3)
    assert ("ann", el.TakeOver(2)) in lan.log
    assert ann.model.epoch == bob.model.epoch == 2 and bob.model.connected
    new = lan.hosts[ann.pid]
    play(new, laptops)
    assert new.table.game is not None and new.table.game.over


def test_a_bot_alone_on_the_hosts_machine_knows_at_once_that_nobody_can_host() -> None:
    old, (bot,) = _table(("127.0.0.1",), ("bot",))
    e = bot.election
    assert [x.pid for x in e.order.laptops] == [bot.pid]
    e.may_ask = False  # (``sorry-lan bot``: nobody to ask to play on alone)
    lan = Lan(old, [bot])
    decided = e.host_lost(old.now)
    assert decided[:1] == [el.KeepTrying()]
    assert heirless(e)  # said with the KeepTrying, before any wait
    lan.carry_out(bot, decided)
    lan.tick(old.now + GIVE_UP, step=5.0)
    assert ("bot", el.GiveUp()) in lan.log and not lan.hosts
    assert heirless(e)  # and said again when it gives up


def test_a_laptop_on_the_lan_and_one_on_the_hosts_machine() -> None:
    old, (ann, bob) = _table(("10.0.0.9", "127.0.0.1"), ("ann", "bob"))
    for lap in (ann, bob):  # a loopback address would name the receiver's machine
        assert [x.pid for x in lap.election.order.laptops] == [ann.pid]
    assert len(old.core.electorate.laptops) == 2  # both count towards the host's quorum
