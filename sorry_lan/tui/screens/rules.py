"""The rules view: the whole rules of the variant in play, scrolled in the screen's place.

The ``?`` help opens it (``r``; :func:`open_rules`).  :data:`TABLE` holds its keys:
lines and pages up and down, the top and the end, back to the board, ``?`` for its
keys, ``q`` to leave; the footer's hints and its ``?`` help come from the same table.
:func:`build` makes its window: a heading row (the variant, which lines show) over
the text of :mod:`sorry_lan.handbook`, laid out by :mod:`..handbook_lines` for the
terminal's width in the player's language.  While it is up it is modal: the screen's
keys rest (a watcher's or a player's), the top bar still says whose turn it is.
The too-small message replaces it like every screen.
"""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout import Window

from sorry_lan.handbook import handbook
from sorry_lan.i18n import _, language, pgettext, words

from ..commands import Command, Controls, Help, Hint, Table
from ..handbook_lines import rules_lines
from ..state import UiState
from ..textfit import clip
from .parts import Parts, size, text_window
from .shared import ASK_CTRL_C, HELP_KEY, leave_help, leave_key

#: The end key scrolls this far; the view clamps it to the last page.
END = 1 << 30


def open_rules(c: Controls, key: str) -> None:
    """Show the rules view (from the help: it closes; the chat line closes too)."""
    st = c.state
    st.help_visible = False
    if st.chat_open:
        c.close_chat()
    st.rules_visible = True
    st.rules_scroll = 0


def _close(c: Controls, key: str) -> None:
    c.state.rules_visible = False


def _down(c: Controls, key: str) -> None:
    st = c.state
    st.rules_scroll += st.rules_page if key in ("pagedown", "space") else 1


def _up(c: Controls, key: str) -> None:
    st = c.state
    step = st.rules_page if key == "pageup" else 1
    st.rules_scroll = max(0, st.rules_scroll - step)


def _ends(c: Controls, key: str) -> None:
    c.state.rules_scroll = END if key == "end" else 0


TABLE = Table(
    "rules",
    (
        HELP_KEY,
        Command(
            ("down", "j"),
            _down,
            hint=Hint("↑↓", lambda: pgettext("key", "scroll"), 2),
            help=Help("↑↓ j k", lambda: _("one line down or up")),
        ),
        Command(("up", "k"), _up),
        Command(
            ("pagedown", "space"),
            _down,
            hint=Hint("PgUp/PgDn", lambda: pgettext("key", "page"), 3),
            help=Help(lambda: _("PgUp/PgDn, Space"), lambda: _("a screenful down or up")),
        ),
        Command(("pageup",), _up),
        Command(
            ("home", "end"),
            _ends,
            help=Help(lambda: _("Home/End"), lambda: _("the beginning or the end of the rules")),
        ),
        Command(
            ("escape", "r"),
            _close,
            hint=Hint("Esc", lambda: pgettext("key", "back"), 1),
            help=Help("Esc r", lambda: _("back to the board")),
        ),
        leave_key(leave_help()),
        ASK_CTRL_C,
    ),
    title=lambda: _("Keys of the rules view"),
    rules=False,
)


def body_rows(rows: int) -> int:
    """Rows of text under the heading row (the two bars and the heading take three)."""
    return max(1, rows - 3)


def text_lines(st: UiState, cols: int, ascii: bool) -> list[str]:
    """The rules of the variant in play, in the player's language, for ``cols`` columns."""
    book = handbook(language())
    return [" " + line for line in rules_lines(book, st.variant.value, cols - 2, ascii=ascii)]


def fragments(parts: Parts) -> StyleAndTextTuples:
    """The heading row and the lines in view; keeps the scroll within the text."""
    st = parts.state
    cols, rows = size()
    lines = text_lines(st, cols, parts.ascii)
    room = body_rows(rows)
    st.rules_page = max(1, room - 1)
    st.rules_scroll = max(0, min(st.rules_scroll, len(lines) - room))
    first = st.rules_scroll
    shown = lines[first : first + room]
    where = _("lines {first}-{last} of {total}").format(
        first=first + 1, last=first + len(shown), total=len(lines)
    )
    heading = _("Rules: {variant}").format(variant=words.variant_title(st.variant.value))
    head = clip(f" {heading} · {where}", cols, parts.ellipsis)
    return [("class:bar", head + "\n"), ("", "\n".join(shown))]


def build(parts: Parts) -> Window:
    return text_window(parts.plain(lambda: fragments(parts)))
