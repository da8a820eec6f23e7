"""The laptops that may host next: their addresses, their order, who leaves it."""

from __future__ import annotations

from sorry_lan.authority.electorate import (
    Electorate,
    Laptop,
    local_at,
    on_this_machine,
    reachable_at,
)
from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.wire.limits import ADDRS_MAX


def test_the_address_the_host_saw_comes_first_each_address_once_eight_at_most() -> None:
    offered = ["10.0.0.9", "10.0.0.2", *(f"192.168.1.{i}" for i in range(10))]
    got = reachable_at("10.0.0.2", offered)
    assert got[:2] == ("10.0.0.2", "10.0.0.9")
    assert len(got) == ADDRS_MAX and len(set(got)) == len(got)


def test_a_loopback_connection_is_not_an_address_for_the_others() -> None:
    assert reachable_at("127.0.0.1", ["10.0.0.3", "127.0.0.1"]) == ("10.0.0.3",)
    assert reachable_at("::1", ["fe80::1%eth0", "fe80::1"]) == ("fe80::1",)  # no zone
    assert reachable_at("not an ip", []) == ()


def _seated(*names: str) -> tuple[Table, list[int]]:
    table = Table(TableConfig())
    pids = []
    for i, name in enumerate(names):
        player, _token = table.join(100 + i, name)
        pids.append(player.pid)
    return table, pids


def test_the_order_is_by_seat_whatever_the_order_of_the_offers() -> None:
    table, (ann, bob, cy) = _seated("ann", "bob", "cy")
    table.choose_colour(100, 3)  # ann moves to green: after the others
    electorate = Electorate()
    for pid in (ann, cy, bob):
        assert electorate.offer(pid, f"10.0.0.{pid + 2}", 5000 + pid, [])
    assert [x.pid for x in electorate.order(table)] == [bob, cy, ann]
    assert not electorate.offer(bob, f"10.0.0.{bob + 2}", 5000 + bob, [])  # no change
    assert electorate.offer(bob, f"10.0.0.{bob + 2}", 6000, [])


def test_connected_and_absent_laptops_are_told_apart() -> None:
    table, (ann, bob) = _seated("ann", "bob")
    electorate = Electorate()
    electorate.expect([Laptop(ann, ("10.0.0.2",), 1), Laptop(bob, ("10.0.0.3",), 2)])
    table.disconnect(101, 0.0)  # bob's connection went; his seat waits for him
    assert [x.pid for x in electorate.connected(table)] == [ann]
    assert [x.pid for x in electorate.absent(table)] == [bob]


def test_a_freed_seat_the_hosts_own_seat_and_a_bot_leave_the_order() -> None:
    table, (ann, bob, cy) = _seated("ann", "bob", "cy")
    electorate = Electorate()
    electorate.expect(Laptop(pid, ("10.0.0.2",), 1) for pid in (ann, bob, cy))
    assert not electorate.prune(table)
    table.owner = ann
    table.disconnect(101, 0.0, quit=True)  # bob left the lobby: his seat is freed
    assert electorate.prune(table)
    assert [x.pid for x in electorate.order(table)] == [cy]
    table.players[cy].bot = True
    electorate.prune(table)
    assert electorate.order(table) == []
    assert not electorate.forget(cy)


def test_a_laptop_on_the_hosts_machine_alone_keeps_its_loopback_addresses() -> None:
    assert local_at("127.0.0.1", ["127.0.0.1", "::1", "10.0.0.3"]) == ("127.0.0.1", "::1")
    assert local_at("10.0.0.3", ["127.0.0.1"]) == ()  # another machine's loopback
    electorate = Electorate()
    electorate.offer(1, "127.0.0.1", 5001, ["127.0.0.1"])
    electorate.offer(2, "127.0.0.1", 5002, ["10.0.0.3", "127.0.0.1"])
    assert electorate.laptops[1].addrs == ("127.0.0.1",)
    assert on_this_machine(electorate.laptops[1])
    assert electorate.laptops[2].addrs == ("10.0.0.3",)  # a LAN address: the others' too
    assert not on_this_machine(electorate.laptops[2])


def test_loopback_laptops_are_listed_only_when_every_laptop_is_on_one_machine() -> None:
    table, (ann, bob, cy) = _seated("ann", "bob", "cy")
    electorate = Electorate()
    electorate.offer(ann, "127.0.0.1", 5000, ["127.0.0.1"])
    electorate.offer(bob, "127.0.0.1", 5001, ["127.0.0.1"])
    assert [(x.pid, x.addrs) for x in electorate.listed(table)] == [
        (ann, ("127.0.0.1",)), (bob, ("127.0.0.1",))
    ]
    electorate.offer(cy, "10.0.0.4", 5002, [])  # a laptop on another machine joins
    assert [x.pid for x in electorate.listed(table)] == [cy]
    assert [x.pid for x in electorate.order(table)] == [ann, bob, cy]  # all still count
    electorate.forget(cy)
    electorate.offer(cy, "not an ip", 5002, [])  # a laptop nobody knows where it is
    assert electorate.listed(table) == []
