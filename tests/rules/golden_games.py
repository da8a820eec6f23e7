"""Digests of whole games, for pinning the engine's results while it is made faster.

Each digest is a SHA-256 over everything a path of the engine produces for a set of
seeds: ``simulate``'s games (every decision a bot is asked: the layout, the player,
the cards, the discard counts, the legal moves in order and the move chosen; then the
end of each game and the batch's outcome), ``Game``'s games (every state id, legal
move list, event and view), playouts from mid-game states, and move generation over
layouts from games with every card and every kind of move context.  A change that
makes any of these differ by one move, one event or one field changes its digest.

The digests themselves are pinned by ``test_rules_golden_games.py`` and printed (the
expert's too, which is too slow for a test) by ``scripts/engine_golden.py``.  This
module does not time anything and asserts nothing.
"""

from __future__ import annotations

import functools
import hashlib
import random
from collections.abc import Callable, Sequence

from sorry_lan.bots import Position, make_bot
from sorry_lan.commands.simulate import SEATING, play_games, seat_decider
from sorry_lan.rules.cards import Card
from sorry_lan.rules.game import Game
from sorry_lan.rules.movegen import generate
from sorry_lan.rules.moves import Move
from sorry_lan.rules.playout import playout_game, random_chooser, run_game
from sorry_lan.rules.variants import Variant, move_context
from sorry_lan.rules.view import view_for

# The tables the simulate digests cover: (variant, players).
TABLES: tuple[tuple[Variant, int], ...] = (
    (Variant.STANDARD, 2), (Variant.STANDARD, 3), (Variant.STANDARD, 4),
    (Variant.TEAM, 4), (Variant.POINTS, 2), (Variant.POINTS, 4),
)
# An expert budget no decision reaches: its fixed work limit decides, not the clock.
NO_CLOCK = 600.0


class Digest:
    """A running SHA-256 over the reprs of what is fed to it."""

    def __init__(self) -> None:
        self.sha = hashlib.sha256()

    def feed(self, *values: object) -> None:
        self.sha.update(repr(values).encode())
        self.sha.update(b"\n")

    def hexdigest(self) -> str:
        """The first 128 bits, in hex: ample to tell any two results apart."""
        return self.sha.hexdigest()[:32]


def _moves(moves: Sequence[Move]) -> tuple[object, ...]:
    return tuple((int(m.kind), int(m.card), m.parts, m.changes) for m in moves)


def simulate_digest(variant: Variant, players: int, strength: str, games: int,
                    seed: int = 7) -> str:
    """Every decision and result of ``games`` games of ``strength`` bots, played the
    way ``sorry-lan simulate`` plays them (its decider, ``run_game``), then the outcome
    of the same games through ``play_games``."""
    digest = Digest()
    seated = SEATING[players]
    rng = random.Random(seed)
    seeds = [(i, rng.getrandbits(63), rng.getrandbits(32) * 4) for i in range(games)]
    budget = NO_CLOCK
    for i, game_seed, bot_seed in seeds:
        bots = {c: make_bot(strength, bot_seed + c, budget=budget) for c in seated}
        times: dict[int, list[float]] = {c: [] for c in seated}
        decide = seat_decider(variant, seated, bots, times, {c: [] for c in seated})

        def record(pawns: tuple[int, ...], turn: int, cards: tuple[Card, ...],
                   after_two: bool, discards: list[int], moves: list[Move],
                   decide: Callable[..., Move] = decide) -> Move:
            move = decide(pawns, turn, cards, after_two, discards, moves)
            digest.feed(pawns, turn, tuple(map(int, cards)), after_two, tuple(discards),
                        _moves(moves), moves.index(move))
            return move

        first = seated[i % players]
        result = run_game(variant, seated, game_seed, record, first, ask_forced=False)
        digest.feed("end", result.winner, result.pawns, result.turns, result.moves,
                    sorted(result.scores.items()))
    stats = play_games(variant, (strength,) * players, seeds, budget)
    digest.feed("outcome", stats.outcome(), stats.cut_short)
    return digest.hexdigest()


def game_digest(variant: Variant, seated: tuple[int, ...], games: int, seed: int = 11) -> str:
    """Every state id, legal move list, event and view (each seat's and a
    spectator's) of ``games`` games through ``Game``, moves chosen by a seeded
    generator."""
    digest = Digest()
    for g in range(games):
        rng = random.Random(seed * 1000 + g)
        game = Game(variant, seated, seed=rng.getrandbits(63), first_sid=g * 7)
        events = game.start()
        while True:
            digest.feed(game.state_id, game.turn, game.turn_number, events)
            for seat in (*seated, None):
                digest.feed(view_for(game, seat))
            if game.over:
                break
            moves = game.legal_moves()
            digest.feed(_moves(moves))
            move = moves[rng.randrange(len(moves))]
            events = game.play_compact(move.compact())
        digest.feed("end", game.winner, game.final_scores, game.moves_played)
    return digest.hexdigest()


def playout_digest(variant: Variant, seated: tuple[int, ...], games: int, seed: int = 13) -> str:
    """Playouts (``playout_game``) from states partway through ``Game``'s games."""
    digest = Digest()
    for g in range(games):
        rng = random.Random(seed * 1000 + g)
        game = Game(variant, seated, seed=rng.getrandbits(63))
        game.start()
        for _ in range(rng.randrange(60)):
            if game.over:
                break
            moves = game.legal_moves()
            game.play(moves[rng.randrange(len(moves))])
        if game.over:
            continue
        result = playout_game(game, random_chooser(random.Random(g)))
        digest.feed(result.winner, result.pawns, result.turns, result.moves)
    return digest.hexdigest()


def movegen_digest(layouts: int, seed: int = 17) -> str:
    """Every card's legal moves, in order, on layouts from random 4-player games,
    under every move context: standard, team (before and after a 2, with the
    player's own pawns home or not)."""
    digest = Digest()
    rng = random.Random(seed)
    seen = 0
    while seen < layouts:
        variant = Variant.TEAM if rng.random() < 0.5 else Variant.STANDARD
        game = Game(variant, (0, 1, 2, 3), seed=rng.getrandbits(63))
        game.start()
        while not game.over and seen < layouts:
            if rng.random() < 0.2:
                seen += 1
                pawns = game.pawns
                for turn in range(4):
                    for ctx_variant, after_two in ((Variant.STANDARD, False),
                                                   (Variant.TEAM, False), (Variant.TEAM, True)):
                        ctx = move_context(ctx_variant, pawns, turn, after_two)
                        for card in Card:
                            digest.feed(pawns, turn, after_two,
                                        _moves(generate(pawns, card, ctx)))
            moves = game.legal_moves()
            game.play(moves[rng.randrange(len(moves))])
    return digest.hexdigest()


def position_digest(strength: str, positions: int, seed: int = 19) -> str:
    """The moves a ``strength`` bot chooses on positions from ``Game``'s games."""
    digest = Digest()
    rng = random.Random(seed)
    bot = make_bot(strength, seed, budget=NO_CLOCK)
    seen = 0
    while seen < positions:
        variant = (Variant.STANDARD, Variant.TEAM, Variant.POINTS)[seen % 3]
        game = Game(variant, (0, 1, 2, 3), seed=rng.getrandbits(63))
        game.start()
        while not game.over and seen < positions:
            moves = game.legal_moves()
            if len(moves) > 1 and rng.random() < 0.2:
                seen += 1
                from sorry_lan.bots.base import position_of

                position: Position = position_of(game)
                digest.feed(position.pawns, _moves(moves), moves.index(bot.choose(position, moves)))
            game.play(moves[rng.randrange(len(moves))])
    return digest.hexdigest()


def digest_makers(strengths: Sequence[str] = ("random", "greedy"), games: int = 20,
                  expert_games: int = 2) -> dict[str, Callable[[], str]]:
    """What computes the digest of every path, by name (``path:details``): each one
    alone, so a test of one digest need not compute the others."""
    out: dict[str, Callable[[], str]] = {}
    for variant, players in TABLES:
        for strength in strengths:
            n = expert_games if strength == "expert" else games
            out[f"simulate:{variant.value}:{players}:{strength}"] = functools.partial(
                simulate_digest, variant, players, strength, n)
    for variant, seated in ((Variant.STANDARD, (0, 2)), (Variant.STANDARD, (0, 1, 2, 3)),
                            (Variant.TEAM, (0, 1, 2, 3)), (Variant.POINTS, (1, 3)),
                            (Variant.POINTS, (0, 1, 2))):
        name = f"{variant.value}:{''.join(map(str, seated))}"
        out[f"game:{name}"] = functools.partial(game_digest, variant, seated, 4)
        if variant is not Variant.POINTS:
            out[f"playout:{name}"] = functools.partial(playout_digest, variant, seated, 30)
    out["movegen"] = functools.partial(movegen_digest, 150)
    for strength in strengths:
        out[f"choose:{strength}"] = functools.partial(
            position_digest, strength, 30 if strength == "expert" else 300)
    return out


def all_digests(strengths: Sequence[str] = ("random", "greedy"), games: int = 20,
                expert_games: int = 2) -> dict[str, str]:
    """The digest of every path, named ``path:details``."""
    return {name: make() for name, make in digest_makers(strengths, games, expert_games).items()}
