"""What became of the asks to trade colours (protocol version 6), as sentences.

:func:`swap_news` compares two lobbies' asks as one seat sees them: an ask made to it,
its own ask sent, answered or dropped, an ask to it taken back; other people's asks
are not news.  :func:`ask_note` is the standing line a board shows while an ask waits.
Pure: it sends nothing and reads no keys; who may answer is the host's to judge.
"""

from __future__ import annotations

from collections.abc import Mapping

from sorry_lan.i18n import _, words

from .sentences import sentence
from .state import RosterEntry

Swaps = tuple[tuple[int, int], ...]


def _colour(entry: RosterEntry | None) -> str:
    return "" if entry is None or entry.colour is None else words.colour_name(entry.colour).lower()


def swap_news(
    old: Swaps, old_roster: Mapping[int, RosterEntry], new: Swaps,
    new_roster: Mapping[int, RosterEntry], you: int | None, answered: int | None = None,
) -> list[str]:
    """Sentences for the asks that involve ``you`` (a pid) and changed from ``old``
    to ``new`` (each with its roster: a player who left is named as before); the ask
    of ``answered``, which ``you`` answered, goes without a word."""
    if you is None:
        return []
    lines: list[str] = []

    def name(pid: int) -> str:
        entry = new_roster.get(pid) or old_roster.get(pid)
        return "?" if entry is None else entry.name

    def traded(one: int, other: int) -> bool:
        before = [old_roster.get(one), old_roster.get(other)]
        now = [new_roster.get(other), new_roster.get(one)]
        return None not in before and None not in now and (
            [e.colour for e in before] == [e.colour for e in now])  # type: ignore[union-attr]

    for asker, asked in old:
        if (asker, asked) in new:
            continue
        if asker == you:
            text = (_("{name} traded colours with you") if traded(asker, asked)
                    else _("{name} kept their colour: no trade"))
            lines.append(sentence(text, name=name(asked)))
        elif asked == you and asker != answered and not traded(asker, asked):
            lines.append(sentence(_("{name} no longer asks to trade colours with you"),
                                  name=name(asker)))
    for asker, asked in new:
        if (asker, asked) in old:
            continue
        if asked == you:
            lines.append(sentence(
                _("{name} asks to trade colours with you: you would play {colour}"),
                name=name(asker), colour=_colour(new_roster.get(asker))))
        elif asker == you:
            lines.append(sentence(_("You asked {name} to trade colours; waiting for an answer"),
                                  name=name(asked)))
    return lines


def ask_note(swaps: Swaps, roster: Mapping[int, RosterEntry], you: int | None) -> str:
    """The board's standing line about an ask that involves ``you`` ("" for none)."""
    for asker, asked in swaps:
        if asked == you:
            entry = roster.get(asker)
            return _("{name} asks to trade colours with you (you would play {colour}): "
                     "y accepts, n declines.").format(
                name="?" if entry is None else entry.name, colour=_colour(entry))
        if asker == you:
            entry = roster.get(asked)
            return _("You asked {name} to trade colours; w takes the ask back.").format(
                name="?" if entry is None else entry.name)
    return ""
