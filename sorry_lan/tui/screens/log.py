"""The game's log: PgUp/PgDn/End scroll it back, L shows all of it in the board's place.

:func:`log_keys` makes these commands for a table (the game, the game over, a
watcher's), with that table's words for them; :class:`LogWindow` draws the log under
the board (or in its place), word-wrapped to the board's width.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout import Window

from sorry_lan.i18n import ngettext, pgettext

from .. import cells
from ..commands import Command, Controls, Help, Hint
from ..state import UiState
from ..textfit import clip, wrap
from .parts import Parts, board_geometry, size, text_window


def _back(c: Controls, key: str) -> None:
    c.state.log_scroll += c.log_page()


def _on(c: Controls, key: str) -> None:
    c.state.log_scroll = max(0, c.state.log_scroll - c.log_page())


def _end(c: Controls, key: str) -> None:
    c.state.log_scroll = 0


def _view(c: Controls, key: str) -> None:
    c.state.log_view = not c.state.log_view


def log_keys(
    hint: bool, help: Help | None = None, view_help: Help | None = None, end: bool = True
) -> tuple[Command, ...]:
    """The log's commands; ``hint``: the footer says "PgUp/PgDn log"; ``end``: End
    goes back to the log's end (a table whose End does something else leaves it out).
    Scrolling acts while the chat line has the focus too."""
    words = Hint("PgUp/PgDn", lambda: pgettext("key", "log"), 5) if hint else None
    return (
        Command(("pageup",), _back, typing=True, hint=words, help=help),
        Command(("pagedown",), _on, typing=True),
        *((Command(("end",), _end, typing=True),) if end else ()),
        Command(("L",), _view, help=view_help),
    )


def log_rows(st: UiState) -> int:
    """Rows under the board for the log (all of the column in the log view)."""
    cols, rows = size()
    board = 0 if st.log_view else board_geometry(cols, rows).height
    return max(1, rows - 2 - board)


def log_page(st: UiState) -> int:
    """How far PgUp/PgDn scroll the log."""
    return max(1, log_rows(st) - 1)


class LogWindow:
    """The end of the log under the board; PgUp/PgDn scroll back.  ``lines``: what it
    shows instead of the game's log (the replay's turns so far)."""

    def __init__(self, parts: Parts, lines: Callable[[], Iterable[str]] | None = None) -> None:
        self._parts = parts
        self._lines = (lambda: parts.state.log) if lines is None else lines
        self.window: Window = text_window(parts.plain(self._fragments), width=parts.board_width)

    def _fragments(self) -> StyleAndTextTuples:
        """The end of the log, word-wrapped to the board's width."""
        parts = self._parts
        st = parts.state
        cols, rows = parts.board_width(), log_rows(st)
        # The log sits left of the panel, in the middle of each row: players' names in
        # it are shown steady (see .cells) so the panel keeps its column everywhere.
        names = {*st.names.values(), *(e.name for e in st.roster.values())}
        unsteady = sorted((n for n in names if n and not cells.steady(n)), key=len, reverse=True)

        def steady_names(text: str) -> str:
            for name in unsteady:
                text = text.replace(name, cells.steady_form(name))
            return text

        # Only the entries shown (or scrolled past) are wrapped, from the end back: a
        # redraw costs the same at the evening's tenth game as at its first.
        want = rows + max(0, st.log_scroll)
        entries = list(self._lines())
        lines: list[str] = []
        while entries and len(lines) < want:
            lines[:0] = wrap(steady_names(parts.text(entries.pop())), cols)
        scroll = max(0, min(st.log_scroll, len(lines) - rows))
        st.log_scroll = scroll
        end = len(lines) - scroll
        if scroll == 0:
            return [("", "\n".join(lines[max(0, end - rows) : end]))]
        shown = lines[max(0, end - rows + 1) : end]
        more = " " + ngettext(
            "({n} newer line below: PgDn, End)", "({n} newer lines below: PgDn, End)", scroll
        ).format(n=scroll)
        return [("", "\n".join(shown) + "\n"), ("class:dim", clip(more, cols, parts.ellipsis))]
