"""The host leaves on purpose (issue 19), with the real product on a virtual LAN.

Three laptops (network namespaces on a bridge, mDNS on): Ann hosts and plays on the
board (a real 80x24 tmux terminal), Bob plays on the board of `sorry-lan join`, and
Cy is a `sorry-lan bot` process; a short turn timer keeps the people's turns moving
(a bot plays each one they let pass).  Then Ann presses q:

- Enter (hand the table over): Bob's laptop, the first in the order, hosts at once,
  Cy follows, Ann's seat is kept and then played by a bot, and `sorry-lan join` on
  Ann's laptop finds the table by its id on the LAN and takes Ann's seat back; Bob
  then presses q and Enter too, and the table goes on to the next laptop; the game
  finishes;
- e (end the game for everyone): Bob's board and Cy say the host ended the game, and
  Ann's journal is marked finished.

And a headless host told to stop (SIGINT, as Ctrl-C) hands its table to the first
bot's laptop and says so; the bots finish the game there.
"""

from __future__ import annotations

import shlex
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from lanlaptops import (
    MARKS,
    STEP,
    bot,
    check_game,
    counts,
    finished,
    joined,
    lan_fixture,
    line,
    moved_on,
    moves_of,
    sorry_lan,
    takeover_host,
    wait_moves,
)
from netns import Agent, Machine, VirtualLan
from topology import NsScreen

from sorry_lan.net.journal import load

pytestmark = [*MARKS, pytest.mark.timeout(240)]  # a whole game, on a loaded machine

lan = lan_fixture(3)

TIMER = "0.6"  # the people's turn timer (seconds): a bot plays a turn let pass
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


def test_the_host_ends_the_game_for_everyone(lan: VirtualLan, tmp_path: Path) -> None:
    screens: list[Screen] = []
    try:
        ann, bob, cy = table(lan, tmp_path, "Ending")
        screens += [ann, bob]
        ann.keys("q")
        ann.wait_for(lambda s: "e: end the game" in s)
        ann.keys("e")
        said = ann.wait_for(lambda s: "EXIT=" in s)
        assert "EXIT=0" in said
        seen = bob.wait_for(lambda s: "the host ended the game" in s)
        # the host's own player leaving is the end, not a drop whose seat is held
        assert "lost the connection" not in seen, seen
        cy.expect(line("The host ended the game"), STEP)
        (records,) = journals(tmp_path / "ann")
        assert records[-1].get("k") == "end"  # finished: nothing to resume
        assert takeovers(tmp_path) == []
    finally:
        for screen in screens:
            screen.close()
        lan.close_agents()


def test_a_headless_host_told_to_stop_hands_its_table_over(
    lan: VirtualLan, tmp_path: Path
) -> None:
    try:
        m0, m1, m2 = lan.machines
        h = takeover_host(lan, m0, tmp_path / "host", "Sigint", 2)
        bots = []
        for i, m in enumerate((m1, m2), 1):  # one at a time: b1 sits first (Red), so it hosts next
            bots.append(bot(lan, m, tmp_path, "Sigint", f"b{i}"))
            joined(bots[-1])
        wait_moves(bots, 6)
        h.kill(signal.SIGINT)
        h.expect(line("stopping: handing the table over"), STEP)
        h.expect(line("the table moved to b1's laptop"), STEP)
        assert h.wait(STEP) == 0
        stopped = time.monotonic()
        moved_on(bots, counts(bots), timeout=STEP)  # each one move more: b1's table's
        assert time.monotonic() - stopped < 10  # at once: no takeover delay to wait
        results = {finished(b) for b in bots}
        assert len(results) == 1
        check_game(bots, [tmp_path])
        assert takeovers(tmp_path / "b1") == [2]
        (records,) = journals(tmp_path / "host")
        assert records[-1].get("k") == "moved"
    finally:
        lan.close_agents()
