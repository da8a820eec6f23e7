"""A game record to and from bytes: :func:`dump` writes one (a turn a line, so a
record reads and diffs well), :func:`load` reads one in bounded memory.

:func:`load` takes at most :data:`MAX_BYTES` (a caller reading a file reads one byte
more, to know it is larger) and refuses anything that is not a whole JSON record of
this format with one :class:`~sorry_lan.records.RecordError` sentence: too large, cut
short or not JSON, not a record, another format version.  It does not replay the
record (``check`` does) nor open files.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from sorry_lan.codes import RecordFailure

from .entries import FORMAT, VERSION, VERSIONS, RecordError

#: The largest record read: a long game is a few hundred kilobytes.
MAX_BYTES = 4 * 1024 * 1024

_LISTS = ("turns", "deck")


def dump(record: Mapping[str, Any]) -> bytes:
    """The record's JSON: its header a field a line, then each turn (and the deck's
    cards) on a line of its own; UTF-8, ending in a newline."""
    lines = []
    for key, value in record.items():
        name = json.dumps(key)
        if key in _LISTS and isinstance(value, list) and value:
            if key == "deck":
                body = ", ".join(json.dumps(v) for v in value)
                lines.append(f"  {name}: [{body}]")
            else:
                rows = ",\n".join(f"    {json.dumps(v, ensure_ascii=False)}" for v in value)
                lines.append(f"  {name}: [\n{rows}\n  ]")
        else:
            lines.append(f"  {name}: {json.dumps(value, ensure_ascii=False)}")
    return ("{\n" + ",\n".join(lines) + "\n}\n").encode()


def load(data: bytes, path: str = "the record") -> dict[str, Any]:
    """The record in ``data``; :class:`RecordError` (one sentence) if it is none."""
    if len(data) > MAX_BYTES:
        raise RecordError(RecordFailure.TOO_LARGE, path=path, limit=MAX_BYTES)
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise RecordError(RecordFailure.NOT_JSON, path=path) from None
    if not isinstance(value, dict) or value.get("format") != FORMAT:
        raise RecordError(RecordFailure.NOT_RECORD, path=path)
    if value.get("version") not in VERSIONS:
        raise RecordError(
            RecordFailure.VERSION, path=path, version=value.get("version"), known=VERSION
        )
    return value
