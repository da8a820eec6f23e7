"""A watcher's tables (no seat): the lobby, the game and the game over, watched.

A watcher follows the board, the log and the chat: no colour, ready, move or rematch
keys.  The help says so in a sentence instead of listing keys.
"""

from __future__ import annotations

from sorry_lan.i18n import _, pgettext

from ..commands import Command, Hint, Table
from ..state import Screen
from .chat import chat_key
from .game import BELL
from .log import log_keys
from .replay import OPEN
from .shared import ASK_CTRL_C, LANGUAGE, SHARED, leave_key

WATCHING = Command((), hint=Hint("", lambda: pgettext("key", "watching"), 6))


def _about() -> str:
    return _(
        "You have no seat: the board, the log and the chat are yours to follow.  "
        "PgUp/PgDn scroll the log (L shows all of it in the board's place), "
        "t chats, q leaves."
    )


def _table(name: str, *commands: Command) -> Table:
    tail = (chat_key(), *SHARED, leave_key(), ASK_CTRL_C)
    return Table(name, (WATCHING, *commands, *tail), title=lambda: _("Watching"), about=_about)


#: By the screen watched.
TABLES = {
    Screen.LOBBY: _table("watch lobby", LANGUAGE),
    Screen.GAME: _table("watch game", *log_keys(hint=True), BELL),
    Screen.OVER: _table("watch over", *log_keys(hint=True), OPEN),
}
