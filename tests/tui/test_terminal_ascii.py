"""Plain terminals in a real terminal (tmux): ``LANG=C`` draws everything in ASCII by
itself, ``--ascii`` too, and ``NO_COLOR`` marks each slide with its colour's letter.

The host listens on 127.0.0.1 with ``--no-mdns``; a private tmux server
(``-L sl-<random>``) is killed afterwards.  Skipped when tmux is not installed.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from tmux_harness import Tmux, private_tmux

from sorry_lan.tui.board import COMPACT, track_cell

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]


@pytest.fixture
def tmux() -> Iterator[Tmux]:
    with private_tmux("game") as t:
        yield t


def start(tmux: Tmux, tmp_path: Path, *env: str, flags: str = "") -> None:
    command = (
        f"{sys.executable} -m sorry_lan host --bots 3 --port 0 --bind 127.0.0.1 --no-mdns "
        f"--bot-delay 0.5 --data-dir {tmp_path} {flags}"
    )
    pairs = [x for e in ("TERM=xterm-256color", f"PYTHONPATH={ROOT}", *env) for x in ("-e", e)]
    tmux.run("-f", "/dev/null", "new-session", "-d", "-s", "game", "-x", "80", "-y", "24",
             *pairs, "-c", str(ROOT), command)  # fmt: skip


@pytest.mark.parametrize(
    ("env", "flags"),
    [(("LANG=C", "LC_ALL=", "LC_CTYPE="), ""), (("LANG=C.UTF-8",), "--ascii")],
    ids=["LANG=C", "--ascii"],
)
def test_a_plain_terminal_gets_only_ascii(
    tmux: Tmux, tmp_path: Path, env: tuple[str, ...], flags: str
) -> None:
    start(tmux, tmp_path, *env, flags=flags)
    lobby = tmux.wait_for(lambda s: "bot 3 [bot]" in s)
    assert lobby.isascii(), lobby
    tmux.keys("s")
    game = tmux.wait_for(lambda s: "START" in s and "Turn:" in s, 30)
    assert game.isascii(), game
    assert "|" in game and "-" in game and "*" in game.splitlines()[0]  # the bars, in ASCII
    tmux.keys("?")
    helped = tmux.wait_for(lambda s: "Help: Esc closes" in s)
    assert helped.isascii(), helped
    tmux.keys("Escape")
    tmux.wait_for(lambda s: "Help: Esc closes" not in s)
    tmux.keys("q")
    asked = tmux.wait_for(lambda s: "Leave the game?" in s)
    assert asked.isascii(), asked


def test_no_colour_marks_each_slide_with_its_letter(tmux: Tmux, tmp_path: Path) -> None:
    start(tmux, tmp_path, "LANG=C.UTF-8", "NO_COLOR=1")
    tmux.wait_for(lambda s: "bot 3 [bot]" in s)
    tmux.keys("s")
    game = tmux.wait_for(lambda s: "START" in s and "Turn:" in s, 30)
    lines = game.splitlines()
    for square, letter in ((4, "R"), (13, "R"), (19, "B"), (34, "Y"), (58, "G")):
        r, c = track_cell(square, 0)  # the host plays red: red at the bottom
        cell = lines[1 + r][c * COMPACT.cell_w : (c + 1) * COMPACT.cell_w]
        assert letter in cell, (square, cell, game)
