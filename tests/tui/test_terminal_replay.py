"""The replay in a real terminal (tmux, 80x24): ``sorry-lan replay FILE --lang X`` in
every language, driven forward, back, to a turn, to the next Sorry! or bump and to
the end, each screen judged by :mod:`screen_checks` (width as a terminal counts it,
no English word left, the title bar, footer and panel border in the English screen's
columns) and by where the log stands (the last turn in the log column is the one the
replay is at); ``--ascii`` draws it in ASCII, ``NO_COLOR`` marks slides by letter and
sends no colour; a terminal too small says so; and at a real host's game over (in a
loopback-only network namespace) ``v`` opens the game just finished and ``q`` comes
back.  Skipped when tmux is not installed (the host's, without namespaces).
"""

from __future__ import annotations

import re
import shutil
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from loopback_ns import LoopbackNamespace, NsTmux, skip_reason
from screen_checks import english_left, layout_faults, too_wide, without_names, words_of
from tmux_harness import Tmux, private_tmux

from sorry_lan.i18n import LANGUAGES, use_language, words
from sorry_lan.records import load
from sorry_lan.tui.board import COMPACT, track_cell
from sorry_lan.tui.screens.parts import board_geometry

ROOT = Path(__file__).resolve().parents[2]
RECORD = ROOT / "protocol" / "records" / "standard-2.json"
COLS, ROWS = 80, 24

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.xdist_group("terminal_replay"),  # the module's games are played once, shared
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]

_record = load(RECORD.read_bytes())
NAMES = [str(s["name"]) for s in _record["seats"]] + [str(_record["table"])]
LAST = len(_record["turns"])
SORRY = next(t["n"] for t in _record["turns"] if t.get("kind") == "sorry")
STEPS = ("start", "forward", "back", "jump", "mark", "end", "help")


def start(tmux: Tmux, lang: str, *env: str, flags: str = "", cols: int = COLS,
          rows: int = ROWS) -> None:  # fmt: skip
    command = f"{sys.executable} -m sorry_lan replay {RECORD} --lang {lang} {flags}"
    pairs = [x for e in ("TERM=xterm-256color", f"PYTHONPATH={ROOT}", "LANG=C.UTF-8", *env)
             for x in ("-e", e)]  # fmt: skip
    shell = f"{command}; echo REPLAY-ENDED; sleep 30"
    tmux.run("-f", "/dev/null", "new-session", "-d", "-s", "replay", "-x", str(cols), "-y",
             str(rows), *pairs, "-c", str(ROOT), shell)  # fmt: skip


def log_turns(screen: str) -> list[int]:
    """The turn numbers starting lines of the log column (under the board)."""
    geo = board_geometry(COLS, ROWS)
    column = [line[: geo.width] for line in screen.splitlines()[1 + geo.height : -1]]
    return [int(m.group(1)) for line in column if (m := re.match(r" (\d+)\. ", line))]


def _at(n: int) -> Callable[[str], bool]:
    """The screen shows the replay at turn ``n``: the log's last turn is ``n``."""
    return lambda s: bool(log_turns(s)) and log_turns(s)[-1] == n


def settle(tmux: Tmux, test: Callable[[str], bool] | None = None) -> str:
    """The screen once ``test`` holds and it has not changed for a fifth of a second."""
    last = tmux.wait_for(test) if test is not None else tmux.screen()
    end = time.monotonic() + 10
    while time.monotonic() < end:
        time.sleep(0.2)
        now = tmux.screen()
        if now == last:
            return now
        last = now
    return last


def drive(lang: str) -> dict[str, str]:
    """The replay's screens in ``lang``: at the start, three turns on, one back, at the
    Sorry! typed by number, at the next Sorry! or bump, at the end, and its help."""
    shots: dict[str, str] = {}
    with private_tmux("replay") as tmux:
        start(tmux, lang)
        shots["start"] = settle(tmux, lambda s: len(s.splitlines()) >= ROWS - 1 and "│" in s)
        assert log_turns(shots["start"]) == [], shots["start"]
        tmux.keys("Right", "Right", "Right")
        shots["forward"] = settle(tmux, _at(3))
        tmux.keys("Left")
        shots["back"] = settle(tmux, _at(2))
        tmux.keys(*str(SORRY), "Enter")
        shots["jump"] = settle(tmux, _at(SORRY))
        tmux.keys("]")
        shots["mark"] = settle(tmux, lambda s: log_turns(s)[-1] > SORRY)
        tmux.keys("End")
        shots["end"] = settle(tmux, _at(LAST))
        tmux.keys("?")
        shots["help"] = settle(tmux, lambda s: s != shots["end"])
        tmux.keys("Escape")
        tmux.wait_for(lambda s: s == shots["end"])
        tmux.keys("q")
        tmux.wait_for(lambda s: "REPLAY-ENDED" in s)
    return shots


_shots: dict[str, dict[str, str]] = {}


def shots(lang: str) -> dict[str, str]:
    if lang not in _shots:
        _shots[lang] = drive(lang)
    return _shots[lang]


@pytest.fixture(scope="module", autouse=True)
def _forget() -> Iterator[None]:
    yield
    _shots.clear()


def english_words() -> set[str]:
    return {w for text in shots("en").values() for w in words_of(without_names(text, NAMES))}


@pytest.mark.timeout(120)
@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_a_replay_driven_forward_back_to_a_turn_and_to_the_end_in_each_language(
    lang: str,
) -> None:
    screens = shots(lang)
    english = shots("en")
    problems: list[str] = []
    for step in STEPS:
        text = screens[step]
        problems += [f"{step}: wider than 80 columns: {line!r}" for line in too_wide(text)]
        if lang != "en":
            left = english_left(text, lang, english_words(), NAMES)
            problems += [f"{step}: English {w!r} in: {ls[0]!r}" for w, ls in left.items()]
        problems += [f"{step}: {fault}" for fault in layout_faults(text, english[step])]
    with use_language(lang):
        sorry, won = words.sorry_word(), words.won_line(["X"]).replace("X", "").strip()
    if sorry not in screens["jump"]:
        problems.append(f"the Sorry! ({sorry!r}) is not worded at turn {SORRY}")
    if won not in screens["end"]:
        problems.append(f"the end does not say who won ({won!r})")
    all_text = "\n\n".join(f"{step}:\n{screens[step]}" for step in STEPS)
    assert not problems, f"{lang}:\n" + "\n".join(problems) + "\n" + all_text


def test_ascii_draws_the_replay_in_ascii(tmp_path: Path) -> None:
    with private_tmux("replay") as tmux:
        start(tmux, "en", flags="--ascii")
        first = settle(tmux, lambda s: "Replay: the start" in s)
        tmux.keys(*str(SORRY), "Enter")
        sorry = settle(tmux, _at(SORRY))
        tmux.keys("?")
        helped = settle(tmux, lambda s: "Help: Esc closes" in s)
    for text in (first, sorry, helped):
        assert text.isascii(), text
    assert "|" in sorry and "Left/Right" in sorry.splitlines()[-1]


def test_no_colour_marks_slides_by_letter_and_sends_no_colour() -> None:
    with private_tmux("replay") as tmux:
        start(tmux, "en", "NO_COLOR=1")
        text = settle(tmux, lambda s: "Replay: the start" in s)
        coloured = tmux.run("capture-pane", "-p", "-e", "-t", "replay")
    lines = text.splitlines()
    for square, letter in ((4, "R"), (19, "B"), (34, "Y")):
        r, c = track_cell(square, 0)  # red (the first seat) at the bottom
        cell = lines[1 + r][c * COMPACT.cell_w : (c + 1) * COMPACT.cell_w]
        assert letter in cell, (square, cell, text)
    assert not re.search(r"\x1b\[[0-9;]*(3[0-7]|38;|9[0-7])[;m]", coloured), coloured


def test_a_terminal_too_small_says_so_and_a_larger_one_shows_the_replay() -> None:
    with private_tmux("replay") as tmux:
        start(tmux, "en", cols=60, rows=20)
        small = settle(tmux, lambda s: s.strip() != "")
        assert "Replay" not in small and "80" in small, small
        tmux.run("resize-window", "-t", "replay", "-x", "80", "-y", "24")
        settle(tmux, lambda s: "Replay: the start" in s)


_ns_skip = skip_reason()


@pytest.mark.netns
@pytest.mark.timeout(120)
@pytest.mark.skipif(_ns_skip is not None, reason=_ns_skip or "")
def test_v_at_a_real_hosts_game_over_replays_the_game_and_q_comes_back(tmp_path: Path) -> None:
    """The host's board (bots play every seat at once: a turn timeout of 0 s), in a
    network namespace of its own with only loopback up."""
    ns = LoopbackNamespace()
    tmux = NsTmux(ns)
    try:
        tmux.start(
            f"{sys.executable} -m sorry_lan host --name Ann --bots 3 --turn-timeout 0 "
            f"--bot-delay 0 --seed 5 --port 0 --bind 127.0.0.1 --no-mdns "
            f"--data-dir {tmp_path}; sleep 30"
        )
        tmux.wait_for(lambda s: "bot 3" in s, 30)
        tmux.keys("s")
        over = tmux.wait_for(lambda s: "v replay" in s.splitlines()[-1], 60)
        tmux.keys("v")
        tmux.wait_for(lambda s: "Replay: the start" in s)
        tmux.keys("End")
        end = tmux.wait_for(lambda s: " won" in s and bool(log_turns(s)))
        winner = over.split("Game over: ", 1)[1].split(" wins", 1)[0].strip() if (
            "Game over: " in over) else ""  # fmt: skip
        assert winner.split(" (")[0] in end, (over, end)
        tmux.keys("Left")
        tmux.wait_for(_at(log_turns(end)[-1] - 1))
        tmux.keys("q")
        tmux.wait_for(lambda s: "v replay" in s.splitlines()[-1] and "Replay:" not in s)
    finally:
        tmux.close()
        ns.close()
