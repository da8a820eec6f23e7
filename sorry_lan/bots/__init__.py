"""Computer players: they choose among the legal moves the engine offers.

``make_bot(kind, seed)`` builds one by name (``'random'``, ``'greedy'``).  Bots do no
I/O; the network bot client and ``sorry-lan simulate`` drive them.
"""

from .base import Bot, Position
from .greedy import GreedyBot
from .random_bot import RandomBot
from .registry import UnknownBotError, bot_kinds, make_bot

__all__ = ["Bot", "GreedyBot", "Position", "RandomBot", "UnknownBotError", "bot_kinds", "make_bot"]
