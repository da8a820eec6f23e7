"""The leave confirmation ("Leave the game?  y: leave   n/Esc: stay"): its keys, its box.

:data:`TABLE`: y leaves, n or Esc stays, a second Ctrl-C leaves at once.  :func:`build`
makes the box, drawn against the right edge over the screen while it asks.  The
table's host is told first what its leaving does to everyone (:func:`question`).
When another player's laptop can take the table over (protocol version 4,
``UiState.hand_over``), the host (or a player whose laptop hosts the table now,
``HandOver.hosting``: a ``join`` that took it over) chooses: Enter (or h, y, a second
Ctrl-C) hands the table over, the default; e ends the game (closes the table) for
everyone.  Otherwise the table closes with it.  It does not hand anything over
itself: the host command's ``HandOver`` does.
"""

from __future__ import annotations

from prompt_toolkit.layout import Float

from sorry_lan.i18n import _

from ..commands import Command, Controls, Table
from ..state import Screen, UiState
from ..textfit import width, wrap
from .parts import Parts
from .shared import leave_now


def _stay(c: Controls, key: str) -> None:
    c.state.confirm_quit = False


def _hand_over(c: Controls, key: str) -> None:
    c.state.confirm_quit = False
    c.hand_over()


def hosts(st: UiState) -> bool:
    """This player's laptop hosts the table: it owns it, or took it over."""
    return st.is_host or (st.hand_over is not None and st.hand_over.hosting())


def can_hand_over(st: UiState) -> bool:
    """The host may hand its table to another player's laptop now."""
    return hosts(st) and st.hand_over is not None and st.hand_over.possible()


TABLE = Table(
    "leave",
    (
        Command(("enter", "h", "y"), _hand_over, when=can_hand_over, typing=True),
        Command(("e",), leave_now, when=can_hand_over, typing=True),
        Command(("y",), leave_now, typing=True),
        Command(("n", "escape"), _stay, typing=True),
        Command(("c-c",), _hand_over, when=can_hand_over, anytime=True),
        Command(("c-c",), leave_now, anytime=True),
    ),
)


def question(st: UiState) -> list[str]:
    """The question's lines: for the table's host, what leaving does first (wrapped to
    the question's width, so the box stays as narrow as the question)."""
    ask = _("Leave the game?  y: leave   n/Esc: stay")
    if not hosts(st):
        return [ask]
    if can_hand_over(st):
        if st.screen is Screen.GAME:
            warn = _("You host this table. Hand it to another player's laptop (you can "
                     "rejoin as a player), or end the game for everyone?")
            ask = _("Enter: hand it over   e: end the game   n/Esc: stay")
        else:
            warn = _("You host this table. Hand it to another player's laptop (you can "
                     "rejoin as a player), or close it for everyone?")
            ask = _("Enter: hand it over   e: close the table   n/Esc: stay")
        return [*wrap(warn, max(width(ask), 40), first="", rest=""), ask]
    if st.screen is Screen.GAME:
        warn = _("You host this table: if you leave, the game ends for everyone.")
    else:
        warn = _("You host this table: if you leave, it closes for everyone.")
    return [*wrap(warn, max(width(ask), 40), first="", rest=""), ask]


def build(parts: Parts) -> Float:
    """The question's box, shown while it asks."""

    def lines() -> list[str]:
        return parts.box(question(parts.state), _("Leave"))

    return parts.dialog(lines, lambda: parts.state.confirm_quit)
