"""Helpers for the rules tests: readable layouts, canonical positions, staged games.

Layouts are written like ``{"red": ["start", 12, "S3", "home"]}``; colours left out
have all four pawns in START, and a colour given fewer than four locations has the rest
in START.  Nothing here knows the rules: see ``rules_reference.py`` for the independent
move generator the engine is checked against.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence

from sorry_lan.rules import Card, Colour, Game, Move, Variant, parse_location
from sorry_lan.rules.board import START
from sorry_lan.rules.cards import full_deck
from sorry_lan.rules.movegen import generate
from sorry_lan.rules.moves import MoveContext
from sorry_lan.rules.variants import move_context

Spec = Mapping[str, Sequence[object]]
Canon = tuple[tuple[int, ...], ...]


def layout(spec: Spec) -> tuple[int, ...]:
    """The 16 pawn locations described by ``spec`` (colour name -> up to 4 locations)."""
    pawns = [START] * 16
    for name, locs in spec.items():
        colour = Colour.parse(name)
        if len(locs) > 4:
            raise ValueError(f"{name}: more than four pawns")
        for n, loc in enumerate(locs):
            pawns[colour * 4 + n] = parse_location(loc)
    return tuple(pawns)


def canon(pawns: Sequence[int]) -> Canon:
    """Per-colour sorted locations: equal exactly when two layouts are the same position."""
    p = pawns
    return (tuple(sorted(p[0:4])), tuple(sorted(p[4:8])), tuple(sorted(p[8:12])),
            tuple(sorted(p[12:16])))  # fmt: skip


def canon_spec(spec: Spec) -> Canon:
    return canon(layout(spec))


def results(moves: Iterable[Move], pawns: Sequence[int]) -> list[Canon]:
    return [canon(m.result(pawns)) for m in moves]


def notations(moves: Iterable[Move]) -> set[str]:
    return {m.notation() for m in moves}


def ctx_for(
    variant: Variant, pawns: Sequence[int], player: str | int, after_two: bool = False
) -> MoveContext:
    colour = Colour.parse(player) if isinstance(player, str) else Colour(player)
    return move_context(variant, pawns, colour, after_two)


def moves_for(
    spec: Spec | Sequence[int],
    card: Card,
    player: str | int = "red",
    variant: Variant = Variant.STANDARD,
    after_two: bool = False,
) -> list[Move]:
    """The engine's legal moves for ``card`` with ``player`` to move."""
    pawns = pawns_of(spec)
    return generate(pawns, card, ctx_for(variant, pawns, player, after_two))


def pawns_of(spec: Spec | Sequence[int]) -> tuple[int, ...]:
    return tuple(spec) if not isinstance(spec, Mapping) else layout(spec)


def only(moves: Sequence[Move]) -> Move:
    assert len(moves) == 1, [m.notation() for m in moves]
    return moves[0]


def by_notation(moves: Iterable[Move], text: str) -> Move:
    found = [m for m in moves if m.notation() == text]
    assert len(found) == 1, (text, sorted(notations(moves)))
    return found[0]


def staged_game(
    pawns: Sequence[int],
    turn: str | int,
    card: Card | None = None,
    *,
    variant: Variant = Variant.STANDARD,
    seated: Sequence[int] = (Colour.RED, Colour.YELLOW),
    upcoming: Sequence[Card] = (),
    hands: Mapping[int, Sequence[Card]] | None = None,
    after_two: bool = False,
    seed: int = 1,
) -> Game:
    """A started game put into a chosen state, with every card accounted for.

    ``card`` is the card being played (standard and team play); ``upcoming`` are the
    next cards to be drawn, in order; ``hands`` the hands (play for points).  The rest
    of the deck is in the draw pile below ``upcoming``, in a seeded order.
    """
    colour = Colour.parse(turn) if isinstance(turn, str) else Colour(turn)
    game = Game(variant, seated=tuple(seated), seed=seed, first=colour)
    game.start()
    rest = full_deck()
    held: list[Card] = []
    if card is not None:
        held.append(card)
    if hands is not None:
        for hand in hands.values():
            held.extend(hand)
    held.extend(upcoming)
    for c in held:
        rest.remove(c)
    random.Random(seed).shuffle(rest)
    game.deck.pile = rest + list(reversed(upcoming))
    game.deck.discards = []
    game.hands = {c: list(h) for c, h in hands.items()} if hands is not None else {}
    game.pawns = tuple(pawns)
    game.turn = colour
    game.card = card
    game.after_two = after_two
    game._moves = None
    game.check()
    return game


def play_notation(game: Game, text: str) -> None:
    game.play(by_notation(game.legal_moves(), text))


# Squares where things happen: triangles, slide ends, exits and safety entries.
HOT_SQUARES = tuple(sorted({b + o for b in (0, 15, 30, 45) for o in (0, 1, 2, 3, 4, 9, 12, 13)}))


def random_layout(rng: random.Random, seated: Sequence[int]) -> tuple[int, ...]:
    """A valid layout (RULES.md section 9) biased towards squares where rules interact."""
    pawns = [START] * 16
    taken: set[int] = set()
    for c in seated:
        safety: set[int] = set()
        for n in range(4):
            r = rng.random()
            loc = START
            if r < 0.1:
                loc = 65  # HOME
            elif r < 0.25:
                s = rng.randint(60, 64)
                if s not in safety:
                    safety.add(s)
                    loc = s
            elif r < 0.85:
                sq = rng.choice(HOT_SQUARES) if rng.random() < 0.5 else rng.randrange(60)
                if sq not in taken:
                    taken.add(sq)
                    loc = sq
            pawns[c * 4 + n] = loc
    return tuple(pawns)


def random_seating(rng: random.Random, variant: Variant) -> tuple[int, ...]:
    if variant is Variant.TEAM:
        return (0, 1, 2, 3)
    return tuple(sorted(rng.sample(range(4), rng.randint(2, 4))))
