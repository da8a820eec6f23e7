"""The journal's line format, sans I/O: a record framed as a line, the checksum chain, scan.

A journal is a text file of lines.  Each line is one record in JSON, a tab and a
checksum: eight lower-case hex digits of the CRC-32 of the record's JSON, chained
(each CRC starts from the previous line's, the first from 0).  So every single-bit
flip, a changed, lost or reordered line, or lines spliced in from another journal is
detected, and :func:`scan` names the first line that is wrong; only a torn last line
(a crash in the middle of a write) is dropped silently.  A journal written before
checksums (no tab on its first line) is still read, without that protection.

:func:`encode` writes a record's JSON, :func:`frame` makes it a line carrying the
chain on, :func:`scan` reads records back from a journal's bytes, and
:func:`carry_on` says where a journal's bytes stop being whole lines and what chain
value the next line starts from.  Everything here takes bytes and returns values:
it opens no file, takes no lock and syncs nothing (``sorry_lan.net.journal`` does),
and it does not know what the records mean (``journal_records`` builds them and
``restore`` replays them).

:class:`JournalError` is the base of every journal error, here so that both the
replay here in ``authority`` and the journal file in ``net`` can raise one.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sorry_lan.codes import Coded


class JournalError(Coded):
    """A journal that cannot be read back into a game (corrupt, or disagreeing with the
    rules), or written: a :class:`~sorry_lan.codes.JournalFailure` with its fields."""


_MOVE_KEYS = frozenset({"k", "m", "sid"})


def encode(record: Mapping[str, Any]) -> bytes:
    """A record's JSON as the journal writes it (compact, keys sorted)."""
    if record.get("k") == "move" and record.keys() == _MOVE_KEYS:
        # What json.dumps writes for {"k": "move", "m": [...], "sid": ...}, formatted
        # directly (one per move: the hot path).
        items = ",".join(map(str, map(int, record["m"])))
        return b'{"k":"move","m":[%s],"sid":%d}' % (items.encode(), int(record["sid"]))
    return json.dumps(record, separators=(",", ":"), sort_keys=True).encode()


def frame(body: bytes, chain: int | None) -> tuple[bytes, int | None]:
    """The line for a record whose JSON is ``body``, after a line whose checksum was
    ``chain`` (0 before the first line; None: a journal without checksums, whose lines
    carry none), and the checksum the next line carries on from."""
    if chain is None:
        return body + b"\n", None
    crc = zlib.crc32(body, chain)
    return b"%s\t%08x\n" % (body, crc), crc


def split_checksum(line: bytes) -> tuple[bytes, int] | None:
    """A line's JSON and its checksum, if it ends in a tab and eight lower-case hex
    digits exactly (an upper-case digit is a flipped bit, not the same number)."""
    if len(line) < 10 or line[-9:-8] != b"\t":
        return None
    digits = line[-8:]
    if digits.strip(b"0123456789abcdef"):
        return None
    return line[:-9], int(digits, 16)


def carry_on(first: bytes, tail: bytes, size: int) -> tuple[int, int | None]:
    """Where to go on writing a journal of ``size`` bytes, of which ``first`` is the
    start (its first line, at least) and ``tail`` the end: the length of its whole
    lines (a half line after them is a crash's, to cut) and the checksum the next line
    carries on from (None: a journal written before checksums goes on without them).

    Only the last whole line in ``tail`` is read, so ``tail`` need not hold the file."""
    end = tail.rfind(b"\n") + 1
    cut = size - (len(tail) - end)
    if cut == 0:
        return 0, 0
    if split_checksum(first.split(b"\n", 1)[0]) is None:
        return cut, None
    last = tail[:end].rstrip(b"\n").rsplit(b"\n", 1)[-1]
    split = split_checksum(last)
    return cut, (0 if split is None else split[1])


@dataclass
class Scan:
    """What :func:`scan` found in a journal's bytes."""

    records: list[dict[str, Any]]
    damage: tuple[int, str] | None = None  # (line number, what is wrong), if any
    valid_bytes: int = 0  # the length of the intact whole lines
    ends: list[int] = field(default_factory=list)  # where each record's line ends
    torn: bool = False  # the file ended in a half-written line (dropped)
    checksums: bool = True  # False: written before checksums


_FLIPPED = "its checksum does not match its contents (the file was changed or is corrupt)"


def scan(data: bytes) -> Scan:
    """Read a journal's records from its bytes, stopping at the first damaged line."""
    out = Scan([])
    chain = 0
    pos = 0
    number = 0
    while True:
        nl = data.find(b"\n", pos)
        if nl < 0:
            break
        number += 1
        line = data[pos:nl]
        split = split_checksum(line)
        if number == 1:
            out.checksums = split is not None
        body: bytes = line
        problem = None
        if out.checksums:
            if split is None:
                problem = "it has no checksum"
            else:
                body, crc = split
                if zlib.crc32(body, chain) != crc:
                    problem = _FLIPPED
                chain = crc
        rec = None
        if problem is None:
            try:
                rec = json.loads(body)
            except ValueError:
                problem = "it is not valid JSON"
            else:
                if not _is_record(rec):
                    problem = "it is not a journal record"
        if problem is not None:
            out.damage = (number, problem)
            return out
        assert isinstance(rec, dict)
        out.records.append(rec)
        pos = nl + 1
        out.valid_bytes = pos
        out.ends.append(pos)
    tail = data[pos:]
    if tail:
        # A crash mid-write leaves the start of a line.  A whole record followed by
        # one stray byte is a line whose end was damaged, not a torn write.
        if _whole_record(tail[:-1], chain if out.checksums else None):
            out.damage = (number + 1, "its line end is damaged")
        else:
            out.torn = True
    return out


def _is_record(value: object) -> bool:
    return isinstance(value, dict) and isinstance(value.get("k"), str)


def _whole_record(data: bytes, chain: int | None) -> bool:
    """Whether ``data`` is a whole line but for its line end (``chain``: the checksum
    it must carry on; None: a journal without checksums)."""
    if chain is not None:
        split = split_checksum(data)
        return split is not None and zlib.crc32(split[0], chain) == split[1]
    try:
        rec = json.loads(data)
    except ValueError:
        return False
    return _is_record(rec)
