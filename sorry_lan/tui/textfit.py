"""Fitting text into a fixed number of terminal columns: word wrap and ellipsis clipping.

Widths are terminal cells (a wide character counts two), as prompt_toolkit draws them.
:func:`wrap` breaks at spaces and only cuts a word that is longer than a whole line;
:func:`clip` shortens a line that does not fit and ends it with an ellipsis, so a cut
is never silent.  Nothing here draws or knows about screens.
"""

from __future__ import annotations

from prompt_toolkit.utils import get_cwidth

ELLIPSIS = "…"
ASCII_ELLIPSIS = "..."


def width(text: str) -> int:
    """Columns ``text`` takes on a terminal."""
    return get_cwidth(text)


def _cut(text: str, cols: int) -> tuple[str, str]:
    """The longest head of ``text`` that fits ``cols`` columns, and the rest."""
    used = 0
    for i, ch in enumerate(text):
        used += get_cwidth(ch)
        if used > cols:
            return text[:i], text[i:]
    return text, ""


def clip(text: str, cols: int, ellipsis: str = ELLIPSIS) -> str:
    """``text`` if it fits ``cols`` columns, else its head and ``ellipsis`` in ``cols``."""
    if cols <= 0:
        return ""
    if width(text) <= cols:
        return text
    room = cols - width(ellipsis)
    if room <= 0:
        return _cut(ellipsis, cols)[0]
    return _cut(text, room)[0].rstrip() + ellipsis


def wrap(text: str, cols: int, first: str = " ", rest: str = "   ") -> list[str]:
    """``text`` broken at spaces into lines of at most ``cols`` columns.

    Every line starts with ``first`` (the first) or ``rest`` (the others); a word longer
    than a line is cut where the line ends.  Newlines in ``text`` start new lines."""
    out: list[str] = []
    for para in text.split("\n"):
        line = first if not out else rest
        has_word = False
        for word in para.split(" "):
            if not word:
                continue
            sep = " " if has_word else ""
            if width(line) + width(sep) + width(word) <= cols:
                line += sep + word
                has_word = True
                continue
            if has_word:
                out.append(line)
                line = rest
            while width(line) + width(word) > cols and cols > width(line):
                head, word = _cut(word, cols - width(line))
                out.append(line + head)
                line = rest
            line += word
            has_word = bool(word)
        out.append(line)
    return out
