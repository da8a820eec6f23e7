"""A game record told one turn a line in sentences (``sorry-lan replay FILE --text``)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sorry_lan.i18n import LANGUAGES, use_language
from sorry_lan.tui.line_help import you_markers
from sorry_lan.tui.record_sentences import record_sentences

RECORDS = Path(__file__).resolve().parents[2] / "protocol" / "records"
NOTATION = re.compile(r"->|<-|\b[RBYG][1-4]\b|\bx[RBYG]")


def _record(name: str) -> dict[str, object]:
    data = json.loads((RECORDS / name).read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_a_record_reads_one_turn_a_line_with_names() -> None:
    record = _record("points-3.json")
    lines = record_sentences(record)
    assert lines[0].startswith("Ann hosted this game of play for points at Kitchen table")
    assert lines[1] == (
        "1. greedy bot 1 played a 4: pawn 4 moves back 4, to 8 from home."
    )
    assert lines[3] == (
        "3. Ann played a Sorry! card: pawn 1 bumps greedy bot 1's pawn 4, to 23 from home."
    )
    assert "7. Bob played a 2: pawn 1 leaves start, bumps Ann's pawn 1. Bob draws again." in lines
    assert lines[-2].startswith("The game is over: ")
    assert lines[-1].startswith("Points: ")


@pytest.mark.parametrize("name", sorted(p.name for p in RECORDS.glob("*.json")))
def test_every_golden_record_is_sentences_naming_people_in_every_language(name: str) -> None:
    record = _record(name)
    seats = record["seats"]
    assert isinstance(seats, list)
    names = [str(s["name"]) for s in seats]
    turns = record["turns"]
    assert isinstance(turns, list)
    reshuffles = sum(1 for t in turns if t["type"] == "reshuffle")
    for lang in LANGUAGES:
        with use_language(lang):
            lines = record_sentences(record)
            people = [*names, *you_markers()]
        assert len(lines) == 1 + len(turns) - reshuffles + (2 if "points" in name else 1)
        for line in lines:
            assert line.endswith((".", "!", "।")), (lang, line)
            assert not NOTATION.search(line), (lang, line)
            assert any(p in line for p in people), (lang, line)


def test_a_turn_the_program_cannot_word_is_told_without_notation() -> None:
    record = _record("standard-2.json")
    turns = record["turns"]
    assert isinstance(turns, list)
    turns[11] = {**turns[11], "parts": [{"pawn": "Z9"}]}
    line = record_sentences(record)[12]
    assert line == "12. Ann played a 2: a move this program cannot word. Ann draws again."


def test_replay_text_prints_the_sentences() -> None:
    path = RECORDS / "team-4.json"
    shown = subprocess.run(
        [sys.executable, "-m", "sorry_lan", "--lang", "cy", "replay", str(path), "--text"],
        capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert shown.returncode == 0, shown.stderr
    with use_language("cy"):
        expected = record_sentences(_record("team-4.json"))
    assert shown.stdout.splitlines() == expected
