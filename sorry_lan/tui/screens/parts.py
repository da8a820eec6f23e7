"""What every screen draws with: the terminal's size, text windows, the --ascii look.

:class:`Parts` is given to each screen's ``build``: the state it reads, the
:class:`Clicks` it calls, and the look (ASCII only, no colour) with its helpers; the
board column's and the side panel's widths, which the game, the game over and the log
share.  Helpers only: no screen is built here, and nothing reads keys.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from prompt_toolkit.application.current import get_app
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout import (
    ConditionalContainer,
    Container,
    Float,
    FormattedTextControl,
    Window,
)
from prompt_toolkit.mouse_events import MouseEvent, MouseEventType

from sorry_lan.i18n import _, ngettext, words

from .. import cells
from .. import renderer as _renderer  # noqa: F401  (aligns the renderer with cells)
from ..board import COMPACT, Geometry, choose_geometry
from ..state import UiState
from ..textfit import ASCII_ELLIPSIS, ELLIPSIS, clip, pad, width, wrap

MIN_COLS = 80
MIN_ROWS = 24
PANEL_MIN = 30  # columns kept for the side panel
LOG_MIN = 3  # rows kept under the board for the log

# --ascii: the few non-ASCII characters the screens (not the board) use.
_ASCII_GLYPHS = str.maketrans({"─": "-", "│": "|", "●": "*", "·": "-", "…": "...", "↑": "^"})
_ASCII_WORDS = (("↑↓", "Up/Down"), ("←", "Left"), ("→", "Right"))


def too_small(cols: int, rows: int) -> bool:
    return cols < MIN_COLS or rows < MIN_ROWS


def board_geometry(cols: int, rows: int) -> Geometry:
    """The board layout for the game screen at this terminal size."""
    return choose_geometry(cols - PANEL_MIN, rows - 2 - LOG_MIN) or COMPACT


def size() -> tuple[int, int]:
    """The terminal's (columns, rows) now."""
    got = get_app().output.get_size()
    return got.columns, got.rows


def text_window(get: Callable[[], StyleAndTextTuples], **kwargs: object) -> Window:
    return Window(FormattedTextControl(get), **kwargs)  # type: ignore[arg-type]


def wrap_text(
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


def colour_title(colour: int) -> str:
    return words.colour_name(colour)


def click_index(select: Callable[[int], None], index: int) -> Callable[[MouseEvent], None]:
    return click(lambda: select(index))


def click(act: Callable[[], None]) -> Callable[[MouseEvent], None]:
    def handler(event: MouseEvent) -> None:
        if event.event_type == MouseEventType.MOUSE_UP:
            act()

    return handler


class View(Protocol):
    """A screen as built by its module's ``build``."""

    @property
    def container(self) -> Container: ...  # built once, drawn between the two bars
    @property
    def focus(self) -> Container: ...  # what has the focus while the screen is on show


@dataclass(frozen=True)
class Clicks:
    """What a mouse click on a screen asks for (the application does it)."""

    found: Callable[[int], None]  # a game of the find screen's list
    move: Callable[[int], None]  # an entry of the move list
    back: Callable[[], None]  # the split 7's first part named above its second parts


class Parts:
    """The state, the clicks and the look every screen is built with."""

    def __init__(self, state: UiState, clicks: Clicks, *, ascii: bool, letters: bool) -> None:
        self.state = state
        self.clicks = clicks
        self.ascii = ascii  # draw in ASCII only
        self.letters = letters  # no colour: slides marked by letter

    @property
    def ellipsis(self) -> str:
        return ASCII_ELLIPSIS if self.ascii else ELLIPSIS

    def plain(self, get: Callable[[], StyleAndTextTuples]) -> Callable[[], StyleAndTextTuples]:
        """``get`` whose text is made ASCII under --ascii (the screens' few non-ASCII
        characters: dots, arrows, rules, ellipses)."""

        def fragments() -> StyleAndTextTuples:
            frags = cells.seal_line_ends(get())
            if not self.ascii:
                return frags
            return [(f[0], self.text(f[1]), *f[2:]) for f in frags]

        return fragments

    def glyph(self, char: str) -> str:
        return char.translate(_ASCII_GLYPHS) if self.ascii else char

    def text(self, text: str) -> str:
        """``text`` as the terminal can show it (--ascii: arrows and dots in words)."""
        if not self.ascii:
            return text
        for glyph, spelt in _ASCII_WORDS:
            text = text.replace(glyph, spelt)
        return text.translate(_ASCII_GLYPHS)

    def rule(self) -> Window:
        """A row of ─ across its container."""
        return Window(height=1, char=lambda: self.glyph("─"))

    def box(self, body: list[str], title: str, scroll: int = 0) -> list[str]:
        """``body`` in a titled box drawn here (so that --ascii draws it in ASCII),
        cut to fit the terminal; from line ``scroll`` on when it does not fit.

        Widths are display widths (:mod:`..cells`): a line of any script is clipped at a
        cluster boundary and padded so the right border keeps its column.  The box is
        drawn against the right edge of the screen (its float is anchored there), so a
        terminal that counts a line narrower than the renderer moves nothing after it."""
        cols, rows = size()
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
        if self.ascii:
            h, v, tl, tr, bl, br = "-", "|", "+", "+", "+", "+"
        else:
            h, v, tl, tr, bl, br = "─", "│", "┌", "┐", "└", "┘"
        head = " " + clip(title, box_w - 5, self.ellipsis) + " "
        top = tl + h + head + h * max(0, box_w - 3 - width(head)) + tr
        inner = [v + " " + pad(line, box_w - 4, self.ellipsis) + " " + v for line in body]
        return [top, *inner, bl + h * (box_w - 2) + br]

    # -- the board column and the side panel (the game, the game over, the log) --------

    def board_width(self) -> int:
        return board_geometry(*size()).width

    def board_height(self) -> int:
        return board_geometry(*size()).height

    def panel_width(self) -> int:
        cols, rows = size()
        return max(PANEL_MIN, cols - board_geometry(cols, rows).width - 1)

    def dialog(self, lines: Callable[[], list[str]], shown: Callable[[], bool]) -> Float:
        """A box of ``lines`` (drawn with :meth:`box`) floating against the right edge
        while ``shown``: the help, the leave and the play-alone questions."""
        window = Window(
            FormattedTextControl(self.plain(lambda: [("class:dialog", "\n".join(lines()))])),
            height=lambda: len(lines()),
            width=lambda: width(lines()[0]),
        )
        return Float(ConditionalContainer(window, filter=Condition(shown)), right=0)
