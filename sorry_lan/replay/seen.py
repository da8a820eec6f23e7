"""A tape from what one client was told of a game: its snapshots, events and result.

A host that sends no game record (protocol version 2, or a record not arrived) still
told every player each move as ``events``.  :class:`Seen` takes the host's messages
as a client reads them (``lobby``, ``snapshot``, ``events``, ``over``; others are
passed over) and keeps the game as turn entries shaped as a record writes them
(``protocol/RECORD.md``: who, the card, the kind, the parts with slides and bumps; a
lost turn, a reshuffle), each with the board after it, so that the replay screen
shows them as it shows a record's.  A snapshot of a new game starts a new tape; one
that does not follow the board held (a client that was away, or joined late) starts
one that says it is not the whole game (``Tape.whole`` False, turns counted from
there); so does a game whose first turns were lost before the first move (the host
tells them in no ``events``; they are counted, from the discard pile, and numbered
past).  The host is trusted: nothing is checked against the rules here (the client
model checks each ``events``).

Pure: no I/O; the client controller feeds it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sorry_lan.records.entries import PAWNS, PLACES, colour_word
from sorry_lan.rules import START, Card
from sorry_lan.wire import messages as m
from sorry_lan.wire.apply import apply_events
from sorry_lan.wire.records import EventKind, EventTuple

from .tape import Step, Tape

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


class Seen:
    """The game this client is being told, as a tape; see the module docstring."""

    def __init__(self) -> None:
        self._names: dict[int, str] = {}
        self._bots: frozenset[int] = frozenset()
        self._snapshot: m.Snapshot | None = None
        self._whole = False
        self._before = 0  # turns of the game before the tape's first (0: unknown, or none)
        self._first: int | None = None
        self._pawns: tuple[int, ...] = ()
        self._steps: list[Step] = []
        self._over: m.GameOver | None = None

    def take(self, msg: object) -> None:
        """One message from the host, as the client read it."""
        match msg:
            case m.Lobby():
                seated = [p for p in msg.players if p.colour is not None]
                self._names = {int(p.colour): p.name for p in seated}  # type: ignore[arg-type]
                self._bots = frozenset(int(p.colour) for p in seated if p.bot)  # type: ignore[arg-type]
            case m.Snapshot():
                self._snapshot_of(msg)
            case m.Events() if self._snapshot is not None:
                self._events(msg)
            case m.GameOver() if self._snapshot is not None:
                self._over = msg
            case _:
                pass

    def _snapshot_of(self, snap: m.Snapshot) -> None:
        pawns = tuple(snap.pawns)
        fresh = pawns == snap.variant.rules.initial_pawns(tuple(int(c) for c in snap.colours))
        held = self._snapshot is not None and self._over is None and pawns == self._pawns
        if held and not (fresh and self._steps):
            return  # the same game again (a reconnection that missed nothing)
        self._snapshot, self._over = snap, None
        # Turns lost before the first decision are not told (the snapshot comes after
        # them): each put its card on the discard pile, so they are counted.
        self._before = snap.discards if fresh else 0
        self._whole = fresh and snap.discards == 0
        self._first = None if snap.turn is None or not self._whole else int(snap.turn)
        self._pawns = pawns
        self._steps = []

    def _events(self, msg: m.Events) -> None:
        snap = self._snapshot
        assert snap is not None
        seated = tuple(int(c) for c in snap.colours)
        points = snap.variant.rules.scores_points
        pawns = self._pawns
        colour = None if msg.colour is None else int(msg.colour)
        for entry in entries_of(msg.events, msg.notation, colour):
            if entry["type"] == "move":
                pawns = apply_events(pawns, msg.events)
            entry = {"n": self._before + len(self._steps) + 1, **entry}
            scores = snap.variant.rules.scores(pawns, seated, None) if points else {}
            self._steps.append(Step(entry, pawns, scores))
        self._pawns = apply_events(self._pawns, msg.events)

    def tape(self) -> Tape | None:
        """The game seen so far (None: no game seen)."""
        snap = self._snapshot
        if snap is None:
            return None
        seated = tuple(int(c) for c in snap.colours)
        over = self._over
        winners = () if over is None else tuple(int(c) for c in over.winners)
        points: dict[int, int] = {}
        steps = list(self._steps)
        if over is not None and over.scores is not None and snap.variant.rules.scores_points:
            points = {c: s for c, s in enumerate(over.scores) if c in seated}
            if steps:
                steps[-1] = Step(steps[-1].entry, steps[-1].pawns, points)
        return Tape(
            variant=snap.variant,
            seated=seated,
            names=dict(self._names),
            bots=self._bots,
            start=tuple(snap.pawns),
            steps=tuple(steps),
            first=self._first,
            winners=winners,
            points=points,
            whole=self._whole,
        )
