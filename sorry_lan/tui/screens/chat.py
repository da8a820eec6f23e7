"""The chat: the line typed into (t opens it, Enter sends, Esc closes) and what was said.

:class:`ChatLine` is the input field and the chat heard, drawn by the lobby and the
game's panel; :func:`chat_key` the command that opens it, :data:`CHATTING` the table up
while it has the focus.  What is sent goes through the application (``send``).
"""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout import ConditionalContainer
from prompt_toolkit.widgets import TextArea

from sorry_lan.i18n import _, pgettext

from ..commands import Command, Controls, Help, Hint, Predicate, Table, always
from ..textfit import wrap
from .parts import Parts


def open_chat(c: Controls, key: str) -> None:
    c.state.chat_open = True
    c.focus_chat()


def close_chat(c: Controls, key: str) -> None:
    c.close_chat()


def chat_key(help: Help | None = None, hint_when: Predicate = always) -> Command:
    """t: the chat line opens (Enter sends, Esc closes)."""
    hint = Hint("t", lambda: pgettext("key", "chat"), 4, when=hint_when)
    return Command(("t",), open_chat, hint=hint, help=help)


def chat_help() -> Help:
    return Help("t", lambda: _("chat (Enter sends, Esc closes)"))


#: While the chat line has the focus: Esc closes it, at once.
CHATTING = Table("chatting", (Command(("escape",), close_chat, typing=True, eager=True),))


class ChatLine:
    """The chat's input field (shown while the chat is open) and the chat heard."""

    def __init__(self, parts: Parts, send: Callable[[Buffer], bool]) -> None:
        self._parts = parts
        st = parts.state
        self.input = TextArea(multiline=False, prompt=lambda: parts.text(_("say: ")), height=1)
        self.input.accept_handler = send
        self.box = ConditionalContainer(self.input, filter=Condition(lambda: st.chat_open))

    def lines(self, cols: int, rows: int) -> StyleAndTextTuples:
        """The last ``rows`` lines of the chat, wrapped to ``cols`` columns."""
        st = self._parts.state
        if not st.chat:
            return [("class:dim", " " + _("(t to chat)"))]
        lines = [line for entry in st.chat for line in wrap(self._parts.text(entry), cols)]
        return [("", "\n".join(lines[-rows:]))]
