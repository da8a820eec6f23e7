"""The lobby's keys: a colour, ready; the host's bots, rules and start."""

from __future__ import annotations

import pytest
from fake_controls import FakeControls, press
from tui_harness import running

from sorry_lan.i18n import use_language
from sorry_lan.rules.variants import Variant
from sorry_lan.tui.screens.lobby import form_words
from sorry_lan.tui.state import RosterEntry, Screen, Seat, UiState


def test_a_guest_sits_says_ready_and_has_no_host_keys() -> None:
    c = FakeControls(UiState(screen=Screen.LOBBY))
    assert press(c, "3") and press(c, "space")
    assert c.actions.calls == [("choose_colour", (2,)), ("ready", ())]
    assert not any(press(c, key) for key in "axlvs")


def test_the_host_adds_and_removes_bots_picks_the_rules_and_starts() -> None:
    st = UiState(screen=Screen.LOBBY, is_host=True, variants=(Variant.STANDARD, Variant.TEAM))
    c = FakeControls(st)
    for key in "axlvs":
        assert press(c, key)
    assert [name for name, _args in c.actions.calls] == [
        "add_bot",
        "remove_bot",
        "cycle_bot",
        "set_variant",
        "start",
    ]
    assert c.actions.calls[3] == ("set_variant", (Variant.TEAM,))


def test_q_asks_first_and_the_language_key_changes_the_language() -> None:
    c = FakeControls(UiState(screen=Screen.LOBBY, help_visible=False))
    assert press(c, "q") and c.state.confirm_quit and c.called() == []
    c = FakeControls(UiState(screen=Screen.LOBBY))
    assert press(c, "g") and c.called() == ["next_language"]


@pytest.mark.asyncio
async def test_the_lobby_says_how_each_person_seated_did_in_this_machines_latest_games() -> None:
    st = UiState(screen=Screen.LOBBY, names={0: "Ann", 1: "greedy bot 1", 2: "Bob"},
                 form={"ann": (3, 5), "greedy bot 1": (4, 5), "bob": (1, 1)})  # fmt: skip
    st.seats = [Seat(0, "Ann"), Seat(1, "greedy bot 1", bot=True), Seat(2, "Bob"), Seat(3)]
    assert form_words(st) == "Ann has won 3 of the last 5 games; Bob has won 1 of the last 1 game"
    async with running(st, 80, 24) as (d, _actions):
        assert "Ann has won 3 of the last 5 games; Bob has won 1 of the last 1 game" in (
            " ".join(line.strip() for line in d.screen_lines()))
    with use_language("cy"):
        assert "Ann" in form_words(st) and "games" not in form_words(st)
    assert form_words(UiState(screen=Screen.LOBBY)) == ""


def test_the_controller_reads_this_machines_form_and_a_read_that_fails_keeps_the_last() -> None:
    from sorry_lan.tui.controller import ClientController

    st = UiState()
    controller = ClientController(st)
    controller._read_form()  # no saved games to read: nothing changes
    assert st.form == {}
    controller.form = lambda: {"ann": (3, 5)}
    controller._read_form()
    assert st.form == {"ann": (3, 5)}

    def unreadable() -> dict[str, tuple[int, int]]:
        raise PermissionError("no")

    controller.form = unreadable
    controller._read_form()
    assert st.form == {"ann": (3, 5)}


def _full_table(asks: tuple[tuple[int, int], ...] = ()) -> UiState:
    """Ann (pid 0, red: you) and Bob (pid 1, blue) fill a table of two that trades."""
    st = UiState(screen=Screen.LOBBY, seat_limit=2, swaps_on=True, swaps=asks, me=0)
    st.seats = [Seat(0, "Ann", you=True), Seat(1, "Bob"), Seat(2), Seat(3)]
    st.roster = {0: RosterEntry("Ann", 0, False, True), 1: RosterEntry("Bob", 1, False, True)}
    return st


def test_a_taken_colour_is_noted_and_w_asks_its_holder_then_takes_the_ask_back() -> None:
    c = FakeControls(_full_table())
    assert press(c, "w") and "first" in c.state.notice and c.actions.calls == []
    assert press(c, "2") and c.actions.calls == []  # Bob's: nothing is sent
    assert "Blue is taken: w asks" in c.state.notice
    assert press(c, "w") and c.actions.calls == [("ask_swap", (1,))]
    c.state.swaps = ((0, 1),)
    assert press(c, "w") and c.actions.calls[-1] == ("ask_swap", (None,))
    assert not press(c, "y") and not press(c, "n")  # nobody asks Ann


@pytest.mark.asyncio
async def test_the_asked_player_sees_the_ask_and_answers_it_with_y_or_n() -> None:
    st = _full_table(asks=((1, 0),))
    c = FakeControls(st)
    assert press(c, "y") and press(c, "n")
    assert c.actions.calls == [("answer_swap", (True,)), ("answer_swap", (False,))]
    async with running(st, 80, 24) as (d, _actions):
        shown = " ".join(line.strip() for line in d.screen_lines())
        assert "Bob asks to trade colours with you (you would play blue): y accepts" in shown
        assert "y/n trade?" in d.screen_lines()[-1]
    watcher = FakeControls(_full_table(asks=((1, 0),)))
    watcher.state.spectating = True
    assert not press(watcher, "y") and not press(watcher, "w")
