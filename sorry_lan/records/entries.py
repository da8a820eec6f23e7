"""The pieces of a game record: how it spells colours, cards, pawns and squares, and
the turn entries the rules engine's events become.

:func:`entries_of` turns the events of one step of a game (its start, or a move and
whatever followed until the next decision) into turn entries: a ``move`` (who, the
card, the move in the rules notation and in parts), a ``lost`` turn, a ``reshuffle``.
Both the writer (``build``) and the checker (``check``) use it, so a record written
by this program and the game replayed from it agree entry for entry.

:class:`RecordError` is every record failure, told by a
:class:`~sorry_lan.codes.RecordFailure` code.  Nothing here reads or writes files.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from sorry_lan.codes import Coded
from sorry_lan.rules import (
    CardDrawn,
    Colour,
    Event,
    Move,
    MoveKind,
    MovePlayed,
    Reshuffled,
    TurnLost,
    pawn_label,
)
from sorry_lan.rules.board import NUM_LOCATIONS, NUM_PAWNS
from sorry_lan.rules.cards import Card
from sorry_lan.rules.notation import layout_json, location_json

FORMAT = "sorry-lan game record"
VERSION = 3
#: Every format version this program reads (version 2 adds the ``cover`` and ``back``
#: table events, bots' strength from the table and exact end times; version 3 the
#: game's identity: ``tid``, ``game`` and ``hosts``).
VERSIONS = (1, 2, 3)

Entry = dict[str, Any]

KIND_WORDS = {
    MoveKind.SIMPLE: "simple",
    MoveKind.SPLIT: "split",
    MoveKind.SWAP: "swap",
    MoveKind.SORRY: "sorry",
    MoveKind.DECLINE: "decline",
    MoveKind.DISCARD: "discard",
}


#: Each pawn's and each place's spelling, looked up (a record spells thousands).
PAWNS: tuple[str, ...] = tuple(pawn_label(p) for p in range(NUM_PAWNS))
PLACES: tuple[int | str, ...] = tuple(location_json(loc) for loc in range(NUM_LOCATIONS))


class RecordError(Coded):
    """A record that cannot be read, or that does not replay: a
    :class:`~sorry_lan.codes.RecordFailure` with its fields."""


_COLOURS = tuple(c.label for c in Colour)


def colour_word(colour: int) -> str:
    return _COLOURS[colour]


_CARD_WORDS = {int(c): c.label for c in Card}


def card_word(card: int) -> str:
    if type(card) is int or type(card) is Card:
        word = _CARD_WORDS.get(card)
        if word is not None:
            return word
    return Card(card).label


def move_entry(who: int, move: Move) -> Entry:
    """A move: the card, its kind, the rules notation and each pawn's part (the second
    part of a swap or a Sorry! is its target's)."""
    entry: Entry = {
        "type": "move",
        "who": colour_word(who),
        "card": card_word(move.card),
        "kind": KIND_WORDS[move.kind],
        "notation": move.notation(),
        "parts": [
            {
                "pawn": PAWNS[p.pawn],
                "from": PLACES[p.frm],
                "to": PLACES[p.to],
                "end": PLACES[p.end],
                "bumps": [PAWNS[q] for q in p.bumps],
            }
            for p in move.parts
        ],
    }
    if move.kind in (MoveKind.SWAP, MoveKind.SORRY):
        entry["target"] = PAWNS[move.parts[1].pawn]
    return entry


def entries_of(events: Iterable[Event], draws: list[str] | None = None) -> list[Entry]:
    """The turn entries of ``events`` (numbers not yet given); each card drawn is
    appended to ``draws`` if given."""
    out: list[Entry] = []
    for ev in events:
        if isinstance(ev, MovePlayed):
            out.append(move_entry(ev.player, ev.move))
        elif isinstance(ev, TurnLost):
            out.append({"type": "lost", "who": colour_word(ev.player), "card": card_word(ev.card)})
        elif isinstance(ev, Reshuffled):
            out.append({"type": "reshuffle", "cards": ev.cards})
        elif isinstance(ev, CardDrawn) and draws is not None:
            draws.append(card_word(ev.card))
    return out


def board(pawns: Sequence[int], seated: Sequence[int]) -> dict[str, list[int | str]]:
    """Where every seated colour's pawns are, as the record writes the final board."""
    return layout_json(pawns, seated)


def result(winner: int | None, winners: Sequence[int], points: dict[int, int]) -> Entry | None:
    """The result of a finished game (None: not finished)."""
    if winner is None:
        return None
    return {
        "winner": colour_word(winner),
        "winners": [colour_word(c) for c in winners],
        "points": {colour_word(c): n for c, n in sorted(points.items())},
    }
