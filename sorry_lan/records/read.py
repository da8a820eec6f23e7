"""A game record to and from bytes: :func:`dump` writes one (a turn a line, so a
record reads and diffs well), :func:`load` reads one in bounded memory.

:func:`load` takes at most :data:`MAX_BYTES` (a caller reading a file reads one byte
more, to know it is larger) and refuses anything that is not a whole JSON record of
this format with one :class:`~sorry_lan.records.RecordError` sentence: too large, not
UTF-8, nested too deeply, this program's text form of a record, cut short or not JSON
(``NaN`` and ``Infinity`` are not), an object naming a field twice, not a record,
another format version.  It does not check the fields (``fields.validate``) or replay
the record (``check`` does), nor open files.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import partial
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


def _object(path: str, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refused if it names one field twice (a reader might take either
    value)."""
    value = dict(pairs)
    if len(value) != len(pairs):
        seen: set[str] = set()
        for key, _v in pairs:
            if key in seen:
                raise RecordError(RecordFailure.TWICE, path=path, field=key)
            seen.add(key)
    return value


def _not_json(word: str) -> None:
    raise ValueError(f"{word} is not JSON")


def _text_form(text: str) -> bool:
    """``text`` is what ``replay`` prints and ``games --export --format text`` writes:
    three lines of header, then the turns numbered from ``1. `` (in any language)."""
    lines = text.lstrip("\ufeff").splitlines()
    return len(lines) > 3 and not lines[0].startswith(("{", "[")) and lines[3].startswith("1. ")


def load(data: bytes, path: str = "the record") -> dict[str, Any]:
    """The record in ``data``; :class:`RecordError` (one sentence) if it is none."""
    if len(data) > MAX_BYTES:
        raise RecordError(RecordFailure.TOO_LARGE, path=path, limit=MAX_BYTES)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError(RecordFailure.NOT_UTF8, path=path) from None
    try:
        value = json.loads(
            text, object_pairs_hook=partial(_object, path), parse_constant=_not_json
        )
    except RecursionError:
        raise RecordError(RecordFailure.NESTED, path=path) from None
    except ValueError:
        failure = RecordFailure.TEXT_FORM if _text_form(text) else RecordFailure.NOT_JSON
        raise RecordError(failure, path=path) from None
    if not isinstance(value, dict) or value.get("format") != FORMAT:
        raise RecordError(RecordFailure.NOT_RECORD, path=path)
    version = value.get("version")
    if type(version) is not int or version not in VERSIONS:
        raise RecordError(
            RecordFailure.VERSION, path=path, version=value.get("version"), known=VERSION
        )
    return value
