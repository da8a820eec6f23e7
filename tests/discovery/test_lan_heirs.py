"""A points game's hands across a takeover (issue 19).

Real processes on a virtual LAN (``evening.Evening``: a headless ``sorry-lan host``,
``board_bot.py`` laptops that write down each board and hand they show).  In play for
points the host is SIGKILLed mid-game: every hand the players knew is the one the new
host holds (the journals: the old host's deal at the state taken over, the successor's
``takeover`` and ``reveal`` records), each player's shown hand before the loss is in
the new host's, and only the cards nobody knew were dealt afresh; then the checks of
``Evening.check``.

A successor dies too: three laptops, the host SIGKILLed, the first laptop takes the
table over and is SIGKILLed in turn, once the others follow it (the table at epoch 2
everywhere) or while it is still taking over (as soon as its journal exists: the
others may not have followed it yet).  The two left elect the next laptop of the
order within D + a step and play on (its seat, the dead successor's, is held for the
grace G, then a bot plays it) to the end.
"""

from __future__ import annotations

import signal
import time
from collections import Counter
from pathlib import Path

import pytest
from evening import DELAY, MARKS, STEP, Evening
from lanlaptops import lan_fixture
from ledger import shown, within
from netns import Agent, VirtualLan

pytestmark = [*MARKS, pytest.mark.timeout(240)]

HAND = 5  # cards in a hand in play for points


GRACE = 8  # the seat grace of the tables whose successor dies (seconds)

lan = lan_fixture(4)  # the module's LAN (lanlaptops)


def test_the_hands_of_a_points_game_survive_its_host(lan: VirtualLan, tmp_path: Path) -> None:
    # The laptops are quick (0.1 s a move): the one on turn when the table moves is
    # offered its moves only once the others' hands are back (else they were lost).
    evening = Evening(lan, tmp_path, "Hands", players=3, variant="points", think=0.1)
    try:
        evening.sit_down()
        evening.wait_moves(9)
        evening.kill_host()
        assert len(evening.finish()) == 1

        def last_hand(b: Agent) -> list[int]:  # the hand it showed last before the loss
            text = b.stderr_text
            return shown(text[: text.find("the host is gone")]).hands.get(1, [(0, [])])[-1][1]

        before = {b.label: last_hand(b) for b in evening.laptops}
        led = evening.check()
        game = led.games[-1]
        ((sid, dealt, held),) = game.handovers
        (take,) = game.takeovers
        colours = {b.label: evening.shown(b).seats for b in evening.laptops}
        revealed = {int(r["colour"]) for r in game.reveals}
        successor = next(c for c, n in take["names"].items() if n == take["host"])
        wrong = []
        for b in evening.laptops:
            (seat,) = colours[b.label]
            colour = {"Red": 0, "Blue": 1, "Yellow": 2, "Green": 3}[seat]
            knew = before[b.label]
            if not within(knew, dealt[colour]):
                wrong.append(f"{b.label} showed {knew}, the old host dealt {dealt[colour]}")
            if not within(knew, held[colour]):
                wrong.append(f"{b.label} knew {knew}; the new host holds {held[colour]}")
            if len(knew) < HAND - 1:
                wrong.append(f"{b.label} knew only {knew}")
            if str(colour) != successor and colour not in revealed:
                wrong.append(f"{b.label} ({seat}) revealed nothing the new host kept")
        kept = {c: sum((Counter(dealt[c]) & Counter(held.get(c, []))).values()) for c in dealt}
        print(f"points: taken over at {sid}; cards of each hand kept: {kept} of {HAND}; "
              f"revealed {sorted(revealed)}")
        assert not wrong, "\n".join(wrong) + "\n" + evening.tails()
    finally:
        lan.close_agents()


@pytest.mark.parametrize("when", ["followed", "taking_over"])
def test_a_successor_killed_hands_the_table_on(
    lan: VirtualLan, tmp_path: Path, when: str
) -> None:
    evening = Evening(lan, tmp_path, f"Heirs{when[0]}", players=3, think=0.1,
                      host_args=("--grace", str(GRACE)))
    try:
        evening.sit_down()
        evening.wait_moves(6)
        evening.kill_host()
        if when == "followed":  # the table is at epoch 2 at every laptop
            first = evening.wait_followed(2, evening.laptops, DELAY + STEP)
        else:
            journals: list[Path] = []

            def taking_over() -> bool:  # its journal is made before it serves anyone
                journals[:] = [p for b in evening.laptops for p in
                               (evening.data / b.label.split("@")[0]).rglob("*.journal")]
                return bool(journals)

            evening.wait("a laptop taking over", taking_over, DELAY + STEP)
            first = journals[0].relative_to(evening.data).parts[0]
        heir = evening.laptop(first)
        heir.kill(signal.SIGKILL)
        killed = time.monotonic()
        rest = [b for b in evening.laptops if b is not heir]
        before = {b.label: evening.moves(b) for b in rest}
        second = evening.wait_followed(2, rest, DELAY + STEP, not_=first)
        took = time.monotonic() - killed
        evening.wait("a move at the next host", lambda: any(
            evening.moves(b) > before[b.label] for b in rest), GRACE + STEP)
        moved = time.monotonic() - killed
        print(f"successor {first} killed ({when}); {second} hosts {took:.2f} s later, "
              f"the next move {moved:.2f} s after the kill")
        assert len(evening.finish(rest)) == 1
        led = evening.check(rest, takeovers=2)
        epochs = sorted(int(t["epoch"]) for g in led.games for t in g.takeovers)
        assert epochs and epochs[-1] >= 2, epochs
        if when == "followed":
            assert [e for e, _n in evening.hosts(rest[0])][-2:] == [2, 3], evening.hosts(rest[0])
    finally:
        lan.close_agents()
