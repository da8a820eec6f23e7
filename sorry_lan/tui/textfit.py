"""Fitting text into a fixed number of terminal columns: word wrap and ellipsis clipping.

Widths are terminal cells (a wide character counts two), measured by
:mod:`sorry_lan.tui.cells`: as prompt_toolkit draws them, and cut only between
grapheme clusters (a Thai tone mark or a Hindi vowel sign stays with its letter).
:func:`wrap` breaks at spaces and only cuts a word that is longer than a whole line;
:func:`clip` shortens a line that does not fit and ends it with an ellipsis, so a cut
is never silent; :func:`paragraphs` undoes the line breaks of text broken for another
width (a catalog's message broken for a wide terminal), so that it is wrapped once.
Nothing here draws or knows about screens.
"""

from __future__ import annotations

from . import cells

ELLIPSIS = cells.ELLIPSIS
ASCII_ELLIPSIS = "..."


def width(text: str) -> int:
    """Columns ``text`` takes on a terminal (the most any terminal gives it)."""
    return cells.room(text)


def _cut(text: str, cols: int) -> tuple[str, str]:
    """The longest head of ``text`` (whole grapheme clusters) that fits ``cols`` columns,
    and the rest."""
    used = 0
    at = 0
    for cluster in cells.graphemes(text):
        used += cells.room(cluster)
        if used > cols:
            break
        at += len(cluster)
    return text[:at], text[at:]


def clip(text: str, cols: int, ellipsis: str = ELLIPSIS) -> str:
    """``text`` if it fits ``cols`` columns, else its head and ``ellipsis`` in ``cols``."""
    if cols <= 0:
        return ""
    if width(text) <= cols:
        return text
    if cols - width(ellipsis) <= 0:
        return _cut(ellipsis, cols)[0]
    return cells.clip(text, cols, ellipsis)


def pad(text: str, cols: int, ellipsis: str = ELLIPSIS) -> str:
    """``text`` clipped to ``cols`` columns and padded with spaces to fill them."""
    cut = clip(text, cols, ellipsis)
    return cut + " " * max(0, cols - width(cut))


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
                if not head:  # a cluster wider than the room left: it goes on alone
                    head = cells.graphemes(word)[0]
                    word = word[len(head) :]
                out.append(line + head)
                line = rest
            line += word
            has_word = bool(word)
        out.append(line)
    return out


_SENTENCE_ENDS = (".", ":", "?", "!", ";", "\u037e", "\u0964")  # also Greek ;  Hindi ।


def paragraphs(text: str) -> list[str]:
    """``text``'s lines put back into the paragraphs they were broken from: a line
    joins the one before it unless that one ends a sentence (or a list's colon), or
    either is indented (a command to type, shown as it is) or empty."""
    out: list[str] = []
    joinable = False
    for line in text.split("\n"):
        indented = line[:1].isspace()
        if joinable and line.strip() and not indented:
            out[-1] += " " + line.strip()
        else:
            out.append(line.rstrip() if indented else line.strip())
        stripped = line.rstrip()
        joinable = bool(stripped) and not indented and not stripped.endswith(_SENTENCE_ENDS)
    return out
