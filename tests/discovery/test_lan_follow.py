"""Everyone finds the new host (issue 19), with the real product on a virtual LAN.

A headless host and three ``sorry-lan bot`` laptops (``lanlaptops``), watched by a
spectator: a real ``sorry-lan join --spectate`` board in tmux on a laptop of its own.
The host is killed: the spectator, which never votes or hosts, walks the order too,
follows the laptop that takes over, and its board says who hosts now (the capture is
kept in the test's directory); it watches the game to its end.  Then the same with
multicast dropped on every laptop (nftables in each namespace): nobody can see an
advert, the bots and the spectator (line mode) were given the host's address, and
the takeover goes by the addresses the host listed.  And a player whose client speaks
protocol version 2 (``v2_player.py``: the wire library offering versions 1 and 2) at a
table of version-4 laptops: it keeps playing, is never chosen to host, and when the
table moves (the old host wakes from SIGSTOP, finds the newer epoch and steps down)
it is told in its own terms, a chat line naming the new host's address and ``bye``
``shutdown``, and rejoins there in its own seat.
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


def with_version_2(
    lan: VirtualLan, tmp: Path, game: str, vee_machine: Machine
) -> tuple[Agent, list[Agent], Agent, dict[str, object]]:
    """A headless host on the first laptop (port ``PORT``), bots on the next two and
    the version-2 player ``vee`` on `vee_machine`, all seated: the host, the bots, vee,
    and vee's welcome."""
    m0, m1, m2 = lan.machines[:3]
    h = takeover_host(lan, m0, tmp / "host", game, 3, "--port", str(PORT))
    bots = [bot(lan, m, tmp, game, f"b{i}") for i, m in enumerate((m1, m2), 1)]
    vee = lan.spawn(vee_machine, [sys.executable, str(REPO_ROOT / "tests/discovery/v2_player.py"),
                                  m0.address, str(PORT), "vee"], f"vee@{vee_machine.address}")
    for b in bots:
        joined(b)
    return h, bots, vee, vee.expect(lambda msg: msg.get("event") == "welcome", STEP)


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


def test_a_version_2_player_is_told_where_the_table_went_and_plays_on(
    lan: VirtualLan, tmp_path: Path
) -> None:
    try:
        h, bots, vee, welcome = with_version_2(lan, tmp_path, "Mixed", lan.machines[4])
        assert welcome["version"] == 2
        wait_moves(bots, 6)
        h.kill(signal.SIGSTOP)  # the host's laptop sleeps
        try:
            deadline = time.monotonic() + DELAY + 20
            while not successors(tmp_path) and time.monotonic() < deadline:
                time.sleep(0.2)
            hosts = successors(tmp_path)
            assert len(set(hosts)) == 1, hosts  # a bot laptop: never the version-2 player
            hosting = hosts[0]
        finally:
            h.kill(signal.SIGCONT)  # it wakes, finds its table moved and steps down
        told = vee.expect(lambda msg: msg.get("event") == "chat"
                          and "The table moved to" in str(msg.get("text")), 3 * DELAY + 30)
        print(f"successors {hosts}; the version-2 player was told: {told['text']}")
        host_machine = lan.machines[int(hosting[1:])]
        assert f"{hosting}'s laptop at {host_machine.address}:" in str(told["text"]), told
        vee.expect(lambda msg: msg.get("event") == "bye" and msg.get("reason") == "shutdown",
                   STEP)
        again = vee.expect(lambda msg: msg.get("event") == "welcome", STEP)
        assert again["version"] == 2 and again["pid"] == welcome["pid"]  # its own seat
        results = {finished(b) for b in bots}
        assert len(results) == 1
        vee.expect(lambda msg: msg.get("event") == "over", STEP)
        assert vee.wait(STEP) == 0, vee.stderr_text[-2000:]
        moves = [e for e in vee.seen if e.get("event") == "move"]
        assert any(float(str(e["t"])) > float(str(again["t"])) for e in moves)  # it plays on
        assert h.wait(STEP) == 0, h.stderr_text[-2000:]  # the old headless host exits
    finally:
        lan.close_agents()


def test_a_successor_found_only_by_its_advert(lan: VirtualLan, tmp_path: Path) -> None:
    """Each laptop gets a second address once the game is under way (its Wi-Fi roamed,
    say): the succession order lists only the first, which the spectator's laptop cannot
    reach (nftables drops it there).  The laptop that takes over advertises the table
    at epoch 2 on both; the spectator finds it by that advert alone."""
    m4 = lan.machines[4]
    laptops = lan.machines[1:4]
    moved = {m: m.address.rsplit(".", 1)[0] + f".{100 + i}" for i, m in enumerate(laptops)}
    try:
        h, bots = table(lan, tmp_path, "Roamed")
        wait_moves(bots, 4)
        for m, new in moved.items():
            subprocess.run(["ip", "-n", m.namespace, "addr", "add", f"{new}/24", "dev", "eth0"],
                           check=True, capture_output=True, timeout=15)
        drops = " ".join(f"ip daddr {m.address} drop;" for m in laptops)
        rules = ("table inet sorry_lan_roamed {\n"
                 f"  chain output {{ type filter hook output priority 0; {drops} }}\n}}\n")
        subprocess.run(["ip", "netns", "exec", m4.namespace, "nft", "-f", "-"], input=rules,
                       text=True, check=True, capture_output=True, timeout=15)
        sam = spectator(lan, m4, tmp_path)
        h.kill(signal.SIGKILL)
        lost = time.monotonic()
        said = sam.expect(lambda msg: HOSTS_NOW.search(msg.get("line", "")) is not None,
                          DELAY + 40)
        print(f"the spectator followed by the advert {time.monotonic() - lost:.1f} s after")
        (hosting,) = successors(tmp_path)
        assert f"{hosting}'s laptop hosts the table now" in said["line"]
        results = {finished(b) for b in bots}
        assert len(results) == 1, results
    finally:
        lan.close_agents()
        subprocess.run(["ip", "netns", "exec", m4.namespace, "nft", "delete", "table", "inet",
                        "sorry_lan_roamed"], capture_output=True, timeout=15, check=False)
        for m, new in moved.items():
            subprocess.run(["ip", "-n", m.namespace, "addr", "del", f"{new}/24", "dev", "eth0"],
                           capture_output=True, timeout=15, check=False)


def test_a_handover_takes_the_spectator_and_the_version_2_player_along(
    lan: VirtualLan, tmp_path: Path
) -> None:
    """The headless host is told to stop (SIGTERM): it hands the table to the first
    laptop; the spectator is told so and follows, the version-2 player gets the
    sentence naming the new host and rejoins there."""
    try:
        h, bots, vee, welcome = with_version_2(lan, tmp_path, "Handed", lan.machines[3])
        sam = spectator(lan, lan.machines[4], tmp_path)
        wait_moves(bots, 6)
        h.kill(signal.SIGTERM)
        handed = time.monotonic()
        told = sam.expect(lambda msg: "hands the table to" in msg.get("line", ""), STEP)
        said = sam.expect(lambda msg: HOSTS_NOW.search(msg.get("line", "")) is not None, STEP)
        print(f"the spectator follows {time.monotonic() - handed:.1f} s after the handover:"
              f" {told['line']} / {said['line']}")
        moved = vee.expect(lambda msg: msg.get("event") == "chat"
                           and "The table moved to" in str(msg.get("text")), STEP)
        again = vee.expect(lambda msg: msg.get("event") == "welcome", STEP)
        assert again["version"] == 2 and again["pid"] == welcome["pid"], moved
        (hosting,) = successors(tmp_path)
        assert f"{hosting}'s laptop" in said["line"] and f"{hosting}'s laptop" in told["line"]
        assert f"{hosting}'s laptop at " in str(moved["text"])
        results = {finished(b) for b in bots}
        assert len(results) == 1
        vee.expect(lambda msg: msg.get("event") == "over", STEP)
    finally:
        lan.close_agents()
