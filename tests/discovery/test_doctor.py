"""The doctor's findings from the facts (pure), and its port check and checkup run in a
loopback-only namespace (nothing leaves it)."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest
from netns import netns_skip_reason, run_in_loopback_netns

from sorry_lan.discovery.advert import FoundGame, Unjoinable
from sorry_lan.discovery.advice import advice
from sorry_lan.discovery.doctor import (
    Checkup,
    Finding,
    PortCheck,
    Problem,
    async_checkup,
    async_quick_checkup,
    findings,
    likely,
)
from sorry_lan.discovery.echo import Echo
from sorry_lan.discovery.interfaces import Kind, NetInterface

ETH = NetInterface("eth0", "eth0", ("192.168.1.20",), Kind.LAN)
WLAN = NetInterface("wlan0", "wlan0", ("10.0.0.7",), Kind.LAN)
LO = NetInterface("lo", "lo", ("127.0.0.1", "::1"), Kind.LOOPBACK)
TUN = NetInterface("tun0", "tun0", ("10.8.0.2",), Kind.VPN)
DOCKER = NetInterface("docker0", "docker0", ("172.17.0.1",), Kind.VIRTUAL)
SIX = NetInterface("eth0", "eth0", ("fd77:1::11", "fe80::1"), Kind.LAN)
BARE = NetInterface("eth1", "eth1", ("169.254.7.7",), Kind.LINK_LOCAL)


def checkup(*interfaces: NetInterface, **kw: object) -> Checkup:
    fields: dict[str, object] = {
        "platform": "linux",
        "ipv6": False,
        "port": 47474,
        "interfaces": interfaces,
        "searched": (),
    }
    fields.update(kw)
    return Checkup(**fields)  # type: ignore[arg-type]


def problems(c: Checkup) -> list[Problem]:
    return [f.problem for f in findings(c)]


def test_a_healthy_machine_has_nothing_to_report() -> None:
    c = checkup(ETH, LO, echoes=(Echo("192.168.1.20", True),), tables=(), ports=())
    assert problems(c) == [Problem.NO_TABLE]  # nobody hosting is all there is to say
    found = FoundGame(
        "T._sorry-lan._tcp.local.", "T", "T", None, ("192.168.1.9",), 47474, Unjoinable.UNREACHABLE
    )
    live = replace(found, reason=None, address="192.168.1.9")
    assert problems(checkup(ETH, LO, echoes=(Echo("192.168.1.20", True),), tables=(live,))) == []
    # A table that answered mDNS but not on its port: the host's firewall.
    assert findings(checkup(ETH, LO, tables=(found,))) == [
        Finding(Problem.TABLE_UNREACHABLE, ("T",))
    ]


def test_each_problem_from_its_facts() -> None:
    assert problems(checkup(LO)) == [Problem.NO_NETWORK]
    assert findings(checkup(LO, TUN, DOCKER)) == [
        Finding(Problem.ONLY_SKIPPED, ("tun0", "docker0"))
    ]
    assert findings(checkup(LO, BARE)) == [Finding(Problem.LINK_LOCAL, ("eth1",))]
    assert findings(checkup(SIX, LO)) == [Finding(Problem.IPV6_ONLY, ("eth0",))]
    assert problems(checkup(SIX, LO, ipv6=True)) == []
    lost = checkup(ETH, LO, echoes=(Echo("192.168.1.20", False),))
    assert findings(lost) == [Finding(Problem.ECHO_LOST, ("192.168.1.20",))]
    # The echo lost, yet a table answered (to this machine's address): not "no table"
    table = FoundGame("T._sorry-lan._tcp.local.", "T", "T", None, ("192.168.1.9",), 47474,
                      None, address="192.168.1.9")
    assert findings(replace(lost, tables=(table,))) == [
        Finding(Problem.MULTICAST_IN, ("192.168.1.20",))]
    words = advice(Finding(Problem.MULTICAST_IN, ("192.168.1.20",)), "linux")
    assert "joining works" in words and "5353" in words
    assert findings(checkup(ETH, TUN, LO)) == [Finding(Problem.VPN, ("tun0",))]
    assert findings(checkup(ETH, WLAN, DOCKER)) == [Finding(Problem.SEVERAL, ("eth0", "wlan0"))]
    ports = (PortCheck("192.168.1.20", False, True), PortCheck("127.0.0.1", True, False))
    assert findings(checkup(ETH, ports=ports)) == [
        Finding(Problem.PORT_BUSY, ("192.168.1.20",)),
        Finding(Problem.PORT_UNREACHABLE, ("127.0.0.1",)),
    ]


def test_the_likeliest_reason_comes_first() -> None:
    c = checkup(ETH, WLAN, TUN, echoes=(Echo("10.0.0.7", False),), tables=())
    assert problems(c) == [Problem.ECHO_LOST, Problem.VPN, Problem.SEVERAL, Problem.NO_TABLE]
    assert likely(c).problem is Problem.ECHO_LOST
    # Several networks or a busy port do not explain an empty list: nobody answered does.
    c = checkup(ETH, WLAN, ports=(PortCheck("10.0.0.7", False, True),))
    assert likely(c) == Finding(Problem.NO_TABLE)
    assert likely(checkup(LO, TUN)).problem is Problem.ONLY_SKIPPED


_skip = netns_skip_reason()
netns = pytest.mark.skipif(_skip is not None, reason=_skip or "")


@netns
def test_the_checkup_of_a_machine_with_nothing_but_loopback() -> None:
    async def body() -> tuple[Checkup, Checkup, Checkup]:
        server = await asyncio.start_server(lambda r, w: w.close(), "127.0.0.1", 0)
        busy = server.sockets[0].getsockname()[1]
        try:
            full = await async_checkup(browse=0.3, port=busy)
            free = await async_checkup(browse=0.3, port=busy + 1 if busy < 65535 else busy - 1)
        finally:
            server.close()
        return full, free, await async_quick_checkup()

    full, free, quick = run_in_loopback_netns(body)
    assert [(i.name, i.kind) for i in full.interfaces] == [("lo", Kind.LOOPBACK)]
    assert full.searched == ("127.0.0.1",) and full.echoes == () and full.tables == ()
    assert full.ports == (PortCheck("127.0.0.1", False, True),)
    assert problems(full) == [Problem.NO_NETWORK, Problem.NO_TABLE, Problem.PORT_BUSY]
    assert free.ports == (PortCheck("127.0.0.1", True, True),)
    assert likely(quick).problem is Problem.NO_NETWORK and quick.tables is None
