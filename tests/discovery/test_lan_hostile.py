"""Hostile peers at a table whose host is lost (issue 19), on a virtual LAN.

Real processes (``evening.Evening``); the hostile one is a ``board_bot.py`` laptop with
``hostile.py``'s tricks.  When the host is SIGKILLed:

- a laptop first in the succession order answers the voters as if it hosted, naming
  another seat at the next epoch (a claim out of turn), or, once the table is at epoch
  2, itself at epoch 1 (an old epoch): each voter refuses it, says why, and the next
  laptop takes the table over;
- a stranger says hello with a made-up seat token at the candidate's standby: it is
  turned away with a reason;
- in play for points, a laptop reveals a forged hand to the new host: refused ("hand
  does not match the commitment"), its seat dealt afresh.

Each time the game goes on and finishes for the honest laptops, checked with
``Evening.check`` (boards, moves, seats).
"""

from __future__ import annotations

import json
import signal
import sys
import time
from pathlib import Path

import pytest
from evening import DELAY, MARKS, STEP, Evening
from lanlaptops import lan_fixture
from netns import Agent, VirtualLan

pytestmark = [*MARKS, pytest.mark.timeout(240)]

STANDBY = 47611  # the honest candidate's standby port, known to the stranger


lan = lan_fixture(5)  # the module's LAN (lanlaptops)


def refusals(evening: Evening, b: Agent) -> list[str]:
    return [n for n in evening.shown(b).news if n.startswith("claim_refused")]


def honest_finish(evening: Evening, honest: list[Agent], takeovers: int = 1) -> None:
    assert len(evening.finish(honest)) == 1
    evening.check(honest, takeovers=takeovers)


def test_a_claim_out_of_turn_is_refused_and_the_game_goes_on(
    lan: VirtualLan, tmp_path: Path
) -> None:
    evening = Evening(lan, tmp_path, "OutOfTurn", players=3, think=0.1,
                      host_args=("--grace", "8"))
    try:
        mallory, *honest = evening.sit_in_order(("--claim", "out-of-turn"), (), ())  # red first
        evening.wait_moves(6, honest)
        evening.kill_host()
        evening.wait("the claim refused by both", lambda: all(
            refusals(evening, b) for b in honest), DELAY + STEP)
        mallory.kill(signal.SIGKILL)  # it gave up nothing: its seat goes to a bot
        for b in honest:
            print(f"{b.label}: {refusals(evening, b)[0]}")
            assert "out of turn" in refusals(evening, b)[0], refusals(evening, b)
        assert "claimed out-of-turn" in mallory.stderr_text
        honest_finish(evening, honest, takeovers=1)
    finally:
        lan.close_agents()


def test_a_claim_at_an_old_epoch_is_refused_and_the_game_goes_on(
    lan: VirtualLan, tmp_path: Path
) -> None:
    evening = Evening(lan, tmp_path, "OldEpoch", players=4, think=0.1,
                      host_args=("--grace", "8"))
    try:
        # red takes over first; blue (mallory) is next
        first, mallory, *honest = evening.sit_in_order((), ("--claim", "old-epoch"), (), ())
        evening.wait_moves(6, honest)
        evening.kill_host()
        # red hosts at epoch 2, followed by every laptop (mallory too: it claims epoch 1
        # only once it knows a later one)
        assert evening.wait_followed(2, evening.laptops, DELAY + STEP) == "b1"
        first.kill(signal.SIGKILL)
        # Mallory comes first in the new order: each honest voter asks it first, gets
        # its claim and refuses it
        evening.wait("the old epoch refused by both", lambda: all(
            refusals(evening, b) for b in honest), DELAY + STEP)
        mallory.kill(signal.SIGKILL)
        for b in honest:
            print(f"{b.label}: {refusals(evening, b)[0]}")
            assert "old epoch" in refusals(evening, b)[0], refusals(evening, b)
        honest_finish(evening, honest, takeovers=2)
    finally:
        lan.close_agents()


def test_a_forged_token_at_a_standby_is_turned_away(lan: VirtualLan, tmp_path: Path) -> None:
    evening = Evening(lan, tmp_path, "Token", players=3, think=0.1)
    try:
        evening.start_host()
        candidate = evening.start_laptop(1, standby_port=STANDBY)
        evening.joined(candidate)
        evening.sit_down(2)
        evening.wait_moves(6)
        evening.kill_host()
        address = evening.machines[1].address
        stranger = evening.machines[4]
        answers = []
        time.sleep(DELAY + 0.3)  # the election is under way: the candidate counts votes
        for _ in range(2):  # while it counts votes, and once it hosts
            mallory = lan.spawn(stranger, [sys.executable, "tests/discovery/hostile.py",
                                           "hello", address, str(STANDBY)], "mallory")
            answers.append(mallory.expect(lambda msg: "type" in msg, STEP))
            if len(answers) == 1:
                evening.next_move_after_loss()
        print(f"a forged token at the standby, then at the new host: {answers}")
        for answer in answers:
            assert answer["type"] == "refuse" and answer["reason"] and answer["text"], answers
        assert len(evening.finish()) == 1
        evening.check()
    finally:
        lan.close_agents()


def test_a_forged_hand_is_refused_and_the_game_goes_on(lan: VirtualLan, tmp_path: Path) -> None:
    # The laptops are quick (0.1 s a move): the one on turn when the table moves is
    # offered its moves only once the others' hands are back (else they were lost).
    evening = Evening(lan, tmp_path, "Forged", players=3, variant="points", think=0.1)
    try:
        _red, mallory, _yellow = evening.sit_in_order((), ("--forge-hand",), ())  # red hosts next
        evening.wait_moves(9)
        evening.kill_host()
        evening.wait("the forged hand refused", lambda: "sorry-lan error:" in mallory.stderr_text
                     and "forged reveal" in mallory.stderr_text, DELAY + STEP)
        said = [ln for ln in mallory.stderr_text.splitlines() if "sorry-lan error:" in ln]
        print(f"forged hand: {said}")
        assert any("does not match the commitment" in ln for ln in said), said
        assert len(evening.finish()) == 1
        led = evening.check()
        revealed = {int(r["colour"]) for r in led.games[-1].reveals}
        assert 1 not in revealed, f"the forged hand was kept: {led.games[-1].reveals}"
        print(json.dumps({"revealed": sorted(revealed)}))
    finally:
        lan.close_agents()
