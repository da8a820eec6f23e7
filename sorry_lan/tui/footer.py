"""The bottom bar's key hints, in the player's language, fitted to the terminal's width.

:func:`footer_hints` lists the keys of the screen on show as (key, word, rank) hints;
:func:`fit_hints` joins them into one line of at most ``cols`` columns, leaving out
the hints of lowest rank first (``? help`` stays: the help names every key), so a
language with long words loses a hint rather than showing half of one.  Widths are
display widths (:mod:`.textfit`).  Nothing here draws or reads keys.
"""

from __future__ import annotations

from typing import NamedTuple

from sorry_lan.i18n import pgettext

from .state import Link, Screen, UiState
from .textfit import width

#: The key that changes the language (the find screen and the lobby).
LANGUAGE_KEY = "g"


class Hint(NamedTuple):
    key: str
    word: str
    rank: int  # the lower, the longer it stays when the bar is short of room


def footer_hints(st: UiState) -> list[Hint]:
    """The key hints for the screen on show, in the order the bar shows them."""
    help_ = Hint("?", pgettext("key", "help"), 0)
    leave = Hint("q", pgettext("key", "leave"), 1)
    chat = Hint("t", pgettext("key", "chat"), 4)
    language = Hint(LANGUAGE_KEY, pgettext("key", "language"), 3)
    if st.link is Link.LOST and st.screen is not Screen.FIND:
        return [Hint("r", pgettext("key", "rejoin"), 1), help_, leave]
    if st.screen is Screen.FIND:
        return [
            Hint("↑↓", pgettext("key", "choose"), 2),
            Hint("Enter", pgettext("key", "join"), 1),
            Hint("Tab", pgettext("key", "fields"), 5),
            language,
            help_,
            Hint("q", pgettext("key", "quit"), 1),
        ]
    if st.spectating:
        hints = [Hint("", pgettext("key", "watching"), 6), chat, help_, leave]
        if st.screen is Screen.LOBBY:
            return [*hints[:1], language, *hints[1:]]
        return [*hints[:1], Hint("PgUp/PgDn", pgettext("key", "log"), 5), *hints[1:]]
    if st.screen is Screen.LOBBY:
        colour = Hint("1-4", pgettext("key", "colour"), 2)
        ready = Hint("space", pgettext("key", "ready"), 2)
        if st.is_host:
            return [
                colour,
                ready,
                Hint("a/x/l", pgettext("key", "bot"), 6),
                Hint("v", pgettext("key", "variant"), 6),
                Hint("s", pgettext("key", "start"), 2),
                language,
                help_,
                Hint("q", pgettext("key", "quit"), 1),
            ]
        return [colour, ready, chat, language, help_, leave]
    if st.screen is Screen.OVER:
        return [
            Hint("r", pgettext("key", "rematch"), 2),
            Hint("PgUp/PgDn", pgettext("key", "log"), 5),
            chat,
            help_,
            leave,
        ]
    choose = Hint("↑↓/1-9", pgettext("key", "choose"), 2)
    if st.split is not None:
        return [
            choose,
            Hint("Enter", pgettext("key", "play"), 1),
            Hint("Esc/←", pgettext("key", "back"), 1),
            help_,
            leave,
        ]
    if st.menu.has_splits:
        return [choose, Hint("Enter", pgettext("key", "play/open →"), 1), chat, help_, leave]
    return [choose, Hint("Enter", pgettext("key", "play"), 1), chat, help_, leave]


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
