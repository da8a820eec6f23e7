"""The host leaves on purpose (issue 19), with the real product on a virtual LAN.

Three laptops (network namespaces on a bridge, mDNS on): Ann hosts and plays on the
board (a real 80x24 tmux terminal), Bob plays on the board of `sorry-lan join`, and
Cy is a `sorry-lan bot` process; a short turn timer keeps the people's turns moving
(a bot plays each one they let pass).  Then Ann presses q:

- Enter (hand the table over): Bob's laptop, the first in the order, hosts at once,
  Cy follows, Ann's seat is kept and then played by a bot, and `sorry-lan join` on
  Ann's laptop finds the table by its id on the LAN and takes Ann's seat back; Bob
  then presses q and Enter too, and the table goes on to the next laptop; the game
  finishes.

Ending the game for everyone instead (e), and a headless host told to stop (SIGINT),
need no LAN: tests/tui/test_leave_hand_over.py, tests/cli/test_leaving.py and
tests/authority/test_handover.py.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from lanlaptops import (
    MARKS,
    STEP,
    bot,
    check_game,
    finished,
    joined,
    lan_fixture,
    line,
    moves_of,
    sorry_lan,
    wait_moves,
)
from netns import Agent, Machine, VirtualLan
from topology import NsScreen

from sorry_lan.net.journal import load

pytestmark = [*MARKS, pytest.mark.timeout(240)]  # a whole game, on a loaded machine

lan = lan_fixture(3)

TIMER = "0.3"  # the people's turn timer (seconds): a bot plays a turn let pass
GRACE = "3"  # a dropped seat's grace before a bot covers it


class Screen:
    """A `sorry-lan` command on a real terminal (tmux) inside laptop ``m``; the pane
    stays after the command exits, with its last words and its exit status."""

    def __init__(self, m: Machine, *args: str) -> None:
        command = shlex.join([sys.executable, "-m", "sorry_lan", *args])
        self.screen = NsScreen(m.namespace, f"{command}; echo EXIT=$?; sleep 600", {})

    def wait_for(self, cond: Callable[[str], bool], timeout: float = STEP) -> str:
        return self.screen.wait_for(cond, timeout)

    def keys(self, *keys: str) -> None:
        self.screen.keys(*keys)

    def text(self) -> str:
        return self.screen.text()

    def close(self) -> None:
        self.screen.close()


def journals(data: Path) -> list[list[dict[str, object]]]:
    return [load(path) for path in sorted(data.rglob("*.journal"))]


def takeovers(data: Path) -> list[int]:
    """The epochs of the journals under ``data`` that begin with a takeover."""
    out = []
    for records in journals(data):
        take = next((r for r in records if r.get("k") == "takeover"), None)
        if take is not None:
            out.append(int(str(take["epoch"])))
    return sorted(out)


def table(vlan: VirtualLan, tmp: Path, game: str) -> tuple[Screen, Screen, Agent]:
    """Ann hosting on her board, Bob on his, Cy's bot, a few moves into the game."""
    m0, m1, m2 = vlan.machines
    ann = Screen(m0, "host", "--name", "Ann", "--game-name", game, "--data-dir",
                 str(tmp / "ann"), "--takeover-delay", "3", "--grace", GRACE,
                 "--turn-timeout", TIMER, "--bot-delay", "0.1", "--port", "47474")  # fmt: skip
    ann.wait_for(lambda s: "Ann" in s and "sorry-lan join" in s)
    bob = Screen(m1, "join", "--address", f"{m0.address}:47474", "--name", "Bob",
                 "--data-dir", str(tmp / "bob"), "--standby-port", "47475")  # fmt: skip
    bob.wait_for(lambda s: "Bob" in s and "Ann" in s)
    cy = bot(vlan, m2, tmp, game, "Cy", "--standby-port", "47475")
    joined(cy)
    ann.wait_for(lambda s: "Cy" in s and "Bob" in s)
    ann.keys("s")  # Bob is not ready: the first s says so
    ann.wait_for(lambda s: "Press s again" in s)
    ann.keys("s")
    wait_moves([cy], 8, timeout=STEP * 2)
    return ann, bob, cy


def test_the_host_hands_over_rejoins_as_a_player_and_the_successor_hands_on(
    lan: VirtualLan, tmp_path: Path
) -> None:
    screens: list[Screen] = []
    try:
        ann, bob, cy = table(lan, tmp_path, "Leave")
        screens += [ann, bob]
        ann.keys("q")
        asked = ann.wait_for(lambda s: "Enter: hand it over" in s)
        assert "end the game" in asked
        before = len(moves_of(cy))
        ann.keys("Enter")
        # (the panel may wrap the line before its last word)
        bob.wait_for(lambda s: "hands the table to your laptop" in s
                     or "your laptop hosts the table" in s)
        said = ann.wait_for(lambda s: "EXIT=" in s)
        assert "EXIT=0" in said, said
        assert "You handed the table over" in said and "sorry-lan join" in said
        assert "the table moved to Bob's laptop" in said, said
        wait_moves([cy], before + 4, timeout=STEP * 2)
        assert takeovers(tmp_path / "bob") == [2]
        old = journals(tmp_path / "ann")
        assert [r.get("k") for r in old[0]][-1] == "moved"  # not finished: it goes on

        # Ann comes back as a player: her seat, found by the table's id on the LAN
        back = sorry_lan(lan, lan.machines[0], "Ann-again", "join", "--text", "--data-dir",
                         str(tmp_path / "ann"), "--standby-port", "47476")  # fmt: skip
        # (no --name: the seat store's; a game under way lets in only a seat's token)
        back.expect(line("Ann, you joined the table"), STEP * 2)

        # Bob's laptop hands the table on in turn (the next laptop in the order)
        bob.keys("q")
        bob.wait_for(lambda s: "Enter: hand it over" in s)
        bob.keys("Enter")
        moved = back.expect(lambda msg: "hosts the table now" in msg.get("line", ""), STEP)
        assert "your laptop" in moved["line"].lower() or "Cy" in moved["line"], moved
        said = bob.wait_for(lambda s: "EXIT=" in s)
        assert "EXIT=0" in said and "You handed the table over" in said, said
        assert finished(cy) in ("Red", "Blue", "Yellow", "Green")
        assert takeovers(tmp_path) == [2, 3]
        check_game([cy], [tmp_path])
        back.expect(line("The game is over: "), STEP)  # Ann saw it end
    finally:
        for screen in screens:
            screen.close()
        lan.close_agents()
