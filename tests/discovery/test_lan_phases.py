"""The host is lost at every phase of an evening, and the table goes on (issue 19).

Real processes on a virtual LAN (each machine its own network namespace on a bridge,
mDNS on, nothing on the real interfaces): a headless ``sorry-lan host`` and
``sorry-lan bot`` laptops (``board_bot.py``: the real command, writing down each
board it shows).  The host is SIGKILLed in the lobby and between moves, then in every
variant with 2 to 4 players.  Each test checks, with ``evening.Evening.check``: the
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

pytestmark = [*MARKS, pytest.mark.timeout(240)]


lan = lan_fixture(5)  # the module's LAN (lanlaptops)


@pytest.fixture
def evening(lan: VirtualLan, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Evening]:
    name = "".join(ch for ch in request.node.name.title() if ch.isalnum())[:40]
    try:
        yield Evening(lan, tmp_path, name)
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
