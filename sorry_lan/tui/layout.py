"""The screens as prompt_toolkit containers, each reading :class:`UiState` when drawn.

``build_root(tui)`` returns the root container: a top bar (game, turn, connection), the
current screen, a bottom bar of keys, and the help and leave-confirmation overlays.  A
terminal under 80x24 gets a message instead.  Containers are built once; their
content comes from callables, so a state change plus ``invalidate()`` redraws.

This module holds no game logic and sends nothing; key handling is in ``keys.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

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

from sorry_lan.i18n import _, language_name, ngettext, pgettext, words
from sorry_lan.rules.board import HOME

from . import cells
from .board import COMPACT, Geometry, choose_geometry, render_board
from .footer import fit_hints, footer_hints
from .helptext import help_text
from .menu import Row, entry_description, entry_row, menu_rows
from .options import card_name
from .state import CHAT_LINES, COLOUR_TITLES, Link, Screen, UiState, card_help, link_text
from .textfit import ASCII_ELLIPSIS, ELLIPSIS, clip, pad, width, wrap

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


def _play_counts(bumps: int, sorry: int, slides: int, turns: int) -> str:
    """A player's game in numbers: "2 bumps, 1 Sorry!, 3 slides in 20 turns"."""
    counts = ", ".join(
        (
            ngettext("{n} bump", "{n} bumps", bumps).format(n=bumps),
            ngettext("{n} {sorry}", "{n} {sorry}", sorry).format(n=sorry, sorry=words.sorry_word()),
            ngettext("{n} slide", "{n} slides", slides).format(n=slides),
        )
    )
    return ngettext("{counts} in {n} turn", "{counts} in {n} turns", turns).format(
        counts=counts, n=turns
    )


def _screen_word(screen: Screen) -> str:
    return {
        Screen.FIND: pgettext("screen", "find"),
        Screen.LOBBY: pgettext("screen", "lobby"),
        Screen.GAME: pgettext("screen", "game"),
        Screen.OVER: pgettext("screen", "over"),
    }[screen]


def _colour_title(colour: int) -> str:
    return words.colour_name(colour)


def _click_index(select: Callable[[int], None], index: int) -> Callable[[MouseEvent], None]:
    return _click(lambda: select(index))


def _click(act: Callable[[], None]) -> Callable[[MouseEvent], None]:
    def handler(event: MouseEvent) -> None:
        if event.event_type == MouseEventType.MOUSE_UP:
            act()

    return handler


class Board(Protocol):
    """What the screens read and what a click calls (the application implements it)."""

    state: UiState
    ascii: bool  # draw in ASCII only
    letters: bool  # no colour: slides marked by letter

    def click_found(self, index: int) -> None: ...
    def click_move(self, index: int) -> None: ...
    def click_back(self) -> None: ...


class Screens:
    """Builds and holds the containers of every screen for one :class:`Board`."""

    def __init__(self, tui: Board) -> None:
        self.tui = tui
        self._lobby_chat_end = 0
        st = tui.state
        self.address = TextArea(multiline=False, prompt=self._label(0), height=1)
        self.name = TextArea(multiline=False, prompt=self._label(1), height=1, text=st.default_name)
        self.pin = TextArea(multiline=False, prompt=self._label(2), height=1, password=True)
        self.chat_input = TextArea(multiline=False, prompt=lambda: self._text(_("say: ")), height=1)
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
                    self._plain(lambda: [("class:heading", " " + _("Games on your network"))]),
                    height=1,
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

    def _label(self, index: int) -> Callable[[], str]:
        """The find screen's field label ``index`` (address, name, PIN), all three padded
        to the widest so the fields line up, in the language of the moment."""

        def label() -> str:
            labels = [_("Address:"), _("Name:"), _("PIN:")]
            cols = max(width(x) for x in labels) + 1
            return pad(labels[index], cols)

        return label

    # -- the root ---------------------------------------------------------------------

    def root(self) -> FloatContainer:
        st = self.tui.state
        help_float = Float(
            ConditionalContainer(
                Window(
                    FormattedTextControl(self._plain(self._help_fragments)),
                    width=self._help_width,
                    height=self._help_height,
                ),
                filter=Condition(lambda: st.help_visible and not too_small(*_size())),
            ),
            right=0,
        )
        quit_float = Float(
            ConditionalContainer(
                Window(
                    FormattedTextControl(self._plain(self._leave_fragments)),
                    height=3,
                    width=lambda: width(self._leave_lines()[0]),
                ),
                filter=Condition(lambda: st.confirm_quit),
            ),
            right=0,
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
        cut to fit the terminal; from line ``scroll`` on when it does not fit.

        Widths are display widths (:mod:`.cells`): a line of any script is clipped at a
        cluster boundary and padded so the right border keeps its column.  The box is
        drawn against the right edge of the screen (its float is anchored there), so a
        terminal that counts a line narrower than the renderer moves nothing after it."""
        cols, rows = _size()
        box_w = min(max(width(line) for line in [*body, title]) + 4, cols - 2)
        room = rows - 4
        if len(body) > room:
            start = max(0, min(scroll, len(body) - room + 1))
            rest = len(body) - start - (room - 1)
            if rest > 0:
                more = ngettext(
                    "(Down/PgDn: {n} more line)", "(Down/PgDn: {n} more lines)", rest
                ).format(n=rest)
            else:
                more = _("(Up/PgUp: back)")
            body = [*body[start : start + room - 1], "  " + more]
        if self.tui.ascii:
            h, v, tl, tr, bl, br = "-", "|", "+", "+", "+", "+"
        else:
            h, v, tl, tr, bl, br = "─", "│", "┌", "┐", "└", "┘"
        head = " " + clip(title, box_w - 5, self._ellipsis) + " "
        top = tl + h + head + h * max(0, box_w - 3 - width(head)) + tr
        inner = [v + " " + pad(line, box_w - 4, self._ellipsis) + " " + v for line in body]
        return [top, *inner, bl + h * (box_w - 2) + br]

    def _leave_lines(self) -> list[str]:
        ask = _("Leave the game?  y: leave   n/Esc: stay")
        return self._box([ask], _("Leave"))

    def _leave_fragments(self) -> StyleAndTextTuples:
        return [("class:dialog", "\n".join(self._leave_lines()))]

    def _help_lines(self) -> list[str]:
        st = self.tui.state
        body = help_text(st, max(20, _size()[0] - 6)).splitlines()
        st.help_scroll = min(st.help_scroll, max(0, len(body) - (_size()[1] - 4) + 1))
        return self._box(body, _("Help: Esc closes"), st.help_scroll)

    def _help_fragments(self) -> StyleAndTextTuples:
        return [("class:dialog", "\n".join(self._help_lines()))]

    def _help_width(self) -> int:
        return width(self._help_lines()[0])

    def _help_height(self) -> int:
        return len(self._help_lines())

    def _too_small_fragments(self, cols: int, rows: int) -> StyleAndTextTuples:
        lines = [
            _("Terminal too small: {cols}x{rows}.").format(cols=cols, rows=rows),
            _("sorry-lan needs at least {cols}x{rows}: enlarge the window.").format(
                cols=MIN_COLS, rows=MIN_ROWS
            ),
            _("(q leaves)"),
        ]
        text = [wrap(line, max(1, cols - 1)) for line in lines]
        return [
            ("class:too-small", "\n".join(text[0]) + "\n"),
            ("", "\n".join(text[1]) + "\n"),
            ("", "\n".join(text[2])),
        ]

    def _top_fragments(self) -> StyleAndTextTuples:
        st = self.tui.state
        watching = st.spectating and st.screen is not Screen.FIND
        # Names (the game's title, the player to move) sit in the middle of this row:
        # shown in steady form, so the connection keeps its place in every terminal.
        parts = ["sorry-lan", _("watching") if watching else _screen_word(st.screen)]
        if st.game_title:
            parts.append(cells.steady_form(st.game_title))
        if st.screen is Screen.GAME and st.turn is not None:
            turn = cells.steady_form(st.player_name(st.turn))
            parts.append(_("turn: {player}").format(player=turn))
        secs = st.seconds_left()
        if secs is not None and st.screen is Screen.GAME:
            parts.append(_("{n}s left").format(n=secs))
        left = " " + " · ".join(parts)
        cols = _size()[0]
        link = link_text(st.link)
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
        cols = _size()[0]
        hints = [h._replace(key=self._text(h.key)) for h in footer_hints(st)]
        if not st.notice:
            return [("class:bar", pad(" " + fit_hints(hints, cols - 1), cols))]
        # The keys show beside the notice (at least "? help"); a long notice is cut
        # short (its whole text is in the log).
        notice = self._text(st.notice)
        keys = fit_hints(hints, max(cols - width(notice) - 4, cols // 3))
        text = " " + clip(notice, max(10, cols - width(keys) - 4), self._ellipsis) + "  "
        return [("class:bar.warn", text), ("class:bar", pad(keys, cols - width(text)))]

    def _find_hint_fragments(self) -> StyleAndTextTuples:
        st = self.tui.state
        if self.address.text.strip():
            text = _("Enter joins the address typed below.")
        elif st.found:
            text = _("Enter joins the highlighted game; or type an address below (Tab).")
        else:
            text = _("Games appear above as they are found; or type an address below (Tab).")
        return [("class:dim", clip(" " + text, _size()[0], self._ellipsis))]

    def _found_fragments(self) -> StyleAndTextTuples:
        st = self.tui.state
        if not st.found:
            if st.find_message:
                cols = _size()[0]
                lines = [w for line in st.find_message.splitlines() for w in wrap(line, cols)]
                return [("", "\n".join(lines))]
            msg = _("searching the network for games...") if st.searching else _("no games found")
            return [("class:dim", " " + msg)]
        out: StyleAndTextTuples = []
        cols = _size()[0]
        for i, game in enumerate(st.found):
            selected = i == st.found_selected
            style = "class:found.selected" if selected else ""
            if not game.joinable:
                style += " class:dim"
            # The game's name (a player's words) is the one field of unknown width in
            # the middle of the row: steady, at most 24 columns; the row ends clipped.
            title = cells.steady_field(game.title, min(24, width(game.title)))
            line = f"{'>' if selected else ' '}{i + 1}. {title}  {game.address}  {game.detail}"
            line = clip(line, cols, self._ellipsis)
            out.append((style, line, _click_index(self.tui.click_found, i)))
            out.append(("", "\n"))
        return out[:-1]

    def _join_status_fragments(self) -> StyleAndTextTuples:
        st = self.tui.state
        if st.joining:
            text = _("joining {where}...").format(where=st.link_hint)
            return [("class:notice", clip(" " + text, _size()[0], self._ellipsis))]
        if st.error:
            text = _("Could not join: {why}").format(why=st.error)
            text = _wrap(text, _size()[0], 2, self._ellipsis)
            return [("class:error", text)]
        return []

    def _seats_fragments(self) -> StyleAndTextTuples:
        st = self.tui.state
        cols = _size()[0]
        taken = sum(1 for seat in st.seats if seat.name)
        heading = ngettext(
            "Lobby · {variant} · {taken} of {total} seat taken",
            "Lobby · {variant} · {taken} of {total} seats taken",
            st.seat_limit,
        ).format(variant=words.variant_title(st.variant), taken=taken, total=st.seat_limit)
        if st.watchers:
            watching = ngettext("{n} watching", "{n} watching", st.watchers)
            heading += " · " + watching.format(n=st.watchers)
        out: StyleAndTextTuples = [("class:heading", clip(" " + heading, cols) + "\n")]
        team = st.variant.rules.partners
        free_shown = 0
        colour_cols = max(7, *(width(_colour_title(c)) + 1 for c in range(4)))
        for seat in st.seats:
            title = _colour_title(seat.colour)
            if not seat.name:
                if taken + free_shown >= st.seat_limit:
                    continue  # a table of 2 or 3 seats shows no fourth
                free_shown += 1
                who, flags = pgettext("seat", "(free)"), ""
            else:
                # The name is the player's own words: steady (see .cells), so the
                # columns after it stay in place in every terminal.
                who = cells.steady_form(seat.name)
                if seat.bot or seat.program:
                    who += " " + pgettext("seat", "[bot]")
                ready = seat.ready or seat.bot
                flags = pgettext("seat", "ready") if ready else pgettext("seat", "not ready")
                if seat.host:
                    flags = _("{flags}, host").format(flags=flags)
            if team:
                partner = _("partner {colour}").format(colour=_colour_title((seat.colour + 2) % 4))
                flags = (
                    _("{flags}, {partner}").format(flags=flags, partner=partner)
                    if flags
                    else partner
                )
            mark = ">" if seat.you else " "
            colour_style = f"class:seat.{COLOUR_TITLES[seat.colour].lower()}"
            head = f" {mark}{seat.colour + 1} " + pad(title, colour_cols)
            out.append((colour_style, head))
            out.append(("", self._seat_row(head, who, flags, seat.lang) + "\n"))
        notes: list[str] = []
        if st.variant.rules.fills_with_bots and taken < 4:
            free = 4 - taken
            notes.append(
                ngettext(
                    "Team play needs four players: {n} free seat is played by a bot.",
                    "Team play needs four players: {n} free seats are played by bots.",
                    free,
                ).format(n=free)
            )
        if st.is_host and not st.spectating:  # the footer may be short of room for these
            notes.append(
                _("a: add a bot   x: remove one   l: its strength   v: variant   s: start")
            )
        if st.spectating:
            notes.append(_("you are watching (no seat): the game shows when it starts"))
        elif st.lobby_info:
            notes += st.lobby_info.splitlines()
        elif st.is_host:
            pass  # its keys are above
        elif st.auto_start:
            notes.append(
                ngettext(
                    "the game starts by itself when its {n} seat is taken "
                    "(space: say you're ready)",
                    "the game starts by itself when all {n} seats are taken "
                    "(space: say you're ready)",
                    st.seat_limit,
                ).format(n=st.seat_limit)
            )
        else:
            notes.append(_("waiting for the host to start the game (space: say you're ready)"))
        text = "\n".join(line for note in notes for line in wrap(note, cols))
        out.append(("class:dim", "\n" + text))
        return out

    def _seat_row(self, head: str, who: str, flags: str, lang: str | None) -> str:
        """A lobby row after its ``head`` (mark, number, colour): the name, the flags and
        the player's language by its own name.  The name sits in the middle of the row
        in steady form; the language, whose name may be unsteady (हिन्दी), ends the row
        and is clipped to what is left even if the terminal counts the rest wider.
        Widths are display widths: flags in any language keep the language's column."""
        room = _size()[0] - width(head)
        lang_cols = 12 if lang else 0
        name_cols = min(NAME_COLS, max(8, room - 2 - width(flags) - lang_cols))
        row = " " + cells.steady_field(who, name_cols) + " "
        if not lang:
            return row + clip(flags, max(0, room - width(row)), self._ellipsis)
        flag_cols = min(max(FLAG_COLS, width(flags)), max(0, room - width(row) - lang_cols))
        row += pad(flags, flag_cols, self._ellipsis) + " "
        return row + cells.tail_field(language_name(lang), max(0, room - width(row)))

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

    def _plain(self, get: Callable[[], StyleAndTextTuples]) -> Callable[[], StyleAndTextTuples]:
        """``get`` whose text is made ASCII under --ascii (the screens' few non-ASCII
        characters: dots, arrows, rules, ellipses)."""

        def fragments() -> StyleAndTextTuples:
            frags = cells.seal_line_ends(get())
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
            text = _("Game over: {result}").format(result=st.winner)
            return [("class:heading", _wrap(text, cols) + "\n")]
        if st.you is not None:
            you = _colour_title(st.you)
            out.append(("", " " + _("You:") + " "))
            out.append((f"class:seat.{COLOUR_TITLES[st.you].lower()}", you))
            out.append(("", "\n"))
        elif st.spectating:
            out.append(("class:heading", " " + _("Watching (no seat)") + "\n"))
        if st.turn is not None:
            whose = _("your turn") if st.turn == st.you else st.player_name(st.turn)
            out.append(
                ("class:heading", _wrap(_("Turn: {player}").format(player=whose), cols) + "\n")
            )
        if st.card is not None:
            text = _("Card: {card}: {help}").format(
                card=card_name(st.card), help=card_help(st.card)
            )
            out.append(("", _wrap(text, cols) + "\n"))
        if st.hand:
            hand = " ".join(card_name(c) for c in st.hand)
            out.append(("", _wrap(_("Hand: {cards}").format(cards=hand), cols) + "\n"))
        if st.scores:
            scores = "  ".join(
                f"{_colour_title(c)} {points}" for c, points in sorted(st.scores.items())
            )
            out.append(("", _wrap(_("Scores: {scores}").format(scores=scores), cols) + "\n"))
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
                text = _("(watching)")
            else:
                text = _("(waiting)") if st.turn != st.you else _("(no legal move)")
            return [("class:dim", " " + text)]
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
        # The log sits left of the panel, in the middle of each row: players' names in
        # it are shown steady (see .cells) so the panel keeps its column everywhere.
        names = {*st.names.values(), *(e.name for e in st.roster.values())}
        unsteady = sorted((n for n in names if n and not cells.steady(n)), key=len, reverse=True)

        def steady_names(text: str) -> str:
            for name in unsteady:
                text = text.replace(name, cells.steady_form(name))
            return text

        log = [steady_names(self._text(entry)) for entry in st.log]
        lines = [line for entry in log for line in wrap(entry, cols)]
        scroll = max(0, min(st.log_scroll, len(lines) - rows))
        st.log_scroll = scroll
        end = len(lines) - scroll
        if scroll == 0:
            return [("", "\n".join(lines[max(0, end - rows) : end]))]
        shown = lines[max(0, end - rows + 1) : end]
        more = " " + ngettext(
            "({n} newer line below: PgDn, End)", "({n} newer lines below: PgDn, End)", scroll
        ).format(n=scroll)
        return [("", "\n".join(shown) + "\n"), ("class:dim", clip(more, cols, self._ellipsis))]

    def _chat_lines(self, cols: int, rows: int) -> StyleAndTextTuples:
        st = self.tui.state
        if not st.chat:
            return [("class:dim", " " + _("(t to chat)"))]
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
            head = ngettext("{player}: {n} home", "{player}: {n} home", home).format(
                player=st.player_name(colour), n=home
            )
            if colour in st.scores and st.variant.rules.scores_points:
                points = st.scores[colour]
                head = ngettext("{head}, {n} point", "{head}, {n} points", points).format(
                    head=head, n=points
                )
            if any(e.colour == colour and e.ready and not e.bot for e in st.roster.values()):
                head = _("{head} (wants a rematch)").format(head=head)
            stats = st.stats[colour]
            play = _play_counts(stats["bumps"], stats["sorry"], stats["slides"], stats["turns"])
            style = f"class:seat.{COLOUR_TITLES[colour].lower()}"
            out.append((style, _wrap(head, cols) + "\n"))
            out.append(("class:dim", _wrap(play, cols, first="   ") + "\n"))
        if st.stats_partial:
            text = _("(play counted since you joined)")
            out.append(("class:dim", _wrap(text, cols) + "\n"))
        keys = _("q: leave") if st.spectating else _("r: rematch   q: leave")
        if st.link is Link.LOST:
            keys = _("the table has closed: q leaves (r tries to rejoin)")
        out.append(("", "\n" + _wrap(keys, cols)))
        return out
