"""The leave confirmation ("Leave the game?  y: leave   n/Esc: stay"): its keys, its box.

:data:`TABLE`: y leaves, n or Esc stays, a second Ctrl-C leaves at once.  :func:`build`
makes the box, drawn against the right edge over the screen while it asks.  The
table's host is told first what its leaving does to everyone (:func:`question`): the
table closes with it (it does not hand the table to another player).
"""

from __future__ import annotations

from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout import ConditionalContainer, Float, FormattedTextControl, Window

from sorry_lan.i18n import _

from ..commands import Command, Controls, Table
from ..state import Screen, UiState
from ..textfit import width, wrap
from .parts import Parts
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


def question(st: UiState) -> list[str]:
    """The question's lines: for the table's host, what leaving does first (wrapped to
    the question's width, so the box stays as narrow as the question)."""
    ask = _("Leave the game?  y: leave   n/Esc: stay")
    if not st.is_host:
        return [ask]
    if st.screen is Screen.GAME:
        warn = _("You host this table: if you leave, the game ends for everyone.")
    else:
        warn = _("You host this table: if you leave, it closes for everyone.")
    return [*wrap(warn, max(width(ask), 40), first="", rest=""), ask]


def build(parts: Parts) -> Float:
    """The question's box, shown while it asks."""

    def lines() -> list[str]:
        return parts.box(question(parts.state), _("Leave"))

    def fragments() -> StyleAndTextTuples:
        return [("class:dialog", "\n".join(lines()))]

    window = Window(
        FormattedTextControl(parts.plain(fragments)),
        height=lambda: len(lines()),
        width=lambda: width(lines()[0]),
    )
    asking = Condition(lambda: parts.state.confirm_quit)
    return Float(ConditionalContainer(window, filter=asking), right=0)
