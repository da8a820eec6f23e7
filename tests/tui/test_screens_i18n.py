"""The board's screens in every language: the language key, layouts by display width,
names of every script kept out of the way of what follows them.

Drives the real :class:`TuiApp` on a pipe input (``tui_harness``) and reads back the
renderer's screen; the width rule is checked cell by cell: after a cell whose text
terminals may count differently from the renderer (unsteady, see ``tui.cells``)
nothing more may be written on that row.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from board_demo import demo_moves
from tui_harness import Driver, running

from sorry_lan.i18n import LANGUAGES, PSEUDO, _, language, set_language, use_language, words
from sorry_lan.rules.board import START
from sorry_lan.rules.variants import Variant
from sorry_lan.tui import cells
from sorry_lan.tui.board import COMPACT, LARGE, BoardView, board_text, render_board
from sorry_lan.tui.footer import Hint, fit_hints
from sorry_lan.tui.helptext import help_text
from sorry_lan.tui.screens.shared import LANGUAGE_KEY
from sorry_lan.tui.state import FoundGame, Link, Screen, Seat, UiState

NAMES = ["हिन्दी खिलाड़ी", "👨‍👩‍👧 family", "สมศักดิ์ ใจดี", "Ελένη Παπαδοπούλου"]
EVERY = [*LANGUAGES, PSEUDO]


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    set_language("en")


def _written_end(d: Driver, y: int) -> int:
    """The last column the renderer writes on row ``y`` (as prompt_toolkit decides)."""
    screen = d.tui.app.renderer.last_rendered_screen
    assert screen is not None
    row = screen.data_buffer[y]
    used = [x for x in range(d.cols) if row[x].char != " " or row[x].style]
    return max(used, default=-1)


def _unsteady_mid_row(d: Driver) -> list[tuple[int, str]]:
    """(row, text) of every unsteady cell that has more written after it on its row."""
    screen = d.tui.app.renderer.last_rendered_screen
    assert screen is not None
    bad = []
    for y in range(d._size[1]):
        end = _written_end(d, y)
        for x in range(end):
            char = screen.data_buffer[y][x].char
            if char.strip() and not cells.steady(char):
                bad.append((y, d.screen_lines()[y]))
                break
    return bad


def _lobby(names: list[str]) -> UiState:
    st = UiState(screen=Screen.LOBBY, link=Link.CONNECTED, is_host=True, game_title="t")
    st.variant = Variant.TEAM
    st.seats = [Seat(c, name, host=c == 0, you=c == 0) for c, name in enumerate(names)]
    return st


def _game(names: list[str]) -> UiState:
    st = UiState(screen=Screen.GAME, link=Link.CONNECTED, you=0, turn=1, card=7)
    st.names = dict(enumerate(names))
    st.turn = 0
    st.set_moves(demo_moves(st.position, 0, 7))
    for name in names:
        st.add_log(f"{name}: R1 4->6")
    return st


@pytest.mark.asyncio
@pytest.mark.parametrize("lang", ["en", "el", "th", "cy", PSEUDO])
async def test_names_of_every_script_end_their_row_or_are_steady(lang: str) -> None:
    """A name terminals measure differently never has text after it on its row (the
    lobby's columns, the log left of the panel, the title bar)."""
    set_language(lang)
    for state in (_lobby(NAMES), _game(NAMES)):
        async with running(state) as (d, _actions):
            assert _unsteady_mid_row(d) == [], d.screen_text()


@pytest.mark.asyncio
async def test_the_language_key_changes_every_screen_at_once() -> None:
    st = UiState(default_name="tess")
    st.found = [FoundGame("Busy", "10.0.0.5:47474", "host Bob")]
    called: list[str] = []
    st.relabel.append(lambda: called.append(language()))
    async with running(st) as (d, _actions):
        assert "Games on your network" in d.screen_text()
        seen = []
        for _code in LANGUAGES:
            await d.keys(LANGUAGE_KEY)
            seen.append(language())
            text = d.screen_text()
            assert _("Games on your network") in text, (language(), text)
            assert LANGUAGES[language()] in text  # the notice names the language
        assert seen == [*list(LANGUAGES)[1:], "en"]
        assert called == seen  # the state's kept texts were worded again each time


@pytest.mark.asyncio
async def test_the_language_key_works_in_the_lobby_and_not_in_the_game() -> None:
    async with running(_lobby(["ann", "bob", "", ""])) as (d, _actions):
        await d.keys(LANGUAGE_KEY)
        assert language() == "el" and "Λόμπι" in d.screen_text()
    set_language("en")
    async with running(_game(["ann", "bob"])) as (d, _actions):
        await d.keys(LANGUAGE_KEY)
        assert language() == "en"


@pytest.mark.parametrize("lang", EVERY)
def test_help_keys_line_up_and_fit_in_every_language(lang: str) -> None:
    with use_language(lang):
        for screen in Screen:
            for variant in Variant:
                for cols in (40, 74):
                    st = UiState(screen=screen, variant=variant, is_host=True)
                    text = help_text(st, cols)
                    for line in text.splitlines():
                        assert cells.room(line) <= cols, (lang, screen, line)
        # Every description of a section starts in one column, by display width, and
        # its continuation lines under it.
        key_line = re.compile(r"^  (\S(?:.*?\S)?) {2,}(\S.*)$")
        for screen in Screen:
            text = help_text(UiState(screen=screen, is_host=True), 74)
            section = text.split("\n\n")[0].splitlines()[1:]
            starts = set()
            for line in section:
                found = key_line.match(line)
                if found is not None:
                    starts.add(cells.width(line[: found.start(2)]))
                else:
                    starts.add(cells.width(line) - cells.width(line.lstrip()))
            assert len(starts) == 1, (lang, screen, section)


@pytest.mark.parametrize("lang", EVERY)
@pytest.mark.parametrize("geo", [COMPACT, LARGE], ids=["compact", "large"])
def test_board_labels_fit_their_boxes_in_every_language(lang: str, geo: object) -> None:
    with use_language(lang):
        view = BoardView((START,) * 16, frozenset(range(4)), 0)
        frags = render_board(view, geo.width, geo.height)  # type: ignore[attr-defined]
        rows = board_text(frags).split("\n")
        assert len(rows) == geo.height  # type: ignore[attr-defined]
        for row in rows:
            assert cells.width(row) == geo.width, (lang, row)  # type: ignore[attr-defined]
        for kind in ("start", "home"):
            head = "".join(cells.graphemes(words.board_label(kind))[:3])
            assert board_text(frags).count(head) == 4, (lang, kind)


def test_footer_hints_drop_by_rank_and_keep_help() -> None:
    hints = [Hint("1-4", "colour", 2), Hint("v", "variant", 6), Hint("?", "help", 0)]
    assert fit_hints(hints, 80) == "1-4 colour  v variant  ? help"
    assert fit_hints(hints, 20) == "1-4 colour  ? help"
    assert fit_hints(hints, 8) == "? help"
    assert fit_hints(hints, 3) == ""


def _stray_signs(d: Driver) -> list[str]:
    """Rows holding a cell that starts with a zero-width sign (drawn twice)."""
    screen = d.tui.app.renderer.last_rendered_screen
    assert screen is not None
    rows = []
    for y in range(d._size[1]):
        row = screen.data_buffer[y]
        if any(row[x].char and cells.width(row[x].char[0]) == 0 for x in range(d.cols)):
            rows.append(d.screen_lines()[y])
    return rows


@pytest.mark.asyncio
@pytest.mark.parametrize("lang", ["hi", "th", "lo"])
async def test_a_line_ending_in_a_combining_sign_draws_it_once(lang: str) -> None:
    """prompt_toolkit leaves a line's last zero-width sign in a cell of its own (Hindi
    है drawn as हैै, and the terminal's cursor a cell behind); the screens seal it."""
    set_language(lang)
    find = UiState(find_message="फिर से पत्ता खींचता है\nเบี้ยที่\nໄປນີ້")
    for state in (find, _lobby(NAMES), _game(["खींचें", "ที่"])):
        async with running(state) as (d, _actions):
            assert _stray_signs(d) == [], d.screen_text()
