"""The find screen: the games found on the network, an address, a name and a PIN.

:data:`TABLE` is its keys: choose a game, join it, move between the fields, the
language, quit (at once: there is nothing to lose here).
"""

from __future__ import annotations

from sorry_lan.i18n import _, pgettext

from ..commands import Command, Controls, Help, Hint, Table
from .shared import LANGUAGE, SHARED, leave_now


def _found_up(c: Controls, key: str) -> None:
    st = c.state
    if st.found:
        st.found_selected = (st.found_selected - 1) % len(st.found)


def _found_down(c: Controls, key: str) -> None:
    st = c.state
    if st.found:
        st.found_selected = (st.found_selected + 1) % len(st.found)


def _join(c: Controls, key: str) -> None:
    c.join_from_find()


def _next_field(c: Controls, key: str) -> None:
    c.focus_next()


def _previous_field(c: Controls, key: str) -> None:
    c.focus_previous()


TABLE = Table(
    "find",
    (
        Command(
            ("up",),
            _found_up,
            hint=Hint("↑↓", lambda: pgettext("key", "choose"), 2),
            help=Help(lambda: _("Up/Down"), lambda: _("choose a game found on the network")),
        ),
        Command(("down",), _found_down),
        Command(
            ("enter",),
            _join,
            typing=True,
            hint=Hint("Enter", lambda: pgettext("key", "join"), 1),
            help=Help("Enter", lambda: _("join it (or the address typed below)")),
        ),
        Command(
            ("tab",),
            _next_field,
            typing=True,
            hint=Hint("Tab", lambda: pgettext("key", "fields"), 5),
            help=Help("Tab, Shift-Tab", lambda: _("move between the list and the fields")),
        ),
        Command(("s-tab",), _previous_field, typing=True),
        LANGUAGE,
        *SHARED,
        Command(
            ("q",),
            leave_now,
            hint=Hint("q", lambda: pgettext("key", "quit"), 1),
            help=Help("q", lambda: _("quit (Ctrl-C too)")),
        ),
        Command(("c-c",), leave_now, anytime=True),
    ),
    title=lambda: _("Find a game"),
    rules=False,
)
