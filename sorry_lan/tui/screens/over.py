"""The game over: the final board and log, each player's result; a rematch.

:data:`TABLE` is a seated player's keys: ask for a rematch, the log, chat, leave.
"""

from __future__ import annotations

from sorry_lan.i18n import _, pgettext

from ..commands import Command, Controls, Help, Hint, Table
from .log import log_keys
from .shared import ASK_CTRL_C, SHARED, chat_key, leave_key


def _rematch(c: Controls, key: str) -> None:
    c.actions.rematch()


TABLE = Table(
    "over",
    (
        Command(
            ("r",),
            _rematch,
            hint=Hint("r", lambda: pgettext("key", "rematch"), 2),
            help=Help("r", lambda: _("ask for a rematch (it starts when every player asks)")),
        ),
        *log_keys(
            hint=True,
            help=Help(
                "PgUp/PgDn, End",
                lambda: _("scroll the log of the game (L: all of it in the board's place)"),
            ),
        ),
        chat_key(Help("t", lambda: _("chat"))),
        *SHARED,
        leave_key(help=Help("q", lambda: _("leave"))),
        ASK_CTRL_C,
    ),
    title=lambda: _("Game over"),
)
