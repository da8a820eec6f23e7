"""No text cut and no English word at 80x24, in a real terminal (tmux), screen by screen.

Each test runs one staged screen (``staged.py STAGE LANG``: the board as the client
builds it from the host's messages, in one moment) in a private tmux server at 80x24
and reads it back: the summary of what happened since your last move whole (Greek),
every player's line at game over (Welsh, Thai), what decides Enter first on the find
screen's rows (Greek), the lobby's language column in line (Welsh, Thai, Greek), the
"nothing found" help wrapped once (Greek), the bots' names and tags in the player's
language (Greek, Thai), Welsh "cymorth" and board labels apart, and whose START and
HOME box each is without colour (``NO_COLOR``).  The sentences expected are worded
by the same code in the same language.  Skipped when tmux is not installed.
"""

from __future__ import annotations

import itertools
import re
import shutil
import sys
from functools import partial
from pathlib import Path

import pytest
from screen_checks import clipped_sentences, columns_of, english_left, term_width
from staged import BOTS, find_stage, over_stage, since_stage
from tmux_games import settled, wait
from tmux_harness import private_tmux

from sorry_lan.i18n import language_name, use_language, words
from sorry_lan.tui.news import since_text
from sorry_lan.tui.screens.parts import board_geometry
from sorry_lan.tui.sentences import play_counts

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]

ROOT = Path(__file__).resolve().parents[2]
COLS, ROWS = 80, 24
GEO = board_geometry(COLS, ROWS)
PANEL = COLS - GEO.width - 1  # the side panel's columns


def _ready(screen: str) -> bool:
    lines = screen.splitlines()
    return len(lines) >= ROWS and "sorry-lan" in lines[0] and bool(lines[-1].strip())


def _differs(before: str, now: str) -> bool:
    return now != before


def staged(stage: str, lang: str, *, no_colour: bool = False, keys: tuple[str, ...] = ()) -> str:
    """The screen of ``staged.py {stage} {lang}`` at 80x24, once it is drawn (after
    ``keys``, each sent once the screen before it settled)."""
    command = f"{sys.executable} {ROOT / 'tests' / 'tui' / 'staged.py'} {stage} {lang}"
    env = ["-e", f"PYTHONPATH={ROOT}", "-e", "TERM=xterm-256color", "-e", "LANG=C.UTF-8"]
    env += ["-e", "NO_COLOR=1"] if no_colour else []
    with private_tmux("stage") as tmux:
        tmux.run("-f", "/dev/null", "new-session", "-d", "-s", "stage", "-x", str(COLS),
                 "-y", str(ROWS), *env, "-c", str(ROOT), f"{command}; sleep 30")  # fmt: skip
        wait(tmux, "stage", _ready, f"the {stage} screen")
        screen = settled(tmux, "stage")
        for key in keys:
            tmux.keys(key)
            wait(tmux, "stage", partial(_differs, screen), f"{key} to act")
            screen = settled(tmux, "stage")
    return screen


@pytest.mark.timeout(60)
def test_the_summary_since_your_last_move_keeps_every_event_whole_in_greek() -> None:
    screen = staged("since", "el")
    with use_language("el"):
        state = since_stage()
        sentence = since_text(state.summary)
    assert len(state.summary) == 2
    faults = clipped_sentences(screen, [sentence], PANEL, lines=8)
    panel = "\n".join(columns_of(screen)["panel"])
    if "; " in panel:  # a Greek ";" is a question mark
        faults.append("clauses joined with '; '")
    assert not faults, "\n".join(faults) + "\n" + screen


@pytest.mark.timeout(60)
@pytest.mark.parametrize("lang", ["cy", "th"])
def test_game_over_shows_every_players_line(lang: str) -> None:
    screen = staged("over", lang)
    with use_language(lang):
        st = over_stage()
        sentences = []
        for colour in st.seated:
            counts = st.stats[colour]
            sentences.append(st.player_name(colour))
            sentences.append(
                play_counts(counts["bumps"], counts["sorry"], counts["slides"], counts["turns"])
            )
    faults = clipped_sentences(screen, sentences, PANEL, lines=3)
    assert not faults, "\n".join(faults) + "\n" + screen


@pytest.mark.timeout(60)
def test_the_find_screen_puts_what_enter_does_first_in_greek() -> None:
    screen = staged("find", "el")
    with use_language("el"):
        rows = find_stage().found
    first = [row.detail.split(" · ")[0] for row in rows]  # your seat, watch, PIN
    assert any("Enter" in status for status in first)
    faults = clipped_sentences(screen, first, COLS, lines=1)
    assert not faults, "\n".join(faults) + "\n" + screen


def _columns_where(screen: str, texts: list[str]) -> dict[str, int]:
    """The terminal column where each of ``texts`` starts on ``screen``."""
    found = {}
    for line in screen.splitlines():
        for text in texts:
            if text in line:
                found[text] = term_width(line[: line.index(text)])
    return found


@pytest.mark.timeout(60)
@pytest.mark.parametrize("lang", ["cy", "th", "el"])
def test_the_lobbys_language_column_stays_in_line(lang: str) -> None:
    screen = staged("lobby", lang)
    names = [language_name(code) for code in ("cy", "th", "el", "en")]
    where = _columns_where(screen, names)
    assert len(where) == 4 and len(set(where.values())) == 1, f"{where}\n{screen}"


_ENDS = (".", ":", "?", ";", "!", "·")


@pytest.mark.timeout(60)
def test_nothing_found_is_wrapped_once_in_greek() -> None:
    screen = staged("nothing", "el")
    lines = screen.splitlines()
    rule = next(i for i, line in enumerate(lines) if line.startswith("───"))
    message = [line.rstrip() for line in lines[2:rule] if line.strip()]
    assert len(message) >= 4, screen
    ragged = [
        f"{line!r} leaves room for {below.split()[0]!r}"
        for line, below in itertools.pairwise(message)
        if not line.endswith(_ENDS)
        and not line.startswith("    ")  # a command, on its own line
        and term_width(line) + 1 + term_width(below.split()[0]) <= COLS
    ]
    assert not ragged, "\n".join(ragged) + "\n" + screen


@pytest.mark.timeout(60)
@pytest.mark.parametrize("lang", ["el", "th"])
def test_bots_are_named_and_tagged_in_the_players_language(lang: str) -> None:
    screen = staged("bots", lang)
    with use_language(lang):
        shown = [words.bot_title("greedy", 1), words.bot_title("expert", 2)]
    people = [name for name, _colour, bot, _lang in BOTS if not bot]
    left = english_left(screen, lang, {"greedy", "expert", "bot"}, people)
    assert not left and all(name in screen for name in shown), f"{left}\n{screen}"


@pytest.mark.timeout(60)
def test_welsh_says_cymorth_for_help() -> None:
    board = staged("board", "cy")
    assert "? cymorth" in board.splitlines()[-1], board
    help_screen = staged("board", "cy", keys=("?",))
    found = {w for w in re.findall(r"[^\W\d_]+", help_screen) if w.casefold() == "help"}
    assert not found and "Cymorth" in help_screen, help_screen


def _board_rows(screen: str) -> list[str]:
    return columns_of(screen)["board"][1 : 1 + GEO.height]


@pytest.mark.timeout(60)
def test_welsh_board_labels_stand_apart() -> None:
    screen = staged("board", "cy")
    joined = [row for row in _board_rows(screen) if re.search(r"\d[^\W\d_]", row)]
    assert not joined, "\n".join(joined) + "\n" + screen


@pytest.mark.timeout(60)
def test_without_colour_each_home_box_says_whose_it_is() -> None:
    screen = staged("board", "en", no_colour=True)
    board = "\n".join(_board_rows(screen))
    with use_language("en"):
        missing = [words.colour_name(c) for c in range(4) if words.colour_name(c) not in board]
    assert not missing, f"no {missing} on the board\n{screen}"
