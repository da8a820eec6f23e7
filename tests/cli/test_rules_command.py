"""``sorry-lan rules``: the whole rules of a variant, in the player's language, plain lines.

The real command in a subprocess: every variant in every language gives the text of
:mod:`sorry_lan.handbook` (each of its paragraphs, word for word once the wrapping is
undone), fitted to ``COLUMNS``, with nothing of a pager; ``rules moves`` is still the
oracle.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from sorry_lan.handbook import handbook
from sorry_lan.i18n import LANGUAGES
from sorry_lan.rules.variants import VARIANTS
from sorry_lan.tui.textfit import width

ROOT = Path(__file__).resolve().parents[2]


def rules(*args: str, columns: int = 80) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": str(columns), "LANG": "C.UTF-8"}
    env.pop("LANGUAGE", None)
    env.pop("LC_ALL", None)
    return subprocess.run(
        [sys.executable, "-m", "sorry_lan", "rules", *args],
        capture_output=True, text=True, timeout=60, env=env, encoding="utf-8", check=False,
    )


def unwrapped(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_variant_prints_its_whole_rules_in_the_language(lang: str) -> None:
    book = handbook(lang)
    for variant in VARIANTS:
        done = rules("--variant", variant, "--lang", lang, columns=60)
        assert done.returncode == 0 and done.stderr == "", done.stderr
        lines = done.stdout.splitlines()
        assert max(width(line) for line in lines) <= 59
        assert lines[0] == book.title
        flat = unwrapped(done.stdout)
        for section in book.sections:
            ours = section.variant in (None, variant)
            assert (section.title in lines) is ours, (lang, variant, section.id)
            for paragraph in section.paragraphs:
                assert (unwrapped(paragraph.text) in flat) is ours, (lang, paragraph.id)


def test_it_fits_a_narrow_terminal_and_reads_well_on_a_wide_one() -> None:
    narrow = rules("--lang", "el", columns=40).stdout.splitlines()
    assert max(width(line) for line in narrow) <= 39
    wide = rules(columns=250).stdout.splitlines()
    assert 90 < max(width(line) for line in wide) <= 100


def test_the_default_is_the_standard_game_in_the_locales_language() -> None:
    done = rules()
    assert done.returncode == 0
    assert "The standard game" in done.stdout and "Team play" not in done.stdout
    assert "\x1b" not in done.stdout  # plain lines: no pager, no terminal codes


def test_the_oracle_is_still_under_rules_moves() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    position = (
        '{"variant":"standard","players":["red","yellow"],'
        '"pawns":{"red":["start",12,"S3","home"],"yellow":["start","start","start",40]},'
        '"turn":"red","card":"3"}'
    )
    done = subprocess.run(
        [sys.executable, "-m", "sorry_lan", "rules", "moves"],
        input=position, capture_output=True, text=True, timeout=60, env=env, check=False,
    )
    assert done.returncode == 0 and done.stdout.startswith('{"moves": [')
