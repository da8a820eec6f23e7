"""The game's log: PgUp/PgDn/End scroll it back, L shows all of it in the board's place.

:func:`log_keys` makes these commands for a table (the game, the game over, a
watcher's), with that table's words for them.
"""

from __future__ import annotations

from sorry_lan.i18n import pgettext

from ..commands import Command, Controls, Help, Hint


def _back(c: Controls, key: str) -> None:
    c.state.log_scroll += c.log_page()


def _on(c: Controls, key: str) -> None:
    c.state.log_scroll = max(0, c.state.log_scroll - c.log_page())


def _end(c: Controls, key: str) -> None:
    c.state.log_scroll = 0


def _view(c: Controls, key: str) -> None:
    c.state.log_view = not c.state.log_view


def log_keys(
    hint: bool, help: Help | None = None, view_help: Help | None = None
) -> tuple[Command, ...]:
    """The log's commands; ``hint``: the footer says "PgUp/PgDn log".  Scrolling acts
    while the chat line has the focus too."""
    words = Hint("PgUp/PgDn", lambda: pgettext("key", "log"), 5) if hint else None
    return (
        Command(("pageup",), _back, typing=True, hint=words, help=help),
        Command(("pagedown",), _on, typing=True),
        Command(("end",), _end, typing=True),
        Command(("L",), _view, help=view_help),
    )
