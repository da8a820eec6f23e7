"""A game to replay: who sat where, and every turn with the board after it.

:func:`from_record` checks a game record by replaying it through the rules engine
(``records.check``: a record that does not replay is refused with the turn and the
reason) and keeps, for each of its turns, the turn's entry as the record writes it
and the board the engine reached after it (and in play for points, the points).  A
:class:`Step` reads the parts a viewer is shown: who, the card, the pawns moved and
where they ended, the pawns bumped, whether it was a Sorry!.

Pure: it words nothing (``i18n.recordwords`` does) and opens no file.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from sorry_lan.records import check
from sorry_lan.rules import Card, Colour, Variant, parse_location, parse_pawn

Entry = Mapping[str, Any]


def _colour(word: object) -> int | None:
    try:
        return int(Colour.parse(str(word)))
    except ValueError:
        return None


@dataclass(frozen=True)
class Moved:
    """One pawn of a move: from where, to where it landed, where it ended (a slide)."""

    pawn: int
    frm: int
    to: int
    end: int
    bumps: tuple[int, ...]


@dataclass(frozen=True)
class Step:
    """One turn: its entry (``n``, ``type`` and the rest, as in a record) and the board
    after it (16 locations); ``scores``: each seated colour's points after it (play
    for points), else empty."""

    entry: Entry
    pawns: tuple[int, ...]
    scores: Mapping[int, int] = field(default_factory=dict)

    @property
    def n(self) -> int:
        return int(self.entry.get("n") or 0)

    @property
    def kind(self) -> str:
        """``move``, ``lost``, ``reshuffle``, ``seat`` or ``chat``."""
        return str(self.entry.get("type"))

    @property
    def who(self) -> int | None:
        """The colour that played (or whose seat or words these are)."""
        return _colour(self.entry.get("who", self.entry.get("colour")))

    @property
    def card(self) -> int | None:
        card = self.entry.get("card")
        return None if card is None else int(Card.parse(card))

    @cached_property
    def moved(self) -> tuple[Moved, ...]:
        """The pawns the move moved (a swap's and a Sorry!'s second is the other pawn)."""
        parts = self.entry.get("parts") if self.kind == "move" else None
        return tuple(
            Moved(
                parse_pawn(p["pawn"]),
                parse_location(p["from"]),
                parse_location(p["to"]),
                parse_location(p["end"]),
                tuple(parse_pawn(b) for b in p["bumps"]),
            )
            for p in parts or ()
        )

    @property
    def sorry(self) -> bool:
        return self.kind == "move" and self.entry.get("kind") == "sorry"

    @property
    def bumps(self) -> tuple[int, ...]:
        """The pawns sent back to START (a Sorry!'s target too)."""
        sent = [b for m in self.moved for b in m.bumps]
        if self.sorry and len(self.moved) > 1:
            sent.insert(0, self.moved[1].pawn)
        return tuple(sent)

    @property
    def marked(self) -> bool:
        """A Sorry! or a bump: where "the next Sorry! or bump" stops."""
        return self.sorry or bool(self.bumps)


@dataclass(frozen=True)
class Tape:
    """A game to replay: the table, the seats, the board at the start and every turn.

    ``winners`` is empty for a game not over; ``whole`` is False when the steps are
    what one client was told (it may have joined late; see :mod:`.seen`)."""

    variant: Variant
    seated: tuple[int, ...]
    names: Mapping[int, str]
    bots: frozenset[int]
    start: tuple[int, ...]
    steps: tuple[Step, ...]
    table: str | None = None
    first: int | None = None
    winners: tuple[int, ...] = ()
    points: Mapping[int, int] = field(default_factory=dict)
    whole: bool = True
    #: The record the tape was read from (None: what a client was told), for what
    #: replays the game again (the replay's hints).
    record: Entry | None = field(default=None, compare=False, repr=False)

    @property
    def over(self) -> bool:
        return bool(self.winners)

    def last_n(self) -> int:
        """The number of the last turn (0: none)."""
        return self.steps[-1].n if self.steps else 0


def _seats(record: Entry) -> tuple[dict[int, str], frozenset[int]]:
    names: dict[int, str] = {}
    bots: set[int] = set()
    for seat in record.get("seats") or ():
        colour = _colour(seat.get("colour")) if isinstance(seat, Mapping) else None
        if colour is None:
            continue
        names[colour] = str(seat.get("name") or "")
        if seat.get("player") == "bot":
            bots.add(colour)
    return names, frozenset(bots)


def from_record(record: Entry, path: str = "the record") -> Tape:
    """The tape of ``record``; :class:`~sorry_lan.records.RecordError` (the turn and
    the reason) if it does not replay through the rules."""
    checked = check(record, path)
    game = checked.game
    seated = game.seated
    points = game.rules.scores_points
    start = game.rules.initial_pawns(seated)
    steps = []
    for entry, pawns in zip(record["turns"], checked.boards, strict=True):
        scores = game.rules.scores(pawns, seated, None) if points else {}
        steps.append(Step(entry, pawns, scores))
    if steps and game.over and points:
        steps[-1] = Step(steps[-1].entry, steps[-1].pawns, dict(game.final_scores))
    names, bots = _seats(record)
    table = record.get("table")
    return Tape(
        variant=game.variant,
        seated=seated,
        names=names,
        bots=bots,
        start=start,
        steps=tuple(steps),
        table=None if table is None else str(table),
        first=game.first,
        winners=tuple(game.winners),
        points=dict(game.final_scores) if game.over else {},
        record=record,
    )


def marks(steps: Sequence[Step]) -> list[int]:
    """The indexes (from 1: after that step) of every Sorry! or bump."""
    return [i for i, step in enumerate(steps, 1) if step.marked]
