"""`sorry-lan doctor`: its report and its JSON from a checkup (pure), and the real command
in a loopback-only namespace (nothing leaves it)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from cli_proc import run_cli
from netns import netns_skip_reason, run_in_loopback_netns

from sorry_lan.commands.doctor import as_json, report
from sorry_lan.discovery.advert import FoundGame, Unjoinable
from sorry_lan.discovery.doctor import Checkup, PortCheck
from sorry_lan.discovery.echo import Echo
from sorry_lan.discovery.interfaces import Kind, NetInterface
from sorry_lan.i18n import set_language

ETH = NetInterface("eth0", "eth0", ("192.168.1.20", "fe80::1"), Kind.LAN)
TUN = NetInterface("tun0", "tun0", ("10.8.0.2",), Kind.VPN)
LO = NetInterface("lo", "lo", ("127.0.0.1",), Kind.LOOPBACK)
TABLE = FoundGame(
    "Fri._sorry-lan._tcp.local.", "Fri", "Fri", None, ("192.168.1.9",), 47474, Unjoinable.INVALID
)


def test_the_report_says_what_is_used_skipped_and_what_to_do() -> None:
    c = Checkup(
        "win32",
        False,
        47474,
        (ETH, LO, TUN),
        ("192.168.1.20",),
        (Echo("192.168.1.20", False),),
        (replace(TABLE, reason=Unjoinable.UNREACHABLE),),
        (PortCheck("192.168.1.20", True, True), PortCheck("127.0.0.1", False, True)),
    )
    text = report(c)
    lines = text.splitlines()
    assert lines[lines.index("  tun0: 10.8.0.2") + 1] == "      skipped: a VPN or tunnel"
    assert lines[lines.index("  eth0: 192.168.1.20, fe80::1") + 1].startswith("      used:")
    assert "  a query sent on 192.168.1.20 did not come back" in lines
    assert "  Fri: its port does not answer (192.168.1.9:47474)" in lines
    assert "  127.0.0.1: in use" in lines and "  192.168.1.20: free, and it answers" in lines
    todo = lines[lines.index("What to do:") + 1 :]
    assert len(todo) == 4 and all(t.startswith("  - ") for t in todo)
    assert "Windows Firewall" in todo[0] and "Private" in todo[0]
    data = as_json(c)
    assert [p["problem"] for p in data["problems"]] == [
        "echo-lost",
        "vpn",
        "table-unreachable",
        "port-busy",
    ]
    assert data["interfaces"][0] == {
        "name": "eth0",
        "label": "eth0",
        "addresses": ["192.168.1.20", "fe80::1"],
        "kind": "lan",
        "used": True,
    }
    assert json.loads(json.dumps(data)) == data


def test_the_report_in_another_language_keeps_addresses_and_commands() -> None:
    c = Checkup("linux", False, 47474, (LO,), ("127.0.0.1",), (), (), ())
    set_language("cy")
    try:
        text = report(c)
    finally:
        set_language("en")
    assert "Networks:" not in text and "127.0.0.1" in text
    assert "sorry-lan join --address HOST:PORT" in text


_skip = netns_skip_reason()


@pytest.mark.skipif(_skip is not None, reason=_skip or "")
def test_the_command_on_a_machine_with_nothing_but_loopback() -> None:
    async def body() -> tuple[int, str, int, str, tuple[int, str, str]]:
        status, out, _ = await run_cli("doctor", "--json", "--timeout", "0.3")
        words_status, words, _ = await run_cli("doctor", "--timeout", "0.3", "--lang", "el")
        listed = await run_cli("list", "--timeout", "0.3")
        return status, out, words_status, words, listed

    status, out, words_status, words, listed = run_in_loopback_netns(body)
    data = json.loads(out)
    assert status == 1 and words_status == 1
    assert [p["problem"] for p in data["problems"]] == ["no-network", "no-table"]
    assert data["interfaces"] == [
        {
            "name": "lo",
            "label": "lo",
            "addresses": ["127.0.0.1", "::1"],
            "kind": "loopback",
            "used": False,
        }
    ]
    assert data["echoes"] == [] and data["tables"] == []
    assert "127.0.0.1" in words and "Networks:" not in words
    # `list` finding nothing says why first, then the address fallback
    said = " ".join(listed[1].split())
    assert listed[0] == 1 and "Most likely: This machine is on no network but itself" in said
    assert "sorry-lan join --address HOST:PORT" in said
