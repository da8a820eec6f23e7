"""The ``?`` help overlay: its keys (scroll, close) and its box.

:data:`TABLE` holds the keys: while the help is up only these act (and Ctrl-C).
:func:`build` makes the box, drawn against the right edge over the screen, with the
text of :func:`~..helptext.help_text`, scrolled when the terminal is short of rows;
``r`` opens the whole rules (:mod:`.rules`) in the screen's place.
"""

from __future__ import annotations

from prompt_toolkit.layout import Float

from sorry_lan.i18n import _

from ..commands import Command, Controls, Table
from ..helptext import help_text
from .parts import Parts, size, too_small
from .rules import open_rules
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
        Command(("r",), open_rules, typing=True),
    ),
)


def build(parts: Parts) -> Float:
    """The help box, shown while the help is up (not over the too-small message)."""
    st = parts.state

    def lines() -> list[str]:
        body = help_text(st, max(20, size()[0] - 6)).splitlines()
        st.help_scroll = min(st.help_scroll, max(0, len(body) - (size()[1] - 4) + 1))
        return parts.box(body, _("Help: Esc closes"), st.help_scroll)

    return parts.dialog(lines, lambda: st.help_visible and not too_small(*size()))
