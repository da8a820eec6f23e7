"""Display width of text in terminal cells, counted as prompt_toolkit's renderer counts.

:func:`width` is the renderer's count (``prompt_toolkit.utils.get_cwidth``: the sum of
each code point's ``wcwidth``, none below 0), so a layout computed with it agrees with
where prompt_toolkit puts the cursor.  Text is cut only between grapheme clusters (UAX
#29, as ``wcwidth.iter_graphemes`` splits them): a Thai tone mark, a Devanagari conjunct
or an accent never loses its base letter.

Unsteady text.  For some clusters terminals disagree on the width: a Devanagari vowel
sign such as ``ि`` counts 0 for the renderer and 1 in most terminals, an emoji ZWJ
family 6 and 2.  A cluster is *unsteady* when the renderer's count differs from the
sequence-aware count (``wcwidth.width``).  After unsteady text the terminal's cursor may
stand a cell or two away from where the renderer believes, and everything drawn later
on that row lands shifted; the next row starts clean (the renderer moves there with a
carriage return).  So the rule is: **unsteady text ends its row** (:func:`tail_field`),
and a place in the middle of a row shows it only in :func:`steady_field` form (the
unsteady clusters replaced by their base letters); clipping reserves the larger of the
two counts so clipped text fits whichever the terminal uses.

Spacing marks.  ``wcwidth`` gives a spacing combining mark (Unicode category ``Mc``: the
Devanagari vowel signs ``ा ि ी ो``, ...) no cell, while the C library's ``wcwidth`` that
tmux, xterm, VTE and the Linux console use gives it one: every Hindi word would put the
rest of its row off by a cell or more.  So each such mark counts one cell here, and
:mod:`sorry_lan.tui.renderer` tells prompt_toolkit's renderer the same before a screen
is drawn: the renderer and those terminals agree on Hindi text, and a word in the middle
of a row no longer moves what follows.

This module draws nothing and does not import prompt_toolkit: the commands that print
lines (``rules``, ``games``, ``join --text``) measure with it too.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Sequence
from typing import Any, TypeVar

from wcwidth import iter_graphemes
from wcwidth import wcwidth as char_width
from wcwidth import width as sequence_width

ELLIPSIS = "…"
F = TypeVar("F", bound=tuple[Any, ...])
#: The scripts whose spacing marks count one cell (the languages shipped, and their
#: neighbours that write the same way): Devanagari to Sinhala, Thai, Lao, Tibetan,
#: Myanmar.
_MARK_BLOCKS = ((0x0900, 0x0DFF), (0x0E00, 0x0EFF), (0x0F00, 0x109F))


def spacing_marks() -> list[str]:
    """Every spacing combining mark (``Mc``) of :data:`_MARK_BLOCKS`."""
    return [
        chr(cp)
        for lo, hi in _MARK_BLOCKS
        for cp in range(lo, hi + 1)
        if unicodedata.category(chr(cp)) == "Mc"
    ]


class _CharCells(dict[str, int]):
    """Cells per code point, each counted once: its ``wcwidth``, none below 0 (a control
    character counts -1 there), a spacing mark of :data:`_MARK_BLOCKS` one."""

    def __missing__(self, char: str) -> int:
        count = max(0, char_width(char))
        self[char] = count
        return count


_CHAR_CELLS = _CharCells(dict.fromkeys(spacing_marks(), 1))


@functools.lru_cache(maxsize=4096)
def width(text: str) -> int:
    """Columns the renderer gives ``text``."""
    return sum(_CHAR_CELLS[char] for char in text)


def graphemes(text: str) -> list[str]:
    """``text`` split into grapheme clusters."""
    return list(iter_graphemes(text))


def _cluster_steady(cluster: str) -> bool:
    return len(cluster) == 1 or width(cluster) == sequence_width(cluster)


def steady(text: str) -> bool:
    """True when every terminal is expected to give ``text`` the renderer's width."""
    return all(_cluster_steady(c) for c in iter_graphemes(text))


@functools.lru_cache(maxsize=4096)
def room(text: str) -> int:
    """The most cells ``text`` can take: the larger of the renderer's and the terminals'."""
    return sum(max(width(c), sequence_width(c)) for c in iter_graphemes(text))


def clip(text: str, cols: int, ellipsis: str = ELLIPSIS) -> str:
    """``text`` if it fits ``cols`` cells, else its head and ``ellipsis`` within ``cols``.

    It cuts between grapheme clusters only and measures each cluster by :func:`room`."""
    if cols <= 0:
        return ""
    if room(text) <= cols:
        return text
    budget = cols - width(ellipsis)
    if budget < 0:
        return ""
    head: list[str] = []
    used = 0
    for cluster in iter_graphemes(text):
        w = max(width(cluster), sequence_width(cluster))
        if used + w > budget:
            break
        head.append(cluster)
        used += w
    return "".join(head).rstrip() + ellipsis


def pad(text: str, cols: int) -> str:
    """``text`` clipped to ``cols`` and padded with spaces to exactly ``cols`` cells."""
    cut = clip(text, cols)
    return cut + " " * max(0, cols - width(cut))


def _base(cluster: str) -> str:
    """A cluster's steady stand-in: its code points without combining signs or joiners."""
    kept = "".join(
        ch
        for ch in cluster
        if not unicodedata.category(ch).startswith("M") and ch not in "\u200c\u200d\ufe0e\ufe0f"
    )
    kept = "".join(ch for ch in kept if width(ch) > 0)[:1]
    return kept or "?"


def steady_form(text: str) -> str:
    """``text`` with each unsteady cluster replaced by its first base letter.

    For a place in the middle of a row: the result has the same width in every
    terminal, so what follows it stays in its column."""
    return "".join(c if _cluster_steady(c) else _base(c) for c in iter_graphemes(text))


def _ends_zero_width(text: str) -> bool:
    return bool(text) and width(text[-1]) == 0 and text[-1] != "\n"


def seal_line_ends(fragments: Sequence[F]) -> list[F]:
    """``fragments`` with a space after every line that ends in a zero-width sign.

    prompt_toolkit's window puts a zero-width character in the cell after its base
    letter as well as joining it to that letter; the next character overwrites that
    cell, but at the end of a line nothing does, and the sign is drawn a second time
    (Hindi ``है`` as ``हैै``) in a cell the terminal does not advance over.  A space
    after such a line end overwrites it."""
    out = list(fragments)
    for i, frag in enumerate(out):
        text = frag[1]
        lines = text.split("\n")
        sealed = [line + " " if _ends_zero_width(line) else line for line in lines[:-1]]
        last = lines[-1]
        line_end = i + 1 == len(out) or out[i + 1][1].startswith("\n")
        sealed.append(last + " " if line_end and _ends_zero_width(last) else last)
        new = "\n".join(sealed)
        if new != text:
            out[i] = (frag[0], new, *frag[2:])  # type: ignore[assignment]
    return out


def steady_field(text: str, cols: int) -> str:
    """A fixed-width field in the middle of a row: steady, clipped, padded to ``cols``."""
    return pad(steady_form(text), cols)


def tail_field(text: str, cols: int) -> str:
    """The last field of a row: kept as written (unsteady or not) and clipped to ``cols``."""
    return clip(text, cols)
