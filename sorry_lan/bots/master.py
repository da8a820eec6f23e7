"""The master: an expectimax search two own turns ahead (or more), about 1 s a decision.

The search alternates chance nodes (the card the player to move draws, every kind
weighted by how many of it the draw pile may hold: the deck less the discard pile and
the seat's own card or hand, all public to it) and decision nodes:

- at its own decisions the master takes the best move (inside the search, only the
  few best by the evaluation of the layout each leaves are searched deeper: move
  ordering and a beam);
- an opponent plays the reply that the evaluation rates best for that opponent (one
  reply, judged at once: a careful player, not an omniscient one);
- a layout at the search's horizon is scored by the win-chance evaluation (a
  probability for the master's side, with the player to act next);
- a move that wins scores 1, one that an opponent wins with 0; after a 2 the same
  player draws again (one turn of the search).

Depth grows by iterative deepening: first one reply ahead (the expert's depth), then
two own turns ahead (2 players: our move, the reply, our next move), then more while
the work fits, unless the choice is settled: once two own turns are searched, a best
move that leads the next by more than :data:`SETTLED` is played at once (deeper
iterations almost never overturn such a lead; see the constant).  Each iteration
searches the root moves best-first (by the previous iteration's value) and leaves out
those that were far behind (:data:`PRUNE`).  The
search counts its work (evaluations and move generations) against a fixed limit
(:data:`WORK`) so that a position always gets the same answer on every machine; a
clock stops it early if the budget (default 1 s) runs out first, and then the deepest
completed iteration decides (among the moves the interrupted one finished, when the
best of them was searched).  It reads only the :class:`Position`; it never sees a
hidden card.

Play for points: its own next turn takes the best of the four cards it keeps and the
one it draws; an opponent's turn is judged one card kind at a time (as the expert
does).  This module does not run games or train the evaluation (``evaluation.py``).
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
from .winchance import Evaluator, evaluator

DEFAULT_BUDGET: Final = 1.0  # seconds per decision
# The clock is read before each move generation; the longest step between two readings
# (the evaluations of a 7's splits among eight pawns) is a few milliseconds.
MARGIN: Final = 0.030
# Work units per decision (the deterministic limit): an evaluation counts 1, a move
# generation 1 plus 1 for every 4 moves it lists.  About 0.5 s of one core here.
# Measured with scripts/bench_master.py (work-limit mode, the smooth evaluation of
# 532541f, seeds 40-43): 234 of 384 games against greedy, 2 players = 60.9% [56.0,
# 65.7] (95% Wilson); its thread's CPU per decision p95 ~695 ms, max 926 ms on 2
# cores shared at load 5-10 (on the first weights, 124 games: 56.5% [47.7, 64.9]).
WORK: Final = 30_000
MAX_DEPTH: Final = 8  # turns after the root move, at most
PRUNE: Final = 0.12  # a root move this far below the best (in win chance) is dropped
BEAM: Final = 3  # own moves searched deeper at an inner decision
# Deepening stops once the best root move leads the next by more than this (in win
# chance) after at least MIN_DEPTH turns.  Measured on 144 positions (expert and
# greedy games, 2 players): depths 3-8 changed the depth-2 choice in 6 (4%), each
# time with the lead at depth 2 under 0.01; with this bound 59% of the decisions stop
# early, none of them with a different move, and the work spent halves.  On the
# smooth evaluation (evaluation FORMAT 2) the same positions: 8 changed (6%), 56%
# stop early, 1 of them with another move, half the work.  So in practice the master
# is a search two own turns deep, and its strength is its evaluation's: a fixed
# depth-2 search won 58.0% [53.1, 62.7] of 400 games against greedy (first weights).
SETTLED: Final = 0.015
MIN_DEPTH: Final = 2
CARDS: Final = tuple(Card)
_TWO = Card.TWO
_DISCARD = MoveKind.DISCARD


class OutOfTime(SorryLanError):
    """The decision budget ran out mid-iteration (caught inside the master)."""


class OutOfWork(SorryLanError):
    """The work limit ran out mid-iteration (caught inside the master)."""


class Search:
    """One decision's search: the position, its caches, the clock and the work left."""

    def __init__(self, position: Position, ev: Evaluator, deadline: float, work: int,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        self.position = position
        self.ev = ev
        self.clock = clock
        self.deadline = deadline
        self.work = work
        self.rules = rules = position.variant.rules
        self.seated = position.seated
        self.me = position.turn
        self.own = frozenset(rules.side(self.me))
        self.points = rules.deals_hands
        self.draws = draw_weights(position)
        self.contexts: dict[tuple[tuple[int, ...], int, bool], MoveContext] = {}
        self.leaves: dict[tuple[tuple[int, ...], int], list[float]] = {}
        self.side = ev.side_of  # colour -> the index of its side in the chances
        self.mine = ev.side_of[self.me]
        self.nodes: dict[tuple[tuple[int, ...], int, bool, int, tuple[Card, ...]], float] = {}
        nxt = [0] * 4
        for i, c in enumerate(self.seated):
            nxt[c] = self.seated[(i + 1) % len(self.seated)]
        self.nxt = nxt

    # -- the pieces --------------------------------------------------------------

    def chances(self, pawns: tuple[int, ...], to_move: int) -> list[float]:
        """Each side's chance (index: :attr:`side`'s), ``to_move`` about to draw."""
        key = (pawns, to_move)
        got = self.leaves.get(key)
        if got is None:
            self.work -= 1
            got = self.leaves[key] = self.ev.side_chances(pawns, to_move)
        return got

    def moves(self, pawns: tuple[int, ...], player: int, card: Card, after_two: bool
              ) -> list[Move]:
        if self.clock() > self.deadline:
            raise OutOfTime
        if self.work <= 0:
            raise OutOfWork
        key = (pawns, player, after_two)
        ctx = self.contexts.get(key)
        if ctx is None:
            ctx = self.contexts[key] = self.rules.move_context(pawns, player, after_two)
        found = HANDLERS[card](pawns, card, ctx)
        self.work -= 1 + (len(found) >> 2)
        return found

    def outcome(self, pawns: tuple[int, ...], home: bool) -> float | None:
        """1 or 0 when ``pawns`` ends the game (our side won or lost), else None."""
        if not home:
            return None
        won = self.rules.winner(pawns, self.seated)
        if won is None:
            return None
        return 1.0 if won in self.own else 0.0

    def next_of(self, player: int, move: Move) -> tuple[int, bool]:
        """Who acts after ``player`` plays ``move``, and whether it follows a 2."""
        if move.card == _TWO and move.kind != _DISCARD:
            return player, True
        return self.nxt[player], False

    # -- the tree -----------------------------------------------------------------

    def after_move(self, pawns: tuple[int, ...], player: int, move: Move, depth: int,
                   kept: tuple[Card, ...] = ()) -> float:
        """Our chance after ``player`` plays ``move`` with ``depth`` turns still to
        search (0: score the layout)."""
        after, home = apply(pawns, move[3])
        done = self.outcome(after, home)
        if done is not None:
            return done
        who, again = self.next_of(player, move)
        if depth <= 0:
            return self.chances(after, who)[self.mine]
        return self.turn(after, who, again, depth, kept)

    def turn(self, pawns: tuple[int, ...], player: int, after_two: bool, depth: int,
             kept: tuple[Card, ...] = ()) -> float:
        """Our expected chance when ``player`` is about to draw (chance node);
        ``kept``: in play for points, the cards we keep for our next turn (used there,
        passed on through the opponents' turns before it)."""
        key = (pawns, player, after_two, depth, kept)
        got = self.nodes.get(key)
        if got is not None:
            return got
        if kept and player != self.me:
            total = 0.0
            for card, p in self.draws:
                total += p * self.decide(pawns, player, card, after_two, depth, kept)
        elif kept:
            # Play for points, our own turn: the best of the kept cards and the one drawn.
            values = {card: self.decide(pawns, player, card, after_two, depth)
                      for card in {*kept, *(c for c, _ in self.draws)}}
            floor = max(values[c] for c in kept)
            total = sum(p * max(values[c], floor) for c, p in self.draws)
        else:
            total = 0.0
            for card, p in self.draws:
                total += p * self.decide(pawns, player, card, after_two, depth)
        self.nodes[key] = total
        return total

    def decide(self, pawns: tuple[int, ...], player: int, card: Card, after_two: bool,
               depth: int, kept: tuple[Card, ...] = ()) -> float:
        """Our chance when ``player`` holds ``card`` (decision node); ``depth`` counts
        this turn; ``kept`` as for :meth:`turn` (an opponent's turn passes it on)."""
        moves = self.moves(pawns, player, card, after_two)
        if not moves:  # the turn is lost (or, in play for points, a card discarded)
            who = self.nxt[player]
            if depth <= 1:
                return self.chances(pawns, who)[self.mine]
            return self.turn(pawns, who, False, depth - 1, kept)
        me = self.mine
        theirs_side = self.side[player]
        ours = player in self.own
        # Each move's static chances (for the player to move: their own side's chance).
        scored: list[tuple[float, float, Move]] = []  # (mover's chance, ours, move)
        # The generators list moves of ``card`` only (never a discard): one next player.
        who = player if card == _TWO else self.nxt[player]
        chances = self.chances
        for move in moves:
            after, home = apply(pawns, move[3])
            done = self.outcome(after, home) if home else None
            if done is not None:
                if (done == 1.0) == ours:
                    return done  # the mover wins: nothing else is searched
                mine = done
                theirs = done if ours else 1.0 - done
            else:
                ch = chances(after, who)
                mine = ch[me]
                theirs = ch[theirs_side]
            scored.append((theirs, mine, move))
        if depth <= 1:
            if ours:
                return max(s[1] for s in scored)
            return max(scored, key=lambda s: s[0])[1]
        if not ours:
            best = max(scored, key=lambda s: s[0])
            return self.after_move(pawns, player, best[2], depth - 1, kept)
        scored.sort(key=lambda s: -s[1])
        return max(self.after_move(pawns, player, s[2], depth - 1) for s in scored[:BEAM])

    def root_value(self, move: Move, depth: int) -> float:
        kept: tuple[Card, ...] = ()
        if self.points:
            rest = list(self.position.cards)
            if move.card in rest:
                rest.remove(move.card)
            kept = tuple(sorted(rest))
        return self.after_move(self.position.pawns, self.me, move, depth, kept)


class MasterBot:
    """Iterative-deepening expectimax with the win-chance evaluation; see the module
    docstring."""

    kind = "master"
    blocks = True  # a search of up to its budget: the host runs it on its bot thread

    def __init__(
        self, seed: int = 0, budget: float = DEFAULT_BUDGET, work: int | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        """``seed`` is kept for the bot interface (the master samples nothing);
        ``work`` is the work limit (default :data:`WORK`, read when the bot is made);
        ``clock`` is what the budget is measured on (wall time by default)."""
        if not budget > 0:
            raise ValueError("a decision budget must be more than 0 seconds")
        self.seed = seed
        self.budget = budget
        self.work = WORK if work is None else work
        self.clock = clock
        self.cut_short = 0  # decisions the clock stopped before the work limit
        self.depths: list[int] = []  # the deepest completed iteration of each decision
        build_tables()

    def choose(self, position: Position, legal_moves: Sequence[Move]) -> Move:
        return searched_choice(position, legal_moves, self._best)

    def _best(self, position: Position, legal_moves: Sequence[Move]) -> Move:
        values = self.values(position, legal_moves)
        return legal_moves[max(range(len(values)), key=lambda i: (values[i], -i))]

    def values(self, position: Position, legal_moves: Sequence[Move]) -> list[float]:
        """Each legal move's win chance from the deepest iteration that finished (the
        moves it left out keep the value of the iteration before, less a little so
        that they never pass a move searched deeper)."""
        started = self.clock()
        search = Search(position, evaluator(position.variant, position.seated),
                        started + self.budget - MARGIN, self.work, self.clock)
        n = len(legal_moves)
        try:
            values = [search.root_value(mv, 0) for mv in legal_moves]
        except OutOfTime:
            self.cut_short += 1
            self.depths.append(-1)
            return [0.0] * n  # no time even to look at every move once: the first
        except OutOfWork:
            self.depths.append(-1)
            return [0.0] * n
        depth_done = 0
        for depth in range(1, MAX_DEPTH + 1):
            order = sorted(range(n), key=lambda i: (-values[i], i))
            best = values[order[0]]
            fresh: dict[int, float] = {}
            try:
                for i in order:
                    if values[i] < best - PRUNE and depth > 1:
                        continue
                    fresh[i] = search.root_value(legal_moves[i], depth)
            except (OutOfTime, OutOfWork) as stop:
                if isinstance(stop, OutOfTime):
                    self.cut_short += 1
                if order[0] in fresh:  # the previous best was searched: use what we have
                    values = self._merge(values, fresh)
                break
            values = self._merge(values, fresh)
            depth_done = depth
            if search.work <= 0 or (depth >= MIN_DEPTH and self._settled(values)):
                break
        self.depths.append(depth_done)
        return values

    @staticmethod
    def _settled(values: list[float]) -> bool:
        """Whether the best value leads the second best by more than :data:`SETTLED`."""
        if len(values) < 2:
            return True
        first, second = sorted(values, reverse=True)[:2]
        return first - second > SETTLED

    @staticmethod
    def _merge(values: list[float], fresh: dict[int, float]) -> list[float]:
        low = min(fresh.values()) if fresh else 0.0
        return [fresh[i] if i in fresh else min(v, low) - 1e-9 for i, v in enumerate(values)]
