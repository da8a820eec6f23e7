"""The phones' QR code scans from an 80x24 screen: ``sorry-lan host`` in a real
terminal (tmux) draws no code beside its lobby there (a seat's row needs the room),
its footer and ``?`` help name ``p``, and ``p`` shows the code alone, as large as
the screen holds, which decodes to the address written under it; any key closes
it and does nothing else (``x`` there removes no bot).

The host listens on 127.0.0.1 with ``--no-mdns`` (nothing leaves this machine), keeps
its journal in a temporary directory, and runs in a private tmux server that is
killed afterwards.  Skipped when tmux is not installed.
"""

from __future__ import annotations

import re
import shutil
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_qr import decode, read_half_blocks
from tmux_harness import Tmux, private_tmux

from sorry_lan.tui.qr import QUIET

ROOT = Path(__file__).resolve().parents[2]
ADDRESS = re.compile(r"Phones join in a browser at (http://127\.0\.0\.1:\d+)")
BLOCKS = set("▀▄█")

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]


@pytest.fixture
def tmux() -> Iterator[Tmux]:
    with private_tmux("phones") as t:
        yield t


def _code(screen: str) -> tuple[list[str], int, int]:
    """The lines of the screen that draw the code's dark modules, cut to their
    columns, and the blank lines and columns round them on the screen (the quiet
    zone, drawn white)."""
    lines = screen.splitlines()
    rows = [i for i, line in enumerate(lines) if BLOCKS & set(line)]
    left = min(len(lines[i]) - len(lines[i].lstrip(" ")) for i in rows)
    right = max(len(lines[i].rstrip(" ")) for i in rows)
    code = [lines[i][left:right].ljust(right - left) for i in rows]
    above = rows[0] - max((i for i in range(rows[0]) if lines[i].strip()), default=-1) - 1
    return code, above, left


def test_p_shows_a_code_that_scans_from_an_80x24_screen(tmux: Tmux, tmp_path: Path) -> None:
    command = (
        f"{sys.executable} -m sorry_lan host --bots 1 --port 0 --bind 127.0.0.1 --no-mdns "
        f"--name Ann --data-dir {tmp_path}"
    )
    tmux.new_session(command, ROOT, 80, 24)
    lobby = tmux.wait_for(lambda s: "bot 1 [bot]" in s and ADDRESS.search(s) is not None, 30)
    found = ADDRESS.search(lobby)
    assert found is not None
    address = found.group(1)
    assert not BLOCKS & set(lobby), lobby  # no room for the code beside the seats
    assert "p phones" in lobby.splitlines()[-1], lobby  # the footer names the key
    tmux.keys("?")
    helped = tmux.wait_for(lambda s: "large enough to scan" in s)
    assert "p" in next(line for line in helped.splitlines() if "large enough to scan" in line)
    tmux.keys("Escape")
    tmux.wait_for(lambda s: "large enough to scan" not in s)

    tmux.keys("p")
    shown = tmux.wait_for(lambda s: "(any key closes)" in s and "Lobby" not in s)
    lines = shown.splitlines()
    assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
    code, above, left = _code(shown)
    side = len(code[0])  # the symbol, finder to finder: one column a module
    modules = read_half_blocks(code)[:side]
    assert len(modules) == side and all(len(row) == side for row in modules)
    assert above >= QUIET // 2 and left >= QUIET  # its quiet zone, four modules wide
    assert decode([list(row) for row in modules]) == address
    under = lines[max(i for i, line in enumerate(lines) if BLOCKS & set(line)) + 1:]
    assert any(f"Phones join in a browser at {address}" in line for line in under), shown

    tmux.keys("x")  # any key closes the code; x removes no bot meanwhile
    tmux.wait_for(lambda s: "Lobby" in s and "bot 1 [bot]" in s and not BLOCKS & set(s))
    time.sleep(1.0)  # (a bot removed by that x would be gone from the lobby by now)
    back = tmux.screen()
    assert "bot 1 [bot]" in back and "2 of 4 seats taken" in back, back
