"""``sorry-lan join`` with no address, for real: it finds the game over mDNS by itself.

Each test makes a fresh network namespace with only loopback up (``loopback_ns``), and
runs the real commands in it: ``sorry-lan host --headless --players 2 --bots 1
--interface 127.0.0.1`` (which advertises on loopback), and ``sorry-lan join --name
Tess --interface 127.0.0.1`` either on the text board in a tmux server started inside
the namespace (keys sent, screens captured), or with ``--text`` on pipes.  Nothing
reaches this machine's own interfaces; everything is stopped by PID afterwards and the
namespace dies with its last process.  Skipped without root, ``unshare``, ``nsenter``,
``ip`` or tmux.
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from loopback_ns import LoopbackNamespace, NsTmux, Proc, skip_reason

from sorry_lan.tui.screens.parts import board_geometry

_skip = skip_reason()
pytestmark = [
    pytest.mark.netns,
    pytest.mark.tmux,
    pytest.mark.skipif(_skip is not None, reason=_skip or ""),
]

COLS, ROWS = 100, 40
GAME = "Loop table"


@pytest.fixture
def ns() -> Iterator[LoopbackNamespace]:
    space = LoopbackNamespace()
    try:
        yield space
    finally:
        space.close()


def start_host(ns: LoopbackNamespace, data: Path) -> tuple[Proc, int]:
    host = ns.spawn(
        "host", "--headless", "--players", "2", "--bots", "1", "--interface", "127.0.0.1",
        "--port", "0", "--data-dir", str(data), "--name", "Hal", "--game-name", GAME,
        "--bot-delay", "0.2",
    )  # fmt: skip
    port = int(host.line(lambda s: s.startswith("listening on")).rsplit(":", 1)[1])
    assert ns.holds(host.pid)
    return host, port


def log_column(screen: str) -> list[str]:
    """The left column under the board: the game's log lines, stripped."""
    geo = board_geometry(COLS, ROWS)
    return [line[: geo.width].strip() for line in screen.splitlines()[1 + geo.height : -1]]


OUR_MOVE = re.compile(r"You: (?:Sorry! |\[\S+\] )?([RBYG][1-4])")
BOT_MOVE = re.compile(r"\((?:\w+ )?bot 1\): (?:Sorry! |\[\S+\] )?[RBYG][1-4]")


def ours_then_bot(log: list[str]) -> tuple[str, str] | None:
    """Our move line and a bot's move line after it, if the log shows both.

    Only moves count: a lost turn ("You: 8, no move: turn lost") names no pawn.
    """
    for i, line in enumerate(log):
        if OUR_MOVE.match(line):
            bot = next((x for x in log[i + 1 :] if BOT_MOVE.search(x)), None)
            if bot is not None:
                return line, bot
    return None


def test_the_find_screen_lists_the_game_live_then_we_join_and_play(
    ns: LoopbackNamespace, tmp_path: Path
) -> None:
    tmux = NsTmux(ns)
    try:
        tmux.start(
            f"{sys.executable} -m sorry_lan join --name Tess --interface 127.0.0.1", COLS, ROWS
        )
        assert ns.holds(tmux.pane_pid())
        empty = tmux.wait_for(lambda s: "searching the network for games" in s, 10)
        assert "Games appear above as they are found" in empty and "Name:    Tess" in empty

        # The host starts after the player is already looking: the game appears by itself.
        _host, port = start_host(ns, tmp_path)
        row = f"{GAME}  host Hal · standard · 1/2 seats  127.0.0.1:{port}"
        found = tmux.wait_for(lambda s: row in s, 15)
        assert f">1. {row}" in found  # listed and highlighted
        assert "Enter joins the highlighted game" in found
        assert "cannot join" not in found

        tmux.keys("Enter")
        game = tmux.wait_for(lambda s: "Turn:" in s and "You: " in s, 15)
        top = game.splitlines()[0]
        assert f"game · {GAME}" in top and "● connected" in top

        # Play by keys until our move is in the log and a bot's move follows it.
        end = time.monotonic() + 30
        pressed: str | None = None
        screen = game
        while ours_then_bot(log_column(screen)) is None and time.monotonic() < end:
            if "your turn" in screen and ">1 " in screen and screen != pressed:
                assert "(Tess)" in screen.splitlines()[0]  # the top bar: whose turn
                tmux.keys("Enter")
                pressed = screen
            time.sleep(0.05)
            screen = tmux.screen()
        pair = ours_then_bot(log_column(screen))
        assert pair is not None, screen
        mine = OUR_MOVE.match(pair[0])
        assert mine is not None, pair
        geo = board_geometry(COLS, ROWS)
        board = "\n".join(line[: geo.width] for line in screen.splitlines()[1 : 1 + geo.height])
        assert mine.group(1) in board  # the pawn we moved is on the board

        tmux.keys("q")
        tmux.wait_for(lambda s: "Leave the game?" in s)
        tmux.keys("y")
        stop = time.monotonic() + 10
        while tmux.alive() and time.monotonic() < stop:
            time.sleep(0.05)
        assert not tmux.alive(), "sorry-lan join did not exit after q, y"
    finally:
        tmux.close()


def test_text_join_without_an_address_joins_the_only_game(
    ns: LoopbackNamespace, tmp_path: Path
) -> None:
    host, port = start_host(ns, tmp_path)
    host.line(lambda s: s.startswith("advertised on the LAN"), 10)
    join = ns.spawn("join", "--text", "--name", "Tess", "--interface", "127.0.0.1", stdin=True)
    found = join.line(lambda s: s.startswith("found: "), 15)
    assert found == (
        f"found: {GAME} - host Hal - standard - 1/2 seats - joinable  (127.0.0.1:{port})"
    )
    joined = join.line(lambda s: s.startswith("Tess, you joined "))
    assert joined == (
        f"Tess, you joined the table at 127.0.0.1:{port}; type help to hear every command."
    )
    table = join.line(lambda s: "Tess (" in s)
    seat = re.search(r"Tess \((red|blue|yellow|green)", table)
    assert seat is not None and "bot 1 (" in table, table

    # Answer every offer with its first move until a bot's move follows ours.
    answered = 0
    end = time.monotonic() + 30
    while time.monotonic() < end:
        lines = list(join.lines)
        ours = [i for i, x in enumerate(lines) if x.startswith("You played ")]
        if ours and any(
            re.match(r"\S.* (played|drew) ", x) and not x.startswith("You ")
            for x in lines[ours[0] + 1 :]
        ):
            break
        prompts = [i for i, x in enumerate(lines) if x.startswith("Type your move's number")]
        if len(prompts) > answered:
            answered = len(prompts)
            join.send("1\n")
        time.sleep(0.05)
    else:
        raise AssertionError(f"no move of ours followed by a bot's: {join.lines}")
    join.send("quit\n")
    assert join.popen.wait(10) == 0, join.stderr()


def test_text_join_started_before_the_host_finds_it_once_it_is_up(
    ns: LoopbackNamespace, tmp_path: Path
) -> None:
    """A friend types `sorry-lan join` while the host is still starting: the search
    goes on past its first two seconds for the first table that comes up."""
    join = ns.spawn("join", "--text", "--name", "Tess", "--interface", "127.0.0.1", stdin=True)
    time.sleep(2.0)  # the host comes up after the first two seconds of the search
    _host, port = start_host(ns, tmp_path)
    found = join.line(lambda s: s.startswith("found: "), 15)
    assert found.endswith(f"(127.0.0.1:{port})"), found
    join.line(lambda s: s.startswith("Tess, you joined "))


def test_the_hosts_lobby_shows_an_interface_warning_and_its_pin(
    ns: LoopbackNamespace, tmp_path: Path
) -> None:
    """A wrong --interface is said in the lobby (stderr would be hidden by the board),
    the lobby suggests no address of it, and the host sees the table's PIN."""
    tmux = NsTmux(ns)
    try:
        tmux.start(
            f"{sys.executable} -m sorry_lan host --name Ann --interface 10.9.9.9 --pin 4711 "
            f"--bots 3 --port 0 --data-dir {tmp_path}",
            80,
            24,
        )
        lobby = tmux.wait_for(lambda s: "bot 3 [bot]" in s, 15)
        words = " ".join(lobby.split())
        assert "not advertised on the LAN" in words and "10.9.9.9" in words
        assert "players can still join with --address" in words
        assert "--address 10.9.9.9" not in words
        assert "PIN: 4711" in words
        assert lobby.splitlines()[-1].rstrip().endswith("q quit")
    finally:
        tmux.close()
