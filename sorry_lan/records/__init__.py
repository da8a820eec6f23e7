"""Game records: a finished (or unfinished) game written down so anyone can replay it.

A record is a JSON object in the format ``protocol/RECORD.md`` describes (version
:data:`~sorry_lan.records.entries.VERSION`): a header (table, variant, seats, teams,
times, result, seed) and every turn in order.  :func:`from_journal` builds one from a
journal's records, :func:`check` replays one through the rules engine and refuses it
at the first turn that does not follow, and :func:`load` reads one from bytes in
bounded memory.

This package needs only the rules engine: it opens no file (``load`` takes bytes; the
commands read and write files) and words nothing for people (``commands.replay`` does).
"""

from .build import from_journal, game_starts
from .check import Checked, check
from .entries import FORMAT, VERSION, RecordError
from .read import MAX_BYTES, dump, load

__all__ = [
    "FORMAT",
    "MAX_BYTES",
    "VERSION",
    "Checked",
    "RecordError",
    "check",
    "dump",
    "from_journal",
    "game_starts",
    "load",
]
