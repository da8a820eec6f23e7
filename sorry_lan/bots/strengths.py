"""The bots' strengths by name: what the command line offers before any bot is loaded.

Names only: the bots themselves are built by :mod:`sorry_lan.bots.registry`.
"""

from __future__ import annotations

# The strengths, weakest first (the order menus offer them in).
STRENGTHS: tuple[str, ...] = ("random", "greedy", "expert", "master")
DEFAULT_STRENGTH = "greedy"
#: The expert's time per decision, in seconds, unless given.
EXPERT_BUDGET = 0.050
