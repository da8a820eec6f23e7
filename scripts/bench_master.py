#!/usr/bin/env python3
"""The master against another strength (default greedy, 2 players, standard), in
work-limit mode by default: the deterministic work limit ends every search and the
clock never does, so a loaded machine changes the time a game takes but not one
move (the figure is the master's on a machine where its work fits its budget; the
shipped work limit is sized to about half of the 1 s budget on one core here).
``--clock`` plays with the real budget instead (what a host does).

It prints the games, the master's win rate with its 95% Wilson interval, and its
decision time (wall clock and the deciding thread's CPU: mean, p95, max).  Seats and
the first move rotate game by game (``sorry-lan simulate``'s machinery).  This script
only measures; it asserts nothing and writes no files.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sorry_lan.bots import master
from sorry_lan.bots.base import Bot
from sorry_lan.bots.registry import FACTORIES
from sorry_lan.commands.simulate import simulate, time_summary, wilson
from sorry_lan.rules.variants import Variant

#: A budget the clock never reaches in work-limit mode (seconds).
UNBOUNDED = 1e9


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--against", default="greedy")
    parser.add_argument("--variant", default="standard",
                        choices=[v.value for v in Variant])
    parser.add_argument("--work", type=int, default=master.WORK,
                        help=f"the master's work limit (default {master.WORK})")
    parser.add_argument("--clock", action="store_true",
                        help="stop searches at the real budget too (not deterministic)")
    parser.add_argument("--budget", type=float, default=master.DEFAULT_BUDGET)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=24)
    args = parser.parse_args(argv)
    budget = args.budget if args.clock else UNBOUNDED

    def build(seed: int = 0, **_: object) -> Bot:
        return master.MasterBot(seed, budget=budget, work=args.work)

    FACTORIES["master"] = build  # the worker processes fork with it
    started = time.perf_counter()
    stats = simulate(args.games, Variant(args.variant), ("master", args.against),
                     args.seed, args.jobs)
    wins = stats.kind_wins.get("master", 0)
    lo, hi = wilson(wins, stats.games)
    mode = f"clock {args.budget:g} s" if args.clock else "work-limit mode"
    print(f"master (work {args.work}, {mode}) vs {args.against}, {args.variant}, "
          f"2 players: {wins}/{stats.games} = {100 * wins / stats.games:.1f}% "
          f"[{100 * lo:.1f}, {100 * hi:.1f}] (95% Wilson)")
    for name, values in (("wall clock", stats.times.get("master", [])),
                         ("thread CPU", stats.cpu_times.get("master", []))):
        ms = time_summary(values)
        if ms["count"]:
            print(f"  decision {name:<10}: {ms['count']} decisions, mean {ms['mean']:.0f} ms, "
                  f"p95 {ms['p95']:.0f} ms, max {ms['max']:.0f} ms")
    print(f"  cut short by the clock: {stats.cut_short}; "
          f"{time.perf_counter() - started:.0f} s on {args.jobs} processes, load "
          f"{', '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
