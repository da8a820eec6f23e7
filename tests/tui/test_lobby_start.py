"""The host's start in the lobby (issue 33): the host sees whether everyone seated is
ready, and ``s`` with people not ready first says who, then starts on a second ``s``."""

from __future__ import annotations

from fake_controls import FakeControls, press
from parts_fake import parts_for

from sorry_lan.tui.screens.chat import ChatLine
from sorry_lan.tui.screens.lobby import View
from sorry_lan.tui.state import Screen, Seat, UiState


def lobby(bob_ready: bool) -> UiState:
    st = UiState(screen=Screen.LOBBY, is_host=True)
    st.seats = [Seat(0, "Ann", you=True, host=True), Seat(1, "Bob", ready=bob_ready),
                Seat(2, "robo", bot=True), Seat(3)]  # fmt: skip
    return st


def starts(c: FakeControls) -> int:
    return sum(1 for name, _args in c.actions.calls if name == "start")


def test_s_with_someone_not_ready_says_who_and_a_second_s_starts() -> None:
    c = FakeControls(lobby(bob_ready=False))
    assert press(c, "s") and starts(c) == 0
    assert c.state.notice == "Not ready yet: Bob. Press s again to start anyway."
    assert press(c, "s") and starts(c) == 1


def test_someone_new_not_ready_after_the_first_s_is_named_before_a_start() -> None:
    c = FakeControls(lobby(bob_ready=False))
    assert press(c, "s") and starts(c) == 0
    c.state.seats[3] = Seat(3, "Cerys")  # sits down between the two presses
    assert press(c, "s") and starts(c) == 0
    assert c.state.notice == "Not ready yet: Bob and Cerys. Press s again to start anyway."
    assert press(c, "s") and starts(c) == 1


def test_s_with_everyone_ready_starts_at_once() -> None:
    c = FakeControls(lobby(bob_ready=True))
    assert press(c, "s") and starts(c) == 1 and not c.state.notice


def test_the_host_sees_who_is_not_ready_or_that_everyone_is() -> None:
    for ready, said in ((False, "Not ready yet: Bob."),
                        (True, "Everyone seated is ready: s starts the game.")):  # fmt: skip
        st = lobby(ready)
        parts = parts_for(st)
        view = View(parts, ChatLine(parts, lambda buffer: False))
        text = "".join(t for _s, t, *_ in view._seats_fragments())
        assert said in text
