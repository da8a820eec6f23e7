"""The game: the board, the log under it, the panel (turn, card, the moves, the chat).

:data:`TABLE` is a seated player's keys: choose a move (arrows, j/k, its number),
play it, a split 7's two levels, the log, the bell, chat, leave.  A watcher's keys
are in :mod:`.watch`.
"""

from __future__ import annotations

import time

from sorry_lan.i18n import _, pgettext

from ..commands import Command, Controls, Help, Hint, Table
from ..state import UiState
from .log import log_keys
from .shared import ASK_CTRL_C, REJOIN, SHARED, chat_help, chat_key, leave_help, leave_key


def in_split(st: UiState) -> bool:
    return st.split is not None


def _plain_enter(st: UiState) -> bool:
    """Enter plays (no first part of a split 7 to open in the list shown)."""
    return st.split is not None or not st.menu.has_splits


def _opening_enter(st: UiState) -> bool:
    return not _plain_enter(st)


def _up(c: Controls, key: str) -> None:
    c.state.move_selection(-1)


def _down(c: Controls, key: str) -> None:
    c.state.move_selection(1)


def _pick(c: Controls, key: str) -> None:
    st = c.state
    if not st.type_digit(key, time.monotonic()):
        st.notice = _("no move {n}").format(n=key)


def _play(c: Controls, key: str) -> None:
    c.play_selected()


def _open_split(c: Controls, key: str) -> None:
    c.state.open_split()


def _back(c: Controls, key: str) -> None:
    c.state.close_split()


def bell(c: Controls, key: str) -> None:
    st = c.state
    st.bell = not st.bell
    st.notice = _("bell on: it rings when your turn comes") if st.bell else _("bell off")


BELL = Command(("b",), bell, help=Help("b", lambda: _("bell on your turn: on / off")))

TABLE = Table(
    "game",
    (
        Command(
            ("up", "k"),
            _up,
            hint=Hint("↑↓/1-9", lambda: pgettext("key", "choose"), 2),
            help=Help(lambda: _("Up/Down") + ", j/k", lambda: _("choose a move (or click it)")),
        ),
        Command(("down", "j"), _down),
        Command(
            tuple("1234567890"),
            _pick,
            help=Help(
                "1-9, 10, 11 ...", lambda: _("choose move number N (type two digits quickly)")
            ),
        ),
        Command(
            ("enter",),
            _play,
            when=_plain_enter,
            hint=Hint("Enter", lambda: pgettext("key", "play"), 1),
            help=Help("Enter", lambda: _("play the chosen move")),
        ),
        Command(
            ("enter",),
            _play,
            when=_opening_enter,
            hint=Hint("Enter", lambda: pgettext("key", "play/open →"), 1),
        ),
        # A split 7: -> lists the second parts of the highlighted first part; back with
        # Esc, <- or Backspace.
        Command(
            ("right", "l"),
            _open_split,
            help=Help("Enter, ->, l", lambda: _("split 7: open a first part's second parts")),
        ),
        Command(
            ("escape", "left", "h", "backspace"),
            _back,
            when=in_split,
            hint=Hint("Esc/←", lambda: pgettext("key", "back"), 1),
            help=Help("Esc, <-, h, Bksp", lambda: _("split 7: back to the first parts")),
        ),
        *log_keys(
            hint=False,
            help=Help("PgUp/PgDn, End", lambda: _("scroll the log back / forward / to the end")),
            view_help=Help("L", lambda: _("the whole log in the board's place, and back")),
        ),
        BELL,
        chat_key(chat_help(), hint_when=lambda st: not in_split(st)),
        *SHARED,
        leave_key(help=leave_help()),
        ASK_CTRL_C,
        REJOIN,
    ),
    title=lambda: _("Keys"),
)
