"""The host's fixed refusal texts reach a player in the player's language: every
literal text ``sorry_lan.authority`` refuses a request with is listed for the
catalogs (``i18n.host_texts``), and each is translated in every language."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import sorry_lan.authority
from sorry_lan.codes import ErrorReason
from sorry_lan.i18n import LANGUAGES, use_language
from sorry_lan.i18n.coded import error_text
from sorry_lan.i18n.host_texts import HOST_TEXTS

AUTHORITY = Path(sorry_lan.authority.__file__).parent


def _refusal_texts() -> set[str]:
    """Every str literal given to ``RequestRefused`` or a module's ``_refused`` and
    every module constant ``*_TEXT`` (what those are given by name) in authority."""
    found: set[str] = set()
    for path in AUTHORITY.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in (
                    "RequestRefused", "_refused"):
                found.update(a.value for a in node.args
                             if isinstance(a, ast.Constant) and isinstance(a.value, str))
            elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
                names = [getattr(t, "id", "") for t in node.targets]
                if any(n.endswith("_TEXT") for n in names) and isinstance(node.value.value, str):
                    found.add(node.value.value)
    return found


def test_every_fixed_refusal_of_the_host_is_listed_for_the_catalogs() -> None:
    texts = _refusal_texts()
    assert len(texts) >= 20  # (the scan finds them: a scan that finds none proves nothing)
    assert texts - HOST_TEXTS == set()


@pytest.mark.parametrize("lang", sorted(set(LANGUAGES) - {"en"}))
def test_a_refusal_reads_in_the_players_language(lang: str) -> None:
    paused = "the table is paused: waiting for the other players"
    with use_language(lang):
        worded = error_text(ErrorReason.UNEXPECTED.value, paused)
        generic = error_text(ErrorReason.UNEXPECTED.value, "")
        for text in HOST_TEXTS:
            assert error_text("unexpected", text) != text, (lang, text)  # translated
        # a text with a value in it is read by its code
        assert error_text(ErrorReason.STALE.value, "move for state 3; the game is at 4") != (
            "move for state 3; the game is at 4")
    assert worded not in (paused, generic)
    with use_language("en"):
        assert error_text(ErrorReason.UNEXPECTED.value, paused) == paused
