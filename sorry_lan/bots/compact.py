"""How a bot picks a move: ``random`` or ``greedy``, deterministic for a given position.

Both strengths are pure functions of the position, the legal moves and a salt, so a
game between bots replays identically: the host can hand a seat to a bot, or a player
can come back, without changing what a bot would have played.  This module does not
draw cards or talk to anyone; it only ranks moves.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence

from sorry_lan.rules import HOME, START, Game, Variant
from sorry_lan.rules.board import start_exit
from sorry_lan.rules.variants import team_of

STRENGTHS = ("random", "greedy")


def progress(colour: int, loc: int) -> int:
    """How far along its way a pawn of ``colour`` at ``loc`` is (START 0 .. HOME 66)."""
    if loc == START:
        return 0
    if loc == HOME:
        return 66
    if loc >= 60:  # S1..S5
        return 61 + (loc - 60)
    return (loc - start_exit(colour)) % 60 + 1


def _gain(pawns: Sequence[int], pawn: int, to: int) -> int:
    return progress(pawn // 4, to) - progress(pawn // 4, pawns[pawn])


def value(compact: Sequence[int], pawns: Sequence[int], side: Sequence[int]) -> int:
    """A rough worth of a move for ``side``, from its compact form only (slides ignored).

    Working from the compact form means a networked bot, which sees the moves offered
    and the board but not the engine's move values, judges exactly as the host does.
    """
    kind = compact[0]
    moved: list[tuple[int, int]] = []  # (pawn, new location)
    if kind == 0:
        moved = [(compact[2], compact[3])]
    elif kind == 1:
        moved = [(compact[2], compact[3]), (compact[4], compact[5])]
    elif kind == 2:
        a, b = compact[2], compact[3]
        moved = [(a, pawns[b]), (b, pawns[a])]
    elif kind == 3:
        a, b = compact[2], compact[3]
        moved = [(a, pawns[b]), (b, START)]
    score = 0
    movers = {p for p, _ in moved}
    for pawn, to in moved:
        gain = _gain(pawns, pawn, to)
        score += gain if pawn // 4 in side else -gain
        if kind in (0, 1) and to < 60:
            for other, loc in enumerate(pawns):
                if loc == to and other not in movers:  # a bump
                    lost = progress(other // 4, loc)
                    score += -lost if other // 4 in side else lost
    return score


def _rng(pawns: Sequence[int], n: int) -> random.Random:
    digest = hashlib.blake2b(repr((tuple(pawns), n)).encode(), digest_size=8).digest()
    return random.Random(int.from_bytes(digest, "big"))


def choose(
    options: Sequence[Sequence[int]],
    pawns: Sequence[int],
    colour: int,
    strength: str = "greedy",
    team: Sequence[int] | None = None,
) -> int:
    """The index in ``options`` (compact moves) the bot plays for ``colour``.

    ``team`` lists the colours on the bot's side (team play); the choice depends only
    on the arguments, never on hidden state, so every bot makes the same choice.
    """
    if not options:
        raise ValueError("no legal move to choose from")
    rng = _rng(pawns, len(options))
    if strength == "random":
        return rng.randrange(len(options))
    if strength != "greedy":
        raise ValueError(f"unknown bot strength {strength!r} (choose {', '.join(STRENGTHS)})")
    side = tuple(team) if team else (colour,)
    values = [value(m, pawns, side) for m in options]
    best = max(values)
    top = [i for i, v in enumerate(values) if v == best]
    return top[rng.randrange(len(top))]


def play_out(game: Game, strength: str = "greedy") -> Game:
    """Play ``game`` (started) to its end with bots on every seat; returns it.

    The same choices a networked table of bots makes, so a test can tell what result
    a game over the network must reach."""
    while not game.over:
        moves = game.legal_moves()
        team = team_of(game.turn) if game.variant is Variant.TEAM else None
        i = choose([mv.compact() for mv in moves], game.pawns, game.turn, strength, team)
        game.play(moves[i])
    return game
