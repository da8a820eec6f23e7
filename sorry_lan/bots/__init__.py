"""Computer players: they choose among the legal moves the engine offers.

``make_bot(kind, seed)`` builds one by strength (``'random'``, ``'greedy'``,
``'expert'``, ``'master'``); each reads only a :class:`Position` (what the seat to move may know).
Bots do no I/O: ``sorry-lan simulate``, the host's seats and ``sorry-lan bot`` drive
them.

A name is loaded with its submodule when first asked for, so importing one
submodule (``sorry_lan.bots.strengths``) does not load the bots.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .base import (
        Bot,
        Position,
        bot_name,
        level_of,
        made_name,
        position_of,
    )
    from .expert import ExpertBot
    from .greedy import GreedyBot
    from .master import MasterBot
    from .random_bot import RandomBot
    from .registry import UnknownBotError, bot_kinds, make_bot, parse_strength, play_out
    from .strengths import DEFAULT_STRENGTH, STRENGTHS

__all__ = [
    "DEFAULT_STRENGTH",
    "STRENGTHS",
    "Bot",
    "ExpertBot",
    "GreedyBot",
    "MasterBot",
    "Position",
    "RandomBot",
    "UnknownBotError",
    "bot_kinds",
    "bot_name",
    "level_of",
    "made_name",
    "make_bot",
    "parse_strength",
    "play_out",
    "position_of",
]

#: Where each exported name is defined: its submodule is imported when the name is
#: first asked for.
_HOMES: dict[str, str] = {
    "DEFAULT_STRENGTH": "strengths",
    "STRENGTHS": "strengths",
    "Bot": "base",
    "Position": "base",
    "bot_name": "base",
    "level_of": "base",
    "made_name": "base",
    "position_of": "base",
    "ExpertBot": "expert",
    "GreedyBot": "greedy",
    "MasterBot": "master",
    "RandomBot": "random_bot",
    "UnknownBotError": "registry",
    "bot_kinds": "registry",
    "make_bot": "registry",
    "parse_strength": "registry",
    "play_out": "registry",
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
