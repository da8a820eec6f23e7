"""The two bars: the top names the screen (by its module) or says watching; the bottom
shows a notice beside the keys."""

from __future__ import annotations

from parts_fake import parts_for
from prompt_toolkit.formatted_text import StyleAndTextTuples

from sorry_lan.tui.footer import fit_hints, footer_hints
from sorry_lan.tui.screens.bars import bottom, top
from sorry_lan.tui.screens.tables import SCREENS
from sorry_lan.tui.state import Link, Screen, UiState
from sorry_lan.tui.textfit import width


def _text(frags: StyleAndTextTuples) -> str:
    return "".join(f[1] for f in frags)


def test_the_top_bar_names_the_screen_or_says_watching_and_ends_with_the_connection() -> None:
    for screen, module in SCREENS.items():
        st = UiState(screen=screen, link=Link.CONNECTED)
        line = _text(top(parts_for(st)))
        assert line.startswith(f" sorry-lan · {module.title()}") and width(line) == 80
        assert line.rstrip().endswith("● connected")
    watching = _text(top(parts_for(UiState(screen=Screen.GAME, spectating=True))))
    assert watching.startswith(" sorry-lan · watching")


def test_the_bottom_bar_shows_the_keys_or_a_notice_beside_them() -> None:
    st = UiState(screen=Screen.LOBBY)
    line = _text(bottom(parts_for(st)))
    assert line == " " + fit_hints(footer_hints(st), 79).ljust(79)
    st.notice = "not your turn"
    line = _text(bottom(parts_for(st)))
    assert line.startswith(" not your turn  ") and "? help" in line and width(line) == 80
