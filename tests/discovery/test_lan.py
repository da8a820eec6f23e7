"""Discovery across a virtual LAN: separate processes in bridged network namespaces.

Machines m0 and m1 act as hosts (a TCP listener standing in for the game
host), m2 and m3 as players; each is its own process with its own address
on a bridge that lives in yet another namespace.  Players are never told an
address: they must find the hosts through multicast DNS.
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from netns import Agent, Machine, VirtualLan, netns_skip_reason

_skip = netns_skip_reason()
pytestmark = [
    pytest.mark.netns,
    pytest.mark.lan,
    pytest.mark.xdist_group("lan_of_four"),  # one LAN for the module
    pytest.mark.skipif(_skip is not None, reason=_skip or ""),
]

AGENT = "tests/discovery/lan_agent.py"
STEP = 10.0  # generous per-step deadline; steps take well under a second


@pytest.fixture(scope="module")
def lan() -> Iterator[VirtualLan]:
    with VirtualLan(4) as lan:
        yield lan


def host(lan: VirtualLan, m: Machine, game: str, *extra: str) -> Agent:
    return lan.spawn(
        m,
        [sys.executable, AGENT, "advertise", "--bind", m.address, "--game", game, *extra],
        f"host@{m.address}",
    )


def player(lan: VirtualLan, m: Machine, *extra: str) -> Agent:
    agent = lan.spawn(
        m, [sys.executable, AGENT, "browse", "--bind", m.address, *extra], f"player@{m.address}"
    )
    agent.expect(lambda msg: msg["event"] == "browsing", STEP)
    return agent


def about(event: str, game: str) -> Any:
    return lambda msg: msg["event"] == event and msg["game"]["name"] == game


def test_players_find_the_host_follow_updates_and_see_it_leave(lan: VirtualLan) -> None:
    m0, _, m2, m3 = lan.machines
    try:
        players = [player(lan, m2), player(lan, m3)]
        h = host(lan, m0, "Lan party", "--host-player", "Ann")
        port = h.expect(lambda msg: msg["event"] == "ready", STEP)["port"]
        for p in players:
            g = p.expect(about("added", "Lan party"), STEP)["game"]
            assert (g["address"], g["port"], g["addresses"]) == (m0.address, port, [m0.address])
            assert g["joinable"] and g["host_player"] == "Ann" and g["seats_taken"] == 1
        h.send("seats 4")
        for p in players:
            g = p.expect(about("updated", "Lan party"), STEP)["game"]
            assert (g["seats_taken"], g["joinable"], g["reason"]) == (4, False, "full")
        h.kill(signal.SIGTERM)  # a clean exit: goodbye packets
        h.expect(lambda msg: msg["event"] == "closed", STEP)
        assert h.wait(STEP) == 0
        for p in players:
            p.expect(about("removed", "Lan party"), STEP)
    finally:
        lan.close_agents()


def test_two_hosts_with_the_same_game_name_are_both_listed(lan: VirtualLan) -> None:
    m0, m1, m2, _ = lan.machines
    try:
        first = host(lan, m0, "Clash", "--probe", "--host-player", "Ann")
        assert first.expect(lambda msg: msg["event"] == "ready", STEP)["instance"] == "Clash"
        second = host(lan, m1, "Clash", "--probe", "--host-player", "Bob")
        assert second.expect(lambda msg: msg["event"] == "ready", STEP)["instance"] == "Clash-2"
        p = player(lan, m2)
        seen = {}
        for _ in range(2):
            g = p.expect(about("added", "Clash"), STEP)["game"]
            seen[g["instance"]] = (g["host_player"], g["address"], g["joinable"])
        assert seen == {
            "Clash": ("Ann", m0.address, True),
            "Clash-2": ("Bob", m1.address, True),
        }
    finally:
        lan.close_agents()


def test_a_sigkilled_host_is_not_offered_as_joinable(lan: VirtualLan) -> None:
    m0, _, m2, _ = lan.machines
    try:
        p = player(lan, m2, "--reverify", "0.5")
        h = host(lan, m0, "Doomed")
        h.expect(lambda msg: msg["event"] == "ready", STEP)
        assert p.expect(about("added", "Doomed"), STEP)["game"]["joinable"]
        h.kill(signal.SIGKILL)  # no goodbye: the records stay in the player's cache
        assert h.wait(STEP) == -signal.SIGKILL
        p.expect(about("removed", "Doomed"), STEP)
        p.send("find 0.5")
        games = p.expect(lambda msg: msg["event"] == "found", STEP)["games"]
        # Still known from the cache, but flagged, never joinable.
        assert [(g["name"], g["joinable"], g["reason"]) for g in games] == [
            ("Doomed", False, "unreachable")
        ]
    finally:
        lan.close_agents()


def test_ipv6_only_host_is_found_over_ipv6(lan: VirtualLan) -> None:
    m0, _, _, m3 = lan.machines
    try:
        p = player(lan, m3, "--ipv6")
        h = lan.spawn(
            m0,
            [sys.executable, AGENT, "advertise", "--ipv6", "--bind", m0.address6, "--game", "Six"],
            "host6",
        )
        port = h.expect(lambda msg: msg["event"] == "ready", STEP)["port"]
        g = p.expect(about("added", "Six"), STEP)["game"]
        assert (g["addresses"], g["address"], g["port"], g["joinable"]) == (
            [m0.address6],
            m0.address6,
            port,
            True,
        )
    finally:
        lan.close_agents()
