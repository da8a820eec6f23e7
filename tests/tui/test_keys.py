"""The key bindings come from the tables: a key acts on a screen exactly when a table up
there lists a command for it that can act, and runs that command."""

from __future__ import annotations

import copy
import functools

import pytest
from fake_controls import MOMENTS, VIEWS, FakeControls, press, view_state
from prompt_toolkit.key_binding import KeyBindings

from sorry_lan.tui.commands import Command, Table
from sorry_lan.tui.keys import build_keys, commands_now, layers
from sorry_lan.tui.screens import help as help_overlay
from sorry_lan.tui.screens import leave
from sorry_lan.tui.screens import rules as rules_view
from sorry_lan.tui.screens.chat import CHATTING
from sorry_lan.tui.screens.shared import LOST
from sorry_lan.tui.screens.tables import every_table, table_for
from sorry_lan.tui.state import UiState

ALL_TABLES = [*every_table(), help_overlay.TABLE, rules_view.TABLE, leave.TABLE, CHATTING]


@functools.cache
def _parsed(key: str) -> tuple[object, ...]:
    """``key`` as prompt_toolkit stores it in a binding ("enter" is c-m); parsed once
    (it is asked for each binding of each key of each screen)."""
    kb = KeyBindings()
    kb.add(key)(lambda event: None)
    return tuple(kb.bindings[0].keys)


def _listed(table: Table) -> set[str]:
    return {key for command in table.commands for key in command.keys}


def _copied(st: UiState) -> UiState:
    """A copy of ``st`` that shares nothing a key can change with it (a replay's tape is
    frozen, so both share it rather than copy a whole recorded game per key)."""
    memo: dict[int, object] = {}
    if st.replay is not None:
        memo[id(st.replay.tape)] = st.replay.tape
    return copy.deepcopy(st, memo)


class _Event:
    """Enough of a key press for the handlers (they read nothing of it)."""


@pytest.mark.parametrize("typing", [False, True])
@pytest.mark.parametrize("moment", list(MOMENTS))
@pytest.mark.parametrize("view", list(VIEWS))
def test_prompt_toolkit_binds_a_key_exactly_when_a_table_up_gives_it_a_command(
    view: str, moment: str, typing: bool
) -> None:
    st = view_state(view, moment)
    kb = build_keys(FakeControls(st), typing=lambda: typing)
    now = commands_now(st, typing)
    keys = {key for table in ALL_TABLES for key in _listed(table)}
    for key in keys:
        active = [b for b in kb.bindings if tuple(b.keys) == _parsed(key) and b.filter()]
        assert len(active) == (key in now), (key, [b.keys for b in active])
        if active:
            assert active[0].eager() is now[key].eager
    # and the key runs that command, as pressing it through the tables does
    for key in now:
        by_binding, by_table = FakeControls(_copied(st)), FakeControls(_copied(st))
        binding = next(b for b in kb.bindings if tuple(b.keys) == _parsed(key) and b.filter())
        kb_now = build_keys(by_binding, typing=lambda: typing)
        handler = next(b for b in kb_now.bindings if b.keys == binding.keys and b.filter())
        handler.handler(_Event())  # type: ignore[arg-type]
        assert press(by_table, key, typing)
        assert by_binding.called() == by_table.called(), key
        assert vars(by_binding.state).keys() == vars(by_table.state).keys()


@pytest.mark.parametrize("view", list(VIEWS))
def test_a_key_acts_on_a_screen_only_through_the_tables_up_there(view: str) -> None:
    st = view_state(view, "plain")
    up: list[Command] = [c for layer in layers(st, False) for c in layer.table.commands]
    for key, command in commands_now(st, False).items():
        assert any(command is c for c in up), (key, command)
    # every command of the screen's table that can act has its keys (first one wins)
    table = table_for(st)
    for command in table.commands:
        if command.acts(st, False):
            for key in command.keys:
                first = next(c for c in table.commands if key in c.keys and c.acts(st, False))
                assert commands_now(st, False)[key] is first


def test_each_screens_own_keys_are_bound_there_and_nowhere_else() -> None:
    """A key only one table lists (the host's s, the game's b, the find screen's Tab)
    is bound on that table's screen and on no other."""
    owners: dict[str, set[str]] = {}
    for view in VIEWS:
        for key in _listed(table_for(view_state(view, "plain"))):
            owners.setdefault(key, set()).add(view)
    for view in VIEWS:
        st = view_state(view, "plain")
        kb = build_keys(FakeControls(st), typing=lambda: False)
        for key, views in owners.items():
            active = any(tuple(b.keys) == _parsed(key) and b.filter() for b in kb.bindings)
            if view not in views:
                assert not active, (key, view)
    assert owners["s"] == {"host's lobby", "lobby"}  # listed there, acting for the host only
    assert owners["tab"] == {"find"} and owners["b"] == {"game", "watched game"}


def test_a_key_no_table_lists_has_no_binding() -> None:
    kb = build_keys(FakeControls(UiState()), typing=lambda: False)
    bound_keys = {tuple(b.keys) for b in kb.bindings}
    assert _parsed("z") not in bound_keys and _parsed("f5") not in bound_keys


def test_host_lost_puts_its_table_over_the_screens() -> None:
    st = view_state("over", "host lost")
    assert [layer.table for layer in layers(st, False)] == [LOST, table_for(st)]
    assert commands_now(st, False)["r"] is LOST.commands[0]  # rejoin, not rematch
    assert [layer.table for layer in layers(view_state("find", "host lost"), False)] == [
        table_for(UiState())
    ]
