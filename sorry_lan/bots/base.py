"""The bot interface and the registry that builds bots by name.

A bot picks one move from the legal moves the engine offers; it never invents a move,
never looks at the deck and never changes the position it is shown.  This module does not
run games (``sorry-lan simulate`` and the network bot client do).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from ..rules.moves import Move
from ..rules.variants import Variant


class Position(Protocol):
    """What a bot may read: a :class:`~sorry_lan.rules.game.Game` or a seat's ``View``."""

    @property
    def variant(self) -> Variant: ...

    @property
    def seated(self) -> tuple[int, ...]: ...

    @property
    def pawns(self) -> tuple[int, ...]: ...

    @property
    def turn(self) -> int: ...


class Bot(Protocol):
    """Something that chooses a move for the player whose turn it is."""

    kind: str

    def choose(self, position: Position, legal_moves: Sequence[Move]) -> Move:
        """One of ``legal_moves`` (which is never empty) for ``position.turn``."""
        ...


class UnknownBotError(ValueError):
    """No bot of that kind exists."""


BotFactory = Callable[[int | None], Bot]

_REGISTRY: dict[str, BotFactory] = {}


def register(kind: str, factory: BotFactory) -> None:
    """Make ``make_bot(kind, seed)`` build bots with ``factory(seed)``."""
    _REGISTRY[kind] = factory


def bot_kinds() -> tuple[str, ...]:
    """The registered bot kinds, sorted."""
    _load()
    return tuple(sorted(_REGISTRY))


def make_bot(kind: str, seed: int | None = None) -> Bot:
    """A new bot of ``kind`` (``'random'``, ``'greedy'``), seeded for reproducible play."""
    _load()
    try:
        factory = _REGISTRY[kind.strip().lower()]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        raise UnknownBotError(f"unknown bot kind {kind!r} (choose {known})") from None
    return factory(seed)


def _load() -> None:
    # The built-in bots register themselves on import.
    from . import greedy, random_bot  # noqa: F401
