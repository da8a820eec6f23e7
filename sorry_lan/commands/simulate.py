"""``sorry-lan simulate``: play bot games locally and print statistics.

Plays ``--games`` games of one variant between bots (one strength for every seat, or
one per seat), on ``--jobs`` processes, then prints the wins per seat and per bot
strength (with a 95% confidence interval), the average number of turns, the games
per second and each strength's decision times, as a table or (``--json``) one JSON
object.  Game ``i`` has its own seed drawn from ``--seed``, and the bots move round
the table from game to game (the strength listed for red sits at blue in the next
game, and so on, and the first player rotates too) so no seat's first-turn edge
favours a strength.  The results do not depend on ``--jobs``.

Games run through the engine's fast loop (``rules.playout.run_game``), which plays
exactly as ``Game`` does.  A decision with a single legal move is played without
asking the bot, so it is neither timed nor counted among the decision times.  This
command opens no network connection and writes no files.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from sorry_lan.errors import SorryLanError

from ..bots import Bot, Position, UnknownBotError, bot_kinds, make_bot
from ..bots.expert import DEFAULT_BUDGET
from ..rules.board import Colour
from ..rules.cards import Card
from ..rules.moves import Move
from ..rules.playout import Decider, run_game
from ..rules.variants import Variant

# Seats by player count: two players sit opposite each other.
SEATING: dict[int, tuple[int, ...]] = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}
MAX_TURNS = 100_000  # far beyond any real game; stops a runaway loop with an error
Z95 = 1.959963984540054


class SimulationError(SorryLanError, ValueError):
    """The simulation settings are invalid (a usage error, exit status 2)."""


def wilson(wins: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate of ``wins`` out of ``n``."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class Stats:
    """What a batch of games produced."""

    variant: Variant
    seated: tuple[int, ...]
    kinds: tuple[str, ...]  # the strength of each seat in game 0
    games: int = 0
    seat_wins: dict[int, int] = field(default_factory=dict)
    seat_scores: dict[int, int] = field(default_factory=dict)
    kind_wins: dict[str, int] = field(default_factory=dict)  # games won by a strength
    kind_scores: dict[str, int] = field(default_factory=dict)
    turns: int = 0
    moves: int = 0
    seconds: float = 0.0
    times: dict[str, list[float]] = field(default_factory=dict)  # decision seconds
    # The same decisions on the deciding thread's CPU clock: what the bot itself spent,
    # without the time a busy machine gave to other processes.
    cpu_times: dict[str, list[float]] = field(default_factory=dict)
    cut_short: int = 0  # search decisions (expert, master) the clock ended before its work limit

    def merge(self, other: Stats) -> None:
        self.games += other.games
        for seat_total, seat_part in (
            (self.seat_wins, other.seat_wins), (self.seat_scores, other.seat_scores),
        ):
            for c, v in seat_part.items():
                seat_total[c] = seat_total.get(c, 0) + v
        for kind_total, kind_part in (
            (self.kind_wins, other.kind_wins), (self.kind_scores, other.kind_scores),
        ):
            for k, v in kind_part.items():
                kind_total[k] = kind_total.get(k, 0) + v
        self.turns += other.turns
        self.moves += other.moves
        for mine, theirs in ((self.times, other.times), (self.cpu_times, other.cpu_times)):
            for kind, values in theirs.items():
                mine.setdefault(kind, []).extend(values)
        self.cut_short += other.cut_short

    def outcome(self) -> dict[str, Any]:
        """Everything that depends only on the seed (not on timing or ``--jobs``)."""
        return {
            "games": self.games,
            "seat_wins": sorted(self.seat_wins.items()),
            "seat_scores": sorted(self.seat_scores.items()),
            "kind_wins": sorted(self.kind_wins.items()),
            "kind_scores": sorted(self.kind_scores.items()),
            "turns": self.turns,
            "moves": self.moves,
        }

    def as_json(self) -> dict[str, Any]:
        n = max(self.games, 1)
        seats_of = {kind: self.kinds.count(kind) for kind in self.kinds}
        bots = {}
        for kind in dict.fromkeys(self.kinds):
            wins = self.kind_wins.get(kind, 0)
            lo, hi = wilson(wins, self.games)
            bots[kind] = {
                "seats": seats_of[kind],
                "wins": wins,
                "win_rate": wins / n,
                "win_rate_ci95": [lo, hi],
                "average_score": self.kind_scores.get(kind, 0) / (n * seats_of[kind]),
                "decision_ms": time_summary(self.times.get(kind, [])),
                "decision_cpu_ms": time_summary(self.cpu_times.get(kind, [])),
            }
        return {
            "games": self.games,
            "variant": self.variant.value,
            "players": len(self.seated),
            "seats": [
                {
                    "colour": Colour(c).label,
                    "wins": self.seat_wins.get(c, 0),
                    "win_rate": self.seat_wins.get(c, 0) / n,
                    "average_score": self.seat_scores.get(c, 0) / n,
                }
                for c in self.seated
            ],
            "bots": bots,
            "expert_cut_short": self.cut_short,
            "average_turns": self.turns / n,
            "average_moves": self.moves / n,
            "seconds": self.seconds,
            "games_per_second": self.games / self.seconds if self.seconds > 0 else None,
        }


def time_summary(seconds: Sequence[float]) -> dict[str, Any]:
    """Count, mean, p95 and max of decision times, in milliseconds (None when empty)."""
    times = sorted(seconds)
    n = len(times)
    return {
        "count": n,
        "mean": 1000 * statistics.fmean(times) if times else None,
        "p95": 1000 * times[min(n - 1, int(0.95 * n))] if times else None,
        "max": 1000 * times[-1] if times else None,
    }


def parse_bots(text: str, players: int) -> tuple[str, ...]:
    """``'greedy'`` -> that strength for every seat; ``'expert,greedy'`` -> one per seat
    (a list shorter than the table repeats: ``expert,greedy`` at 4 players is expert,
    greedy, expert, greedy -- two teams in team play)."""
    kinds = tuple(k.strip().lower() for k in text.split(","))
    if any(not k for k in kinds):
        raise SimulationError(f"--bots {text!r} has an empty bot kind")
    known = bot_kinds()
    for kind in kinds:
        if kind not in known:
            raise SimulationError(f"unknown bot kind {kind!r} (choose {', '.join(known)})")
    if len(kinds) == 1:
        return kinds * players
    if players % len(kinds) != 0:
        raise SimulationError(
            f"--bots lists {len(kinds)} bots for {players} players "
            "(give one kind for every seat, one per seat, or a list that repeats evenly)"
        )
    return kinds * (players // len(kinds))


def _seats(kinds: Sequence[str], seated: Sequence[int], i: int) -> tuple[dict[int, str], int]:
    """Game ``i``'s strength per colour and first player: both rotate game by game."""
    n = len(seated)
    shift = i % n
    by_colour = {seated[(k + shift) % n]: kind for k, kind in enumerate(kinds)}
    return by_colour, seated[(i // n) % n]


_new = tuple.__new__
_clock = time.perf_counter
_cpu = time.thread_time
#: The strengths whose decisions are also timed on the thread's CPU clock: searches,
#: which take milliseconds.  Reading that clock is a system call (about 1 us here,
#: where the wall clock costs 0.09 us): for the one-move judges, whose decisions take
#: a few microseconds, it cost simulate 14% of its speed and measured mostly itself.
CPU_TIMED = frozenset({"expert", "master"})


def seat_decider(
    variant: Variant, seated: tuple[int, ...], bots: dict[int, Bot],
    times: dict[int, list[float]], cpu_times: dict[int, list[float]],
) -> Decider:
    """What ``run_game`` asks at each decision: the bot at the seat to move, given the
    :class:`Position` it may see, its decision timed into ``times`` (wall clock) and,
    for a strength in :data:`CPU_TIMED`, ``cpu_times`` (the thread's CPU clock) of that
    seat."""
    choose: list[Callable[[Position, Sequence[Move]], Move] | None] = [None] * 4
    note: list[Callable[[float], None] | None] = [None] * 4
    note_cpu: list[Callable[[float], None] | None] = [None] * 4
    for c, bot in bots.items():
        choose[c] = bot.choose
        note[c] = times[c].append
        if bot.kind in CPU_TIMED:
            note_cpu[c] = cpu_times[c].append

    def decide(pawns: tuple[int, ...], turn: int, cards: tuple[Card, ...], after_two: bool,
               discards: list[int], moves: list[Move]) -> Move:
        # tuple.__new__ skips the NamedTuple's Python-level __new__ (the hot path).
        position = _new(Position, (variant, seated, pawns, turn, cards, after_two,
                                   tuple(discards)))
        started = _clock()
        on_cpu = note_cpu[turn]
        if on_cpu is None:
            move = choose[turn](position, moves)  # type: ignore[misc]
        else:
            cpu = _cpu()
            move = choose[turn](position, moves)  # type: ignore[misc]
            on_cpu(_cpu() - cpu)
        note[turn](_clock() - started)  # type: ignore[misc]
        return move

    return decide


def play_games(
    variant: Variant, kinds: Sequence[str], seeds: Sequence[tuple[int, int, int]],
    budget: float = DEFAULT_BUDGET,
) -> Stats:
    """Play the games ``(index, game seed, bot seed)`` with strengths ``kinds``.

    A decision with one legal move is played without asking (or timing) the bot."""
    seated = SEATING[len(kinds)]
    stats = Stats(variant, seated, tuple(kinds))
    rules = variant.rules
    for i, game_seed, bot_seed in seeds:
        by_colour, first = _seats(kinds, seated, i)
        bots = {c: make_bot(by_colour[c], bot_seed + c, budget=budget) for c in seated}
        times = {c: stats.times.setdefault(by_colour[c], []) for c in seated}
        cpu_times = {c: stats.cpu_times.setdefault(by_colour[c], []) for c in seated}
        decide = seat_decider(variant, seated, bots, times, cpu_times)
        result = run_game(variant, seated, game_seed, decide, first, MAX_TURNS,
                          ask_forced=False)
        stats.games += 1
        stats.turns += result.turns
        stats.moves += result.moves
        winners = rules.winners(result.winner)
        for c in winners:
            stats.seat_wins[c] = stats.seat_wins.get(c, 0) + 1
        kind = by_colour[result.winner]
        stats.kind_wins[kind] = stats.kind_wins.get(kind, 0) + 1
        for c, points in result.scores.items():
            stats.seat_scores[c] = stats.seat_scores.get(c, 0) + points
            stats.kind_scores[by_colour[c]] = stats.kind_scores.get(by_colour[c], 0) + points
        stats.cut_short += sum(getattr(b, "cut_short", 0) for b in bots.values())
    return stats


def _chunk(args: tuple[Variant, tuple[str, ...], list[tuple[int, int, int]], float]) -> Stats:
    return play_games(*args)


def default_jobs() -> int:
    return os.cpu_count() or 1


def simulate(
    games: int, variant: Variant, kinds: Sequence[str], seed: int, jobs: int = 1,
    budget: float = DEFAULT_BUDGET,
) -> Stats:
    """Play ``games`` games with bots ``kinds`` (one per seat, red first, in game 0)."""
    seated = SEATING.get(len(kinds))
    if seated is None:
        raise SimulationError(f"a game needs 2 to 4 players, not {len(kinds)}")
    if len(seated) not in variant.rules.players:
        rules = variant.rules
        raise SimulationError(f"{rules.title} needs {rules.players_wanted()} players")
    rng = random.Random(seed)
    seeds = [(i, rng.getrandbits(63), rng.getrandbits(32) * 4) for i in range(games)]
    started = time.perf_counter()
    kinds = tuple(kinds)
    if jobs <= 1 or games < 2:
        stats = play_games(variant, kinds, seeds, budget)
    else:
        jobs = min(jobs, games)
        # Interleaved chunks: game i goes to process i % jobs, so each gets a fair mix.
        chunks = [(variant, kinds, seeds[j::jobs], budget) for j in range(jobs)]
        stats = Stats(variant, seated, kinds)
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for part in pool.map(_chunk, chunks):
                stats.merge(part)
    stats.seconds = time.perf_counter() - started
    return stats


def format_table(stats: Stats) -> str:
    data = stats.as_json()
    score_name = "avg points" if stats.variant.rules.scores_points else "avg pawns home"
    lines = [
        f"{stats.games} games, {stats.variant.value}, {len(stats.seated)} players "
        "(strengths rotate round the seats)",
        "",
        f"{'seat':<8} {'wins':>6} {'win %':>7} {score_name:>15}",
    ]
    for seat in data["seats"]:
        lines.append(
            f"{seat['colour']:<8} {seat['wins']:>6} "
            f"{100 * seat['win_rate']:>6.1f}% {seat['average_score']:>15.2f}"
        )
    lines += [
        "",
        f"{'bot':<8} {'seats':>5} {'wins':>6} {'win %':>7} {'95% CI':>15} {score_name:>15}"
        f" {'ms mean':>8} {'p95':>7} {'max':>7}",
    ]
    for kind, row in data["bots"].items():
        lo, hi = row["win_rate_ci95"]
        ms = row["decision_ms"]
        timing = (f" {ms['mean']:>8.2f} {ms['p95']:>7.2f} {ms['max']:>7.2f}"
                  if ms["count"] else "")
        lines.append(
            f"{kind:<8} {row['seats']:>5} {row['wins']:>6} {100 * row['win_rate']:>6.1f}%"
            f" {f'{100 * lo:.1f}-{100 * hi:.1f}%':>15} {row['average_score']:>15.2f}{timing}"
        )
    if stats.variant.rules.partners:
        lines.append("(team play: a win counts for both partners)")
    gps = data["games_per_second"]
    lines += [
        "",
        f"average turns: {data['average_turns']:.1f}  (moves: {data['average_moves']:.1f})",
        f"games per second: {gps:.1f}" if gps is not None else "games per second: n/a",
    ]
    if stats.cut_short:
        lines.append(f"search decisions cut short by the clock: {stats.cut_short}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    try:
        if args.games < 1:
            raise SimulationError(f"--games must be at least 1, not {args.games}")
        if args.players not in SEATING:
            raise SimulationError(f"--players must be 2, 3 or 4, not {args.players}")
        jobs = default_jobs() if args.jobs is None else args.jobs
        if jobs < 1:
            raise SimulationError(f"--jobs must be at least 1, not {args.jobs}")
        try:
            variant = Variant.parse(args.variant)
        except ValueError as exc:
            raise SimulationError(str(exc)) from None
        if args.players not in variant.rules.players:
            raise SimulationError(
                f"{variant.rules.title} needs --players {variant.rules.players_wanted()}"
            )
        kinds = parse_bots(args.bots, args.players)
        stats = simulate(args.games, variant, kinds, args.seed, jobs, args.budget_ms / 1000)
    except (SimulationError, UnknownBotError) as exc:
        print(f"sorry-lan simulate: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(stats.as_json()))
    else:
        print(format_table(stats))
    return 0
