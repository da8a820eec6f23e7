"""What each field of a game record may hold (``protocol/RECORD.md``), checked before
the record is replayed.

:func:`validate` walks a loaded record: every header field of its version is there
with a value RECORD.md allows (and no field it does not list), every turn entry has
its type's fields and no others, each value has its JSON type (``19.0`` is no square,
``true`` no number), and the times are in order.  The first field that does not is
refused with a :class:`~sorry_lan.records.RecordError` naming it as
``seats[2].strength`` or ``turns[14].parts[1].from`` (every list counted from 1, as
turns are by their ``n``).  A new header field is one line of :data:`HEADER` (with
the version that adds it), a new turn type one of :data:`TURNS`.  It replays nothing:
whether the moves, the result, the board, the deck and the first player are the
game's is ``check``'s.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sorry_lan.bots.base import level_of
from sorry_lan.bots.strengths import STRENGTHS
from sorry_lan.codes import RecordFailure
from sorry_lan.rules import Colour, Variant
from sorry_lan.rules.cards import Card, full_deck
from sorry_lan.rules.variants import VARIANTS, team_of

from .entries import FORMAT, KIND_WORDS, PAWNS, PLACES, VERSION, VERSIONS, RecordError

#: The largest seed: this program deals from a seed of 63 bits.
SEED_LIMIT = 2**63
#: A time as a record writes it (UTC, to the second).
TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")

_COLOURS = tuple(c.label for c in Colour)
_CARDS = frozenset(c.label for c in Card)
_PAWNS = frozenset(PAWNS)
_PLACE_WORDS = frozenset(p for p in PLACES if isinstance(p, str))
_TRACK = range(60)
_DECK_SIZE = len(full_deck())
_KINDS = frozenset(KIND_WORDS.values())
#: How many parts a move of each kind has.
_PARTS = {"simple": 1, "split": 2, "swap": 2, "sorry": 2, "decline": 0, "discard": 0}
_PART_FIELDS = ("pawn", "from", "to", "end", "bumps")
_SEAT_FIELDS = ("colour", "name", "player", "strength")


@dataclass
class _Record:
    """The record being read: what names it, its version, the colours seated."""

    path: str
    version: int
    seated: tuple[str, ...] = ()

    def bad(self, field: str) -> RecordError:
        return RecordError(RecordFailure.MALFORMED, path=self.path, field=_one_line(field))

    def extra(self, field: str) -> RecordError:
        return RecordError(
            RecordFailure.UNKNOWN_FIELD, path=self.path, field=_one_line(field),
            version=self.version,
        )


def _one_line(field: str) -> str:
    """A field's path as one line of text: a name the file gave (a key is the file's own
    text) with its unprintable characters escaped, as Python writes them."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in field)


def _int(value: object) -> bool:
    """A JSON integer (not ``true``, not ``19.0``)."""
    return type(value) is int


def _text(value: object) -> bool:
    return type(value) is str


def _word(value: object, words: frozenset[str] | tuple[str, ...]) -> bool:
    return type(value) is str and value in words


def _place(value: object) -> bool:
    if type(value) is int:
        return value in _TRACK
    return _word(value, _PLACE_WORDS)


def _fields(rec: _Record, value: object, name: str, want: tuple[str, ...]) -> dict[str, Any]:
    """``value`` as an object with exactly the fields ``want``."""
    if not isinstance(value, dict):
        raise rec.bad(name)
    for key in value:
        if key not in want:
            raise rec.extra(f"{name}.{key}")
    for key in want:
        if key not in value:
            raise rec.bad(f"{name}.{key}")
    return value


def _seated(rec: _Record, value: object, name: str) -> None:
    if not _word(value, rec.seated):
        raise rec.bad(name)


def _time(rec: _Record, value: object, name: str) -> None:
    if value is None:
        return
    if not _text(value) or TIME.fullmatch(str(value)) is None:
        raise rec.bad(name)
    try:
        time.strptime(str(value), "%Y-%m-%dT%H:%M:%SZ")
    except ValueError:
        raise rec.bad(name) from None


def _who_sits(rec: _Record, seat: Mapping[str, Any], name: str) -> None:
    """A seat's name, kind and strength (as ``seats`` and a ``seat`` event hold them)."""
    if not _text(seat["name"]):
        raise rec.bad(f"{name}.name")
    player, strength = seat["player"], seat["strength"]
    if not _word(player, ("person", "bot")):
        raise rec.bad(f"{name}.player")
    if player == "person":
        known = strength is None
    elif rec.version == 1:
        known = strength == level_of(str(seat["name"]))
    else:
        known = strength is None or _word(strength, STRENGTHS)
    if not known:
        raise rec.bad(f"{name}.strength")


# -- the header ---------------------------------------------------------------------


def _program(rec: _Record, record: Mapping[str, Any], name: str) -> None:
    if not _text(record[name]):
        raise rec.bad(name)


def _named(rec: _Record, record: Mapping[str, Any], name: str) -> None:
    if record[name] is not None and not _text(record[name]):
        raise rec.bad(name)


def _number(rec: _Record, record: Mapping[str, Any], name: str) -> None:
    if not (_int(record[name]) and record[name] >= 1):
        raise rec.bad(name)


def _hosts(rec: _Record, record: Mapping[str, Any], name: str) -> None:
    """The hosts the game passed through, oldest first: epochs from 1, rising."""
    hosts = record[name]
    if type(hosts) is not list or not hosts:
        raise rec.bad(name)
    last = 0
    for i, entry in enumerate(hosts, 1):
        where = f"{name}[{i}]"
        if not isinstance(entry, dict) or set(entry) != {"epoch", "host"}:
            raise rec.bad(where)
        epoch = entry["epoch"]
        if not (_int(epoch) and epoch > last):
            raise rec.bad(f"{where}.epoch")
        if entry["host"] is not None and not _text(entry["host"]):
            raise rec.bad(f"{where}.host")
        last = epoch


def _variant(rec: _Record, record: Mapping[str, Any], name: str) -> None:
    if not _word(record[name], tuple(VARIANTS)):
        raise rec.bad(name)


def _seats(rec: _Record, record: Mapping[str, Any], name: str) -> None:
    seats = record[name]
    if not isinstance(seats, list) or not seats:
        raise rec.bad(name)
    colours: list[str] = []
    for i, seat in enumerate(seats, 1):
        where = f"{name}[{i}]"
        seat = _fields(rec, seat, where, _SEAT_FIELDS)
        colour = seat["colour"]
        if not _word(colour, _COLOURS) or (
            colours and _COLOURS.index(colour) <= _COLOURS.index(colours[-1])
        ):
            raise rec.bad(f"{where}.colour")  # one seat a colour, in colour order
        colours.append(colour)
        _who_sits(rec, seat, where)
    variant = Variant(record["variant"])
    if variant.rules.seating_problem([_COLOURS.index(c) for c in colours]) is not None:
        raise rec.bad(name)
    rec.seated = tuple(colours)


def _options(rec: _Record, record: Mapping[str, Any], name: str) -> None:
    first = _fields(rec, record[name], name, ("first",))["first"]
    if first is not None:
        _seated(rec, first, f"{name}.first")


def _seed(rec: _Record, record: Mapping[str, Any], name: str) -> None:
    seed = record[name]
    if seed is not None and not (_int(seed) and 0 <= seed < SEED_LIMIT):
        raise rec.bad(name)


def _first(rec: _Record, record: Mapping[str, Any], name: str) -> None:
    _seated(rec, record[name], name)
    chosen = record["options"]["first"]
    if chosen is not None and record[name] != chosen:
        raise rec.bad(name)


def _teams(rec: _Record, record: Mapping[str, Any], name: str) -> None:
    partners = Variant(record["variant"]).rules.partners
    pairs = sorted({team_of(_COLOURS.index(c)) for c in rec.seated}) if partners else []
    if record[name] != [[_COLOURS[a], _COLOURS[b]] for a, b in pairs]:
        raise rec.bad(name)


def _started(rec: _Record, record: Mapping[str, Any], name: str) -> None:
    _time(rec, record[name], name)


def _ended(rec: _Record, record: Mapping[str, Any], name: str) -> None:
    ended, started = record[name], record["started"]
    _time(rec, ended, name)
    if ended is not None and record["result"] is None:
        raise rec.bad(name)  # an unfinished game has no end
    if ended is not None and started is not None and ended < started:
        raise RecordError(RecordFailure.ENDS_BEFORE, path=rec.path)


def _result(rec: _Record, record: Mapping[str, Any], name: str) -> None:
    if record[name] is None:
        return
    result = _fields(rec, record[name], name, ("winner", "winners", "points"))
    _seated(rec, result["winner"], f"{name}.winner")
    winners = result["winners"]
    if not isinstance(winners, list) or result["winner"] not in winners:
        raise rec.bad(f"{name}.winners")
    for i, colour in enumerate(winners, 1):
        _seated(rec, colour, f"{name}.winners[{i}]")
    points = result["points"]
    if not isinstance(points, dict) or sorted(points) != sorted(rec.seated):
        raise rec.bad(f"{name}.points")
    for colour, n in points.items():
        if not (_int(n) and n >= 0):
            raise rec.bad(f"{name}.points.{colour}")


def _board(rec: _Record, record: Mapping[str, Any], name: str) -> None:
    layout = _fields(rec, record[name], name, rec.seated)
    for colour, places in layout.items():
        if not isinstance(places, list) or len(places) != 4:
            raise rec.bad(f"{name}.{colour}")
        for i, place in enumerate(places, 1):
            if not _place(place):
                raise rec.bad(f"{name}.{colour}[{i}]")


def _turns(rec: _Record, record: Mapping[str, Any], name: str) -> None:
    turns = record[name]
    if not isinstance(turns, list):
        raise rec.bad(name)
    for n, entry in enumerate(turns, 1):
        _turn(rec, entry, n)


def _deck(rec: _Record, record: Mapping[str, Any], name: str) -> None:
    deck = record[name]
    if record["seed"] is None or record["result"] is None or not isinstance(deck, list):
        raise rec.bad(name)  # only a finished game dealt from its seed has its deck
    for i, card in enumerate(deck, 1):
        if not _word(card, _CARDS):
            raise rec.bad(f"{name}[{i}]")


Check = Callable[[_Record, Mapping[str, Any], str], None]

#: Every header field: the version that added it, whether a record may leave it out,
#: and its check, in the order they are checked (a field's check may read those
#: before it).  ``format`` and ``version`` are read by ``load`` before any of these.
HEADER: dict[str, tuple[int, bool, Check | None]] = {
    "format": (1, False, None),
    "version": (1, False, None),
    "program": (1, False, _program),
    "table": (1, False, _named),
    "host": (1, False, _named),
    "tid": (3, False, _named),
    "game": (3, False, _number),
    "hosts": (3, False, _hosts),
    "variant": (1, False, _variant),
    "seats": (1, False, _seats),
    "options": (1, False, _options),
    "seed": (1, False, _seed),
    "first": (1, False, _first),
    "teams": (1, False, _teams),
    "started": (1, False, _started),
    "result": (1, False, _result),
    "ended": (1, False, _ended),
    "board": (1, False, _board),
    "turns": (1, False, _turns),
    "deck": (1, True, _deck),
}


# -- the turns ----------------------------------------------------------------------

#: Every turn type: the version that added it and its fields (``n`` and ``type`` aside).
TURNS: dict[str, tuple[int, tuple[str, ...]]] = {
    "move": (1, ("who", "card", "kind", "notation", "parts")),
    "lost": (1, ("who", "card")),
    "reshuffle": (1, ("cards",)),
    "seat": (1, _SEAT_FIELDS),
    "cover": (2, ("colour", "strength")),
    "back": (2, ("colour", "name")),
    "chat": (1, ("colour", "text")),
}


def _turn(rec: _Record, entry: object, n: int) -> None:
    where = f"turns[{n}]"
    if not isinstance(entry, dict) or not _int(entry.get("n")) or entry.get("n") != n:
        raise rec.bad(f"{where}.n")
    kind = entry.get("type")
    if not _text(kind) or kind not in TURNS:
        raise rec.bad(f"{where}.type")
    since, fields = TURNS[str(kind)]
    if rec.version < since:
        raise rec.extra(f"{kind} ({where})")
    if kind == "move" and entry.get("kind") in ("swap", "sorry"):
        fields = (*fields, "target")
    entry = _fields(rec, entry, where, ("n", "type", *fields))
    if kind in ("move", "lost"):
        _seated(rec, entry["who"], f"{where}.who")
        if not _word(entry["card"], _CARDS):
            raise rec.bad(f"{where}.card")
    if kind == "move":
        _move(rec, entry, where)
    elif kind == "reshuffle":
        if not (_int(entry["cards"]) and 1 <= entry["cards"] <= _DECK_SIZE):
            raise rec.bad(f"{where}.cards")
    elif kind != "lost":
        _seated(rec, entry["colour"], f"{where}.colour")
    if kind == "seat":
        _who_sits(rec, entry, where)
    elif kind == "cover" and not _word(entry["strength"], STRENGTHS):
        raise rec.bad(f"{where}.strength")
    elif kind in ("back", "chat") and not _text(entry["name" if kind == "back" else "text"]):
        raise rec.bad(f"{where}.{'name' if kind == 'back' else 'text'}")


def _move(rec: _Record, entry: Mapping[str, Any], where: str) -> None:
    kind = entry["kind"]
    if not _word(kind, _KINDS):
        raise rec.bad(f"{where}.kind")
    if not _text(entry["notation"]):
        raise rec.bad(f"{where}.notation")
    if "target" in entry and not _word(entry["target"], _PAWNS):
        raise rec.bad(f"{where}.target")
    parts = entry["parts"]
    if not isinstance(parts, list) or len(parts) != _PARTS[kind]:
        raise rec.bad(f"{where}.parts")
    for i, part in enumerate(parts, 1):
        at = f"{where}.parts[{i}]"
        part = _fields(rec, part, at, _PART_FIELDS)
        if not _word(part["pawn"], _PAWNS):
            raise rec.bad(f"{at}.pawn")
        for key in ("from", "to", "end"):
            if not _place(part[key]):
                raise rec.bad(f"{at}.{key}")
        bumps = part["bumps"]
        if not isinstance(bumps, list) or not all(_word(b, _PAWNS) for b in bumps):
            raise rec.bad(f"{at}.bumps")


def validate(record: Mapping[str, Any], path: str = "the record") -> None:
    """Refuse ``record`` at its first field that RECORD.md does not allow; the format
    and version must already have been read (``load``)."""
    if record.get("format") != FORMAT:
        raise RecordError(RecordFailure.NOT_RECORD, path=path)
    version = record.get("version")
    if not _int(version) or version not in VERSIONS:
        raise RecordError(RecordFailure.VERSION, path=path, version=version, known=VERSION)
    rec = _Record(path, version)
    for key in record:
        if key not in HEADER or HEADER[key][0] > rec.version:
            raise rec.extra(str(key))
    for key, (_since, optional, check) in HEADER.items():
        if key not in record:
            if optional or _since > rec.version:
                continue
            raise rec.bad(key)
        if check is not None:
            check(rec, record, key)
