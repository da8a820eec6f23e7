"""The board renderer: pawns on the right cells, layouts that fit, highlights, ASCII."""

from __future__ import annotations

import pytest

from sorry_lan.rules.board import HOME, S1, START, TRACK_LEN
from sorry_lan.tui.board import (
    COMPACT,
    GEOMETRIES,
    LARGE,
    BoardTooSmall,
    BoardView,
    Geometry,
    Highlights,
    board_text,
    box_rect,
    choose_geometry,
    layout_rects,
    min_size,
    render_board,
    safety_cell,
    spot,
    track_cell,
)

ALL_START = (START,) * 16


def lines_of(
    view: BoardView, geo: Geometry, ascii: bool = False, hl: Highlights | None = None
) -> list[str]:
    frags = render_board(view, geo.width, geo.height, ascii, hl or Highlights())
    return board_text(frags).split("\n")


def cell(lines: list[str], geo: Geometry, rc: tuple[int, int]) -> str:
    r, c = rc
    return lines[r * geo.cell_h][c * geo.cell_w : (c + 1) * geo.cell_w]


def with_pawn(pawn: int, loc: int) -> tuple[int, ...]:
    pos = list(ALL_START)
    pos[pawn] = loc
    return tuple(pos)


@pytest.mark.parametrize("geo", GEOMETRIES, ids=lambda g: g.name)
@pytest.mark.parametrize("bottom", range(4))
def test_every_track_square_shows_its_pawn_on_its_own_cell(geo: Geometry, bottom: int) -> None:
    for sq in range(TRACK_LEN):
        lines = lines_of(BoardView(with_pawn(5, sq), bottom=bottom), geo)
        assert "B2" in cell(lines, geo, track_cell(sq, bottom)), sq
        assert sum(line.count("B2") for line in lines) == 1


@pytest.mark.parametrize("geo", GEOMETRIES, ids=lambda g: g.name)
def test_safety_squares_and_home_and_start_counts(geo: Geometry) -> None:
    for colour in range(4):
        pawn = colour * 4 + 2
        label = "RBYG"[colour] + "3"
        for i in range(5):
            lines = lines_of(BoardView(with_pawn(pawn, S1 + i)), geo)
            assert label in cell(lines, geo, safety_cell(colour, i, 0))
        lines = lines_of(BoardView(with_pawn(pawn, HOME)), geo)
        top, left, h, w = box_rect("home", colour, 0, geo)
        box = "\n".join(line[left : left + w] for line in lines[top : top + h])
        assert "HOME 1" in box and label in box
        top, left, h, w = box_rect("start", colour, 0, geo)
        box = "\n".join(line[left : left + w] for line in lines[top : top + h])
        assert "START 3" in box and label not in box


def test_track_runs_clockwise_with_red_base_bottom_right() -> None:
    assert track_cell(0, 0) == (15, 15)
    assert track_cell(14, 0) == (15, 1)
    assert track_cell(15, 0) == (15, 0)  # blue's corner: the left side goes up
    assert track_cell(30, 0) == (0, 0)
    assert track_cell(45, 0) == (0, 15)
    assert track_cell(0, 1) == (0, 15)  # blue at the bottom puts red on the right


@pytest.mark.parametrize("geo", GEOMETRIES, ids=lambda g: g.name)
@pytest.mark.parametrize("bottom", range(4))
def test_no_two_places_overlap(geo: Geometry, bottom: int) -> None:
    rects = layout_rects(geo, bottom)
    assert len(rects) == 60 + 4 * 7
    for i, (na, ta, la, ha, wa) in enumerate(rects):
        assert ta >= 0 and ta + ha <= geo.height and la >= 0 and la + wa <= geo.width, na
        for nb, tb, lb, hb, wb in rects[i + 1 :]:
            apart = ta + ha <= tb or tb + hb <= ta or la + wa <= lb or lb + wb <= la
            assert apart, (na, nb)


def test_sizes_and_choice() -> None:
    assert min_size() == (COMPACT.width, COMPACT.height)
    assert COMPACT.width <= 50 and COMPACT.height <= 22  # leaves a side panel at 80x24
    assert choose_geometry(80, 22) is COMPACT
    assert choose_geometry(70, 40) is LARGE
    assert choose_geometry(47, 30) is None
    with pytest.raises(BoardTooSmall):
        render_board(BoardView(ALL_START), 40, 10)
    lines = lines_of(BoardView(ALL_START), COMPACT)
    assert len(lines) == COMPACT.height
    assert all(len(line) == COMPACT.width for line in lines)


def test_slides_and_triangles_are_marked() -> None:
    lines = lines_of(BoardView(ALL_START), COMPACT)
    # red's short slide: triangle on 1 pointing left (clockwise along the bottom)
    assert "◀" in cell(lines, COMPACT, track_cell(1, 0))
    assert "═" in cell(lines, COMPACT, track_cell(2, 0))
    assert "●" in cell(lines, COMPACT, track_cell(4, 0))
    assert "◀" in cell(lines, COMPACT, track_cell(9, 0))
    assert "▲" in cell(lines, COMPACT, track_cell(16, 0))
    assert "▶" in cell(lines, COMPACT, track_cell(31, 0))
    assert "▼" in cell(lines, COMPACT, track_cell(54, 0))
    assert "·" in cell(lines, COMPACT, track_cell(6, 0))


def test_compact_board_numbers_a_plain_square_every_five_or_so() -> None:
    """At 80x24 moves are named by square numbers: the board shows 0, 5, 15, 20, ..."""
    lines = lines_of(BoardView(ALL_START), COMPACT)
    for sq in (0, 5, 15, 20, 30, 35, 45, 50):
        for bottom in range(4):
            lines = lines_of(BoardView(ALL_START, bottom=bottom), COMPACT)
            assert cell(lines, COMPACT, track_cell(sq, bottom)).strip() == str(sq)
    # a pawn on a numbered square hides the number
    pos = (5, *ALL_START[1:])
    assert cell(lines_of(BoardView(pos), COMPACT), COMPACT, track_cell(5, 0)) == " R1"


def test_large_board_numbers_sit_under_their_squares() -> None:
    """The number row starts where the square's glyph and a pawn's label start."""
    pos = (8, *ALL_START[1:])
    lines = lines_of(BoardView(pos), LARGE)
    for sq in (7, 8, 15, 38, 59):
        r, c = track_cell(sq, 0)
        top = lines[r * LARGE.cell_h][c * LARGE.cell_w :][: LARGE.cell_w]
        under = lines[r * LARGE.cell_h + 1][c * LARGE.cell_w :][: LARGE.cell_w]
        assert under[1:].startswith(str(sq)), (sq, top, under)
        assert top[1] != " " and top[0] in " ═"
    r, c = track_cell(8, 0)
    assert lines[r * LARGE.cell_h][c * LARGE.cell_w :][:3] == " R1"


@pytest.mark.parametrize("geo", GEOMETRIES, ids=lambda g: g.name)
def test_ascii_uses_only_ascii(geo: Geometry) -> None:
    pos = (4, 13, 61, HOME, 20, START, START, START, 30, 44, START, START, 59, 63, 1, START)
    hl = Highlights(
        last=frozenset({20}), path=frozenset({5, 6}), dest=((8, 0),), bumps=frozenset({4})
    )
    text = "\n".join(lines_of(BoardView(pos, centre=("x",)), geo, True, hl))
    assert text.isascii()
    assert "R1" in text and "<" in text and "=" in text


def test_preview_marks_destination_and_bumps() -> None:
    pos = list(ALL_START)
    pos[0] = 4
    pos[4] = 8  # B1 sits where R1 would land
    hl = Highlights(
        path=frozenset({5, 6, 7, 8}),
        dest=((spot(0, 8), 0),),
        bumps=frozenset({4}),
        moving=frozenset({0}),
    )
    frags = render_board(BoardView(tuple(pos)), COMPACT.width, COMPACT.height, False, hl)
    lines = board_text(frags).split("\n")
    dest_cell = cell(lines, COMPACT, track_cell(8, 0))
    assert dest_cell.startswith(">")  # the landing square is marked
    styles = [s for s, t in frags if "B1" in t]
    assert styles and "hl.bump" in styles[0] and "hl.dest" in styles[0]
    path_styles = [s for s, t in frags if "hl.path" in s]
    assert len(path_styles) >= 1
    # an empty destination shows the moving pawn as a ghost
    hl2 = Highlights(dest=((spot(0, 9), 0),), moving=frozenset({0}))
    lines2 = board_text(render_board(BoardView(tuple(pos)), 48, 16, False, hl2)).split("\n")
    assert cell(lines2, COMPACT, track_cell(9, 0)) == ">R1"


def test_absent_colours_show_no_tokens() -> None:
    pos = (
        5,
        START,
        START,
        START,
        20,
        START,
        START,
        START,
        START,
        START,
        START,
        START,
        30,
        START,
        START,
        START,
    )
    text = "\n".join(lines_of(BoardView(pos, seated=frozenset({0, 1})), COMPACT))
    assert "R1" in text and "B1" in text
    assert "G1" not in text and "Y1" not in text


def test_bad_views_are_rejected() -> None:
    with pytest.raises(ValueError):
        BoardView((START,) * 15)
    with pytest.raises(ValueError):
        BoardView((99,) + (START,) * 15)
    with pytest.raises(ValueError):
        BoardView(ALL_START, bottom=4)


def test_swap_preview_shows_each_pawn_where_it_will_be() -> None:
    """An 11 swap: R1's square shows B1 arriving and B1's square shows R1 arriving."""
    from sorry_lan.tui.options import highlights_for, option_from_compact

    pos = list(ALL_START)
    pos[0], pos[4] = 20, 33  # R1 on 20, B1 on 33 (no slide at either)
    swap = option_from_compact(pos, (2, 11, 0, 4), 1)
    lines = lines_of(BoardView(tuple(pos)), COMPACT, hl=highlights_for(swap))
    assert cell(lines, COMPACT, track_cell(33, 0)) == ">R1"
    assert cell(lines, COMPACT, track_cell(20, 0)) == ">B1"


def test_without_colour_slides_end_in_their_colours_letter() -> None:
    lines = board_text(
        render_board(BoardView(ALL_START), COMPACT.width, COMPACT.height, letters=True)
    ).split("\n")
    assert "R" in cell(lines, COMPACT, track_cell(4, 0))  # red's short slide ends on 4
    assert "B" in cell(lines, COMPACT, track_cell(28, 0))  # blue's long slide: 24..28
    assert "G" in cell(lines, COMPACT, track_cell(49, 0))
    plain = lines_of(BoardView(ALL_START), COMPACT)
    assert "●" in cell(plain, COMPACT, track_cell(4, 0))
