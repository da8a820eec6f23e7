"""The find screen: the games found on the network, an address, a name and a PIN.

:data:`TABLE` is its keys: choose a game, join it, move between the fields, the
language, quit (at once: there is nothing to lose here).  :func:`build` makes its
container (the list, the three fields, how the join goes), the list has the focus.
"""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.data_structures import Point
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout import FormattedTextControl, HSplit, Window
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.widgets import TextArea

from sorry_lan.i18n import _, pgettext

from .. import cells
from ..commands import Command, Controls, Help, Hint, Table
from ..textfit import clip, pad, paragraphs, width, wrap
from .parts import Parts, click_index, size, text_window, wrap_text
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


def title() -> str:
    """The screen's name in the top bar."""
    return pgettext("screen", "find")


def _label(index: int) -> Callable[[], str]:
    """The field label ``index`` (address, name, PIN), all three padded to the widest so
    the fields line up, in the language of the moment."""

    def label() -> str:
        labels = [_("Address:"), _("Name:"), _("PIN:")]
        cols = max(width(x) for x in labels) + 1
        return pad(labels[index], cols)

    return label


def _indent(line: str) -> str:
    """A line's first indent on the screen: one space, and its own (a command to type)."""
    return " " + line[: len(line) - len(line.lstrip())]


class View:
    """The find screen's container, its list and its fields."""

    def __init__(self, parts: Parts) -> None:
        self._parts = parts
        st = parts.state
        self.address = TextArea(multiline=False, prompt=_label(0), height=1)
        self.name = TextArea(multiline=False, prompt=_label(1), height=1, text=st.default_name)
        self.pin = TextArea(multiline=False, prompt=_label(2), height=1, password=True)
        found = FormattedTextControl(
            parts.plain(self._found_fragments),
            focusable=True,
            get_cursor_position=lambda: Point(0, max(0, st.found_selected)),
            show_cursor=False,
        )
        self.found_window = Window(found, height=Dimension(min=3))
        self.focus = self.found_window
        heading = parts.plain(lambda: [("class:heading", " " + _("Games on your network"))])
        self.container = HSplit(
            [
                text_window(heading, height=1),
                self.found_window,
                parts.rule(),
                text_window(parts.plain(self._hint_fragments), height=1),
                self.address,
                self.name,
                self.pin,
                text_window(parts.plain(self._join_status_fragments), height=2),
            ]
        )

    def _hint_fragments(self) -> StyleAndTextTuples:
        st = self._parts.state
        if self.address.text.strip():
            text = _("Enter joins the address typed below.")
        elif st.found:
            text = _("Enter joins the highlighted game; or type an address below (Tab).")
        else:
            text = _("Games appear above as they are found; or type an address below (Tab).")
        return [("class:dim", clip(" " + text, size()[0], self._parts.ellipsis))]

    def _found_fragments(self) -> StyleAndTextTuples:
        st = self._parts.state
        if not st.found:
            if st.find_message:
                cols = size()[0]
                text = st.find_message
                lines = [w for line in paragraphs(text) for w in wrap(line, cols, _indent(line))]
                return [("", "\n".join(lines))]
            msg = _("searching the network for games...") if st.searching else _("no games found")
            return [("class:dim", " " + msg)]
        out: StyleAndTextTuples = []
        cols = size()[0]
        for i, game in enumerate(st.found):
            selected = i == st.found_selected
            style = "class:found.selected" if selected else ""
            if not game.joinable:
                style += " class:dim"
            # The game's name (a player's words) is the one field of unknown width in
            # the middle of the row: steady, at most 24 columns.  What Enter does comes
            # first in the details; the address (Enter needs none typed) ends the row,
            # which is clipped.
            title = cells.steady_field(game.title, min(24, width(game.title)))
            line = f"{'>' if selected else ' '}{i + 1}. {title}  {game.detail}  {game.address}"
            line = clip(line, cols, self._parts.ellipsis)
            out.append((style, line, click_index(self._parts.clicks.found, i)))
            out.append(("", "\n"))
        return out[:-1]

    def _join_status_fragments(self) -> StyleAndTextTuples:
        st = self._parts.state
        if st.joining:
            text = _("joining {where}...").format(where=st.link_hint)
            return [("class:notice", clip(" " + text, size()[0], self._parts.ellipsis))]
        if st.error:
            text = _("Could not join: {why}").format(why=st.error)
            text = wrap_text(text, size()[0], 2, self._parts.ellipsis)
            return [("class:error", text)]
        return []


def build(parts: Parts) -> View:
    return View(parts)
