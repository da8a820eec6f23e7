"""The command table's rules: who gets a key, what the footer and the help list."""

from __future__ import annotations

from sorry_lan.tui.commands import (
    Command,
    Controls,
    Help,
    Hint,
    Layer,
    Table,
    bound,
    every_key,
    help_lines,
    hints,
    say,
)
from sorry_lan.tui.state import UiState


def _nothing(c: Controls, key: str) -> None:
    pass


def _host(st: UiState) -> bool:
    return st.is_host


def test_the_top_layer_gets_a_key_first_and_an_idle_command_lets_it_through() -> None:
    top = Command(("r",), _nothing, when=_host)
    under = Command(("r", "t"), _nothing)
    layers = [Layer(Table("top", (top,))), Layer(Table("under", (under,)))]
    assert bound(layers, UiState(is_host=True), typing=False) == {"r": top, "t": under}
    assert bound(layers, UiState(), typing=False) == {"r": under, "t": under}


def test_typing_keeps_only_the_commands_that_act_while_typing() -> None:
    plain = Command(("q",), _nothing)
    field_too = Command(("enter",), _nothing, typing=True)
    table = Table("t", (plain, field_too))
    assert bound([Layer(table)], UiState(), typing=True) == {"enter": field_too}
    assert set(bound([Layer(table)], UiState(), typing=False)) == {"q", "enter"}


def test_a_modal_layer_stops_the_rest_but_for_anytime_commands() -> None:
    close = Command(("escape",), _nothing, typing=True)
    ctrl_c = Command(("c-c",), _nothing, anytime=True)
    below = Command(("q", "escape"), _nothing)
    layers = [Layer(Table("overlay", (close,)), modal=True), Layer(Table("s", (below, ctrl_c)))]
    assert bound(layers, UiState(), typing=False) == {"escape": close, "c-c": ctrl_c}
    assert bound(layers, UiState(), typing=True) == {"escape": close, "c-c": ctrl_c}


def test_a_note_without_keys_or_action_binds_nothing_but_shows_in_the_footer() -> None:
    note = Command((), hint=Hint("", lambda: "watching", 6))
    table = Table("t", (note,))
    assert bound([Layer(table)], UiState(), typing=False) == {}
    assert hints(table, UiState()) == [(note, note.hint)]
    assert every_key([table]) == set()


def test_hints_follow_the_table_and_need_their_command_and_their_own_condition() -> None:
    host_only = Command(("s",), _nothing, when=_host, hint=Hint("s", lambda: "start", 2))
    shy = Hint("t", lambda: "chat", 4, when=lambda st: not st.is_host)
    chat = Command(("t",), _nothing, hint=shy)
    help_ = Command(("?",), _nothing, hint=Hint("?", lambda: "help", 0))
    table = Table("t", (host_only, chat, help_))
    assert [h.keys for _c, h in hints(table, UiState(is_host=True))] == ["s", "?"]
    assert [h.keys for _c, h in hints(table, UiState())] == ["t", "?"]


def test_help_lines_keep_table_order_with_the_late_ones_last() -> None:
    late = Command(("a",), _nothing, help=Help("a", lambda: "add", when=_host, late=True))
    first = Command(("1",), _nothing, help=Help("1", lambda: "sit"))
    idle = Command(("r",), _nothing, when=lambda st: False, help=Help("r", lambda: "rejoin"))
    table = Table("t", (late, first, idle))
    assert [h.keys for _c, h in help_lines(table, UiState(is_host=True))] == ["1", "r", "a"]
    assert [h.keys for _c, h in help_lines(table, UiState())] == ["1", "r"]


def test_every_key_says_which_keys_act_at_once() -> None:
    table = Table("t", (Command(("escape",), _nothing, eager=True), Command(("j", "k"), _nothing)))
    assert every_key([table]) == {("escape", True), ("j", False), ("k", False)}


def test_say_translates_words_and_keeps_plain_keys() -> None:
    assert say("Enter") == "Enter"
    assert say(lambda: "Up/Down") == "Up/Down"
