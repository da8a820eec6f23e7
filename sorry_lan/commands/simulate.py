"""``sorry-lan simulate``: play bot games locally and print statistics.

Plays ``--games`` games of one variant between bots (one kind for every seat, or one
per seat), then prints the wins per seat and per bot kind, the average number of
turns and the games per second, as a table or (``--json``) one JSON object.  Game
``i`` uses a seed derived from ``--seed`` and ``i``, so a run is reproducible.

This command opens no network connection and writes no files.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sorry_lan.errors import SorryLanError

from ..bots import UnknownBotError, bot_kinds, make_bot
from ..rules.board import Colour
from ..rules.game import Game
from ..rules.variants import Variant

# Seats by player count: two players sit opposite each other.
SEATING: dict[int, tuple[int, ...]] = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}
MAX_TURNS = 100_000  # far beyond any real game; stops a runaway loop with an error


class SimulationError(SorryLanError, ValueError):
    """The simulation settings are invalid (a usage error, exit status 2)."""


@dataclass
class Stats:
    """What a batch of games produced."""

    variant: Variant
    seated: tuple[int, ...]
    kinds: tuple[str, ...]
    games: int = 0
    seat_wins: dict[int, int] = field(default_factory=dict)
    seat_scores: dict[int, int] = field(default_factory=dict)
    turns: int = 0
    moves: int = 0
    seconds: float = 0.0

    def kind_wins(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for colour, kind in zip(self.seated, self.kinds, strict=True):
            out[kind] = out.get(kind, 0) + self.seat_wins.get(colour, 0)
        return out

    def as_json(self) -> dict[str, Any]:
        n = max(self.games, 1)
        return {
            "games": self.games,
            "variant": self.variant.value,
            "players": len(self.seated),
            "seats": [
                {
                    "colour": Colour(c).label,
                    "bot": kind,
                    "wins": self.seat_wins.get(c, 0),
                    "win_rate": self.seat_wins.get(c, 0) / n,
                    "average_score": self.seat_scores.get(c, 0) / n,
                }
                for c, kind in zip(self.seated, self.kinds, strict=True)
            ],
            "bots": {
                kind: {"seats": self.kinds.count(kind), "wins": wins}
                for kind, wins in self.kind_wins().items()
            },
            "average_turns": self.turns / n,
            "average_moves": self.moves / n,
            "seconds": self.seconds,
            "games_per_second": self.games / self.seconds if self.seconds > 0 else None,
        }


def parse_bots(text: str, players: int) -> tuple[str, ...]:
    """``'greedy'`` -> that kind for every seat; ``'greedy,random'`` -> one per seat."""
    kinds = tuple(k.strip().lower() for k in text.split(","))
    if any(not k for k in kinds):
        raise SimulationError(f"--bots {text!r} has an empty bot kind")
    known = bot_kinds()
    for kind in kinds:
        if kind not in known:
            raise SimulationError(f"unknown bot kind {kind!r} (choose {', '.join(known)})")
    if len(kinds) == 1:
        return kinds * players
    if len(kinds) != players:
        raise SimulationError(
            f"--bots lists {len(kinds)} bots for {players} players "
            "(give one kind for every seat, or one per seat)"
        )
    return kinds


def simulate(
    games: int, variant: Variant, kinds: Sequence[str], seed: int
) -> Stats:
    """Play ``games`` games with bots ``kinds`` (one per seat, red first)."""
    seated = SEATING.get(len(kinds))
    if seated is None:
        raise SimulationError(f"a game needs 2 to 4 players, not {len(kinds)}")
    if variant is Variant.TEAM and len(seated) != 4:
        raise SimulationError("team play needs 4 players")
    stats = Stats(variant, seated, tuple(kinds))
    seeds = random.Random(seed)
    started = time.perf_counter()
    for _ in range(games):
        game_seed = seeds.getrandbits(63)
        game = Game(variant, seated, seed=game_seed)
        bots = {
            c: make_bot(kind, seeds.getrandbits(63))
            for c, kind in zip(seated, kinds, strict=True)
        }
        game.start()
        while not game.over:
            if game.turn_number > MAX_TURNS:
                raise RuntimeError(f"game with seed {game_seed} ran past {MAX_TURNS} turns")
            game.play(bots[game.turn].choose(game, game.legal_moves()))
        stats.games += 1
        stats.turns += game.turn_number
        stats.moves += game.moves_played
        for c in game.winners:
            stats.seat_wins[c] = stats.seat_wins.get(c, 0) + 1
        for c, points in game.final_scores.items():
            stats.seat_scores[c] = stats.seat_scores.get(c, 0) + points
    stats.seconds = time.perf_counter() - started
    return stats


def format_table(stats: Stats) -> str:
    data = stats.as_json()
    n = max(stats.games, 1)
    score_name = "avg points" if stats.variant is Variant.POINTS else "avg pawns home"
    lines = [
        f"{stats.games} games, {stats.variant.value}, {len(stats.seated)} players",
        "",
        f"{'seat':<8} {'bot':<8} {'wins':>6} {'win %':>7} {score_name:>15}",
    ]
    for seat in data["seats"]:
        lines.append(
            f"{seat['colour']:<8} {seat['bot']:<8} {seat['wins']:>6} "
            f"{100 * seat['win_rate']:>6.1f}% {seat['average_score']:>15.2f}"
        )
    lines += ["", f"{'bot':<8} {'seats':>5} {'wins':>6} {'win %':>7}"]
    for kind, row in data["bots"].items():
        lines.append(
            f"{kind:<8} {row['seats']:>5} {row['wins']:>6} {100 * row['wins'] / n:>6.1f}%"
        )
    if stats.variant is Variant.TEAM:
        lines.append("(team play: a win counts for both partners)")
    gps = data["games_per_second"]
    lines += [
        "",
        f"average turns: {data['average_turns']:.1f}  (moves: {data['average_moves']:.1f})",
        f"games per second: {gps:.1f}" if gps is not None else "games per second: n/a",
    ]
    return "\n".join(lines)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    parser.add_argument(
        "--players", type=int, default=2, help="players per game, 2 to 4 (default 2)"
    )
    parser.add_argument(
        "--variant", default="standard", help="standard, team (4 players) or points"
    )
    parser.add_argument(
        "--bots",
        default="random",
        help="one bot kind for every seat (random, greedy) or a comma-separated list, "
        "one per seat: 2 players sit red, yellow; 3 red, blue, yellow; 4 red, blue, "
        "yellow, green (default random)",
    )
    parser.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    try:
        if args.games < 1:
            raise SimulationError(f"--games must be at least 1, not {args.games}")
        if args.players not in SEATING:
            raise SimulationError(f"--players must be 2, 3 or 4, not {args.players}")
        try:
            variant = Variant.parse(args.variant)
        except ValueError as exc:
            raise SimulationError(str(exc)) from None
        if variant is Variant.TEAM and args.players != 4:
            raise SimulationError("team play needs --players 4")
        kinds = parse_bots(args.bots, args.players)
        stats = simulate(args.games, variant, kinds, args.seed)
    except (SimulationError, UnknownBotError) as exc:
        print(f"sorry-lan simulate: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(stats.as_json()))
    else:
        print(format_table(stats))
    return 0
