#!/usr/bin/env python3
"""Print the digests of the engine's results (``tests/rules/golden_games.py``).

Each line is ``name digest``: simulate's games per variant, player count and bot
strength, ``Game``'s games, playouts, move generation and the bots' choices.  Run it
before and after a change to the engine and compare (``diff``): the test module
``tests/rules/test_rules_golden_games.py`` pins the random and greedy digests, and
``--expert`` adds the expert's (minutes of CPU: too slow for a test).  ``--expert``
digests depend on the expert's search as it is today; a change to the expert itself
changes them.  This script writes no files.

Run from anywhere: ``python scripts/engine_golden.py [--expert]``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "rules"))  # the digests are test code

from golden_games import all_digests  # noqa: E402


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--expert", action="store_true",
                        help="also digest the expert's games and choices (slow)")
    args = parser.parse_args(argv)
    strengths = ("random", "greedy", "expert") if args.expert else ("random", "greedy")
    for name, digest in all_digests(strengths).items():
        print(name, digest, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
