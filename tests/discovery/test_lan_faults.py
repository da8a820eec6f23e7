"""The table survives the ways of losing its host that only a real LAN shows (issue 19),
on a virtual LAN with the real product: a headless ``sorry-lan host`` and three
``sorry-lan bot`` laptops, each its own network namespace (see ``lanlaptops``), and one
fault each:

- the host stopped (SIGSTOP) past the grace, then woken (SIGCONT): it finds the table
  at a newer epoch, steps down, says where the table went and exits 0;
- the host's link down (12 s, then up: it steps down as above);
- the host's namespace deleted (its cable and all: it never comes back);
- one client cut off at the switch while the host lives (longer than the grace), its
  own interface up: no second table; it plays on with the host once it is back.

Each checks: the game finishes; every move each client showed is in the final
journals in order; nobody's seat changed hands; there are never two tables playing
(one takeover at most, and an old host that was fenced journals no move after the
state its successor took over from, but the one it may have been playing as it went).
The same faults with every rule they exercise, on the pair's fake clock:
tests/succession (test_takeover_in_memory, test_cut_off, test_election) and the
simulator (tests/sim); a host SIGKILLed with a spectator's board watching, and with
multicast dropped: test_lan_follow.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from lanlaptops import (
    DELAY,
    GRACE,
    MARKS,
    STEP,
    bot,
    check_game,
    counts,
    cut_off,
    epochs,
    finished,
    joined,
    lan_fixture,
    line,
    link_down,
    link_up,
    moved_on,
    moves_of,
    reconnect,
    successors,
    takeover_host,
    three_bots,
    unplug,
    wait_moves,
)
from netns import Agent, VirtualLan

from sorry_lan.net.journal import load

pytestmark = MARKS

lan = lan_fixture(4)

THINK = 0.15  # seconds a bot thinks before each move (lanlaptops.bot's --think)
SLOW = "0.3"  # and the bots of a table that must outlast a fault (about a minute)
SHORT = 8  # a seat's grace (seconds) where a test waits past it


def taken(think: float = THINK) -> float:
    """Seconds within which the next move after the host's loss comes: D, a third of D
    for the heartbeat to notice, the election (a busy candidate is tried again after a
    second), the next mover's thinking and the new host's first offer, with room for
    a loaded 2-core machine."""
    return DELAY + 10 + think


def slow_table(
    lan: VirtualLan, tmp_path: Path, game: str, think: str = SLOW, grace: int = GRACE
) -> tuple[Agent, list[Agent]]:
    """A headless host on the first laptop (a seat's grace of ``grace`` s) and three bots
    that think ``think`` s a move (a game then takes about a minute at 0.3: it outlasts a
    fault of 12 s), a few moves in."""
    m0, m1, m2, m3 = lan.machines[:4]
    h = takeover_host(lan, m0, tmp_path / "host", game, 3, "--grace", str(grace))
    bots = [bot(lan, m, tmp_path, game, f"b{i}", "--think", think)
            for i, m in enumerate((m1, m2, m3), 1)]
    for b in bots:
        joined(b)
    wait_moves(bots, 4, timeout=STEP + 4 * float(think))
    return h, bots


def taken_over(
    bots: list[Agent], lost: float, data: Path, before: list[int], think: float = THINK
) -> float:
    """Wait until every bot showed a move after the host was lost at ``lost`` (each
    had ``before`` moves then): how long it took.  One laptop took the table over."""
    moved_on(bots, before, timeout=taken(think) + 10)
    took = time.monotonic() - lost
    took_it = successors(data)
    assert len(took_it) == 1, f"not one laptop took the table over: {took_it}"
    assert took < taken(think), f"the next move came {took:.1f} s after the host was lost"
    return took


def fenced(data: Path, *, stepped_down: bool) -> None:
    """One takeover (epochs 1 and 2); the old host journalled at most the one move in
    flight after the state its successor took over from; ``stepped_down``: its
    journal ends saying the table moved."""
    assert epochs(data) == [1, 2], epochs(data)
    journals = {p: load(p) for p in data.rglob("*.journal")}
    take = next(r for rs in journals.values() for r in rs if r.get("k") == "takeover")
    (old,) = [rs for p, rs in journals.items() if p.is_relative_to(data / "host")]
    late = [r for r in old if r.get("k") == "move" and int(r["sid"]) >= int(take["sid"])]
    assert len(late) <= 1, f"the old host played on: {late}"
    if stepped_down:
        assert old[-1].get("k") == "moved", old[-3:]


def goes_on(bots: list[Agent], data: Path, within: float = 180.0) -> None:
    """The game finishes, one winner for all, the moves and seats as the issue says."""
    results = {finished(b, within) for b in bots}
    assert len(results) == 1, results
    check_game(bots, [data])


def stepped_down(h: Agent) -> None:
    """The woken headless host says where its table went and exits 0."""
    said = h.expect(line("the table moved to "), 30)["line"]
    assert "'s laptop" in said and said.endswith("it goes on there"), said
    assert h.wait(STEP) == 0, h.stderr_text[-2000:]


def away_and_back(
    lan: VirtualLan, tmp_path: Path, game: str, lose: Callable[[Agent], None],
    back: Callable[[Agent], None], away: float, think: str = SLOW, grace: int = GRACE,
) -> None:
    """The host is lost (``lose``) for ``away`` seconds, taken over meanwhile, then
    back (``back``): it finds its table at the newer epoch and steps down; the game
    finishes at the successor.  Bots that think ``think`` s a move keep the game going
    (and its successor hosting) past the host's return."""
    h, bots = slow_table(lan, tmp_path, game, think, grace)
    try:
        lose(h)
        gone = time.monotonic()
        taken_over(bots, gone, tmp_path, counts(bots), float(think))
        time.sleep(max(0.0, gone + away - time.monotonic()))
        assert all(b.proc.poll() is None for b in bots), "the game ended before the host was back"
        back(h)
        stepped_down(h)
        goes_on(bots, tmp_path, within=max(180.0, 250 * float(think)))
        fenced(tmp_path, stepped_down=True)
    finally:
        back(h)
        lan.close_agents()


def _signal(sig: int) -> Callable[[Agent], None]:
    return lambda agent: agent.kill(sig)


@pytest.mark.timeout(240)
def test_a_host_asleep_past_the_grace_wakes_and_steps_down(
    lan: VirtualLan, tmp_path: Path
) -> None:
    # (asleep past G: once woken it must not take its players for gone and play on)
    away_and_back(lan, tmp_path, "Nap", _signal(signal.SIGSTOP), _signal(signal.SIGCONT),
                  SHORT + 4, grace=SHORT)


@pytest.mark.timeout(240)
def test_a_host_whose_link_goes_down_steps_down_when_it_is_back(
    lan: VirtualLan, tmp_path: Path
) -> None:
    m0 = lan.machines[0]
    # back within G: the old host is still paused (a cut-off host never plays on alone)
    away_and_back(lan, tmp_path, "Unplugged", lambda _h: link_down(m0),
                  lambda _h: link_up(m0), 12)


@pytest.mark.timeout(180)
def test_a_host_whose_namespace_is_deleted(tmp_path: Path) -> None:
    with VirtualLan(4) as own:  # its first laptop does not come back
        h, bots = three_bots(own, tmp_path, "Gone")
        unplug(own, own.machines[0])
        taken_over(bots, time.monotonic(), tmp_path, counts(bots))
        goes_on(bots, tmp_path)
        fenced(tmp_path, stepped_down=False)
        assert h.proc.poll() is None  # it lives on, alone with its loopback (stopped here)


@pytest.mark.timeout(240)
def test_a_client_cut_off_alone_starts_no_table_and_comes_back(
    lan: VirtualLan, tmp_path: Path
) -> None:
    """Case 1 of issue 31: a laptop that reaches nobody, its own interface up (nothing
    tells it that its network is down: its cable leaves the switch), never takes the
    table by itself: before, it took over alone at G and two tables played one game.
    (Its link down instead: tests/succession/test_election.py
    ``test_a_client_whose_own_link_is_down_never_takes_over``.)"""
    m3 = lan.machines[3]
    try:
        # (quick bots: while it is away its turns wait for it, the game cannot end)
        h, bots = slow_table(lan, tmp_path, "Alone", "0.1", grace=SHORT)
        away = bots[2]
        cut_off(lan, m3)
        down = time.monotonic()
        before = len(moves_of(away))
        # Past G after it lost the host (its turns wait for it, as any away player's:
        # the host drops its silent connection, then holds the seat G).
        time.sleep(max(0.0, down + DELAY + SHORT + 5 - time.monotonic()))
        assert len(moves_of(away)) == before
        reconnect(lan, m3)
        wait_moves([away], before + 1, timeout=STEP + DELAY)  # it is back at the old host
        goes_on(bots, tmp_path)
        assert epochs(tmp_path) == [1], "a second table was started"
        assert h.wait(SHORT + STEP) == 0  # (it may wait G to tell everyone the result)
    finally:
        reconnect(lan, m3)
        lan.close_agents()
