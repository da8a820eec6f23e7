"""Work done once a process that every laptop of an evening would do again: the
simulator's two shortcuts through pure product code, on while :func:`shortcuts` is.

In an evening the same bytes are decoded again and again (a host's news goes to every
laptop; pings and pongs repeat from one laptop and one evening to the next), and
every laptop checks the same events on the same board.

- Decoding: :meth:`Decoder.feed <sorry_lan.wire.codec.Decoder.feed>` decodes a chunk
  of whole frames the first time it sees those bytes and keeps the messages; later
  the same chunk at a decoder between frames gets copies of them (each a new object,
  as a fresh decode makes: a model that compares its offers by identity sees no
  difference; their field values are immutable, and shared).  A chunk that leaves
  part of a frame, or is refused, is decoded as ever, every time.
- The client's replay check (``wire.apply.check_events``, pure): its answer for the
  same board, events and variant is kept.

Each changes no message and no state a caller can see (but the position of a
decoder's msgpack unpacker); the first laptop to meet a chunk or a check runs the
real code.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator, Sequence

import sorry_lan.client.model  # noqa: F401  (the modules that import check_events)
from sorry_lan.rules import Variant
from sorry_lan.wire import codec
from sorry_lan.wire.apply import check_events as _real_check_events
from sorry_lan.wire.messages import Message
from sorry_lan.wire.records import EventTuple

KEPT = 20_000  # entries kept by each (then forgotten all at once: a cache, not a record)

_decoded: dict[tuple[tuple[int, ...], bytes], tuple[Message, ...]] = {}
_checked: dict[tuple[tuple[int, ...], tuple[EventTuple, ...], Variant], str | None] = {}


def _copy(msg: Message) -> Message:
    new = object.__new__(type(msg))
    for name, _ in msg.FIELDS:
        object.__setattr__(new, name, getattr(msg, name))
    return new


def _feed(self: codec.Decoder, data: bytes) -> list[Message]:
    if self.error is not None or self._need or self._buffer or not data:
        return _real_feed(self, data)
    key = (self.supported_versions, bytes(data))
    kept = _decoded.get(key)
    if kept is not None:
        self.frames += len(kept)
        return [_copy(msg) for msg in kept]
    out = _real_feed(self, data)
    if out and not self._need and not self._buffer:
        if len(_decoded) >= KEPT:
            _decoded.clear()
        _decoded[key] = tuple(out)
    return out


def _check_events(pawns: Sequence[int], events: Sequence[EventTuple],
                  variant: Variant) -> str | None:  # fmt: skip
    key = (tuple(pawns), tuple(events), variant)
    try:
        return _checked[key]
    except KeyError:
        pass
    problem = _real_check_events(pawns, events, variant)
    if len(_checked) >= KEPT:
        _checked.clear()
    _checked[key] = problem
    return problem


_real_feed = codec.Decoder.feed


def _swap(old: object, new: object) -> None:
    """``check_events`` is ``new`` wherever the product imported it (client.model)."""
    for name, module in list(sys.modules.items()):
        names = vars(module)
        if name.startswith("sorry_lan.") and names.get("check_events") is old:
            names["check_events"] = new


@contextlib.contextmanager
def shortcuts() -> Iterator[None]:
    codec.Decoder.feed = _feed  # type: ignore[method-assign]
    _swap(_real_check_events, _check_events)
    try:
        yield
    finally:
        codec.Decoder.feed = _real_feed  # type: ignore[method-assign]
        _swap(_check_events, _real_check_events)
