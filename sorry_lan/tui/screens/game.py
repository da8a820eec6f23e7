"""The game: the board, the log under it, the panel (turn, card, the moves, the chat).

:data:`TABLE` is a seated player's keys: choose a move (arrows, j/k, its number),
play it, a split 7's two levels, more time, the log, the bell, chat, leave.  A watcher's keys
are in :mod:`.watch`.  :func:`build` makes its container with
:func:`board_and_panel`, which the game over draws in too; the move list has the focus.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from prompt_toolkit.data_structures import Point
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout import (
    ConditionalContainer,
    Container,
    FormattedTextControl,
    HSplit,
    VSplit,
    Window,
)
from prompt_toolkit.layout.dimension import Dimension

from sorry_lan.i18n import _, pgettext

from ..board import render_board
from ..commands import Command, Controls, Help, Hint, Table
from ..menu import Row, entry_description, entry_row, menu_rows
from ..news import since_text
from ..options import card_name
from ..state import COLOUR_TITLES, Link, UiState, card_help
from ..textfit import clip
from . import alone
from .chat import ChatLine, chat_help, chat_key
from .log import LogWindow, log_keys
from .parts import (
    Parts,
    board_geometry,
    click,
    click_index,
    colour_title,
    size,
    text_window,
    wrap_text,
)
from .shared import ASK_CTRL_C, REJOIN, SHARED, leave_help, leave_key

DESCRIPTION_ROWS = 3  # the highlighted move in words, under the move list
CHAT_ROWS = 4  # chat lines in the panel
LIST_ROWS = 3  # the fewest rows the move list (or the result) is given
#: The panel's rows under its head at the least: the list, the description, the rule,
#: a chat line and the chat box.
PANEL_BELOW_HEAD = LIST_ROWS + DESCRIPTION_ROWS + 1 + 1 + 1

Fragments = Callable[[], StyleAndTextTuples]


def in_split(st: UiState) -> bool:
    return st.split is not None


def on_offer(st: UiState) -> bool:
    """Moves are on offer (your turn, the host there): the keys that choose and play
    them are hinted only then."""
    return bool(st.moves)


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


def _hint(c: Controls, key: str) -> None:
    c.actions.hint()


def _more_time(c: Controls, key: str) -> None:
    c.actions.more_time()


def hints_key(st: UiState) -> bool:
    """h asks for hints: the table allows them and it is your turn (in a split 7's
    second parts h goes back instead)."""
    return st.hints_on and st.your_turn() and st.split is None


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
            hint=Hint("↑↓/1-9", lambda: pgettext("key", "choose"), 2, when=on_offer),
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
            hint=Hint("Enter", lambda: pgettext("key", "play"), 1, when=on_offer),
            help=Help("Enter", lambda: _("play the chosen move")),
        ),
        Command(
            ("enter",),
            _play,
            when=_opening_enter,
            hint=Hint("Enter", lambda: pgettext("key", "play/open →"), 1, when=on_offer),
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
        Command(
            ("h",),
            _hint,
            when=hints_key,
            hint=Hint("h", lambda: pgettext("key", "hints"), 2),
            help=Help("h", lambda: _("hints: each move's chance to win, best first")),
        ),
        Command(
            ("+",),
            _more_time,
            hint=Hint("+", lambda: pgettext("key", "more time"), 3, when=on_offer),
            help=Help("+", lambda: _("more time for this turn, once a turn")),
        ),
        *log_keys(
            hint=False,
            help=Help("PgUp/PgDn, End", lambda: _("scroll the log back / forward / to the end")),
            view_help=Help("L", lambda: _("the whole log in the board's place, and back")),
        ),
        BELL,
        alone.KEY,
        chat_key(chat_help(), hint_when=lambda st: not in_split(st)),
        *SHARED,
        leave_key(help=leave_help()),
        ASK_CTRL_C,
        REJOIN,
    ),
    title=lambda: _("Keys"),
)


def title() -> str:
    """The screen's name in the top bar."""
    return pgettext("screen", "game")


def move_rows(st: UiState) -> list[Row]:
    return menu_rows(st.entries(), st.split, st.hints)


def summary_lines(news: list[str], cols: int, rows: int) -> list[str]:
    """The turn summary wrapped to ``cols``: as many whole events as ``rows`` lines hold,
    the rest counted (they are in the log); no event is ever cut, and the first one is
    shown even when it alone takes more room."""
    for keep in range(len(news), 0, -1):
        lines = wrap_text(since_text(news[:keep], len(news) - keep), cols).split("\n")
        if len(lines) <= rows or keep == 1:
            return lines
    return []


def board_and_panel(
    parts: Parts, chat: ChatLine, head: Fragments, listing: Fragments, *, describe: bool = True
) -> tuple[Container, Window]:
    """The board over the log, beside the panel: ``head`` (who plays, the card) over
    ``listing`` (the moves, or the result), the highlighted move in words (unless not
    ``describe``: the game over has no move to describe), the chat.
    Returns the container and the listing's window (the focus)."""
    st = parts.state

    def board() -> StyleAndTextTuples:
        geo = board_geometry(*size())
        view, hl = st.board_view(), st.highlights()
        frags = render_board(view, geo.width, geo.height, parts.ascii, hl, parts.letters)
        return frags  # type: ignore[return-value]

    def description() -> StyleAndTextTuples:
        entry = st.selected_entry()
        if entry is None:
            return []
        text = wrap_text(
            entry_description(entry), parts.panel_width(), DESCRIPTION_ROWS, parts.ellipsis
        )
        return [("class:dim", text)]

    def chat_heard() -> StyleAndTextTuples:
        return chat.lines(parts.panel_width(), CHAT_ROWS)

    def cursor() -> Point:
        """The highlighted entry's line, so that the list scrolls to it."""
        return Point(0, entry_row(move_rows(st), st.selected))

    listed = FormattedTextControl(
        parts.plain(listing), focusable=True, get_cursor_position=cursor, show_cursor=False
    )
    list_window = Window(listed, height=Dimension(min=LIST_ROWS))
    # The board column and the panel have fixed widths taken from the terminal, so
    # no line of text can squeeze either (long lines wrap or end in an ellipsis).
    board_window = text_window(board, width=parts.board_width, height=parts.board_height)
    panel = HSplit(
        [
            text_window(parts.plain(head), dont_extend_height=True),
            list_window,
            *([text_window(parts.plain(description), height=DESCRIPTION_ROWS)] if describe else []),
            parts.rule(),
            text_window(parts.plain(chat_heard), height=Dimension(min=1, max=CHAT_ROWS)),
            chat.box,
        ],
        width=parts.panel_width,
    )
    column = HSplit(
        [
            ConditionalContainer(board_window, filter=Condition(lambda: not st.log_view)),
            LogWindow(parts).window,
        ],
        width=parts.board_width,
    )
    container = VSplit([column, Window(width=1, char=lambda: parts.glyph("│")), panel])
    return container, list_window


class View:
    """The game's container; the move list has the focus."""

    def __init__(self, parts: Parts, chat: ChatLine) -> None:
        self._parts = parts
        self.container, self.focus = board_and_panel(parts, chat, self._info, self._moves)

    def _info(self) -> StyleAndTextTuples:
        st = self._parts.state
        cols = self._parts.panel_width()
        out: StyleAndTextTuples = []
        if st.you is not None:
            you = colour_title(st.you)
            out.append(("", " " + _("You:") + " "))
            out.append((f"class:seat.{COLOUR_TITLES[st.you].lower()}", you))
            out.append(("", "\n"))
        elif st.spectating:
            out.append(("class:heading", " " + _("Watching (no seat)") + "\n"))
        if st.hosted_by:  # the table moved: who hosts it now
            out.append(("", wrap_text(st.hosted_by, cols) + "\n"))
        if st.turn is not None:
            whose = _("your turn") if st.turn == st.you else st.player_name(st.turn)
            out.append(
                ("class:heading", wrap_text(_("Turn: {player}").format(player=whose), cols) + "\n")
            )
        if st.card is not None:
            text = _("Card: {card}: {help}").format(
                card=card_name(st.card), help=card_help(st.card)
            )
            out.append(("", wrap_text(text, cols) + "\n"))
        if st.hand:
            hand = " ".join(card_name(c) for c in st.hand)
            out.append(("", wrap_text(_("Hand: {cards}").format(cards=hand), cols) + "\n"))
        if st.scores:
            scores = "  ".join(
                f"{colour_title(c)} {points}" for c, points in sorted(st.scores.items())
            )
            out.append(("", wrap_text(_("Scores: {scores}").format(scores=scores), cols) + "\n"))
        if st.summary and st.your_turn():
            used = sum(text.count("\n") for _style, text, *_rest in out)
            rows = size()[1] - 2 - PANEL_BELOW_HEAD - used
            out.append(("class:notice", "\n".join(summary_lines(st.summary, cols, rows)) + "\n"))
        return out

    def _moves(self) -> StyleAndTextTuples:
        parts = self._parts
        st = parts.state
        if not st.moves:
            thinking = st.thinking()
            if thinking is not None:
                text = _("{player} is thinking...").format(player=st.player_name(thinking))
                return [("class:notice", wrap_text(" " + text, parts.panel_width()))]
            if st.spectating:
                text = _("(watching)")
            elif st.link in (Link.LOST, Link.RECONNECTING):
                text = _("(waiting for the host)")  # not "no legal move": nobody offers any
            elif st.hands_awaited and st.turn == st.you:  # a new host, in play for points
                text = _("(waiting for the other players' hands)")
                return [("class:dim", wrap_text(" " + text, parts.panel_width()))]
            else:
                text = _("(waiting)") if st.turn != st.you else _("(no legal move)")
            return [("class:dim", " " + text)]
        out: StyleAndTextTuples = []
        cols = parts.panel_width()
        for row in move_rows(st):
            if row.back:  # names the first part chosen; a click goes back
                text = clip(row.text, cols, parts.ellipsis)
                out.append(("class:heading", text, click(parts.clicks.back)))
            elif row.entry is None:
                out.append(("class:dim", clip(row.text, cols, parts.ellipsis)))
            else:
                selected = row.entry == st.selected
                style = "class:moves.selected" if selected else ""
                text = clip(f"{'>' if selected else ' '}{row.text}", cols, parts.ellipsis)
                out.append((style, text, click_index(parts.clicks.move, row.entry)))
            out.append(("", "\n"))
        return out[:-1]


def build(parts: Parts, chat: ChatLine) -> View:
    return View(parts, chat)
