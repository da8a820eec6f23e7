"""Build per-receiver messages from the host's plain game data.

The host holds every hand; these helpers take all of them and put into each message
only what its receiver may see (its own hand, nothing for spectators), so that the
"never another player's hand" rule holds by construction rather than by care at each
call site.  They do not read the engine's objects (the host passes ints and
sequences), do not compute legal moves, and do not decide whose turn it is.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TypeVar

from sorry_lan.rules.board import Colour
from sorry_lan.rules.cards import Card
from sorry_lan.wire.messages import Lobby, Snapshot, Turn, Variant
from sorry_lan.wire.records import PlayerInfo
from sorry_lan.wire.schema import EnumSpec
from sorry_lan.wire.vocab import CARD, COLOUR

Hands = Mapping[int, Sequence[int]]
_E = TypeVar("_E")


def _as(spec: EnumSpec, value: int, where: str, kind: type[_E]) -> _E:
    out = spec.check(value, where)
    assert isinstance(out, kind)
    return out


def _colour(value: int, where: str = "colour") -> Colour:
    return _as(COLOUR, value, where, Colour)


def _card(value: int, where: str = "card") -> Card:
    return _as(CARD, value, where, Card)


def _own_hand(receiver: int | None, hands: Hands | None) -> tuple[Card, ...] | None:
    if hands is None or receiver is None or receiver not in hands:
        return None
    return tuple(_card(c, "hand") for c in hands[receiver])


def snapshot_for(
    receiver: int | None,
    *,
    sid: int,
    variant: Variant,
    colours: Sequence[int],
    pawns: Sequence[int],
    turn: int | None,
    card: int | None,
    pile: int,
    discards: int,
    top: int | None,
    hands: Hands | None = None,
    scores: Sequence[int] | None = None,
) -> Snapshot:
    """The snapshot for ``receiver`` (a colour, or None for a spectator).

    ``hands`` maps every colour to its hand (play for points); only the receiver's
    own hand is copied into the message.  ``scores`` is indexed by colour.
    """
    return Snapshot(
        sid=sid,
        variant=variant,
        you=None if receiver is None else _colour(receiver, "you"),
        colours=tuple(_colour(c, "colours") for c in colours),
        pawns=tuple(pawns),
        turn=None if turn is None else _colour(turn, "turn"),
        card=None if card is None else _card(card),
        hand=_own_hand(receiver, hands),
        pile=pile,
        discards=discards,
        top=None if top is None else _card(top, "top"),
        scores=None if scores is None else tuple(scores),
    )


def turn_for(
    receiver: int | None,
    *,
    sid: int,
    colour: int,
    card: int | None,
    pile: int,
    hands: Hands | None = None,
) -> Turn:
    """The ``turn`` for ``receiver``: the mover's hand goes to the mover alone."""
    hand = _own_hand(receiver, hands) if receiver == colour else None
    return Turn(
        sid=sid,
        colour=_colour(colour),
        card=None if card is None else _card(card),
        hand=hand,
        pile=pile,
    )


def lobby_from(
    variant: Variant,
    owner: int | None,
    players: Iterable[tuple[int, str, int | None, bool, bool, bool]],
    spectators: int = 0,
    seats: int = 4,
) -> Lobby:
    """A ``lobby`` from plain rows ``(pid, name, colour|None, bot, ready, connected)``."""
    return Lobby(
        variant=variant,
        seats=seats,
        host=owner,
        players=tuple(
            PlayerInfo(
                pid=pid,
                name=name,
                colour=None if colour is None else _colour(colour),
                bot=bot,
                ready=ready,
                connected=connected,
            )
            for pid, name, colour, bot, ready, connected in players
        ),
        spectators=spectators,
    )
