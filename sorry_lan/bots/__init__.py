"""Computer players: they choose among the legal moves the engine offers.

``make_bot(kind, seed)`` builds one by strength (``'random'``, ``'greedy'``,
``'expert'``, ``'master'``); each reads only a :class:`Position` (what the seat to move may know).
Bots do no I/O: ``sorry-lan simulate``, the host's seats and ``sorry-lan bot`` drive
them.
"""

from .base import (
    DEFAULT_STRENGTH,
    STRENGTHS,
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
