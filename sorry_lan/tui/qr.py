"""The QR code of the phones' page address, drawn with half blocks for a terminal.

:func:`qr_lines` draws a code two module rows to a terminal line (``▀``, ``▄``,
``█`` and space), dark modules as ink, with a quiet border of :data:`BORDER`
modules; the screen that shows it gives it black ink on a white ground, so it
scans the same on a dark terminal and a light one.  An address of a home network
(``http://192.168.100.200:47475``) makes a code 29 columns wide and 15 lines
high, which fits beside the lobby on an 80x24 screen.  :func:`large_qr_lines`
draws it as large as a screen of a given size holds, each module a square of
``scale`` columns (and as many half lines), with the standard's quiet border of
:data:`QUIET` modules: the lobby's larger view (``p``).  Plain text: no
prompt_toolkit here, and nothing read from the terminal.
"""

from __future__ import annotations

import segno

#: Light modules round the code (the standard asks for 4; 2 scan well on a screen).
BORDER = 2
#: The standard's quiet border, which the larger view keeps.
QUIET = 4

#: Each pair of module rows (top dark, bottom dark) as one character.
_HALVES = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}

#: A code's modules, row by row, ``True`` for a dark one.
Matrix = tuple[tuple[bool, ...], ...]


def qr_matrix(text: str, border: int = BORDER) -> Matrix:
    """The modules of the smallest QR code of ``text`` (error correction L: a screen
    does not smudge), its quiet border included."""
    code = segno.make(text, micro=False, error="l", boost_error=False)
    return tuple(tuple(bool(m) for m in row) for row in code.matrix_iter(border=border))


def half_blocks(matrix: Matrix) -> list[str]:
    """``matrix`` two rows a line (an odd last row over a light one)."""
    rows = list(matrix)
    if len(rows) % 2:
        rows.append((False,) * len(rows[0]))
    return [
        "".join(_HALVES[top, bottom] for top, bottom in zip(upper, lower, strict=True))
        for upper, lower in zip(rows[::2], rows[1::2], strict=True)
    ]


def qr_lines(text: str) -> list[str]:
    """``text``'s QR code as terminal lines (see the module docstring)."""
    return half_blocks(qr_matrix(text))


def scaled(matrix: Matrix, scale: int) -> Matrix:
    """``matrix`` with each module a ``scale`` by ``scale`` square of modules."""
    wide = [tuple(module for module in row for _ in range(scale)) for row in matrix]
    return tuple(row for row in wide for _ in range(scale))


def large_qr_lines(text: str, cols: int, rows: int) -> list[str]:
    """``text``'s QR code, with a border of :data:`QUIET` modules, drawn as large as
    ``cols`` columns and ``rows`` lines hold (at least at scale 1, which may not fit)."""
    matrix = qr_matrix(text, border=QUIET)
    side = len(matrix)
    scale = max(1, min(cols // side, (2 * rows) // side))
    return half_blocks(scaled(matrix, scale))
