"""Every protocol message as a frozen dataclass (their enums and specs: ``wire.vocab``).

One class per message type; ``Class.TYPE`` is its :class:`MsgType` (the wire ``t``
field), and each dataclass field carries its :mod:`~sorry_lan.wire.schema` spec in its
metadata.  Constructing a message validates and normalises it (lists become tuples,
ints become ``Colour``/``Card``), raising :class:`LocalProtocolError` with a reason
code if a value is out of bounds, so an invalid message cannot even be built.

Game content stays plain data: colours, cards and locations are ints, a compact move
is a tuple of ints ``(kind, card, *operands)`` and an event is ``(kind, *operands)``.
Nothing here knows the game rules; whether a move is legal is the host's business.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, TypeVar

from sorry_lan.rules.board import NUM_PAWNS, Colour
from sorry_lan.rules.cards import Card
from sorry_lan.rules.variants import Variant
from sorry_lan.wire import limits as L
from sorry_lan.wire.errors import ErrorReason
from sorry_lan.wire.records import (
    EVENT,
    MOVE_OPTION,
    PLAYER_INFO,
    EventTuple,
    MoveOption,
    PlayerInfo,
)
from sorry_lan.wire.schema import (
    BoolSpec,
    BytesSpec,
    EnumSpec,
    IntSpec,
    LaterSpec,
    ListSpec,
    OptSpec,
    Spec,
    StrSpec,
)
from sorry_lan.wire.vocab import (
    CARD,
    CARD_COUNTS,
    COLOUR,
    COUNT,
    HAND,
    LANG,
    LOCATION,
    NAME,
    PID,
    SCORES,
    SID,
    SOFTWARE,
    TEXT,
    VARIANT,
    VERSION,
    VERSIONS,
    ByeReason,
    MsgType,
    RefuseReason,
    is_level,
)

_T = TypeVar("_T", bound="Message")


def _f(spec: Spec) -> dict[str, Spec]:
    return {"spec": spec}


class Message:
    """Base of all message classes; see :data:`MESSAGE_TYPES` for the registry."""

    __slots__ = ()
    TYPE: ClassVar[MsgType]
    FIELDS: ClassVar[tuple[tuple[str, Spec], ...]]

    def __post_init__(self) -> None:
        for name, spec in self.FIELDS:
            where = f"{self.TYPE.value}.{name}"
            object.__setattr__(self, name, spec.check(getattr(self, name), where))

    @classmethod
    def trusted(cls: type[_T], **values: Any) -> _T:
        """Build a message from values the program computed itself, WITHOUT checking
        them (the host's per-move messages, from the engine's own data).

        Each value must already be what the checking constructor would make of it:
        tuples, not lists; ``Colour``/``Card``/enum members; plain ints in compact
        moves and events; text within its limits.  Never use it for anything a peer
        sent (``from_wire`` checks that).  ``encode`` still refuses an oversized frame.
        Raises ``TypeError`` when a field is missing or unknown."""
        if len(values) != len(cls.FIELDS):
            raise TypeError(f"{cls.__name__}.trusted: fields {sorted(values)}")
        message = object.__new__(cls)
        for name, _ in cls.FIELDS:
            object.__setattr__(message, name, values[name])
        return message


MESSAGE_TYPES: dict[MsgType, type[Message]] = {}
_M = TypeVar("_M", bound=type[Message])


def _register(cls: _M) -> _M:
    cls.FIELDS = tuple((f.name, f.metadata["spec"]) for f in fields(cls))  # type: ignore[arg-type]
    assert cls.TYPE not in MESSAGE_TYPES, cls
    MESSAGE_TYPES[cls.TYPE] = cls
    return cls


# -- joining -------------------------------------------------------------------------


@_register
@dataclass(frozen=True, slots=True)
class Hello(Message):
    """Client -> host, first message: join as a player (or reclaim a seat with ``token``)."""

    TYPE: ClassVar[MsgType] = MsgType.HELLO
    versions: tuple[int, ...] = field(metadata=_f(VERSIONS))
    software: str = field(metadata=_f(SOFTWARE))
    name: str = field(metadata=_f(NAME))
    token: bytes | None = field(metadata=_f(OptSpec(BytesSpec(L.TOKEN_SIZE))))


@_register
@dataclass(frozen=True, slots=True)
class Spectate(Message):
    """Client -> host, first message: join as a spectator (public view only)."""

    TYPE: ClassVar[MsgType] = MsgType.SPECTATE
    versions: tuple[int, ...] = field(metadata=_f(VERSIONS))
    software: str = field(metadata=_f(SOFTWARE))
    name: str = field(metadata=_f(NAME))


@_register
@dataclass(frozen=True, slots=True)
class Challenge(Message):
    """Host -> client: the table has a PIN; prove it over ``nonce``."""

    TYPE: ClassVar[MsgType] = MsgType.CHALLENGE
    version: int = field(metadata=_f(VERSION))
    nonce: bytes = field(metadata=_f(BytesSpec(L.NONCE_SIZE)))


@_register
@dataclass(frozen=True, slots=True)
class Proof(Message):
    """Client -> host: ``mac = HMAC-SHA256(pin_key(PIN), nonce + cnonce)``."""

    TYPE: ClassVar[MsgType] = MsgType.PROOF
    cnonce: bytes = field(metadata=_f(BytesSpec(L.NONCE_SIZE)))
    mac: bytes = field(metadata=_f(BytesSpec(L.MAC_SIZE)))


@_register
@dataclass(frozen=True, slots=True)
class Welcome(Message):
    """Host -> client: admitted.  ``pid``/``token`` are nil for a spectator."""

    TYPE: ClassVar[MsgType] = MsgType.WELCOME
    version: int = field(metadata=_f(VERSION))
    software: str = field(metadata=_f(SOFTWARE))
    pid: int | None = field(metadata=_f(OptSpec(PID)))
    token: bytes | None = field(metadata=_f(OptSpec(BytesSpec(L.TOKEN_SIZE))))
    owner: bool = field(metadata=_f(BoolSpec()))
    name: str = field(metadata=_f(NAME))


@_register
@dataclass(frozen=True, slots=True)
class Refuse(Message):
    """Host -> client: not admitted; the host closes the connection after it."""

    TYPE: ClassVar[MsgType] = MsgType.REFUSE
    reason: RefuseReason = field(metadata=_f(EnumSpec(RefuseReason)))
    text: str = field(metadata=_f(TEXT))
    versions: tuple[int, ...] = field(metadata=_f(VERSIONS))


# -- lobby ---------------------------------------------------------------------------


@_register
@dataclass(frozen=True, slots=True)
class Lobby(Message):
    """Host -> client: the whole roster; sent on every change, in any phase."""

    TYPE: ClassVar[MsgType] = MsgType.LOBBY
    variant: Variant = field(metadata=_f(VARIANT))
    seats: int = field(metadata=_f(IntSpec(2, 4)))
    host: int | None = field(metadata=_f(OptSpec(PID)))
    players: tuple[PlayerInfo, ...] = field(metadata=_f(ListSpec(PLAYER_INFO, L.PLAYERS_MAX)))
    spectators: int = field(metadata=_f(IntSpec(0, L.SPECTATORS_MAX)))


@_register
@dataclass(frozen=True, slots=True)
class ChooseColour(Message):
    TYPE: ClassVar[MsgType] = MsgType.CHOOSE_COLOUR
    colour: Colour = field(metadata=_f(COLOUR))


@_register
@dataclass(frozen=True, slots=True)
class Ready(Message):
    TYPE: ClassVar[MsgType] = MsgType.READY
    ready: bool = field(metadata=_f(BoolSpec()))


@_register
@dataclass(frozen=True, slots=True)
class AddBot(Message):
    """Owner -> host: seat a bot, on ``colour`` or on any free colour when nil, of
    strength ``level`` (nil: the table's own bot strength)."""

    TYPE: ClassVar[MsgType] = MsgType.ADD_BOT
    colour: Colour | None = field(metadata=_f(OptSpec(COLOUR)))
    level: str | None = field(
        metadata=_f(OptSpec(
            StrSpec(L.LEVEL_MAX, min_len=1, allowed=is_level, allowed_text="[A-Za-z0-9_-]+")
        ))
    )


@_register
@dataclass(frozen=True, slots=True)
class RemoveBot(Message):
    TYPE: ClassVar[MsgType] = MsgType.REMOVE_BOT
    pid: int = field(metadata=_f(PID))


@_register
@dataclass(frozen=True, slots=True)
class SetVariant(Message):
    TYPE: ClassVar[MsgType] = MsgType.SET_VARIANT
    variant: Variant = field(metadata=_f(VARIANT))


@_register
@dataclass(frozen=True, slots=True)
class Start(Message):
    TYPE: ClassVar[MsgType] = MsgType.START


# -- play ----------------------------------------------------------------------------


@_register
@dataclass(frozen=True, slots=True)
class Snapshot(Message):
    """Host -> client: everything one seat may see, as of state ``sid``.

    ``you`` is nil for a spectator; ``hand`` is the receiving seat's own hand (play for
    points only) and nil otherwise; ``discarded`` the discard pile counted by card value
    (public: a seat that joins late learns the cards lost before it came; protocol
    version 2 on, ``None`` -- left out -- to a version-1 connection).  Never
    carries the draw order or others' hands.
    """

    TYPE: ClassVar[MsgType] = MsgType.SNAPSHOT
    sid: int = field(metadata=_f(SID))
    variant: Variant = field(metadata=_f(VARIANT))
    you: Colour | None = field(metadata=_f(OptSpec(COLOUR)))
    colours: tuple[Colour, ...] = field(metadata=_f(ListSpec(COLOUR, 4, unique=True)))
    pawns: tuple[int, ...] = field(
        metadata=_f(ListSpec(LOCATION, NUM_PAWNS, min_len=NUM_PAWNS))
    )
    turn: Colour | None = field(metadata=_f(OptSpec(COLOUR)))
    card: Card | None = field(metadata=_f(OptSpec(CARD)))
    hand: tuple[Card, ...] | None = field(metadata=_f(OptSpec(HAND)))
    pile: int = field(metadata=_f(COUNT))
    discards: int = field(metadata=_f(COUNT))
    top: Card | None = field(metadata=_f(OptSpec(CARD)))
    discarded: tuple[int, ...] | None = field(metadata=_f(LaterSpec(CARD_COUNTS, 2)))
    scores: tuple[int, ...] | None = field(metadata=_f(OptSpec(SCORES)))


@_register
@dataclass(frozen=True, slots=True)
class Turn(Message):
    """Host -> client: ``colour`` is to play; ``card`` is the card drawn (nil in points).

    ``hand`` is the receiver's own hand and only when the receiver is that seat.
    """

    TYPE: ClassVar[MsgType] = MsgType.TURN
    sid: int = field(metadata=_f(SID))
    colour: Colour = field(metadata=_f(COLOUR))
    card: Card | None = field(metadata=_f(OptSpec(CARD)))
    hand: tuple[Card, ...] | None = field(metadata=_f(OptSpec(HAND)))
    pile: int = field(metadata=_f(COUNT))


@_register
@dataclass(frozen=True, slots=True)
class LegalMoves(Message):
    """Host -> the seat to move: its options for state ``sid``; ``timeout`` in seconds."""

    TYPE: ClassVar[MsgType] = MsgType.LEGAL_MOVES
    sid: int = field(metadata=_f(SID))
    moves: tuple[MoveOption, ...] = field(
        metadata=_f(ListSpec(MOVE_OPTION, L.MOVES_MAX, min_len=1))
    )
    timeout: int | None = field(metadata=_f(OptSpec(IntSpec(1, L.TIMEOUT_MAX))))


@_register
@dataclass(frozen=True, slots=True)
class Move(Message):
    """Client -> host: play legal move ``id`` of the moves offered for state ``sid``."""

    TYPE: ClassVar[MsgType] = MsgType.MOVE
    sid: int = field(metadata=_f(SID))
    id: int = field(metadata=_f(IntSpec(0, L.MOVE_ID_MAX)))


@_register
@dataclass(frozen=True, slots=True)
class Events(Message):
    """Host -> client: what happened, leading to state ``sid``."""

    TYPE: ClassVar[MsgType] = MsgType.EVENTS
    sid: int = field(metadata=_f(SID))
    colour: Colour | None = field(metadata=_f(OptSpec(COLOUR)))
    notation: str = field(metadata=_f(StrSpec(L.NOTATION_MAX)))
    events: tuple[EventTuple, ...] = field(metadata=_f(ListSpec(EVENT, L.EVENTS_MAX)))


@_register
@dataclass(frozen=True, slots=True)
class GameOver(Message):
    """Host -> client: the game ended; ``winners`` empty means abandoned."""

    TYPE: ClassVar[MsgType] = MsgType.GAME_OVER
    sid: int = field(metadata=_f(SID))
    winners: tuple[Colour, ...] = field(metadata=_f(ListSpec(COLOUR, 2, unique=True)))
    scores: tuple[int, ...] | None = field(metadata=_f(OptSpec(SCORES)))


@_register
@dataclass(frozen=True, slots=True)
class Rematch(Message):
    """Client -> host: I want another game.  Host -> client: back to the lobby."""

    TYPE: ClassVar[MsgType] = MsgType.REMATCH


# -- any time ------------------------------------------------------------------------


@_register
@dataclass(frozen=True, slots=True)
class Profile(Message):
    """Client -> host, player, protocol version 2: about the player, for the roster.

    ``lang`` is the language the player reads (a code; nil: not telling), ``program``
    true when a program, not a person, plays this seat from this connection.  Sent
    after ``welcome`` and again whenever either changes."""

    TYPE: ClassVar[MsgType] = MsgType.PROFILE
    lang: str | None = field(metadata=_f(OptSpec(LANG)))
    program: bool = field(metadata=_f(BoolSpec()))



@_register
@dataclass(frozen=True, slots=True)
class Chat(Message):
    """Chat line; ``pid`` is the speaker as relayed by the host (nil from a client)."""

    TYPE: ClassVar[MsgType] = MsgType.CHAT
    pid: int | None = field(metadata=_f(OptSpec(PID)))
    text: str = field(metadata=_f(StrSpec(L.CHAT_MAX, min_len=1)))


@_register
@dataclass(frozen=True, slots=True)
class Ping(Message):
    TYPE: ClassVar[MsgType] = MsgType.PING
    n: int = field(metadata=_f(IntSpec(0, L.U32_MAX)))


@_register
@dataclass(frozen=True, slots=True)
class Pong(Message):
    TYPE: ClassVar[MsgType] = MsgType.PONG
    n: int = field(metadata=_f(IntSpec(0, L.U32_MAX)))


@_register
@dataclass(frozen=True, slots=True)
class Error(Message):
    """Either way: something was refused; when ``fatal`` the sender closes next."""

    TYPE: ClassVar[MsgType] = MsgType.ERROR
    reason: ErrorReason = field(metadata=_f(EnumSpec(ErrorReason)))
    text: str = field(metadata=_f(TEXT))
    fatal: bool = field(metadata=_f(BoolSpec()))


@_register
@dataclass(frozen=True, slots=True)
class Resync(Message):
    """Client -> host: send me a fresh lobby/snapshot (I think I missed something)."""

    TYPE: ClassVar[MsgType] = MsgType.RESYNC


@_register
@dataclass(frozen=True, slots=True)
class Bye(Message):
    """Either way: the sender is closing the connection."""

    TYPE: ClassVar[MsgType] = MsgType.BYE
    reason: ByeReason = field(metadata=_f(EnumSpec(ByeReason)))


assert set(MESSAGE_TYPES) == set(MsgType), set(MsgType) - set(MESSAGE_TYPES)

__all__ = [
    "MESSAGE_TYPES",
    "AddBot",
    "Bye",
    "Challenge",
    "Chat",
    "ChooseColour",
    "Error",
    "Events",
    "GameOver",
    "Hello",
    "LegalMoves",
    "Lobby",
    "Message",
    "Move",
    "Ping",
    "Pong",
    "Profile",
    "Proof",
    "Ready",
    "Refuse",
    "Rematch",
    "RemoveBot",
    "Resync",
    "SetVariant",
    "Snapshot",
    "Spectate",
    "Start",
    "Turn",
    "Welcome",
]


def message_fields(message: Message) -> dict[str, Any]:
    """The message's fields as a dict of normalised (Python) values."""
    return {name: getattr(message, name) for name, _ in message.FIELDS}
