"""What the laptops of a simulated evening keep of its game agree (issue 32): each
files the records its client was sent and lists its own journals beside them, as
``sorry-lan games`` does (``sim.kept``); every laptop that learned the end lists the
game once, whole, with the same figures and the same scoreboard."""

from __future__ import annotations

import pytest

from .evening import Evening, run_evening


@pytest.mark.parametrize(("fault", "seed"), [("sleep", 10014), ("winkill", 17), ("winkill", 23)])
def test_after_a_takeover_every_laptop_keeps_the_same_game(fault: str, seed: int) -> None:
    """10014: the first host sleeps through a takeover and the game's end elsewhere;
    17, 23: the host is killed at the winning move and a laptop takes the table over
    at game over (the start it dates was a second off the host's before)."""
    out = run_evening(seed, [fault], count=None if fault != "sleep" else 1, records=True)
    assert out.takeovers >= 1 and out.violations == [] and out.over
    agreement = out.agreement
    assert agreement is not None and agreement.laptops >= 2
    assert agreement.disagree == 0, agreement.texts


# (seed, the cause): evenings drawn as ``simulate_evenings.py --records`` draws them
# (every fault class, 1-3 faults), whose laptops kept different records before the fix
FIXED_RECORDS = [
    (10, "(winkill, delay) a person away at their turn, a bot covered them: no laptop "
         "knew the game so far, and the successor's record began at the takeover (the "
         "host now sends the game so far after a table event or an away change)"),
    (45, "(crash, drop) as 10, the person's connection dropping again and again"),
    (84, "(winkill) the host killed at its winning move, which the successor played again "
         "after a cover: the old host's laptop listed its own journal's end (now the "
         "successor's record, as every other laptop)"),
    (141, "(winkill, partition, winkill) three takeovers, two of them at a winning move: "
          "each successor's record named only the host it took over from, so the "
          "laptops holding the earlier hosts' journals listed them (now the game so far "
          "carries the chain of hosts, and a later host's copy stands)"),
]  # fmt: skip


@pytest.mark.parametrize(("seed", "case"), FIXED_RECORDS,
                         ids=[f"evening-{s}" for s, _ in FIXED_RECORDS])
def test_fixed_evening_keeps_one_record_on_every_laptop(seed: int, case: str) -> None:
    out = run_evening(seed, None, records=True)
    assert out.takeovers >= 1 and out.violations == [] and out.over, case
    agreement = out.agreement
    assert agreement is not None and agreement.laptops >= 2
    assert agreement.disagree == 0, (case, agreement.texts)


def test_a_host_asleep_while_the_game_ended_elsewhere_journals_no_result() -> None:
    """No phantom result (issue 32): the first host, woken after the table moved, never
    plays the game on (issue 31's fence): the only host whose game is over is the one
    every laptop was shown the end by."""
    ev = Evening(10014, ["sleep"], count=1, records=True)
    out = ev.run()
    assert out.takeovers == 1 and out.over
    over = [h for h in ev.hosts if not h.rogue and h.table.game is not None
            and h.table.game.over]  # fmt: skip
    assert over == [ev.monitor.final_host()]
    first = ev.hosts[0]
    assert first is not over[0]
    assert not [r for r in first.journal if r.get("k") == "move" and "t" in r]
