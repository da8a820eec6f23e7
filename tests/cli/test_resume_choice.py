"""``host --resume`` asking which game: every line it prints fits 80 columns in each of
the six languages, no word is cut, and nothing is lost on the way (the words, joined
back, are the sentence)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "net"))

from test_saved import flip, save_game

from sorry_lan.cli import main
from sorry_lan.commands.resume_choice import choice_lines, fitted, wrap
from sorry_lan.i18n import LANGUAGES, _, use_language
from sorry_lan.i18n.coded import say
from sorry_lan.net.saved import Ask, pick, saved_games
from sorry_lan.tui.cells import room

LANGS = sorted(LANGUAGES)


def _games(tmp_path: Path) -> Path:
    d = tmp_path / "journals"
    d.mkdir(mode=0o700)
    save_game(d, "n000001-20260101-101010-4242", host="Ελένη Παπαδοπούλου", moves=7)
    save_game(d, "n000002-20260102-101010-4242", host="निरंजना", moves=11)
    flip(save_game(d, "n000003-20260103-101010-4242", host="Gwenllian", moves=9), line=5)
    return d


def _fits(lines: list[str]) -> None:
    for line in lines:
        assert room(line) <= 80, line


def test_six_languages_are_spoken_here() -> None:
    assert len(LANGS) == 6 and "cy" in LANGS


@pytest.mark.parametrize("lang", LANGS)
def test_the_list_and_its_question_fit_80_columns_with_no_word_cut(
    lang: str, tmp_path: Path
) -> None:
    d = _games(tmp_path)
    picked = pick(saved_games(d)[0], None)
    assert isinstance(picked, Ask) and len(picked.choices) == 3
    with use_language(lang):
        lines = choice_lines(picked.choices, cols=80)
        question = _("{why}; which game do you want to resume?").format(why=say(picked.said))
        asked = fitted(question, cols=80).split("\n")
    _fits(lines)
    _fits(asked)
    assert " ".join(asked).split() == question.split()  # every word whole, in order
    text = " ".join(lines)
    for name in ("Ελένη Παπαδοπούλου", "निरंजना", "Gwenllian"):
        assert name in text
    for gid in ("n000001-20260101-101010-4242", "n000003-20260103-101010-4242"):
        assert gid in text


@pytest.mark.parametrize("lang", LANGS)
def test_not_on_a_terminal_the_command_prints_only_lines_that_fit(
    lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _games(tmp_path)
    args = ["--lang", lang, "host", "--headless", "--no-mdns", "--data-dir", str(tmp_path)]
    assert main([*args, "--resume"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) > 6
    _fits(err)


def test_a_word_longer_than_a_line_stands_whole_and_a_command_is_never_split() -> None:
    path = "/home/someone/" + "very-long-directory-name/" * 4 + "n000001.journal"
    lines = wrap(f"{path} is damaged; run `sorry-lan host --resume n1 --salvage` now", 40)
    assert lines[0] == path and "`sorry-lan host --resume n1 --salvage`" in lines


@pytest.mark.parametrize("lang", LANGS)
def test_what_stops_a_resume_fits_too(
    lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    d = tmp_path / "journals"
    d.mkdir(mode=0o700)
    flip(save_game(d, "n000001-20260101-101010-4242", host="Gwenllian", moves=9), line=1)
    args = ["--lang", lang, "host", "--headless", "--no-mdns", "--data-dir", str(tmp_path)]
    assert main([*args, "--resume"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) > 1 and "`sorry-lan host`" in " ".join(err)
    _fits([line for line in err if str(d) not in line])  # a long path stands whole
