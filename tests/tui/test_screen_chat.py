"""The chat line: t opens it, Esc closes it at once; the chat heard, its last lines."""

from __future__ import annotations

from fake_controls import FakeControls, press
from parts_fake import parts_for

from sorry_lan.tui.screens.chat import CHATTING, ChatLine
from sorry_lan.tui.state import Screen, UiState


def test_t_opens_the_chat_and_esc_in_it_closes_it_at_once() -> None:
    c = FakeControls(UiState(screen=Screen.GAME))
    assert press(c, "t") and c.state.chat_open and c.called() == ["focus_chat"]
    assert press(c, "escape", typing=True) and c.called() == ["focus_chat", "close_chat"]
    assert not press(c, "t", typing=True)  # a t typed in the chat line is a t
    assert CHATTING.commands[0].eager


def test_the_chat_heard_shows_its_last_lines_wrapped() -> None:
    st = UiState(screen=Screen.LOBBY)
    chat = ChatLine(parts_for(st), send=lambda buffer: False)
    assert chat.lines(30, 3) == [("class:dim", " (t to chat)")]
    for i in range(5):
        st.add_chat("ann", f"line {i}")
    text = chat.lines(30, 3)[0][1]
    assert text.splitlines() == [" ann: line 2", " ann: line 3", " ann: line 4"]
    st.add_chat("bob", "a long line that wraps under itself")
    assert len(chat.lines(20, 9)[0][1].splitlines()) > 6
