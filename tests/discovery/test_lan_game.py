"""The real product on a virtual LAN: `sorry-lan host` on one machine, `sorry-lan bot`s
on others that are never told an address, and a watching browser.

Each machine is its own network namespace with its own address on a bridge
(see `netns.VirtualLan`); every program is a separate process.  The players
find the host by multicast DNS, join, and play a whole game; the game then
leaves the list.  Also: two hosts with the same game name are both listed, and
a host killed with SIGKILL is never offered as joinable (one evening of its own).
"""

from __future__ import annotations

import json
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from lanlaptops import host, lan_fixture, line, sorry_lan
from netns import Agent, Machine, VirtualLan, netns_skip_reason

_skip = netns_skip_reason()
pytestmark = [
    pytest.mark.netns,
    pytest.mark.lan,
    pytest.mark.skipif(_skip is not None, reason=_skip or ""),
]

AGENT = "tests/discovery/lan_agent.py"
STEP = 10.0  # per-step deadline; steps take a second or two


lan = lan_fixture(4)


def browser(lan: VirtualLan, m: Machine, *extra: str) -> Agent:
    argv = [sys.executable, AGENT, "browse", "--bind", m.address, *extra]
    agent = lan.spawn(m, argv, f"browser@{m.address}")
    agent.expect(lambda msg: msg["event"] == "browsing", STEP)
    return agent


def about(event: str, game: str) -> Callable[[dict[str, Any]], bool]:
    return lambda msg: msg["event"] == event and msg["game"]["name"] == game


def instance(event: str, name: str) -> Callable[[dict[str, Any]], bool]:
    return lambda msg: msg["event"] == event and msg["game"]["instance"] == name


def test_bots_find_the_host_play_a_game_and_see_it_leave(lan: VirtualLan, tmp_path: Path) -> None:
    m0, m1, m2, m3 = lan.machines
    try:
        watcher = browser(lan, m3, "--reverify", "0")  # only goodbyes remove a game
        h = host(lan, m0, tmp_path, "LAN party", "--name", "Ann", "--players", "3", "--bots", "1")
        # The players start with the host, before it is advertised: they wait for it.
        bots = [
            sorry_lan(lan, m1, "bot1", "bot", "--name", "b1", "--timeout", "15"),
            sorry_lan(lan, m2, "bot2", "bot", "--name", "b2", "--game", "lan party"),
        ]
        port = int(h.expect(line("listening on"), STEP)["line"].rsplit(":", 1)[1])
        assert h.expect(line("advertised"), STEP)["line"] == (
            f"advertised on the LAN as 'LAN party' ({m0.address})"
        )
        seen = watcher.expect(about("added", "LAN party"), STEP)["game"]
        assert (seen["host_player"], seen["variant"], seen["seats_total"]) == ("Ann", "standard", 3)
        assert (seen["address"], seen["port"]) == (m0.address, port)
        for b in bots:
            assert b.expect(line("joined"), STEP)["line"] == (
                f"joined 'LAN party' at {m0.address}:{port}"
            )
        over = h.expect(line("game over: "), 30)["line"].removeprefix("game over: ")
        assert over.endswith(" won."), over  # a sentence: "Red (greedy bot 1) won."
        assert h.wait(STEP) == 0
        for b in bots:
            assert b.expect(line(over), STEP)["line"] == over
            assert b.wait(STEP) == 0
        watcher.expect(about("removed", "LAN party"), STEP)
        # The watcher saw the seats fill up (bots' joins) before the game went away.
        taken = [
            m["game"]["seats_taken"]
            for m in watcher.seen
            if m["event"] in ("added", "updated") and m["game"]["name"] == "LAN party"
        ]
        assert taken[0] == 1 and max(taken) >= 2
    finally:
        lan.close_agents()


def test_two_hosts_of_one_name_are_both_listed_and_a_sigkilled_one_is_never_joinable(
    lan: VirtualLan, tmp_path: Path
) -> None:
    """Two hosts on two laptops give their game the same name: the second is renamed and
    both are listed.  Then the first is SIGKILLed (no goodbye): a watcher that probes
    the games it knows drops it, a search still knows it from the cache but never as
    joinable, and a bot looking for it gives up and explains the --address fallback."""
    m0, m1, m2, m3 = lan.machines
    try:
        watcher = browser(lan, m3, "--reverify", "0.5")
        first = host(lan, m0, tmp_path, "Clash", "--name", "Ann")
        assert first.expect(line("advertised"), STEP)["line"].startswith(
            "advertised on the LAN as 'Clash' "
        )
        second = host(lan, m1, tmp_path, "Clash", "--name", "Bob")
        assert second.expect(line("advertised"), STEP)["line"].startswith(
            "advertised on the LAN as 'Clash-2' "
        )
        lister = sorry_lan(lan, m2, "list", "list", "--json", "--timeout", "1")
        games = json.loads(lister.expect(line("["), STEP)["line"])
        assert lister.wait(STEP) == 0
        assert sorted(
            (g["instance"], g["name"], g["host_player"], g["address"], g["joinable"]) for g in games
        ) == [
            ("Clash", "Clash", "Ann", m0.address, True),
            ("Clash-2", "Clash", "Bob", m1.address, True),
        ]
        assert watcher.expect(instance("added", "Clash"), STEP)["game"]["joinable"]
        second.kill(signal.SIGTERM)  # a clean exit: Clash is left alone on the LAN
        assert second.wait(STEP) == 0
        watcher.expect(instance("removed", "Clash-2"), STEP)
        first.kill(signal.SIGKILL)  # no goodbye: the records stay in the watcher's cache
        assert first.wait(STEP) == -signal.SIGKILL
        watcher.expect(instance("removed", "Clash"), STEP)
        watcher.send("find 0.3")
        games = watcher.expect(lambda msg: msg["event"] == "found", STEP)["games"]
        assert [(g["name"], g["joinable"], g["reason"]) for g in games] == [
            ("Clash", False, "unreachable")
        ]
        # A bot looking for it gives up and explains the --address fallback.
        b = sorry_lan(lan, m2, "bot", "bot", "--game", "Clash", "--timeout", "1")
        assert b.wait(STEP) == 1
        b.stop()
        assert "no joinable game called 'Clash' found" in b.stderr_text
        assert "sorry-lan bot --address HOST:PORT" in b.stderr_text
    finally:
        lan.close_agents()
