"""Fast games: play on with move choosers, recording nothing.

This is the engine's hot loop for bots and tournaments.  :func:`playout` finishes a
standard or team game from any state with one chooser (for bots that look ahead by
playing out, and benchmarks); :func:`run_game` plays a whole game of any variant
from its seed, asking a decider per choice (``sorry-lan simulate``).  Both follow
exactly the turn flow of :class:`~sorry_lan.rules.game.Game` -- the tests replay the
same choices through ``Game`` and compare -- but keep no events, views or state ids.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from .board import HOME
from .cards import Card, Deck
from .game import MAX_IDLE_DRAWS, Game, hand_moves
from .movegen import HANDLERS
from .moves import Change, Move, MoveContext, MoveKind
from .variants import Variant, all_home, check_seating

Chooser = Callable[[list[Move]], Move]


def apply(pawns: tuple[int, ...], changes: Sequence[Change]) -> tuple[tuple[int, ...], bool]:
    """The layout after a move's ``changes``, and whether a pawn reached HOME (only
    that can end a game)."""
    after_move = list(pawns)
    if len(changes) == 1:  # most moves: one pawn moves, no one is bumped
        pawn, _before, after = changes[0]
        after_move[pawn] = after
        return tuple(after_move), after == HOME
    home = False
    for pawn, _before, after in changes:
        after_move[pawn] = after
        if after == HOME:
            home = True
    return tuple(after_move), home


def _next_seats(seated: tuple[int, ...]) -> list[int]:
    """Who plays after each colour (by colour; unseated colours map to 0)."""
    nxt = [0] * 4
    for i, c in enumerate(seated):
        nxt[c] = seated[(i + 1) % len(seated)]
    return nxt


class PlayoutResult:
    __slots__ = ("moves", "pawns", "turns", "winner")

    def __init__(self, winner: int, pawns: tuple[int, ...], turns: int, moves: int) -> None:
        self.winner = winner
        self.pawns = pawns
        self.turns = turns
        self.moves = moves


class RandomChooser:
    """A chooser picking uniformly among the legal moves (``rng.random()`` scaled).

    One C call per choice: cheaper than ``randrange``'s rejection sampling, and as
    uniform for lists this short (a double has 53 bits; lists hold at most ~100 moves).
    :func:`playout` makes the same pick inline instead of calling it.
    """

    __slots__ = ("rand",)

    def __init__(self, rng: random.Random) -> None:
        self.rand = rng.random

    def __call__(self, moves: list[Move]) -> Move:
        return moves[int(self.rand() * len(moves))]


def random_chooser(rng: random.Random) -> Chooser:
    """A :class:`RandomChooser` drawing from ``rng``."""
    return RandomChooser(rng)


def playout(
    variant: Variant,
    seated: Sequence[int],
    pawns: tuple[int, ...],
    turn: int,
    deck: Deck,
    choose: Chooser,
    *,
    card: Card | None = None,
    after_two: bool = False,
) -> PlayoutResult:
    """Play from the given state to the end; ``deck`` is used up (pass a copy to keep it).

    ``card`` is the card already drawn for ``turn`` (None: the turn starts by drawing).
    """
    rules = variant.rules  # the hooks, read once: none is asked per move
    if rules.deals_hands:
        raise ValueError(f"playout does not handle {rules.title}; use Game")
    seated = tuple(sorted(seated))
    nxt = _next_seats(seated)
    team = rules.partners
    move_context = rules.move_context
    winner = rules.winner
    # Move contexts: outside team play one per colour (``after_two`` changes nothing);
    # in team play by turn * 4 + after_two * 2 + (all the player's pawns HOME).
    contexts: list[MoveContext | None] = [None] * 16
    handlers = HANDLERS
    # A random chooser's pick, made inline (the same call on the same generator).
    rand = choose.rand if type(choose) is RandomChooser else None
    two = Card.TWO
    draw = deck.draw
    pile = deck.pile
    discards = deck.discards
    turns = 1
    moves_played = 0
    idle = 0
    while True:
        if card is None:
            if pile:
                card = pile.pop()
            else:  # the deck reshuffles its discards into a new pile
                card = draw()
                pile = deck.pile
                discards = deck.discards
        if team:
            slot = turn * 4 + 2 if after_two else turn * 4
            if all_home(pawns, turn):
                slot += 1
        else:
            slot = turn
        ctx = contexts[slot]
        if ctx is None:
            ctx = contexts[slot] = move_context(pawns, turn, after_two)
        moves = handlers[card](pawns, card, ctx)
        if moves:
            idle = 0
            move = choose(moves) if rand is None else moves[int(rand() * len(moves))]
            moves_played += 1
            pawns, home = apply(pawns, move[3])
            if home:  # only a pawn reaching HOME can end the game
                won = winner(pawns, seated)
                if won is not None:
                    discards.append(card)
                    return PlayoutResult(won, pawns, turns, moves_played)
        else:
            idle += 1
            if idle > MAX_IDLE_DRAWS:
                raise RuntimeError("no legal move for any player over 10000 draws")
        discards.append(card)
        if card == two:
            after_two = True
        else:
            turn = nxt[turn]
            after_two = False
            turns += 1
        card = None


def playout_game(game: Game, choose: Chooser) -> PlayoutResult:
    """Play ``game``'s current state out on copies (the game itself is untouched)."""
    if game.over or not game.legal_moves():
        raise ValueError("the game has no decision pending")
    return playout(
        game.variant,
        game.seated,
        game.pawns,
        game.turn,
        game.deck.copy(),
        choose,
        card=game.card,
        after_two=game.after_two,
    )


# The player to move, as a full game's deciders see it: the layout, whose turn, the
# cards in hand (the card drawn; in play for points the hand), whether the turn
# follows a 2, and the discard pile as counts by card value (a live list: copy it to
# keep it).
Decider = Callable[
    [tuple[int, ...], int, tuple[Card, ...], bool, list[int], list[Move]], Move
]


class GameResult:
    """How a game run by :func:`run_game` ended."""

    __slots__ = ("moves", "pawns", "scores", "turns", "winner")

    def __init__(
        self, winner: int, pawns: tuple[int, ...], turns: int, moves: int,
        scores: dict[int, int],
    ) -> None:
        self.winner = winner
        self.pawns = pawns
        self.turns = turns
        self.moves = moves
        self.scores = scores


def run_game(
    variant: Variant,
    seated: Sequence[int],
    seed: int,
    decide: Decider,
    first: int | None = None,
    max_turns: int = 100_000,
    ask_forced: bool = True,
) -> GameResult:
    """Play one whole game from its seed, asking ``decide`` for every choice.

    The same game as ``Game(variant, seated, seed, first)`` driven by the same
    choices -- the same deck, deal, turns, lost turns and winner; the tests replay
    both -- in all three variants, without events, views, state ids or checks.
    ``ask_forced=False`` plays a decision with one legal move without asking
    ``decide`` (any decider would choose it; ``sorry-lan simulate`` saves the call).
    """
    check_seating(variant, seated)
    seated = tuple(sorted(seated))
    rng = random.Random(seed)
    deck = Deck(rng=rng)
    drawn = rng.choice(seated)
    turn = drawn if first is None else first
    if turn not in seated:
        raise ValueError("the first player must be seated")
    nxt = _next_seats(seated)
    rules = variant.rules  # the hooks, read once: none is asked per move
    pawns = rules.initial_pawns(seated)
    counts = [0] * 14  # the discard pile by card value
    hands: dict[int, list[Card]] = {c: [] for c in seated}
    points = rules.deals_hands
    if points:
        order = seated[seated.index(turn):] + seated[:seated.index(turn)]
        for _ in range(rules.hand_size):
            for c in order:
                hands[c].append(deck.draw())
    team = rules.partners
    move_context = rules.move_context
    winner = rules.winner
    # Move contexts as in ``playout``: by turn * 4 + after_two * 2 + (all HOME), the
    # last two only in team play.
    contexts: list[MoveContext | None] = [None] * 16
    handlers = HANDLERS
    two = Card.TWO
    discard_kind = MoveKind.DISCARD
    discards = deck.discards
    pile = deck.pile
    forced = 1 if ask_forced else 2  # a list this short (or shorter) is played at once
    alone: dict[Card, tuple[Card, ...]] = {c: (c,) for c in Card}  # the cards in hand
    turns = 1
    moves_played = 0
    idle = 0
    after_two = False
    hand: list[Card] = []
    card = two
    while True:
        if team:
            slot = turn * 4 + 2 if after_two else turn * 4
            if all_home(pawns, turn):
                slot += 1
        else:
            slot = turn * 4
        ctx = contexts[slot]
        if ctx is None:
            ctx = contexts[slot] = move_context(pawns, turn, after_two)
        if points:
            hand = hands[turn]
            moves = hand_moves(pawns, hand, ctx)
            move = moves[0] if len(moves) < forced else decide(
                pawns, turn, tuple(hand), after_two, counts, moves)
            card = move[1]
            hand.remove(card)
            deck.discard(card)
        else:
            if pile:
                card = pile.pop()
            else:  # the deck reshuffles its discards into a new draw pile
                card = deck.draw()
                pile = deck.pile
                discards = deck.discards
                counts = [0] * 14
            moves = handlers[card](pawns, card, ctx)
            if not moves:
                idle += 1
                if idle > MAX_IDLE_DRAWS:
                    raise RuntimeError("no legal move for any player over 10000 draws")
                discards.append(card)
                counts[card] += 1
                if card == two:
                    after_two = True
                else:
                    turn = nxt[turn]
                    after_two = False
                    turns += 1
                continue
            move = moves[0] if len(moves) < forced else decide(
                pawns, turn, alone[card], after_two, counts, moves)
            discards.append(card)
        idle = 0
        moves_played += 1
        counts[card] += 1
        # ``apply``, inlined (2% of simulate's time): most moves move one pawn only.
        changes = move[3]
        after_move = list(pawns)
        if len(changes) == 1:
            pawn, _before, after = changes[0]
            after_move[pawn] = after
            home = after == HOME
        else:
            home = False
            for pawn, _before, after in changes:
                after_move[pawn] = after
                if after == HOME:
                    home = True
        pawns = tuple(after_move)
        if home:
            won = winner(pawns, seated)
            if won is not None:
                return GameResult(
                    won, pawns, turns, moves_played, rules.scores(pawns, seated, won)
                )
        if points:
            before = deck.reshuffles
            hand.append(deck.draw())
            if deck.reshuffles != before:
                counts = [0] * 14
        if card == two and move[0] != discard_kind:
            after_two = True
        else:
            turn = nxt[turn]
            after_two = False
            turns += 1
            if turns > max_turns:
                raise RuntimeError(f"the game with seed {seed} ran past {max_turns} turns")
