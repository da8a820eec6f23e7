"""The bottom bar's key hints, in the player's language, fitted to the terminal's width.

:func:`footer_hints` lists the hints of the table up (:mod:`.screens.tables`) as
(key, word, rank), in the table's order; :func:`fit_hints` joins them into one line of
at most ``cols`` columns, leaving out the hints of lowest rank first (``? help``
stays: the help names every key), so a language with long words loses a hint rather
than showing half of one.  Widths are display widths (:mod:`.textfit`).  Nothing here
draws or reads keys.
"""

from __future__ import annotations

from typing import NamedTuple

from .commands import hints, say
from .screens.tables import footer_table
from .state import UiState
from .textfit import width


class Hint(NamedTuple):
    key: str
    word: str
    rank: int  # the lower, the longer it stays when the bar is short of room


def footer_hints(st: UiState) -> list[Hint]:
    """The key hints for the screen on show, in the order the bar shows them."""
    return [Hint(say(h.keys), h.word(), h.rank) for _c, h in hints(footer_table(st), st)]


def hint_text(hint: Hint) -> str:
    return f"{hint.key} {hint.word}" if hint.key else hint.word


def fit_hints(hints: list[Hint], cols: int) -> str:
    """The hints joined by two spaces in at most ``cols`` columns, dropping the ones of
    highest rank (the last of them first) until the rest fits; "" if none fits."""
    kept = list(hints)
    while kept:
        line = "  ".join(hint_text(h) for h in kept)
        if width(line) <= cols:
            return line
        worst = max(range(len(kept)), key=lambda i: (kept[i].rank, i))
        del kept[worst]
    return ""
