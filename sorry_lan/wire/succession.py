"""The records of protocol version 4's ``succession`` message (SPEC section 13).

- :class:`Laptop`: one entry of the succession order, ``[pid, [addr...], port]``: a
  player's laptop that may host next and where its standby listener is reached;
- :class:`TableSettings`: the ``config`` record, what a successor needs to run the
  table as its host did (its timers in milliseconds; the PIN's derived key, never
  the PIN; whether the table was seeded, never the seed);
- :class:`SeatRecord`: ``[pid, colour|nil, verifier|nil, level|nil]``, one seat and
  the sha256 of its token (a player) or the bot's strength (a host's bot);
- :class:`ChatLine`: ``[pid|nil, text]``, a line of the game's chat so far.

Like :mod:`~sorry_lan.wire.records`, each record checks its items when built (from
the constructor or from a peer's array) and raises
:class:`~sorry_lan.wire.errors.LocalProtocolError` when one is out of bounds.  Whether
a laptop's addresses answer, or a verifier matches anyone's token, is not judged here.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from typing import Any, Final

from sorry_lan.rules.board import Colour
from sorry_lan.rules.variants import Variant
from sorry_lan.wire import limits as L
from sorry_lan.wire.errors import ErrorReason, LocalProtocolError
from sorry_lan.wire.schema import (
    BoolSpec,
    BytesSpec,
    EnumSpec,
    IntSpec,
    ListSpec,
    OptSpec,
    RecordSpec,
    StrSpec,
    TupleSpec,
)
from sorry_lan.wire.vocab import PID, SID, is_level

#: The table's first host's epoch: every successor's is greater (SPEC 13, "Words").
FIRST_EPOCH: Final = 1


def is_ip_literal(text: str) -> bool:
    """True for an IPv4 or IPv6 address in text form without a zone (``%eth0``): a
    zone names an interface of the sender's machine, meaningless to anyone else."""
    if "%" in text:
        return False
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def _is_table_id(text: str) -> bool:
    return all(c.isdigit() or "a" <= c <= "z" for c in text) and text.isascii()


class _AddrSpec(StrSpec):
    """An IP literal (:func:`is_ip_literal`)."""

    def __init__(self) -> None:
        super().__init__(L.ADDR_MAX, min_len=2, allowed=is_ip_literal,
                         allowed_text="an IPv4 or IPv6 address, no zone")

    def example(self) -> str:
        return "192.0.2.1"  # TEST-NET-1 (RFC 5737)


ADDR: Final = _AddrSpec()
ADDRS: Final = ListSpec(ADDR, L.ADDRS_MAX, min_len=1, unique=True)
PORT: Final = IntSpec(1, L.PORT_MAX)
EPOCH: Final = IntSpec(1, L.EPOCH_MAX)
#: ``hello.seen`` (protocol version 5): ``[epoch, sid]``, the newest state a laptop
#: holds, and the epoch of the host it received that state from.
SEEN: Final = TupleSpec(
    [EPOCH, SID],
    text="[epoch, sid]: [int 1..4294967295, int 0..4294967295]",
)
TABLE_ID: Final = StrSpec(L.TABLE_ID_MAX, min_len=L.TABLE_ID_MIN, allowed=_is_table_id,
                          allowed_text="0-9, a-z")
DIGEST: Final = BytesSpec(L.DIGEST_SIZE)
SALT: Final = BytesSpec(L.SALT_SIZE)
LEVEL: Final = StrSpec(L.LEVEL_MAX, min_len=1, allowed=is_level, allowed_text="[A-Za-z0-9_-]+")
MILLIS: Final = IntSpec(0, L.MS_MAX)
_COLOUR: Final = EnumSpec(Colour)


def _bad(text: str) -> LocalProtocolError:
    return LocalProtocolError(ErrorReason.BAD_VALUE, text)


def _set(record: object, names: tuple[str, ...], values: tuple[Any, ...]) -> None:
    for name, value in zip(names, values, strict=True):
        object.__setattr__(record, name, value)


@dataclass(frozen=True, slots=True)
class Laptop:
    """A laptop of the succession order: seat ``pid``'s, whose standby listener takes
    connections on ``port`` at each of ``addrs`` (IP literals, the likeliest first)."""

    pid: int
    addrs: tuple[str, ...]
    port: int

    def __post_init__(self) -> None:
        _set(self, self.__slots__, LAPTOP.shape.check(LAPTOP.fields(self), LAPTOP.name))


@dataclass(frozen=True, slots=True)
class TableSettings:
    """The ``config`` record: the table's settings as its host runs them.

    ``name`` the table's name (nil: none given); times in milliseconds:
    ``turn_timeout_ms`` (nil: no turn timer), ``grace_ms``, ``bot_delay_ms``,
    ``bot_budget_ms`` (nil: the expert's own budget); ``pin_verifier`` the 32-byte key
    ``wire.auth.pin_key`` derives from the table's PIN (nil: no PIN); ``seeded``
    whether the host was given a seed (the seed itself is never sent); ``hints``
    whether players may ask for hints (``host --hints``; a 12th item, left out when
    false, so a table without hints sends the 11 items of before)."""

    name: str | None
    variant: Variant
    seats: int
    turn_timeout_ms: int | None
    grace_ms: int
    bot_delay_ms: int
    bot_level: str
    bot_budget_ms: int | None
    pin_verifier: bytes | None
    seeded: bool
    auto_start: bool
    hints: bool = False

    def __post_init__(self) -> None:
        _set(self, self.__slots__, SETTINGS.shape.check(SETTINGS.fields(self), SETTINGS.name))


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """Seat ``pid`` (on ``colour``, nil: not chosen yet) and either the sha256 of its
    token (``verifier``, a player: a person or a remote program) or the strength of
    the host's bot that holds it (``level``): exactly one of the two is set."""

    pid: int
    colour: Colour | None
    verifier: bytes | None
    level: str | None

    def __post_init__(self) -> None:
        _set(self, self.__slots__, _seat_items(SEAT.fields(self)))

    @property
    def bot(self) -> bool:
        """A bot the host runs (it has no token, so it never hosts nor votes)."""
        return self.level is not None


@dataclass(frozen=True, slots=True)
class ChatLine:
    """What seat ``pid`` said (nil: the host's own notice), ``text``."""

    pid: int | None
    text: str

    def __post_init__(self) -> None:
        _set(self, self.__slots__, CHAT_LINE.shape.check(CHAT_LINE.fields(self), CHAT_LINE.name))


def _seat_items(items: Any) -> tuple[Any, ...]:
    checked = _SEAT_SHAPE.check(items, SEAT_NAME)
    if (checked[2] is None) == (checked[3] is None):
        raise _bad(f"{SEAT_NAME}: a seat has a verifier (a player) or a level (a bot), "
                   "exactly one")
    return tuple(checked)


def _builder(cls: type, check: Any = None) -> Any:
    names: tuple[str, ...] = cls.__slots__  # type: ignore[attr-defined]

    def build(*items: object) -> object:
        record: object = object.__new__(cls)
        _set(record, names, tuple(items) if check is None else check(items))
        return record

    return build


LAPTOP: Final = RecordSpec(
    "laptop",
    (PID, ADDRS, PORT),
    build=_builder(Laptop),
    fields=lambda r: (r.pid, r.addrs, r.port),
    record_type=Laptop,
)

SETTINGS: Final = RecordSpec(
    "config",
    (
        OptSpec(StrSpec(L.TABLE_NAME_MAX, min_len=1, stripped=True)),
        EnumSpec(Variant),
        IntSpec(2, 4),
        OptSpec(IntSpec(1, L.MS_MAX)),
        MILLIS,
        MILLIS,
        LEVEL,
        OptSpec(IntSpec(1, L.MS_MAX)),
        OptSpec(BytesSpec(L.PIN_KEY_SIZE)),
        BoolSpec(),
        BoolSpec(),
    ),
    build=_builder(TableSettings),
    fields=lambda r: (r.name, r.variant, r.seats, r.turn_timeout_ms, r.grace_ms,
                      r.bot_delay_ms, r.bot_level, r.bot_budget_ms, r.pin_verifier,
                      r.seeded, r.auto_start, r.hints),
    record_type=TableSettings,
    tail=((BoolSpec(), False),),  # hints: absent reads false
)

SEAT_NAME: Final = "seat"
_SEAT_ITEMS: Final = (PID, OptSpec(_COLOUR), OptSpec(DIGEST), OptSpec(LEVEL))
SEAT: Final = RecordSpec(
    SEAT_NAME,
    _SEAT_ITEMS,
    build=_builder(SeatRecord, lambda items: _seat_items(items)),
    fields=lambda r: (r.pid, r.colour, r.verifier, r.level),
    record_type=SeatRecord,
)
_SEAT_SHAPE: Final = SEAT.shape

CHAT_LINE: Final = RecordSpec(
    "chat_line",
    (OptSpec(PID), StrSpec(L.CHAT_MAX, min_len=1)),
    build=_builder(ChatLine),
    fields=lambda r: (r.pid, r.text),
    record_type=ChatLine,
)


class KeyedListSpec(ListSpec):
    """A :class:`ListSpec` of records in which no two share a value of any of ``keys``
    (a pid, a colour; ``None`` may repeat: seats without a colour)."""

    def __init__(self, item: RecordSpec, max_len: int, keys: tuple[str, ...]) -> None:
        super().__init__(item, max_len)
        self.keys = keys

    def check(self, value: object, where: str) -> tuple[Any, ...]:
        out = super().check(value, where)
        for key in self.keys:
            seen = [getattr(r, key) for r in out if getattr(r, key) is not None]
            if len(set(seen)) != len(seen):
                raise _bad(f"{where}: two entries have the same {key}")
        return out

    def describe(self) -> str:
        keys = " or ".join(self.keys)
        return f"{super().describe()}, no two with the same {keys}"


ORDER: Final = KeyedListSpec(LAPTOP, L.ORDER_MAX, ("pid",))
SEATS: Final = KeyedListSpec(SEAT, L.SEATS_MAX, ("pid", "colour"))
CHAT_TAIL: Final = ListSpec(CHAT_LINE, L.CHAT_KEPT_MAX)
#: ``commit.digests``: by colour (red, blue, yellow, green), nil for a colour not seated.
DIGESTS: Final = ListSpec(OptSpec(DIGEST), 4, min_len=4)
