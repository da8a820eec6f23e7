"""The ``?`` help overlay: its keys (scroll, close).

:data:`TABLE` holds them: while the help is up only these act (and Ctrl-C).
"""

from __future__ import annotations

from ..commands import Command, Controls, Table
from .shared import HELP_KEY


def _on(c: Controls, key: str) -> None:
    c.state.help_scroll += 10 if key == "pagedown" else 1


def _back(c: Controls, key: str) -> None:
    step = 10 if key == "pageup" else 1
    c.state.help_scroll = max(0, c.state.help_scroll - step)


def _close(c: Controls, key: str) -> None:
    c.state.help_visible = False


TABLE = Table(
    "help",
    (
        HELP_KEY,
        Command(("down", "j", "pagedown"), _on, typing=True),
        Command(("up", "k", "pageup"), _back, typing=True),
        Command(("escape",), _close, typing=True),
    ),
)
