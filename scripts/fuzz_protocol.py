#!/usr/bin/env python3
"""Fuzz the wire codec and the host session with hostile input for a while.

Each round builds one hostile byte string (``tests/wire/wire_fuzzing.py``), feeds it in
random chunks to a fresh decoder and a fresh host session, and checks that only the
protocol's typed errors appear, that buffers stay bounded and that no single input
takes long.  Prints inputs/s, frames/s and every failure with its seed; exits 1 if
anything failed.

    python scripts/fuzz_protocol.py --seconds 60 [--seed N]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "wire"))  # the sample messages are test data

from wire_fuzzing import check_and_count, hostile_input  # noqa: E402

SLOW_INPUT = 0.5  # seconds: one input taking longer than this counts as a hang


def run(seconds: float, seed: int, *, max_failures: int = 20) -> tuple[int, int, int, list[str]]:
    """Fuzz for ``seconds``; return (inputs, frames offered, bytes, failure lines)."""
    inputs = frames = total = 0
    failures: list[str] = []
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline and len(failures) < max_failures:
        case_seed = seed * 1_000_003 + inputs
        rng = random.Random(case_seed)
        data = hostile_input(rng)
        start = time.perf_counter()
        problem, judged = check_and_count(data, rng)
        took = time.perf_counter() - start
        if problem is None and took > SLOW_INPUT:
            problem = f"took {took:.2f}s for {len(data)} bytes"
        if problem is not None:
            failures.append(f"case seed {case_seed}: {problem}")
        inputs += 1
        total += len(data)
        frames += judged
    return inputs, frames, total, failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="fuzz the sorry-lan wire protocol")
    parser.add_argument("--seconds", type=float, default=10.0, help="how long to run")
    parser.add_argument("--seed", type=int, default=None, help="base seed (default: random)")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.randrange(2**31)
    print(f"fuzzing for {args.seconds:g}s, seed {seed}")
    start = time.perf_counter()
    inputs, frames, total, failures = run(args.seconds, seed)
    elapsed = max(time.perf_counter() - start, 1e-9)
    print(
        f"{inputs} inputs ({inputs / elapsed:,.0f}/s), {frames} frames "
        f"({frames / elapsed:,.0f} frames/s), {total / elapsed / 1e6:.2f} MB/s"
    )
    for line in failures:
        print("FAIL", line)
    print(f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
