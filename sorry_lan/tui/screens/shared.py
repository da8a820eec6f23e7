"""The commands several tables hold: help, leaving, the language, host lost.

:data:`SHARED` is the table every screen includes (the ``?`` help).  The rest are
actions and command builders the screens' tables use with their own words (leaving is
"quit" on the find screen, "leave" at a table), and the small table :data:`LOST` (the
host is lost: rejoin).  The chat's commands are in :mod:`.chat`.  Nothing here draws.
"""

from __future__ import annotations

from sorry_lan.i18n import _, pgettext

from ..commands import Command, Controls, Help, Hint, Predicate, Table, always
from ..state import Link, UiState

#: The key that changes the language (the find screen and the lobby).
LANGUAGE_KEY = "g"


def toggle_help(c: Controls, key: str) -> None:
    c.state.help_visible = not c.state.help_visible
    c.state.help_scroll = 0


def ask_to_leave(c: Controls, key: str) -> None:
    c.state.help_visible = False
    c.state.confirm_quit = True


def leave_now(c: Controls, key: str) -> None:
    c.state.confirm_quit = False
    c.leave()


def next_language(c: Controls, key: str) -> None:
    c.next_language()


def reconnect(c: Controls, key: str) -> None:
    c.actions.reconnect()


def host_lost(st: UiState) -> bool:
    return st.link is Link.LOST


HELP_KEY = Command(("?",), toggle_help, hint=Hint("?", lambda: pgettext("key", "help"), 0))

#: The commands of every screen.
SHARED = (HELP_KEY,)

#: Ctrl-C at a table: asks first (a second one leaves at once, see the leave overlay).
ASK_CTRL_C = Command(("c-c",), ask_to_leave, anytime=True)

LANGUAGE = Command(
    (LANGUAGE_KEY,),
    next_language,
    hint=Hint(LANGUAGE_KEY, lambda: pgettext("key", "language"), 3),
    help=Help(LANGUAGE_KEY, lambda: _("the next language (for the rest of this session)")),
)

REJOIN = Command(
    ("r",),
    reconnect,
    when=host_lost,
    hint=Hint("r", lambda: pgettext("key", "rejoin"), 1),
    help=Help("r", lambda: _("host lost: rejoin, keeping your seat")),
)


def leave_key(help: Help | None = None, when: Predicate = always) -> Command:
    """q at a table: asks first; the footer says "q leave"."""
    hint = Hint("q", lambda: pgettext("key", "leave"), 1)
    return Command(("q",), ask_to_leave, when=when, hint=hint, help=help)


def leave_help() -> Help:
    return Help("q", lambda: _("leave (asks first; Ctrl-C twice leaves at once)"))


#: While the host is lost (any screen but the find screen): r tries again, and the
#: footer says only that, help and leave.
LOST = Table("lost", (REJOIN, *SHARED, leave_key()))
