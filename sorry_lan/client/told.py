"""The turn entries of one ``events`` message, read from its events alone.

What the game so far (``client.so_far``) writes down when the rules engine cannot
find the move told (a board it does not hold, a bug): the entry a record writes,
shaped from the events (who, the card, the kind, the parts with slides and bumps; a
lost turn, a reshuffle), without checking them against the rules (the host is
trusted).  Pure; it words nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sorry_lan.records.entries import PAWNS, PLACES, colour_word
from sorry_lan.rules import START, Card
from sorry_lan.wire.records import EventKind, EventTuple

Entry = dict[str, Any]


def _part(pawn: int, frm: int, to: int) -> Entry:
    return {"pawn": PAWNS[pawn], "from": PLACES[frm], "to": PLACES[to], "end": PLACES[to],
            "bumps": []}  # fmt: skip


def _kind(card: int, parts: Sequence[Entry], sorry: bool) -> str:
    if sorry:
        return "sorry"
    if not parts:
        return "decline"
    if len(parts) == 2:
        return "swap" if card == Card.ELEVEN else "split"
    return "simple"


def entries_of(
    events: Sequence[EventTuple], notation: str = "", colour: int | None = None
) -> list[Entry]:
    """The turn entries (numbers not yet given) of one ``events`` message (``colour``:
    the message's, who made its decision; its first event a TURN_LOST is a declined
    11, SPEC section 3)."""
    out: list[Entry] = []
    move: Entry | None = None
    parts: list[Entry] = []
    touched: Entry | None = None  # the part whose pawn moved or slid last: its bumps

    def finish() -> None:
        nonlocal move
        if move is None:
            return
        sorry = move["card"] == "sorry" and len(parts) == 2 and parts[1]["to"] == "start"
        move["kind"] = _kind(Card.parse(move["card"]), parts, sorry)
        move["parts"] = parts[:]
        if sorry or move["kind"] == "swap":
            move["target"] = parts[1]["pawn"]
        out.append(move)
        move = None

    def by_pawn(pawn: int) -> Entry | None:
        return next((p for p in parts if p["pawn"] == PAWNS[pawn]), None)

    for i, ev in enumerate(events):
        kind = ev[0]
        if kind == EventKind.PLAY:
            finish()
            parts.clear()
            move = {"type": "move", "who": colour_word(ev[1]), "card": Card(ev[2]).label,
                    "notation": notation}  # fmt: skip
        elif kind == EventKind.MOVE and move is not None:
            touched = _part(ev[1], ev[2], ev[3])
            parts.append(touched)
        elif kind == EventKind.SLIDE and by_pawn(ev[1]) is not None:
            touched = by_pawn(ev[1])
            touched["end"] = PLACES[ev[3]]  # type: ignore[index]
        elif kind == EventKind.BUMP and move is not None:
            mover = parts[0] if parts else None
            if move["card"] == "sorry" and len(parts) == 1 and mover is not None \
                    and mover["to"] == PLACES[ev[2]] and not mover["bumps"]:  # fmt: skip
                parts.append(_part(ev[1], ev[2], START))  # the Sorry!'s target
            elif touched is not None:
                touched["bumps"].append(PAWNS[ev[1]])
        elif kind == EventKind.TURN_LOST and i == 0 and colour is not None:
            out.append({"type": "move", "who": colour_word(ev[1]), "card": Card(ev[2]).label,
                        "kind": "decline", "notation": notation, "parts": []})  # fmt: skip
        elif kind == EventKind.DISCARD:
            finish()
            out.append({"type": "move", "who": colour_word(ev[1]), "card": Card(ev[2]).label,
                        "kind": "discard", "notation": notation, "parts": []})  # fmt: skip
        elif kind == EventKind.TURN_LOST:
            finish()
            out.append({"type": "lost", "who": colour_word(ev[1]), "card": Card(ev[2]).label})
        elif kind == EventKind.RESHUFFLE:
            finish()
            out.append({"type": "reshuffle", "cards": ev[1]})
    finish()
    return out
