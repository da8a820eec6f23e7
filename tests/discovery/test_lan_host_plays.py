"""The host who plays at its own table (issue 19), with the real product on a virtual LAN.

Three laptops (network namespaces on a bridge, mDNS on): Ann hosts and plays in the
line mode (`sorry-lan host --text`, what a screen reader reads), b1 and b2 are
`sorry-lan bot` laptops; Ann plays each turn's first move (a listener of the test
answers her every "type the number of your move").  Then:

- Ann's laptop sleeps (SIGSTOP) past the takeover delay: b1's laptop takes the table
  over and the game goes on there; when Ann's laptop wakes (SIGCONT) it plays nothing
  more, finds its table moved, steps down, and its player plays on at the new host in
  her own seat, told so in a sentence; the game finishes there for everyone;
- Ann types quit: she is asked whether to hand the table over or end it, answers with
  Enter (the default), and b1's laptop hosts at once; the game finishes there;
- Ann's host is told to stop (SIGHUP, her terminal closed): it hands the table over as
  the headless host does, and her line mode closes; the same with her board in a real
  tmux terminal told SIGTERM.
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from lanlaptops import (
    DELAY,
    GRACE,
    MARKS,
    STEP,
    bot,
    check_game,
    epochs,
    finished,
    joined,
    lan_fixture,
    line,
    sorry_lan,
    wait_moves,
)
from netns import Agent, Machine, VirtualLan
from topology import NsScreen

from sorry_lan.net.journal import load

pytestmark = [*MARKS, pytest.mark.timeout(300)]  # a whole game and a takeover, loaded

lan = lan_fixture(3)

PROMPT = "Type the number of your move"


def said(msg: dict[str, Any]) -> str:
    return str(msg.get("line", "")) if msg.get("event") == "raw" else ""


class Listener:
    """Ann's line mode as a person hears it: every line kept, each turn answered with
    its first move, until her process ends."""

    def __init__(self, ann: Agent) -> None:
        self.ann = ann
        self.lines: list[str] = []
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._listen, daemon=True)
        self._thread.start()

    def _listen(self) -> None:
        def heard(msg: dict[str, Any]) -> bool:
            text = said(msg)
            with self._changed:
                self.lines.append(text)
                self._changed.notify_all()
            if text.startswith(PROMPT):
                self.ann.send("1")
            return False

        try:
            self.ann.expect(heard, 3600)
        except AssertionError:  # she exited (or the test is over)
            with self._changed:
                self.lines.append("(exited)")
                self._changed.notify_all()

    def wait(self, pred: Callable[[str], bool], timeout: float = STEP, after: int = 0) -> int:
        """The index of the first line from ``after`` on that satisfies ``pred``."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                for i in range(after, len(self.lines)):
                    if pred(self.lines[i]):
                        return i
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError("not heard; Ann heard:\n" + "\n".join(self.lines[-40:]))
                self._changed.wait(left)


def line_host(lan: VirtualLan, m: Machine, data: Path, game: str, *extra: str) -> Agent:
    """Ann hosting ``game`` on ``m`` and playing in the line mode, once it listens."""
    ann = sorry_lan(lan, m, "Ann", "host", "--text", "--name", "Ann", "--game-name", game,
                    "--data-dir", str(data), "--port", "47474", "--takeover-delay", str(DELAY),
                    "--grace", str(GRACE), "--bot-delay", "0.1", *extra)  # fmt: skip
    ann.expect(line("listening on "), STEP)
    return ann


def table(
    lan: VirtualLan, tmp: Path, game: str, think: str, *extra: str
) -> tuple[Agent, Listener, list[Agent]]:
    """Ann's table with two bot laptops, a few moves into the game (``extra``: more
    options of Ann's host)."""
    m0, m1, m2 = lan.machines
    ann = line_host(lan, m0, tmp / "ann", game, *extra)
    bots = []
    for i, m in enumerate((m1, m2), 1):  # one at a time: b1 is first in the order
        b = bot(lan, m, tmp, game, f"b{i}", "--think", think)
        joined(b)
        bots.append(b)
    ears = Listener(ann)
    ann.send("start")
    wait_moves(bots, 6, timeout=STEP * 2)
    return ann, ears, bots


def taken_over(data: Path, timeout: float) -> None:
    """Wait until a laptop's journal under ``data`` says it took the table over."""
    deadline = time.monotonic() + timeout
    while epochs(data) != [1, 2]:
        assert time.monotonic() < deadline, f"no takeover: epochs {epochs(data)}"
        time.sleep(0.1)


def test_a_host_with_a_seat_asleep_wakes_and_plays_on_at_the_new_host(
    lan: VirtualLan, tmp_path: Path
) -> None:
    try:
        # (a turn timer: a host that played on once it woke would move for the away)
        ann, ears, bots = table(lan, tmp_path, "Dozing", "0.4", "--turn-timeout", "0.6")
        ann.kill(signal.SIGSTOP)
        gone = time.monotonic()
        taken_over(tmp_path, DELAY + STEP)
        time.sleep(max(0.0, gone + DELAY + 5 - time.monotonic()))  # asleep past it
        heard = len(ears.lines)
        ann.kill(signal.SIGCONT)
        moved = ears.wait(lambda text: "table moved" in text, STEP * 2, after=heard)
        assert ears.lines[moved] == "Your table moved to b1's laptop; you play on as a player."
        # she plays on there in her own seat: back at the game, her turns come
        back = ears.wait(lambda text: text.startswith("You are back at the game"), STEP, moved)
        assert "Ann plays red" in ears.lines[back]
        ears.wait(lambda text: text.startswith("Ann, your turn"), STEP * 2, back)
        results = {finished(b, 240) for b in bots}
        assert len(results) == 1, results
        ears.wait(lambda text: text.startswith("The game is over: "), STEP, back)
        check_game(bots, [tmp_path])
        assert epochs(tmp_path) == [1, 2]
        # The old host played nothing once it woke (cut off: what it heard was stale).
        # Its journal says so, not its line mode: a move made just before the sleep may
        # be told only after it.
        journals = {p: load(p) for p in tmp_path.rglob("*.journal")}
        take = next(r for rs in journals.values() for r in rs if r.get("k") == "takeover")
        (old,) = [rs for p, rs in journals.items() if p.is_relative_to(tmp_path / "ann")]
        late = [r for r in old if r.get("k") == "move" and int(r["sid"]) >= int(take["sid"])]
        assert len(late) <= 1, f"the old host played on once it woke: {late}"
        if ann.proc.poll() is None:
            ann.send("quit")
        assert ann.wait(STEP) == 0, ann.stderr_text[-2000:]
    finally:
        lan.close_agents()


def test_the_host_in_the_line_mode_is_asked_and_hands_its_table_over(
    lan: VirtualLan, tmp_path: Path
) -> None:
    try:
        ann, ears, bots = table(lan, tmp_path, "Handing", think="0.15")
        heard = len(ears.lines)
        ann.send("quit")
        asked = ears.wait(lambda text: text.startswith("You host this table. "), STEP, heard)
        assert "Press Enter to hand it to another player's laptop" in ears.lines[asked]
        assert "type end to end the game for everyone" in ears.lines[asked]
        ann.send("")  # Enter: hand it over, the default
        ears.wait(lambda text: text.startswith("the table moved to b1's laptop at "), STEP, asked)
        ears.wait(lambda text: text.startswith("You handed the table over"), STEP, asked)
        assert ann.wait(STEP) == 0, ann.stderr_text[-2000:]
        handed_on(bots, tmp_path)
    finally:
        lan.close_agents()


def handed_on(bots: list[Agent], data: Path) -> None:
    """b1's laptop hosts the table now; the game finishes there, as the issue says."""
    results = {finished(b) for b in bots}
    assert len(results) == 1, results
    check_game(bots, [data])
    assert epochs(data / "b1") == [2] and epochs(data) == [1, 2]


def test_the_host_in_the_line_mode_told_to_stop_hands_its_table_over(
    lan: VirtualLan, tmp_path: Path
) -> None:
    try:
        ann, ears, bots = table(lan, tmp_path, "Hangup", think="0.15")
        heard = len(ears.lines)
        ann.kill(signal.SIGHUP)  # her terminal closed
        ears.wait(lambda text: text.startswith("stopping: handing the table over"), STEP, heard)
        ears.wait(lambda text: text.startswith("the table moved to b1's laptop at "), STEP, heard)
        assert ann.wait(STEP) == 0, ann.stderr_text[-2000:]
        handed_on(bots, tmp_path)
    finally:
        lan.close_agents()


def test_the_host_on_its_board_told_to_stop_hands_its_table_over(
    lan: VirtualLan, tmp_path: Path
) -> None:
    m0, m1, m2 = lan.machines
    command = shlex.join([
        sys.executable, "-m", "sorry_lan", "host", "--name", "Ann", "--game-name", "Termed",
        "--data-dir", str(tmp_path / "ann"), "--port", "47474", "--takeover-delay",
        str(DELAY), "--grace", str(GRACE), "--turn-timeout", "0.6", "--bot-delay", "0.1",
    ])  # fmt: skip
    board = NsScreen(m0.namespace, f"{command}; echo EXIT=$?; sleep 600", {})
    try:
        board.wait_for(lambda s: "Ann" in s and "sorry-lan join" in s, STEP)
        bots = []
        for i, m in enumerate((m1, m2), 1):
            b = bot(lan, m, tmp_path, "Termed", f"b{i}", "--think", "0.15")
            joined(b)
            bots.append(b)
        board.wait_for(lambda s: "b1" in s and "b2" in s, STEP)
        board.keys("s")
        wait_moves(bots, 6, timeout=STEP * 2)
        shell = board.screen_pid()
        found = subprocess.run(["pgrep", "-P", str(shell)], capture_output=True, text=True,
                               timeout=10, check=False)
        (host_pid,) = [int(pid) for pid in found.stdout.split()]  # the host in the pane
        os.kill(host_pid, signal.SIGTERM)
        said = board.wait_for(lambda s: "EXIT=" in s, STEP)
        assert "EXIT=0" in said, said
        assert "the table moved to b1's laptop" in said and "You handed the table" in said
        handed_on(bots, tmp_path)
    finally:
        board.close()
        lan.close_agents()
