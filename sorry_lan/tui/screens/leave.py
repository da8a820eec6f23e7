"""The leave confirmation ("Leave the game?  y: leave   n/Esc: stay"): its keys, its box.

:data:`TABLE`: y leaves, n or Esc stays, a second Ctrl-C leaves at once.  :func:`build`
makes the box, drawn against the right edge over the screen while it asks.
"""

from __future__ import annotations

from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout import ConditionalContainer, Float, FormattedTextControl, Window

from sorry_lan.i18n import _

from ..commands import Command, Controls, Table
from ..textfit import width
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


def build(parts: Parts) -> Float:
    """The question's box, shown while it asks."""

    def lines() -> list[str]:
        ask = _("Leave the game?  y: leave   n/Esc: stay")
        return parts.box([ask], _("Leave"))

    def fragments() -> StyleAndTextTuples:
        return [("class:dialog", "\n".join(lines()))]

    window = Window(
        FormattedTextControl(parts.plain(fragments)), height=3, width=lambda: width(lines()[0])
    )
    asking = Condition(lambda: parts.state.confirm_quit)
    return Float(ConditionalContainer(window, filter=asking), right=0)
