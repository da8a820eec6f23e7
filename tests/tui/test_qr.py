"""The QR code the host's lobby draws decodes back to the phones' page address.

The half blocks are read back into modules and decoded by the small reader below,
written from the QR standard for what the lobby draws (versions 1 to 4, error
correction L, one block, byte mode): the function patterns are skipped, the data
read in its zigzag, each of the eight masks tried; the one whose data ends as the
standard pads it is the code's.  Error correction is not used: a drawing is exact.
"""

from __future__ import annotations

import pytest

from sorry_lan.tui.qr import BORDER, QUIET, half_blocks, large_qr_lines, qr_lines, qr_matrix

#: Data codewords at error correction L, by version.
DATA_CODEWORDS = {1: 19, 2: 34, 3: 55, 4: 80}
#: The eight masks: whether the module at (row, col) is flipped.
MASKS = (
    lambda i, j: (i + j) % 2 == 0,
    lambda i, j: i % 2 == 0,
    lambda i, j: j % 3 == 0,
    lambda i, j: (i + j) % 3 == 0,
    lambda i, j: (i // 2 + j // 3) % 2 == 0,
    lambda i, j: (i * j) % 2 + (i * j) % 3 == 0,
    lambda i, j: ((i * j) % 2 + (i * j) % 3) % 2 == 0,
    lambda i, j: ((i + j) % 2 + (i * j) % 3) % 2 == 0,
)
_UNHALF = {" ": (False, False), "▀": (True, False), "▄": (False, True), "█": (True, True)}


def read_half_blocks(lines: list[str]) -> list[list[bool]]:
    """The modules a terminal shows (two rows a line)."""
    rows: list[list[bool]] = []
    for line in lines:
        pairs = [_UNHALF[ch] for ch in line]
        rows += [[top for top, _ in pairs], [bottom for _, bottom in pairs]]
    return rows


def _function(n: int, version: int) -> list[list[bool]]:
    """Where the finders, separators, format areas, timing and alignment lie."""
    used = [[False] * n for _ in range(n)]
    for r in range(n):
        for c in range(n):
            finder = (r < 9 and (c < 9 or c >= n - 8)) or (r >= n - 8 and c < 9)
            align = version > 1 and n - 9 <= r <= n - 5 and n - 9 <= c <= n - 5
            used[r][c] = finder or align or r == 6 or c == 6
    return used


def _zigzag(m: list[list[bool]], used: list[list[bool]], mask: int) -> list[int]:
    n, bits, col, upward = len(m), [], len(m) - 1, True
    while col > 0:
        if col == 6:
            col -= 1
        for r in range(n - 1, -1, -1) if upward else range(n):
            for c in (col, col - 1):
                if not used[r][c]:
                    bits.append(int(m[r][c] ^ MASKS[mask](r, c)))
        upward, col = not upward, col - 2
    return bits


def _text(bits: list[int], codewords: int) -> str | None:
    """The byte-mode text of ``bits`` if they are padded as the standard pads them."""
    data = [int("".join(map(str, bits[i : i + 8])), 2) for i in range(0, codewords * 8, 8)]
    stream = "".join(f"{b:08b}" for b in data)
    if stream[:4] != "0100":
        return None
    count = int(stream[4:12], 2)
    end = 12 + 8 * count
    if end + 4 > len(stream) or stream[end : end + 4] != "0000":
        return None
    pads = data[(end + 4 + 7) // 8 :]
    while pads[:1] == [0]:  # (zero bits up to a byte boundary, or more: segno pads so)
        pads = pads[1:]
    if not pads or any(p != (0xEC, 0x11)[i % 2] for i, p in enumerate(pads)):
        return None
    return bytes(int(stream[12 + 8 * k : 20 + 8 * k], 2) for k in range(count)).decode()


def decode(modules: list[list[bool]]) -> str:
    """The text of a version 1 to 4, level L, byte-mode code (no border)."""
    n = len(modules)
    version = (n - 17) // 4
    assert n == 17 + 4 * version and version in DATA_CODEWORDS, n
    used = _function(n, version)
    found = {_text(_zigzag(modules, used, mask), DATA_CODEWORDS[version]) for mask in range(8)}
    found.discard(None)
    assert len(found) == 1, found
    return str(found.pop())


@pytest.mark.parametrize("address", [
    "http://192.168.1.20:47475",
    "http://192.168.100.200:47475",
    "http://10.0.0.7:8080",
    "http://THIS-MACHINE:47475",
])
def test_the_drawn_code_decodes_to_the_address(address: str) -> None:
    drawn = qr_lines(address)
    modules = read_half_blocks(drawn)[: len(qr_matrix(address))]
    assert all(not any(row) for row in modules[:BORDER] + modules[-BORDER:])  # quiet border
    inner = [row[BORDER:-BORDER] for row in modules[BORDER:-BORDER]]
    assert decode(inner) == address


def test_a_home_address_fits_beside_the_lobby_of_an_80x24_screen() -> None:
    drawn = qr_lines("http://192.168.100.200:47475")
    assert len(drawn) <= 15 and {len(line) for line in drawn} == {29}


def test_the_reader_refuses_a_code_drawn_wrong() -> None:
    address = "http://192.168.1.20:47475"
    matrix = [list(row) for row in qr_matrix(address, border=0)]
    for r, c in ((10, 12), (11, 12), (12, 12), (13, 12)):  # a smudge across the data
        matrix[r][c] = not matrix[r][c]
    with pytest.raises(AssertionError):
        assert decode(matrix) == address
    assert half_blocks(((True, False),)) == ["▀▄"[0] + " "]


@pytest.mark.asyncio
async def test_the_host_lobby_of_a_100x24_screen_draws_a_code_that_decodes() -> None:
    from tui_harness import running

    from sorry_lan.tui.state import Screen, Seat, UiState

    address = "http://192.168.100.200:47475"
    st = UiState(screen=Screen.LOBBY, is_host=True, names={0: "Ann", 1: "greedy bot 1"},
                 lobby_info="Others join with `sorry-lan join` (it finds this table), or with:\n"
                 "  sorry-lan join --address 192.168.100.200:47474\n"
                 f"Phones join in a browser at {address}",
                 lobby_qr=tuple(qr_lines(address)))
    st.seats = [Seat(0, "Ann", host=True), Seat(1, "greedy bot 1", bot=True), Seat(2), Seat(3)]
    code = qr_lines(address)
    async with running(st, 80, 24) as (d, _actions):
        narrow = d.screen_lines()
        # at 80 columns the seats keep their whole rows: no code is drawn beside them
        assert not any(code[1] in line for line in narrow), "\n".join(narrow)
        assert any("greedy bot 1 [bot]" in line for line in narrow), "\n".join(narrow)
        await d.resize(100, 24)
        screen = d.screen_lines()
    assert len(screen) <= 24 and all(len(line) <= 100 for line in screen)
    rows = [i for i, line in enumerate(screen) if code[1] in line]
    assert rows, "\n".join(screen)
    at = screen[rows[0]].index(code[1])
    drawn = [line[at : at + len(code[0])].ljust(len(code[0])) for line in screen[rows[0] - 1 :]]
    drawn = drawn[: len(code)]
    assert drawn == code, "\n".join(screen)
    modules = read_half_blocks(drawn)[BORDER : len(qr_matrix(address)) - BORDER]
    assert decode([row[BORDER:-BORDER] for row in modules]) == address
    assert any("Phones join in a browser at" in line for line in screen)


@pytest.mark.parametrize(("cols", "rows", "scale"), [(80, 22, 1), (120, 48, 2), (200, 60, 3)])
def test_the_large_code_fills_the_screen_and_decodes(cols: int, rows: int, scale: int) -> None:
    address = "http://192.168.100.200:47475"
    drawn = large_qr_lines(address, cols, rows)
    side = len(qr_matrix(address, border=QUIET))
    assert {len(line) for line in drawn} == {side * scale} and len(drawn) <= rows
    modules = read_half_blocks(drawn)[: side * scale]
    assert len(modules) == side * scale
    one = [row[::scale] for row in modules[::scale]]  # each square of modules read once
    squares = [row[k : k + scale] for row in modules for k in range(0, len(row), scale)]
    assert all(len(set(square)) == 1 for square in squares)
    inner = [row[QUIET:-QUIET] for row in one[QUIET:-QUIET]]
    assert decode(inner) == address
