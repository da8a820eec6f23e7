"""The bots by name: ``make_bot(kind, seed)`` builds one, ``bot_kinds()`` lists them.

Adding a bot is one line in :data:`FACTORIES`.  This module does not choose moves
(the bots do) and does not run games.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from sorry_lan.errors import SorryLanError

from .base import Bot
from .greedy import GreedyBot
from .random_bot import RandomBot

BotFactory = Callable[[int | None], Bot]

#: Every bot kind and what builds one from a seed.
FACTORIES: Final[Mapping[str, BotFactory]] = {"greedy": GreedyBot, "random": RandomBot}


class UnknownBotError(SorryLanError, ValueError):
    """No bot of that kind exists."""


def bot_kinds() -> tuple[str, ...]:
    """The bot kinds, sorted."""
    return tuple(sorted(FACTORIES))


def make_bot(kind: str, seed: int | None = None) -> Bot:
    """A new bot of ``kind`` (``'random'``, ``'greedy'``), seeded for reproducible play."""
    try:
        factory = FACTORIES[kind.strip().lower()]
    except KeyError:
        known = ", ".join(bot_kinds())
        raise UnknownBotError(f"unknown bot kind {kind!r} (choose {known})") from None
    return factory(seed)
