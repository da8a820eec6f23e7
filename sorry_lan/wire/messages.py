"""Every protocol message as a frozen dataclass (their enums and specs: ``wire.vocab``).

One class per message type, each declared once with :func:`declare`: its wire name,
who may send it in which states (:func:`~sorry_lan.wire.transitions.by_client`,
:func:`~sorry_lan.wire.transitions.by_host`) and the version that added it; each
dataclass field carries its :mod:`~sorry_lan.wire.schema` spec in its metadata.  The
declarations make everything else: ``Class.TYPE``, its :class:`MsgType` member (the
wire ``t`` field), :data:`MESSAGE_TYPES` (the codec's lookup), :data:`SINCE_VERSION`
and the rows of :data:`~sorry_lan.wire.transitions.TRANSITIONS`.  How to add a
message: the :mod:`sorry_lan.wire` docstring.

Constructing a message validates and normalises it (lists become tuples, ints become
``Colour``/``Card``), raising :class:`LocalProtocolError` with a reason
code if a value is out of bounds, so an invalid message cannot even be built.

Game content stays plain data: colours, cards and locations are ints, a compact move
is a tuple of ints ``(kind, card, *operands)`` and an event is ``(kind, *operands)``.
Nothing here knows the game rules; whether a move is legal is the host's business.
"""

from __future__ import annotations

import re
from collections.abc import Callable
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
    BlobSpec,
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
from sorry_lan.wire.succession import (
    ADDRS,
    CHAT_TAIL,
    DIGESTS,
    EPOCH,
    ORDER,
    PORT,
    SALT,
    SEATS,
    SEEN,
    SETTINGS,
    TABLE_ID,
    ChatLine,
    Laptop,
    SeatRecord,
    TableSettings,
)
from sorry_lan.wire.transitions import (
    OPEN,
    WELCOMED,
    Sends,
    Who,
    add_rules,
    by_client,
    by_host,
    remove_rules,
)
from sorry_lan.wire.transitions import State as S
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
    SWAPS,
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

    @classmethod
    def example(cls: type[_T]) -> _T:
        """A made-up valid message of this class, built from its field specs' examples
        (the golden vectors' sample of a message that has none written by hand)."""
        return cls(**{name: spec.example() for name, spec in cls.FIELDS})


#: Wire type name (a :class:`MsgType` member) -> its message class, in declaration order.
MESSAGE_TYPES: dict[str, type[Message]] = {}
#: Message types added after version 1, with the version that added them: a session
#: neither sends nor accepts one on a connection that settled on an older version.
SINCE_VERSION: dict[MsgType, int] = {}
_M = TypeVar("_M", bound=type[Message])
_WORD_START = re.compile(r"(?<!^)(?=[A-Z])")


def declare(wire: str, *rules: Sends, since: int = 1) -> Callable[[_M], _M]:
    """Declare the decorated dataclass as the message whose ``t`` is ``wire``.

    ``rules`` say who may send it and when (:func:`by_client`, :func:`by_host`);
    ``since`` is the protocol version that added it.  The declaration makes the
    class's :class:`MsgType` member (``ChooseColour`` -> ``MsgType.CHOOSE_COLOUR``),
    its ``FIELDS`` from the fields' specs, its entry in :data:`MESSAGE_TYPES` (the
    codec's lookup) and its rows in :data:`~sorry_lan.wire.transitions.TRANSITIONS`.
    Raises ``ValueError`` (declaring nothing) if the type or a row is taken."""

    def register(cls: _M) -> _M:
        specs = tuple((f.name, f.metadata["spec"]) for f in fields(cls))  # type: ignore[arg-type]
        mtype = MsgType.declare(_WORD_START.sub("_", cls.__name__).upper(), wire)
        try:
            add_rules(mtype, rules)
        except ValueError:
            MsgType.withdraw(mtype)
            raise
        cls.TYPE, cls.FIELDS = mtype, specs
        MESSAGE_TYPES[mtype] = cls
        if since > 1:
            SINCE_VERSION[mtype] = since
        return cls

    return register


def withdraw(cls: type[Message]) -> None:
    """Undo :func:`declare` for ``cls`` (a message a test declares for a while)."""
    del MESSAGE_TYPES[cls.TYPE]
    SINCE_VERSION.pop(cls.TYPE, None)
    remove_rules(cls.TYPE)
    MsgType.withdraw(cls.TYPE)


# -- joining -------------------------------------------------------------------------


@declare("hello", by_client(S.GREETING, then=S.JOINING))
@dataclass(frozen=True, slots=True)
class Hello(Message):
    """Client -> host, first message: join as a player (or reclaim a seat with ``token``)."""

    versions: tuple[int, ...] = field(metadata=_f(VERSIONS))
    software: str = field(metadata=_f(SOFTWARE))
    name: str = field(metadata=_f(NAME))
    token: bytes | None = field(metadata=_f(OptSpec(BytesSpec(L.TOKEN_SIZE))))
    #: Protocol version 5 on: ``(epoch, sid)``, the newest state this laptop holds and
    #: the epoch of the host that sent it (a vote's, SPEC section 13); absent (None)
    #: when it holds no board, and always in a hello to a host (an older one rejects it).
    seen: tuple[int, int] | None = field(default=None, metadata=_f(LaterSpec(OptSpec(SEEN), 5)))


@declare("spectate", by_client(S.GREETING, then=S.JOINING))
@dataclass(frozen=True, slots=True)
class Spectate(Message):
    """Client -> host, first message: join as a spectator (public view only)."""

    versions: tuple[int, ...] = field(metadata=_f(VERSIONS))
    software: str = field(metadata=_f(SOFTWARE))
    name: str = field(metadata=_f(NAME))


@declare("challenge", by_host(S.JOINING, then=S.PROVING))
@dataclass(frozen=True, slots=True)
class Challenge(Message):
    """Host -> client: the table has a PIN; prove it over ``nonce``."""

    version: int = field(metadata=_f(VERSION))
    nonce: bytes = field(metadata=_f(BytesSpec(L.NONCE_SIZE)))


@declare("proof", by_client(S.PROVING, then=S.JOINING))
@dataclass(frozen=True, slots=True)
class Proof(Message):
    """Client -> host: ``mac = HMAC-SHA256(pin_key(PIN), nonce + cnonce)``."""

    cnonce: bytes = field(metadata=_f(BytesSpec(L.NONCE_SIZE)))
    mac: bytes = field(metadata=_f(BytesSpec(L.MAC_SIZE)))


@declare("welcome", by_host(S.JOINING, then=S.LOBBY))
@dataclass(frozen=True, slots=True)
class Welcome(Message):
    """Host -> client: admitted.  ``pid``/``token`` are nil for a spectator."""

    version: int = field(metadata=_f(VERSION))
    software: str = field(metadata=_f(SOFTWARE))
    pid: int | None = field(metadata=_f(OptSpec(PID)))
    token: bytes | None = field(metadata=_f(OptSpec(BytesSpec(L.TOKEN_SIZE))))
    owner: bool = field(metadata=_f(BoolSpec()))
    name: str = field(metadata=_f(NAME))


@declare("refuse", by_host(S.GREETING, S.JOINING, then=S.CLOSED))
@dataclass(frozen=True, slots=True)
class Refuse(Message):
    """Host -> client: not admitted; the host closes the connection after it."""

    reason: RefuseReason = field(metadata=_f(EnumSpec(RefuseReason)))
    text: str = field(metadata=_f(TEXT))
    versions: tuple[int, ...] = field(metadata=_f(VERSIONS))


# -- lobby ---------------------------------------------------------------------------


@declare("lobby", by_host(WELCOMED))
@dataclass(frozen=True, slots=True)
class Lobby(Message):
    """Host -> client: the whole roster; sent on every change, in any phase."""

    variant: Variant = field(metadata=_f(VARIANT))
    seats: int = field(metadata=_f(IntSpec(2, 4)))
    host: int | None = field(metadata=_f(OptSpec(PID)))
    players: tuple[PlayerInfo, ...] = field(metadata=_f(ListSpec(PLAYER_INFO, L.PLAYERS_MAX)))
    spectators: int = field(metadata=_f(IntSpec(0, L.SPECTATORS_MAX)))
    #: Protocol version 4 on: the table shows move hints (``host --hints``); absent
    #: (``None``) to an older connection, and read as off when absent.
    hints: bool | None = field(default=None, metadata=_f(LaterSpec(BoolSpec(), 4)))
    #: Protocol version 6 on: the asks to trade colours waiting for an answer, each
    #: ``(asker's pid, asked pid)``; absent (``None``) to an older connection.
    swaps: tuple[tuple[int, int], ...] | None = field(
        default=None, metadata=_f(LaterSpec(SWAPS, L.SWAP_VERSION))
    )


@declare("colour", by_client(S.LOBBY, who=Who.PLAYER))
@dataclass(frozen=True, slots=True)
class ChooseColour(Message):
    colour: Colour = field(metadata=_f(COLOUR))


# ``ready`` may cross the start of a game (a headless table starts by itself): the host
# ignores it outside the lobby rather than calling it out of order.
@declare("ready", by_client(WELCOMED, who=Who.PLAYER))
@dataclass(frozen=True, slots=True)
class Ready(Message):
    ready: bool = field(metadata=_f(BoolSpec()))


@declare("swap", by_client(S.LOBBY, who=Who.PLAYER), since=L.SWAP_VERSION)
@dataclass(frozen=True, slots=True)
class AskSwap(Message):
    """Player -> host: ask the seated player ``pid`` to trade colours (nil: take
    back this player's own ask).  Never swaps anything by itself."""

    pid: int | None = field(metadata=_f(OptSpec(PID)))


@declare("swap_answer", by_client(S.LOBBY, who=Who.PLAYER), since=L.SWAP_VERSION)
@dataclass(frozen=True, slots=True)
class AnswerSwap(Message):
    """Player -> host: accept (or decline) the ask of player ``pid`` to trade colours."""

    pid: int = field(metadata=_f(PID))
    accept: bool = field(metadata=_f(BoolSpec()))


@declare("add_bot", by_client(S.LOBBY, who=Who.OWNER))
@dataclass(frozen=True, slots=True)
class AddBot(Message):
    """Owner -> host: seat a bot, on ``colour`` or on any free colour when nil, of
    strength ``level`` (nil: the table's own bot strength)."""

    colour: Colour | None = field(metadata=_f(OptSpec(COLOUR)))
    level: str | None = field(
        metadata=_f(OptSpec(
            StrSpec(L.LEVEL_MAX, min_len=1, allowed=is_level, allowed_text="[A-Za-z0-9_-]+")
        ))
    )


@declare("remove_bot", by_client(S.LOBBY, who=Who.OWNER))
@dataclass(frozen=True, slots=True)
class RemoveBot(Message):
    pid: int = field(metadata=_f(PID))


@declare("variant", by_client(S.LOBBY, who=Who.OWNER))
@dataclass(frozen=True, slots=True)
class SetVariant(Message):
    variant: Variant = field(metadata=_f(VARIANT))


@declare("start", by_client(S.LOBBY, who=Who.OWNER))
@dataclass(frozen=True, slots=True)
class Start(Message):
    """Owner -> host: start the game with the seats taken."""


# -- play ----------------------------------------------------------------------------


@declare("snapshot", by_host(WELCOMED, then=S.PLAYING))
@dataclass(frozen=True, slots=True)
class Snapshot(Message):
    """Host -> client: everything one seat may see, as of state ``sid``.

    ``you`` is nil for a spectator; ``hand`` is the receiving seat's own hand (play for
    points only) and nil otherwise; ``discarded`` the discard pile counted by card value
    (public: a seat that joins late learns the cards lost before it came; protocol
    version 2 on, ``None`` -- left out -- to a version-1 connection).  Never
    carries the draw order or others' hands.
    """

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


@declare("turn", by_host(S.PLAYING))
@dataclass(frozen=True, slots=True)
class Turn(Message):
    """Host -> client: ``colour`` is to play; ``card`` is the card drawn (nil in points).

    ``hand`` is the receiver's own hand and only when the receiver is that seat.
    """

    sid: int = field(metadata=_f(SID))
    colour: Colour = field(metadata=_f(COLOUR))
    card: Card | None = field(metadata=_f(OptSpec(CARD)))
    hand: tuple[Card, ...] | None = field(metadata=_f(OptSpec(HAND)))
    pile: int = field(metadata=_f(COUNT))


@declare("moves", by_host(S.PLAYING))
@dataclass(frozen=True, slots=True)
class LegalMoves(Message):
    """Host -> the seat to move: its options for state ``sid``; ``timeout`` in seconds."""

    sid: int = field(metadata=_f(SID))
    moves: tuple[MoveOption, ...] = field(
        metadata=_f(ListSpec(MOVE_OPTION, L.MOVES_MAX, min_len=1))
    )
    timeout: int | None = field(metadata=_f(OptSpec(IntSpec(1, L.TIMEOUT_MAX))))


@declare("move", by_client(S.PLAYING, who=Who.PLAYER))
@dataclass(frozen=True, slots=True)
class Move(Message):
    """Client -> host: play legal move ``id`` of the moves offered for state ``sid``."""

    sid: int = field(metadata=_f(SID))
    id: int = field(metadata=_f(IntSpec(0, L.MOVE_ID_MAX)))


@declare("more_time", by_client(S.PLAYING, who=Who.PLAYER), since=L.MORE_TIME_VERSION)
@dataclass(frozen=True, slots=True)
class AskMoreTime(Message):
    """Player -> host: the seat on turn asks for more time, once a turn.  Never moves."""


@declare("time", by_host(S.PLAYING), since=L.MORE_TIME_VERSION)
@dataclass(frozen=True, slots=True)
class MoreTime(Message):
    """Host -> client: ``colour``'s turn at state ``sid`` got ``more`` seconds; ``left``
    seconds are left of it now (the timer's new deadline, not a new offer)."""

    sid: int = field(metadata=_f(SID))
    colour: Colour = field(metadata=_f(COLOUR))
    more: int = field(metadata=_f(IntSpec(1, L.TIMEOUT_MAX)))
    left: int = field(metadata=_f(IntSpec(1, 2 * L.TIMEOUT_MAX)))


@declare("events", by_host(S.PLAYING))
@dataclass(frozen=True, slots=True)
class Events(Message):
    """Host -> client: what happened, leading to state ``sid``."""

    sid: int = field(metadata=_f(SID))
    colour: Colour | None = field(metadata=_f(OptSpec(COLOUR)))
    notation: str = field(metadata=_f(StrSpec(L.NOTATION_MAX)))
    events: tuple[EventTuple, ...] = field(metadata=_f(ListSpec(EVENT, L.EVENTS_MAX)))


@declare("over", by_host(S.PLAYING, S.GAME_OVER, then=S.GAME_OVER))
@dataclass(frozen=True, slots=True)
class GameOver(Message):
    """Host -> client: the game ended; ``winners`` empty means abandoned."""

    sid: int = field(metadata=_f(SID))
    winners: tuple[Colour, ...] = field(metadata=_f(ListSpec(COLOUR, 2, unique=True)))
    scores: tuple[int, ...] | None = field(metadata=_f(OptSpec(SCORES)))


@declare(
    "rematch",
    by_client(S.GAME_OVER, who=Who.PLAYER),
    by_host(S.GAME_OVER, then=S.LOBBY),
)
@dataclass(frozen=True, slots=True)
class Rematch(Message):
    """Client -> host: I want another game.  Host -> client: back to the lobby."""


@declare("record", by_host(S.PLAYING, S.GAME_OVER), since=3)
@dataclass(frozen=True, slots=True)
class RecordPart(Message):
    """Host -> client, protocol version 3: part ``part`` of ``parts`` of the record of
    the table's game number ``game`` (from 1; a rematch is the next number).  The
    parts' ``data`` joined in order are a zlib stream of the record's JSON
    (``protocol/RECORD.md``): the whole game after ``over``, or the game so far (no
    seed, no deck) to a connection welcomed during the game."""

    game: int = field(metadata=_f(IntSpec(1, L.U32_MAX)))
    part: int = field(metadata=_f(IntSpec(0, L.RECORD_PARTS_MAX - 1)))
    parts: int = field(metadata=_f(IntSpec(1, L.RECORD_PARTS_MAX)))
    data: bytes = field(metadata=_f(BlobSpec(L.RECORD_PART_MAX)))


# -- succession (protocol version 4) ---------------------------------------------------


@declare("offer", by_client(WELCOMED, who=Who.PLAYER), since=4)
@dataclass(frozen=True, slots=True)
class Offer(Message):
    """Client -> host, player, protocol version 4: this laptop may host the table next;
    its standby listener takes connections on ``port`` at each of ``addrs``.  Sent
    after ``welcome`` and again when its addresses change."""

    port: int = field(metadata=_f(PORT))
    addrs: tuple[str, ...] = field(metadata=_f(ADDRS))


@declare("succession", by_host(WELCOMED), since=4)
@dataclass(frozen=True, slots=True)
class Succession(Message):
    """Host -> client, protocol version 4: what a successor needs, before it is needed.

    ``table`` the table's id, ``epoch`` how many hosts it has had (1: the first),
    ``host`` the host's own seat (nil: headless), ``delay`` the takeover delay in
    seconds, ``order`` the laptops that may host next in turn, ``config`` the table's
    settings, ``seats`` every seat's token verifier (or bot strength), ``chat`` the
    current game's chat so far (oldest first).  Sent after ``welcome`` (before
    ``lobby``) and whenever any of it changes."""

    table: str = field(metadata=_f(TABLE_ID))
    epoch: int = field(metadata=_f(EPOCH))
    host: int | None = field(metadata=_f(OptSpec(PID)))
    delay: int = field(metadata=_f(IntSpec(1, L.TIMEOUT_MAX)))
    order: tuple[Laptop, ...] = field(metadata=_f(ORDER))
    config: TableSettings = field(metadata=_f(SETTINGS))
    seats: tuple[SeatRecord, ...] = field(metadata=_f(SEATS))
    chat: tuple[ChatLine, ...] = field(metadata=_f(CHAT_TAIL))


@declare("commit", by_host(S.PLAYING), since=4)
@dataclass(frozen=True, slots=True)
class Commit(Message):
    """Host -> player, protocol version 4, play for points: the host's commitment to
    every seat's hand as of state ``sid``: ``digests`` by colour (nil: not seated),
    each ``sha256(salt || msgpack(sorted card ints))``; ``salt`` is the receiver's own
    seat's salt (nil to a seat without a hand)."""

    sid: int = field(metadata=_f(SID))
    digests: tuple[bytes | None, ...] = field(metadata=_f(DIGESTS))
    salt: bytes | None = field(metadata=_f(OptSpec(SALT)))


@declare("reveal", by_client(S.LOBBY, S.PLAYING, who=Who.PLAYER), since=4)
@dataclass(frozen=True, slots=True)
class Reveal(Message):
    """Client -> a new host, player, protocol version 4, play for points: the hand the
    old host committed this seat to, and its salt, for the new host to check."""

    hand: tuple[Card, ...] = field(metadata=_f(HAND))
    salt: bytes = field(metadata=_f(SALT))


@declare("handover", by_host(WELCOMED, then=S.CLOSED), since=4)
@dataclass(frozen=True, slots=True)
class Handover(Message):
    """Host -> client, protocol version 4: the host leaves on purpose; seat ``pid``'s
    laptop hosts the table from now, at ``epoch``.  The host closes the connection
    after it."""

    epoch: int = field(metadata=_f(EPOCH))
    pid: int = field(metadata=_f(PID))


@declare("settled", by_host(WELCOMED), since=L.SETTLE_VERSION)
@dataclass(frozen=True, slots=True)
class Settled(Message):
    """Host -> client, protocol version 5: the states up to ``sid`` of the game on the
    table are held by enough of the table's laptops that no successor replaces them;
    the client shows a state only once it is settled (SPEC section 13)."""

    sid: int = field(metadata=_f(SID))


# -- any time ------------------------------------------------------------------------


@declare("profile", by_client(WELCOMED, who=Who.PLAYER), since=2)
@dataclass(frozen=True, slots=True)
class Profile(Message):
    """Client -> host, player, protocol version 2: about the player, for the roster.

    ``lang`` is the language the player reads (a code; nil: not telling), ``program``
    true when a program, not a person, plays this seat from this connection.  Sent
    after ``welcome`` and again whenever either changes."""

    lang: str | None = field(metadata=_f(OptSpec(LANG)))
    program: bool = field(metadata=_f(BoolSpec()))



@declare("chat", by_client(WELCOMED, who=Who.PLAYER), by_host(WELCOMED))
@dataclass(frozen=True, slots=True)
class Chat(Message):
    """Chat line; ``pid`` is the speaker as relayed by the host (nil from a client)."""

    pid: int | None = field(metadata=_f(OptSpec(PID)))
    text: str = field(metadata=_f(StrSpec(L.CHAT_MAX, min_len=1)))


@declare("ping", by_client(WELCOMED), by_host(WELCOMED))
@dataclass(frozen=True, slots=True)
class Ping(Message):
    n: int = field(metadata=_f(IntSpec(0, L.U32_MAX)))


@declare("pong", by_client(WELCOMED), by_host(WELCOMED))
@dataclass(frozen=True, slots=True)
class Pong(Message):
    n: int = field(metadata=_f(IntSpec(0, L.U32_MAX)))


@declare("error", by_client(OPEN), by_host(OPEN))
@dataclass(frozen=True, slots=True)
class Error(Message):
    """Either way: something was refused; when ``fatal`` the sender closes next."""

    reason: ErrorReason = field(metadata=_f(EnumSpec(ErrorReason)))
    text: str = field(metadata=_f(TEXT))
    fatal: bool = field(metadata=_f(BoolSpec()))


@declare("resync", by_client(WELCOMED))
@dataclass(frozen=True, slots=True)
class Resync(Message):
    """Client -> host: send me a fresh lobby/snapshot (I think I missed something)."""



@declare("bye", by_client(OPEN, then=S.CLOSED), by_host(OPEN, then=S.CLOSED))
@dataclass(frozen=True, slots=True)
class Bye(Message):
    """Either way: the sender is closing the connection."""

    reason: ByeReason = field(metadata=_f(EnumSpec(ByeReason)))


__all__ = [
    "MESSAGE_TYPES",
    "SINCE_VERSION",
    "AddBot",
    "Bye",
    "Challenge",
    "Chat",
    "ChooseColour",
    "Commit",
    "Error",
    "Events",
    "GameOver",
    "Handover",
    "Hello",
    "LegalMoves",
    "Lobby",
    "Message",
    "Move",
    "Offer",
    "Ping",
    "Pong",
    "Profile",
    "Proof",
    "Ready",
    "RecordPart",
    "Refuse",
    "Rematch",
    "RemoveBot",
    "Resync",
    "Reveal",
    "SetVariant",
    "Settled",
    "Snapshot",
    "Spectate",
    "Start",
    "Succession",
    "Turn",
    "Welcome",
    "declare",
    "withdraw",
]


def message_fields(message: Message) -> dict[str, Any]:
    """The message's fields as a dict of normalised (Python) values."""
    return {name: getattr(message, name) for name, _ in message.FIELDS}
