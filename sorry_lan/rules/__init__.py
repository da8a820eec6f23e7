"""The rules of Sorry!: pure, deterministic, stdlib only, no I/O.

Import what you need from here; the submodules say what each part does.
"""

from .board import HOME, START, Colour, location_name, parse_location, parse_pawn, pawn_label
from .cards import Card, Deck
from .events import (
    CardDrawn,
    DrawAgain,
    Event,
    GameOver,
    MovePlayed,
    Reshuffled,
    TurnLost,
    TurnStarted,
)
from .game import Game, GameOverError, IllegalMoveError, Phase
from .movegen import generate
from .moves import Move, MoveContext, MoveKind, Part
from .state import InvariantError, check_invariants, check_layout
from .variants import VARIANTS, Variant, VariantRules, move_context, rules_of

__all__ = [
    "HOME",
    "START",
    "VARIANTS",
    "Card",
    "CardDrawn",
    "Colour",
    "Deck",
    "DrawAgain",
    "Event",
    "Game",
    "GameOver",
    "GameOverError",
    "IllegalMoveError",
    "InvariantError",
    "Move",
    "MoveContext",
    "MoveKind",
    "MovePlayed",
    "Part",
    "Phase",
    "Reshuffled",
    "TurnLost",
    "TurnStarted",
    "Variant",
    "VariantRules",
    "check_invariants",
    "check_layout",
    "generate",
    "location_name",
    "move_context",
    "parse_location",
    "parse_pawn",
    "pawn_label",
    "rules_of",
]
