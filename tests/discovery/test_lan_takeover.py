"""The table outlives its host (issue 19), with the real product on a virtual LAN.

A headless ``sorry-lan host`` on one machine, three ``sorry-lan bot`` processes on
three others (each its own network namespace on a bridge, mDNS on, found by name,
never told an address), playing a game while each says every move it sees.  Then the
host is killed (SIGKILL), and once more the laptop that took over, and the checks are
those of the issue: the game finishes; every move each bot showed is in the final
journals (the old host's, then each successor's, which starts with its ``takeover``
record), in order; nobody's seat changed hands; one laptop took the table over each
time.
"""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest
from lanlaptops import (
    DELAY,
    MARKS,
    check_game,
    counts,
    finished,
    lan_fixture,
    moved_on,
    moves_of,
    successors,
    three_bots,
    wait_moves,
)
from netns import VirtualLan

pytestmark = MARKS

lan = lan_fixture(4)


@pytest.mark.timeout(180)  # a long game (200 moves) and a takeover outlast the default 60 s
def test_a_killed_host_is_taken_over_and_the_game_finishes(
    lan: VirtualLan, tmp_path: Path
) -> None:
    try:
        h, bots = three_bots(lan, tmp_path, "Kill")
        before = counts(bots)
        h.kill(signal.SIGKILL)
        lost = time.monotonic()
        moved_on(bots, before, timeout=DELAY + 20)  # each bot by its own count
        took = time.monotonic() - lost
        assert took < DELAY + 10, f"the next move came {took:.1f} s after the host died"
        results = {finished(b) for b in bots}
        assert len(results) == 1, results
        check_game(bots, [tmp_path])
        assert len(successors(tmp_path)) == 1  # one table: one laptop took it over
    finally:
        lan.close_agents()


@pytest.mark.timeout(180)
def test_two_successive_takeovers(lan: VirtualLan, tmp_path: Path) -> None:
    try:
        h, bots = three_bots(lan, tmp_path, "Twice")
        h.kill(signal.SIGKILL)
        wait_moves(bots, max(len(moves_of(b)) for b in bots) + 2, timeout=DELAY + 20)
        (hosting,) = successors(tmp_path)
        first = next(b for b in bots if b.label.startswith(f"{hosting}@"))
        rest = [b for b in bots if b is not first]
        first.kill(signal.SIGKILL)
        wait_moves(rest, max(len(moves_of(b)) for b in rest) + 1, timeout=DELAY + 25)
        results = {finished(b) for b in rest}
        assert len(results) == 1
        check_game(rest, [tmp_path])
    finally:
        lan.close_agents()
