"""The screens as prompt_toolkit containers, each reading :class:`UiState` when drawn.

``build_root(tui)`` returns the root container: a top bar (game, turn, connection), the
current screen, a bottom bar of keys, and the help and leave-confirmation overlays.  A
terminal under 80x24 gets a message instead.  Containers are built once; their
content comes from callables, so a state change plus ``invalidate()`` redraws.

This module holds no game logic and sends nothing; key handling is in ``keys.py``.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from typing import TYPE_CHECKING

from prompt_toolkit.application.current import get_app
from prompt_toolkit.data_structures import Point
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout import (
    ConditionalContainer,
    Container,
    DynamicContainer,
    Float,
    FloatContainer,
    FormattedTextControl,
    HSplit,
    VSplit,
    Window,
)
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.mouse_events import MouseEvent, MouseEventType
from prompt_toolkit.widgets import Frame, TextArea

from sorry_lan.i18n import words

from .board import COMPACT, Geometry, choose_geometry, render_board
from .menu import Row, entry_description, entry_row, menu_rows
from .options import card_name
from .state import COLOUR_TITLES, LINK_TEXT, Link, Screen, card_help

if TYPE_CHECKING:
    from .app import TuiApp

MIN_COLS = 80
MIN_ROWS = 24
PANEL_MIN = 30  # columns kept for the side panel
LOG_MIN = 3  # rows kept under the board for the log

HELP_TEXT = """\
Keys
  Up/Down, 1-9, 0   choose a move (or click it)
  Enter             play the chosen move
  Enter or ->       split 7: open a first part's second parts
  Esc, <-, Bksp     split 7: back to the first parts
  t                 chat (Enter sends, Esc closes)
  ?                 this help (Esc closes)
  q                 leave (asks first)
  r                 host lost: rejoin, keeping your seat
 Lobby: 1-4 colour, space ready; host: a/x add/remove bot,
        l the newest bot's strength, v variant, s start.   Game over: r rematch.

Rules in short
  Draw a card, move one pawn; you must move if you can.
  1 or 2 leaves START; a 2 draws again. 4 goes back 4;
  10 is 10 forward or 1 back; 7 may be split between two
  pawns; 11 moves 11 or swaps with an opponent; Sorry!
  takes a pawn from START onto an opponent, who goes back.
  Land on an opponent: it goes back to START. Stop on
  another colour's triangle: slide, bumping all on it.
  Exact count to reach HOME. All four HOME wins."""


def too_small(cols: int, rows: int) -> bool:
    return cols < MIN_COLS or rows < MIN_ROWS


def board_geometry(cols: int, rows: int) -> Geometry:
    """The board layout for the game screen at this terminal size."""
    return choose_geometry(cols - PANEL_MIN, rows - 2 - LOG_MIN) or COMPACT


def _size() -> tuple[int, int]:
    size = get_app().output.get_size()
    return size.columns, size.rows


def _text_window(get: Callable[[], StyleAndTextTuples], **kwargs: object) -> Window:
    return Window(FormattedTextControl(get), **kwargs)  # type: ignore[arg-type]


def _wrap(text: str, width: int) -> str:
    """``text`` word-wrapped to ``width`` columns, each line indented by one space and
    continuation lines by three."""
    lines = textwrap.wrap(text, max(10, width - 1), subsequent_indent="  ")
    return "\n".join(" " + line for line in lines)


def _click_index(select: Callable[[int], None], index: int) -> Callable[[MouseEvent], None]:
    return _click(lambda: select(index))


def _click(act: Callable[[], None]) -> Callable[[MouseEvent], None]:
    def handler(event: MouseEvent) -> None:
        if event.event_type == MouseEventType.MOUSE_UP:
            act()

    return handler


class Screens:
    """Builds and holds the containers of every screen for one :class:`TuiApp`."""

    def __init__(self, tui: TuiApp) -> None:
        self.tui = tui
        st = tui.state
        self.address = TextArea(multiline=False, prompt="Address: ", height=1)
        self.name = TextArea(multiline=False, prompt="Name:    ", height=1, text=st.default_name)
        self.pin = TextArea(multiline=False, prompt="PIN:     ", height=1)
        self.chat_input = TextArea(multiline=False, prompt="say: ", height=1)
        self.found_control = FormattedTextControl(
            self._found_fragments,
            focusable=True,
            get_cursor_position=lambda: Point(0, max(0, self.tui.state.found_selected)),
            show_cursor=False,
        )
        self.moves_control = FormattedTextControl(
            self._moves_fragments,
            focusable=True,
            get_cursor_position=self._moves_cursor,
            show_cursor=False,
        )
        self.seats_control = FormattedTextControl(self._seats_fragments, focusable=True)
        self.over_control = FormattedTextControl(self._over_fragments, focusable=True)
        self.found_window = Window(self.found_control, height=Dimension(min=3))
        self.moves_window = Window(self.moves_control, height=Dimension(min=3))
        self.seats_window = Window(self.seats_control, height=Dimension(min=6))
        self.over_window = Window(self.over_control)
        chat_box = ConditionalContainer(self.chat_input, filter=Condition(lambda: st.chat_open))
        self.find = HSplit(
            [
                _text_window(lambda: [("class:heading", " Games on your network")], height=1),
                self.found_window,
                Window(height=1, char="─"),
                _text_window(self._find_hint_fragments, height=1),
                self.address,
                self.name,
                self.pin,
                _text_window(self._join_status_fragments, height=2, wrap_lines=True),
            ]
        )
        self.lobby = HSplit(
            [
                self.seats_window,
                Window(height=1, char="─"),
                _text_window(self._chat_fragments, wrap_lines=True),
                chat_box,
            ]
        )
        self.board_window = _text_window(
            self._board_fragments, width=self._board_width, height=self._board_height
        )
        self.log_window = Window(
            FormattedTextControl(
                self._log_fragments,
                get_cursor_position=lambda: Point(0, max(0, len(self.tui.state.log) - 1)),
            ),
            wrap_lines=False,
        )
        panel = HSplit(
            [
                _text_window(self._info_fragments, wrap_lines=True, dont_extend_height=True),
                self.moves_window,
                _text_window(self._description_fragments, height=3, wrap_lines=True),
                Window(height=1, char="─"),
                _text_window(self._chat_fragments, height=Dimension(min=1, max=4)),
                chat_box,
            ]
        )
        self.game = VSplit(
            [HSplit([self.board_window, self.log_window]), Window(width=1, char="│"), panel]
        )
        self.over = HSplit([self.over_window])
        self._build_frames()

    # -- the root ---------------------------------------------------------------------

    def root(self) -> FloatContainer:
        st = self.tui.state
        help_float = Float(
            ConditionalContainer(
                Frame(Window(FormattedTextControl(HELP_TEXT), width=62), title="Help"),
                filter=Condition(lambda: st.help_visible),
            )
        )
        quit_float = Float(
            ConditionalContainer(
                Frame(
                    Window(
                        FormattedTextControl(" Leave the game?  y: leave   n/Esc: stay "),
                        height=1,
                        width=42,
                    ),
                    title="Leave",
                ),
                filter=Condition(lambda: st.confirm_quit),
            )
        )
        return FloatContainer(DynamicContainer(self._body), floats=[help_float, quit_float])

    def current_main(self) -> Container:
        """The focus target of the screen on show."""
        return {
            Screen.FIND: self.found_window,
            Screen.LOBBY: self.seats_window,
            Screen.GAME: self.moves_window,
            Screen.OVER: self.over_window,
        }[self.tui.state.screen]

    def _body(self) -> Container:
        if too_small(*_size()):
            return self._too_small_window
        return self._framed[self.tui.state.screen]

    def _build_frames(self) -> None:
        """Each screen between the two bars, built once (redraws reuse them)."""
        top = _text_window(self._top_fragments, height=1)
        bottom = _text_window(self._bottom_fragments, height=1)
        screens = {
            Screen.FIND: self.find,
            Screen.LOBBY: self.lobby,
            Screen.GAME: self.game,
            Screen.OVER: self.over,
        }
        self._framed = {key: HSplit([top, body, bottom]) for key, body in screens.items()}
        self._too_small_window = _text_window(lambda: self._too_small_fragments(*_size()))

    # -- fragments ---------------------------------------------------------------------

    def _too_small_fragments(self, cols: int, rows: int) -> StyleAndTextTuples:
        return [
            ("class:too-small", f" Terminal too small: {cols}x{rows}.\n"),
            ("", f" sorry-lan needs at least {MIN_COLS}x{MIN_ROWS}: enlarge the window.\n"),
            ("", " (q leaves)"),
        ]

    def _top_fragments(self) -> StyleAndTextTuples:
        st = self.tui.state
        left = f" sorry-lan · {st.screen.value}"
        if st.game_title:
            left += f" · {st.game_title}"
        if st.screen is Screen.GAME and st.turn is not None:
            left += f" · turn: {st.player_name(st.turn)}"
        secs = st.seconds_left()
        if secs is not None and st.screen is Screen.GAME:
            left += f" · {secs}s left"
        link = LINK_TEXT[st.link]
        if st.link_hint:
            link += f" ({st.link_hint})"
        link_style = {
            Link.CONNECTED: "class:bar.ok",
            Link.CONNECTING: "class:bar.warn",
            Link.RECONNECTING: "class:bar.warn",
            Link.LOST: "class:bar.bad",
            Link.OFFLINE: "class:bar",
        }[st.link]
        cols, _ = _size()
        pad = max(1, cols - len(left) - len(link) - 3)
        return [("class:bar", left + " " * pad), (link_style, f"● {link} ")]

    def _bottom_fragments(self) -> StyleAndTextTuples:
        st = self.tui.state
        keys = {
            Screen.FIND: "↑↓ choose  Enter join  Tab fields  ? help  q quit",
            Screen.LOBBY: "1-4 colour  space ready  t chat  ? help  q leave",
            Screen.GAME: "↑↓/1-9 choose  Enter play  t chat  ? help  q leave",
            Screen.OVER: "r rematch  t chat  q leave",
        }[st.screen]
        if st.screen is Screen.GAME and st.split is not None:
            keys = "↑↓/1-9 choose  Enter play  Esc/← back  ? help  q leave"
        elif st.screen is Screen.GAME and st.menu.has_splits:
            keys = "↑↓/1-9 choose  Enter play/open →  t chat  ? help  q leave"
        if st.screen is Screen.LOBBY and st.is_host:
            keys = "1-4 colour  space ready  a/x/l bot  v variant  s start  ? help  q"
        if st.link is Link.LOST and st.screen is not Screen.FIND:
            keys = "r rejoin  ? help  q leave"
        cols = _size()[0]
        if not st.notice:
            return [("class:bar", (" " + keys).ljust(cols))]
        # The keys always show; a long notice is cut short (its whole text is in the log).
        room = max(10, cols - len(keys) - 4)
        notice = st.notice if len(st.notice) <= room else st.notice[: room - 3] + "..."
        text = f" {notice}  "
        return [("class:bar.warn", text), ("class:bar", keys.ljust(max(0, cols - len(text))))]

    def _find_hint_fragments(self) -> StyleAndTextTuples:
        st = self.tui.state
        if self.address.text.strip():
            text = " Enter joins the address typed below."
        elif st.found:
            text = " Enter joins the highlighted game; or type an address below (Tab)."
        else:
            text = " Games appear above as they are found; or type an address below (Tab)."
        return [("class:dim", text)]

    def _found_fragments(self) -> StyleAndTextTuples:
        st = self.tui.state
        if not st.found:
            if st.find_message:
                return [("", "\n".join(" " + line for line in st.find_message.splitlines()))]
            msg = " searching the network for games..." if st.searching else " no games found"
            return [("class:dim", msg)]
        out: StyleAndTextTuples = []
        for i, game in enumerate(st.found):
            selected = i == st.found_selected
            style = "class:found.selected" if selected else ""
            if not game.joinable:
                style += " class:dim"
            line = f"{'>' if selected else ' '}{i + 1}. {game.title}  {game.address}  {game.detail}"
            out.append((style, line, _click_index(self.tui.click_found, i)))
            out.append(("", "\n"))
        return out[:-1]

    def _join_status_fragments(self) -> StyleAndTextTuples:
        st = self.tui.state
        if st.joining:
            return [("class:notice", f" joining {st.link_hint}...")]
        if st.error:
            return [("class:error", f" Could not join: {st.error}")]
        return []

    def _seats_fragments(self) -> StyleAndTextTuples:
        st = self.tui.state
        taken = sum(1 for seat in st.seats if seat.name)
        out: StyleAndTextTuples = [
            (
                "class:heading",
                f" Lobby · {words.variant_title(st.variant)} · {taken} of {st.seat_limit}"
                " seats taken\n",
            )
        ]
        for seat in st.seats:
            title = COLOUR_TITLES[seat.colour]
            if not seat.name:
                who, flags = "(free)", ""
            else:
                who = seat.name + (" [bot]" if seat.bot else "")
                flags = "ready" if seat.ready or seat.bot else "not ready"
                if seat.host:
                    flags += ", host"
            mark = ">" if seat.you else " "
            out.append((f"class:seat.{title.lower()}", f" {mark}{seat.colour + 1} {title:<7}"))
            out.append(("", f" {who:<22} {flags}\n"))
        if st.lobby_info:
            out.append(("class:dim", "\n" + "\n".join(" " + x for x in st.lobby_info.splitlines())))
        elif st.is_host:
            out.append(("class:dim", "\n a: add a bot   x: remove one   l: its strength   "
                                     "v: variant   s: start"))
        else:
            out.append(
                ("class:dim", "\n waiting for the host to start the game (space: say you're ready)")
            )
        return out

    def _panel_width(self) -> int:
        cols, rows = _size()
        return max(PANEL_MIN, cols - board_geometry(cols, rows).width - 1)

    def _board_width(self) -> int:
        return board_geometry(*_size()).width

    def _board_height(self) -> int:
        return board_geometry(*_size()).height

    def _board_fragments(self) -> StyleAndTextTuples:
        st = self.tui.state
        geo = board_geometry(*_size())
        frags = render_board(
            st.board_view(), geo.width, geo.height, self.tui.ascii, st.highlights()
        )
        return frags  # type: ignore[return-value]

    def _info_fragments(self) -> StyleAndTextTuples:
        st = self.tui.state
        out: StyleAndTextTuples = []
        if st.you is not None:
            out.append(("", " You: "))
            out.append((f"class:seat.{COLOUR_TITLES[st.you].lower()}", COLOUR_TITLES[st.you]))
            out.append(("", "\n"))
        if st.turn is not None:
            whose = "your turn" if st.turn == st.you else st.player_name(st.turn)
            out.append(("class:heading", f" Turn: {whose}\n"))
        if st.card is not None:
            text = f"Card: {card_name(st.card)}: {card_help(st.card)}"
            out.append(("", _wrap(text, self._panel_width()) + "\n"))
        if st.hand:
            out.append(("", " Hand: " + " ".join(card_name(c) for c in st.hand) + "\n"))
        if st.scores:
            scores = "  ".join(f"{COLOUR_TITLES[c][0]} {s}" for c, s in sorted(st.scores.items()))
            out.append(("", f" Scores: {scores}\n"))
        return out

    def _moves_cursor(self) -> Point:
        """The highlighted entry's line, so that the list scrolls to it."""
        return Point(0, entry_row(self._move_rows(), self.tui.state.selected))

    def _move_rows(self) -> list[Row]:
        st = self.tui.state
        return menu_rows(st.entries(), st.split)

    def _moves_fragments(self) -> StyleAndTextTuples:
        st = self.tui.state
        if not st.moves:
            text = " (waiting)" if st.turn != st.you else " (no legal move)"
            return [("class:dim", text)]
        out: StyleAndTextTuples = []
        for row in self._move_rows():
            if row.back:  # names the first part chosen; a click goes back
                out.append(("class:heading", row.text, _click(self.tui.click_back)))
            elif row.entry is None:
                out.append(("class:dim", row.text))
            else:
                selected = row.entry == st.selected
                style = "class:moves.selected" if selected else ""
                text = f"{'>' if selected else ' '}{row.text}"
                out.append((style, text, _click_index(self.tui.click_move, row.entry)))
            out.append(("", "\n"))
        return out[:-1]

    def _description_fragments(self) -> StyleAndTextTuples:
        entry = self.tui.state.selected_entry()
        if entry is None:
            return []
        return [("class:dim", _wrap(entry_description(entry), self._panel_width()))]

    def _log_fragments(self) -> StyleAndTextTuples:
        st = self.tui.state
        return [("", "\n".join(" " + line for line in st.log))]

    def _chat_fragments(self) -> StyleAndTextTuples:
        st = self.tui.state
        lines = list(st.chat)[-4:] or ["(t to chat)"]
        return [("class:dim" if not st.chat else "", "\n".join(" " + x for x in lines))]

    def _over_fragments(self) -> StyleAndTextTuples:
        st = self.tui.state
        out: StyleAndTextTuples = [("class:heading", "\n  Game over\n\n")]
        out.append(("", f"  {st.winner or 'no winner'}\n\n"))
        for colour, score in sorted(st.scores.items()):
            out.append(("", f"  {COLOUR_TITLES[colour]:<7} {score}\n"))
        out.append(("", "\n  r: rematch    q: leave\n"))
        return out
