"""The protocol's vocabulary: message type tags, enums and the reusable field specs.

The names the messages are built from (:mod:`sorry_lan.wire.messages`); import them
from here.  Values and specs only: no message classes, no checks run at import.
:class:`MsgType` is the type of the ``t`` tags, but its members are made by the
message declarations in :mod:`sorry_lan.wire.messages`, not listed here.
``RefuseReason`` is defined in :mod:`sorry_lan.codes`, with the words a player reads
for each refusal.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from enum import StrEnum
from typing import Final

from sorry_lan.codes import RefuseReason as RefuseReason  # defined with its words there
from sorry_lan.rules.board import NUM_LOCATIONS, Colour
from sorry_lan.rules.cards import CARD_VALUES, DECK_COUNTS, Card
from sorry_lan.rules.variants import Variant
from sorry_lan.wire import limits as L
from sorry_lan.wire.schema import EnumSpec, IntSpec, ListSpec, StrSpec, TupleSpec


class _DeclaredTypes(type):
    """The metaclass of :class:`MsgType`: the class holds its declared members, in the
    order they were declared, and names each by its constant (``MsgType.MOVE``)."""

    def __iter__(cls) -> Iterator[MsgType]:
        return iter(tuple(_BY_VALUE.values()))

    def __len__(cls) -> int:
        return len(_BY_VALUE)

    def __getattr__(cls, name: str) -> MsgType:
        member = _BY_NAME.get(name)
        if member is None:
            raise AttributeError(
                f"MsgType has no member {name} (members are declared by the message "
                "classes of sorry_lan.wire.messages)"
            )
        return member


class MsgType(str, metaclass=_DeclaredTypes):
    """The value of the ``t`` field of every frame: one member per message class.

    The members are not listed here: declaring a message class in
    :mod:`sorry_lan.wire.messages` makes its member, named after the class in capitals
    (``ChooseColour`` -> ``MsgType.CHOOSE_COLOUR``, value ``"colour"``).  A member is
    its wire text (a ``str``, so it looks up as one); like an enum's, ``value`` is the
    text, ``name`` the constant, iterating the class gives the members in declaration
    order and ``MsgType("move")`` finds a member or raises ``ValueError``."""

    value: str
    name: str

    def __new__(cls, value: str) -> MsgType:
        member = _BY_VALUE.get(value)
        if member is None:
            raise ValueError(f"{value!r} is not a message type")
        return member

    def __repr__(self) -> str:
        return f"<MsgType.{self.name}: {self.value!r}>"

    def __reduce__(self) -> tuple[type[MsgType], tuple[str]]:
        return MsgType, (self.value,)

    @classmethod
    def declare(cls, name: str, value: str) -> MsgType:
        """Make member ``name`` with wire text ``value`` (a message class's declaration
        does this); ``ValueError`` if either is taken."""
        if name in _BY_NAME or value in _BY_VALUE:
            raise ValueError(f"message type {name} / {value!r} is declared twice")
        member = str.__new__(cls, value)
        member.value = str(value)
        member.name = name
        _BY_NAME[name] = _BY_VALUE[value] = member
        return member

    @classmethod
    def withdraw(cls, member: MsgType) -> None:
        """Forget ``member`` (for a message declared for a while, as tests do)."""
        del _BY_NAME[member.name], _BY_VALUE[member.value]


_BY_NAME: dict[str, MsgType] = {}
_BY_VALUE: dict[str, MsgType] = {}


class ByeReason(StrEnum):
    QUIT = "quit"
    SHUTDOWN = "shutdown"
    KICKED = "kicked"
    TIMEOUT = "timeout"
    REPLACED = "replaced"  # another connection reclaimed this seat with its token
    ERROR = "error"  # closing after a fatal error


def clip_text(text: str, limit: int = L.TEXT_MAX) -> str:
    """Make arbitrary text fit a text field: printable characters only, clipped."""
    clean = "".join(c if c.isprintable() else " " for c in text)
    return clean if len(clean) <= limit else clean[: limit - 3] + "..."


_LANG_CODE = re.compile(r"[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*")


def is_lang_code(text: str) -> bool:
    """True for a BCP 47-like language code: ``el``, ``cy``, ``pt-BR``, ``zh-Hant-TW``.

    A primary subtag of 2..8 letters, then subtags of 1..8 letters or digits joined by
    ``-``.  Whether a client has words for the language is not asked."""
    return _LANG_CODE.fullmatch(text) is not None


def canonical_lang(code: str) -> str:
    """``code`` (a language code, :func:`is_lang_code`) in BCP 47's canonical case:
    ``PT-br`` -> ``pt-BR``, ``ZH-hant-tw`` -> ``zh-Hant-TW``, ``SR-LATN`` -> ``sr-Latn``.

    The first subtag in lower case; after it a 2-letter subtag (a region) in upper
    case, a 4-letter one (a script) in title case, any other in lower case.  Case only:
    it does not replace deprecated or overlong forms (``iw`` stays ``iw``)."""
    first, *rest = code.split("-")
    out = [first.lower()]
    for sub in rest:
        if len(sub) == 2 and sub.isalpha():
            out.append(sub.upper())
        elif len(sub) == 4 and sub.isalpha():
            out.append(sub.title())
        else:
            out.append(sub.lower())
    return "-".join(out)


def is_level(text: str) -> bool:
    return bool(text) and all(c.isascii() and (c.isalnum() or c in "_-") for c in text)


# Reusable field specs.
SID: Final = IntSpec(0, L.U32_MAX)
PID: Final = IntSpec(0, L.PID_MAX)
VERSION: Final = IntSpec(1, L.VERSION_MAX)
VERSIONS: Final = ListSpec(VERSION, L.VERSIONS_MAX, min_len=1, unique=True)
NAME: Final = StrSpec(L.NAME_MAX, min_len=1, stripped=True)
SOFTWARE: Final = StrSpec(L.SOFTWARE_MAX)
TEXT: Final = StrSpec(L.TEXT_MAX)
COLOUR: Final = EnumSpec(Colour, "colour int 0..3 (red, blue, yellow, green)")
CARD: Final = EnumSpec(Card, "card int 1-5, 7, 8, 10-12, or 13 (Sorry!)")
VARIANT: Final = EnumSpec(Variant)
HAND: Final = ListSpec(CARD, L.HAND_MAX)
COUNT: Final = IntSpec(0, L.COUNT_MAX)
SCORES: Final = ListSpec(IntSpec(0, L.SCORE_MAX), 4, min_len=4)
LOCATION: Final = IntSpec(0, NUM_LOCATIONS - 1)
LANG: Final = StrSpec(
    L.LANG_MAX, min_len=2, allowed=is_lang_code, allowed_text="a language code like el or pt-BR"
)
#: Cards counted by card value: item ``i`` counts the cards of int ``i`` (so items 0, 6
#: and 9, no card's value, are always 0), each at most that card's copies in the deck.
CARD_COUNTS: Final = TupleSpec(
    [IntSpec(0, {int(c): n for c, n in DECK_COUNTS.items()}.get(v, 0))
     for v in range(CARD_VALUES)],
    text=f"array of {CARD_VALUES}: item i counts the cards of int i "
    f"(0..{DECK_COUNTS[Card.ONE]} ones, 0..4 of each other card; items 0, 6, 9 are 0)",
)
#: Asks to trade colours, each ``[asker's pid, asked pid]`` (lobby, version 6).
SWAPS: Final = ListSpec(
    TupleSpec([PID, PID], text="[asker pid, asked pid]: int 0..255 each"), L.PLAYERS_MAX
)
