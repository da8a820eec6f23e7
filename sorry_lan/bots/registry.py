"""The bots by strength: ``make_bot(kind, seed)`` builds one, ``bot_kinds()`` lists them.

Adding a bot is one line in :data:`FACTORIES`.  This module does not choose moves
(the bots do) and does not run games.
"""

from __future__ import annotations

from collections.abc import Callable

from sorry_lan.errors import SorryLanError

from ..rules.game import Game
from .base import DEFAULT_STRENGTH, STRENGTHS, Bot, position_of
from .expert import ExpertBot
from .greedy import GreedyBot
from .master import MasterBot
from .random_bot import RandomBot

BotFactory = Callable[..., Bot]

#: Every bot kind and what builds one from a seed (a benchmark may add a reference
#: bot of its own here; the strengths are the four below).
FACTORIES: dict[str, BotFactory] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "expert": ExpertBot,
    "master": MasterBot,
}


class UnknownBotError(SorryLanError, ValueError):
    """No bot of that kind exists."""


def bot_kinds() -> tuple[str, ...]:
    """The bot kinds: the strengths, weakest first, then any other kind added."""
    return tuple(k for k in STRENGTHS if k in FACTORIES) + tuple(
        sorted(k for k in FACTORIES if k not in STRENGTHS))


def parse_strength(text: str) -> str:
    """``text`` as a bot kind; :class:`UnknownBotError` if it names none."""
    kind = text.strip().lower()
    if kind not in FACTORIES:
        raise UnknownBotError(f"unknown bot strength {text!r} (choose {', '.join(bot_kinds())})")
    return kind


def make_bot(kind: str, seed: int | None = 0, *, budget: float | None = None) -> Bot:
    """A bot of ``kind`` (``'random'``, ``'greedy'``, ``'expert'``, ``'master'``) with
    ``seed``.

    ``budget`` is the expert's time per decision in seconds (ignored by the others:
    the master keeps its own, about 1 s).
    """
    kind = parse_strength(kind)
    factory = FACTORIES[kind]
    seed = seed or 0
    if budget is not None and kind == "expert":
        return factory(seed, budget=budget)
    return factory(seed)


def play_out(game: Game, strength: str = DEFAULT_STRENGTH, budget: float | None = None
             ) -> Game:
    """Play ``game`` (started) to its end with a bot of ``strength`` on every seat, as
    the host's own bots would (seed 0); returns it."""
    bot = make_bot(strength, 0, budget=budget)
    while not game.over:
        game.play(bot.choose(position_of(game), game.legal_moves()))
    return game
