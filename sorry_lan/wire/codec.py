"""Bytes <-> messages: length-prefixed msgpack frames, bounded and strictly checked.

A frame is a 4-byte big-endian unsigned length ``n`` (1..:data:`MAX_FRAME`) followed
by ``n`` bytes holding exactly one msgpack map: ``{"t": <type>, <field>: <value>...}``.

:func:`encode` turns a message into one frame.  :class:`Decoder` is sans-I/O: hand it
whatever bytes arrived with :meth:`Decoder.feed` and it returns the messages completed
so far.  It never buffers more than one incomplete frame (at most ``4 + MAX_FRAME``
bytes), rejects an oversized length before reading the body, and unpacks with
msgpack's own size limits.  The first bad frame raises :class:`RemoteProtocolError`
(a :class:`DecodeError`, holding the messages completed before it) and kills the
decoder: later feeds raise too; the session reports it to the peer
(an ``error`` message) and closes.

No sockets, no asyncio, no session rules: which message may come when is
:mod:`sorry_lan.wire.session`'s job.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgpack

from sorry_lan.wire import limits as L
from sorry_lan.wire.errors import ErrorReason, LocalProtocolError, RemoteProtocolError
from sorry_lan.wire.messages import MESSAGE_TYPES, Hello, Message, Spectate
from sorry_lan.wire.schema import (
    BoolSpec,
    BytesSpec,
    EnumSpec,
    IntSpec,
    LaterSpec,
    ListSpec,
    OptSpec,
    RecordSpec,
    Spec,
    StrSpec,
    VariantSpec,
)
from sorry_lan.wire.vocab import VERSIONS

_TYPE_KEY = "t"
_GREETINGS = (Hello.TYPE.value, Spectate.TYPE.value)


def to_wire(message: Message) -> dict[str, Any]:
    """The msgpack-ready map for ``message``: ``t`` first, then fields in spec order."""
    out: dict[str, Any] = {_TYPE_KEY: message.TYPE.value}
    for name, spec in message.FIELDS:
        value = getattr(message, name)
        if value is None and isinstance(spec, LaterSpec):
            continue  # a field of a later version, left out for an older peer
        out[name] = spec.dump(value)
    return out


Dump = Callable[[Any], Any]


def _dumper(spec: Spec) -> Dump | None:
    """How to make a normalised value of ``spec`` packable, or None: it packs as it is.

    Plain ints, ``IntEnum``/``StrEnum`` members (packed as their int or text), str,
    bytes, bool, None and tuples (packed as arrays) already pack to the bytes their
    ``dump`` would give; only records (dataclasses) must become arrays of their items."""
    if isinstance(spec, IntSpec | BoolSpec | EnumSpec | StrSpec | BytesSpec | VariantSpec):
        return None
    if isinstance(spec, OptSpec):
        inner = _dumper(spec.inner)
        return None if inner is None else (lambda v: None if v is None else inner(v))
    if isinstance(spec, ListSpec):
        item = _dumper(spec.item)
        return None if item is None else (lambda v: [item(x) for x in v])
    if isinstance(spec, RecordSpec) and all(_dumper(s) is None for s in spec.shape.items):
        fields, shape = spec.fields, spec.shape
        return (lambda v: shape.short(fields(v))) if shape.defaults else fields
    return spec.dump  # anything else: the spec's own way


Packing = tuple[tuple[str, Dump | None, bool], ...]
#: Per message class: (field name, how to make its value packable or None, whether a
#: later protocol version added it, so that it is left out when None).  Filled on a
#: class's first encoding, so it covers every class declared, whenever declared.
_PACKING: dict[type[Message], Packing] = {}


def _packing(cls: type[Message]) -> Packing:
    packing = tuple(
        (name, _dumper(spec), isinstance(spec, LaterSpec)) for name, spec in cls.FIELDS
    )
    _PACKING[cls] = packing
    return packing


def _packable(message: Message) -> dict[str, Any]:
    """What :func:`to_wire` gives, as msgpack sees it, built faster: values that
    pack as they are (see :func:`_dumper`) are not copied."""
    out: dict[str, Any] = {_TYPE_KEY: message.TYPE.value}
    try:
        packing = _PACKING[type(message)]
    except KeyError:
        packing = _packing(type(message))
    for name, dump, later in packing:
        value = getattr(message, name)
        if value is None and later:
            continue
        out[name] = value if dump is None else dump(value)
    return out


def from_wire(
    obj: object, *, supported_versions: tuple[int, ...] = L.SUPPORTED_VERSIONS
) -> Message:
    """Validate a decoded msgpack value and build its message.

    Raises :class:`RemoteProtocolError` (the value came from the peer).  For a greeting
    (hello / spectate) the ``versions`` field is judged first, so that a peer speaking
    only other versions gets reason ``version`` even if the rest of its greeting has a
    shape this version does not know.

    The field specs raise :class:`LocalProtocolError`, as they do for a message this
    side builds; this is the one place that makes it the peer's error.
    """
    try:
        return _from_wire(obj, supported_versions)
    except LocalProtocolError as exc:
        raise RemoteProtocolError(exc.reason, exc.text) from None


def _from_wire(obj: object, supported_versions: tuple[int, ...]) -> Message:
    if not isinstance(obj, dict):
        raise RemoteProtocolError(ErrorReason.MALFORMED, "a frame must hold a msgpack map")
    tname = obj.get(_TYPE_KEY)
    if tname is None:
        raise RemoteProtocolError(ErrorReason.MISSING_FIELD, "missing message type 't'")
    if type(tname) is not str:
        raise RemoteProtocolError(ErrorReason.BAD_VALUE, "message type 't' must be text")
    cls = MESSAGE_TYPES.get(tname)
    if cls is None:
        shown = tname if len(tname) <= 20 else tname[:17] + "..."
        raise RemoteProtocolError(
            ErrorReason.UNKNOWN_TYPE, f"unknown message type {shown!r}"
        )
    if tname in _GREETINGS and "versions" in obj:
        _check_versions(obj["versions"], supported_versions)
    values: list[tuple[str, Any]] = []
    absent = 0
    for name, spec in cls.FIELDS:
        if name not in obj:
            if isinstance(spec, LaterSpec):  # sent by a peer on an older version
                values.append((name, None))
                absent += 1
                continue
            raise RemoteProtocolError(ErrorReason.MISSING_FIELD, f"{tname}: missing field {name!r}")
        values.append((name, spec.check(obj[name], f"{tname}.{name}")))
    if len(obj) != len(cls.FIELDS) - absent + 1:
        known = {n for n, _ in cls.FIELDS} | {_TYPE_KEY}
        extra = next((k for k in obj if k not in known), "?")
        shown = extra if isinstance(extra, str) and len(extra) <= 20 else "..."
        raise RemoteProtocolError(ErrorReason.EXTRA_FIELD, f"{tname}: unknown field {shown!r}")
    message = object.__new__(cls)
    for name, value in values:
        object.__setattr__(message, name, value)
    return message


def _check_versions(raw: object, supported: tuple[int, ...]) -> None:
    versions = VERSIONS.check(raw, "versions")
    if not set(versions) & set(supported):
        raise RemoteProtocolError(
            ErrorReason.VERSION,
            f"no common protocol version: peer speaks {list(versions)}, we speak "
            f"{list(supported)}",
            peer_versions=versions,
        )


def encode(message: Message) -> bytes:
    """One complete frame (length prefix + body) for ``message``.

    Raises :class:`LocalProtocolError` with reason ``too_large`` if the body would pass
    :data:`MAX_FRAME`.  (Field values were already checked when the message was built.)
    """
    if not isinstance(message, Message):
        raise LocalProtocolError(ErrorReason.BAD_VALUE, f"not a message: {type(message).__name__}")
    body: bytes = msgpack.packb(_packable(message), use_bin_type=True)
    if len(body) > L.MAX_FRAME:
        raise LocalProtocolError(
            ErrorReason.TOO_LARGE,
            f"{message.TYPE.value} frame of {len(body)} bytes passes the {L.MAX_FRAME} limit",
        )
    return len(body).to_bytes(L.HEADER_SIZE, "big") + body


def decode_frame_body(
    body: bytes, *, supported_versions: tuple[int, ...] = L.SUPPORTED_VERSIONS
) -> Message:
    """Decode one frame body (without its length prefix); raises RemoteProtocolError."""
    unpacker = _new_unpacker()
    unpacker.feed(body)
    return from_wire(_unpack_one(unpacker, len(body)), supported_versions=supported_versions)


def _unique_keys(pairs: list[tuple[Any, Any]]) -> dict[Any, Any]:
    """A map from its pairs; a key given twice is ``malformed`` (msgpack would keep the
    last silently, so two peers could read one frame two ways)."""
    out = dict(pairs)
    if len(out) != len(pairs):
        raise ValueError("a map holds the same key twice")
    return out


def _new_unpacker() -> Any:
    return msgpack.Unpacker(
        object_pairs_hook=_unique_keys,
        max_buffer_size=L.MAX_FRAME,
        max_str_len=L.UNPACK_MAX_STR,
        max_bin_len=L.UNPACK_MAX_BIN,
        max_array_len=L.UNPACK_MAX_ARRAY,
        max_map_len=L.UNPACK_MAX_MAP,
        max_ext_len=0,
        strict_map_key=True,
        raw=False,
        use_list=True,
    )


def _unpack_one(unpacker: Any, size: int) -> object:
    start = unpacker.tell()
    try:
        obj = unpacker.unpack()
    except msgpack.OutOfData:
        raise RemoteProtocolError(
            ErrorReason.MALFORMED, "frame body ends inside a msgpack value"
        ) from None
    except (ValueError, TypeError, OverflowError, UnicodeDecodeError, msgpack.UnpackException) as e:
        text = f"not valid msgpack ({type(e).__name__}: {e})"[:120]
        raise RemoteProtocolError(ErrorReason.MALFORMED, text) from None
    if unpacker.tell() - start != size:
        raise RemoteProtocolError(
            ErrorReason.MALFORMED, "frame body holds bytes after its msgpack map"
        )
    return obj


class DecodeError(RemoteProtocolError):
    """A bad frame from the peer, as :class:`Decoder` raises it.

    ``messages`` holds the valid messages decoded from the same chunk of bytes before
    the bad frame, so a caller that feeds several frames at once loses none of them.
    """

    def __init__(
        self,
        reason: ErrorReason,
        text: str,
        *,
        messages: tuple[Message, ...] = (),
        peer_versions: tuple[int, ...] = (),
    ) -> None:
        super().__init__(reason, text, peer_versions=peer_versions)
        self.messages = messages


class Decoder:
    """Incremental frame decoder: ``feed(bytes) -> [Message, ...]``.

    ``supported_versions`` only matters for greetings (see :func:`from_wire`).
    After any error the decoder is dead: :attr:`error` holds the error and every later
    :meth:`feed` raises it again.  It does not decide what to do about the error.
    """

    __slots__ = ("_buffer", "_need", "_unpacker", "error", "frames", "supported_versions")

    def __init__(self, *, supported_versions: tuple[int, ...] = L.SUPPORTED_VERSIONS) -> None:
        self.supported_versions = supported_versions
        self._buffer = bytearray()
        self._need = 0  # body length of the frame being collected, 0 = reading a header
        self._unpacker = _new_unpacker()
        self.error: DecodeError | None = None
        self.frames = 0  # complete frames decoded so far

    @property
    def buffered(self) -> int:
        """Bytes held back waiting for the rest of a frame (<= 4 + MAX_FRAME)."""
        return len(self._buffer)

    def feed(self, data: bytes) -> list[Message]:
        """Consume ``data``; return every message it completes, in order.

        On a bad frame raises :class:`DecodeError` whose ``messages`` holds the
        messages completed before it in this call.
        """
        if self.error is not None:
            raise DecodeError(
                self.error.reason, f"decoder closed after an earlier error: {self.error.text}"
            )
        out: list[Message] = []
        view = bytes(data)
        pos = 0
        end = len(view)
        buf = self._buffer
        try:
            while pos < end:
                if self._need == 0:
                    take = min(L.HEADER_SIZE - len(buf), end - pos)
                    buf += view[pos : pos + take]
                    pos += take
                    if len(buf) < L.HEADER_SIZE:
                        break
                    size = int.from_bytes(buf, "big")
                    buf.clear()
                    if size == 0:
                        raise RemoteProtocolError(ErrorReason.MALFORMED, "empty frame")
                    if size > L.MAX_FRAME:
                        raise RemoteProtocolError(
                            ErrorReason.TOO_LARGE,
                            f"frame of {size} bytes passes the {L.MAX_FRAME} limit",
                        )
                    self._need = size
                take = min(self._need - len(buf), end - pos)
                buf += view[pos : pos + take]
                pos += take
                if len(buf) < self._need:
                    break
                size = self._need
                self._need = 0
                self._unpacker.feed(bytes(buf))
                buf.clear()
                obj = _unpack_one(self._unpacker, size)
                out.append(from_wire(obj, supported_versions=self.supported_versions))
                self.frames += 1
        except RemoteProtocolError as exc:
            buf.clear()
            err = DecodeError(
                exc.reason, exc.text, messages=tuple(out), peer_versions=exc.peer_versions
            )
            self.error = err
            raise err from None
        return out
