"""The words ``host --resume`` shows when it asks which game: fitted to the terminal.

:func:`choice_lines` lists the games to choose from as one short block each (its
number, id and state on the first line, then its table, variant, players, moves and
times as labelled fields, and what is damaged), packed into ``cols`` columns (80 at
the most) by terminal cells, so that no language's words wrap in the middle of a
word.  :func:`fitted` breaks a question or a note the same way.

It neither asks nor decides anything (``sorry_lan.commands.host`` asks, and
:mod:`sorry_lan.net.saved` decides what there is to choose); the states and times are
worded as ``sorry-lan games`` words them (:mod:`sorry_lan.commands.games`).
"""

from __future__ import annotations

import re
import shutil

from sorry_lan.i18n import _, pgettext
from sorry_lan.i18n.words import variant_title
from sorry_lan.net.saved import DAMAGED, SavedGame
from sorry_lan.tui.textfit import width

from .games import state_words, when

COLS = 80  # the most a line takes: a terminal of 80 columns shows it whole
INDENT = "   "
_WORD = re.compile(r"\S*`[^`]*`\S*|\S+")  # a `command` in backquotes is one word


def columns() -> int:
    """The room for a line: the terminal's width, at most :data:`COLS`."""
    return max(20, min(COLS, shutil.get_terminal_size((COLS, 24)).columns))


def wrap(text: str, cols: int, first: str = "", rest: str = "") -> list[str]:
    """``text`` broken at spaces into lines of at most ``cols`` cells, each starting
    with ``first`` (the first line) or ``rest``; a word is never cut (a path longer than
    a line stands alone on its line, whole, to be copied, and so does a `command` in
backquotes).  Newlines are kept."""
    out: list[str] = []
    for para in text.split("\n"):
        line, empty = (rest if out else first), True
        for word in _WORD.findall(para):
            joined = word if empty else f"{line} {word}"
            if empty:
                line, empty = line + word, False
            elif width(joined) <= cols:
                line = joined
            else:
                out.append(line)
                line = rest + word
        out.append(line)
    return out


def fitted(text: str, cols: int | None = None) -> str:
    """``text`` broken at spaces into lines of at most ``cols`` cells (the terminal's)."""
    return "\n".join(wrap(text, cols or columns()))


def _pack(fields: list[str], cols: int) -> list[str]:
    """``fields`` side by side on indented lines of at most ``cols`` cells; a field too
    long for a line of its own is wrapped by words."""
    out: list[str] = []
    line = ""
    for item in fields:
        joined = f"{line}   {item}" if line else INDENT + item
        if width(joined) <= cols:
            line = joined
            continue
        if line:
            out.append(line)
        parts = wrap(item, cols, INDENT, INDENT + "  ")
        out += parts[:-1]
        line = parts[-1]
    if line:
        out.append(line)
    return out


def choice_lines(games: list[SavedGame], cols: int | None = None) -> list[str]:
    """The games numbered from 1, a block each, every line at most ``cols`` cells."""
    room = cols or columns()
    out: list[str] = []
    for number, g in enumerate(games, 1):
        state = state_words(g.state)
        if g.running:
            state = _("{state} (running)").format(state=state)
        if g.over and g.state != DAMAGED:
            state = _("{state} (game over)").format(state=state)
        out += wrap(f"{number}. {g.id} {state}", room, "", INDENT)

        def field(heading: str, value: str) -> str:
            return f"{heading}: {value}"

        fields = [
            field(pgettext("column", "TABLE"), g.table or g.host or "-"),
            field(pgettext("column", "VARIANT"), variant_title(g.variant) if g.variant else "-"),
            field(pgettext("column", "PLAYERS"), ", ".join(g.players) or "-"),
            field(pgettext("column", "MOVES"), str(g.moves)),
            field(pgettext("column", "STARTED"), when(g.started)),
            field(pgettext("column", "LAST MOVE"), when(g.last_move)),
        ]
        out += _pack(fields, room)
        if g.problem:
            out += wrap(_("damaged at {problem}").format(problem=g.problem), room, INDENT, INDENT)
    return out
