"""The message shown in place of every screen when the terminal is under 80x24.

The keys stay those of the screen underneath (q still leaves).  :func:`build` makes
the message's window; whether it shows is :func:`.parts.too_small`.
"""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout import Window

from sorry_lan.i18n import _

from ..textfit import wrap
from .parts import MIN_COLS, MIN_ROWS, Parts, size, text_window


def message(cols: int, rows: int) -> StyleAndTextTuples:
    """The message for a terminal of ``cols`` x ``rows``, wrapped to its width."""
    lines = [
        _("Terminal too small: {cols}x{rows}.").format(cols=cols, rows=rows),
        _("sorry-lan needs at least {cols}x{rows}: enlarge the window.").format(
            cols=MIN_COLS, rows=MIN_ROWS
        ),
        _("(q leaves)"),
    ]
    text = [wrap(line, max(1, cols - 1)) for line in lines]
    return [
        ("class:too-small", "\n".join(text[0]) + "\n"),
        ("", "\n".join(text[1]) + "\n"),
        ("", "\n".join(text[2])),
    ]


def build(parts: Parts) -> Window:
    return text_window(parts.plain(lambda: message(*size())))
