"""The rules view: ``?`` then ``r`` shows the whole rules of the variant, scrolled by keys.

Its keys through the command tables (:mod:`fake_controls`), then the real application
on a pipe input at 80x24 in every language: the heading, the variant's rules in the
player's language, the footer and the ``?`` help from the view's one table, scrolling
to the end, back to the board, and the too-small message in its place.
"""

from __future__ import annotations

import pytest
from fake_controls import FakeControls, press
from tui_harness import running

from sorry_lan.handbook import handbook
from sorry_lan.i18n import LANGUAGES, _, language, pgettext, use_language, words
from sorry_lan.rules.variants import Variant
from sorry_lan.tui.commands import hints
from sorry_lan.tui.helptext import help_text
from sorry_lan.tui.screens import rules as rules_view
from sorry_lan.tui.screens.parts import MIN_COLS, MIN_ROWS
from sorry_lan.tui.state import Screen, UiState
from sorry_lan.tui.textfit import width


def test_r_in_the_help_opens_the_rules_and_closes_the_help_and_the_chat() -> None:
    c = FakeControls(UiState(screen=Screen.GAME, help_visible=True, chat_open=True))
    assert press(c, "r", typing=True)
    st = c.state
    assert st.rules_visible and not st.help_visible and c.called() == ["close_chat"]
    assert not press(c, "enter") and not press(c, "t")  # the board's keys rest


def test_the_rules_scroll_by_lines_pages_and_ends_and_esc_goes_back() -> None:
    c = FakeControls(UiState(screen=Screen.GAME, rules_visible=True, rules_page=20))
    st = c.state
    assert press(c, "j") and press(c, "down") and st.rules_scroll == 2
    assert press(c, "pagedown") and press(c, "space") and st.rules_scroll == 42
    assert press(c, "pageup") and press(c, "k") and st.rules_scroll == 21
    assert press(c, "up") and press(c, "pageup") and st.rules_scroll == 0
    assert press(c, "end") and st.rules_scroll == rules_view.END
    assert press(c, "home") and st.rules_scroll == 0
    assert press(c, "escape") and not st.rules_visible
    assert press(c, "j") and st.rules_scroll == 0  # j is the board's again


def test_question_mark_lists_the_views_keys_and_q_still_asks_to_leave() -> None:
    c = FakeControls(UiState(screen=Screen.GAME, rules_visible=True))
    assert press(c, "?") and c.state.help_visible
    text = help_text(c.state, 70)
    assert text.splitlines()[0] == _("Keys of the rules view")
    assert _("back to the board") in text and _("Rules in short") not in text
    assert press(c, "escape")
    assert (c.state.help_visible, c.state.rules_visible) == (False, True)
    assert press(c, "q") and c.state.confirm_quit


def test_the_help_of_every_screen_says_where_the_whole_rules_are() -> None:
    for screen in Screen:
        text = help_text(UiState(screen=screen), 70)
        assert "r: " in text, screen


async def _shown(lang: str, variant: Variant, cols: int = 80, rows: int = 24) -> list[list[str]]:
    """The screens of ? then r, a page down, the end, Esc (in ``lang``)."""
    st = UiState(screen=Screen.GAME, variant=variant)
    screens = []
    with use_language(lang):
        async with running(st, cols, rows) as (d, _actions):
            for keys in ("?", "r", " ", "\x1b[F", "\x1b"):
                await d.keys(keys)
                screens.append(d.screen_lines())
    return screens


@pytest.mark.asyncio
@pytest.mark.parametrize("lang", list(LANGUAGES))
async def test_the_rules_view_shows_the_whole_rules_at_80x24(lang: str) -> None:
    variant = Variant.TEAM
    _help, first, paged, end, back = await _shown(lang, variant)
    with use_language(lang):
        book = handbook(language())
        heading = _("Rules: {variant}").format(variant=words.variant_title(variant.value))
        table = rules_view.TABLE
        st = UiState(screen=Screen.GAME, rules_visible=True)
        footer = "  ".join(f"{h.keys} {h.word()}" for _c, h in hints(table, st))
        esc_back = f"Esc {pgettext('key', 'back')}"
    for screen in (first, paged, end):
        assert len(screen) == MIN_ROWS and all(width(line) <= MIN_COLS for line in screen)
        assert screen[1].strip().startswith(heading)
        assert screen[-1].strip() == footer and esc_back in footer
    assert first[2].strip() == book.title
    assert paged != first and paged[2:-1] != first[2:-1]
    last_words = book.sections_for(variant.value)[-1].paragraphs[-1].text.split()[-1]
    assert any(line.rstrip().endswith(last_words) for line in end[2:-1])
    total = end[1].split()[-1]
    assert total.isdigit() and int(total) > 100  # "lines a-b of N"
    assert back[1] != first[1] and heading not in back[1]  # Esc: the board again


@pytest.mark.asyncio
async def test_a_terminal_too_small_for_it_gets_the_message_and_keeps_its_place() -> None:
    st = UiState(screen=Screen.GAME, rules_visible=True, rules_scroll=5)
    async with running(st, 70, 20) as (d, _actions):
        text = d.screen_text()
        assert "70x20" in text and _("Rules: {variant}").split(":")[0] not in text
        await d.resize(80, 24)
        assert d.screen_lines()[1].strip().startswith("Rules: standard · lines 6-")
