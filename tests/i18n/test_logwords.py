"""Warnings a player sees (the board's log, a command's stderr) in the player's words."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest

from sorry_lan.i18n import PSEUDO, use_language
from sorry_lan.i18n.logwords import KNOWN, log_line

PACKAGE = Path(__file__).resolve().parents[2] / "sorry_lan"
CALL = re.compile(r"log\.(?:warning|error|exception|critical)\(\s*\"([^\"]*)\"")


def _record(msg: str, *args: object, level: int = logging.WARNING) -> logging.LogRecord:
    return logging.LogRecord("sorry_lan.net.host", level, __file__, 1, msg, args, None)


def test_every_warning_the_package_logs_has_words_for_players() -> None:
    found = {m for path in PACKAGE.rglob("*.py") for m in CALL.findall(path.read_text())}
    assert len(found) >= 8
    assert found <= set(KNOWN), found - set(KNOWN)


@pytest.mark.parametrize("lang", ["el", "th", PSEUDO])
def test_a_known_warning_is_one_translated_sentence(lang: str) -> None:
    rec = _record("connection %d: cannot answer: %s", 7, "broken pipe")
    with use_language(lang):
        line = log_line(rec)
    assert "7" in line and "broken pipe" in line
    rest = line.replace("broken pipe", "")
    assert re.findall(r"[A-Za-z]{3,}", rest) == [], line


def test_english_and_a_library_warning() -> None:
    rec = _record("connection %d: cannot answer: %s", 7, "broken pipe")
    assert log_line(rec) == "[warning] the host could not answer connection 7 (broken pipe)"
    other = logging.LogRecord("zeroconf", logging.ERROR, __file__, 1, "oops %s", ("x",), None)
    assert log_line(other) == "[error] zeroconf: oops x"
    with use_language("el"):
        assert log_line(other) == "[σφάλμα] zeroconf: oops x"


def test_a_repr_argument_keeps_its_quotes() -> None:
    with use_language("el"):
        line = log_line(_record("checking game %r failed", "Ann's table"))
    assert "\"Ann's table\"" in line
