"""The ``board`` command's rows: where each colour's pawns are, in sentences.

Each pawn's place is counted one way (``sentences.place_words``: "40 from home"); an
opponent's pawn within a card's reach of one of the listener's says how far ahead or
behind it is.  Pure: it reads a position and names; it keeps no board.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sorry_lan.i18n import _, ngettext, pgettext, words
from sorry_lan.rules.board import HOME, START, TRACK_LEN, colour_pawns, is_safety, safety_entry

from .sentences import place_words as place
from .sentences import sentence


def pawn_row(pos: Sequence[int], colour: int, you: int | None, name: Callable[[int], str]) -> str:
    """Where ``colour``'s pawns are, one sentence ("Bob's pawns (blue): 2 pawns at start,
    pawn 3 at 40 from home, 3 squares ahead of your pawn 1, ..."); ``you``: the
    listener's colour, ``name``: a colour's player's name."""
    pawns = list(colour_pawns(colour))
    at_start = sum(1 for p in pawns if pos[p] == START)
    at_home = sum(1 for p in pawns if pos[p] == HOME)
    parts = []
    if at_start:
        parts.append(
            ngettext("{n} pawn at start", "{n} pawns at start", at_start).format(n=at_start)
        )
    for p in pawns:
        if pos[p] in (START, HOME):
            continue
        pawn = pgettext("pawn", "pawn {n}").format(n=(p & 3) + 1)
        where = place(colour, pos[p])
        near = _near(pos, you, p) if colour != you else None
        if near is None:
            parts.append(pgettext("board", "{pawn} at {where}").format(pawn=pawn, where=where))
        else:
            parts.append(
                pgettext("board", "{pawn} at {where}, {near}").format(
                    pawn=pawn, where=where, near=near
                )
            )
    if at_home:
        parts.append(ngettext("{n} pawn home", "{n} pawns home", at_home).format(n=at_home))
    listed = words.join_names(parts)
    hue = words.colour_name(colour).lower()
    if colour == you:
        return sentence(_("Your pawns ({colour}): {pawns}"), colour=hue, pawns=listed)
    return sentence(
        # i18n: {name} is a player's name: no gendered article or pronoun.
        _("{name}'s pawns ({colour}): {pawns}"),
        name=name(colour),
        colour=hue,
        pawns=listed,
    )


def _near(pos: Sequence[int], me: int | None, pawn: int) -> str | None:
    """How far another colour's pawn on the track is from the listener's nearest
    pawn on the track within a card's reach (ahead of it, or behind it)."""
    at = pos[pawn]
    if me is None or at >= TRACK_LEN:
        return None
    best: tuple[int, int, bool] | None = None  # (distance, my pawn, ahead?)
    for mine in colour_pawns(me):
        if pos[mine] >= TRACK_LEN or is_safety(pos[mine]):
            continue
        ahead = (at - pos[mine]) % TRACK_LEN
        behind = (pos[mine] - at) % TRACK_LEN
        turns_off = (safety_entry(me) - pos[mine]) % TRACK_LEN  # before my zone
        if 0 < ahead <= 12 and ahead <= turns_off and (best is None or ahead < best[0]):
            best = (ahead, mine, True)
        if 0 < behind <= 12 and (best is None or behind < best[0]):
            best = (behind, mine, False)
    if best is None:
        return None
    n, mine, ahead_of = best
    if ahead_of:
        text = ngettext(
            "{n} square ahead of your pawn {m}", "{n} squares ahead of your pawn {m}", n
        )
    else:
        text = ngettext("{n} square behind your pawn {m}", "{n} squares behind your pawn {m}", n)
    return text.format(n=n, m=(mine & 3) + 1)
