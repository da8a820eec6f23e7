"""``sorry-lan join`` on a terminal at a table with a PIN: a wrong or missing PIN is
asked for again (as the board lets you retype it), an empty answer gives up, and off a
terminal it still stops at once; and a data dir that cannot be written is told at join.
A pseudo-terminal stands in for the user; the table is a headless host in its own
process."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "net"))

from netkit import LOCAL
from terminal import Terminal, headless_host

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX pseudo-terminals")

PIN = "4321"


@pytest.fixture
def table(tmp_path: Path) -> Iterator[int]:
    """The port of a headless table (two seats, one taken by a bot) with a PIN."""
    with headless_host(tmp_path / "host", "--players", "2", "--bots", "1", "--pin", PIN) as port:
        yield port


def _join(tmp_path: Path, port: int, *pin: str) -> list[str]:
    return [
        "join", "--text", "--address", f"{LOCAL}:{port}", "--name", "Zed",
        "--data-dir", str(tmp_path / "player"), *pin,
    ]  # fmt: skip


def test_a_wrong_pin_is_asked_for_again_and_the_right_one_joins(
    tmp_path: Path, table: int
) -> None:
    with Terminal(*_join(tmp_path, table, "--pin", "1111")) as term:
        term.wait_for("wrong PIN; type it again (nothing: give up): ")
        term.type(PIN)
        term.wait_for(f"you joined the table at {LOCAL}:{table}")
        term.type("quit")
        assert term.proc.wait(20) == 0


def test_no_pin_asks_for_one_and_nothing_gives_up(tmp_path: Path, table: int) -> None:
    with Terminal(*_join(tmp_path, table)) as term:
        term.wait_for("this game needs a PIN; type it (nothing: give up): ")
        term.type("2222")
        term.wait_for("wrong PIN; type it again")
        term.type("")
        assert term.proc.wait(20) == 1
        assert "joined" not in term.seen


def test_off_a_terminal_a_wrong_pin_stops_at_once(tmp_path: Path, table: int) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "sorry_lan", *_join(tmp_path, table, "--pin", "1111")],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert done.returncode == 1
    assert done.stderr.startswith("sorry-lan join: wrong PIN") and "type it" not in done.stderr


def test_a_data_dir_that_cannot_be_written_is_told_at_join_in_the_players_language(
    tmp_path: Path, table: int
) -> None:
    blocker = tmp_path / "blocker"
    blocker.write_text("")  # a file where the data dir should be: no seat file can go there
    args = ["--lang", "cy", *_join(tmp_path, table, "--pin", PIN)]
    args[args.index("--data-dir") + 1] = str(blocker)
    done = subprocess.run(
        [sys.executable, "-m", "sorry_lan", *args],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (said,) = [line for line in done.stderr.splitlines() if str(blocker) in line]
    assert said.startswith("sorry-lan join: ni ellir cadw eich sedd ar y peiriant hwn")
