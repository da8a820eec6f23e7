#!/usr/bin/env python3
"""Simulate evenings of 2-4 laptops playing one table, with faults (issue 31).

    scripts/simulate_evenings.py --seeds 100 [--seed 7] [--faults crash,sleep]
    scripts/simulate_evenings.py --seed 123 --trace     # replay one seed, print its trace

Prints the evenings run, the faults injected (by class), the takeovers, and every
invariant violation with the seed that shows it (replay it with ``--seed S
--seeds 1 --trace``).  Deterministic: one seed, one trace.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
# (tests/ has no __init__.py: the simulator is the package ``sim``, as pytest and mypy
# name it)
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from sim.evening import run_evening
from sim.faults import CLASSES


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=1, help="how many evenings")
    parser.add_argument("--seed", type=int, default=0, help="the first seed")
    parser.add_argument("--faults", default=",".join(CLASSES),
                        help="fault classes, comma-separated ('' for none): " + ",".join(CLASSES))
    parser.add_argument("--laptops", type=int, default=None, help="2-4 (default: drawn)")
    parser.add_argument("--count", type=int, default=None,
                        help="faults per evening (default: 1-3, drawn)")
    parser.add_argument("--trace", action="store_true", help="print each evening's trace")
    parser.add_argument("--quiet", action="store_true", help="only the summary")
    args = parser.parse_args(argv)
    faults = [f for f in args.faults.split(",") if f]
    unknown = [f for f in faults if f not in CLASSES]
    if unknown:
        parser.error(f"unknown fault classes: {', '.join(unknown)}")
    injected: Counter[str] = Counter()
    broken: dict[str, list[int]] = defaultdict(list)
    by_class: dict[str, Counter[str]] = defaultdict(Counter)
    takeovers = violations = failed_seeds = 0
    began = time.perf_counter()
    for seed in range(args.seed, args.seed + args.seeds):
        out = run_evening(seed, faults, laptops=args.laptops, count=args.count)
        injected.update(out.faults)
        takeovers += out.takeovers
        if args.trace:
            for line in out.trace:
                print(*line)
        if out.violations:
            failed_seeds += 1
            violations += len(out.violations)
            for rule in sorted({v.rule for v in out.violations}):
                broken[rule].append(seed)
                for name in set(out.faults):
                    by_class[name][rule] += 1
            if not args.quiet:
                first = out.violations[0]
                print(f"seed {seed}: {out.laptops} laptops, "
                      f"faults {','.join(out.faults) or '-'}: ({first.rule}) at {first.at} s: "
                      f"{first.text}")
    took = time.perf_counter() - began
    print(f"evenings run: {args.seeds} in {took:.1f} s ({args.seeds / took:.1f}/s)")
    told = ", ".join(f"{k} {v}" for k, v in sorted(injected.items()))
    print("faults injected: " + (told or "none"))
    print(f"takeovers: {takeovers}")
    print(f"invariant violations: {violations} in {failed_seeds} evenings")
    for rule in sorted(broken):
        seeds = broken[rule]
        print(f"  ({rule}) {len(seeds)} evenings, seeds {' '.join(map(str, seeds[:10]))}"
              + (" ..." if len(seeds) > 10 else ""))
    for name in sorted(by_class):
        counts = sorted(by_class[name].items())
        print(f"  with {name}: " + ", ".join(f"({r}) {n}" for r, n in counts))
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
