"""``sorry-lan join`` on a terminal, at a table whose game has started: it asks whether
to watch instead, and watches (yes) or stops (no).  A pseudo-terminal stands in for
the user; the table is a headless host of two slow bots in its own process."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "net"))

from netkit import LOCAL
from terminal import Terminal, headless_host

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX pseudo-terminals")


@pytest.fixture
def table(tmp_path: Path) -> Iterator[int]:
    """The port of a table whose game of two bots has begun (and lasts)."""
    slow_bots = ("--players", "2", "--bots", "2", "--bot-delay", "5")
    with headless_host(tmp_path / "host", *slow_bots) as port:
        yield port


def _join(tmp_path: Path, port: int) -> Terminal:
    return Terminal(
        "join", "--text", "--address", f"{LOCAL}:{port}", "--name", "Zed",
        "--data-dir", str(tmp_path / "player"),
    )  # fmt: skip


def test_yes_watches_the_game(tmp_path: Path, table: int) -> None:
    term = _join(tmp_path, table)
    try:
        screen = term.wait_for("[y/N]")
        assert f"{LOCAL}:{table}: the game has already started" in screen
        assert "Watch it instead? [y/N]" in screen
        term.type("y")
        term.wait_for(f"You are watching the table at {LOCAL}:{table}.")
        term.type("quit")
        assert term.proc.wait(20) == 0
    finally:
        term.close()


def test_no_stops_without_joining(tmp_path: Path, table: int) -> None:
    term = _join(tmp_path, table)
    try:
        term.wait_for("[y/N]")
        term.type("n")
        assert term.proc.wait(20) == 1
        assert "joined" not in term.seen
    finally:
        term.close()
