"""The help overlay's text: the keys of the screen on show and the rules of the variant.

:func:`help_text` picks the sections for a :class:`UiState` (find, lobby and the
host's lobby keys, watching, game, game over; the rules in short, and the variant's
own, its heading and description in the registry) in the player's language, and lays
them out for a box ``cols`` columns wide: each key line is the keys, padded to a column as
wide as the widest keys of the section (by display width), then what they do,
wrapped under itself.  Plain text only: the layout draws the box and scrolls it;
nothing here reads keys.
"""

from __future__ import annotations

from sorry_lan.i18n import _, words
from sorry_lan.rules.variants import VARIANTS

from .footer import LANGUAGE_KEY
from .state import Screen, UiState
from .textfit import pad, width, wrap

Keys = list[tuple[str, str]]  # (keys, what they do)


def _find_keys() -> Keys:
    return [
        (_("Up/Down"), _("choose a game found on the network")),
        ("Enter", _("join it (or the address typed below)")),
        ("Tab, Shift-Tab", _("move between the list and the fields")),
        (LANGUAGE_KEY, _("the next language (for the rest of this session)")),
        ("q", _("quit (Ctrl-C too)")),
    ]


def _variant_titles() -> str:
    return ", ".join(words.variant_title(name) for name in VARIANTS)


def _lobby_keys(host: bool) -> Keys:
    keys = [
        ("1-4", _("sit at that colour")),
        ("space", _("say you are ready (or not)")),
        ("t", _("chat (Enter sends, Esc closes)")),
        (LANGUAGE_KEY, _("the next language (for the rest of this session)")),
        ("q", _("leave (asks first; Ctrl-C twice leaves at once)")),
    ]
    if host:
        keys += [
            ("a / x", _("add a bot / remove one")),
            ("l", _("the newest bot's strength (each press: the next one)")),
            ("v", _("change the rules: {variants}").format(variants=_variant_titles())),
            ("s", _("start the game (free seats are left empty; team play fills them with bots)")),
        ]
    return keys


def _game_keys() -> Keys:
    return [
        (_("Up/Down") + ", j/k", _("choose a move (or click it)")),
        ("1-9, 10, 11 ...", _("choose move number N (type two digits quickly)")),
        ("Enter", _("play the chosen move")),
        ("Enter, ->, l", _("split 7: open a first part's second parts")),
        ("Esc, <-, h, Bksp", _("split 7: back to the first parts")),
        ("PgUp/PgDn, End", _("scroll the log back / forward / to the end")),
        ("L", _("the whole log in the board's place, and back")),
        ("b", _("bell on your turn: on / off")),
        ("t", _("chat (Enter sends, Esc closes)")),
        ("q", _("leave (asks first; Ctrl-C twice leaves at once)")),
        ("r", _("host lost: rejoin, keeping your seat")),
    ]


def _over_keys() -> Keys:
    return [
        ("r", _("ask for a rematch (it starts when every player asks)")),
        ("PgUp/PgDn, End", _("scroll the log of the game (L: all of it in the board's place)")),
        ("t", _("chat")),
        ("q", _("leave")),
    ]


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
    if st.screen is Screen.FIND:
        parts = [_keys_section(_("Find a game"), _find_keys(), cols)]
    elif st.spectating:
        text = _(
            "You have no seat: the board, the log and the chat are yours to follow.  "
            "PgUp/PgDn scroll the log (L shows all of it in the board's place), "
            "t chats, q leaves."
        )
        parts = [_text_section(_("Watching"), text, cols)]
    elif st.screen is Screen.LOBBY:
        parts = [_keys_section(_("Lobby"), _lobby_keys(st.is_host), cols)]
    elif st.screen is Screen.GAME:
        parts = [_keys_section(_("Keys"), _game_keys(), cols)]
    else:
        parts = [_keys_section(_("Game over"), _over_keys(), cols)]
    if st.screen is not Screen.FIND:
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
