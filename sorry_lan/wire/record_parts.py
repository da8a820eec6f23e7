"""A game record's bytes as ``record`` messages and back (SPEC section 7, ``record``).

:func:`record_parts` compresses a record's JSON (``protocol/RECORD.md``) with zlib and
cuts the stream into ``record`` messages of at most
:data:`~sorry_lan.wire.limits.RECORD_PART_MAX` bytes each, at most
:data:`~sorry_lan.wire.limits.RECORD_PARTS_MAX` of them.  A :class:`RecordAssembler`
(one per client) takes the parts as they come and gives the JSON back once the last
one is in, inflating at most :data:`~sorry_lan.wire.limits.RECORD_MAX` bytes: parts
out of order, a stream that does not inflate or inflates larger raise
:class:`RecordPartsError` and the parts so far are dropped.

Nothing here reads the JSON (``sorry_lan.records`` does) or knows the game.
"""

from __future__ import annotations

import zlib

from sorry_lan.errors import SorryLanError
from sorry_lan.wire import limits as L
from sorry_lan.wire.messages import RecordPart


class RecordPartsError(SorryLanError, ValueError):
    """A record that cannot be sent (too large) or put together from its parts."""


def record_parts(game: int, data: bytes) -> list[RecordPart]:
    """``data`` (a record's JSON) as the ``record`` messages of the table's game
    number ``game``; :class:`RecordPartsError` when it is too large to send."""
    if len(data) > L.RECORD_MAX:
        raise RecordPartsError(f"a record of {len(data)} bytes (at most {L.RECORD_MAX} are sent)")
    packed = zlib.compress(data, 9)
    size = L.RECORD_PART_MAX
    pieces = [packed[i : i + size] for i in range(0, len(packed), size)]
    if len(pieces) > L.RECORD_PARTS_MAX:
        raise RecordPartsError(
            f"a record of {len(packed)} compressed bytes (at most "
            f"{L.RECORD_PARTS_MAX * size} are sent)"
        )
    return [
        RecordPart(game=game, part=i, parts=len(pieces), data=piece)
        for i, piece in enumerate(pieces)
    ]


class RecordAssembler:
    """Puts each record back together from its parts, one record at a time."""

    def __init__(self) -> None:
        self._game = 0
        self._parts = 0
        self._next = 0
        self._inflate = zlib.decompressobj()
        self._out: list[bytes] = []
        self._size = 0

    def take(self, part: RecordPart) -> bytes | None:
        """Take ``part``: the record's JSON once it was the last one, else None.

        A part 0 begins a record (dropping one left unfinished); any other part must
        follow the one before of the same record."""
        if part.part == 0:
            self._begin(part)
        elif (part.game, part.parts, part.part) != (self._game, self._parts, self._next):
            self._next = -1
            raise RecordPartsError(
                f"record part {part.part} of {part.parts} (game {part.game}) out of order"
            )
        self._next += 1
        try:
            room = L.RECORD_MAX + 1 - self._size
            piece = self._inflate.decompress(part.data, room)
        except zlib.error as exc:
            self._next = -1
            raise RecordPartsError(f"a record that does not inflate: {exc}") from None
        self._size += len(piece)
        self._out.append(piece)
        if self._size > L.RECORD_MAX or self._inflate.unconsumed_tail:
            self._next = -1
            raise RecordPartsError(f"a record larger than {L.RECORD_MAX} bytes")
        if self._next < self._parts:
            return None
        self._next = -1
        if not self._inflate.eof:
            raise RecordPartsError("a record whose compressed stream stops short")
        return b"".join(self._out)

    def _begin(self, part: RecordPart) -> None:
        self._game, self._parts, self._next = part.game, part.parts, 0
        self._inflate = zlib.decompressobj()
        self._out = []
        self._size = 0
