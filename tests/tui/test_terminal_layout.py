"""The game screen's layout through real games in a real terminal (tmux), at 80x24 and 120x40.

A host with a long name and two bots plays against Bob, who joins by address; both
boards run in one private tmux server (``-L sl-<random>``), the host listens on
127.0.0.1 with ``--no-mdns``.  Every screen Bob sees is checked: the board column and
the side panel keep the widths the terminal gives them (a long log line never
squeezes the panel), text wraps at words and the card's help reads whole.
Skipped when tmux is not installed.
"""

from __future__ import annotations

import re
import shutil
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from tmux_harness import Tmux, private_tmux

from sorry_lan.tui.screens.parts import board_geometry
from sorry_lan.tui.state import card_help

ROOT = Path(__file__).resolve().parents[2]
HOST_NAME = "Annabelle Fitzgerald-Ray"  # 24 characters: the longest name allowed

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]


@pytest.fixture
def tmux() -> Iterator[Tmux]:
    with private_tmux("host") as t:
        yield t


def screen(tmux: Tmux, session: str) -> str:
    return tmux.run("capture-pane", "-p", "-t", session)


def wait_screen(tmux: Tmux, session: str, pred: object, timeout: float = 20.0) -> str:
    assert callable(pred)
    end = time.monotonic() + timeout
    text = ""
    while time.monotonic() < end:
        text = screen(tmux, session)
        if pred(text):
            return text
        time.sleep(0.05)
    raise AssertionError(f"timed out on {session}; screen:\n{text}")


def start_game(tmux: Tmux, tmp_path: Path, cols: int, rows: int) -> None:
    """Host (80x24) with two bots, Bob at ``cols`` x ``rows``, both ready, started."""
    host = (
        f"{sys.executable} -m sorry_lan host --name '{HOST_NAME}' --bots 2 --port 0 "
        f"--bind 127.0.0.1 --no-mdns --bot-delay 0.02 --data-dir {tmp_path}"
    )
    env = ("-e", f"PYTHONPATH={ROOT}", "-e", "TERM=xterm-256color", "-e", "LANG=C.UTF-8",
           "-c", str(ROOT))  # fmt: skip
    tmux.run("-f", "/dev/null", "new-session", "-d", "-s", "host", "-x", "80", "-y", "24",
             *env, f"{host}; echo EXIT=$?; sleep 60")  # fmt: skip
    lobby = wait_screen(tmux, "host", lambda s: "bot 2 [bot]" in s)
    port = re.search(r"--address 127\.0\.0\.1:(\d+)", lobby)
    assert port is not None, lobby
    bob = f"{sys.executable} -m sorry_lan join --name Bob --address 127.0.0.1:{port.group(1)}"
    tmux.run("new-session", "-d", "-s", "bob", "-x", str(cols), "-y", str(rows), *env,
             f"{bob}; echo EXIT=$?; sleep 60")  # fmt: skip
    wait_screen(tmux, "bob", lambda s: "Bob" in s and "lobby" in s.splitlines()[0])
    tmux.run("send-keys", "-t", "bob", "Space")
    wait_screen(tmux, "host", lambda s: re.search(r"Bob +ready", s) is not None)
    tmux.run("send-keys", "-t", "host", "s")
    wait_screen(tmux, "bob", lambda s: "game ·" in s.splitlines()[0], 30)


def check_layout(text: str, cols: int, rows: int) -> None:
    """The invariants of the game screen at ``cols`` x ``rows``."""
    lines = text.splitlines()
    assert len(lines) <= rows and all(len(line) <= cols for line in lines), text
    geo = board_geometry(cols, rows)
    sep = geo.width
    for line in lines[1 : rows - 1]:
        # The panel's edge never moves: every body row has it at the board's width.
        assert line.ljust(cols)[sep] in "│─", (sep, text)
    panel = [line.ljust(cols)[sep + 1 :].rstrip() for line in lines[1 : rows - 1]]
    joined = " ".join(p.strip() for p in panel if p.strip())
    card = re.search(r"Card: (\d+|Sorry!):", joined)
    if card is not None:
        number = 13 if card.group(1) == "Sorry!" else int(card.group(1))
        assert f"{card.group(0)} {card_help(number)}" in joined, text
    # The log under the board: each entry starts one column in, continuations three.
    for line in lines[1 + geo.height : rows - 1]:
        log = line[:sep].rstrip()
        assert not log or log.startswith(" "), text


@pytest.mark.parametrize(("cols", "rows"), [(80, 24), (120, 40)])
def test_layout_holds_through_a_game(tmux: Tmux, tmp_path: Path, cols: int, rows: int) -> None:
    start_game(tmux, tmp_path, cols, rows)
    # A long chat line: it wraps at words in the panel, it does not widen anything.
    tmux.run("send-keys", "-t", "host", "t")
    tmux.run("send-keys", "-t", "host", "-l", "good luck everybody, " * 4)
    tmux.run("send-keys", "-t", "host", "Enter")
    wait_screen(tmux, "bob", lambda s: "good luck" in s)
    seen_long_log = False
    turns = 0
    end = time.monotonic() + 60
    while turns < 12 and time.monotonic() < end:
        for session in ("host", "bob"):
            text = screen(tmux, session)
            if session == "bob":
                check_layout(text, cols, rows)
                seen_long_log |= f"Red ({HOST_NAME})" in text
            if "your turn: pick" in text:
                tmux.run("send-keys", "-t", session, "Enter")
                turns += session == "bob"
                time.sleep(0.15)
        time.sleep(0.05)
    assert turns >= 3, screen(tmux, "bob")
    assert seen_long_log, "the host's long name never showed whole in Bob's log"
    text = screen(tmux, "bob")
    panel = " ".join(line[board_geometry(cols, rows).width + 1 :].strip() for line in
                     text.splitlines())  # fmt: skip
    assert "good luck everybody, good luck" in panel  # wrapped at words, read back whole


def test_leaving_leaves_a_clean_terminal_and_says_why_it_failed(
    tmux: Tmux, tmp_path: Path
) -> None:
    """After the board closes the terminal holds no stale lines; a player who leaves
    after the host has gone is told so (exit status 1)."""
    start_game(tmux, tmp_path, 80, 24)
    # (start_game runs both commands in a shell that prints their exit status after.)
    tmux.run("send-keys", "-t", "host", "q")  # Bob's laptop could take it: the host ends it
    wait_screen(tmux, "host", lambda s: "e: end the game" in s)
    tmux.run("send-keys", "-t", "host", "e")
    bob = wait_screen(tmux, "bob", lambda s: "host lost" in s or "reconnecting" in s, 30)
    tmux.run("send-keys", "-t", "bob", "q")
    wait_screen(tmux, "bob", lambda s: "Leave the game?" in s)
    tmux.run("send-keys", "-t", "bob", "y")
    after = wait_screen(tmux, "bob", lambda s: "EXIT=" in s, 20)
    assert "sorry-lan join: the connection to the host was lost" in after, (bob, after)
    assert "EXIT=1" in after
    host_after = wait_screen(tmux, "host", lambda s: "EXIT=" in s, 20)
    assert "EXIT=0" in host_after
    assert "listening on" not in host_after and "scores: [" not in host_after
