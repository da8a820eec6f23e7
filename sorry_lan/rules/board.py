"""Board geometry: colours, the 60-square track, slides, safety zones, START and HOME.

Locations are small ints so that move generation can index flat tables:

* ``0..59``  -- a square of the outer track, numbered clockwise;
* ``60..64`` -- ``S1..S5``, the safety square of the pawn's *own* colour;
* ``65``     -- HOME;
* ``66``     -- START.

A pawn is identified by ``colour * 4 + n`` (``n`` in ``0..3``), so the 16 pawns of a
game sit in a fixed-size tuple.  This module knows nothing of cards or turns.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final


class Colour(IntEnum):
    """The four colours, in clockwise seating (and turn) order."""

    RED = 0
    BLUE = 1
    YELLOW = 2
    GREEN = 3

    @property
    def label(self) -> str:
        return self.name.lower()

    @property
    def letter(self) -> str:
        return self.name[0]

    @property
    def base(self) -> int:
        return BASE[self]

    @property
    def partner(self) -> Colour:
        return Colour((self + 2) % 4)

    @classmethod
    def parse(cls, text: str) -> Colour:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(f"unknown colour {text!r}") from None


COLOURS: Final = tuple(Colour)
TRACK_LEN: Final = 60
SIDE_LEN: Final = 15
SAFETY_LEN: Final = 5
NUM_PAWNS: Final = 16

S1: Final = 60
S5: Final = 64
HOME: Final = 65
START: Final = 66
NUM_LOCATIONS: Final = 67

BASE: Final = (0, 15, 30, 45)
START_EXIT_OFFSET: Final = 4
SAFETY_ENTRY_OFFSET: Final = 2
SHORT_SLIDE: Final = (1, 4)  # triangle offset, last-square offset
LONG_SLIDE: Final = (9, 13)


def start_exit(colour: int) -> int:
    """The track square a pawn of ``colour`` enters when it leaves START."""
    return BASE[colour] + START_EXIT_OFFSET


def safety_entry(colour: int) -> int:
    """The last track square before ``colour``'s safety zone."""
    return BASE[colour] + SAFETY_ENTRY_OFFSET


def is_safety(loc: int) -> bool:
    return S1 <= loc <= S5


# SLIDE_AT[square] = (owner colour, last square, squares covered) for each triangle.
SLIDE_AT: Final[dict[int, tuple[int, int, tuple[int, ...]]]] = {}
for _c in range(4):
    for _tri, _end in (SHORT_SLIDE, LONG_SLIDE):
        _sq = BASE[_c] + _tri
        SLIDE_AT[_sq] = (_c, BASE[_c] + _end, tuple(range(_sq, BASE[_c] + _end + 1)))

# SLIDE_OWNER[square] = owner colour of the triangle on that square, or -1.
SLIDE_OWNER: Final = tuple(SLIDE_AT[s][0] if s in SLIDE_AT else -1 for s in range(TRACK_LEN))


def _forward(colour: int, loc: int, n: int) -> int:
    """Where ``n`` forward steps take a pawn of ``colour`` from ``loc``; -1 if impossible."""
    if loc in (START, HOME):
        return -1
    if is_safety(loc):
        k = loc - S1 + 1 + n
        if k > SAFETY_LEN + 1:
            return -1
        return HOME if k == SAFETY_LEN + 1 else S1 + k - 1
    to_entry = (safety_entry(colour) - loc) % TRACK_LEN
    if n <= to_entry:
        return (loc + n) % TRACK_LEN
    k = n - to_entry
    if k > SAFETY_LEN + 1:
        return -1
    return HOME if k == SAFETY_LEN + 1 else S1 + k - 1


def _backward(colour: int, loc: int, n: int) -> int:
    """Where ``n`` backward steps take a pawn of ``colour`` from ``loc``; -1 if impossible."""
    if loc in (START, HOME):
        return -1
    if is_safety(loc):
        k = loc - S1 + 1
        if n < k:
            return loc - n
        return (safety_entry(colour) - (n - k)) % TRACK_LEN
    return (loc - n) % TRACK_LEN


MAX_STEPS: Final = 12
# FORWARD[(colour * NUM_LOCATIONS + loc) * 13 + n] -> destination or -1.
FORWARD: Final = tuple(
    _forward(c, loc, n) if n else -1
    for c in range(4)
    for loc in range(NUM_LOCATIONS)
    for n in range(MAX_STEPS + 1)
)
BACKWARD: Final = tuple(
    _backward(c, loc, n) if n else -1
    for c in range(4)
    for loc in range(NUM_LOCATIONS)
    for n in range(MAX_STEPS + 1)
)


def forward(colour: int, loc: int, n: int) -> int:
    """Destination of ``n`` steps forward (no slide, no occupancy check); -1 if none.

    ``n`` is 1..12 (a card's count); anything else is a ``ValueError``.
    """
    if not 1 <= n <= MAX_STEPS:
        raise ValueError(f"a move has 1 to {MAX_STEPS} steps, not {n}")
    return FORWARD[(colour * NUM_LOCATIONS + loc) * 13 + n]


def backward(colour: int, loc: int, n: int) -> int:
    """Destination of ``n`` steps backward (no slide, no occupancy check); -1 if none.

    ``n`` is 1..12; anything else is a ``ValueError``.
    """
    if not 1 <= n <= MAX_STEPS:
        raise ValueError(f"a move has 1 to {MAX_STEPS} steps, not {n}")
    return BACKWARD[(colour * NUM_LOCATIONS + loc) * 13 + n]


def slot(colour: int, loc: int) -> int:
    """Occupancy slot of a location: track squares are shared, safety squares per colour.

    Returns -1 for START and HOME, which hold any number of pawns.
    """
    if loc < TRACK_LEN:
        return loc
    if loc <= S5:
        return TRACK_LEN + colour * SAFETY_LEN + loc - S1
    return -1


NUM_SLOTS: Final = TRACK_LEN + 4 * SAFETY_LEN


def location_name(loc: int) -> str:
    """``'start'``, ``'home'``, ``'S1'``..``'S5'`` or the track number as text."""
    if loc == START:
        return "start"
    if loc == HOME:
        return "home"
    if is_safety(loc):
        return f"S{loc - S1 + 1}"
    return str(loc)


def parse_location(value: object) -> int:
    """Inverse of :func:`location_name`; also accepts track squares as ints."""
    if isinstance(value, bool):
        raise ValueError(f"bad location {value!r}")
    if isinstance(value, int):
        if 0 <= value < TRACK_LEN:
            return value
        raise ValueError(f"track square out of range: {value}")
    if isinstance(value, str):
        text = value.strip().lower()
        if text == "start":
            return START
        if text == "home":
            return HOME
        if len(text) == 2 and text[0] == "s" and text[1] in "12345":
            return S1 + int(text[1]) - 1
        if text.isdigit() and int(text) < TRACK_LEN:
            return int(text)
    raise ValueError(f"bad location {value!r}")


def pawn_colour(pawn: int) -> int:
    """The colour of pawn ``pawn`` (pawn ids are ``colour * 4 + n``)."""
    return pawn >> 2


def colour_pawns(colour: int) -> range:
    """The four pawn ids of ``colour``."""
    return range(colour * 4, colour * 4 + 4)


def _pawn_label(pawn: int) -> str:
    return f"{Colour(pawn_colour(pawn)).letter}{(pawn & 3) + 1}"


_PAWN_LABELS = tuple(_pawn_label(p) for p in range(16))


def pawn_label(pawn: int) -> str:
    """``'R1'``..``'G4'``."""
    if type(pawn) is int and 0 <= pawn < 16:
        return _PAWN_LABELS[pawn]
    return _pawn_label(pawn)


_LETTERS = {c.letter: c for c in Colour}


def parse_pawn(label: object) -> int:
    """Inverse of :func:`pawn_label` (``'R1'``..``'G4'``); ValueError if no pawn."""
    text = str(label)
    if len(text) != 2 or text[0] not in _LETTERS or text[1] not in "1234":
        raise ValueError(f"no pawn {text!r}")
    return _LETTERS[text[0]] * 4 + int(text[1]) - 1
