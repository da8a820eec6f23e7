#!/usr/bin/env python3
"""Measure what importing a command costs at start: modules, memory and time.

For each command module (``import sorry_lan.commands.host`` is the headless host's
start: the board's imports are lazy) it starts fresh interpreters and reports, as
medians over ``--runs``: the modules loaded (and how many are prompt_toolkit's), the
resident memory after the import, the import's own time and the whole process's, each
as wall time and as CPU time (steadier on a busy machine).  The same is measured, in
the same run and interleaved, for the package as it is at ``--against`` (a git ref: its
``sorry_lan`` is exported to a temporary directory), and the ratios now/then printed.
It opens no socket.  Speed targets live here, never in tests.

    python scripts/bench_startup.py --against main --runs 9
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = ("host", "bot", "join", "list_games", "games", "rules")

#: Run in a fresh interpreter with the tree to measure first on the path.
PROBE = """
import sys, time
sys.path.insert(0, sys.argv[1])
import importlib
before, cpu = time.perf_counter(), time.process_time()
importlib.import_module("sorry_lan.commands." + sys.argv[2])
took, cpu = time.perf_counter() - before, time.process_time() - cpu
import sorry_lan
assert sorry_lan.__file__.startswith(sys.argv[1]), sorry_lan.__file__
rss = 0
with open("/proc/self/status") as status:
    for line in status:
        if line.startswith("VmRSS:"):
            rss = int(line.split()[1])
pt = sum(1 for m in sys.modules if m.split(".")[0] == "prompt_toolkit")
print(len(sys.modules), pt, rss, took, cpu)
"""


def export(ref: str, into: Path) -> str:
    """``sorry_lan`` as it is at ``ref``, written under ``into``; returns the commit."""
    commit = subprocess.run(
        ["git", "rev-parse", "--short", ref], cwd=ROOT, check=True, capture_output=True,
        text=True,
    ).stdout.strip()
    archive = subprocess.run(
        ["git", "archive", "--format=tar", commit, "sorry_lan"], cwd=ROOT, check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return commit


def measure(tree: Path, command: str) -> dict[str, float]:
    """One fresh interpreter importing ``command``'s module from ``tree``."""
    start = time.perf_counter()
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [sys.executable, "-I", "-c", PROBE, str(tree), command], check=True,
        capture_output=True, text=True, cwd=tempfile.gettempdir(),
    )
    wall = time.perf_counter() - start
    now = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = now.ru_utime + now.ru_stime - used.ru_utime - used.ru_stime
    modules, pt, rss, took, took_cpu = done.stdout.split()
    return {
        "modules": int(modules), "prompt_toolkit": int(pt), "rss_mb": int(rss) / 1024,
        "import_ms": float(took) * 1000, "import_cpu_ms": float(took_cpu) * 1000,
        "process_ms": wall * 1000, "process_cpu_ms": cpu * 1000,
    }


def medians(runs: list[dict[str, float]]) -> dict[str, float]:
    return {key: statistics.median(run[key] for run in runs) for key in runs[0]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", default="main", help="git ref to compare with")
    parser.add_argument("--runs", type=int, default=7, help="interpreters per figure")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    report: dict[str, object] = {}
    with tempfile.TemporaryDirectory() as tmp:
        then_tree = Path(tmp)
        commit = export(args.against, then_tree)
        report["against"] = f"{args.against} ({commit})"
        for command in COMMANDS:
            now: list[dict[str, float]] = []
            then: list[dict[str, float]] = []
            measure(ROOT, command)  # warm: byte code written, files in the page cache
            measure(then_tree, command)
            for _ in range(args.runs):
                now.append(measure(ROOT, command))
                then.append(measure(then_tree, command))
            a, b = medians(now), medians(then)
            ratio = {key: (a[key] / b[key] if b[key] else float("nan")) for key in a}
            report[command] = {"now": a, "then": b, "now/then": ratio}
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"import sorry_lan.commands.X, now against {report['against']}, "
          f"median of {args.runs} interpreters")
    print(f"{'command':<11} {'figure':<15} {'then':>9} {'now':>9} {'now/then':>9}")
    for command in COMMANDS:
        row = report[command]
        assert isinstance(row, dict)
        for key in row["now"]:
            then_v, now_v, r = row["then"][key], row["now"][key], row["now/then"][key]
            print(f"{command:<11} {key:<15} {then_v:>9.1f} {now_v:>9.1f} {r:>9.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
