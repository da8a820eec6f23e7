"""The screens as prompt_toolkit containers, each reading :class:`UiState` when drawn.

``build_root(tui)`` returns the root container: a top bar (game, turn, connection), the
current screen, a bottom bar of keys, and the help and leave-confirmation overlays.  A
terminal under 80x24 gets a message instead.  Containers are built once; their
content comes from callables, so a state change plus ``invalidate()`` redraws.

This module holds no game logic and sends nothing; key handling is in ``keys.py``.
"""

from __future__ import annotations

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
from prompt_toolkit.widgets import TextArea

from sorry_lan.i18n import language_name, words
from sorry_lan.rules.board import HOME
from sorry_lan.rules.variants import Variant

from . import cells
from .board import COMPACT, Geometry, choose_geometry, render_board
from .helptext import help_text
from .menu import Row, entry_description, entry_row, menu_rows
from .options import card_name
from .state import CHAT_LINES, COLOUR_TITLES, LINK_TEXT, Link, Screen, card_help
from .textfit import ASCII_ELLIPSIS, ELLIPSIS, clip, width, wrap

if TYPE_CHECKING:
    from .app import TuiApp

MIN_COLS = 80
MIN_ROWS = 24
PANEL_MIN = 30  # columns kept for the side panel
NAME_COLS = 22  # a lobby row's name column (the name, and [bot])
FLAG_COLS = 16  # a lobby row's flags column (ready, host), when a language follows
LOG_MIN = 3  # rows kept under the board for the log
DESCRIPTION_ROWS = 3  # the highlighted move in words, under the move list
CHAT_ROWS = 4  # chat lines in the game's side panel

# --ascii: the few non-ASCII characters the screens (not the board) use.
_ASCII_GLYPHS = str.maketrans({"─": "-", "│": "|", "●": "*", "·": "-", "…": "...", "↑": "^"})
_ASCII_WORDS = (("↑↓", "Up/Down"), ("←", "Left"), ("→", "Right"))



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


def _wrap(
    text: str, width: int, rows: int | None = None, ellipsis: str = ELLIPSIS, first: str = " "
) -> str:
    """``text`` word-wrapped to ``width`` columns, each line indented by one space and
    continuation lines by three; with ``rows``, at most that many lines (the last one
    then ends in an ellipsis)."""
    lines = wrap(text, width, first, first + "  ")
    if rows is not None and len(lines) > rows:
        lines = lines[:rows]
        lines[-1] = clip(lines[-1] + " " + ellipsis * 3, width, ellipsis)
    return "\n".join(lines)


def _count(n: int, word: str) -> str:
    """"1 slide", "2 slides" ("Sorry!" stays as it is)."""
    return f"{n} {word}" if n == 1 or word.endswith("!") else f"{n} {word}s"


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
        self._lobby_chat_end = 0
        st = tui.state
        self.address = TextArea(multiline=False, prompt="Address: ", height=1)
        self.name = TextArea(multiline=False, prompt="Name:    ", height=1, text=st.default_name)
        self.pin = TextArea(multiline=False, prompt="PIN:     ", height=1, password=True)
        self.chat_input = TextArea(multiline=False, prompt="say: ", height=1)
        self.found_control = FormattedTextControl(
            self._plain(self._found_fragments),
            focusable=True,
            get_cursor_position=lambda: Point(0, max(0, self.tui.state.found_selected)),
            show_cursor=False,
        )
        self.moves_control = FormattedTextControl(
            self._plain(self._moves_fragments),
            focusable=True,
            get_cursor_position=self._moves_cursor,
            show_cursor=False,
        )
        seats = self._plain(self._seats_fragments)
        self.seats_control = FormattedTextControl(seats, focusable=True)
        self.found_window = Window(self.found_control, height=Dimension(min=3))
        self.moves_window = Window(self.moves_control, height=Dimension(min=3))
        self.seats_window = Window(self.seats_control, height=Dimension(min=6))
        chat_box = ConditionalContainer(self.chat_input, filter=Condition(lambda: st.chat_open))
        self.find = HSplit(
            [
                _text_window(
                    self._plain(lambda: [("class:heading", " Games on your network")]), height=1
                ),
                self.found_window,
                Window(height=1, char=lambda: self._glyph("─")),
                _text_window(self._plain(self._find_hint_fragments), height=1),
                self.address,
                self.name,
                self.pin,
                _text_window(self._plain(self._join_status_fragments), height=2),
            ]
        )
        self.lobby = HSplit(
            [
                self.seats_window,
                Window(height=1, char=lambda: self._glyph("─")),
                Window(
                    FormattedTextControl(
                        self._plain(self._lobby_chat_fragments),
                        get_cursor_position=lambda: Point(0, self._lobby_chat_end),
                    )
                ),
                chat_box,
            ]
        )
        # The board column and the panel have fixed widths taken from the terminal, so
        # no line of text can squeeze either (long lines wrap or end in an ellipsis).
        self.board_window = _text_window(
            self._board_fragments, width=self._board_width, height=self._board_height
        )
        self.log_window = _text_window(self._plain(self._log_fragments), width=self._board_width)
        panel = HSplit(
            [
                _text_window(self._plain(self._info_fragments), dont_extend_height=True),
                self.moves_window,
                _text_window(self._plain(self._description_fragments), height=DESCRIPTION_ROWS),
                Window(height=1, char=lambda: self._glyph("─")),
                _text_window(
                    self._plain(self._game_chat_fragments), height=Dimension(min=1, max=CHAT_ROWS)
                ),
                chat_box,
            ],
            width=self._panel_width,
        )
        self.game = VSplit(
            [
                HSplit(
                    [
                        ConditionalContainer(
                            self.board_window, filter=Condition(lambda: not st.log_view)
                        ),
                        self.log_window,
                    ],
                    width=self._board_width,
                ),
                Window(width=1, char=lambda: self._glyph("│")),
                panel,
            ]
        )
        self._build_frames()

    # -- the root ---------------------------------------------------------------------

    def root(self) -> FloatContainer:
        st = self.tui.state
        help_float = Float(
            ConditionalContainer(
                Window(
                    FormattedTextControl(self._plain(self._help_fragments)),
                    width=self._help_width,
                    height=self._help_height,
                    style="class:dialog",
                ),
                filter=Condition(lambda: st.help_visible),
            )
        )
        leave = ["Leave the game?  y: leave   n/Esc: stay"]
        quit_float = Float(
            ConditionalContainer(
                Window(
                    FormattedTextControl(lambda: "\n".join(self._box(leave, "Leave"))),
                    height=3,
                    width=lambda: width(self._box(leave, "Leave")[0]),
                    style="class:dialog",
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
            Screen.OVER: self.moves_window,
        }[self.tui.state.screen]

    def _body(self) -> Container:
        if too_small(*_size()):
            return self._too_small_window
        return self._framed[self.tui.state.screen]

    def _build_frames(self) -> None:
        """Each screen between the two bars, built once (redraws reuse them)."""
        top = _text_window(self._plain(self._top_fragments), height=1)
        bottom = _text_window(self._plain(self._bottom_fragments), height=1)
        screens = {
            Screen.FIND: self.find,
            Screen.LOBBY: self.lobby,
            Screen.GAME: self.game,
            Screen.OVER: self.game,  # the final board, the log, the result in the panel
        }
        self._framed = {key: HSplit([top, body, bottom]) for key, body in screens.items()}
        too_small = self._plain(lambda: self._too_small_fragments(*_size()))
        self._too_small_window = _text_window(too_small)

    # -- fragments ---------------------------------------------------------------------

    def _box(self, body: list[str], title: str, scroll: int = 0) -> list[str]:
        """``body`` in a titled box drawn here (so that --ascii draws it in ASCII),
        cut to fit the terminal; from line ``scroll`` on when it does not fit."""
        cols, rows = _size()
        width = min(max(len(line) for line in [*body, title]) + 4, cols - 2)
        room = rows - 4
        if len(body) > room:
            start = max(0, min(scroll, len(body) - room + 1))
            rest = len(body) - start - (room - 1)
            more = f"  (Down/PgDn: {rest} more lines)" if rest > 0 else "  (Up/PgUp: back)"
            body = [*body[start : start + room - 1], more]
        if self.tui.ascii:
            h, v, tl, tr, bl, br = "-", "|", "+", "+", "+", "+"
        else:
            h, v, tl, tr, bl, br = "─", "│", "┌", "┐", "└", "┘"
        head = f" {title} "
        top = tl + h + head + h * max(0, width - 3 - len(head)) + tr
        inner = [v + " " + clip(line, width - 4, self._ellipsis).ljust(width - 3) + v
                 for line in body]  # fmt: skip
        return [top, *inner, bl + h * (width - 2) + br]

    def _help_lines(self) -> list[str]:
        st = self.tui.state
        body = help_text(st).splitlines()
        st.help_scroll = min(st.help_scroll, max(0, len(body) - (_size()[1] - 4) + 1))
        return self._box(body, "Help: Esc closes", st.help_scroll)

    def _help_fragments(self) -> StyleAndTextTuples:
        return [("class:dialog", "\n".join(self._help_lines()))]

    def _help_width(self) -> int:
        return width(self._help_lines()[0])

    def _help_height(self) -> int:
        return len(self._help_lines())

    def _too_small_fragments(self, cols: int, rows: int) -> StyleAndTextTuples:
        return [
            ("class:too-small", f" Terminal too small: {cols}x{rows}.\n"),
            ("", f" sorry-lan needs at least {MIN_COLS}x{MIN_ROWS}: enlarge the window.\n"),
            ("", " (q leaves)"),
        ]

    def _top_fragments(self) -> StyleAndTextTuples:
        st = self.tui.state
        watching = st.spectating and st.screen is not Screen.FIND
        left = f" sorry-lan · {'watching' if watching else st.screen.value}"
        if st.game_title:
            left += f" · {st.game_title}"
        if st.screen is Screen.GAME and st.turn is not None:
            left += f" · turn: {st.player_name(st.turn)}"
        secs = st.seconds_left()
        if secs is not None and st.screen is Screen.GAME:
            left += f" · {secs}s left"
        cols, _ = _size()
        link = LINK_TEXT[st.link]
        # The hint goes with the connection only where it fits whole beside the game's
        # name (the bottom bar's notice says it too); else the state alone shows.
        hinted = f"{link} ({st.link_hint})" if st.link_hint else link
        if width(hinted) + 4 <= cols // 2:
            link = hinted
        link_style = {
            Link.CONNECTED: "class:bar.ok",
            Link.CONNECTING: "class:bar.warn",
            Link.RECONNECTING: "class:bar.warn",
            Link.LOST: "class:bar.bad",
            Link.OFFLINE: "class:bar",
        }[st.link]
        # The connection always shows; the left part gives way (ending in an ellipsis).
        right = self._text(clip(f"● {link} ", max(12, cols // 2), self._ellipsis))
        left = self._text(clip(left, cols - width(right) - 1, self._ellipsis))
        pad = max(0, cols - width(left) - width(right))
        return [("class:bar", left + " " * pad), (link_style, right)]

    def _bottom_fragments(self) -> StyleAndTextTuples:
        st = self.tui.state
        keys = {
            Screen.FIND: "↑↓ choose  Enter join  Tab fields  ? help  q quit",
            Screen.LOBBY: "1-4 colour  space ready  t chat  ? help  q leave",
            Screen.GAME: "↑↓/1-9 choose  Enter play  t chat  ? help  q leave",
            Screen.OVER: "r rematch  PgUp/PgDn log  t chat  ? help  q leave",
        }[st.screen]
        if st.screen is Screen.GAME and st.split is not None:
            keys = "↑↓/1-9 choose  Enter play  Esc/← back  ? help  q leave"
        elif st.screen is Screen.GAME and st.menu.has_splits:
            keys = "↑↓/1-9 choose  Enter play/open →  t chat  ? help  q leave"
        if st.screen is Screen.LOBBY and st.is_host:
            keys = "1-4 colour  space ready  a/x/l bot  v variant  s start  ? help  q quit"
        if st.spectating and st.screen is not Screen.FIND:
            keys = "watching  t chat  ? help  q leave"
            if st.screen is not Screen.LOBBY:
                keys = "watching  PgUp/PgDn log  t chat  ? help  q leave"
        if st.link is Link.LOST and st.screen is not Screen.FIND:
            keys = "r rejoin  ? help  q leave"
        cols = _size()[0]
        keys = self._text(keys)
        if not st.notice:
            return [("class:bar", clip(" " + keys, cols, self._ellipsis).ljust(cols))]
        # The keys always show; a long notice is cut short (its whole text is in the log).
        room = max(10, cols - width(keys) - 4)
        text = f" {clip(self._text(st.notice), room, self._ellipsis)}  "
        rest = clip(keys, max(0, cols - width(text)), self._ellipsis)
        return [("class:bar.warn", text), ("class:bar", rest.ljust(max(0, cols - width(text))))]

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
            text = _wrap(f"Could not join: {st.error}", _size()[0], 2, self._ellipsis)
            return [("class:error", text)]
        return []

    def _seats_fragments(self) -> StyleAndTextTuples:
        st = self.tui.state
        taken = sum(1 for seat in st.seats if seat.name)
        title = words.variant_title(st.variant)
        heading = f" Lobby · {title} · {taken} of {st.seat_limit} seats taken"
        if st.watchers:
            heading += f" · {st.watchers} watching"
        out: StyleAndTextTuples = [("class:heading", heading + "\n")]
        team = st.variant is Variant.TEAM
        free_shown = 0
        for seat in st.seats:
            title = COLOUR_TITLES[seat.colour]
            if not seat.name:
                if taken + free_shown >= st.seat_limit:
                    continue  # a table of 2 or 3 seats shows no fourth
                free_shown += 1
                who, flags = "(free)", ""
            else:
                who = seat.name + (" [bot]" if seat.bot or seat.program else "")
                flags = "ready" if seat.ready or seat.bot else "not ready"
                if seat.host:
                    flags += ", host"
            if team:
                partner = (seat.colour + 2) % 4
                flags = ", ".join(x for x in (flags, f"partner {COLOUR_TITLES[partner]}") if x)
            mark = ">" if seat.you else " "
            out.append((f"class:seat.{title.lower()}", f" {mark}{seat.colour + 1} {title:<7}"))
            out.append(("", self._seat_row(f" {mark}{seat.colour + 1} {title:<7}", who, flags,
                                            seat.lang) + "\n"))
        notes: list[str] = []
        if team and taken < 4:
            notes.append(
                f"Team play needs four players: {4 - taken} free "
                f"{'seat is' if 4 - taken == 1 else 'seats are'} played by bots."
            )
        if st.spectating:
            notes.append("you are watching (no seat): the game shows when it starts")
        elif st.lobby_info:
            notes += st.lobby_info.splitlines()
        elif st.is_host:
            notes.append("a: add a bot   x: remove one   l: its strength   v: variant   s: start")
        elif st.auto_start:
            notes.append(
                f"the game starts by itself when all {st.seat_limit} seats are taken "
                "(space: say you're ready)"
            )
        else:
            notes.append("waiting for the host to start the game (space: say you're ready)")
        cols = _size()[0]
        text = "\n".join(line for note in notes for line in wrap(note, cols))
        out.append(("class:dim", "\n" + text))
        return out

    def _seat_row(self, head: str, who: str, flags: str, lang: str | None) -> str:
        """A lobby row after its ``head`` (mark, number, colour): the name, the flags and
        the player's language by its own name.  The name sits in the middle of the row
        in steady form; the language, whose name may be unsteady (हिन्दी), ends the row
        and is clipped to what is left even if the terminal counts the rest wider."""
        row = f" {cells.steady_field(who, NAME_COLS)} {flags}"
        if not lang:
            return row
        row = f" {cells.steady_field(who, NAME_COLS)} {cells.pad(flags, FLAG_COLS)} "
        left = _size()[0] - cells.room(head + row)
        return row + cells.tail_field(language_name(lang), max(0, left))

    def _panel_width(self) -> int:
        cols, rows = _size()
        return max(PANEL_MIN, cols - board_geometry(cols, rows).width - 1)

    def log_page(self) -> int:
        """How far PgUp/PgDn scroll the log."""
        return max(1, self._log_rows() - 1)

    def _log_rows(self) -> int:
        """Rows under the board for the log (all of the column in the log view)."""
        cols, rows = _size()
        board = 0 if self.tui.state.log_view else board_geometry(cols, rows).height
        return max(1, rows - 2 - board)

    @property
    def _ellipsis(self) -> str:
        return ASCII_ELLIPSIS if self.tui.ascii else ELLIPSIS

    def _plain(
        self, get: Callable[[], StyleAndTextTuples]
    ) -> Callable[[], StyleAndTextTuples]:
        """``get`` whose text is made ASCII under --ascii (the screens' few non-ASCII
        characters: dots, arrows, rules, ellipses)."""

        def fragments() -> StyleAndTextTuples:
            frags = get()
            if not self.tui.ascii:
                return frags
            return [(f[0], self._text(f[1]), *f[2:]) for f in frags]

        return fragments

    def _glyph(self, char: str) -> str:
        return char.translate(_ASCII_GLYPHS) if self.tui.ascii else char

    def _text(self, text: str) -> str:
        """``text`` as the terminal can show it (--ascii: arrows and dots in words)."""
        if not self.tui.ascii:
            return text
        for glyph, spelt in _ASCII_WORDS:
            text = text.replace(glyph, spelt)
        return text.translate(_ASCII_GLYPHS)

    def _board_width(self) -> int:
        return board_geometry(*_size()).width

    def _board_height(self) -> int:
        return board_geometry(*_size()).height

    def _board_fragments(self) -> StyleAndTextTuples:
        st = self.tui.state
        geo = board_geometry(*_size())
        view, hl = st.board_view(), st.highlights()
        frags = render_board(view, geo.width, geo.height, self.tui.ascii, hl, self.tui.letters)
        return frags  # type: ignore[return-value]

    def _info_fragments(self) -> StyleAndTextTuples:
        st = self.tui.state
        cols = self._panel_width()
        out: StyleAndTextTuples = []
        if st.screen is Screen.OVER:
            return [("class:heading", _wrap(f"Game over: {st.winner}", cols) + "\n")]
        if st.you is not None:
            out.append(("", " You: "))
            out.append((f"class:seat.{COLOUR_TITLES[st.you].lower()}", COLOUR_TITLES[st.you]))
            out.append(("", "\n"))
        elif st.spectating:
            out.append(("class:heading", " Watching (no seat)\n"))
        if st.turn is not None:
            whose = "your turn" if st.turn == st.you else st.player_name(st.turn)
            out.append(("class:heading", _wrap(f"Turn: {whose}", cols) + "\n"))
        if st.card is not None:
            text = f"Card: {card_name(st.card)}: {card_help(st.card)}"
            out.append(("", _wrap(text, cols) + "\n"))
        if st.hand:
            out.append(("", _wrap("Hand: " + " ".join(card_name(c) for c in st.hand), cols) + "\n"))
        if st.scores:
            scores = "  ".join(f"{COLOUR_TITLES[c][0]} {s}" for c, s in sorted(st.scores.items()))
            out.append(("", _wrap(f"Scores: {scores}", cols) + "\n"))
        if st.summary and st.your_turn():
            out.append(("class:notice", _wrap(st.summary, cols, 3, self._ellipsis) + "\n"))
        return out

    def _moves_cursor(self) -> Point:
        """The highlighted entry's line, so that the list scrolls to it."""
        return Point(0, entry_row(self._move_rows(), self.tui.state.selected))

    def _move_rows(self) -> list[Row]:
        st = self.tui.state
        return menu_rows(st.entries(), st.split)

    def _moves_fragments(self) -> StyleAndTextTuples:
        st = self.tui.state
        if st.screen is Screen.OVER:
            return self._over_fragments()
        if not st.moves:
            if st.spectating:
                text = " (watching)"
            else:
                text = " (waiting)" if st.turn != st.you else " (no legal move)"
            return [("class:dim", text)]
        out: StyleAndTextTuples = []
        cols = self._panel_width()
        for row in self._move_rows():
            if row.back:  # names the first part chosen; a click goes back
                text = clip(row.text, cols, self._ellipsis)
                out.append(("class:heading", text, _click(self.tui.click_back)))
            elif row.entry is None:
                out.append(("class:dim", clip(row.text, cols, self._ellipsis)))
            else:
                selected = row.entry == st.selected
                style = "class:moves.selected" if selected else ""
                text = clip(f"{'>' if selected else ' '}{row.text}", cols, self._ellipsis)
                out.append((style, text, _click_index(self.tui.click_move, row.entry)))
            out.append(("", "\n"))
        return out[:-1]

    def _description_fragments(self) -> StyleAndTextTuples:
        entry = self.tui.state.selected_entry()
        if entry is None:
            return []
        cols = self._panel_width()
        text = _wrap(entry_description(entry), cols, DESCRIPTION_ROWS, self._ellipsis)
        return [("class:dim", text)]

    def _log_fragments(self) -> StyleAndTextTuples:
        """The end of the log, word-wrapped to the board's width; PgUp/PgDn scroll back."""
        st = self.tui.state
        cols, rows = self._board_width(), self._log_rows()
        lines = [line for entry in st.log for line in wrap(self._text(entry), cols)]
        scroll = max(0, min(st.log_scroll, len(lines) - rows))
        st.log_scroll = scroll
        end = len(lines) - scroll
        if scroll == 0:
            return [("", "\n".join(lines[max(0, end - rows) : end]))]
        shown = lines[max(0, end - rows + 1) : end]
        more = f" ({scroll} newer lines below: PgDn, End)"
        return [("", "\n".join(shown) + "\n"), ("class:dim", clip(more, cols, self._ellipsis))]

    def _chat_lines(self, cols: int, rows: int) -> StyleAndTextTuples:
        st = self.tui.state
        if not st.chat:
            return [("class:dim", " (t to chat)")]
        lines = [line for entry in st.chat for line in wrap(self._text(entry), cols)]
        return [("", "\n".join(lines[-rows:]))]

    def _game_chat_fragments(self) -> StyleAndTextTuples:
        return self._chat_lines(self._panel_width(), CHAT_ROWS)

    def _lobby_chat_fragments(self) -> StyleAndTextTuples:
        """All the chat (the window scrolls to its last line)."""
        frags = self._chat_lines(_size()[0], CHAT_LINES)
        self._lobby_chat_end = sum(frag[1].count("\n") for frag in frags)
        return frags

    def _over_fragments(self) -> StyleAndTextTuples:
        """The result beside the final board: each player's pawns home, points and play."""
        st = self.tui.state
        cols = self._panel_width()
        out: StyleAndTextTuples = []
        for colour in st.seated:
            home = sum(1 for p in st.position[colour * 4 : colour * 4 + 4] if p == HOME)
            head = f"{st.player_name(colour)}: {home} home"
            if colour in st.scores and st.variant is Variant.POINTS:
                head += f", {st.scores[colour]} points"
            if any(e.colour == colour and e.ready and not e.bot for e in st.roster.values()):
                head += " (wants a rematch)"
            stats = st.stats[colour]
            play = ", ".join(
                _count(stats[key], word)
                for key, word in (("bumps", "bump"), ("sorry", "Sorry!"), ("slides", "slide"))
            ) + f" in {_count(stats['turns'], 'turn')}"
            style = f"class:seat.{COLOUR_TITLES[colour].lower()}"
            out.append((style, _wrap(head, cols) + "\n"))
            out.append(("class:dim", _wrap(play, cols, first="   ") + "\n"))
        if st.stats_partial:
            out.append(("class:dim", _wrap("(play counted since you joined)", cols) + "\n"))
        keys = "q: leave" if st.spectating else "r: rematch   q: leave"
        if st.link is Link.LOST:
            keys = "the table has closed: q leaves (r tries to rejoin)"
        out.append(("", "\n " + keys))
        return out
