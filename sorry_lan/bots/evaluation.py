"""The learned evaluation: each side's chance to win a layout, from fitted weights.

A conditional logit (a softmax over the sides at the table): each side gets a score
``z`` that is a weighted sum of the features below, and its chance to win is
``exp(z) / sum(exp(z) over the sides)``.  The weights are fitted by
``scripts/train_eval.py`` on positions of greedy-against-greedy games our own engine
plays (seeded), one set per variant and player count (:data:`MODELS`), and shipped as
``weights.json`` beside this module; they are read with the standard library only.

The features of one side (its colour, or both partners' in team play), and why:

* **where each pawn is** -- a smooth function of its place: START, HOME, each of the
  five safety squares, and on the track a piecewise-linear function of its distance to
  HOME (a knot every :data:`KNOT` squares, :func:`basis`), each counted twice, weighed
  by how far the game has gone (``t``: 0 when every pawn is in START, 1 when all are
  HOME) and by ``1 - t``.  A race is won by the last pawn, and a lead of ten squares
  means more near the end than at the start: two sets let the fit learn both without
  a network.  One weight per square (the first version) fitted noise: neighbouring
  squares differed by more than five squares of progress are worth, and the expert,
  choosing between the squares one card offers, played that noise.  A pawn parked
  just behind its start exit (after a 4 backward) is near HOME by its distance, as it
  should be.
* **the last pawn** -- the side's farthest-behind pawn's distance to HOME (weighed by
  ``t`` and ``1 - t``): the sum of the pawns' places cannot tell four pawns half-way
  from three HOME and one in START.
* **danger** -- for each of the side's track pawns, the chance that an opponent's next
  card can bump it (landing or sliding on it, or leaving START onto it; from the
  deck's card counts, :data:`~sorry_lan.bots.judge.HIT`), times the share of the board
  it would lose, summed; and a Sorry!'s chance times the side's best track pawn when
  an opponent has a pawn in START.  Two features: the opponents who move before the
  side's next turn (the pawn cannot run first), and those who move after it; each
  again times ``t``.
* **whose turn it is** -- one weight per place in the turn order (0: the side moves
  next), and the side's being next weighed by ``t`` (a tempo matters most at the end).
* **the hand** (play for points only, for the side to move: the only hand anyone
  knows) -- each card kind's count less its average share of five cards, and the
  starters (1, 2, Sorry!) so counted when the side has a pawn in START; a card not
  known (the one still to be drawn) counts at its average, i.e. zero.

It leaves out the discard pile (a reshuffle makes the counts noisy and the fit found
little in them in early trials), partners' bumps of each other, and anything hidden.
This module only scores layouts: it does not look ahead (``expert.py``) or fit
(``scripts/train_eval.py``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import Any, Final

from ..rules.board import HOME, NUM_LOCATIONS, START, TRACK_LEN, safety_entry
from ..rules.cards import DECK_COUNTS, DECK_SIZE, Card
from ..rules.game import hand_moves
from ..rules.movegen import generate
from ..rules.moves import MoveKind
from ..rules.playout import apply
from ..rules.variants import Variant, move_context
from .base import Position
from .judge import HIT, SORRY_CHANCE

WEIGHTS_FILE: Final = "weights.json"
FORMAT: Final = 2

# A pawn's place, by its class (CLASS below: 0 HOME, 1..5 the safety squares by the
# squares still to go, 6..65 the track by its distance to HOME, 66 START), enters the
# features through a small basis (:func:`basis`): START, HOME, each safety square, and
# on the track a piecewise-linear function of the distance with a knot every
# KNOT squares (a pawn between two knots counts for both, by how near it is).
CLASSES: Final = 67
START_CLASS: Final = 66
KNOT: Final = 5
KNOTS: Final = (TRACK_LEN - 1) // KNOT + 2  # 6, 11, ..., 66
B_START: Final = 0
B_HOME: Final = 1
B_SAFE: Final = 2  # B_SAFE + k - 1 for a pawn with k (1..5) safety squares to go
B_TRACK: Final = B_SAFE + 5
BASIS: Final = B_TRACK + KNOTS

# Feature indices (one side's feature vector).
EARLY: Final = 0  # EARLY + basis: the side's pawns, weighed by 1 - t
LATE: Final = BASIS  # LATE + basis: the same, weighed by t
LAST_EARLY: Final = 2 * BASIS  # the farthest-behind pawn's distance (share of 65), 1 - t
LAST_LATE: Final = LAST_EARLY + 1  # the same, weighed by t
DANGER_BEFORE: Final = LAST_LATE + 1
DANGER_AFTER: Final = DANGER_BEFORE + 1
DANGER_BEFORE_LATE: Final = DANGER_AFTER + 1  # the danger features again, times t
DANGER_AFTER_LATE: Final = DANGER_BEFORE_LATE + 1
OFFSET: Final = DANGER_AFTER_LATE + 1  # OFFSET + place in the turn order (0..3)
TEMPO: Final = OFFSET + 4  # the side moves next, times t
HAND: Final = TEMPO + 1  # HAND + i: card kind i's count less its average (points)
HAND_START: Final = HAND + len(Card)  # starters in hand, when a pawn is in START
FEATURES: Final = HAND_START + 1

KINDS: Final = tuple(Card)
KIND_INDEX: Final = {card: i for i, card in enumerate(KINDS)}
HAND_SIZE: Final = 5
AVERAGE: Final = tuple(HAND_SIZE * DECK_COUNTS[card] / DECK_SIZE for card in KINDS)
STARTERS: Final = (Card.ONE, Card.TWO, Card.SORRY)
AVERAGE_STARTERS: Final = sum(AVERAGE[KIND_INDEX[c]] for c in STARTERS)
FULL: Final = 65.0  # a pawn's distance from START to HOME, in squares
# One colour's figures for :meth:`Evaluator.scores`: the sums of its pawns' early and
# late weights, of their distances to HOME and the farthest-behind one's, the HIT rows
# it attacks from (its track pawns, then START if a pawn is there), its track pawns
# (square, share of the board lost if bumped), and whether a pawn is in START.
Colour = tuple[float, float, float, float, tuple[int, ...], tuple[tuple[int, float], ...],
               bool]
# How many colours' figures an evaluator keeps for each colour before it starts again
# (a decision meets a few hundred; a game a few thousand).
MEMO: Final = 1 << 14
NO_COLOUR: Final[Colour] = (0.0, 0.0, 0.0, 0.0, (), (), False)  # an unseated colour


def basis(k: int) -> tuple[tuple[int, float], ...]:
    """The basis functions (index, value) of a pawn of class ``k``."""
    if k == START_CLASS:
        return ((B_START, 1.0),)
    if k == 0:
        return ((B_HOME, 1.0),)
    if k <= 5:
        return ((B_SAFE + k - 1, 1.0),)
    x = (k - 6) / KNOT
    i = int(x)
    f = x - i
    return tuple((B_TRACK + j, v) for j, v in ((i, 1.0 - f), (i + 1, f)) if v > 0.0)


def _class(colour: int, loc: int) -> int:
    if loc == START:
        return START_CLASS
    if loc == HOME:
        return 0
    if loc >= TRACK_LEN:  # S1..S5: 5..1 squares to go
        return HOME - loc
    return (safety_entry(colour) - loc) % TRACK_LEN + 6


# CLASS[colour * NUM_LOCATIONS + loc]: the pawn's class; LOST: the share of the
# board a pawn there loses when bumped (0 off the track, where nothing can bump it).
CLASS: Final = tuple(_class(c, loc) for c in range(4) for loc in range(NUM_LOCATIONS))
BASES: Final = tuple(basis(k) for k in range(CLASSES))
TO_GO: Final = tuple(
    FULL if k == START_CLASS else float(k) for k in CLASS)
LOST: Final = tuple(
    (FULL - k) / FULL if loc < TRACK_LEN else 0.0
    for k, loc in zip(CLASS, [loc for _ in range(4) for loc in range(NUM_LOCATIONS)],
                      strict=True)
)


def model_name(variant: Variant, players: int) -> str:
    """The weights' key for a variant and player count, e.g. ``standard-2``."""
    return f"{variant.value}-{players}"


#: The models the script fits, and the one each other table uses (play for points
#: with 3 or 4 players: the 2-player hand features and pawn weights, with the
#: turn-order weights of the same table).
MODELS: Final = ("standard-2", "standard-3", "standard-4", "team-4", "points-2")
FALLBACK: Final = {"points-3": "points-2", "points-4": "points-2"}


class Evaluator:
    """The fitted evaluation for one variant and seating; see the module docstring."""

    def __init__(self, variant: Variant, seated: Sequence[int],
                 weights: Sequence[float]) -> None:
        if len(weights) != FEATURES:
            raise ValueError(f"expected {FEATURES} weights, got {len(weights)}")
        self.variant = variant
        self.seated = tuple(sorted(seated))
        rules = variant.rules
        self.points = rules.deals_hands
        sides: list[tuple[int, ...]] = []
        for c in self.seated:
            side = tuple(sorted(rules.side(c)))
            if side not in sides:
                sides.append(side)
        self.sides = tuple(sides)
        self.side_of = {c: i for i, side in enumerate(sides) for c in side}
        w = tuple(float(x) for x in weights)
        self.weights = w
        # A pawn's two weights, by colour and location (the hot loop reads these).
        self.early = tuple(sum(w[EARLY + j] * v for j, v in BASES[k]) for k in CLASS)
        self.late = tuple(sum(w[LATE + j] * v for j, v in BASES[k]) for k in CLASS)
        self.pawn_count = 4 * len(self.seated)
        # Each colour's figures by its four pawns (:meth:`colour`): a search scores
        # thousands of layouts that differ in one colour's pawns.
        self._colours: tuple[dict[tuple[int, ...], Colour], ...] = ({}, {}, {}, {})
        # By the player to move: each side's place in the turn order and, for each
        # side, the opponents' colours that move before it and after it.
        self.orders: dict[int, tuple[tuple[int, ...], tuple[tuple[tuple[int, ...],
                                                                   tuple[int, ...]], ...]]] = {}
        n = len(self.seated)
        for to_move in self.seated:
            i = self.seated.index(to_move)
            place = {self.seated[(i + k) % n]: k for k in range(n)}
            offsets = tuple(min(place[c] for c in side) for side in self.sides)
            attackers = tuple(
                (tuple(c for c in self.seated if c not in side and place[c] < off),
                 tuple(c for c in self.seated if c not in side and place[c] > off))
                for side, off in zip(self.sides, offsets, strict=True))
            self.orders[to_move] = (offsets, attackers)

    # -- features ----------------------------------------------------------------

    def stage(self, pawns: Sequence[int]) -> float:
        """``t``: how far the game has gone (0: every pawn in START, 1: all HOME)."""
        to_go = TO_GO
        total = 0.0
        for c in self.seated:
            base = c * NUM_LOCATIONS
            for p in range(c * 4, c * 4 + 4):
                total += to_go[base + pawns[p]]
        return 1.0 - total / (FULL * self.pawn_count)

    def danger(self, pawns: Sequence[int], side: Sequence[int],
               attackers: Sequence[int]) -> float:
        """The danger feature of ``side`` from the colours ``attackers``."""
        if not attackers:
            return 0.0
        rows: list[int] = []
        sorry = False
        for c in attackers:
            base = c * NUM_LOCATIONS
            starting = False
            for p in range(c * 4, c * 4 + 4):
                loc = pawns[p]
                if loc < TRACK_LEN:
                    rows.append((base + loc) * TRACK_LEN)
                elif loc == START:
                    starting = True
            if starting:
                sorry = True
                rows.append((base + START) * TRACK_LEN)
        hit = HIT
        lost = LOST
        total = 0.0
        best = 0.0
        for c in side:
            base = c * NUM_LOCATIONS
            for p in range(c * 4, c * 4 + 4):
                loc = pawns[p]
                if loc >= TRACK_LEN:
                    continue
                share = lost[base + loc]
                if share > best:
                    best = share
                chance = 0.0
                for row in rows:
                    chance += hit[row + loc]
                total += (chance if chance < 1.0 else 1.0) * share
        if sorry:
            total += SORRY_CHANCE * best
        return total

    def hand_features(self, pawns: Sequence[int], side: Sequence[int],
                      hand: Sequence[Card]) -> list[float]:
        """The hand features (count less average per kind, then the starters')."""
        if len(hand) > HAND_SIZE:
            raise ValueError("a hand holds at most five cards")
        missing = (HAND_SIZE - len(hand)) / DECK_SIZE
        counts = [missing * DECK_COUNTS[card] - AVERAGE[i] for i, card in enumerate(KINDS)]
        for card in hand:
            counts[KIND_INDEX[card]] += 1.0
        starting = any(pawns[p] == START for c in side for p in range(c * 4, c * 4 + 4))
        starters = sum(counts[KIND_INDEX[c]] for c in STARTERS) if starting else 0.0
        return [*counts, starters]

    def features(self, pawns: Sequence[int], to_move: int,
                 hand: Sequence[Card] | None = None) -> list[dict[int, float]]:
        """Each side's features (sparse: index -> value), in :attr:`sides` order."""
        t = self.stage(pawns)
        offsets, attackers = self.orders[to_move]
        out: list[dict[int, float]] = []
        for side, off, (before, after) in zip(self.sides, offsets, attackers, strict=True):
            f: dict[int, float] = {}
            last = 0.0
            for c in side:
                base = c * NUM_LOCATIONS
                for p in range(c * 4, c * 4 + 4):
                    k = CLASS[base + pawns[p]]
                    last = max(last, TO_GO[base + pawns[p]])
                    for j, v in BASES[k]:
                        f[EARLY + j] = f.get(EARLY + j, 0.0) + v * (1.0 - t)
                        f[LATE + j] = f.get(LATE + j, 0.0) + v * t
            f[LAST_EARLY] = (1.0 - t) * last / FULL
            f[LAST_LATE] = t * last / FULL
            f[DANGER_BEFORE] = self.danger(pawns, side, before)
            f[DANGER_AFTER] = self.danger(pawns, side, after)
            f[DANGER_BEFORE_LATE] = t * f[DANGER_BEFORE]
            f[DANGER_AFTER_LATE] = t * f[DANGER_AFTER]
            f[OFFSET + off] = 1.0
            if off == 0:
                f[TEMPO] = t
                if self.points and hand is not None:
                    for i, v in enumerate(self.hand_features(pawns, side, hand)):
                        f[HAND + i] = v
            out.append({i: v for i, v in f.items() if v != 0.0})
        return out

    # -- chances -----------------------------------------------------------------

    def scores(self, pawns: Sequence[int], to_move: int,
               hand: Sequence[Card] | None = None) -> list[float]:
        """Each side's score ``z`` (the softmax's input), in :attr:`sides` order: the
        weights times :meth:`features`, from each colour's :meth:`colour` figures."""
        w = self.weights
        hit = HIT
        if type(pawns) is not tuple:
            pawns = tuple(pawns)
        figures = [NO_COLOUR] * 4
        # The sum of the pawns' distances is a sum of whole numbers: exact in any order.
        remaining = 0.0
        for c in self.seated:
            key = pawns[c * 4:c * 4 + 4]
            f = self._colours[c].get(key)
            if f is None:
                f = self.colour(c, key)
            figures[c] = f
            remaining += f[2]
        t = 1.0 - remaining / (FULL * self.pawn_count)
        u = 1.0 - t
        offsets, attackers = self.orders[to_move]
        out: list[float] = []
        for side, off, pair in zip(self.sides, offsets, attackers, strict=True):
            z = w[OFFSET + off]
            behind = 0.0
            for c in side:
                f = figures[c]
                z += u * f[0] + t * f[1]
                if f[3] > behind:
                    behind = f[3]
            z += (u * w[LAST_EARLY] + t * w[LAST_LATE]) * behind / FULL
            for weight, against in zip((w[DANGER_BEFORE] + t * w[DANGER_BEFORE_LATE],
                                        w[DANGER_AFTER] + t * w[DANGER_AFTER_LATE]), pair,
                                       strict=True):
                if not against:
                    continue
                # The attackers' HIT rows in the order :meth:`danger` adds them.
                rows: tuple[int, ...] = ()
                sorry = False
                for a in against:
                    fa = figures[a]
                    rows += fa[4]
                    sorry = sorry or fa[6]
                danger = 0.0
                best = 0.0
                for c in side:
                    for loc, share in figures[c][5]:
                        if share > best:
                            best = share
                        chance = 0.0
                        for row in rows:
                            chance += hit[row + loc]
                        danger += (chance if chance < 1.0 else 1.0) * share
                if sorry:
                    danger += SORRY_CHANCE * best
                z += weight * danger
            if off == 0:
                z += w[TEMPO] * t
                if self.points and hand is not None:
                    for i, v in enumerate(self.hand_features(pawns, side, hand)):
                        z += w[HAND + i] * v
            out.append(z)
        return out

    def colour(self, c: int, own: tuple[int, ...]) -> Colour:
        """The figures of colour ``c`` whose pawns are at ``own`` that :meth:`scores`
        reads (see :data:`Colour`), kept for the next layout with the same four."""
        base = c * NUM_LOCATIONS
        e = la = g = behind = 0.0
        rows: list[int] = []
        track: list[tuple[int, float]] = []
        starting = False
        for loc in own:
            i = base + loc
            e += self.early[i]
            la += self.late[i]
            to_go = TO_GO[i]
            g += to_go
            if to_go > behind:
                behind = to_go
            if loc < TRACK_LEN:
                rows.append(i * TRACK_LEN)
                track.append((loc, LOST[i]))
            elif loc == START:
                starting = True
        if starting:
            rows.append((base + START) * TRACK_LEN)
        figures = (e, la, g, behind, tuple(rows), tuple(track), starting)
        memo = self._colours[c]
        if len(memo) >= MEMO:
            memo.clear()
        memo[own] = figures
        return figures

    def side_chances(self, pawns: Sequence[int], to_move: int,
                     hand: Sequence[Card] | None = None) -> list[float]:
        """Each side's chance to win, in :attr:`sides` order (they sum to 1)."""
        z = self.scores(pawns, to_move, hand)
        top = max(z)
        e = [math.exp(v - top) for v in z]
        total = sum(e)
        return [v / total for v in e]

    def chances(self, pawns: Sequence[int], to_move: int,
                hand: Sequence[Card] | None = None) -> tuple[float, ...]:
        """The chance that each colour (index 0..3) wins: ``to_move`` is next to act,
        before its card is drawn (in play for points, holding ``hand`` if known);
        0.0 for an unseated colour, a team's chance for both partners."""
        by_side = self.side_chances(pawns, to_move, hand)
        out = [0.0] * 4
        for c, i in self.side_of.items():
            out[c] = by_side[i]
        return tuple(out)

    def chance(self, pawns: Sequence[int], to_move: int, seat: int,
               hand: Sequence[Card] | None = None) -> float:
        """The chance that ``seat`` (its side) wins; see :meth:`chances`."""
        return self.side_chances(pawns, to_move, hand)[self.side_of[seat]]

    def batch(self, layouts: Sequence[tuple[Sequence[int], int]], seat: int) -> list[float]:
        """:meth:`chance` of ``seat`` for each ``(pawns, to_move)``."""
        return [self.chance(pawns, to_move, seat) for pawns, to_move in layouts]


# -- the weights file ----------------------------------------------------------------


def checksum(models: dict[str, list[float]]) -> str:
    """The weights' fingerprint: SHA-256 of their canonical JSON (16 hex digits)."""
    import hashlib

    text = json.dumps({k: [round(x, 6) for x in v] for k, v in sorted(models.items())},
                      sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def load(text: str) -> dict[str, Any]:
    """A weights file's content, checked: its format, and its weights against their
    checksum (``ValueError`` if either is wrong)."""
    data: dict[str, Any] = json.loads(text)
    if data.get("format") != FORMAT:
        raise ValueError(f"{WEIGHTS_FILE}: unknown format {data.get('format')!r}")
    if checksum(data["models"]) != data["checksum"]:
        raise ValueError(f"{WEIGHTS_FILE}: the weights do not match their checksum")
    return data


@cache
def shipped() -> dict[str, Any]:
    """The weights file shipped in the package, as :func:`load` reads it."""
    return load(resources.files(__package__).joinpath(WEIGHTS_FILE).read_text(
        encoding="utf-8"))


@cache
def evaluator(variant: Variant, seated: tuple[int, ...]) -> Evaluator:
    """The shipped evaluation for ``variant`` with the colours ``seated``."""
    models: dict[str, list[float]] = shipped()["models"]
    name = model_name(variant, len(seated))
    name = FALLBACK.get(name, name)
    return Evaluator(variant, seated, models[name])


def win_probability(position: Position, seat: int | None = None) -> float:
    """The chance that ``seat`` (default: the player to move) wins from ``position``
    with no lookahead: the player to move plays the move whose layout the evaluation
    rates best for its side (in play for points, keeping the rest of its hand)."""
    ev = evaluator(position.variant, position.seated)
    me = position.turn
    who = me if seat is None else seat
    ctx = move_context(position.variant, position.pawns, me, position.after_two)
    if position.variant.rules.deals_hands:
        moves = hand_moves(position.pawns, position.cards, ctx)
    elif position.cards:
        moves = generate(position.pawns, position.cards[0], ctx)
    else:
        moves = []
    nxt = position.seated[(position.seated.index(me) + 1) % len(position.seated)]
    if not moves:
        return ev.chance(position.pawns, nxt, who)
    best: tuple[float, ...] | None = None
    for move in moves:
        after, _ = apply(position.pawns, move[3])
        winner = position.variant.rules.winner(after, position.seated)
        if winner is not None:
            won = position.variant.rules.winners(winner)
            chances = tuple(1.0 if c in won else 0.0 for c in range(4))
        else:
            again = move.card == Card.TWO and move.kind != MoveKind.DISCARD
            chances = ev.chances(after, me if again else nxt)
        if best is None or chances[me] > best[me]:
            best = chances
    assert best is not None
    return best[who]
