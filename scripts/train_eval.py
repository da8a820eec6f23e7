#!/usr/bin/env python3
"""Fit the learned evaluation's weights from self-play and write ``weights.json``.

For each model (standard 2, 3 and 4 players, team play, play for points) it plays
seeded greedy-against-greedy games with the engine's fast loop (``run_game``) on
``--jobs`` processes (the examples do not depend on how many) and keeps one decision
in ``stride`` as an example: each side's features at the start of that turn (before
the card is drawn; in play for points with the mover's hand) and which side went on to
win.  It fits the weights (:func:`fit`: stochastic gradient descent on the softmax's
log loss, AdaGrad steps, a small L2 penalty, a seeded order; pure Python, one process,
so the same examples and seed give the same weights bit for bit) and prints the
learning curve (held-out log loss and accuracy against the training positions seen),
a calibration table on the held-out positions (:func:`calibration`) and the time each
step took.  The weights' checksum is printed last; ``--write`` stores the weights,
that checksum and :data:`PARAMS` in ``sorry_lan/bots/weights.json``, ``--check`` fails
unless the shipped file holds exactly what this run made.  ``--scale`` plays a share
of the games (a quick fit).

This script does not tune the search or play bots against each other
(``scripts/bench_bots.py`` does).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sorry_lan.bots import evaluation
from sorry_lan.bots.base import Position
from sorry_lan.bots.evaluation import FEATURES, Evaluator
from sorry_lan.bots.greedy import GreedyBot
from sorry_lan.rules.cards import Card
from sorry_lan.rules.moves import Move
from sorry_lan.rules.playout import run_game
from sorry_lan.rules.variants import Variant

# -- the examples, the fit, the calibration ----------------------------------------

SEATING: dict[int, tuple[int, ...]] = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}

Features = tuple[tuple[int, float], ...]


class Example(NamedTuple):
    """One position: each side's sparse features, and the index of the side that won."""

    sides: tuple[Features, ...]
    winner: int


def game_seeds(seed: int, games: int) -> list[int]:
    """The game seeds a master seed gives (the first ``games`` of one stream)."""
    rng = random.Random(seed)
    return [rng.getrandbits(63) for _ in range(games)]


def play(variant: Variant, players: int, game_seed: int, stride: int) -> list[Example]:
    """One greedy-against-greedy game, every ``stride``-th decision kept as an example
    (starting at a place fixed by the seed)."""
    seated = SEATING[players]
    ev = Evaluator(variant, seated, [0.0] * FEATURES)
    bots = {c: GreedyBot(game_seed % 1000 + c) for c in seated}
    seen: list[tuple[tuple[int, ...], int, tuple[Card, ...] | None]] = []
    points = variant.rules.deals_hands
    count = [game_seed % stride]

    def decide(pawns: tuple[int, ...], turn: int, cards: tuple[Card, ...], after_two: bool,
               discards: list[int], moves: list[Move]) -> Move:
        if count[0] % stride == 0:
            seen.append((pawns, turn, cards if points else None))
        count[0] += 1
        position = Position(variant, seated, pawns, turn, cards, after_two, tuple(discards))
        return bots[turn].choose(position, moves)

    result = run_game(variant, seated, game_seed, decide)
    won = ev.side_of[result.winner]
    out: list[Example] = []
    for pawns, turn, hand in seen:
        sides = tuple(tuple(sorted(f.items())) for f in ev.features(pawns, turn, hand))
        out.append(Example(sides, won))
    return out


def positions(variant: Variant, players: int, seeds: Sequence[int],
              stride: int) -> list[Example]:
    """The examples of the games ``seeds``, in order."""
    out: list[Example] = []
    for s in seeds:
        out += play(variant, players, s, stride)
    return out


def side_chances(weights: Sequence[float], example: Example) -> list[float]:
    """The softmax of each side's score for ``example`` under ``weights``."""
    z = [sum(weights[i] * v for i, v in f) for f in example.sides]
    top = max(z)
    e = [math.exp(v - top) for v in z]
    total = sum(e)
    return [v / total for v in e]


class Scores(NamedTuple):
    """How well weights predict held-out examples."""

    log_loss: float  # mean -ln(chance given to the side that won)
    accuracy: float  # share of examples whose likeliest side won


def score(weights: Sequence[float], examples: Sequence[Example]) -> Scores:
    loss = 0.0
    right = 0
    for ex in examples:
        p = side_chances(weights, ex)
        loss -= math.log(max(p[ex.winner], 1e-12))
        right += max(range(len(p)), key=p.__getitem__) == ex.winner
    n = max(len(examples), 1)
    return Scores(loss / n, right / n)


def fit(examples: Sequence[Example], seed: int, epochs: int = 3, rate: float = 0.05,
        l2: float = 1e-6, report: Callable[[int, list[float]], None] | None = None,
        checkpoints: Sequence[int] = ()) -> list[float]:
    """The weights that (about) minimise the log loss on ``examples``.

    AdaGrad: each weight's step is ``rate`` over the root of its summed squared
    gradients, so rare features (a pawn deep in the safety zone) still learn.
    ``report(seen, weights)`` is called after each of ``checkpoints`` examples seen
    and at the end of each epoch."""
    w = [0.0] * FEATURES
    g2 = [1e-8] * FEATURES
    order = list(range(len(examples)))
    rng = random.Random(seed)
    marks = set(checkpoints)
    seen = 0
    for _ in range(epochs):
        rng.shuffle(order)
        for j in order:
            ex = examples[j]
            p = side_chances(w, ex)
            for k, f in enumerate(ex.sides):
                d = p[k] - (1.0 if k == ex.winner else 0.0)
                for i, v in f:
                    g = d * v + l2 * w[i]
                    g2[i] += g * g
                    w[i] -= rate * g / math.sqrt(g2[i])
            seen += 1
            if report is not None and seen in marks:
                report(seen, w)
        if report is not None and seen not in marks:
            report(seen, w)
    return w


class Decile(NamedTuple):
    """One row of a calibration table."""

    low: float
    high: float
    size: int  # chances in the bin
    predicted: float  # mean chance given
    observed: float  # share that won


def calibration(weights: Sequence[float], examples: Sequence[Example],
                bins: int = 10) -> list[Decile]:
    """Every side's chance in ``examples`` against whether it won, in ``bins`` equal
    bins of the chance (0-10%, 10-20%, ...)."""
    sums = [[0, 0.0, 0] for _ in range(bins)]
    for ex in examples:
        for k, p in enumerate(side_chances(weights, ex)):
            b = min(int(p * bins), bins - 1)
            row = sums[b]
            row[0] += 1
            row[1] += p
            row[2] += k == ex.winner
    out = []
    for b, (n, total, won) in enumerate(sums):
        out.append(Decile(b / bins, (b + 1) / bins, int(n),
                          total / n if n else 0.0, won / n if n else 0.0))
    return out


# -- the run ----------------------------------------------------------------------

WEIGHTS = Path(evaluation.__file__).with_name(evaluation.WEIGHTS_FILE)

#: Everything that decides the weights.  A test reads these from the shipped file and
#: checks they are the ones this script uses by default.
PARAMS: dict[str, Any] = {
    "seed": 24,
    "epochs": 3,
    "rate": 0.05,
    "l2": 1e-6,
    "held_out_games": 0.1,  # share of each model's games kept out of the fit
    # model: (variant, players, games, stride: one decision in this many kept)
    "models": {
        "standard-2": ["standard", 2, 20000, 5],
        "standard-3": ["standard", 3, 6000, 6],
        "standard-4": ["standard", 4, 6000, 8],
        "team-4": ["team", 4, 6000, 8],
        "points-2": ["points", 2, 16000, 4],
    },
}
CHECKPOINTS = (1_000, 3_000, 10_000, 30_000, 100_000, 300_000)


def _chunk(args: tuple[str, int, list[int], int]) -> list[Example]:
    variant, players, seeds, stride = args
    return positions(Variant(variant), players, seeds, stride)


def examples(variant: str, players: int, seeds: list[int], stride: int,
             jobs: int) -> list[Example]:
    """The examples of ``seeds``, in seed order, made on ``jobs`` processes."""
    if jobs <= 1:
        return _chunk((variant, players, seeds, stride))
    size = max(1, len(seeds) // (4 * jobs))
    chunks = [(variant, players, seeds[i:i + size], stride)
              for i in range(0, len(seeds), size)]
    out: list[Example] = []
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for part in pool.map(_chunk, chunks):
            out += part
    return out


def train(name: str, params: dict[str, Any], scale: float, jobs: int,
          quiet: bool = False) -> list[float]:
    """Fit one model; prints its learning curve and calibration unless ``quiet``."""
    variant, players, games, stride = params["models"][name]
    games = max(4, round(games * scale))
    seeds = game_seeds(params["seed"] * 1000 + list(params["models"]).index(name), games)
    cut = max(1, round(games * params["held_out_games"]))
    started = time.perf_counter()
    held = examples(variant, players, seeds[:cut], stride, jobs)
    data = examples(variant, players, seeds[cut:], stride, jobs)
    made = time.perf_counter() - started

    def say(text: str) -> None:
        if not quiet:
            print(text, flush=True)

    say(f"\n== {name}: {games - cut} games -> {len(data)} training positions, "
        f"{cut} games -> {len(held)} held out ({made:.0f} s on {jobs} processes)")
    say(f"{'positions seen':>15} {'log loss':>9} {'accuracy':>9}")
    probe = held[:20_000]

    def report(seen: int, w: list[float]) -> None:
        s = score(w, probe)
        say(f"{seen:>15,} {s.log_loss:>9.4f} {100 * s.accuracy:>8.1f}%")

    base = score([0.0] * evaluation.FEATURES, probe)
    say(f"{0:>15,} {base.log_loss:>9.4f} {'(no weights)':>9}")
    started = time.perf_counter()
    weights = fit(data, params["seed"], params["epochs"], params["rate"], params["l2"],
                  report=report, checkpoints=[c for c in CHECKPOINTS if c < len(data)])
    weights = [round(x, 6) for x in weights]
    say(f"fit: {time.perf_counter() - started:.0f} s (one process)")
    final = score(weights, held)
    say(f"held out, all {len(held)}: log loss {final.log_loss:.4f}, "
        f"accuracy {100 * final.accuracy:.1f}%")
    say(f"{'chance':>11} {'positions':>9} {'predicted':>9} {'observed':>9}")
    for row in calibration(weights, held):
        say(f"{100 * row.low:>4.0f}-{100 * row.high:>3.0f}% {row.size:>11} "
            f"{100 * row.predicted:>8.1f}% {100 * row.observed:>8.1f}%")
    return weights


def run(params: dict[str, Any], scale: float, jobs: int, names: Sequence[str],
        quiet: bool = False) -> dict[str, list[float]]:
    return {name: train(name, params, scale, jobs, quiet) for name in names}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--scale", type=float, default=1.0,
                        help="play this share of each model's games (default 1)")
    parser.add_argument("--models", default="",
                        help="comma-separated models to fit (default all)")
    parser.add_argument("--write", action="store_true", help="write weights.json")
    parser.add_argument("--check", action="store_true",
                        help="fail unless the shipped weights are the ones this run made")
    args = parser.parse_args(argv)
    names = [n for n in args.models.split(",") if n] or list(PARAMS["models"])
    started = time.perf_counter()
    models = run(PARAMS, args.scale, args.jobs, names)
    total = time.perf_counter() - started
    digest = evaluation.checksum(models)
    print(f"\ntraining took {total:.0f} s; weights checksum {digest}")
    if args.write:
        if args.scale != 1.0 or len(names) != len(PARAMS["models"]):
            print("--write needs the full run (no --scale, every model)", file=sys.stderr)
            return 2
        data = {"format": evaluation.FORMAT, "checksum": digest, "params": PARAMS,
                "models": models}
        WEIGHTS.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {WEIGHTS}")
    if args.check:
        shipped = json.loads(WEIGHTS.read_text(encoding="utf-8"))
        if shipped["checksum"] != digest or shipped["params"] != PARAMS:
            print(f"the shipped weights ({shipped['checksum']}) are not this run's",
                  file=sys.stderr)
            return 1
        print("the shipped weights are this run's")
    return 0


if __name__ == "__main__":
    sys.exit(main())
