"""Everyone finds the new host (issue 19), with the real product on a virtual LAN.

A headless host and three ``sorry-lan bot`` laptops (``lanlaptops``), watched by a
spectator: a real ``sorry-lan join --spectate`` board in tmux on a laptop of its own.
The host is killed: the spectator, which never votes or hosts, walks the order too,
follows the laptop that takes over, and its board says who hosts now (the capture is
kept in the test's directory); it watches the game to its end.  Then the same with
multicast dropped on every laptop (nftables in each namespace): nobody can see an
advert, the bots and the spectator (line mode) were given the host's address, and
the takeover goes by the addresses the host listed.

What else a follower does, on the pair's fake clock: a successor found by its advert
alone, a handover followed (tests/succession/test_spectator_follows.py); a player on
protocol version 2 told where the table went in its own terms
(tests/authority/test_handover.py) and back in its own seat
(tests/authority/test_takeover.py).
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from lanlaptops import (
    DELAY,
    MARKS,
    STEP,
    bot,
    check_game,
    counts,
    finished,
    joined,
    lan_fixture,
    moved_on,
    successors,
    takeover_host,
    wait_moves,
)
from netns import REPO_ROOT, Agent, Machine, VirtualLan
from topology import NsScreen, firewall_tool

pytestmark = [*MARKS, pytest.mark.timeout(240)]

PORT = 47474
lan = lan_fixture(5)
HOSTS_NOW = re.compile(r"(\S+)'s laptop hosts")  # (the board's panel may wrap the rest)


def player_env(tmp: Path) -> dict[str, str]:
    return {"SORRY_LAN_DATA_DIR": str(tmp), "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}


def table(
    lan: VirtualLan, tmp: Path, game: str, by_address: bool = False
) -> tuple[Agent, list[Agent]]:
    """A headless host on the first laptop (port ``PORT``) and three bots on the next,
    playing; they find it by its name (mDNS) or, ``by_address``, are told its address."""
    m0, m1, m2, m3 = lan.machines[:4]
    h = takeover_host(lan, m0, tmp / "host", game, 3, "--port", str(PORT))
    where = ["--address", f"{m0.address}:{PORT}"] if by_address else []
    bots = [bot(lan, m, tmp, game, f"b{i}", *where) for i, m in enumerate((m1, m2, m3), 1)]
    if not by_address:  # (a bot told the address says nothing until the game begins)
        for b in bots:
            joined(b)
    return h, bots


def spectator(lan: VirtualLan, m: Machine, tmp: Path) -> Agent:
    """`sorry-lan join --spectate --text` on `m`, told the first laptop's address, once
    it says it watches."""
    sam = lan.spawn(m, [sys.executable, "-m", "sorry_lan", "join", "--spectate", "--text",
                        "--name", "sam", "--address", f"{lan.machines[0].address}:{PORT}",
                        "--data-dir", str(tmp / "sam")], f"sam@{m.address}")
    sam.expect(lambda msg: "You are watching" in msg.get("line", ""), STEP)
    return sam


def test_a_spectator_s_board_follows_the_table_to_its_new_host(
    lan: VirtualLan, tmp_path: Path
) -> None:
    try:
        h, bots = table(lan, tmp_path, "Watched")
        m0, m4 = lan.machines[0], lan.machines[4]
        command = (f"{sys.executable} -m sorry_lan join --spectate --ascii --name sam "
                   f"--address {m0.address}:{PORT}")
        screen = NsScreen(m4.namespace, command, player_env(tmp_path / "sam"))
        try:
            screen.wait_for(lambda t: "Red" in t or "red" in t, STEP)
            wait_moves(bots, 6)
            before = screen.text()
            h.kill(signal.SIGKILL)
            lost = time.monotonic()
            after = screen.wait_for(lambda t: HOSTS_NOW.search(t) is not None, DELAY + 25)
            took = time.monotonic() - lost
            (tmp_path / "spectator-before.txt").write_text(before)
            (tmp_path / "spectator-after.txt").write_text(after)
            print(f"spectator's board {took:.1f} s after the host died:\n{after}")
            (hosting,) = successors(tmp_path)
            found = HOSTS_NOW.search(after)
            assert found is not None and found.group(1) == hosting, after
            results = {finished(b) for b in bots}
            assert len(results) == 1, results
            (winner,) = results
            end = screen.wait_for(lambda t: "Game over" in t, STEP)
            (tmp_path / "spectator-end.txt").write_text(end)
            assert winner in end, end
            check_game(bots, [tmp_path])
        finally:
            screen.close()
    finally:
        lan.close_agents()


def _drop_multicast(machines: list[Machine]) -> None:
    rules = ("table inet sorry_lan_follow {\n"
             "  chain input { type filter hook input priority 0; udp dport 5353 drop; }\n"
             "  chain output { type filter hook output priority 0; udp dport 5353 drop; }\n"
             "}\n")
    for m in machines:
        subprocess.run(["ip", "netns", "exec", m.namespace, "nft", "-f", "-"], input=rules,
                       text=True, check=True, capture_output=True, timeout=15)


def _allow_multicast(machines: list[Machine]) -> None:
    for m in machines:
        subprocess.run(["ip", "netns", "exec", m.namespace, "nft", "delete", "table", "inet",
                        "sorry_lan_follow"], capture_output=True, timeout=15, check=False)


@pytest.mark.skipif(firewall_tool() != "nft", reason="nft is not installed")
def test_with_multicast_dropped_the_listed_addresses_find_the_new_host(
    lan: VirtualLan, tmp_path: Path
) -> None:
    _drop_multicast(lan.machines)
    try:
        m4 = lan.machines[4]
        h, bots = table(lan, tmp_path, "Quiet", by_address=True)
        listed = subprocess.run(
            ["ip", "netns", "exec", m4.namespace, sys.executable, "-m", "sorry_lan", "list",
             "--timeout", "2"], capture_output=True, text=True, timeout=30, cwd=REPO_ROOT,
            env={"PYTHONPATH": str(REPO_ROOT), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"},
        )
        assert "Quiet" not in listed.stdout, listed.stdout  # no advert gets through
        sam = spectator(lan, m4, tmp_path)
        wait_moves(bots, 6)
        h.kill(signal.SIGKILL)
        lost = time.monotonic()
        moved_on(bots, counts(bots), timeout=DELAY + 20)  # each one move more: the new host's
        print(f"next move {time.monotonic() - lost:.1f} s after the host died")
        results = {finished(b) for b in bots}
        assert len(results) == 1, results
        (hosting,) = successors(tmp_path)
        said = sam.expect(lambda msg: HOSTS_NOW.search(msg.get("line", "")) is not None, STEP)
        assert f"{hosting}'s laptop hosts the table now" in said["line"]
        check_game(bots, [tmp_path])
    finally:
        lan.close_agents()
        _allow_multicast(lan.machines)
