"""Legal moves as the client shows them: parts, paths, bumps and a plain description.

The host sends each legal move as its compact wire form ``(kind, card, *operands)``
plus a short notation.  :func:`option_from_compact` rebuilds, from the position and
the board geometry alone, what the preview needs: every square a pawn passes, where a
slide takes it and which pawns go back to START.  Pawns land by the engine's own
landing rule (``rules.precomputed.land_in_place``); it does not judge legality otherwise
(the host did that): an operand that makes no sense raises :class:`BadMove` rather
than being drawn wrongly.

:func:`highlights_for` turns one option into board highlights.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sorry_lan.errors import SorryLanError
from sorry_lan.i18n import words
from sorry_lan.rules.board import (
    HOME,
    NUM_PAWNS,
    START,
    TRACK_LEN,
    Colour,
    backward,
    forward,
    location_name,
    pawn_colour,
    pawn_label,
    start_exit,
)
from sorry_lan.rules.moves import MoveKind
from sorry_lan.rules.precomputed import land_in_place, slide_squares
from sorry_lan.wire.records import EventKind

from .board import Highlights, spot


class BadMove(SorryLanError, ValueError):
    """A compact move that does not fit the position it is described against."""


@dataclass(frozen=True)
class MovePart:
    """One pawn's displacement: ``path`` lists the squares it steps on, ``to`` included.

    ``end`` differs from ``to`` when the pawn lands on another colour's triangle and
    slides; ``slide`` then lists the slide's squares after the triangle.
    """

    pawn: int
    frm: int
    to: int
    end: int
    path: tuple[int, ...]
    slide: tuple[int, ...]
    bumps: tuple[int, ...]


@dataclass(frozen=True)
class MoveOption:
    """A legal move as the UI lists it; ``id`` is what :meth:`Actions.play` receives."""

    id: int
    kind: MoveKind
    card: int
    compact: tuple[int, ...]
    notation: str
    description: str
    parts: tuple[MovePart, ...]

    @property
    def bumps(self) -> tuple[int, ...]:
        return tuple(p for part in self.parts for p in part.bumps)


def card_name(card: int) -> str:
    return words.card_name(card)


def _steps_between(colour: int, frm: int, to: int) -> tuple[int, ...]:
    """The squares stepped on from ``frm`` to ``to`` (forward up to 12, or back 1 or 4)."""
    if frm == START:
        if to != start_exit(colour):
            raise BadMove(f"{Colour(colour).letter} pawn cannot leave START onto {to}")
        return (to,)
    for n in range(1, 13):
        if forward(colour, frm, n) == to:
            return tuple(forward(colour, frm, i) for i in range(1, n + 1))
    for n in (1, 4):
        if backward(colour, frm, n) == to:
            return tuple(backward(colour, frm, i) for i in range(1, n + 1))
    raise BadMove(f"no move goes from {location_name(frm)} to {location_name(to)}")


def _land(pos: list[int], pawn: int, to: int) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """Put ``pawn`` on ``to`` in ``pos`` by the rules' landing (``land_in_place``):
    returns (end, slide squares, bumped pawns)."""
    landed = land_in_place(pos, pawn, to)
    if landed is None:
        raise BadMove(f"{pawn_label(pawn)} cannot land on its own colour's pawn on {to}")
    end, bumps = landed
    return end, slide_squares(pawn, to), bumps


def _pawn(value: int) -> int:
    if not 0 <= value < NUM_PAWNS:
        raise BadMove(f"no pawn {value!r}")
    return value


def _part(pos: list[int], pawn: int, to: int) -> MovePart:
    frm = pos[pawn]
    if frm == HOME:
        raise BadMove(f"{pawn_label(pawn)} is HOME and cannot move")
    path = _steps_between(pawn_colour(pawn), frm, to)
    end, slide, bumps = _land(pos, pawn, to)
    return MovePart(pawn, frm, to, end, path, slide, bumps)


def part_words(part: MovePart) -> str:
    """One pawn's displacement in words, e.g. "R1 forward 2: 4 to 6, bumps B1"."""
    back = part.frm != START and part.to != HOME and _is_backward(part)
    return words.step_words(
        part.pawn, part.frm, part.to, len(part.path), back, part.end, part.bumps
    )


def _is_backward(part: MovePart) -> bool:
    colour = pawn_colour(part.pawn)
    return backward(colour, part.frm, len(part.path)) == part.to and (
        forward(colour, part.frm, len(part.path)) != part.to
    )


# The operands that follow ``(kind, card)`` in each kind of compact move.
_OPERANDS = {
    MoveKind.SIMPLE: 2, MoveKind.SPLIT: 4, MoveKind.SWAP: 2, MoveKind.SORRY: 2,
    MoveKind.DECLINE: 0, MoveKind.DISCARD: 0,
}


def option_from_compact(
    position: Sequence[int], compact: Sequence[int], id: int, notation: str | None = None
) -> MoveOption:
    """Rebuild the parts of a compact move against ``position`` (16 locations)."""
    if len(position) != NUM_PAWNS:
        raise BadMove(f"a position has {NUM_PAWNS} locations")
    if len(compact) < 2:
        raise BadMove(f"compact move too short: {tuple(compact)!r}")
    number, card, *ops = (int(v) for v in compact)
    pos = list(position)
    parts: list[MovePart] = []
    if number not in _OPERANDS or len(ops) != _OPERANDS[MoveKind(number)]:
        raise BadMove(f"bad compact move {tuple(compact)!r}")
    kind = MoveKind(number)
    if kind == MoveKind.SIMPLE:
        parts.append(_part(pos, _pawn(ops[0]), ops[1]))
        desc = part_words(parts[0])
    elif kind == MoveKind.SPLIT:
        parts.append(_part(pos, _pawn(ops[0]), ops[1]))
        parts.append(_part(pos, _pawn(ops[2]), ops[3]))
        desc = words.split_words(part_words(parts[0]), part_words(parts[1]))
    elif kind == MoveKind.SWAP:
        a, b = _pawn(ops[0]), _pawn(ops[1])
        fa, fb = pos[a], pos[b]
        if not (fa < TRACK_LEN and fb < TRACK_LEN):
            raise BadMove("both swapped pawns must be on the track")
        pos[b] = fa  # both move at once; then each lands in turn
        ea, sa, ba = _land(pos, a, fb)
        eb: int
        sb: tuple[int, ...]
        bb: tuple[int, ...]
        if b in ba:  # a's slide swept b away: it stays in START
            eb, sb, bb = START, (), ()
        else:
            eb, sb, bb = _land(pos, b, fa)
        parts = [MovePart(a, fa, fb, ea, (fb,), sa, ba), MovePart(b, fb, fa, eb, (fa,), sb, bb)]
        desc = words.swap_words(a, fa, b, fb)
        for part in parts:
            if part.end != part.to:
                desc = words.slides_words(desc, part.pawn, part.end)
            if part.bumps:
                desc = words.also_bumps_words(desc, part.bumps)
    elif kind == MoveKind.SORRY:
        a, b = _pawn(ops[0]), _pawn(ops[1])
        if pos[a] != START or pos[b] >= TRACK_LEN:
            raise BadMove("Sorry! takes a pawn from START onto a pawn on the track")
        target = pos[b]
        end, slide, bumps = _land(pos, a, target)
        parts = [MovePart(a, START, target, end, (target,), slide, bumps)]
        desc = words.sorry_words(a, b, target, end)
    elif kind == MoveKind.DECLINE:
        desc = words.decline_words()
    else:
        desc = words.discard_words(card)
    return MoveOption(
        id=id,
        kind=kind,
        card=card,
        compact=tuple(int(v) for v in compact),
        notation=notation if notation is not None else short_notation(kind, card, parts),
        description=desc,
        parts=tuple(parts),
    )


def apply_option(position: Sequence[int], option: MoveOption) -> tuple[int, ...]:
    """The 16 locations after ``option``: each part in order, bumped pawns to START."""
    pos = list(position)
    for part in option.parts:
        for bumped in part.bumps:
            pos[bumped] = START
        pos[part.pawn] = part.end
    return tuple(pos)


def short_part(part: MovePart) -> str:
    """One pawn's displacement in a list's short form, e.g. "R1 4->6" or "R2 12->13>16 xB1"."""
    frm, to = words.short_location(part.frm), words.short_location(part.to)
    text = f"{pawn_label(part.pawn)} {frm}->{to}"
    if part.end != part.to:
        text += f">{words.short_location(part.end)}"
    if part.bumps:
        text += " x" + ",".join(pawn_label(b) for b in part.bumps)
    return text


def short_notation(kind: MoveKind, card: int, parts: Sequence[MovePart]) -> str:
    """A compact label for a move list, used when the host sent no notation."""
    if kind == MoveKind.DECLINE:
        return words.decline_short()
    if kind == MoveKind.DISCARD:
        return words.discard_short(card)
    if kind == MoveKind.SWAP:
        a, b = parts
        return f"{pawn_label(a.pawn)} {a.frm}<->{pawn_label(b.pawn)} {b.frm}"
    if kind == MoveKind.SORRY:
        return f"{words.sorry_word()} {short_part(parts[0])}"
    if kind == MoveKind.SPLIT:
        return "7: " + ", ".join(short_part(p) for p in parts)
    return short_part(parts[0])


def played_text(events: Sequence[Sequence[int]], fallback: str) -> str:
    """What a played card did, in the player's words, from the host's event tuples
    (the shape of the host's notation: ``R1 12->16, slides to 19, bumps B1``,
    ``7: R1 4->8, R2 10->13``, ``R1 12 <-> B2 30``, ``Sorry! R3 start->40, bumps B1``).

    ``fallback`` (the host's English notation) is used only when the events hold no
    card played and no pawn moved."""
    card = None
    moves: list[list[int]] = []  # [pawn, from, to, end]
    bumps: list[list[int]] = []  # the bumped pawns of each move
    for ev in events:
        if ev[0] == EventKind.PLAY:
            card = ev[2]
        elif ev[0] == EventKind.MOVE:
            moves.append([ev[1], ev[2], ev[3], ev[3]])
            bumps.append([])
        elif ev[0] == EventKind.SLIDE and moves:
            moves[-1][3] = ev[3]
        elif ev[0] == EventKind.BUMP and moves:
            bumps[-1].append(ev[1])
    discarded = next((ev[2] for ev in events if ev[0] == EventKind.DISCARD), None)
    if not moves and discarded is not None:
        return words.discard_short(discarded)
    if not moves and card == 11:
        return words.decline_short()
    if card is None or not moves:
        return fallback
    loc = words.short_location
    swap = (
        card == 11
        and len(moves) == 2
        and moves[0][1] == moves[1][2]
        and moves[1][1] == moves[0][2]
    )
    if swap:
        (a, fa, _ta, _ea), (b, fb, _tb, _eb) = moves
        text = f"{pawn_label(a)} {loc(fa)} <-> {pawn_label(b)} {loc(fb)}"
        for (pawn, _f, to, end), bumped in zip(moves, bumps, strict=True):
            if end != to:
                text = words.pawn_slides_words(text, pawn, end)
            if bumped:
                text = words.comma_bumps_words(text, bumped)
        return text
    parts = []
    for (pawn, frm, to, end), bumped in zip(moves, bumps, strict=True):
        text = f"{pawn_label(pawn)} {loc(frm)}->{loc(to)}"
        if end != to:
            text = words.comma_slides_words(text, end)
        if bumped:
            text = words.comma_bumps_words(text, bumped)
        parts.append(text)
    if card == 13:
        return f"{words.sorry_word()} {parts[0]}"
    if len(parts) > 1:
        return words.played_line(card, ", ".join(parts))
    return parts[0]


def highlights_for(preview: MoveOption | None, last: MoveOption | None = None) -> Highlights:
    """Board highlights for a previewed option and the last move played."""
    last_spots: set[int] = set()
    if last is not None:
        for part in last.parts:
            colour = pawn_colour(part.pawn)
            last_spots.add(spot(colour, part.frm))
            last_spots.add(spot(colour, part.end))
    if preview is None:
        return Highlights(last=frozenset(last_spots))
    path: set[int] = set()
    dest: list[tuple[int, int]] = []
    bumps: set[int] = set()
    for part in preview.parts:
        colour = pawn_colour(part.pawn)
        path.update(spot(colour, loc) for loc in part.path + part.slide)
        dest.append((spot(colour, part.end), part.pawn))
        bumps.update(part.bumps)
    return Highlights(
        last=frozenset(last_spots),
        path=frozenset(path),
        dest=tuple(dest),
        bumps=frozenset(bumps),
        moving=frozenset(part.pawn for part in preview.parts),
    )
