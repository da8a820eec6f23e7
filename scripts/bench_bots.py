#!/usr/bin/env python3
"""The bots' goals table (issues 14 and 24), measured with ``sorry-lan simulate``'s
machinery.

Each row is a tournament: the strengths move round the seats game by game (so no
seat's first-turn edge favours one); it prints the games, the win rate of the
strength the goal is about with its 95% (Wilson) confidence interval, the mean
scores, and that strength's decision time (p95 and max, wall clock, then the
deciding thread's CPU time for the searching strengths) in the row; the
expert's times over every row (wall clock and thread CPU) close the table.
``table-greedy`` is the greedy bot the host's seats ran before issue 14 (judging
compact moves, blind to slides, safety and threats), kept here only as the reference
the tuned greedy must beat.

Defaults are the issue's game counts; ``--scale 0.25`` plays a quarter of each.
This script only measures; it asserts nothing and writes no files.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sorry_lan.bots.base import Position, pick
from sorry_lan.bots.registry import FACTORIES
from sorry_lan.commands.simulate import Stats, simulate, time_summary
from sorry_lan.rules.board import HOME, START, start_exit
from sorry_lan.rules.moves import Move
from sorry_lan.rules.variants import Variant


def _progress(colour: int, loc: int) -> int:
    if loc == START:
        return 0
    if loc == HOME:
        return 66
    if loc >= 60:
        return 61 + (loc - 60)
    return (loc - start_exit(colour)) % 60 + 1


def _table_value(compact: Sequence[int], pawns: Sequence[int], side: Sequence[int]) -> int:
    """The old table bot's worth of a move, from its compact form only."""
    kind = compact[0]
    moved: list[tuple[int, int]] = []
    if kind == 0:
        moved = [(compact[2], compact[3])]
    elif kind == 1:
        moved = [(compact[2], compact[3]), (compact[4], compact[5])]
    elif kind == 2:
        a, b = compact[2], compact[3]
        moved = [(a, pawns[b]), (b, pawns[a])]
    elif kind == 3:
        a, b = compact[2], compact[3]
        moved = [(a, pawns[b]), (b, START)]
    score = 0
    movers = {p for p, _ in moved}
    for pawn, to in moved:
        gain = _progress(pawn // 4, to) - _progress(pawn // 4, pawns[pawn])
        score += gain if pawn // 4 in side else -gain
        if kind in (0, 1) and to < 60:
            for other, loc in enumerate(pawns):
                if loc == to and other not in movers:
                    lost = _progress(other // 4, loc)
                    score += -lost if other // 4 in side else lost
    return score


class TableGreedy:
    """The host's greedy bot before issue 14 (reference only)."""

    kind = "table-greedy"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, position: Position, legal_moves: Sequence[Move]) -> Move:
        me = position.turn
        side = position.variant.rules.side(me)
        values = [_table_value(m.compact(), position.pawns, side) for m in legal_moves]
        best = max(values)
        top = [m for m, v in zip(legal_moves, values, strict=True) if v == best]
        return top[pick(self.seed, position, len(top))]


FACTORIES["table-greedy"] = TableGreedy

# (label, variant, strengths by seat, games, goal text, the strength the goal is about)
ROWS = [
    ("expert vs greedy, 2 players, standard", Variant.STANDARD, "expert,greedy", 2000,
     ">= 58%", "expert"),
    ("expert vs random, 2 players, standard", Variant.STANDARD, "expert,random", 1000,
     ">= 90%", "expert"),
    ("expert vs 3 greedy, 4 players, standard", Variant.STANDARD,
     "expert,greedy,greedy,greedy", 1000, ">= 38%", "expert"),
    ("expert team vs greedy team, team play", Variant.TEAM, "expert,greedy,expert,greedy",
     1000, ">= 58%", "expert"),
    ("expert vs greedy, play for points, 2 players", Variant.POINTS, "expert,greedy", 1000,
     ">= 65%, higher mean score", "expert"),
    ("greedy (tuned) vs table greedy, 2 players", Variant.STANDARD, "greedy,table-greedy",
     2000, ">= 60%", "greedy"),
    ("master vs greedy, 2 players, standard", Variant.STANDARD, "master,greedy", 400,
     ">= 60%", "master"),
]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=1.0,
                        help="play this share of each row's games (default 1)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--budget-ms", type=float, default=50.0)
    parser.add_argument("--rows", default="",
                        help=f"comma-separated row numbers to run (1-{len(ROWS)}; "
                        "default all)")
    args = parser.parse_args(argv)
    wanted = {int(r) for r in args.rows.split(",") if r.strip()} or set(range(1, len(ROWS) + 1))
    times: list[float] = []
    cpu_times: list[float] = []
    cut_short = 0
    print(f"{'#':>2} {'match':<46} {'games':>6} {'win %':>7} {'95% CI':>13} "
          f"{'goal':<26} {'mean score':>11} {'p95 ms':>7} {'max ms':>7} "
          f"{'CPU p95':>7} {'max':>7}")
    for n, (label, variant, bots, games, goal, who) in enumerate(ROWS, 1):
        if n not in wanted:
            continue
        games = max(2, round(games * args.scale))
        kinds = tuple(bots.split(","))
        started = time.perf_counter()
        stats: Stats = simulate(games, variant, kinds, args.seed + n, args.jobs,
                                args.budget_ms / 1000)
        data = stats.as_json()["bots"]
        row = data[who]
        lo, hi = row["win_rate_ci95"]
        other = next(k for k in data if k != who)
        score = f"{row['average_score']:.1f}/{data[other]['average_score']:.1f}"
        ms = row["decision_ms"]
        cpu = row["decision_cpu_ms"]
        timing = (f"{ms['p95']:>7.2f} {ms['max']:>7.2f}" if ms["count"]
                  else f"{'-':>7} {'-':>7}")
        timing += (f" {cpu['p95']:>7.2f} {cpu['max']:>7.2f}" if cpu["count"]
                   else f" {'-':>7} {'-':>7}")
        print(f"{n:>2} {label:<46} {games:>6} {100 * row['win_rate']:>6.1f}% "
              f"{100 * lo:>5.1f}-{100 * hi:<5.1f}% {goal:<26} {score:>11} {timing}"
              f"   ({time.perf_counter() - started:.0f} s)", flush=True)
        times += stats.times.get("expert", [])
        cpu_times += stats.cpu_times.get("expert", [])
        cut_short += stats.cut_short
    if times:
        print(f"\nexpert decision time over {len(times)} decisions, budget "
              f"{args.budget_ms:g} ms (goal: p95 <= 50 ms, max <= 100 ms); "
              f"cut short by the clock: {cut_short}")
        for name, values in (("wall clock", times), ("thread CPU", cpu_times)):
            ms = time_summary(values)
            print(f"  {name:<10}: mean {ms['mean']:.2f} ms, p95 {ms['p95']:.2f} ms, "
                  f"max {ms['max']:.2f} ms")
        print(f"  (load average now: {', '.join(f'{x:.1f}' for x in os.getloadavg())} "
              f"on {os.cpu_count()} cores)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
