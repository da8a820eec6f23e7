"""The expert: an expectimax search over the next player's draw.

For each legal move the expert plays the move on a copy of the layout, then looks at
the card the next player draws: every card kind, weighted by how many of it the
deck holds outside the expert's own card or hand.
For each kind the next player's reply is the one that gains them most (greedy on the
pawns' worth, which is what a careful opponent does), and the layout after it is
scored by :func:`~sorry_lan.bots.judge.evaluate`; to that it adds half of what its
own next card is worth from the layout the move leaves (over the card kinds, the
best gain each allows: a layout where most cards move something useful is worth
more).  The move with the best expected score wins.  After its own 2 the next player
is itself (it draws again).

Play for points hides the opponents' hands.  The expert judges the reply after its
move one card kind at a time, weighted by the unseen cards, exactly as in standard
play -- an opponent's reply, and its own play after a 2 -- while its own next turn
takes the best of the four cards it keeps and the one it draws.  Measured against
greedy, 500 games each on seeds 15 and 19: judging a reply as the best card of a
five-card hand (sampled from the unseen cards for an opponent, the rest of its own
hand after a 2) won 42.4% and 46.2%; the opponent by one card but its own play after
a 2 from the rest of its hand, 52.4% and 46.4%; one card for both (now) 57.6% [53.2,
61.9] and 53.2% [48.8, 57.5], with a higher mean score (37.4 and 35.2 against 30.0
and 30.8).  Judging a reply by the best of five cards overrates it: every exposed pawn
looks lost, and a 2 looks like a free second move.  It never looks at a hidden card.
In team play the partner's pawns count as its own.

Time: the moves are searched best-first (ordered by the score of the layout each
leaves), up to a fixed amount of work (:data:`WORK`: each move generation counts 1,
plus 1 for every 2 moves it lists, so that a 7 split among many pawns counts for
what it costs) so that a position always gets the same answer; a clock stops the
search early if the decision budget (default 50 ms) runs out first, and then the
best move searched so far is played.  The engine's first-use tables are built when
the bot is made, and the cyclic garbage collector is paused during a decision, so
neither lands inside one.  The search uses the engine's move generators directly (the
playout machinery), never ``Game``.  This module does not run games.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Sequence
from typing import Final

from ..errors import SorryLanError
from ..rules.board import HOME, NUM_LOCATIONS
from ..rules.cards import Card
from ..rules.movegen import HANDLERS, build_tables
from ..rules.moves import Move, MoveContext, MoveKind
from ..rules.playout import apply
from .base import Position, unseen_counts
from .judge import ATTACK, EXPOSED, WORTH, evaluate

DEFAULT_BUDGET: Final = 0.050  # seconds per decision
# How far past its budget a decision may run: the clock is read before each move
# generation and every 16 layouts scored, and the longest step between two readings
# (a 7 split among eight pawns) takes well under a millisecond.
MARGIN: Final = 0.010
# Work units per decision (the deterministic limit; see the module docstring): about
# 20 ms of one core of this kind of machine at most, so that the clock rarely decides.
WORK: Final = 1200
WIN: Final = 10_000.0
NEXT: Final = 0.5  # weight of what our next card is worth from the layout a move leaves
CARDS: Final = tuple(Card)
_TWO = Card.TWO
_DISCARD = MoveKind.DISCARD


class OutOfTime(SorryLanError):
    """The decision budget ran out in the middle of a move's search (caught inside the
    expert: it then plays the best move searched so far)."""


def sides(position: Position) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The colours playing for the player to move, and those playing against."""
    me = position.turn
    own = position.variant.rules.side(me)
    return own, tuple(c for c in position.seated if c not in own)


# SIGNED[own][pawn * NUM_LOCATIONS + loc]: a pawn's worth, negated for a pawn not of
# the colours ``own``; built once per side (a colour, or a colour and its partner).
_SIGNED: dict[tuple[int, ...], tuple[float, ...]] = {}


def signed_worth(own: tuple[int, ...]) -> tuple[float, ...]:
    """The table :func:`_gain` reads for the side ``own``."""
    table = _SIGNED.get(own)
    if table is None:
        table = _SIGNED[own] = tuple(
            WORTH[(p >> 2) * NUM_LOCATIONS + loc] * (1.0 if p >> 2 in own else -1.0)
            for p in range(16) for loc in range(NUM_LOCATIONS))
    return table


def _gain(changes: Sequence[tuple[int, int, int]], signed: Sequence[float]) -> float:
    """What a move's changes are worth to a side (pawns' worth only), from that side's
    :func:`signed_worth` table."""
    total = 0.0
    for pawn, before, after in changes:
        base = pawn * NUM_LOCATIONS
        total += signed[base + after] - signed[base + before]
    return total


class Search:
    """One decision's search state: the position, the sides and the clock."""

    def __init__(self, position: Position, deadline: float, work: int,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        self.position = position
        self.clock = clock
        self.variant = position.variant
        self.rules = rules = position.variant.rules
        self.seated = position.seated
        self.own, self.opponents = sides(position)
        self.sides = tuple(rules.side(c) for c in range(4))  # by colour, for sides_of
        self.share = 1.0 if rules.partners else 1.0 / max(len(self.opponents), 1)
        # The danger terms judge the next cards by the deck's odds; in play for points a
        # player holds five known cards instead, and with those terms the expert lost
        # to greedy (44% static, 40% searching, 200-300 games): there it weighs the
        # pawns' worth alone (50.5% static).
        points = rules.deals_hands
        self.exposed = 0.0 if points else EXPOSED
        self.attack = 0.0 if points else ATTACK
        self.deadline = deadline
        self.work = work
        self.contexts: dict[tuple[int, bool, bool], MoveContext] = {}
        unseen = unseen_counts(position)
        total = sum(unseen)
        self.unseen = unseen
        self.draws = [(card, unseen[card] / total) for card in CARDS if unseen[card]]

    # -- the pieces --------------------------------------------------------------

    def score(self, pawns: Sequence[int]) -> float:
        return evaluate(pawns, self.own, self.opponents, self.share, self.exposed, self.attack)

    def context(self, pawns: Sequence[int], player: int, after_two: bool) -> MoveContext:
        done = self.rules.partners and all(
            pawns[p] == HOME for p in range(player * 4, player * 4 + 4)
        )
        key = (player, after_two, done)
        ctx = self.contexts.get(key)
        if ctx is None:
            ctx = self.contexts[key] = self.rules.move_context(pawns, player, after_two)
        return ctx

    def next_player(self, player: int) -> int:
        seated = self.seated
        return seated[(seated.index(player) + 1) % len(seated)]

    def sides_of(self, player: int) -> tuple[int, ...]:
        return self.sides[player]

    # -- the chance node ---------------------------------------------------------

    def reply_values(
        self, pawns: tuple[int, ...], player: int, after_two: bool, kinds: Sequence[Card]
    ) -> dict[Card, tuple[float, float] | None]:
        """For each card kind: (what ``player``'s best reply gains them, our score after
        it), or None when the card gives them no move."""
        ctx = self.context(pawns, player, after_two)
        theirs = self.sides_of(player)
        ours = player in self.own
        out: dict[Card, tuple[float, float] | None] = {}
        for card in kinds:
            if self.clock() > self.deadline:
                raise OutOfTime
            replies = HANDLERS[card](pawns, card, ctx)
            self.work -= 1 + (len(replies) >> 1)
            if not replies:
                out[card] = None
                continue
            best = replies[0]
            signed = signed_worth(theirs)
            best_gain = _gain(best[3], signed)
            for reply in replies[1:]:
                g = _gain(reply[3], signed)
                if g > best_gain:
                    best, best_gain = reply, g
            after, home = apply(pawns, best[3])
            if home and self.rules.winner(after, self.seated) is not None:
                out[card] = (best_gain, WIN if ours else -WIN)
            else:
                out[card] = (best_gain, self.score(after))
        return out

    def expect(self, pawns: tuple[int, ...], player: int, after_two: bool,
               hands: Sequence[tuple[float, tuple[Card, ...]]]) -> float:
        """Our expected score when ``player`` holds one of ``hands`` (weight, cards) and
        plays the card whose best reply gains them most."""
        kinds = sorted({card for _, hand in hands for card in hand})
        values = self.reply_values(pawns, player, after_two, kinds)
        still: float | None = None
        total = 0.0
        for weight, hand in hands:
            best: tuple[float, float] | None = None
            for card in hand:
                v = values[card]
                if v is not None and (best is None or v[0] > best[0]):
                    best = v
            if best is None:
                if still is None:
                    still = self.score(pawns)
                total += weight * still
            else:
                total += weight * best[1]
        return total

    def hands_after(self) -> list[tuple[float, tuple[Card, ...]]]:
        """What the player of the decision after our move is judged to hold, weighted:
        one card of each unseen kind, in every variant (in play for points too, for an
        opponent and for our own play after a 2: see the module docstring)."""
        return [(p, (card,)) for card, p in self.draws]

    def value(self, move: Move) -> float:
        """Our expected score after ``move`` and the next player's reply."""
        after, home = apply(self.position.pawns, move[3])
        if home and self.rules.winner(after, self.seated) is not None:
            return WIN
        me = self.position.turn
        again = move.card == _TWO and move.kind != _DISCARD
        player = me if again else self.next_player(me)
        value = self.expect(after, player, again, self.hands_after())
        if NEXT and not again:
            value += NEXT * self.potential(after, move)
        return value

    def potential(self, pawns: tuple[int, ...], move: Move) -> float:
        """What our next card is worth from ``pawns`` (left by ``move``): the pawns'
        worth our best move with it gains (nothing for a lost turn), over the card
        kinds we may draw; in play for points, the best of the cards we keep and the
        one we draw."""
        me = self.position.turn
        ctx = self.context(pawns, me, False)
        gains: dict[Card, float | None] = {}
        signed = signed_worth(self.own)
        kept: list[Card] = []
        if self.rules.deals_hands:
            kept = list(self.position.cards)
            kept.remove(move.card)
        for card in {*kept, *(card for card, _ in self.draws)}:
            if self.clock() > self.deadline:
                raise OutOfTime
            moves = HANDLERS[card](pawns, card, ctx)
            self.work -= 1 + (len(moves) >> 1)
            gains[card] = max(_gain(mv[3], signed) for mv in moves) if moves else None
        # A card that moves nothing is worth nothing (a lost turn, or a discard) unless
        # it is the only kind of card we may hold.
        floor = max((g for g in (gains[card] for card in kept) if g is not None),
                    default=None)
        total = 0.0
        for card, p in self.draws:
            g = gains[card]
            if g is None or (floor is not None and floor > g):
                g = floor
            if g is not None:
                total += p * g
        return total


class ExpertBot:
    """Expectimax over the next draw; see the module docstring."""

    kind = "expert"
    blocks = True  # a search of up to its budget: the host runs it on its bot thread

    def __init__(
        self, seed: int = 0, budget: float = DEFAULT_BUDGET, work: int = WORK,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        """``clock`` is what the budget is measured on (wall time by default; a test may
        pass the thread's CPU time to be immune to a busy machine).  ``seed`` is kept
        for the bot interface: the expert samples nothing, so its choice depends on the
        position alone."""
        if not budget > 0:
            raise ValueError("a decision budget must be more than 0 seconds")
        self.seed = seed
        self.budget = budget
        self.work = work
        self.clock = clock
        self.cut_short = 0  # decisions the clock stopped before the work limit
        # The engine builds some tables on their first use (the 7's splits, a Sorry!'s
        # placings: about 70 ms); build them now, not inside the first decision.
        build_tables()

    def choose(self, position: Position, legal_moves: Sequence[Move]) -> Move:
        if not legal_moves:
            raise ValueError("no legal move to choose from")
        if len(legal_moves) == 1:
            return legal_moves[0]
        # The search makes thousands of short-lived tuples that reference counting
        # frees; left on, the cyclic collector would keep scanning (and promoting) them
        # and now and then run a full collection of the whole process (10-25 ms) in
        # the middle of a decision.  It is paused for the decision only.
        paused = gc.isenabled()
        if paused:
            gc.disable()
        try:
            return self._search(position, legal_moves)
        finally:
            if paused:
                gc.enable()

    def _search(self, position: Position, legal_moves: Sequence[Move]) -> Move:
        started = self.clock()
        search = Search(position, started + self.budget, self.work,
                        self.clock)
        pawns = position.pawns
        static: list[tuple[float, int]] = []
        for i, move in enumerate(legal_moves):
            if i % 16 == 15 and self.clock() > search.deadline:
                self.cut_short += 1  # no time even to look at every move once
                return legal_moves[min(static)[1]]
            static.append((-search.score(move.result(pawns)), i))
        ordered = [i for _, i in sorted(static)]
        best = ordered[0]
        best_value = float("-inf")
        for i in ordered:
            if search.work <= 0:
                break
            try:
                v = search.value(legal_moves[i])
            except OutOfTime:
                self.cut_short += 1
                break
            if v > best_value:
                best, best_value = i, v
        return legal_moves[best]
