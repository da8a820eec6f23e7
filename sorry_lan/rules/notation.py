"""The rules oracle's JSON position format: parsing, validation and the answer.

A position is a JSON object::

    {"variant": "standard", "players": ["red", "yellow"],
     "pawns": {"red": ["start", 12, "S3", "home"], "yellow": [...]},
     "turn": "red", "card": "7", "after_two": false}

Locations are ``"start"``, ``"home"``, a track square ``0..59`` (a JSON integer) or
``"S1".."S5"`` (the safety square of the pawn's own colour).  ``after_two`` is
optional.  Any other key is rejected, so a misspelt field never goes unnoticed.

:func:`parse_position` turns such an object into a :class:`Position` or raises
:class:`PositionError` with a one-line reason; :func:`legal_moves_answer` lists the
legal moves with the layout each leaves.  This module does no I/O; the
``sorry-lan rules moves`` command reads and prints.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from sorry_lan.errors import SorryLanError

from .board import HOME, S1, S5, START, TRACK_LEN, Colour, colour_pawns, pawn_colour
from .cards import Card
from .movegen import generate
from .moves import Move
from .variants import Variant, move_context

REQUIRED_KEYS = ("variant", "players", "pawns", "turn", "card")
OPTIONAL_KEYS = ("after_two",)

_NAMED_LOCATIONS = {"start": START, "home": HOME} | {f"S{k}": S1 + k - 1 for k in range(1, 6)}


class PositionError(SorryLanError, ValueError):
    """The position is not valid; the message names the problem in one line."""


class Position(NamedTuple):
    """A validated position: ``pawns`` has 16 entries (absent colours in START)."""

    variant: Variant
    seated: tuple[int, ...]  # in the order the input listed them
    pawns: tuple[int, ...]
    turn: int
    card: Card
    after_two: bool = False


def location_json(loc: int) -> int | str:
    """A location as the oracle writes it: an int for the track, else its name."""
    if loc < TRACK_LEN:
        return loc
    if loc == START:
        return "start"
    if loc == HOME:
        return "home"
    return f"S{loc - S1 + 1}"


def _location(value: object, colour: Colour, n: int) -> int:
    where = f"{colour.label} pawn {n + 1}"
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise PositionError(f"bad location for {where}: {json.dumps(value)}")
    if isinstance(value, int):
        if 0 <= value < TRACK_LEN:
            return value
        raise PositionError(f"bad location for {where}: track square {value} is not in 0..59")
    if value in _NAMED_LOCATIONS:
        return _NAMED_LOCATIONS[value]
    raise PositionError(
        f"bad location for {where}: {json.dumps(value)} "
        '(use "start", "home", 0..59 or "S1".."S5")'
    )


_COLOUR_NAMES = {c.label: c for c in Colour}


def _colour(value: object, what: str) -> Colour:
    if not isinstance(value, str):
        raise PositionError(f"{what} must be a colour name, not {json.dumps(value)}")
    colour = _COLOUR_NAMES.get(value)
    if colour is None:
        raise PositionError(
            f"unknown colour {value!r} in {what} (choose red, blue, yellow or green)"
        )
    return colour


def parse_position(data: object) -> Position:
    """Validate a decoded JSON position; :class:`PositionError` says what is wrong."""
    if not isinstance(data, dict):
        raise PositionError("a position must be a JSON object")
    for key in data:
        if key not in REQUIRED_KEYS and key not in OPTIONAL_KEYS:
            raise PositionError(f"unknown key {key!r}")
    for key in REQUIRED_KEYS:
        if key not in data:
            raise PositionError(f"missing key {key!r}")

    raw_variant = data["variant"]
    if not isinstance(raw_variant, str):
        raise PositionError(f"variant must be a string, not {json.dumps(raw_variant)}")
    try:
        variant = Variant.parse(raw_variant)
    except ValueError as exc:
        raise PositionError(str(exc)) from None

    players = data["players"]
    if not isinstance(players, list):
        raise PositionError("players must be a list of colour names")
    seated = tuple(_colour(p, "players") for p in players)
    if len(set(seated)) != len(seated):
        raise PositionError("a colour is listed twice in players")
    if not 2 <= len(seated) <= 4:
        raise PositionError(f"a game seats 2 to 4 players, not {len(seated)}")
    if len(seated) not in variant.rules.players:
        raise PositionError(f"{variant.rules.seating_rule} seated")

    raw_pawns = data["pawns"]
    if not isinstance(raw_pawns, dict):
        raise PositionError("pawns must be an object mapping each seated colour to 4 locations")
    pawns = [START] * 16
    given: set[Colour] = set()
    for name, locs in raw_pawns.items():
        colour = _colour(name, "pawns")
        given.add(colour)
        if colour not in seated:
            raise PositionError(f"pawns given for {colour.label}, which is not seated")
        if not isinstance(locs, list) or len(locs) != 4:
            count = len(locs) if isinstance(locs, list) else "not a list of"
            raise PositionError(f"{colour.label} must have exactly 4 pawns ({count} given)")
        for n, (pawn, value) in enumerate(zip(colour_pawns(colour), locs, strict=True)):
            pawns[pawn] = _location(value, colour, n)
    for colour in seated:
        if colour not in given:
            raise PositionError(f"no pawns given for seated colour {colour.label}")
    _check_squares(pawns, seated)

    turn = _colour(data["turn"], "turn")
    if turn not in seated:
        raise PositionError(f"turn colour {turn.label} is not seated")

    raw_card = data["card"]
    if not isinstance(raw_card, str):
        raise PositionError(f'card must be a string such as "7" or "sorry", not {raw_card!r}')
    try:
        card = Card.parse(raw_card)
    except ValueError:
        raise PositionError(
            f"unknown card {raw_card!r} (choose 1 2 3 4 5 7 8 10 11 12 or sorry)"
        ) from None

    after_two = data.get("after_two", False)
    if not isinstance(after_two, bool):
        raise PositionError(f"after_two must be true or false, not {json.dumps(after_two)}")
    return Position(variant, seated, tuple(pawns), turn, card, after_two)


def _check_squares(pawns: Sequence[int], seated: Sequence[Colour]) -> None:
    track: dict[int, int] = {}
    for colour in seated:
        safety: set[int] = set()
        for p in colour_pawns(colour):
            loc = pawns[p]
            if S1 <= loc <= S5:
                if loc in safety:
                    raise PositionError(
                        f"two {colour.label} pawns on safety square {location_json(loc)}"
                    )
                safety.add(loc)
            elif loc < TRACK_LEN:
                other = track.get(loc)
                if other is not None:
                    if pawn_colour(other) == colour:
                        raise PositionError(f"two {colour.label} pawns on track square {loc}")
                    raise PositionError(
                        f"two pawns on track square {loc} "
                        f"({Colour(pawn_colour(other)).label} and {colour.label})"
                    )
                track[loc] = p


def layout_json(pawns: Sequence[int], seated: Sequence[int]) -> dict[str, list[int | str]]:
    """``{colour: [4 locations]}`` for each seated colour, pawns in input order."""
    return {
        Colour(c).label: [location_json(pawns[p]) for p in colour_pawns(c)]
        for c in seated
    }


def legal_moves(position: Position) -> list[Move]:
    """The engine's legal moves for the position's card (a decline included if offered)."""
    ctx = move_context(position.variant, position.pawns, position.turn, position.after_two)
    return generate(position.pawns, position.card, ctx)


def legal_moves_answer(position: Position) -> dict[str, Any]:
    """``{"moves": [{"move": notation, "result": layout}, ...]}`` for the position.

    One entry per distinct resulting layout (pawns of one colour being interchangeable):
    should the engine ever offer two moves that leave the same layout, only the first
    is listed.
    """
    entries = []
    seen: set[tuple[tuple[int, ...], ...]] = set()
    for move in legal_moves(position):
        after = move.result(position.pawns)
        key = tuple(tuple(sorted(after[p] for p in colour_pawns(c))) for c in range(4))
        if key in seen:
            continue
        seen.add(key)
        entries.append({"move": move.notation(), "result": layout_json(after, position.seated)})
    return {"moves": entries}


def answer_text(text: str) -> str:
    """Parse one JSON position from ``text`` and return the answer as one line of JSON."""
    return json.dumps(legal_moves_answer(parse_position(decode(text))))


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise PositionError(f"key {key!r} appears twice in one object")
        out[key] = value
    return out


def decode(text: str) -> object:
    """Decode JSON text; a syntax error or a repeated key is a :class:`PositionError`."""
    try:
        return json.loads(text, object_pairs_hook=_no_duplicate_keys)
    except PositionError:
        raise
    except (ValueError, RecursionError) as exc:  # JSONDecodeError, huge ints, deep nesting
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise PositionError(f"invalid JSON: {reason}") from None


def to_mapping(position: Position) -> Mapping[str, object]:
    """The position back in the input format (for tests and tools)."""
    out: dict[str, object] = {
        "variant": position.variant.value,
        "players": [Colour(c).label for c in position.seated],
        "pawns": layout_json(position.pawns, position.seated),
        "turn": Colour(position.turn).label,
        "card": position.card.label,
    }
    if position.after_two:
        out["after_two"] = True
    return out
