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

from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.client.model import ClientModel
from sorry_lan.succession.election import GIVE_UP, Election, GiveUp, KeepTrying, Order
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


def _table(address: str) -> tuple[Pair, list[ClientModel]]:
    """The host's own player and Ann and Bob, each laptop's standby offered at
    ``address`` and connected from it, their game begun."""
    t = Table(TableConfig(seats=3, auto_start=True, seed=4))
    player, token = t.join(None, "host")
    t.owner = player.pid
    pair = Pair(t, HostOptions(table_id="kitchen7", takeover_delay=15.0))
    own = ClientModel("host")
    own.participant.standby, own.token = None, token
    ends = [own, *(ClientModel(name, standby=(7000 + n, (address,)))
                   for n, name in enumerate(("ann", "bob")))]
    for end in ends:
        end.join(pair.now)
        pair.connect(end, "127.0.0.1" if end is own else address)
        pair.pump()
    assert t.game is not None
    return pair, ends[1:]


def test_laptops_on_loopback_only_know_at_once_that_nobody_can_host_next() -> None:
    pair, laptops = _table("127.0.0.1")
    for model in laptops:
        assert model.succession is not None and model.succession.order == ()
        e = model.election
        assert e is not None
        model.connection_lost()
        assert e.host_lost(pair.now)[:1] == [KeepTrying()]
        assert heirless(e)  # said with the KeepTrying, before any wait
        e.tick(pair.now + 15.0)  # it walks an empty order: nobody to try
        assert e.waiting_for is None
        assert GiveUp() in e.tick(pair.now + GIVE_UP)
        assert heirless(e)  # and said again when it gives up


def test_laptops_on_a_lan_look_for_who_hosts_next() -> None:
    pair, laptops = _table("10.0.0.9")
    for model in laptops:
        assert model.succession is not None and len(model.succession.order) == 2
        e = model.election
        assert e is not None
        model.connection_lost()
        assert e.host_lost(pair.now)[:1] == [KeepTrying()]
        assert not heirless(e)
