"""The replay: a finished game (or the game so far) on the board again, turn by turn.

:data:`TABLE` holds its keys: a turn forward or back, the start and the end, the
next or previous Sorry! or bump, a turn by its number (digits, then Enter), play on
and pause, faster and slower, the log, the language, back (to the game over) or quit
(``sorry-lan replay``).  :data:`OPEN` is the game over's key that opens the replay of
the game just finished.  :func:`build` makes its container: the board as it stood
after the turn shown, the log of the turns so far under it, and the panel: the turn,
who played, the card, the move and what it did (slides, pawns sent back), the points,
the result at the end and whether it is playing.  The replay's place and clock are a
:class:`~sorry_lan.replay.Replay` (``UiState.replay``); nothing here keeps time (the
application arms a timer for :attr:`Replay.due`).
"""

from __future__ import annotations

import time

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

from sorry_lan.codes import Coded
from sorry_lan.i18n import _, pgettext, words
from sorry_lan.i18n.coded import say
from sorry_lan.replay import Replay

from ..board import BoardView, render_board
from ..commands import Command, Controls, Help, Hint, Table
from ..replay_hints import Costs
from ..state import Screen, UiState
from .log import LogWindow, log_keys
from .parts import Parts, board_geometry, size, text_window, wrap_text
from .replay_panel import highlights, log_lines, panel_lines, speed_words
from .shared import LANGUAGE, LANGUAGE_KEY, SHARED, ask_to_leave, next_language

GOTO_DIGITS = 4  # a turn number typed is at most this long


def _replay(st: UiState) -> Replay:
    if st.replay is None:
        raise RuntimeError("no replay on show")
    return st.replay


def from_table(st: UiState) -> bool:
    """The replay was opened at a table (q goes back to its game over)."""
    return st.replay_back is not None


def on_its_own(st: UiState) -> bool:
    return st.replay_back is None


def _typing(st: UiState) -> bool:
    return bool(st.replay_goto)


def _moved(st: UiState, moved: bool, nowhere: str = "") -> None:
    """After a move of the replay: the log follows it; ``nowhere`` is said if it did
    not move."""
    st.log_scroll = 0
    st.replay_goto = ""
    st.notice = "" if moved or not nowhere else nowhere


def _forward(c: Controls, key: str) -> None:
    _moved(c.state, _replay(c.state).forward(time.monotonic()), _("the end of the game"))


def _back(c: Controls, key: str) -> None:
    _moved(c.state, _replay(c.state).back(time.monotonic()), _("the start of the game"))


def _start(c: Controls, key: str) -> None:
    _moved(c.state, _replay(c.state).to_start(time.monotonic()))


def _end(c: Controls, key: str) -> None:
    _moved(c.state, _replay(c.state).to_end(time.monotonic()))


def _next_mark(c: Controls, key: str) -> None:
    moved = _replay(c.state).next_mark(time.monotonic())
    none = _("no {sorry} or bump after this turn").format(sorry=words.sorry_word())
    _moved(c.state, moved, none)


def _previous_mark(c: Controls, key: str) -> None:
    moved = _replay(c.state).previous_mark(time.monotonic())
    none = _("no {sorry} or bump before this turn").format(sorry=words.sorry_word())
    _moved(c.state, moved, none)


def _play(c: Controls, key: str) -> None:
    _replay(c.state).toggle(time.monotonic())
    c.state.notice = ""


def _faster(c: Controls, key: str) -> None:
    rp = _replay(c.state)
    rp.faster(time.monotonic())
    c.state.notice = speed_words(rp.interval)


def _slower(c: Controls, key: str) -> None:
    rp = _replay(c.state)
    rp.slower(time.monotonic())
    c.state.notice = speed_words(rp.interval)


def _digit(c: Controls, key: str) -> None:
    st = c.state
    st.replay_goto = (st.replay_goto + key)[-GOTO_DIGITS:].lstrip("0") or "0"
    st.notice = ""


def _undigit(c: Controls, key: str) -> None:
    c.state.replay_goto = c.state.replay_goto[:-1]


def _go(c: Controls, key: str) -> None:
    st = c.state
    rp = _replay(st)
    n = int(st.replay_goto)
    if rp.to_turn(n, time.monotonic()):
        _moved(st, True)
        return
    st.replay_goto = ""
    st.notice = _("no turn {n}: the last is {last}").format(n=n, last=rp.tape.last_n())


def _forget_digits(c: Controls, key: str) -> None:
    c.state.replay_goto = ""


def close(c: Controls, key: str) -> None:
    """q: back to the screen the replay was opened from; on its own, quit."""
    st = c.state
    if st.replay_back is None:
        c.leave()
        return
    if st.replay is not None:
        st.replay.pause()
    st.screen, st.replay_back, st.replay_goto = st.replay_back, None, ""
    st.replay = None
    st.log_scroll = 0
    st.notice = ""


def open_replay(c: Controls, key: str) -> None:
    """The game over's key: the replay of the game just finished, from its start."""
    st = c.state
    try:
        tape = None if st.game_tape is None else st.game_tape()
    except Coded as exc:
        st.notice = say(exc)
        return
    if tape is None:
        st.notice = _("this board cannot replay the game")
        return
    st.replay = Replay(tape)
    st.replay_back = st.screen
    st.replay_goto = ""
    st.screen = Screen.REPLAY
    st.log_scroll = 0
    st.notice = ""


#: The game over's key for the replay of the game just finished.
OPEN = Command(
    ("v",),
    open_replay,
    hint=Hint("v", lambda: pgettext("key", "replay"), 3),
    help=Help("v", lambda: _("replay the game, turn by turn (q comes back here)")),
)


def _playing(st: UiState) -> bool:
    return st.replay is not None and st.replay.playing


def _paused(st: UiState) -> bool:
    return not _playing(st)


def _home_end() -> str:
    return pgettext("key cap", "Home/End")


TABLE = Table(
    "replay",
    (
        Command(
            (),
            help=Help(
                "",
                lambda: _(
                    "The board shows the game after the turn the panel names; the log lists "
                    "every turn up to it."
                ),
            ),
        ),
        Command(
            ("right", "l"),
            _forward,
            hint=Hint("←/→", lambda: pgettext("key", "turn"), 1),
            help=Help(lambda: _("Left/Right") + ", h/l", lambda: _("one turn back / forward")),
        ),
        Command(("left", "h"), _back),
        Command(
            ("space",),
            _play,
            when=_paused,
            hint=Hint("space", lambda: pgettext("key", "play"), 2),
            help=Help("space", lambda: _("play on / pause")),
        ),
        Command(
            ("space",),
            _play,
            when=_playing,
            hint=Hint("space", lambda: pgettext("key", "pause"), 2),
        ),
        Command(
            ("home",),
            _start,
            hint=Hint(_home_end, lambda: pgettext("key", "start/end"), 4),
            help=Help(_home_end, lambda: _("to the start / to the end of the game")),
        ),
        Command(("end",), _end),
        Command(
            ("]",),
            _next_mark,
            hint=Hint("[ ]", lambda: pgettext("key", "Sorry!/bump"), 5),
            help=Help(
                "[ / ]",
                lambda: _("to the previous / next {sorry} or bump").format(
                    sorry=words.sorry_word()
                ),
            ),
        ),
        Command(("[",), _previous_mark),
        Command(
            ("+", "="),
            _faster,
            hint=Hint("+/-", lambda: pgettext("key", "speed"), 6),
            help=Help("+ / -", lambda: _("play faster / slower")),
        ),
        Command(("-",), _slower),
        Command(
            tuple("0123456789"),
            _digit,
            help=Help("0-9, Enter", lambda: _("go to turn N: type its number, then Enter")),
        ),
        Command(
            ("enter",),
            _go,
            when=_typing,
            hint=Hint("Enter", lambda: pgettext("key", "go to turn"), 1),
        ),
        Command(("backspace",), _undigit, when=_typing),
        Command(("escape",), _forget_digits, when=_typing),
        *log_keys(
            hint=False,
            help=Help("PgUp/PgDn", lambda: _("scroll the log of the turns so far")),
            view_help=Help("L", lambda: _("the whole log in the board's place, and back")),
            end=False,
        ),
        Command((LANGUAGE_KEY,), next_language, help=LANGUAGE.help),
        *SHARED,
        Command(
            ("q", "escape"),
            close,
            when=from_table,
            hint=Hint("q", lambda: pgettext("key", "back"), 1),
            help=Help("q, Esc", lambda: _("back to the game over"), when=from_table),
        ),
        Command(
            ("q", "escape"),
            close,
            when=on_its_own,
            hint=Hint("q", lambda: pgettext("key", "quit"), 1),
            help=Help("q, Esc", lambda: _("quit the replay"), when=on_its_own),
        ),
        Command(("c-c",), ask_to_leave, when=from_table, anytime=True),
        Command(("c-c",), close, when=on_its_own, anytime=True),
    ),
    title=lambda: _("Replay"),
)


def title() -> str:
    """The screen's name in the top bar."""
    return pgettext("screen", "replay")


class View:
    """The replay's container: the board over the log, beside the panel (the focus)."""

    def __init__(self, parts: Parts) -> None:
        self._parts = parts
        st = parts.state
        board = text_window(
            parts.plain(self._board), width=parts.board_width, height=parts.board_height
        )
        log = LogWindow(parts, lambda: [] if st.replay is None else log_lines(st.replay))
        column = HSplit(
            [ConditionalContainer(board, filter=Condition(lambda: not st.log_view)), log.window],
            width=parts.board_width,
        )
        self.focus: Window = Window(
            FormattedTextControl(parts.plain(self._panel), focusable=True, show_cursor=False),
            width=parts.panel_width,
        )
        self.container: Container = VSplit(
            [column, Window(width=1, char=lambda: parts.glyph("│")), self.focus]
        )

    def _board(self) -> StyleAndTextTuples:
        parts = self._parts
        st = parts.state
        if st.replay is None:
            return []
        rp = st.replay
        geo = board_geometry(*size())
        bottom = st.you if st.you is not None else rp.tape.seated[0]
        view = BoardView(rp.pawns, frozenset(rp.tape.seated), bottom)
        frags = render_board(
            view, geo.width, geo.height, parts.ascii, highlights(rp.step), parts.letters
        )
        return frags  # type: ignore[return-value]

    def _panel(self) -> StyleAndTextTuples:
        parts = self._parts
        st = parts.state
        if st.replay is None:
            return []
        cols = parts.panel_width()
        return [
            (style, wrap_text(text, cols, 4, parts.ellipsis) + "\n") if text else ("", "\n")
            for style, text in panel_lines(st.replay, st.replay_goto, replay_costs(st), st.you)
        ]


def replay_costs(st: UiState) -> Costs | None:
    """The costs of the replay's moves (made once per tape, judged as shown)."""
    rp = st.replay
    if rp is None:
        return None
    if st.replay_costs is None or st.replay_costs.tape is not rp.tape:
        st.replay_costs = Costs(rp.tape)
    return st.replay_costs


def build(parts: Parts) -> View:
    return View(parts)
