"""The help overlay's text: the keys of the screen on show and the rules of the variant.

:func:`help_text` picks the sections for a :class:`UiState`: the help lines of the
table up (:mod:`.screens.tables`; a watcher's says it in a sentence; the rules view's
while it is up), where the whole rules are (``r``), the rules in short, and the
variant's own (its heading and description in the registry), in the player's
language, and lays them out for a box ``cols`` columns wide: each key line
is the keys, padded to a column as wide as the widest keys of the section (by display
width), then what they do, wrapped under itself.  Plain text only: the help overlay
draws the box and scrolls it; nothing here reads keys.
"""

from __future__ import annotations

from sorry_lan.i18n import _

from .commands import help_lines, say
from .screens.tables import help_table
from .state import UiState
from .textfit import pad, width, wrap

Keys = list[tuple[str, str]]  # (keys, what they do)


def _keys_section(title: str, keys: Keys, cols: int) -> list[str]:
    """A titled list of keys: the keys in a column, what they do wrapped beside them."""
    key_cols = min(max(width(k) for k, _what in keys) + 2, max(8, cols // 3))
    lines = [title]
    for key, what in keys:
        indent = " " * (2 + key_cols)
        body = wrap(what, max(10, cols - 2 - key_cols), first="", rest="")
        lines.append("  " + pad(key, key_cols) + body[0])
        lines += [indent + more for more in body[1:]]
    return lines


def _text_section(title: str, text: str, cols: int) -> list[str]:
    return [title, *wrap(text, cols, first="  ", rest="  ")]


def help_text(st: UiState, cols: int = 70) -> str:
    """The help for the screen on show (and the rules of the variant being played),
    laid out for ``cols`` columns."""
    table = help_table(st)
    title = table.title() if table.title is not None else ""
    if table.about is not None:
        parts = [_text_section(title, table.about(), cols)]
    else:
        keys = [(say(h.keys), h.what()) for _c, h in help_lines(table, st)]
        parts = [_keys_section(title, keys, cols)]
    if not st.rules_visible:
        whole = _("r: the whole rules of this game, to scroll through (Esc comes back).")
        parts.append(wrap(whole, cols, first="", rest="  "))
    if table.rules:
        rules = _(
            "Draw a card, move one pawn; you must move if you can. 1 or 2 leaves START; "
            "a 2 draws again. 4 goes back 4; 10 is 10 forward or 1 back; 7 may be split "
            "between two pawns; 11 moves 11 or swaps with an opponent; Sorry! takes a pawn "
            "from START onto an opponent, who goes back. Land on an opponent: it goes back "
            "to START. Stop on another colour's triangle: slide, bumping all on it. Exact "
            "count to reach HOME. All four HOME wins."
        )
        parts.append(_text_section(_("Rules in short"), rules, cols))
        variant = st.variant.rules
        if variant.description:  # its words are marked for the catalogs in rules/variants.py
            parts.append(_text_section(_(variant.heading), _(variant.description), cols))
    return "\n\n".join("\n".join(lines) for lines in parts)
