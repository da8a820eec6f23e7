"""The host is lost at every phase of an evening, and the table goes on (issue 19).

Real processes on a virtual LAN (each machine its own network namespace on a bridge,
mDNS on, nothing on the real interfaces): a headless ``sorry-lan host`` and
``sorry-lan bot`` laptops (``board_bot.py``: the real command, writing down each
board it shows).  The host is SIGKILLed in the lobby, between moves, in a burst of bot
moves, at the final move and at game over (the rematch is then played on the new host);
then in every variant with 2 to 4 players.  Each test checks, with ``evening.Evening.check``: the
game finished; each laptop's every board is the journals' at its state id and every
move by the colour they say, in order; nobody's seat changed hands; one laptop took
the table over.  Timings go to the test's output (``-s``) as ``phase ...: next move
... s after the host died``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from evening import DELAY, GRACE, MARKS, STEP, Evening
from lanlaptops import lan_fixture
from netns import VirtualLan

from sorry_lan.net.journal import load

pytestmark = [*MARKS, pytest.mark.timeout(240)]


lan = lan_fixture(5)  # the module's LAN (lanlaptops)


@pytest.fixture
def evening(lan: VirtualLan, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Evening]:
    name = "".join(ch for ch in request.node.name.title() if ch.isalnum())[:40]
    try:
        yield Evening(lan, tmp_path / "table", name)  # (its data apart from a rehearsal's)
    finally:
        lan.close_agents()


def took(evening: Evening, phase: str, laptops: object = None) -> float:
    seconds = evening.next_move_after_loss(laptops)  # type: ignore[arg-type]
    print(f"phase {phase}: next move {seconds:.2f} s after the host died")
    # The goal is DELAY + 5 s; a laptop that gave up on its vote comes back only after
    # the grace (SUCCESSION-NOTES, phases 18:52): reported, and bounded here.
    assert seconds < GRACE + 10, f"{phase}: the next move came {seconds:.1f} s after the loss"
    return seconds


def test_lost_in_the_lobby(evening: Evening) -> None:
    """Two of three seats taken, the host dies; the third player finds the table at
    its new host (by its name on the LAN) and the game is played there."""
    evening.think = 0.05
    early = evening.sit_down(2)
    time.sleep(1.0)  # the host sends the succession with their offers
    evening.kill_host()
    evening.wait("the new host named", lambda: all(
        any("host_changed" in n for n in evening.shown(b).news) for b in early), DELAY + STEP)
    print(f"phase lobby: new host after {time.monotonic() - (evening.lost_at or 0):.2f} s")
    late = evening.start_laptop(3)
    late.expect(lambda msg: msg.get("line", "").startswith("joined "), STEP)
    assert len(evening.finish()) == 1
    evening.check()


def test_lost_between_moves(evening: Evening) -> None:
    evening.think = 0.15
    evening.sit_down()
    evening.wait_moves(8)
    first = evening.laptops[0]
    count = evening.moves(first)
    evening.wait("a fresh move", lambda: evening.moves(first) > count)
    evening.kill_host()  # just after a move: the next player is thinking
    took(evening, "between moves")
    assert len(evening.finish()) == 1
    evening.check()


def test_lost_in_a_burst_of_bot_moves(evening: Evening) -> None:
    """The host's own two bots and two laptops that do not think: moves come as fast
    as they are made; the host dies in the middle (its bots move with the table)."""
    evening.players, evening.bots = 4, 2
    evening.sit_down()
    evening.wait_moves(12)
    evening.kill_host()
    took(evening, "burst")
    assert len(evening.finish()) == 1
    evening.check()


def test_lost_at_the_final_move(evening: Evening, lan: VirtualLan, tmp_path: Path) -> None:
    """A seeded game played once to learn its last state (the bots play the same moves
    again: the same deal, the same greedy choices); played again, the host dies as the
    winner is about to make the winning move, which is made at the new host."""
    seed = "1919"
    rehearsal = Evening(lan, tmp_path / "rehearsal", evening.game + "R", players=2,
                        host_args=("--seed", seed))
    rehearsal.sit_down()
    rehearsal.finish()
    final = max(rehearsal.ledger().games[-1].moved)  # the state the winning move led to
    lan.close_agents()
    evening.players, evening.think, evening.host_args = 2, 0.2, ("--seed", seed)
    evening.sit_down()
    evening.wait(f"state {final - 1} shown", lambda: any(
        sid >= final - 1 for b in evening.laptops
        for sid, _pawns in evening.shown(b).boards.get(1, [])), 90)
    evening.kill_host()
    assert len(evening.finish()) == 1
    led = evening.check()
    (take,) = led.games[-1].takeovers
    assert int(take["sid"]) >= final - 1, f"taken over at {take['sid']}, the final move {final}"
    print(f"phase final move: taken over at {take['sid']}, the winning move led to {final}")


def test_lost_at_game_over_the_rematch_is_at_the_new_host(evening: Evening) -> None:
    """Three laptops; after the game one leaves, so the rematch waits for a third
    player; the host dies then; a newcomer finds the table at its new host and the
    rematch is played there."""
    evening.games, evening.host_args = 2, ("--stay",)
    evening.sit_down(2)
    leaver = evening.start_laptop(3, games=1)
    evening.joined(leaver)
    evening.wait("game 1 over everywhere", lambda: all(
        "game 1 of" in b.stderr_text and " over: " in b.stderr_text for b in evening.laptops),
        120)
    assert leaver.wait(STEP) == 0
    time.sleep(1.0)  # the host hears the leaver go and tells the others
    evening.kill_host()
    evening.wait("the new host named", lambda: all(
        any("host_changed" in n for n in evening.shown(b).news) for b in evening.laptops[:2]),
        DELAY + STEP)
    print(f"phase game over: new host after {time.monotonic() - (evening.lost_at or 0):.2f} s")
    # A seat given up just before the loss may be held for its grace at the new host
    # (twice in CI the newcomer found no room within 20 s; the cause is not known yet):
    # the newcomer looks for the grace and a step.
    newcomer = evening.start_laptop(4, games=1, search=GRACE + STEP)
    evening.joined(newcomer, GRACE + STEP)
    stayers = [*evening.laptops[:2], newcomer]
    assert len(evening.finish(stayers)) == 1
    led = evening.check(stayers, late={newcomer.label: 2})
    assert len(led.games) == 2 and led.games[1].over, led.journals
    on_the_old_host = [r for p in (evening.data / "host").rglob("*.journal") for r in load(p)
                       if r.get("k") == "game"]
    assert len(on_the_old_host) == 1, "the rematch began on the old host"


CELLS = [
    ("standard", 2), ("standard", 3), ("standard", 4),
    ("team", 4),
    ("points", 2), ("points", 3), ("points", 4),
]


@pytest.mark.parametrize(("variant", "players"), CELLS, ids=[f"{v}-{n}" for v, n in CELLS])
def test_every_variant_survives_its_host(evening: Evening, variant: str, players: int) -> None:
    evening.variant, evening.players, evening.think = variant, players, 0.05
    evening.sit_down()
    evening.wait_moves(6)
    evening.kill_host()
    took(evening, f"{variant}-{players}")
    assert len(evening.finish()) == 1
    evening.check()
