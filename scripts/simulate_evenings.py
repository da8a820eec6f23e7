#!/usr/bin/env python3
"""Simulate evenings of 2-4 laptops playing one table, with faults (issue 31).

    scripts/simulate_evenings.py --seeds 100 [--seed 7] [--faults crash,sleep]
    scripts/simulate_evenings.py --seed 123 --trace     # replay one seed, print its trace
    scripts/simulate_evenings.py --seeds 10000 --jobs 2 # seeds shared by 2 processes
    scripts/simulate_evenings.py --seeds 40 --records   # and do the laptops' games agree?

Prints the evenings run, the faults injected (by class), the takeovers, and every
invariant violation with the seed that shows it (replay it with ``--seed S
--seeds 1 --trace``).  With ``--records`` each evening ends by setting side by side
what its laptops kept of the game (``sim.kept``: the listing, the scoreboard, the
records; issue 32) and the laptops x games that disagree are counted.  Deterministic:
one seed, one trace; ``--jobs N`` runs the seeds in N worker processes and prints what
one process would (but the time).
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
# (tests/ has no __init__.py: the simulator is the package ``sim``, as pytest and mypy
# name it)
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from sim.evening import run_evening
from sim.faults import CLASSES
from sim.invariants import Violation
from sim.kept import Agreement


@dataclass(frozen=True)
class Ran:
    """What the summary needs of one evening (small: it comes back from a worker)."""

    seed: int
    laptops: int
    faults: list[str]
    takeovers: int
    violations: list[Violation]
    trace: list[str]  # its lines as printed (only with --trace)
    agreement: Agreement | None = None  # (only with --records)


def _tune_gc() -> None:
    """Fewer collections: an evening makes many short-lived objects and few cycles
    (about a tenth of the time went to collecting them; the results are the same)."""
    gc.freeze()
    gc.set_threshold(20_000, 50, 1000)


def _evening(seed: int, faults: list[str], laptops: int | None, count: int | None,
             trace: bool, records: bool = False) -> Ran:  # fmt: skip
    out = run_evening(seed, faults, laptops=laptops, count=count, records=records)
    lines = [" ".join(map(str, line)) for line in out.trace] if trace else []
    return Ran(seed, out.laptops, out.faults, out.takeovers, out.violations, lines,
               out.agreement)  # fmt: skip


def _evenings(args: argparse.Namespace, faults: list[str]) -> Iterator[Ran]:
    """Each evening's result, in the order of the seeds, from ``args.jobs`` processes."""
    seeds = range(args.seed, args.seed + args.seeds)
    jobs = min(args.jobs, len(seeds))
    if jobs <= 1:
        _tune_gc()
        for seed in seeds:
            yield _evening(seed, faults, args.laptops, args.count, args.trace, args.records)
        return
    n = len(seeds)
    with ProcessPoolExecutor(max_workers=jobs, initializer=_tune_gc) as pool:
        yield from pool.map(_evening, seeds, [faults] * n, [args.laptops] * n,
                            [args.count] * n, [args.trace] * n, [args.records] * n,
                            chunksize=max(1, min(16, n // (8 * jobs))))


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
    parser.add_argument("--records", action="store_true",
                        help="compare what each laptop kept of the game at the end")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="worker processes (default: one a CPU)")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error("--jobs must be 1 or more")
    faults = [f for f in args.faults.split(",") if f]
    unknown = [f for f in faults if f not in CLASSES]
    if unknown:
        parser.error(f"unknown fault classes: {', '.join(unknown)}")
    injected: Counter[str] = Counter()
    broken: dict[str, list[int]] = defaultdict(list)
    by_class: dict[str, Counter[str]] = defaultdict(Counter)
    takeovers = violations = failed_seeds = 0
    pairs = disagree = split = moved = 0
    began = time.perf_counter()
    for out in _evenings(args, faults):
        seed = out.seed
        injected.update(out.faults)
        takeovers += out.takeovers
        if out.agreement is not None:
            moved += out.takeovers > 0
            pairs += out.agreement.pairs
            disagree += out.agreement.disagree
            if out.agreement.disagree:
                split += 1
                if not args.quiet:
                    print(f"seed {seed}: kept records disagree: {out.agreement.texts[0]}")
        if args.trace:
            for line in out.trace:
                print(line)
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
    if args.records:
        print(f"kept records: {disagree} laptops x games disagree of {pairs}, in {split} "
              f"evenings ({moved} evenings with a takeover)")
    for rule in sorted(broken):
        seeds = broken[rule]
        print(f"  ({rule}) {len(seeds)} evenings, seeds {' '.join(map(str, seeds[:10]))}"
              + (" ..." if len(seeds) > 10 else ""))
    for name in sorted(by_class):
        counts = sorted(by_class[name].items())
        print(f"  with {name}: " + ", ".join(f"({r}) {n}" for r, n in counts))
    return 1 if violations or disagree else 0


if __name__ == "__main__":
    sys.exit(main())
