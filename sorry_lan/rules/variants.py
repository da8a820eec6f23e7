"""The ways to play, as a registry: one class per variant, holding its hooks.

A variant decides who may be seated, who plays together, whether players hold hands
(and how many cards), the opening layout, which pawns a player may use for a card,
who has won, what the score counts, and its name and description for the UI (as
gettext message ids, translated by ``i18n``).  :class:`VariantRules` is the standard
game; every other variant subclasses it and overrides what it changes.  A new variant
is one class here, added to :data:`VARIANTS`, plus a member of :class:`Variant` (its
name on the wire) and the translations of its words.

Callers ask the hooks (``variant.rules.partners``, ``rules_of(name).deals_hands``)
instead of comparing a variant's identity.  Hot loops read a hook once per game, not
per move.  This module does not run turns (``game.py``) or generate moves
(``moves.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import StrEnum
from functools import lru_cache
from typing import ClassVar

from .board import HOME, START, colour_pawns, start_exit
from .moves import MoveContext

COLOURS = 4


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs (``rules`` may not import ``i18n``)."""
    return message


def all_home(pawns: Sequence[int], colour: int) -> bool:
    return all(pawns[p] == HOME for p in colour_pawns(colour))


def homes(pawns: Sequence[int], colour: int) -> int:
    return sum(1 for p in colour_pawns(colour) if pawns[p] == HOME)


@lru_cache(maxsize=None, typed=True)  # (a few colour tuples, asked at every move)
def _colour_pawns(*colours: int) -> tuple[int, ...]:
    return tuple(p for c in colours for p in colour_pawns(c))


def team_of(colour: int) -> tuple[int, int]:
    """The two colours of ``colour``'s team, lower first: (red, yellow) or (blue, green)."""
    return (colour % 2, colour % 2 + 2)


def either_or(words: Sequence[str]) -> str:
    """English choices in a sentence: ``a``, ``a or b``, ``a, b or c``."""
    if len(words) < 2:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


class VariantRules:
    """The standard game (RULES.md sections 1-6); each hook is one fact of a variant.

    Hooks are class attributes (read them once per game in a hot loop) and methods.
    """

    name: ClassVar[str] = "standard"
    """Its name on the wire, in adverts, journals and ``--variant``."""
    title: ClassVar[str] = N_("standard")
    """Its name in the UI (a message id; ``i18n.words.variant_title`` translates it)."""
    heading: ClassVar[str] = ""
    """The heading of :attr:`description` in ``?`` help (a message id; may be empty)."""
    description: ClassVar[str] = ""
    """Its rules beyond the standard game, for ``?`` help (a message id; may be empty)."""
    players: ClassVar[range] = range(2, COLOURS + 1)
    """How many colours may be seated."""
    seating_rule: ClassVar[str] = "a game needs 2 to 4 players"
    """What :meth:`seating_problem` says when too few or too many are seated."""
    start_rule: ClassVar[str] = "a game needs at least two players (add a bot?)"
    """What :meth:`start_problem` says when a table has too few players to start."""
    fills_with_bots: ClassVar[bool] = False
    """Whether starting a table seats a bot in every free seat."""
    partners: ClassVar[bool] = False
    """Whether colours play in pairs (red with yellow, blue with green): they win
    together, and a player may move the partner's pawns (so the move context also
    depends on the card after a 2 and on whether the player's own four are HOME)."""
    deals_hands: ClassVar[bool] = False
    """Whether each player holds a hand (plays one card of it) instead of drawing one."""
    hand_size: ClassVar[int] = 0
    """The cards in a hand (0 when no hands are dealt)."""
    scores_points: ClassVar[bool] = False
    """Whether the score is points (shown to players) rather than pawns HOME."""
    may_decline: ClassVar[bool] = True
    """Whether declining the 11 is offered when no pawn can move 11."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"

    def seating_problem(self, seated: Sequence[int]) -> str | None:
        """Why ``seated`` is not a valid set of colours for this variant, or None."""
        if len(set(seated)) != len(seated):
            return "a colour is seated twice"
        if any(c not in range(COLOURS) for c in seated):
            return "unknown colour"
        if not 2 <= len(seated) <= COLOURS:
            return VariantRules.seating_rule
        if len(seated) not in self.players:
            return self.seating_rule
        return None

    def start_problem(self, players: int, free: int) -> str | None:
        """Why a table with ``players`` seated and ``free`` seats left cannot start
        this variant, or None (bots fill the free seats if :attr:`fills_with_bots`)."""
        if self.fills_with_bots:
            return self.start_rule if players + free < self.players[0] else None
        return self.start_rule if players < self.players[0] else None

    def players_wanted(self) -> str:
        """How many players it takes, in figures: ``4`` or ``2 to 4``."""
        lo, hi = self.players[0], self.players[-1]
        return str(lo) if lo == hi else f"{lo} to {hi}"

    def side(self, colour: int) -> tuple[int, ...]:
        """The colours playing for ``colour``, ``colour`` first."""
        return (colour,)

    def winners(self, won: int) -> tuple[int, ...]:
        """The colours that win when ``won`` (a :meth:`winner` result) has won."""
        return (won,)

    def initial_pawns(self, seated: Sequence[int]) -> tuple[int, ...]:
        """The opening layout: every pawn in START."""
        return (START,) * 16

    def move_context(
        self, pawns: Sequence[int], player: int, after_two: bool = False
    ) -> MoveContext:
        """Which pawns ``player`` may use this turn: their own."""
        own = _colour_pawns(player)
        return MoveContext(own, own, (player,), (player,), self.may_decline)

    def winner(self, pawns: Sequence[int], seated: Sequence[int]) -> int | None:
        """The first seated colour with all four pawns HOME, or None."""
        for c in seated:
            if all_home(pawns, c):
                return c
        return None

    def scores(
        self, pawns: Sequence[int], seated: Sequence[int], won: int | None
    ) -> dict[int, int]:
        """Scores per seated colour: the number of pawns HOME."""
        return {c: homes(pawns, c) for c in seated}


class TeamRules(VariantRules):
    """Team play (RULES.md section 7): red with yellow, blue with green, four players.

    A player moves their own pawns until all four are HOME, then the partner's; a 1 or
    2 may bring out either partner's pawn; a 7 may be split between any two of the
    team's eight pawns; the card drawn after a 2 may move either partner's pawns.
    """

    name = "team"
    title = N_("team play")
    heading = N_("Team play")
    description = N_(
        "Red plays with Yellow, Blue with Green; the first team with all eight pawns "
        "HOME wins.  A 7 splits between any two of the team's pawns; 1 and 2 bring "
        "out either partner's pawn. Once your four are HOME, your cards move your "
        "partner's. Partners can bump each other."
    )
    players = range(COLOURS, COLOURS + 1)
    seating_rule = "team play needs all four colours"
    start_rule = "team play needs four seats"
    fills_with_bots = True
    partners = True

    def side(self, colour: int) -> tuple[int, ...]:
        return (colour, (colour + 2) % 4)

    def winners(self, won: int) -> tuple[int, ...]:
        return team_of(won)

    def move_context(
        self, pawns: Sequence[int], player: int, after_two: bool = False
    ) -> MoveContext:
        partner = (player + 2) % 4
        team = _colour_pawns(player, partner)
        if after_two:
            colours: tuple[int, ...] = (player, partner)
        elif all_home(pawns, player):
            colours = (partner,)
        else:
            colours = (player,)
        return MoveContext(_colour_pawns(*colours), team, (player, partner), colours, True)

    def winner(self, pawns: Sequence[int], seated: Sequence[int]) -> int | None:
        """The colour of the team's lower seat, once both partners are all HOME."""
        for c in seated:
            if all_home(pawns, c) and all_home(pawns, (c + 2) % 4):
                return min(c, (c + 2) % 4)
        return None


class PointsRules(VariantRules):
    """Play for points (RULES.md section 8): five-card hands, one pawn out at the start,
    points for pawns HOME and the winner's bonuses; no declining the 11."""

    name = "points"
    title = N_("play for points")
    heading = N_("Play for points")
    description = N_(
        "You hold five cards (the Hand line): each move plays one and draws a new "
        "one; with no move, discard one.  Pawns begin three in START, one on the exit "
        "square.  Scoring: 5 per own pawn HOME; the winner also 5 per opponent pawn "
        "not HOME and a bonus of 100, 50 or 25."
    )
    deals_hands = True
    hand_size = 5
    scores_points = True
    may_decline = False

    def initial_pawns(self, seated: Sequence[int]) -> tuple[int, ...]:
        """Each seated colour's fourth pawn begins on its exit square."""
        pawns = [START] * 16
        for c in seated:
            pawns[colour_pawns(c)[3]] = start_exit(c)
        return tuple(pawns)

    def scores(
        self, pawns: Sequence[int], seated: Sequence[int], won: int | None
    ) -> dict[int, int]:
        """5 per own pawn HOME; the winner adds 5 per opponent pawn not HOME and the
        single highest bonus that applies (100 if no opponent has a pawn HOME, else 50
        if none has more than one, else 25 if none has more than two)."""
        out = {c: 5 * homes(pawns, c) for c in seated}
        if won is not None:
            others = [homes(pawns, c) for c in seated if c != won]
            out[won] += 5 * sum(4 - h for h in others)
            best = max(others, default=0)
            if best == 0:
                out[won] += 100
            elif best <= 1:
                out[won] += 50
            elif best <= 2:
                out[won] += 25
        return out


def _registry(rules: Iterable[VariantRules]) -> dict[str, VariantRules]:
    return {r.name: r for r in rules}


VARIANTS: dict[str, VariantRules] = _registry((VariantRules(), TeamRules(), PointsRules()))
"""Every variant by its wire name, in the order lists show them (standard first)."""


class Variant(StrEnum):
    """A way to play; the value is its name on the wire, in adverts and in journals.

    One member per entry of :data:`VARIANTS` (a test keeps them in step); ask
    :attr:`rules` for what the variant does.
    """

    STANDARD = "standard"
    TEAM = "team"
    POINTS = "points"

    @classmethod
    def parse(cls, text: str) -> Variant:
        try:
            return cls(text.strip().lower())
        except ValueError:
            raise ValueError(
                f"unknown variant {text!r} (choose {either_or(list(VARIANTS))})"
            ) from None

    @classmethod
    def metavar(cls) -> str:
        """The variants' names as argparse shows a choice: ``{standard,team,points}``."""
        return "{" + ",".join(VARIANTS) + "}"

    @property
    def rules(self) -> VariantRules:
        """This variant's hooks."""
        return VARIANTS[self.value]


def rules_of(variant: str) -> VariantRules:
    """The hooks of the variant named ``variant`` (a :class:`Variant` or its wire name);
    ``KeyError`` if there is none."""
    return VARIANTS[variant]


HAND_SIZE = PointsRules.hand_size


def check_seating(variant: Variant, seated: Sequence[int]) -> None:
    """Raise ``ValueError`` unless ``seated`` is a valid set of colours for ``variant``."""
    problem = variant.rules.seating_problem(seated)
    if problem is not None:
        raise ValueError(problem)


def initial_pawns(variant: Variant, seated: Sequence[int]) -> tuple[int, ...]:
    """Opening layout: all in START; in play for points, each fourth pawn on its exit."""
    return variant.rules.initial_pawns(seated)


def move_context(
    variant: Variant, pawns: Sequence[int], player: int, after_two: bool = False
) -> MoveContext:
    """Which pawns ``player`` may use this turn (see :meth:`VariantRules.move_context`)."""
    return variant.rules.move_context(pawns, player, after_two)


def winner(variant: Variant, pawns: Sequence[int], seated: Sequence[int]) -> int | None:
    """The winning colour (in team play, the colour of the team's lower seat), or None."""
    return variant.rules.winner(pawns, seated)


def scores(
    variant: Variant, pawns: Sequence[int], seated: Sequence[int], won: int | None
) -> dict[int, int]:
    """Scores per seated colour (see each variant's :meth:`VariantRules.scores`)."""
    return variant.rules.scores(pawns, seated, won)
