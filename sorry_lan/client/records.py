"""The game records a client was sent, sans-I/O: put together, kept, handed to file.

A host on protocol version 3 sends a game record in ``record`` parts
(``protocol/RECORD.md``): the whole game after ``over``, or the game so far when it
welcomes a client mid-game.  :class:`RecordBook` puts each one together from its parts
and reads it (``sorry_lan.records``), keeps the last :data:`RECORDS_KEPT` whole ones
(:attr:`RecordBook.whole`: a whole game told again, by a player who came back or by
the table's new host, is the first copy's), hands each new whole one once to the shell
to file (:meth:`RecordBook.take_unfiled`), keeps the game so far as it was sent
(:attr:`RecordBook.so_far`) and the table's number of the game on the board or next
(:attr:`RecordBook.game_number`: a record's, plus one for each rematch).

It does not replay a record, build the game so far from what a client was shown
(``client.so_far`` does, and the model feeds it the records this says are new), or
write files.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Literal

from sorry_lan.records import RecordError, load
from sorry_lan.wire import messages as m
from sorry_lan.wire.record_parts import RecordAssembler, RecordPartsError

log = logging.getLogger(__name__)

RECORDS_KEPT = 8  # whole game records a model keeps (the shell files each as it comes)

#: What a record just put together is: the game so far as sent, a whole game not
#: seen before, or a whole game told again (the copy kept first stands for it).
Taken = Literal["so_far", "new", "again"]


@dataclass(frozen=True)
class GameRecord:
    """A game record the host sent (``protocol/RECORD.md``, read but not replayed):
    the table's game number ``game`` and the record."""

    game: int
    record: dict[str, Any]

    @property
    def whole(self) -> bool:
        """The finished game's (with its result and deck), not the game so far."""
        return self.record.get("result") is not None


class RecordBook:
    """The records one client was sent; see the module docstring."""

    def __init__(self) -> None:
        self._assembler = RecordAssembler()
        self.whole: list[GameRecord] = []  # the whole games sent, the last RECORDS_KEPT
        self._unfiled: list[GameRecord] = []
        self.so_far: GameRecord | None = None  # the game so far, as sent on a welcome
        self.game_number = 1  # the table's number of the game on the board (or next)

    def take(self, part: m.RecordPart) -> tuple[GameRecord, Taken] | None:
        """Take a part of a game record; the record once its last part is in, and what
        it is.  A record that cannot be put together or read is dropped with a log line."""
        try:
            data = self._assembler.take(part)
            if data is None:
                return None
            record = load(data, "the host's game record")
        except (RecordPartsError, RecordError) as exc:
            log.info("a game record from the host was dropped: %s", exc)
            return None
        got = GameRecord(part.game, record)
        self.game_number = part.game
        kept = next((r for r in self.whole if r.game == got.game), None)
        if not got.whole:
            self.so_far = got
            return got, "so_far"
        if kept is not None:
            # Told again: a player who came back, or the table's new host showing the
            # game that ended before it took over (its record, rebuilt from what the
            # laptops knew, has no seed or deck).  The first one is the game's: kept
            # and filed once, and handed on again (a new event: its own view).
            return GameRecord(kept.game, kept.record), "again"
        self.so_far = None
        self.whole.append(got)
        del self.whole[:-RECORDS_KEPT]
        self._unfiled.append(got)
        return got, "new"

    def take_unfiled(self) -> list[GameRecord]:
        """The whole game records received since the last call, oldest first (each
        once: the shell files them)."""
        taken, self._unfiled = self._unfiled, []
        return taken

    def whole_of_game(self) -> dict[str, Any] | None:
        """The whole record of the game on the board (None: none sent for it)."""
        if self.whole and self.whole[-1].game == self.game_number:
            return self.whole[-1].record
        return None

    def rematch(self) -> None:
        """The table went back to its lobby: the next game is the one after."""
        self.game_number += 1
