"""The lobby's keys: a colour, ready; the host's bots, rules and start."""

from __future__ import annotations

from fake_controls import FakeControls, press

from sorry_lan.rules.variants import Variant
from sorry_lan.tui.state import Screen, UiState


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
