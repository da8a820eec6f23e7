"""``sorry-lan host --bots 3`` in a real terminal (tmux): start, play by keys, resize.

The host listens on 127.0.0.1 with ``--no-mdns`` (nothing leaves this machine), keeps
its journal in a temporary directory, and runs in a private tmux server
(``-L sl-<random>``) that is killed afterwards.  Skipped when tmux is not installed.
"""

from __future__ import annotations

import re
import shutil
import sys
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pytest
from tmux_harness import Tmux, private_tmux

from sorry_lan.rules.board import TRACK_LEN
from sorry_lan.tui.board import track_cell
from sorry_lan.tui.screens.parts import board_geometry

ROOT = Path(__file__).resolve().parents[2]
COLOURS = ("Red", "Blue", "Yellow", "Green")

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]


@pytest.fixture
def tmux() -> Iterator[Tmux]:
    with private_tmux("game") as t:
        yield t


# A move in the list: "> 2 G1 49->59", "  1 Sorry! G1 start->45 xB1", "3 R2 4->12>15"
_SIMPLE = re.compile(r"│[> ]([1-9]) (Sorry! )?([RBYG][1-4]) (\w+)->(\d+|S\d|home)(?:>(\d+))?")


def board_cell(screen: str, square: int, bottom: int, cols: int = 80, rows: int = 24) -> str:
    geo = board_geometry(cols, rows)
    r, c = track_cell(square, bottom)
    line = screen.splitlines()[1 + r * geo.cell_h].ljust(cols)
    return line[c * geo.cell_w : (c + 1) * geo.cell_w]


def _session(tmux: Tmux, command: str) -> None:
    """Run ``command`` in an 80x24 session "game" of the private tmux server."""
    tmux.run(
        "-f", "/dev/null", "new-session", "-d", "-s", "game", "-x", "80", "-y", "24",
        "-e", f"PYTHONPATH={ROOT}", "-e", "TERM=xterm-256color", "-e", "LANG=C.UTF-8",
        "-c", str(ROOT), command,
    )  # fmt: skip


def test_host_with_three_bots_played_by_keys(tmux: Tmux, tmp_path: Path) -> None:
    command = (
        f"{sys.executable} -m sorry_lan host --bots 3 --port 0 --bind 127.0.0.1 --no-mdns "
        f"--bot-delay 0.05 --data-dir {tmp_path}"
    )
    _session(tmux, command)
    lobby = tmux.wait_for(lambda s: "s start" in s and "bot 3 [bot]" in s)
    assert "host" in lobby and "connected" in lobby.splitlines()[0]

    tmux.keys("s")
    game = tmux.wait_for(lambda s: "your turn" in s and ">1 " in s, 30)
    lines = game.splitlines()
    assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
    you = next(c for c in COLOURS if f"You: {c}" in game)
    bottom = COLOURS.index(you)

    # A taller terminal keeps more of the log on screen while the bots answer.
    cols, rows = 80, 44
    tmux.run("resize-window", "-t", "game", "-x", str(cols), "-y", str(rows))
    screen = tmux.wait_for(lambda s: len(s.splitlines()) > 30 and "your turn" in s)
    landed = None
    for _turn in range(12):  # play until we get a plain move (not a swap or a split)
        # (a split 7's first part, "R1 4->6 (2), then 5 more...", is no plain move)
        moves = [_SIMPLE.search(line) for line in screen.splitlines() if ", then " not in line]
        simple = [mv for mv in moves if mv is not None]
        key = simple[0].group(1) if simple else "1"
        before_key = screen
        tmux.keys(key, "Enter")
        if simple:
            landed = simple[0]
            break
        screen = tmux.wait_for(partial(_new_turn, before_key), 30)
    assert landed is not None, "no plain move offered in 12 turns"
    pawn, dest = landed.group(3), landed.group(6) or landed.group(5)
    mine = f"You: {landed.group(2) or ''}{pawn} "

    def bot_after_ours(s: str) -> bool:
        return mine in s and " bot " in s[s.rindex(mine) :]

    # Our move is in the log, and a bot's move follows it (after a 2 we play again).
    seen, again = before_key.count("You draw again"), False
    end = time.monotonic() + 20
    after = tmux.screen()
    while not bot_after_ours(after) and time.monotonic() < end:
        if after.count("You draw again") > seen and "your turn" in after:
            seen, again = after.count("You draw again"), True
            tmux.keys("Enter")
        time.sleep(0.05)
        after = tmux.screen()
    assert bot_after_ours(after), after
    if dest.isdigit() and int(dest) < TRACK_LEN and not again:
        # Our pawn is drawn on its square (unless a bot's move has moved it on since).
        moved_on = re.search(rf"\b{pawn} sent back|bumps {pawn}\b|<-> {pawn}\b", after)
        cell = board_cell(after, int(dest), bottom, cols, rows)
        assert pawn in cell or moved_on is not None, (cell, after)
    else:
        geo = board_geometry(cols, rows)
        board = "\n".join(line[: geo.width] for line in after.splitlines()[1 : 1 + geo.height])
        assert pawn in board

    # A terminal too small says so; larger again, the board comes back.
    tmux.run("resize-window", "-t", "game", "-x", "60", "-y", "18")
    tmux.wait_for(lambda s: "too small" in s)
    tmux.run("resize-window", "-t", "game", "-x", "110", "-y", "40")
    big = tmux.wait_for(lambda s: "too small" not in s and "┌ START" in s)
    assert "connected" in big.splitlines()[0]

    tmux.keys("q")
    tmux.wait_for(lambda s: "Leave the game?" in s)
    tmux.keys("y")
    stop = time.monotonic() + 10
    while tmux.alive() and time.monotonic() < stop:
        time.sleep(0.1)
    assert not tmux.alive(), "sorry-lan host did not exit after q, y"


def _new_turn(before: str, screen: str) -> bool:
    return "your turn" in screen and screen != before


def test_at_a_full_table_the_host_trades_colours_with_a_bot(tmux: Tmux, tmp_path: Path) -> None:
    """Every colour is taken: 2 notes that blue is a bot's, w asks it, the bot accepts
    and the host sits at blue (the lobby's footer lists w)."""
    command = (
        f"{sys.executable} -m sorry_lan host --name Ann --bots 3 --port 0 --bind 127.0.0.1 "
        f"--no-mdns --data-dir {tmp_path}"
    )
    _session(tmux, command)
    lobby = tmux.wait_for(lambda s: "s start" in s and "bot 3 [bot]" in s)
    assert re.search(r">1 Red +Ann\b", lobby), lobby
    tmux.keys("2")
    noted = tmux.wait_for(lambda s: "Blue is taken: w asks" in s)
    assert re.search(r">1 Red +Ann\b", noted)  # nothing sent: a colour held is traded
    tmux.keys("w")
    traded = tmux.wait_for(lambda s: re.search(r">2 Blue +Ann\b", s) is not None)
    assert re.search(r" 1 Red +\w+ bot 1 \[bot\]", traded), traded
    assert all(len(line) <= 80 for line in traded.splitlines())
    assert "w trade" in traded.splitlines()[-1] and "Blue is taken" not in traded
