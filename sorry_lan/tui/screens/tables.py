"""Which command table is up: the screen's, a watcher's, or "host lost" over them.

:func:`table_for` is the table of the screen on show (its keys, its help);
:func:`footer_table` the one the footer reads (host lost says only how to rejoin; the
rules view, :mod:`.rules`, has its own); :func:`help_table` the one ``?`` lists;
:data:`SCREENS` every screen's module by :class:`Screen` (its table, its title).
"""

from __future__ import annotations

from typing import Protocol

from ..commands import Table
from ..state import Link, Screen, UiState
from . import find, game, lobby, over, replay, rules, watch
from .shared import LOST


class ScreenModule(Protocol):
    """What every screen's module has (and its ``build``, which takes what it draws)."""

    TABLE: Table

    def title(self) -> str: ...  # the screen's name in the top bar


#: The module of each screen.
SCREENS: dict[Screen, ScreenModule] = {
    Screen.FIND: find,
    Screen.LOBBY: lobby,
    Screen.GAME: game,
    Screen.OVER: over,
    Screen.REPLAY: replay,
}


def table_for(st: UiState) -> Table:
    """The command table of the screen on show (a watcher's at a table)."""
    if st.spectating and st.screen in watch.TABLES:
        return watch.TABLES[st.screen]
    return SCREENS[st.screen].TABLE


def lost(st: UiState) -> bool:
    """The host is lost at a table: the "host lost" keys are up over the screen's."""
    return st.link is Link.LOST and st.screen is not Screen.FIND


def help_table(st: UiState) -> Table:
    """The table the ``?`` help lists: the rules view's while it is up, else the screen's."""
    return rules.TABLE if st.rules_visible else table_for(st)


def footer_table(st: UiState) -> Table:
    if st.rules_visible:
        return rules.TABLE
    return LOST if lost(st) else table_for(st)


def every_table() -> list[Table]:
    """Every table a screen may show (the overlays' are in their modules)."""
    return [*(m.TABLE for m in SCREENS.values()), *watch.TABLES.values(), LOST]
