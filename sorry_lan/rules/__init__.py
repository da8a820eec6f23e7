"""The rules of Sorry!: pure, deterministic, stdlib only, no I/O.

Import what you need from here; the submodules say what each part does.

A name is loaded with its submodule when first asked for, so importing one
submodule (``sorry_lan.rules.variants``) does not load the move generator.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
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

#: Where each exported name is defined: its submodule is imported when the name is
#: first asked for.
_HOMES: dict[str, str] = {
    "HOME": "board",
    "START": "board",
    "Colour": "board",
    "location_name": "board",
    "parse_location": "board",
    "parse_pawn": "board",
    "pawn_label": "board",
    "Card": "cards",
    "Deck": "cards",
    "CardDrawn": "events",
    "DrawAgain": "events",
    "Event": "events",
    "GameOver": "events",
    "MovePlayed": "events",
    "Reshuffled": "events",
    "TurnLost": "events",
    "TurnStarted": "events",
    "Game": "game",
    "GameOverError": "game",
    "IllegalMoveError": "game",
    "Phase": "game",
    "generate": "movegen",
    "Move": "moves",
    "MoveContext": "moves",
    "MoveKind": "moves",
    "Part": "moves",
    "InvariantError": "state",
    "check_invariants": "state",
    "check_layout": "state",
    "VARIANTS": "variants",
    "Variant": "variants",
    "VariantRules": "variants",
    "move_context": "variants",
    "rules_of": "variants",
}

if not TYPE_CHECKING:
    # Hidden from mypy, which would otherwise take any name as one this package has.
    def __getattr__(name: str) -> object:
        home = _HOMES.get(name)
        if home is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        from importlib import import_module

        value = getattr(import_module(f"{__name__}.{home}"), name)
        globals()[name] = value
        return value
