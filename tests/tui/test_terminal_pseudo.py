"""Every board screen in the pseudo-locale (``--lang qps``) at 80x24, in a real terminal.

The pseudo-locale accents every translated message and makes it about 40% longer: a
plain English word left on a screen was never marked for translation, and a layout
that holds here holds in Greek and Welsh.  Two boards run in a private tmux server
(``-L sl-<random>``): a player whose join is refused (the find screen, the too-small
message) and a host with one bot on 127.0.0.1 (``--no-mdns``) who plays the first
move offered every turn, opens a split 7 when one is offered, and reads the help and
the leave dialog on the way to the game-over panel, while a spectator without a seat
watches it to the end.  Each screen captured: at most 24
lines, none wider than 80 columns, the top bar's connection and the footer's last
key whole, the panel's border in one column, and no English word but names, key
names and the command a player types.  Skipped when tmux is not installed.
"""

from __future__ import annotations

import re
import shutil
import socket
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from tmux_harness import Tmux, private_tmux

from sorry_lan.i18n.pseudo import pseudo
from sorry_lan.tui import cells

ROOT = Path(__file__).resolve().parents[2]
COLS, ROWS = 80, 24
# What a player may read in English in any language: names, keys, the command typed.
ALLOWED = {
    "sorry", "lan", "join", "address", "HOST", "PORT", "Ann", "Bob", "greedy", "expert",
    "random", "bot", "Enter", "Tab", "Shift", "Esc", "Bksp", "PgUp", "PgDn", "End",
    "space", "Ctrl", "qps",
}  # fmt: skip
WORD = re.compile(r"[A-Za-z]{3,}")

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
    pytest.mark.timeout(300),
]


def _head(message: str) -> str:
    """The pseudo form of ``message`` up to its first field (what a screen shows)."""
    return pseudo(message).split("{", 1)[0]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture
def tmux() -> Iterator[Tmux]:
    with private_tmux("h") as t:
        yield t


def _start(tmux: Tmux, session: str, command: str, first: bool) -> None:
    env = ("-e", f"PYTHONPATH={ROOT}", "-e", "TERM=xterm-256color", "-e", "LANG=C.UTF-8",
           "-c", str(ROOT))  # fmt: skip
    conf = ("-f", "/dev/null") if first else ()
    tmux.run(*conf, "new-session", "-d", "-s", session, "-x", str(COLS), "-y", str(ROWS),
             *env, f"{sys.executable} -m sorry_lan {command}; sleep 60")  # fmt: skip


def _screen(tmux: Tmux, session: str) -> str:
    return tmux.run("capture-pane", "-p", "-t", session)


def _wait(tmux: Tmux, session: str, cond: Callable[[str], bool], timeout: float = 30) -> str:
    end = time.monotonic() + timeout
    text = ""
    while time.monotonic() < end:
        text = _screen(tmux, session)
        if cond(text):
            return text
        time.sleep(0.05)
    raise AssertionError(f"timed out on {session}; screen:\n{text}")


def check(screen: str, where: str, bars: bool = True, border: bool = False) -> None:
    """The invariants of every screen in the pseudo-locale (see the module docstring)."""
    lines = screen.splitlines()
    assert len(lines) <= ROWS, (where, screen)
    for line in lines:
        assert cells.width(line) <= COLS, (where, line)
    english = [w for w in WORD.findall(re.sub(r"https?://\S+", " ", screen)) if w not in ALLOWED]
    assert not english, (where, english, screen)
    if bars:
        top, bottom = lines[0], lines[-1]
        assert "●" in top and top.rstrip().endswith("]"), (where, top)  # the link, whole
        assert bottom.rstrip().endswith("]"), (where, bottom)  # the last key hint, whole
    if border:  # the board column and the panel keep their columns
        at = {cells.width(line[: line.index("│")]) for line in lines[1:-1] if "│" in line}
        assert len(at) == 1, (where, at, screen)


def test_the_find_screen_and_the_too_small_message(tmux: Tmux, tmp_path: Path) -> None:
    port = _free_port()  # nobody listens there: the join is refused
    _start(tmux, "h", f"join --lang qps --name Bob --address 127.0.0.1:{port} "
           f"--data-dir {tmp_path}", first=True)  # fmt: skip
    find = _wait(tmux, "h", lambda s: _head("Could not join: {why}") in s)
    check(find, "find")
    tmux.run("resize-window", "-t", "h", "-x", "60", "-y", "18")
    small = _wait(tmux, "h", lambda s: _head("Terminal too small: {cols}x{rows}.") in s)
    check(small, "too small", bars=False)
    tmux.keys("?")  # no help box over the message (it would not fit either)
    time.sleep(0.5)
    assert _head("Help: Esc closes") not in _screen(tmux, "h")
    tmux.keys("?")
    tmux.run("resize-window", "-t", "h", "-x", str(COLS), "-y", str(ROWS))
    _wait(tmux, "h", lambda s: _head("Could not join: {why}") in s)
    tmux.keys("?")
    check(_wait(tmux, "h", lambda s: _head("Help: Esc closes") in s), "find help")


def test_a_whole_game_fits_and_is_translated(tmux: Tmux, tmp_path: Path) -> None:
    _start(tmux, "h", "host --lang qps --name Ann --bots 1 --port 0 --bind 127.0.0.1 "
           f"--no-mdns --bot-delay 0.02 --seed 5 --data-dir {tmp_path}", first=True)  # fmt: skip
    greedy = pseudo("greedy")  # the bot's name is worded too: "[greedy] bot 1", clipped
    lobby = _wait(tmux, "h", lambda s: greedy in s and "--address" in s)
    check(lobby, "lobby")
    tmux.keys("?")
    check(_wait(tmux, "h", lambda s: _head("Help: Esc closes") in s), "lobby help")
    _close_help(tmux)
    tmux.keys("s")
    # A spectator (no seat) watches the game in the pseudo-locale too.
    port = re.search(r"--address 127\.0\.0\.1:(\d+)", lobby)
    assert port is not None, lobby
    _start(tmux, "w", f"join --lang qps --spectate --name Bob --address 127.0.0.1:"
           f"{port.group(1)} --data-dir {tmp_path}", first=False)  # fmt: skip
    watching = pseudo("watching")
    check(_wait(tmux, "w", lambda s: watching in s.splitlines()[0] and "│" in s), "watching",
          border=True)  # fmt: skip
    your_turn = _head("your turn: pick a move")
    # (the heading may end clipped in the panel: its head up to the comma is enough)
    split_head = pseudo("split the 7, first part:")[: len("[split the 7,")]
    over = _head("Game over: {result}")
    leave = pseudo("Leave the game?  y: leave   n/Esc: stay")
    seen: set[str] = set()
    end = time.monotonic() + 240
    screen = _wait(tmux, "h", lambda s: your_turn in s)
    while over not in screen:
        assert time.monotonic() < end, screen
        if your_turn in screen:
            check(screen, "board", border=True)
            if "board help" not in seen:
                seen.add("board help")
                tmux.keys("?")
                check(_wait(tmux, "h", lambda s: _head("Help: Esc closes") in s), "board help")
                _close_help(tmux)
                tmux.keys("q")
                check(_wait(tmux, "h", lambda s: leave in s), "leave")
                tmux.keys("n")
                _wait(tmux, "h", lambda s: leave not in s)
            key = _first_part_key(screen, split_head)
            if key is not None and "split" not in seen:
                seen.add("split")
                tmux.keys(*key, "Enter")  # open the first part's second parts
                inside = _wait(tmux, "h", lambda s: split_head not in s and "│<" in s)
                check(inside, "split 7", border=True)
            tmux.keys("Enter")
            screen = _wait(tmux, "h", _changed(screen))
            continue
        time.sleep(0.05)
        screen = _screen(tmux, "h")
    check(_wait(tmux, "h", lambda s: over in s), "game over", border=True)
    check(_wait(tmux, "w", lambda s: over in s), "watching: game over", border=True)
    tmux.keys("?")
    check(_wait(tmux, "h", lambda s: _head("Help: Esc closes") in s), "game over help")
    assert seen == {"board help", "split"}


def _close_help(tmux: Tmux) -> None:
    tmux.keys("Escape")  # (then a pause: Esc and the next key at once read as Alt-key)
    _wait(tmux, "h", lambda s: _head("Help: Esc closes") not in s)
    time.sleep(0.2)


def _changed(before: str) -> Callable[[str], bool]:
    return lambda screen: screen != before


def _first_part_key(screen: str, heading: str) -> str | None:
    """The number of the first entry after the move list's split-7 heading, if any."""
    lines = screen.splitlines()
    for i, line in enumerate(lines[:-1]):
        if heading in line:
            entry = re.match(r"^[> ](\d+) ", lines[i + 1].rsplit("│", 1)[-1])
            return entry.group(1) if entry else None
    return None
