"""The expert: the learned evaluation, one reply ahead, over the next player's draw.

For each legal move the expert plays it on a copy of the layout, then looks at the
card the next player draws: every card kind, weighted by how many of it the deck
holds outside the expert's own card or hand.  For each kind the next player plays the
reply the learned evaluation (:mod:`~sorry_lan.bots.evaluation`) rates best for that
player's side, and the layout after it is scored by the same evaluation: the chance
that the expert's side wins, with the following player about to draw.  The move with
the best expected chance wins.  After its own 2 the next player is itself (it draws
again), and then it plays its own best reply.  A move that wins the game is worth 1.

A second pass takes the :data:`DEEP` moves the first rated best (those within
:data:`DEEP_MARGIN` of its best, when there are two or more) and judges each
again one turn deeper: after each reply (still the one the evaluation rates best for
its player) the player after that draws in turn, every kind weighted, and plays its
best; the evaluation scores the layouts after those.  The best move of the second
pass is played; only moves searched to the same depth are compared, so a pass cut
short by the work limit or the clock still compares like with like (the first move
it judges is the first pass's best).

Play for points hides the opponents' hands.  The expert judges an opponent's reply one
card kind at a time, weighted by the unseen cards, as in standard play (judging it as
the best card of a sampled five-card hand overrated every reply in trials: every
exposed pawn looks lost); its own hand is known, so a layout where it is next to move
is scored with the cards it keeps (the one it will draw counts at the average), and
its play after a 2 takes the best of the cards it keeps and each kind it may draw.
It never looks at a hidden card.  In team play the partner's pawns count as its own
(the evaluation scores sides).

Time: the moves are searched best-first (ordered by the evaluation of the layout each
leaves), up to a fixed amount of work (:data:`WORK`, and :data:`DEEP_WORK` for the
second pass: each move generation counts 1, plus 1 for every reply it lists, each of
which the evaluation scores, so that a 7 split among many pawns counts for what it
costs) so that a position always gets the same answer; a clock stops the search
early if the decision budget (default 50 ms) runs out first, and then the best move
searched so far (at the depth of the pass it stopped in) is played.  The work
limits decide on an idle machine (the second pass takes a p95 of about 25 ms of a
core); on a busy one the clock ends many second passes, and a seat there may then
choose differently from one on an idle machine.  The engine's
first-use tables are built when the bot is made, and the cyclic garbage collector is
paused during a decision, so neither lands inside one.  The search uses the engine's
move generators directly (the playout machinery), never ``Game``.  This module does
not run games or fit the evaluation.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Final

from ..errors import SorryLanError
from ..rules.cards import Card
from ..rules.movegen import HANDLERS, build_tables
from ..rules.moves import Move, MoveContext, MoveKind
from ..rules.playout import apply
from .base import Position, draw_weights, searched_choice
from .evaluation import evaluator
from .strengths import EXPERT_BUDGET

DEFAULT_BUDGET: Final = EXPERT_BUDGET  # seconds per decision
# How far past its budget a decision may run: the clock is read before each move
# generation and every 16 layouts scored, and the longest step between two readings
# (a 7 split among eight pawns) takes well under a millisecond.
MARGIN: Final = 0.010
# Work units per decision (the deterministic limit; see the module docstring): about
# 30 ms of one core of this kind of machine at most, so that the clock rarely decides.
WORK: Final = 1200
# The second pass: how many of the best moves of the first are searched a turn deeper,
# and its own work limit (the same units).  Expert vs greedy, 2 players, 2000 games at
# a 50 ms budget on a machine at load 7 (2 cores): first pass alone 55.6% [53.5, 57.8];
# with the second pass 56.5% [54.3, 58.7] (wall p95 37 ms, max 70 ms; the clock cut
# 42% of the decisions short there); with the second pass to the end of the budget
# 57.6% [55.4, 59.7] (wall p95 59 ms, max 123 ms: over the time goal).  Thread CPU per
# decision: mean 8-11 ms, p95 16-25 ms, against 1.7 ms and 4.7 ms for the first pass.
DEEP: Final = 4
DEEP_WORK: Final = 3000
# Only moves the first pass rated within this much (win chance) of its best are
# searched again, and none when only the best is.
DEEP_MARGIN: Final = 0.05
# The share of the budget after which the second pass stops (the first pass may use
# it all): on a busy machine the clock, not the work limit, ends many second passes.
DEEP_SHARE: Final = 0.6
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


class Search:
    """One decision's search state: the position, the evaluation and the clock."""

    def __init__(self, position: Position, deadline: float, work: int,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        self.position = position
        self.clock = clock
        self.rules = rules = position.variant.rules
        self.seated = position.seated
        self.me = position.turn
        self.eval = ev = evaluator(position.variant, position.seated)
        self.mine = ev.side_of[self.me]
        self.points = rules.deals_hands
        self.deadline = deadline
        self.work = work
        self.contexts: dict[tuple[int, bool, bool], MoveContext] = {}
        self.draws = draw_weights(position)
        n = len(self.seated)
        self.after = {c: self.seated[(i + 1) % n] for i, c in enumerate(self.seated)}

    # -- the pieces --------------------------------------------------------------

    def context(self, pawns: Sequence[int], player: int, after_two: bool) -> MoveContext:
        done = self.rules.partners and all(
            pawns[p] == 65 for p in range(player * 4, player * 4 + 4))
        key = (player, after_two, done)
        ctx = self.contexts.get(key)
        if ctx is None:
            ctx = self.contexts[key] = self.rules.move_context(pawns, player, after_two)
        return ctx

    def leaf(self, pawns: tuple[int, ...], to_move: int,
             kept: Sequence[Card] | None) -> list[float]:
        """Every side's chance, ``to_move`` next; our hand ``kept`` if we are next."""
        hand = kept if to_move == self.me else None
        return self.eval.side_chances(pawns, to_move, hand)

    def won(self, pawns: tuple[int, ...], home: bool) -> int | None:
        """The side that has won in ``pawns`` (an index of the evaluation's sides), or
        None while the game goes on."""
        if not home:
            return None
        winner = self.rules.winner(pawns, self.seated)
        return None if winner is None else self.eval.side_of[winner]

    # -- the chance node ---------------------------------------------------------

    def replies(self, pawns: tuple[int, ...], player: int, after_two: bool,
                kinds: Sequence[Card], kept: Sequence[Card] | None, depth: int = 1
                ) -> dict[Card, tuple[float, float] | None]:
        """For each card kind: (``player``'s side's chance after its best reply, ours
        after it), or None when the card gives them no move.  The reply is the one the
        evaluation rates best for ``player``; at ``depth`` 2 ours after it is the
        expectation over the next draw (:meth:`expect`) instead of the evaluation."""
        ctx = self.context(pawns, player, after_two)
        theirs = self.eval.side_of[player]
        mine = self.mine
        out: dict[Card, tuple[float, float] | None] = {}
        for card in kinds:
            if self.clock() > self.deadline:
                raise OutOfTime
            moves = HANDLERS[card](pawns, card, ctx)
            self.work -= 1 + len(moves)
            if not moves:
                out[card] = None
                continue
            again = card == _TWO
            to_move = player if again else self.after[player]
            best: tuple[float, float] | None = None
            chosen = pawns
            for n, reply in enumerate(moves):
                if n % 16 == 15 and self.clock() > self.deadline:
                    raise OutOfTime
                after, home = apply(pawns, reply[3])
                ended = self.won(after, home)
                if ended is not None:
                    value = (float(ended == theirs), float(ended == mine))
                    if value[0] == 1.0:  # nothing beats winning: no need to look on
                        best, chosen = value, ()
                        break
                else:
                    chances = self.leaf(after, to_move, kept)
                    value = (chances[theirs], chances[mine])
                if best is None or value[0] > best[0]:
                    best = value
                    chosen = () if ended is not None else after
            if depth > 1 and best is not None and chosen:
                best = (best[0], self.expect(chosen, to_move, again, kept, depth - 1))
            out[card] = best
        return out

    def expect(self, pawns: tuple[int, ...], player: int, after_two: bool,
               kept: Sequence[Card] | None, depth: int = 1) -> float:
        """Our expected chance when ``player`` draws next (one card of each unseen kind,
        weighted) and plays its best reply; after our own 2 in play for points we
        choose among the cards ``kept`` and the one drawn.  At ``depth`` 2 the layout
        after each reply is judged by the next draw in turn (see :meth:`replies`)."""
        own_hand = self.points and player == self.me and kept is not None
        kinds = sorted({card for card, _ in self.draws} | (set(kept or ()) if own_hand
                                                            else set()))
        values = self.replies(pawns, player, after_two, kinds, kept, depth)
        still: dict[bool, float] = {}
        total = 0.0
        for card, weight in self.draws:
            options = [card, *kept] if own_hand and kept is not None else [card]
            best: tuple[float, float] | None = None
            for c in options:
                v = values[c]
                if v is not None and (best is None or v[0] > best[0]):
                    best = v
            if best is None:  # no move: the turn passes (or the 2 draws again)
                again = card == _TWO
                if again not in still:
                    to_move = player if again else self.after[player]
                    still[again] = (
                        self.expect(pawns, to_move, again, kept, depth - 1) if depth > 1
                        else self.leaf(pawns, to_move, kept)[self.mine])
                total += weight * still[again]
            else:
                total += weight * best[1]
        return total

    def kept(self, move: Move) -> tuple[Card, ...] | None:
        """The cards we keep after ``move`` (play for points), else None."""
        if not self.points:
            return None
        hand = list(self.position.cards)
        hand.remove(move.card)
        return tuple(hand)

    def static(self, move: Move) -> float:
        """Our chance after ``move`` with no lookahead (the search's move order)."""
        after, home = apply(self.position.pawns, move[3])
        ended = self.won(after, home)
        if ended is not None:
            return float(ended == self.mine)
        again = move.card == _TWO and move.kind != _DISCARD
        return self.leaf(after, self.me if again else self.after[self.me],
                         self.kept(move))[self.mine]

    def value(self, move: Move, depth: int = 1) -> float:
        """Our expected chance after ``move`` and the next player's reply (at ``depth``
        2, and the reply of the player after that)."""
        after, home = apply(self.position.pawns, move[3])
        ended = self.won(after, home)
        if ended is not None:
            return float(ended == self.mine)
        again = move.card == _TWO and move.kind != _DISCARD
        player = self.me if again else self.after[self.me]
        return self.expect(after, player, again, self.kept(move), depth)


def move_chances(position: Position, legal_moves: Sequence[Move],
                 budget: float = DEFAULT_BUDGET, work: int = WORK,
                 clock: Callable[[], float] = time.perf_counter) -> list[float | None]:
    """The expert search's first pass: the chance to win after each of
    ``legal_moves`` (same order), one reply ahead; None for a move the budget or work
    limit left unsearched (the static order searches the likeliest best moves first).
    Every move gets the same depth, so the chances compare (the expert's second pass
    judges only its few best moves deeper)."""
    search = Search(position, clock() + budget, work, clock)
    statics = [search.static(m) for m in legal_moves]
    out: list[float | None] = [None] * len(legal_moves)
    for i in sorted(range(len(legal_moves)), key=lambda i: -statics[i]):
        if search.work <= 0:
            break
        try:
            out[i] = search.value(legal_moves[i])
        except OutOfTime:
            break
    return out


class ExpertBot:
    """The learned evaluation one reply ahead; see the module docstring."""

    kind = "expert"
    blocks = True  # a search of up to its budget: the host runs it on its bot thread

    def __init__(
        self, seed: int = 0, budget: float = DEFAULT_BUDGET, work: int = WORK,
        clock: Callable[[], float] = time.perf_counter, deep: int = DEEP,
        deep_work: int = DEEP_WORK, margin: float = DEEP_MARGIN,
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
        self.deep = deep
        self.deep_work = deep_work
        self.margin = margin
        self.clock = clock
        self.cut_short = 0  # decisions the clock stopped before the work limit
        # The engine builds some tables on their first use (the 7's splits, a Sorry!'s
        # placings: about 70 ms); build them now, not inside the first decision.
        build_tables()

    def choose(self, position: Position, legal_moves: Sequence[Move]) -> Move:
        return searched_choice(position, legal_moves, self._search)

    def _search(self, position: Position, legal_moves: Sequence[Move]) -> Move:
        started = self.clock()
        search = Search(position, started + self.budget, self.work, self.clock)
        static: list[tuple[float, int]] = []
        for i, move in enumerate(legal_moves):
            if i % 16 == 15 and self.clock() > search.deadline:
                self.cut_short += 1  # no time even to look at every move once
                return legal_moves[min(static)[1]]
            static.append((-search.static(move), i))
        ordered = [i for _, i in sorted(static)]
        best = ordered[0]
        best_value = float("-inf")
        shallow: list[tuple[float, int]] = []
        for n, i in enumerate(ordered):
            if search.work <= 0:
                break
            try:
                v = search.value(legal_moves[i])
            except OutOfTime:
                self.cut_short += 1
                return legal_moves[best]
            shallow.append((-v, n))
            if v > best_value:
                best, best_value = i, v
        if best_value >= 1.0 or self.deep < 2 or len(shallow) < 2:
            return legal_moves[best]
        # The second pass: the likeliest moves again, a turn deeper, while the work
        # allows; only moves judged at the same depth are compared.
        close = [n for v, n in sorted(shallow)[:self.deep] if -v >= best_value - self.margin]
        if len(close) < 2:  # a clear first choice: a turn deeper would not change it
            return legal_moves[best]
        search.work = self.deep_work
        # The second pass stops early (keeping what it has compared) so that a
        # decision it cannot finish still ends well inside the budget.
        search.deadline = min(search.deadline, started + DEEP_SHARE * self.budget)
        deep_best = best
        deep_value = float("-inf")
        for n in close:
            if search.work <= 0:
                break
            i = ordered[n]
            try:
                v = search.value(legal_moves[i], depth=2)
            except OutOfTime:
                self.cut_short += 1
                break
            if v > deep_value:
                deep_best, deep_value = i, v
        return legal_moves[deep_best]
