"""``host --resume`` on a terminal: it lists the games and asks which, and asks before
resuming a damaged journal's intact part (a pseudo-terminal stands in for the user)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "net"))

from netkit import LOCAL
from terminal import Terminal
from test_saved import flip, save_game

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX pseudo-terminals")


def _args(tmp_path: Path, *extra: str) -> list[str]:
    return [
        "host", "--headless", "--no-mdns", "--bind", LOCAL, "--port", "0",
        "--data-dir", str(tmp_path), "--resume", *extra,
    ]  # fmt: skip


def test_it_asks_which_game_and_resumes_the_one_chosen(tmp_path: Path) -> None:
    d = tmp_path / "journals"
    d.mkdir(mode=0o700)
    save_game(d, "20260101-a", host="ann", moves=3)
    save_game(d, "20260102-b", host="mallory", moves=6)
    term = Terminal(*_args(tmp_path, "--name", "ann"))
    try:
        screen = " ".join(term.wait_for("number or id").split())  # fitted to 80 columns
        assert "2 games are unfinished; which game do you want to resume?" in screen
        assert screen.index("20260102-b") < screen.index("20260101-a")  # newest first
        term.type("2")
        term.wait_for("listening on")
        assert "resumed 20260101-a.journal: 3 moves replayed" in term.seen
    finally:
        term.close()


def test_it_asks_before_resuming_a_damaged_journal(tmp_path: Path) -> None:
    d = tmp_path / "journals"
    d.mkdir(mode=0o700)
    flip(save_game(d, "20260101-a", host="ann", moves=6), line=5)
    term = Terminal(*_args(tmp_path, "20260101-a"))
    try:
        screen = " ".join(term.wait_for("[y/N]").split())  # fitted to 80 columns
        assert f"{d / '20260101-a.journal'} is damaged at line 5" in screen
        assert "Resume the 3 moves before the damage" in screen
        term.type("y")
        term.wait_for("listening on")
        assert "resumed 20260101-a.journal: 3 moves replayed" in term.seen
        assert (d / "20260101-a.damaged").exists()
    finally:
        term.close()


def test_declining_leaves_the_damaged_journal_as_it_was(tmp_path: Path) -> None:
    d = tmp_path / "journals"
    d.mkdir(mode=0o700)
    path = save_game(d, "20260101-a", host="ann", moves=6)
    flip(path, line=5)
    before = path.read_bytes()
    term = Terminal(*_args(tmp_path, "20260101-a"))
    try:
        term.wait_for("[y/N]")
        term.type("n")
        assert term.proc.wait(20) == 2
    finally:
        term.close()
    assert path.read_bytes() == before and not (d / "20260101-a.damaged").exists()
