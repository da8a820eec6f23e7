"""Where a phone's page looks for its table next: the pages of the laptops of the
succession order, each at the port it would host on + 1, as a phone's seat is told
them by a real host core in memory (``tests/authority/pair.py``), following the
order as it changes; and the ``/table`` a page asks of each."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "authority"))
from pair import Pair
from webkit import served

from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.client.model import ClientModel
from sorry_lan.tui.telling import Teller
from sorry_lan.web.follow import next_pages, page_url, reachable, web_port
from sorry_lan.web.screen import screen

TID = "0123456789abcdef"


def _arrive(pair: Pair, model: ClientModel, address: str) -> None:
    model.join(pair.now)
    pair.connect(model, address)
    pair.pump()
    assert model.connected


def _table() -> tuple[Pair, ClientModel]:
    """A table of four and a phone's seat: a client on the host's own machine, which
    offers no standby (it never hosts)."""
    options = HostOptions(heartbeat=1000.0, dead_after=5000.0, table_id=TID)
    pair = Pair(Table(TableConfig(seats=4)), options)
    phone = ClientModel("pip")
    _arrive(pair, phone, "127.0.0.1")
    return pair, phone


def test_a_phone_is_told_the_next_hosts_pages_in_the_orders_order() -> None:
    pair, phone = _table()
    assert next_pages(phone.succession) == []  # no laptop offered: nobody hosts next
    ann = ClientModel("ann", standby=(5000, ("10.0.0.2", "fd00::2")))
    _arrive(pair, ann, "10.0.0.2")
    bob = ClientModel("bob", standby=(6000, ("10.0.0.3",)))
    _arrive(pair, bob, "10.0.0.3")
    assert next_pages(phone.succession) == [
        "http://10.0.0.2:5001", "http://[fd00::2]:5001", "http://10.0.0.3:6001",
    ]
    frame = screen(phone, Teller(), [], "en")
    assert frame["table"] == TID
    assert frame["next"] == next_pages(phone.succession)
    # ann's laptop moves its standby: the phone is told where ann would host now (the
    # address its connection came from first, as the order lists it)
    ann.set_standby(7000, ("10.0.0.9",))
    pair.pump()
    assert next_pages(phone.succession) == [
        "http://10.0.0.2:7001", "http://10.0.0.9:7001", "http://10.0.0.3:6001",
    ]


def test_ipv6_pages_are_bracketed_and_link_local_ones_left_out() -> None:
    """A laptop's IPv6 addresses are pages too, written in brackets; a link-local one
    is no page a browser can open (it needs its zone, the laptop's interface)."""
    pair, phone = _table()
    ann = ClientModel("ann", standby=(5000, ("fe80::2", "2001:db8::2", "::ffff:10.0.0.2")))
    _arrive(pair, ann, "fd00::2")
    bob = ClientModel("bob", standby=(6000, ("fe80::3",)))  # (link-local alone: no page)
    _arrive(pair, bob, "fe80::3")
    assert next_pages(phone.succession) == [
        "http://[fd00::2]:5001", "http://[2001:db8::2]:5001", "http://[::ffff:10.0.0.2]:5001",
    ]
    assert reachable("fd00::2") and reachable("10.0.0.2") and reachable("169.254.0.9")
    assert not reachable("fe80::2") and not reachable("FE80::2")
    assert not reachable("fe80::2%eth0") and not reachable("host.local")


def test_the_phones_own_client_is_never_a_next_host() -> None:
    pair, phone = _table()
    ann = ClientModel("ann", standby=(5000, ("10.0.0.2",)))
    _arrive(pair, ann, "10.0.0.2")
    succession = phone.succession
    assert succession is not None
    assert [laptop.pid for laptop in succession.order] == [ann.pid]
    assert phone.pid not in [laptop.pid for laptop in succession.order]


def test_the_page_port_is_the_hosting_port_plus_one() -> None:
    assert web_port(47474) == 47475
    assert web_port(65535) is None  # (no port above it)
    assert web_port(0) is None
    assert page_url("192.168.1.20", 47475) == "http://192.168.1.20:47475"
    assert page_url("fe80::1", 9) == "http://[fe80::1]:9"


@pytest.mark.asyncio
async def test_a_page_of_another_laptop_may_ask_which_table_is_served() -> None:
    async with served() as s:
        s.web.table_id = TID
        async with s.session.get(s.url + "/table",
                                 headers={"Origin": "http://10.0.0.2:5001"}) as r:
            assert r.status == 200
            assert r.headers["Access-Control-Allow-Origin"] == "*"
            assert await r.json() == {"table": TID}
