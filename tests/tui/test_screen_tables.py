"""Every screen has its module and command table, and what the board shows of keys comes
from the tables: the bottom bar lists the hints of the table up, the ``?`` help its
help lines, each exactly (the expected text is built from the table, not written here).

The real application on a pipe input, wide enough that no hint is left out.
"""

from __future__ import annotations

import importlib

import pytest
from fake_controls import MOMENTS, VIEWS, view_state
from parts_fake import parts_for
from prompt_toolkit.layout import walk
from tui_harness import running

from sorry_lan.tui.commands import Table, help_lines, hints, say
from sorry_lan.tui.screens import watch
from sorry_lan.tui.screens.chat import ChatLine
from sorry_lan.tui.screens.tables import SCREENS, every_table, footer_table, table_for
from sorry_lan.tui.state import Screen, UiState
from sorry_lan.tui.textfit import pad, width

COLS, ROWS = 200, 60


def test_every_screen_has_a_module_with_a_table_a_title_and_a_build() -> None:
    assert set(SCREENS) == set(Screen)
    st = UiState()
    parts = parts_for(st)
    chat = ChatLine(parts, send=lambda buffer: False)
    for screen, module in SCREENS.items():
        assert module is importlib.import_module(f"sorry_lan.tui.screens.{screen.value}")
        assert isinstance(module.TABLE, Table) and module.TABLE.name == screen.value
        st.screen = screen
        assert module.title() == SCREENS[screen].title() != ""
        build = vars(module)["build"]
        view = build(parts) if screen in (Screen.FIND, Screen.REPLAY) else build(parts, chat)
        assert any(view.focus is w for w in walk(view.container)), screen
    assert set(watch.TABLES) == {Screen.LOBBY, Screen.GAME, Screen.OVER}


def test_every_command_with_keys_does_something_and_tables_name_no_key_twice_at_once() -> None:
    for view in VIEWS:
        for moment in MOMENTS:
            st = view_state(view, moment)
            table = table_for(st)
            acting = [c for c in table.commands if c.acts(st, False)]
            keys = [key for c in acting for key in c.keys]
            assert len(keys) == len(set(keys)), (view, moment, keys)
    for table in every_table():
        assert all(c.action is not None for c in table.commands if c.keys), table.name


@pytest.mark.asyncio
@pytest.mark.parametrize("moment", ["plain", "host lost"])
@pytest.mark.parametrize("view", list(VIEWS))
async def test_the_bottom_bar_shows_the_hints_of_the_table_up(view: str, moment: str) -> None:
    st = view_state(view, moment)
    shown = [
        f"{say(h.keys)} {h.word()}" if say(h.keys) else h.word()
        for _c, h in hints(footer_table(st), st)
    ]
    async with running(st, COLS, ROWS) as (d, _actions):
        assert d.screen_lines()[-1].strip() == "  ".join(shown)


def _help_box(lines: list[str]) -> list[str]:
    """The text rows of the help box (drawn against the right edge), borders cut off."""
    top = next(i for i, line in enumerate(lines) if "┌─ Help: Esc closes " in line)
    left = lines[top].index("┌")
    rows: list[str] = []
    for line in lines[top + 1 :]:
        if line[left] == "└":
            return rows
        rows.append(line[left + 2 :].rstrip().removesuffix("│").rstrip())
    raise AssertionError("the help box has no bottom")


@pytest.mark.asyncio
@pytest.mark.parametrize("view", list(VIEWS))
async def test_the_help_lists_the_help_lines_of_the_table_up(view: str) -> None:
    st = view_state(view)
    table = table_for(st)
    async with running(st, COLS, ROWS) as (d, _actions):
        await d.keys("?")
        box = _help_box(d.screen_lines())
    assert table.title is not None and box[0] == table.title()
    box.append("")  # the end of the first section, when there is no second
    if table.about is not None:
        assert " ".join(box[1 : box.index("")]).split() == table.about().split()
    else:
        lines = [(say(h.keys), h.what()) for _c, h in help_lines(table, st)]
        key_cols = max(width(keys) for keys, _what in lines) + 2
        assert box[1 : box.index("")] == [f"  {pad(k, key_cols)}{what}" for k, what in lines]
    assert ("Rules in short" in box) is table.rules  # the help's other sections
