"""When no table shows up, the doctor and the find screen say why: on small networks of
namespaces shaped like the laptops that lose tables (see `topology.Topology`).

Each test builds its own machines and LAN segments, runs the real `sorry-lan host`,
`doctor`, `list` and `join` (the find screen, on an 80x24 tmux inside the machine) and
checks what each says: mDNS dropped by a firewall beside a host with a `tun` (and a
docker bridge) and a machine on nothing else; two LAN segments with the host on both
beside an IPv6-only LAN.  Every namespace is deleted afterwards.  A machine with
nothing but loopback needs no LAN: tests/discovery/test_doctor_command.py and
tests/tui/test_find_ux.py.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from netns import Agent, netns_skip_reason
from topology import Topology, firewall_tool

from sorry_lan.net.journal import DATA_DIR_ENV

_skip = netns_skip_reason()
pytestmark = [
    pytest.mark.netns,
    pytest.mark.lan,
    pytest.mark.skipif(_skip is not None, reason=_skip or ""),
    pytest.mark.timeout(120),
]

STEP = 15.0


@pytest.fixture
def topo() -> Iterator[Topology]:
    with Topology() as t:
        yield t


def flat(text: str) -> str:
    """Screen or output text with every run of spaces and line breaks made one space."""
    return " ".join(text.split())


def doctor(
    topo: Topology, machine: str, tmp: Path, *extra: str, wait: float = 1.5
) -> tuple[int, dict[str, Any]]:
    """The doctor's JSON report; `wait` longer where a table must be found under load."""
    done = topo.run(machine, "doctor", "--json", "--timeout", str(wait), *extra, env=env(tmp))
    return done.returncode, json.loads(done.stdout)


def env(tmp: Path) -> dict[str, str]:
    return {DATA_DIR_ENV: str(tmp)}


def problems(report: dict[str, Any]) -> list[tuple[str, list[str]]]:
    return [(p["problem"], p["about"]) for p in report["problems"]]


def host(topo: Topology, machine: str, tmp: Path, game: str, *extra: str) -> tuple[Agent, str]:
    """A headless table on `machine`; returns it and its "advertised on the LAN" line."""
    argv = ["host", "--headless", "--port", "0", "--data-dir", str(tmp / game), "--name", "Ann"]
    agent = topo.sorry_lan(machine, f"host@{machine}", *argv, "--game-name", game, *extra)
    line = agent.expect(lambda m: m.get("line", "").startswith("advertised"), STEP)["line"]
    return agent, str(line)


def find_screen(topo: Topology, machine: str, tmp: Path, *extra: str) -> str:
    """The find screen of `sorry-lan join` once it says the likeliest reason."""
    args = " ".join(extra)
    command = f"{sys.executable} -m sorry_lan join --name Tess {args}"
    screen = topo.screen(machine, command, env(tmp))
    text = screen.wait_for(lambda t: "Most likely" in t, 25)
    assert all(len(line) <= 80 for line in text.splitlines())
    return flat(text)


@pytest.mark.skipif(firewall_tool() is None, reason="neither nft nor iptables is installed")
def test_mdns_dropped_by_a_firewall_and_a_vpn_and_docker_beside_the_lan(
    topo: Topology, tmp_path: Path
) -> None:
    """A player whose firewall drops mDNS; the host's machine has a `tun` (a VPN) and a
    docker bridge beside its LAN; a third machine is on nothing but a VPN and docker."""
    n = topo.net
    lan = topo.segment("lan")
    h, p, v = topo.machine("host"), topo.machine("player"), topo.machine("vpnonly")
    topo.cable(h, lan, "eth0", f"10.{n}.1.11")
    topo.tun(h, f"10.{n}.8.2")
    topo.docker(h, f"172.{n % 16 + 16}.0.1")
    topo.cable(p, lan, "eth0", f"10.{n}.1.12")
    topo.drop_mdns(p)
    topo.tun(v, f"10.{n}.8.3")
    topo.docker(v, f"172.{n % 16 + 16}.0.1")
    table, advertised = host(topo, h, tmp_path, "Blocked")
    assert advertised == f"advertised on the LAN as 'Blocked' (10.{n}.1.11)"  # not tun0, docker0
    said = [m["line"] for m in table.seen if m.get("event") == "raw"]
    assert (
        "not advertised on tun0, docker0 (VPNs and virtual networks; --all-interfaces adds them)"
        in said
    )

    status, report = doctor(topo, p, tmp_path)
    assert status == 1
    assert report["echoes"] == [{"address": f"10.{n}.1.12", "came_back": False, "error": None}]
    assert report["tables"] == []  # the host answers, but the answers are dropped
    assert problems(report) == [("echo-lost", [f"10.{n}.1.12"]), ("no-table", [])]
    assert "5353" in report["problems"][0]["advice"]

    listed = topo.run(p, "list", "--timeout", "1", env=env(tmp_path))
    out = flat(listed.stdout)
    assert listed.returncode == 1
    assert f"Most likely: Our own mDNS query did not come back on 10.{n}.1.12." in out
    assert "sorry-lan join --address HOST:PORT" in out

    screen = find_screen(topo, p, tmp_path)
    assert f"Most likely: Our own mDNS query did not come back on 10.{n}.1.12." in screen
    assert "firewall" in screen and "sorry-lan join --address HOST:PORT" in screen

    # The host's own machine: its echo comes back on eth0 alone and it finds its own
    # table, advertised on the LAN's address only; the doctor names the VPN.
    listed = topo.run(h, "list", "--json", "--timeout", "1.5", env=env(tmp_path))
    games = json.loads(listed.stdout)
    assert [(g["name"], g["addresses"], g["joinable"]) for g in games] == [
        ("Blocked", [f"10.{n}.1.11"], True)
    ]
    status, mine = doctor(topo, h, tmp_path)
    kinds = {i["name"]: (i["kind"], i["used"]) for i in mine["interfaces"]}
    assert kinds == {
        "eth0": ("lan", True),
        "lo": ("loopback", False),
        "tun0": ("vpn", False),
        "docker0": ("virtual", False),
    }
    assert mine["searched"] == [f"10.{n}.1.11"]
    assert [e["address"] for e in mine["echoes"]] == [f"10.{n}.1.11"]
    assert mine["echoes"][0]["came_back"] and [t["name"] for t in mine["tables"]] == ["Blocked"]
    assert problems(mine) == [("vpn", ["tun0"])]
    assert status == 1
    # The board's lobby says what it left out, and the address the LAN joins by.
    lobby = topo.screen(h, f"{sys.executable} -m sorry_lan host --name Cy --port 47474",
                        env(tmp_path / "lobby"))  # fmt: skip
    text = flat(lobby.wait_for(lambda t: "eth0:" in t))
    assert f"eth0: sorry-lan join --address 10.{n}.1.11:47474" in text
    assert "not advertised on tun0, docker0" in text and f"10.{n}.8.2" not in text
    words = flat(topo.run(h, "doctor", "--timeout", "1", env=env(tmp_path)).stdout)
    assert "tun0: 10." in words and "skipped: a VPN or tunnel" in words
    assert "docker0: 172." in words and "skipped: a virtual network" in words

    # A machine on nothing but the VPN and docker: the find screen and list say so.
    status, alone = doctor(topo, v, tmp_path)
    assert problems(alone)[0] == ("only-skipped", ["tun0", "docker0"])
    screen = find_screen(topo, v, tmp_path)
    assert "Most likely: Only a VPN or a virtual network connects this machine" in screen
    assert "(tun0, docker0)" in screen and "sorry-lan join --address HOST:PORT" in screen


def test_two_lan_segments_with_the_host_on_both_and_an_ipv6_only_lan(
    topo: Topology, tmp_path: Path
) -> None:
    """A host on a wired and a Wi-Fi segment, a player on each; and apart, a LAN with
    IPv6 addresses only, a host and a player on it."""
    n = topo.net
    wired, wifi = topo.segment("wired"), topo.segment("wifi")
    h, a, b = topo.machine("host"), topo.machine("pa"), topo.machine("pb")
    topo.cable(h, wired, "eth0", f"10.{n}.1.11")
    topo.cable(h, wifi, "eth1", f"10.{n}.2.11")
    topo.cable(a, wired, "eth0", f"10.{n}.1.12")
    topo.cable(b, wifi, "eth0", f"10.{n}.2.12")
    six = topo.segment("six")
    h6, p6 = topo.machine("host6"), topo.machine("player6")
    topo.cable(h6, six, "eth0", None, f"fd77:{n}::11")
    topo.cable(p6, six, "eth0", None, f"fd77:{n}::12")

    _table, advertised = host(topo, h, tmp_path, "Both")
    assert advertised == f"advertised on the LAN as 'Both' (10.{n}.1.11, 10.{n}.2.11)"
    for player, address in ((a, f"10.{n}.1.11"), (b, f"10.{n}.2.11")):
        listed = topo.run(player, "list", "--json", "--timeout", "1.5", env=env(tmp_path))
        games = json.loads(listed.stdout)
        assert [(g["name"], g["address"]) for g in games] == [("Both", address)], player

    status, report = doctor(topo, h, tmp_path, wait=4.0)
    assert [e["came_back"] for e in report["echoes"]] == [True, True]
    assert problems(report) == [("several-networks", ["eth0", "eth1"])]
    assert status == 1

    # The host's own lobby lists the address each network joins by.
    lobby = topo.screen(h, f"{sys.executable} -m sorry_lan host --name Cy --port 47474",
                        env(tmp_path / "lobby"))  # fmt: skip
    text = lobby.wait_for(lambda t: "eth1:" in t)
    lines = [line.strip() for line in text.splitlines()]
    assert f"eth0: sorry-lan join --address 10.{n}.1.11:47474" in lines
    assert f"eth1: sorry-lan join --address 10.{n}.2.11:47474" in lines

    # A player on one segment finds the table at the address of its own network.
    screen = topo.screen(b, f"{sys.executable} -m sorry_lan join --name Tess", env(tmp_path))
    found = screen.wait_for(lambda t: "Both" in t and "10." in t)
    assert f"10.{n}.2.11:" in found and f"10.{n}.1.11:" not in found

    # The IPv6-only LAN: the doctor, list and the find screen say what to do.
    status, report = doctor(topo, p6, tmp_path)
    assert problems(report)[0] == ("ipv6-only", ["eth0"])
    assert "--ipv6" in report["problems"][0]["advice"]
    listed = topo.run(p6, "list", "--timeout", "1", env=env(tmp_path))
    assert "Most likely: This network has IPv6 addresses only (eth0)" in flat(listed.stdout)
    screen6 = find_screen(topo, p6, tmp_path)
    assert "Most likely: This network has IPv6 addresses only (eth0)" in screen6
    assert "sorry-lan join --ipv6" in screen6

    # With --ipv6, as the doctor says: the table is advertised and found over IPv6.
    _table, advertised = host(topo, h6, tmp_path, "Six", "--ipv6")
    assert advertised == f"advertised on the LAN as 'Six' (fd77:{n}::11)"
    status, report = doctor(topo, p6, tmp_path, "--ipv6", wait=4.0)
    assert report["echoes"] == [{"address": f"fd77:{n}::12", "came_back": True, "error": None}]
    assert [(t["name"], t["address"]) for t in report["tables"]] == [("Six", f"fd77:{n}::11")]
    assert problems(report) == [] and status == 0
    listed = topo.run(p6, "list", "--ipv6", "--json", "--timeout", "1.5", env=env(tmp_path))
    assert [g["address"] for g in json.loads(listed.stdout)] == [f"fd77:{n}::11"]


@pytest.mark.skipif(firewall_tool() is None, reason="neither nft nor iptables is installed")
def test_only_incoming_multicast_dropped_the_doctor_and_list_find_the_same_table(
    topo: Topology, tmp_path: Path
) -> None:
    """A player whose firewall drops mDNS sent to the multicast group only: the host's
    answers to this machine's own address come in, so `list` finds the table, and the
    doctor names it too; the lost echo is advice for hosting here, not "no table"."""
    n = topo.net
    lan = topo.segment("lan")
    h, p = topo.machine("host"), topo.machine("player")
    topo.cable(h, lan, "eth0", f"10.{n}.1.11")
    topo.cable(p, lan, "eth0", f"10.{n}.1.12")
    topo.drop_mdns(p, multicast_only=True)
    host(topo, h, tmp_path, "Unicast")
    listed = topo.run(p, "list", "--json", "--timeout", "1.5", env=env(tmp_path))
    assert listed.returncode == 0
    assert [g["name"] for g in json.loads(listed.stdout)] == ["Unicast"]
    status, report = doctor(topo, p, tmp_path, wait=2)
    assert report["echoes"] == [{"address": f"10.{n}.1.12", "came_back": False, "error": None}]
    assert [(t["name"], t["address"]) for t in report["tables"]] == [
        ("Unicast", f"10.{n}.1.11")]
    assert problems(report) == [("multicast-in-lost", [f"10.{n}.1.12"])]
    advice = report["problems"][0]["advice"]
    assert "joining works" in advice and "5353" in advice and "No table" not in advice
    assert status == 1  # (a table hosted on this machine would not be found)
    words = flat(topo.run(p, "doctor", "--timeout", "2", env=env(tmp_path)).stdout)
    assert "Tables that answered: Unicast" in words and "No table answered" not in words
