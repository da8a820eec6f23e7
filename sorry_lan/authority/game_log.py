"""The game under way as its journal records, and its game record for everyone at the table.

A :class:`GameLog` keeps the journal records of the table's current game (its ``game``
record and what followed: moves, seats, table events, chat), fed by the host core's
recorder whether or not the table keeps a journal file, and starting from the records
a resumed table was rebuilt from.  :meth:`GameLog.parts` makes the ``record`` messages
(SPEC section 7) a connection on protocol version 3 is sent: the whole game record
(``protocol/RECORD.md``, deck order included) once the game is over, and while it is
played the game so far, with its seed left out (it would tell the cards to come) and
no deck.  The record holds nothing the rules hide from a seat: cards played and
discarded, moves and table events are seen by all; chat is left out.  Each record is
built and encoded once per change of the game.

It does not decide who is sent a record (``announce`` does) and does no I/O.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from sorry_lan.records import RecordError, dump, from_journal
from sorry_lan.wire import messages as m
from sorry_lan.wire.codec import encode
from sorry_lan.wire.errors import LocalProtocolError
from sorry_lan.wire.record_parts import RecordPartsError, record_parts

from .journal_records import Record

log = logging.getLogger(__name__)

#: A ``record`` message and its frame, encoded once for every connection.
Part = tuple[m.RecordPart, bytes]

#: The journal records of a game's table events (``seat``, ``cover``, ``back``).
TABLE_EVENTS = ("seat", "cover", "back")


def speaks_records(protocol: int) -> bool:
    """Whether a connection on ``protocol`` is sent game records (version 3 on)."""
    return protocol >= m.SINCE_VERSION[m.RecordPart.TYPE]


class GameLog:
    """The current game's journal records; see the module docstring."""

    def __init__(self, records: Iterable[Record] = ()) -> None:
        self._records: list[Record] = []
        self._table_events = 0
        self._made: tuple[tuple[int, int], list[Part]] | None = None
        for record in records:
            self.add(record)

    def add(self, record: Record) -> None:
        """A journal record the table wrote: a ``game`` record begins a new game."""
        kind = record.get("k")
        if kind in ("game", "takeover"):  # a game's start, or its start at a new host
            self._records = []
            self._table_events = 0
        elif kind in ("end", "moved", "laptop") or not self._records:
            return  # the table's end mark, a laptop's offer; or a record before any game
        self._records.append(record)
        self._table_events += kind in TABLE_EVENTS

    @property
    def table_events(self) -> int:
        """How many table events (a seat changed hands, a bot covers a person away, the
        person is back) the current game's records hold: no ``events`` tells them."""
        return self._table_events

    @property
    def count(self) -> int:
        """How many journal records the current game has (``len(records)``, uncopied)."""
        return len(self._records)

    @property
    def records(self) -> list[Record]:
        """The current game's journal records, its ``game`` record first (empty before
        the table's first game)."""
        return list(self._records)

    def record(self, game: int | None = None) -> dict[str, object] | None:
        """The current game's record as a connection is sent it (None before a game,
        or when its records do not replay: a log line says why); ``game``, the table's
        number of it (None: as its records count it, from their takeover if any)."""
        if not self._records:
            return None
        try:
            record = from_journal(self._records, name="the table's game")
        except RecordError as exc:
            log.info("the game's record cannot be made: %s", exc)
            return None
        if game is not None:
            record["game"] = game
        if record["result"] is None:
            record["seed"] = None  # the game so far: the seed would tell the cards to come
        return record

    def parts(self, game: int) -> list[Part]:
        """The ``record`` messages of the current game, the table's game number
        ``game`` (empty when there is no record to send)."""
        key = (game, len(self._records))
        if self._made is not None and self._made[0] == key:
            return self._made[1]
        record = self.record(game)
        made: list[Part] = []
        if record is not None:
            try:
                made = [(p, encode(p)) for p in record_parts(game, dump(record))]
            except (RecordPartsError, LocalProtocolError) as exc:
                log.info("the game's record is not sent: %s", exc)
        self._made = (key, made)
        return made
