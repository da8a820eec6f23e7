"""What a phone's page may ask: its WebSocket text frames read into choices.

A page sends only choices (protocol/WEB.md): join with a name (and the seat's token
to take it back), ready, a colour, the index of a move on offer, a chat line, a
rematch, its language.  :func:`read_choice` turns one frame into a frozen
:class:`Choice` or raises :class:`BadChoice` with a reason a test and the page can
match on.  Pure: it knows no seat, no offer and no socket; whether a choice is
allowed now is the seat's client's (and the host's) to say.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from sorry_lan.errors import SorryLanError
from sorry_lan.i18n.choose import normalise
from sorry_lan.wire.limits import CHAT_MAX, NAME_MAX, TOKEN_SIZE

#: The largest frame a page may send (bytes of UTF-8): a chat line is the longest.
FRAME_MAX = 1024
#: The longest PIN a page may give.
PIN_MAX = 64


class BadChoice(SorryLanError, ValueError):
    """A frame that is not a choice: ``reason`` is one of ``too-long``, ``not-json``,
    ``not-object``, ``unknown`` (no such choice) or ``field`` (a field missing or of
    the wrong kind); the message says which, in English, for the page's console."""

    def __init__(self, reason: str, text: str) -> None:
        super().__init__(text)
        self.reason = reason


@dataclass(frozen=True)
class Join:
    """Take a seat under ``name``, or take back the seat whose token is ``token``."""

    name: str
    token: bytes | None = None
    lang: str | None = None
    pin: str | None = None


@dataclass(frozen=True)
class Ready:
    ready: bool


@dataclass(frozen=True)
class Colour:
    colour: int


@dataclass(frozen=True)
class Move:
    """The move at ``index`` of the offer the page was shown (``offer``: its sid)."""

    offer: int
    index: int


@dataclass(frozen=True)
class Chat:
    text: str


@dataclass(frozen=True)
class Rematch:
    pass


@dataclass(frozen=True)
class Language:
    lang: str


@dataclass(frozen=True)
class Trade:
    """Ask the player ``pid`` to trade colours (None: take this seat's ask back)."""

    pid: int | None


@dataclass(frozen=True)
class Answer:
    """Accept (or decline) the ask to trade colours made to this seat."""

    accept: bool


@dataclass(frozen=True)
class MoreTime:
    """Ask for more time for the turn on offer (once a turn)."""


Choice = Join | Ready | Colour | Move | Chat | Rematch | Language | Trade | Answer | MoreTime


def _field(data: dict[str, object], key: str, kind: type) -> object:
    value = data.get(key)
    # (a bool is an int to Python: a count given as true is no count)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise BadChoice("field", f"{key!r} must be a {kind.__name__}")
    return value


def _text(data: dict[str, object], key: str, most: int) -> str:
    value = _field(data, key, str)
    assert isinstance(value, str)
    text = value.strip()
    if not text or len(text) > most or not text.isprintable():
        raise BadChoice("field", f"{key!r} must be 1 to {most} printable characters")
    return text


def _int(data: dict[str, object], key: str, low: int, high: int) -> int:
    value = _field(data, key, int)
    assert isinstance(value, int)
    if not low <= value <= high:
        raise BadChoice("field", f"{key!r} must be from {low} to {high}")
    return value


def _token(data: dict[str, object]) -> bytes | None:
    value = data.get("token")
    if value is None:
        return None
    if not isinstance(value, str) or len(value) != 2 * TOKEN_SIZE:
        raise BadChoice("field", f"'token' must be {2 * TOKEN_SIZE} hex digits")
    try:
        return bytes.fromhex(value)
    except ValueError:
        raise BadChoice("field", f"'token' must be {2 * TOKEN_SIZE} hex digits") from None


def _lang(data: dict[str, object]) -> str | None:
    """The catalog code of the page's language (``el-GR`` -> ``el``); None when it
    names one this program has no catalog for."""
    value = data.get("lang")
    if value is None:
        return None
    return normalise(_text(data, "lang", 35))


def read_choice(frame: str) -> Choice:
    """The choice a page's text frame asks for; :class:`BadChoice` when it is none."""
    if len(frame.encode("utf-8", "surrogatepass")) > FRAME_MAX:
        raise BadChoice("too-long", f"a frame is at most {FRAME_MAX} bytes")
    try:
        data = json.loads(frame)
    except ValueError:
        raise BadChoice("not-json", "a frame is one JSON object") from None
    if not isinstance(data, dict):
        raise BadChoice("not-object", "a frame is one JSON object")
    kind = data.get("t")
    if kind == "join":
        pin = None if data.get("pin") is None else _text(data, "pin", PIN_MAX)
        return Join(_text(data, "name", NAME_MAX), _token(data), _lang(data), pin)
    if kind == "ready":
        ready = _field(data, "ready", bool)
        assert isinstance(ready, bool)
        return Ready(ready)
    if kind == "colour":
        return Colour(_int(data, "colour", 0, 3))
    if kind == "move":
        return Move(_int(data, "offer", 0, 2**31), _int(data, "index", 0, 999))
    if kind == "chat":
        return Chat(_text(data, "text", CHAT_MAX))
    if kind == "rematch":
        return Rematch()
    if kind == "trade":
        return Trade(None if data.get("pid") is None else _int(data, "pid", 0, 255))
    if kind == "answer":
        accept = _field(data, "accept", bool)
        assert isinstance(accept, bool)
        return Answer(accept)
    if kind == "more_time":
        return MoreTime()
    if kind == "lang":
        lang = _lang(data)
        if lang is None:
            raise BadChoice("field", "'lang' must name a language of the game")
        return Language(lang)
    raise BadChoice("unknown", f"no choice {kind!r}")
