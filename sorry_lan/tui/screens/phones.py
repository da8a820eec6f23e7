"""The phones' code shown large: the lobby's ``p`` puts it in the whole screen's place.

Beside the lobby the QR code of the phones' page needs a seat's whole row of room
(about 92 columns), so an 80x24 screen has none; this view draws the code as large
as the terminal holds (:func:`~..qr.large_qr_lines`, black on white, with the
standard's quiet border) with the address under it, in words too.  :data:`TABLE`
holds its one key, any key, which closes it (Ctrl-C still asks to leave, as
everywhere).  :func:`open_phones` is the lobby's command that opens it.  Under
``--ascii`` there is no code (half blocks are not ASCII): the address alone.
"""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout import Window

from sorry_lan.i18n import _

from ..commands import Command, Controls, Table
from ..qr import large_qr_lines
from ..state import UiState
from ..textfit import clip, width, wrap
from .parts import Parts, size, text_window

#: The key that stands for every key (prompt_toolkit's).
ANY_KEY = "<any>"


def can_open(st: UiState) -> bool:
    """There is a phones' page to show (a player's lobby at a table that serves it)."""
    return st.phones_url is not None and not st.spectating


def open_phones(c: Controls, key: str) -> None:
    """Show the phones' code large (the chat line closes)."""
    if c.state.chat_open:
        c.close_chat()
    c.state.phones_visible = True


def _close(c: Controls, key: str) -> None:
    c.state.phones_visible = False


TABLE = Table(
    "phones",
    (Command((ANY_KEY,), _close),),
    rules=False,
)


def fragments(parts: Parts) -> StyleAndTextTuples:
    """The code, centred, then the address and how to close, each clipped."""
    st = parts.state
    cols, rows = size()
    url = st.phones_url or ""
    said = [_("Phones join in a browser at {address}").format(address=url),
            _("(any key closes)")]
    words = [line for text in said for line in wrap(text, max(1, cols - 2))]
    code = [] if parts.ascii else large_qr_lines(url, cols, rows - len(words))
    out: StyleAndTextTuples = []
    for line in code:
        out.append(("", " " * max(0, (cols - width(line)) // 2)))
        out.append(("class:qr", line))
        out.append(("", "\n"))
    for i, line in enumerate(words):
        text = clip(line, cols, parts.ellipsis)
        style = "class:dim" if i == len(words) - 1 else "class:heading"
        out.append((style, " " * max(0, (cols - width(text)) // 2) + text + "\n"))
    return out


def build(parts: Parts) -> Window:
    return text_window(parts.plain(lambda: fragments(parts)))
