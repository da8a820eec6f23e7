"""The rules view in a real terminal (tmux, 80x24), in every language.

The demo client (``board_demo.py --lang X --variant team``) on a private tmux server:
``?`` then ``r`` shows the rules in the language, every row within 80 columns as a
terminal counts them, the footer in its row; End reaches the last paragraph, Esc the
board again.  Skipped when tmux is not installed.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from screen_checks import too_wide
from tmux_harness import private_tmux

from sorry_lan.handbook import handbook
from sorry_lan.i18n import LANGUAGES, _, pgettext, use_language

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_rules_view_in_a_terminal(lang: str) -> None:
    demo = ROOT / "tests" / "tui" / "board_demo.py"
    command = f"{sys.executable} {demo} --no-mouse --lang {lang} --variant team"
    book = handbook(lang)
    with use_language(lang):
        back = f"Esc {pgettext('key', 'back')}"
        heading = _("Rules: {variant}").split(":")[0]
    with private_tmux("rules") as tmux:
        tmux.run(
            "-f", "/dev/null", "new-session", "-d", "-s", "rules", "-x", "80", "-y", "24",
            "-e", f"PYTHONPATH={ROOT}", "-e", "LANG=C.UTF-8", "-c", str(ROOT), command,
        )  # fmt: skip
        board = tmux.wait_for(lambda s: "R1" in s and "? " in s.splitlines()[-1])
        tmux.keys("?")
        tmux.wait_for(lambda s: "r: " in s)
        tmux.keys("r")
        # The whole view drawn: its title and its footer (a capture can land mid-draw).
        first = tmux.wait_for(lambda s: book.title in s and back in s.splitlines()[-1])
        lines = first.splitlines()
        assert too_wide(first) == [], lang
        assert lines[1].strip().startswith(heading) and back in lines[-1]
        tmux.keys("End")
        last = book.sections_for("team")[-1].paragraphs[-1].text.split()[-1]
        end = tmux.wait_for(lambda s: any(line.rstrip().endswith(last) for line in s.splitlines()))
        assert too_wide(end) == [] and back in end.splitlines()[-1]
        tmux.keys("Escape")
        again = tmux.wait_for(lambda s: book.title not in s and "R1" in s)
        assert again.splitlines()[0] == board.splitlines()[0]
