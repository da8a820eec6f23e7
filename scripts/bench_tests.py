"""Each test lane's wall time, measured in one run on this machine.

The suite runs in lanes chosen by marker (pyproject.toml): the README's
``python -m pytest`` runs the in-memory and loopback-namespace lanes in parallel
(pytest-xdist), the ``default`` lane here; CI runs the terminal (tmux) and real-LAN
lanes as steps of their own.  This runs each lane as its own pytest
process (the same options as the README's command) and prints its tests, wall time
and CPU time (pytest, its workers and the processes they waited for; a terminal's
tmux server is not among them), so a lane that grows shows up in numbers; on a shared
machine the CPU time is the figure to compare.

    python scripts/bench_tests.py                 # every lane
    python scripts/bench_tests.py --lane memory --lane tmux
    python scripts/bench_tests.py --workers 0     # one process (no xdist)

It does not judge the times: the targets are in the README and the issue that set
them, read against what this prints.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: lane -> marker expression (the lanes partition the suite)
LANES = {
    "memory": "not netns and not tmux and not lan and not browser",
    "tmux": "tmux and not lan",
    "loopback-netns": "netns and not tmux and not lan and not browser",
    "default": "not lan and not tmux and not browser",
    "browser": "browser",
    "lan": "lan",
}
SUMMARY = re.compile(r"=+ (.*) in ([0-9.]+)s")


@dataclass(frozen=True)
class Lap:
    lane: str
    seconds: float
    cpu: float
    summary: str
    status: int
    failed: tuple[str, ...]  # pytest's FAILED and ERROR lines


def run_lane(lane: str, workers: str, extra: list[str]) -> Lap:
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
            "-m", LANES[lane], "-n", workers, *extra]  # fmt: skip
    began, used = time.perf_counter(), _children_cpu()
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, check=False)
    seconds, cpu = time.perf_counter() - began, _children_cpu() - used
    found = [m.group(1) for m in SUMMARY.finditer(done.stdout)]
    summary = found[-1] if found else (done.stdout.strip().splitlines() or ["no output"])[-1]
    failed = tuple(ln for ln in done.stdout.splitlines() if ln.startswith(("FAILED ", "ERROR ")))
    return Lap(lane, seconds, cpu, summary, done.returncode, failed)


def _children_cpu() -> float:
    """CPU seconds of the processes this one has waited for (NaN where no ``resource``)."""
    if sys.platform == "win32":
        return float("nan")
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lane", action="append", choices=list(LANES),
                        help="a lane to time (repeatable; default: all)")
    parser.add_argument("--workers", default="auto",
                        help="pytest-xdist workers per lane (default: auto; 0: none)")
    args, extra = parser.parse_known_args(argv)
    lanes = args.lane or list(LANES)
    laps = []
    for lane in lanes:
        lap = run_lane(lane, args.workers, extra)
        laps.append(lap)
        print(f"{lane:16} {lap.seconds:8.1f} s  {lap.cpu:8.1f} s CPU  {lap.summary}", flush=True)
        for line in lap.failed:
            print(f"    {line}", flush=True)
    failed = [lap.lane for lap in laps if lap.status not in (0, 5)]
    if failed:
        print(f"lanes with failures: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
