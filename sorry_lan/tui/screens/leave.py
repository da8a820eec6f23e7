"""The leave confirmation ("Leave the game?  y: leave   n/Esc: stay"): its keys.

:data:`TABLE`: y leaves, n or Esc stays, a second Ctrl-C leaves at once.
"""

from __future__ import annotations

from ..commands import Command, Controls, Table
from .shared import leave_now


def _stay(c: Controls, key: str) -> None:
    c.state.confirm_quit = False


TABLE = Table(
    "leave",
    (
        Command(("y",), leave_now, typing=True),
        Command(("n", "escape"), _stay, typing=True),
        Command(("c-c",), leave_now, anytime=True),
    ),
)
