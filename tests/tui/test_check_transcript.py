"""``scripts/check_transcript.py`` finds each kind of line a listener cannot follow."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "check_transcript.py"
ASK = "Type your move's number, or help."
GOOD = [
    "Ann, your turn: a 1, 1 move.",
    "Move 1: your pawn 1 leaves start.",
    ASK,
    "You played a 1: your pawn 1 leaves start.",
    "Type help to hear the commands for now, help all, ? or keys to hear every one, and "
    "quit to leave.",  # help: no name
    "The game is over: Bob won.",
]


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_transcript", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_a_followable_transcript_has_no_problem() -> None:
    report = _script().check(GOOD, ["Ann", "Bob"], "en")
    assert report.problems == []
    assert (report.lines, report.offers, report.moves, report.over) == (6, 1, 1, True)


def test_each_fault_is_found_with_its_line() -> None:
    bad = [
        "red: R4 4->14",  # the old shorthand: notation, nobody named, no full stop
        "Bob played a 7: pawn 1 moves 3, and bumps xR1.",
        "game over: yellow won; scores [].",
        "Move 1: your pawn 1 leaves start.",
        "Move 3: your pawn 2 leaves start.",
        ASK,
    ]
    problems = _script().check(bad, ["Ann", "Bob"], "en").problems
    assert any(p.startswith("not a sentence") and "line 1" in p for p in problems)
    assert any(p.startswith("move notation") and "line 1" in p for p in problems)
    assert any(p.startswith("names nobody") and "line 1" in p for p in problems)
    assert any(p.startswith("move notation") and "line 2" in p for p in problems)
    assert any(p.startswith("raw list") and "line 3" in p for p in problems)
    assert any(p.startswith("moves not numbered 1..n ([1, 3])") for p in problems)
    assert "the end of the game is not told" in problems


def test_the_command_line_exits_1_on_a_problem(tmp_path: Path) -> None:
    path = tmp_path / "t.txt"
    path.write_text("\n".join(GOOD) + "\n", encoding="utf-8")
    assert _script().main([str(path), "--names", "Ann,Bob"]) == 0
    path.write_text("red: R4 4->14\n", encoding="utf-8")
    assert _script().main([str(path), "--names", "Ann,Bob"]) == 1
