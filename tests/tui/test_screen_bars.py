"""The two bars: the top names the screen (by its module) or says watching; the bottom
shows a notice beside the keys."""

from __future__ import annotations

from parts_fake import parts_for
from prompt_toolkit.formatted_text import StyleAndTextTuples

from sorry_lan.rules.board import START
from sorry_lan.tui.footer import fit_hints, footer_hints
from sorry_lan.tui.options import option_from_compact
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


def test_the_keys_that_choose_and_play_a_move_are_hinted_only_while_moves_are_offered() -> None:
    """Your turn with moves: "choose" and "Enter play" are in the bar; the host lost (the
    offer withdrawn) or another player's turn: they are not, though the bar still says
    how to get help and leave."""
    pos = [START] * 16
    pos[0] = 4
    st = UiState(screen=Screen.GAME, you=0, turn=0, card=5, position=tuple(pos),
                 link=Link.CONNECTED)  # fmt: skip
    st.set_moves([option_from_compact(st.position, (0, 5, 0, 9), 4)])
    words = [h.word for h in footer_hints(st)]
    assert "choose" in words and "play" in words
    st.link = Link.RECONNECTING
    st.set_moves([])  # (what the feed does when the host is gone)
    words = [h.word for h in footer_hints(st)]
    assert "choose" not in words and "play" not in words and "help" in words
