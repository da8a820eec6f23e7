"""Draw the Sorry! board as formatted text: a list of ``(style, text)`` fragments.

The board is a 16 x 16 grid of cells whose outer ring is the 60-square track.  Each
colour's side of 15 squares starts at a corner (its base ``b``) and runs clockwise on
screen; the colour chosen as ``bottom`` sits along the bottom edge, the way a player
sits at their own side of the real board.  Slides (``b+1..b+4`` and ``b+9..b+13``) show
their triangle pointing the way pawns move, the safety zone leads inward from beside
``b+2`` to HOME, and START sits inside the board next to the exit square ``b+4``.

Pawns are the lettered tokens ``R1``..``G4`` so the board reads without colour; the
styles (``class:pawn.red`` ...) add colour where the terminal has it.  Highlights also
put a marker character in the cell (``>`` a previewed destination, ``x`` a pawn that
would be bumped, ``*`` the last move) so they survive ``NO_COLOR``.

This module only computes text.  It does not know about prompt_toolkit, cards or
whose turn it is, and it does not check that a position is legal: it draws what it
is given (two pawns on one square show the first and a ``+``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Final

from sorry_lan.errors import SorryLanError
from sorry_lan.i18n import language, words
from sorry_lan.rules.board import (
    HOME,
    LONG_SLIDE,
    NUM_PAWNS,
    S1,
    S5,
    SAFETY_LEN,
    SHORT_SLIDE,
    SIDE_LEN,
    START,
    TRACK_LEN,
    Colour,
    colour_pawns,
    pawn_colour,
    pawn_label,
)

from . import cells

Fragments = list[tuple[str, str]]

COLOUR_NAMES: Final = tuple(c.label for c in Colour)  # "red", ...: style class names
GRID: Final = 16  # cells per side of the square grid; its ring holds the 60 squares

# A "spot" names one drawable place: track squares are shared by all colours, the
# other places belong to one colour.  spot() turns (colour, location) into one int.
SPOT_SAFETY: Final = TRACK_LEN  # 60 + colour * 5 + i
SPOT_HOME: Final = SPOT_SAFETY + 4 * SAFETY_LEN  # 80 + colour
SPOT_START: Final = SPOT_HOME + 4  # 84 + colour


class BoardTooSmall(SorryLanError, ValueError):
    """Raised by :func:`render_board` when no layout fits the space given."""


def spot(colour: int, loc: int) -> int:
    """The drawable place of a pawn of ``colour`` at location ``loc``."""
    if 0 <= loc < TRACK_LEN:
        return loc
    if S1 <= loc <= S5:
        return SPOT_SAFETY + colour * SAFETY_LEN + loc - S1
    if loc == HOME:
        return SPOT_HOME + colour
    if loc == START:
        return SPOT_START + colour
    raise ValueError(f"bad location {loc!r}")


@dataclass(frozen=True)
class BoardView:
    """What to draw: 16 pawn locations, the seated colours, and who sits at the bottom.

    ``centre`` holds up to a few short lines printed in the middle of the board.
    """

    position: tuple[int, ...]
    seated: frozenset[int] = frozenset(range(4))
    bottom: int = 0
    centre: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if len(self.position) != NUM_PAWNS:
            raise ValueError(f"a position has {NUM_PAWNS} locations, got {len(self.position)}")
        for loc in self.position:
            spot(0, loc)  # raises on a bad location
        if not 0 <= self.bottom < 4:
            raise ValueError(f"bad bottom colour {self.bottom!r}")


@dataclass(frozen=True)
class Highlights:
    """Marks drawn over the board.

    ``last`` -- spots of the last move (from and to squares);
    ``path`` -- spots a previewed move passes over (slides included);
    ``dest`` -- (spot, pawn) pairs: where the previewed move puts each moving pawn;
    ``bumps`` -- pawns the previewed move sends back to START;
    ``moving`` -- pawns the previewed move picks up (their squares are marked).
    """

    last: frozenset[int] = frozenset()
    path: frozenset[int] = frozenset()
    dest: tuple[tuple[int, int], ...] = ()
    bumps: frozenset[int] = frozenset()
    moving: frozenset[int] = frozenset()


NO_HIGHLIGHTS: Final = Highlights()


@dataclass(frozen=True)
class Geometry:
    """One layout: cell size in characters and the START/HOME box sizes."""

    name: str
    cell_w: int
    cell_h: int
    box_w: int
    box_h: int
    framed: bool
    numbers: bool = field(default=False)
    # Box centres for the colour drawn at the bottom, in cell units (row, col);
    # the other colours' boxes are these rotated a quarter turn at a time.
    start_centre: tuple[float, float] = (13.5, 10.5)
    home_centre: tuple[float, float] = (8.5, 13.5)

    @property
    def width(self) -> int:
        return GRID * self.cell_w

    @property
    def height(self) -> int:
        return GRID * self.cell_h


# (START a third of a cell inwards: a side's START box and the next side's HOME box
# share a row, and a blank column between them keeps "START 4" and "HOME 0" apart)
COMPACT: Final = Geometry("compact", 3, 1, 9, 3, framed=False, start_centre=(13.5, 10.85))
LARGE: Final = Geometry("large", 4, 2, 12, 4, framed=True, numbers=True, start_centre=(13.5, 11.4))
GEOMETRIES: Final = (LARGE, COMPACT)  # largest first


def min_size() -> tuple[int, int]:
    """``(width, height)`` of the smallest layout."""
    return COMPACT.width, COMPACT.height


def choose_geometry(width: int, height: int) -> Geometry | None:
    """The largest layout that fits in ``width`` x ``height``, or ``None``."""
    for geo in GEOMETRIES:
        if geo.width <= width and geo.height <= height:
            return geo
    return None


# --- where things go -------------------------------------------------------------


def _rotate_cell(r: int, c: int, turns: int) -> tuple[int, int]:
    for _ in range(turns):
        r, c = c, GRID - 1 - r
    return r, c


def _rotate_point(y: float, x: float, turns: int) -> tuple[float, float]:
    for _ in range(turns):
        y, x = x, GRID - y
    return y, x


def side_of(colour: int, bottom: int) -> int:
    """0 bottom, 1 left, 2 top, 3 right: where ``colour``'s side is drawn."""
    return (colour - bottom) % 4


def track_cell(square: int, bottom: int) -> tuple[int, int]:
    """Grid cell ``(row, col)`` of a track square."""
    colour, k = divmod(square, SIDE_LEN)
    return _rotate_cell(GRID - 1, GRID - 1 - k, side_of(colour, bottom))


def safety_cell(colour: int, i: int, bottom: int) -> tuple[int, int]:
    """Grid cell of ``colour``'s safety square ``S{i+1}`` (``i`` in 0..4)."""
    return _rotate_cell(GRID - 2 - i, GRID - 3, side_of(colour, bottom))


def box_rect(kind: str, colour: int, bottom: int, geo: Geometry) -> tuple[int, int, int, int]:
    """``(top, left, height, width)`` in characters of a START (``kind='start'``) or HOME box."""
    centre = geo.start_centre if kind == "start" else geo.home_centre
    y, x = _rotate_point(*centre, side_of(colour, bottom))
    w, h = geo.box_w, geo.box_h
    top = int(y * geo.cell_h - h / 2 + 0.5)
    left = int(x * geo.cell_w - w / 2 + 0.5)
    top = max(geo.cell_h, min(top, (GRID - 1) * geo.cell_h - h))
    left = max(geo.cell_w, min(left, (GRID - 1) * geo.cell_w - w))
    return top, left, h, w


def layout_rects(geo: Geometry, bottom: int) -> list[tuple[str, int, int, int, int]]:
    """Every drawn place as ``(name, top, left, height, width)`` in characters.

    Used to check that no two places overlap in a layout.
    """
    rects: list[tuple[str, int, int, int, int]] = []
    for sq in range(TRACK_LEN):
        r, c = track_cell(sq, bottom)
        rects.append((f"track {sq}", r * geo.cell_h, c * geo.cell_w, geo.cell_h, geo.cell_w))
    for colour in range(4):
        for i in range(SAFETY_LEN):
            r, c = safety_cell(colour, i, bottom)
            name = f"{COLOUR_NAMES[colour]} S{i + 1}"
            rects.append((name, r * geo.cell_h, c * geo.cell_w, geo.cell_h, geo.cell_w))
        for kind in ("start", "home"):
            rects.append((f"{COLOUR_NAMES[colour]} {kind}", *box_rect(kind, colour, bottom, geo)))
    return rects


# Offsets within a side whose squares show their number on a board too small to number
# every square: plain squares, so every side reads 0, 5, (slide 9-13) on from its corner.
NUMBERED: Final = (0, 5)

_SLIDES: Final = tuple(range(a, b + 1) for a, b in (SHORT_SLIDE, LONG_SLIDE))


def _slide_role(k: int) -> str:
    """'tri', 'body', 'end' or '' for offset ``k`` within a side."""
    for sl in _SLIDES:
        if k == sl[0]:
            return "tri"
        if k == sl[-1]:
            return "end"
        if k in sl:
            return "body"
    return ""


# --- glyphs ------------------------------------------------------------------------


@dataclass(frozen=True)
class _Glyphs:
    track: str
    safety: str
    arrows: tuple[str, str, str, str]  # per side: bottom, left, top, right
    h_body: str
    v_body: str
    end: str
    frame: str  # corners tl tr bl br, horizontal, vertical


_UNICODE: Final = _Glyphs("·", "◦", ("◀", "▲", "▶", "▼"), "═", "║", "●", "┌┐└┘─│")
_ASCII: Final = _Glyphs(".", ":", ("<", "^", ">", "v"), "=", "|", "o", "++++-|")


# --- the canvas ----------------------------------------------------------------------


class _Canvas:
    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.chars = [[" "] * width for _ in range(height)]
        self.styles = [["class:board"] * width for _ in range(height)]

    def put_text(self, row: int, col: int, text: str, style: str) -> int:
        """Put ``text`` of any script from ``col`` on: each grapheme cluster in as many
        cells as it is wide (a wide one's second cell holds ""); returns the end column."""
        x = col
        for cluster in cells.graphemes(text):
            w = max(1, cells.width(cluster))
            self.put(row, x, cluster, style, whole=True)
            for extra in range(1, w):
                self.put(row, x + extra, "", style, whole=True)
            x += w
        return x

    def put(self, row: int, col: int, text: str, style: str, whole: bool = False) -> None:
        if not 0 <= row < self.height:
            return
        line, styles = self.chars[row], self.styles[row]
        for i, ch in enumerate([text] if whole else text):
            x = col + i
            if 0 <= x < self.width:
                line[x] = ch
                styles[x] = style

    def fragments(self) -> Fragments:
        out: Fragments = []
        for y in range(self.height):
            line, styles = self.chars[y], self.styles[y]
            start = 0
            for x in range(1, self.width + 1):
                if x == self.width or styles[x] != styles[start]:
                    out.append((styles[start], "".join(line[start:x])))
                    start = x
            if y != self.height - 1:
                out.append(("", "\n"))
        return out


def _pawn_style(pawn: int) -> str:
    return f"class:pawn.{COLOUR_NAMES[pawn_colour(pawn)]}"


def render_board(
    view: BoardView,
    width: int,
    height: int,
    ascii: bool = False,
    highlights: Highlights = NO_HIGHLIGHTS,
    letters: bool = False,
) -> Fragments:
    """The board as fragments, using the largest layout that fits ``width`` x ``height``.

    ``letters`` (no colour on screen) ends each slide with its colour's letter instead
    of a dot, so that whose slide it is reads without colour.

    Raises :class:`BoardTooSmall` when even the compact layout does not fit; check
    with :func:`choose_geometry` or :func:`min_size` first to show a message instead.
    """
    geo = choose_geometry(width, height)
    if geo is None:
        w, h = min_size()
        raise BoardTooSmall(f"the board needs {w}x{h} characters, got {width}x{height}")
    return list(_render(view, geo, ascii, highlights, letters, language()))


@lru_cache(maxsize=64)
def _render(
    view: BoardView,
    geo: Geometry,
    ascii: bool,
    hl: Highlights,
    letters: bool = False,
    lang: str = "",  # the labels' language: a board drawn in another is not reused
) -> tuple[tuple[str, str], ...]:
    g = _ASCII if ascii else _UNICODE
    canvas = _Canvas(geo.width, geo.height)
    dest = dict(hl.dest)

    occupant: dict[int, list[int]] = {}
    for pawn, loc in enumerate(view.position):
        colour = pawn_colour(pawn)
        if colour in view.seated:
            occupant.setdefault(spot(colour, loc), []).append(pawn)

    def cell_text(sp: int, glyph: str, left: str, right: str, base_style: str) -> tuple[str, str]:
        """Text (cell_w chars) and style of the first line of a cell."""
        w = geo.cell_w
        pawns = occupant.get(sp, [])
        if pawns and sp in dest and all(p in hl.moving for p in pawns):
            # A pawn that is leaving (a swap, a split 7): show the one that arrives.
            pawns = []
        if pawns:
            pawn = pawns[0]
            marker = " "
            style = _pawn_style(pawn)
            if pawn in hl.bumps:
                marker, style = "x", style + " class:hl.bump"
            elif pawn in hl.moving:
                style += " class:hl.moving"
            if sp in dest:
                marker = ">"
                style += " class:hl.dest"
            elif sp in hl.last:
                marker = "*" if marker == " " else marker
                style += " class:hl.last"
            extra = "+" if len(pawns) > 1 else right
            return (marker + pawn_label(pawn) + extra * (w - 3))[:w], style
        if sp in dest:
            pawn = dest[sp]
            text = (">" + pawn_label(pawn) + right * (w - 3))[:w]
            return text, _pawn_style(pawn) + " class:hl.dest"
        style = base_style
        if sp in hl.path:
            style += " class:hl.path"
        elif sp in hl.last:
            style += " class:hl.last"
        return (left + glyph + right * (w - 2))[:w], style

    def draw_cell(
        r: int, c: int, sp: int, glyph: str, left: str, right: str, style: str, number: str
    ) -> None:
        text, st = cell_text(sp, glyph, left, right, style)
        y, x = r * geo.cell_h, c * geo.cell_w
        canvas.put(y, x, text, st)
        if geo.numbers and geo.cell_h > 1:
            # Under the glyph and the pawn label (both start one column into the cell).
            num = (left + number.ljust(geo.cell_w - 1, right))[: geo.cell_w]
            canvas.put(y + 1, x, num, style + " class:board.number")

    # Track.
    for sq in range(TRACK_LEN):
        owner, k = divmod(sq, SIDE_LEN)
        side = side_of(owner, view.bottom)
        horizontal = side % 2 == 0
        role = _slide_role(k)
        r, c = track_cell(sq, view.bottom)
        style = "class:board.track"
        glyph, left, right = g.track, " ", " "
        if role:
            style = f"class:board.slide.{COLOUR_NAMES[owner]}"
            if role == "tri":
                glyph = g.arrows[side]
            elif role == "end":
                glyph = COLOUR_NAMES[owner][0].upper() if letters else g.end
            else:
                glyph = g.h_body if horizontal else g.v_body
            if horizontal:
                # Which screen neighbours belong to the same slide?
                lower_k_on_right = side == 0
                has_lower = role in ("body", "end")
                has_higher = role in ("tri", "body")
                right_is_slide = has_lower if lower_k_on_right else has_higher
                left_is_slide = has_higher if lower_k_on_right else has_lower
                left = g.h_body if left_is_slide else " "
                right = g.h_body if right_is_slide else " "
        if not geo.numbers and k in NUMBERED:
            glyph, style = str(sq), "class:board.number"
        draw_cell(r, c, sq, glyph, left, right, style, str(sq))

    # Safety zones, START and HOME.
    for colour in range(4):
        name = COLOUR_NAMES[colour]
        seated = colour in view.seated
        zone_style = f"class:board.safety.{name}" if seated else "class:board.absent"
        for i in range(SAFETY_LEN):
            r, c = safety_cell(colour, i, view.bottom)
            sp = SPOT_SAFETY + colour * SAFETY_LEN + i
            draw_cell(r, c, sp, g.safety, " ", " ", zone_style, f"S{i + 1}")
        for kind, loc in (("start", START), ("home", HOME)):
            _draw_box(canvas, geo, g, view, hl, colour, kind, loc, seated, letters)

    _draw_centre(canvas, geo, view.centre)
    return tuple(canvas.fragments())


def _draw_box(
    canvas: _Canvas,
    geo: Geometry,
    g: _Glyphs,
    view: BoardView,
    hl: Highlights,
    colour: int,
    kind: str,
    loc: int,
    seated: bool,
    letters: bool = False,
) -> None:
    """One START or HOME box: its label and count, the pawns in it.  With ``letters``
    (no colour on screen) a box whose last row no pawn fills names its colour there,
    so that whose box it is shows without colour (a full box's pawns say it)."""
    name = COLOUR_NAMES[colour]
    top, left, h, w = box_rect(kind, colour, view.bottom, geo)
    sp = spot(colour, loc)
    pawns = [p for p in colour_pawns(colour) if view.position[p] == loc]
    box_style = f"class:board.{kind}.{name}" if seated else "class:board.absent"
    if sp in hl.last or sp in hl.path:
        box_style += " class:hl.last" if sp in hl.last else " class:hl.path"
    count = f" {len(pawns)}" if seated else ""
    room = w - 2 if geo.framed else w
    title = cells.clip(words.board_label(kind), room - len(count)) + count
    dest_here = [p for s, p in hl.dest if s == sp]

    def token_style(p: int) -> str:
        st = _pawn_style(p)
        if p in hl.bumps:
            st += " class:hl.bump"
        return st

    tokens: list[tuple[str, str]] = []
    if seated:
        for p in pawns:
            tokens.append((("x" if p in hl.bumps else "") + pawn_label(p), token_style(p)))
        for p in dest_here:
            if p not in pawns:
                tokens.append((">" + pawn_label(p), _pawn_style(p) + " class:hl.dest"))

    if geo.framed:
        tl, tr, bl, br, hz, vt = (g.frame[i] for i in range(6))
        inner = w - 2
        head = f" {title} " if cells.width(title) + 2 <= inner else title
        canvas.put(top, left, tl, box_style)
        end = canvas.put_text(top, left + 1, head, box_style)
        canvas.put(top, end, hz * (left + inner + 1 - end) + tr, box_style)
        for row in range(1, h - 1):
            canvas.put(top + row, left, vt + " " * inner + vt, box_style)
        canvas.put(top + h - 1, left, bl + hz * inner + br, box_style)
        rows = [tokens[:2], tokens[2:]] if h - 2 >= 2 else [tokens]
        for i, row_tokens in enumerate(rows[: h - 2]):
            _put_tokens(canvas, top + 1 + i, left + 1, inner, row_tokens, box_style)
    else:
        canvas.put(top, left, " " * w, box_style)
        canvas.put_text(top, left + (w - cells.width(title)) // 2, title, box_style)
        rows = [tokens[:2], tokens[2:]][: h - 1]
        for i, row_tokens in enumerate(rows):
            _put_tokens(canvas, top + 1 + i, left, w, row_tokens, box_style)
        if letters and seated and rows and not rows[-1]:
            whose = cells.clip(words.colour_name(colour), w)
            at = left + (w - cells.width(whose)) // 2
            canvas.put_text(top + len(rows), at, whose, box_style)


def _put_tokens(
    canvas: _Canvas, row: int, left: int, width: int, tokens: list[tuple[str, str]], style: str
) -> None:
    text_len = sum(len(t) for t, _ in tokens) + max(0, len(tokens) - 1)
    x = left + max(0, (width - text_len) // 2)
    canvas.put(row, left, " " * width, style)
    for i, (text, st) in enumerate(tokens):
        if i:
            x += 1
        canvas.put(row, x, text, st)
        x += len(text)


def _draw_centre(canvas: _Canvas, geo: Geometry, lines: tuple[str, ...]) -> None:
    all_lines = (words.board_label("title"), *lines)
    mid_y = GRID * geo.cell_h // 2
    y = mid_y - (len(all_lines) + 1) // 2
    inner = 6 * geo.cell_w  # keep clear of the boxes
    for i, line in enumerate(all_lines):
        text = cells.clip(line, inner)
        x = (canvas.width - cells.width(text)) // 2
        canvas.put_text(y + i, x, text, "class:board.title" if i == 0 else "class:board.centre")


def board_text(fragments: Fragments) -> str:
    """The plain text of rendered fragments (for tests and logs)."""
    return "".join(text for _, text in fragments)
