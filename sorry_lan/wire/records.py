"""Records nested inside messages: roster entries, move options, compact moves, events.

Records travel as fixed-shape msgpack arrays (not maps) because they repeat: a
legal-move list may hold hundreds.  :class:`PlayerInfo` and :class:`MoveOption` are
frozen dataclasses; compact moves and events are plain int tuples ``(kind, ...)``
whose shape depends on the kind, checked by :data:`COMPACT_MOVE` and :data:`EVENT`.

The shapes follow the engine's conventions (pawn ids, locations, cards); this module
does not judge whether a move or event is possible on any board.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Final

from sorry_lan.rules.board import NUM_LOCATIONS, NUM_PAWNS, Colour
from sorry_lan.rules.cards import Card
from sorry_lan.rules.moves import MoveKind
from sorry_lan.wire import limits as L
from sorry_lan.wire.schema import (
    BoolSpec,
    EnumSpec,
    IntSpec,
    OptSpec,
    RecordSpec,
    StrSpec,
    VariantSpec,
)
from sorry_lan.wire.vocab import LANG

CompactMove = tuple[int, ...]
EventTuple = tuple[int, ...]

_PAWN: Final = IntSpec(0, NUM_PAWNS - 1)
_LOC: Final = IntSpec(0, NUM_LOCATIONS - 1)
_CARD: Final = EnumSpec(Card)
_COLOUR: Final = EnumSpec(Colour)


# A compact move is ``(kind, card, *operands)``, its kind the engine's ``MoveKind``.
COMPACT_MOVE: Final = VariantSpec(
    "move",
    {
        # (0, card, pawn, to): any card but the Sorry!
        MoveKind.SIMPLE: (EnumSpec(Card, exclude=(Card.SORRY,)), _PAWN, _LOC),
        MoveKind.SPLIT: (IntSpec(7, 7), _PAWN, _LOC, _PAWN, _LOC),  # (1, 7, a, to_a, b, to_b)
        MoveKind.SWAP: (IntSpec(11, 11), _PAWN, _PAWN),  # (2, 11, pawn, other_pawn)
        MoveKind.SORRY: (IntSpec(13, 13), _PAWN, _PAWN),  # (3, 13, pawn, target_pawn)
        MoveKind.DECLINE: (IntSpec(11, 11),),  # (4, 11): decline the 11, lose the turn
        MoveKind.DISCARD: (_CARD,),  # (5, card): play for points, no move possible
    },
)


class EventKind(IntEnum):
    """First item of an event ``(kind, *operands)``."""

    MOVE = 0  # (0, pawn, from, to): the card's own movement of a pawn (swaps are two)
    SLIDE = 1  # (1, pawn, from, to): a slide from a triangle to its last square
    BUMP = 2  # (2, pawn, from): sent back to START from ``from``
    PLAY = 3  # (3, colour, card): a card was played
    DISCARD = 4  # (4, colour, card): a card discarded without a move (points)
    TURN_LOST = 5  # (5, colour, card): no legal move for that card
    DRAW_AGAIN = 6  # (6, colour): that colour draws again (after a 2)
    RESHUFFLE = 7  # (7, pile): discards shuffled into a new draw pile of ``pile`` cards


EVENT: Final = VariantSpec(
    "event",
    {
        EventKind.MOVE: (_PAWN, _LOC, _LOC),
        EventKind.SLIDE: (_PAWN, _LOC, _LOC),
        EventKind.BUMP: (_PAWN, _LOC),
        EventKind.PLAY: (_COLOUR, _CARD),
        EventKind.DISCARD: (_COLOUR, _CARD),
        EventKind.TURN_LOST: (_COLOUR, _CARD),
        EventKind.DRAW_AGAIN: (_COLOUR,),
        EventKind.RESHUFFLE: (IntSpec(0, L.COUNT_MAX),),
    },
)


def _checked(spec: VariantSpec, value: tuple[int, ...]) -> tuple[int, ...]:
    return spec.check(value, spec.name)


def ev_move(pawn: int, src: int, dst: int) -> EventTuple:
    return _checked(EVENT, (EventKind.MOVE, pawn, src, dst))


def ev_slide(pawn: int, src: int, dst: int) -> EventTuple:
    return _checked(EVENT, (EventKind.SLIDE, pawn, src, dst))


def ev_bump(pawn: int, src: int) -> EventTuple:
    return _checked(EVENT, (EventKind.BUMP, pawn, src))


def ev_play(colour: int, card: int) -> EventTuple:
    return _checked(EVENT, (EventKind.PLAY, colour, card))


def ev_discard(colour: int, card: int) -> EventTuple:
    return _checked(EVENT, (EventKind.DISCARD, colour, card))


def ev_turn_lost(colour: int, card: int) -> EventTuple:
    return _checked(EVENT, (EventKind.TURN_LOST, colour, card))


def ev_draw_again(colour: int) -> EventTuple:
    return _checked(EVENT, (EventKind.DRAW_AGAIN, colour))


def ev_reshuffle(pile: int) -> EventTuple:
    return _checked(EVENT, (EventKind.RESHUFFLE, pile))


def compact_move(*items: int) -> CompactMove:
    """Check a compact move tuple (kind, card, *operands); raises LocalProtocolError."""
    return _checked(COMPACT_MOVE, items)


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """One roster entry: ``[pid, name, colour|nil, bot, ready, connected]`` on the wire,
    and from protocol version 2 ``[..., lang|nil, program]`` when either is set.

    ``bot`` is a bot the host runs (the owner may remove it); ``program`` a player that
    said in its ``profile`` that a program plays it from its own connection; ``lang``
    the language code the player's ``profile`` named (``None``: not told)."""

    pid: int
    name: str
    colour: Colour | None
    bot: bool
    ready: bool
    connected: bool
    lang: str | None = None
    program: bool = False

    def __post_init__(self) -> None:
        _normalise(self, PLAYER_INFO)


@dataclass(frozen=True, slots=True)
class MoveOption:
    """One legal move: ``[id, notation, compact move]`` on the wire."""

    id: int
    notation: str
    move: CompactMove

    def __post_init__(self) -> None:
        _normalise(self, MOVE_OPTION)

    @classmethod
    def trusted(cls, id: int, notation: str, move: CompactMove) -> MoveOption:
        """Build without checking, from values the program made itself (a plain-int
        ``move`` tuple, a notation within its limits); never for received data."""
        option = object.__new__(cls)
        object.__setattr__(option, "id", id)
        object.__setattr__(option, "notation", notation)
        object.__setattr__(option, "move", move)
        return option


def _normalise(record: PlayerInfo | MoveOption, spec: RecordSpec) -> None:
    values = spec.fields(record)
    checked = spec.shape.check(values, spec.name)
    for name, value in zip(record.__slots__, checked, strict=True):
        object.__setattr__(record, name, value)


def _from_items(cls: type[PlayerInfo] | type[MoveOption]) -> object:
    def build(*items: object) -> object:
        obj = object.__new__(cls)
        for name, value in zip(cls.__slots__, items, strict=True):
            object.__setattr__(obj, name, value)
        return obj

    return build


PLAYER_INFO: Final = RecordSpec(
    "player",
    (
        IntSpec(0, L.PID_MAX),
        StrSpec(L.NAME_MAX, min_len=1, stripped=True),
        OptSpec(_COLOUR),
        BoolSpec(),
        BoolSpec(),
        BoolSpec(),
    ),
    build=_from_items(PlayerInfo),  # type: ignore[arg-type]
    fields=lambda p: (p.pid, p.name, p.colour, p.bot, p.ready, p.connected, p.lang, p.program),
    record_type=PlayerInfo,
    tail=((OptSpec(LANG), None), (BoolSpec(), False)),  # protocol version 2
)


def for_version(player: PlayerInfo, version: int) -> PlayerInfo:
    """``player`` as a connection on protocol ``version`` may be told it: version 1
    knows no ``lang`` nor ``program``."""
    if version >= 2 or (player.lang is None and not player.program):
        return player
    return PlayerInfo(
        player.pid, player.name, player.colour, player.bot, player.ready, player.connected
    )

MOVE_OPTION: Final = RecordSpec(
    "move_option",
    (IntSpec(0, L.MOVE_ID_MAX), StrSpec(L.NOTATION_MAX, min_len=1), COMPACT_MOVE),
    build=_from_items(MoveOption),  # type: ignore[arg-type]
    fields=lambda m: (m.id, m.notation, m.move),
    record_type=MoveOption,
)
