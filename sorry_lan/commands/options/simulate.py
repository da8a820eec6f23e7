"""``sorry-lan simulate``'s options, read before the bots and the engine are loaded.

:mod:`sorry_lan.commands.simulate` plays the games and prints the figures.
"""

from __future__ import annotations

import argparse

from sorry_lan.bots.strengths import EXPERT_BUDGET as DEFAULT_BUDGET
from sorry_lan.commands.argtypes import examples
from sorry_lan.rules.variants import VARIANTS, Variant, either_or


def _budget_ms(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of milliseconds: {text!r}") from None
    if not 0 < value <= 60_000:
        raise argparse.ArgumentTypeError("a budget is more than 0 and at most 60000 ms")
    return value


def _variant_choices() -> str:
    """``standard, team (4 players) or points``: each variant, and its players if it
    does not seat 2 to 4."""
    every = VARIANTS["standard"].players
    return either_or([
        name if rules.players == every else f"{name} ({rules.players_wanted()} players)"
        for name, rules in VARIANTS.items()
    ])


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    parser.add_argument(
        "--players", type=int, default=2, help="players per game, 2 to 4 (default 2)"
    )
    parser.add_argument(
        "--variant",
        default="standard",
        metavar=Variant.metavar(),
        help=f"the rules: {_variant_choices()} (default standard)",
    )
    parser.add_argument(
        "--bots",
        default="random",
        help="one strength for every seat (random, greedy, expert, master) or a comma-separated "
        "list, one per seat (2 players sit red, yellow; 3 red, blue, yellow; 4 red, blue, "
        "yellow, green) or repeating evenly (default random)",
    )
    parser.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    parser.add_argument(
        "--jobs", type=int, default=None,
        help="processes to play on (default: all cores); the results do not depend on it",
    )
    parser.add_argument(
        "--budget-ms", type=_budget_ms, default=1000 * DEFAULT_BUDGET,
        help=f"the expert's time per decision (default {1000 * DEFAULT_BUDGET:g} ms)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    examples(
        parser,
        ("sorry-lan simulate --games 1000 --players 4 --bots greedy,random,random,random", ""),
        ("sorry-lan simulate --variant points --json | python -m json.tool", ""),
    )


def run(args: argparse.Namespace) -> int:
    """Play the games: :func:`sorry_lan.commands.simulate.run`."""
    from sorry_lan.commands import simulate

    return simulate.run(args)
