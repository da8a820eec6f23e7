"""A game's figures, counted from its turn entries: per colour the turns, Sorry!s,
slides and bumps.

The one count every reader shows (the board's game-over screen, the line mode, a
bot's summary, the replay): :class:`Figures` adds one record entry (``protocol/
RECORD.md``: a ``move`` or ``lost`` turn; others count nothing) at a time, so the
game so far (``client.so_far``) keeps the figures after each of its entries at no
cost, and a whole record is counted by :func:`count`.  Turns are moves, discards and
lost turns; bumps are the other colours' pawns a turn sent back (a Sorry!'s target
included).  It reads entries only: it neither words nor checks them (a malformed
entry raises ``KeyError``, ``TypeError`` or ``ValueError``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from sorry_lan.rules import Colour

FIELDS = ("turns", "sorry", "slides", "bumps")
_COLOURS = {c.label: int(c) for c in Colour}
_PAWN_COLOURS = {c.label[0].upper(): int(c) for c in Colour}
_NONE = ((0, 0, 0, 0),) * 4


@dataclass(frozen=True)
class Figures:
    """The figures of a game so far, per colour (0-3), in :data:`FIELDS` order."""

    counts: tuple[tuple[int, int, int, int], ...] = _NONE

    def of(self, colour: int, field: str) -> int:
        return self.counts[colour][FIELDS.index(field)]

    @property
    def turns(self) -> int:
        """Every colour's turns together."""
        return sum(c[0] for c in self.counts)

    def counters(self) -> dict[int, Counter[str]]:
        """Per colour a ``Counter`` of :data:`FIELDS` (as the board's screens read it)."""
        return {
            colour: Counter({f: n for f, n in zip(FIELDS, row, strict=True) if n})
            for colour, row in enumerate(self.counts)
        }

    def plus(self, entry: Mapping[str, Any]) -> Figures:
        """The figures with ``entry`` counted too."""
        kind = entry["type"]
        if kind not in ("move", "lost"):
            return self
        rows = [list(row) for row in self.counts]
        who = _COLOURS[entry["who"]]
        rows[who][0] += 1
        if kind == "move":
            sorry = entry["kind"] == "sorry"
            rows[who][1] += int(sorry)
            for i, part in enumerate(entry["parts"]):
                owner = _PAWN_COLOURS[str(part["pawn"])[0]]
                if part["end"] != part["to"]:
                    rows[owner][2] += 1
                bumped = [*part["bumps"], *([part["pawn"]] if sorry and i else [])]
                rows[who][3] += sum(1 for b in bumped if _PAWN_COLOURS[str(b)[0]] != who)
        return Figures(tuple((a, b, c, d) for a, b, c, d in rows))


def count(turns: Iterable[Mapping[str, Any]]) -> Figures:
    """The figures of ``turns`` (a record's, in order)."""
    figures = Figures()
    for entry in turns:
        figures = figures.plus(entry)
    return figures
