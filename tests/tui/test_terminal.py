"""The demo client in a real terminal (tmux): play a move, see the reply, resize.

Uses a private tmux server (``-L sl-<random>``) that is killed afterwards;
skipped when tmux is not installed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from tmux_harness import Tmux, private_tmux

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]


@pytest.fixture
def tmux() -> Iterator[Tmux]:
    with private_tmux("demo") as t:
        yield t


def test_demo_plays_a_move_and_survives_resizes(tmux: Tmux) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm-256color"}
    env.pop("NO_COLOR", None)
    command = f"{sys.executable} {ROOT / 'tests' / 'tui' / 'board_demo.py'} --no-mouse"
    tmux.run(
        "-f",
        "/dev/null",
        "new-session",
        "-d",
        "-s",
        "demo",
        "-x",
        "80",
        "-y",
        "24",
        "-e",
        f"PYTHONPATH={env['PYTHONPATH']}",
        "-e",
        "LANG=C.UTF-8",
        "-c",
        str(ROOT),
        command,
    )
    first = tmux.wait_for(lambda s: "Card: 7" in s)
    lines = first.splitlines()
    assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
    assert "R1 4->11" in first

    tmux.keys("1", "Enter")
    after = tmux.wait_for(lambda s: "Red: R1 4->11" in s and "Blue:" in s)
    # our pawn now stands on 11: the bottom row of the compact board (row 16)
    bottom_row = after.splitlines()[16]
    assert bottom_row[12:15] in (" R1", "*R1")

    tmux.run("resize-window", "-t", "demo", "-x", "60", "-y", "20")
    tmux.wait_for(lambda s: "too small" in s)
    tmux.run("resize-window", "-t", "demo", "-x", "110", "-y", "40")
    tmux.wait_for(lambda s: "┌ START" in s and "too small" not in s)

    tmux.keys("q")
    tmux.wait_for(lambda s: "Leave the game?" in s)
    tmux.keys("y")
    end = time.monotonic() + 10
    while time.monotonic() < end:
        panes = subprocess.run(
            ["tmux", "-L", tmux.socket, "list-panes", "-t", "demo"], capture_output=True
        )
        if panes.returncode != 0:
            break  # the demo exited, and with it the session
        time.sleep(0.1)
    else:
        raise AssertionError("the demo did not exit after q, y")
