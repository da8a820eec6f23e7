"""Field specifications: the one place that says what a valid field value is.

A :class:`Spec` checks a value (a decoded msgpack value, or what a caller passed to a
message constructor), normalises it (lists become tuples, ints become the right
``IntEnum``) and converts it back to plain msgpack-ready data.  An invalid value
raises :class:`~sorry_lan.wire.errors.LocalProtocolError`, as for a message this
side tried to build; the decoder (:func:`~sorry_lan.wire.codec.from_wire`) is the one
place that turns it into a :class:`~sorry_lan.wire.errors.RemoteProtocolError` when
the value came from the peer.

Specs know value shapes and ranges only; they do not know which message a field
belongs to, nor any rule of the game.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Sequence
from enum import Enum
from typing import Any, cast

from sorry_lan.wire.errors import ErrorReason, LocalProtocolError


def _bad(text: str) -> LocalProtocolError:
    """The error of a value that breaks its spec (always reason ``bad_value``)."""
    return LocalProtocolError(ErrorReason.BAD_VALUE, text)


def _describe(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class Spec:
    """Base class: ``check`` validates and normalises, ``dump`` produces wire data."""

    def check(self, value: object, where: str) -> Any:
        raise NotImplementedError

    def dump(self, value: Any) -> Any:
        return value

    def describe(self) -> str:
        raise NotImplementedError

    def example(self) -> Any:
        """A value ``check`` accepts, for a message's made-up example."""
        raise NotImplementedError


class IntSpec(Spec):
    """An integer in ``lo..hi`` (booleans are not integers here)."""

    def __init__(self, lo: int, hi: int) -> None:
        self.lo = lo
        self.hi = hi

    def check(self, value: object, where: str) -> int:
        if type(value) is not int and not (isinstance(value, int) and isinstance(value, Enum)):
            raise _bad(f"{where}: not an int: {_describe(value)}")
        assert isinstance(value, int)
        if not self.lo <= value <= self.hi:
            raise _bad(f"{where}: {value} not in {self.lo}..{self.hi}")
        return int(value)

    def dump(self, value: Any) -> Any:
        return int(value)

    def example(self) -> int:
        return self.lo

    def describe(self) -> str:
        return f"int {self.lo}..{self.hi}"


class BoolSpec(Spec):
    def check(self, value: object, where: str) -> bool:
        if type(value) is not bool:
            raise _bad(f"{where}: expected bool, not {_describe(value)}")
        return value

    def example(self) -> bool:
        return False

    def describe(self) -> str:
        return "bool"


class EnumSpec(Spec):
    """A member of an ``IntEnum`` or ``StrEnum``, sent as its int or string value."""

    def __init__(self, enum: type[Enum], text: str = "", exclude: tuple[Enum, ...] = ()) -> None:
        self.enum = enum
        self.kind: type = type(next(iter(enum)).value)
        self.text = text
        self.exclude = frozenset(exclude)  # members not allowed here
        # value -> member, as the enum's own lookup finds it (other values ask the enum)
        self._members: dict[object, Enum] = {m.value: m for m in enum if m not in self.exclude}

    def check(self, value: object, where: str) -> Enum:
        if type(value) is not self.kind and not isinstance(value, self.enum):
            raise _bad(f"{where}: expected a {self.kind.__name__}, got {_describe(value)}")
        found = self._members.get(value)
        if found is not None:
            return found
        try:
            member = self.enum(value)
        except ValueError:
            member = None
        if member is None or member in self.exclude:
            raise _bad(f"{where}: {_describe(value)} is not a valid value")
        return member

    def dump(self, value: Any) -> Any:
        return self.kind(value.value)

    def example(self) -> Enum:
        return next(m for m in self.enum if m not in self.exclude)

    def describe(self) -> str:
        if self.text:
            return self.text
        return "one of " + ", ".join(f'"{m.value}"' for m in self.enum if m not in self.exclude)


class StrSpec(Spec):
    """Text of ``min_len..max_len`` characters, printable, with an optional extra test."""

    def __init__(
        self,
        max_len: int,
        *,
        min_len: int = 0,
        stripped: bool = False,
        allowed: Callable[[str], bool] | None = None,
        allowed_text: str = "",
    ) -> None:
        self.max_len = max_len
        self.min_len = min_len
        self.stripped = stripped
        self.allowed = allowed
        self.allowed_text = allowed_text

    def check(self, value: object, where: str) -> str:
        if type(value) is not str:
            raise _bad(f"{where}: expected text, got {_describe(value)}")
        if not self.min_len <= len(value) <= self.max_len:
            raise _bad(f"{where}: length {len(value)} not in {self.min_len}..{self.max_len}")
        if not value.isprintable():
            raise _bad(f"{where}: text holds unprintable characters")
        if self.stripped and value != value.strip():
            raise _bad(f"{where}: leading or trailing whitespace")
        if self.allowed is not None and not self.allowed(value):
            raise _bad(f"{where}: must be {self.allowed_text}")
        return value

    def example(self) -> str:
        return "x" * max(self.min_len, 1)

    def describe(self) -> str:
        extra = ", no outer spaces" if self.stripped else ""
        extra += f", {self.allowed_text}" if self.allowed_text else ""
        return f"str, {self.min_len}..{self.max_len} printable chars{extra}"


class BytesSpec(Spec):
    """A msgpack ``bin`` of exactly ``size`` bytes."""

    def __init__(self, size: int) -> None:
        self.size = size

    def check(self, value: object, where: str) -> bytes:
        if type(value) is not bytes:
            raise _bad(f"{where}: expected bytes, got {_describe(value)}")
        if len(value) != self.size:
            raise _bad(f"{where}: expected {self.size} bytes, got {len(value)}")
        return value

    def example(self) -> bytes:
        return bytes(self.size)

    def describe(self) -> str:
        return f"bin of {self.size} bytes"


class BlobSpec(Spec):
    """A msgpack ``bin`` of ``min_len..max_len`` bytes (a piece of something larger)."""

    def __init__(self, max_len: int, min_len: int = 1) -> None:
        self.max_len = max_len
        self.min_len = min_len

    def check(self, value: object, where: str) -> bytes:
        if type(value) is not bytes:
            raise _bad(f"{where}: expected bytes, got {_describe(value)}")
        if not self.min_len <= len(value) <= self.max_len:
            raise _bad(
                f"{where}: expected {self.min_len}..{self.max_len} bytes, got {len(value)}"
            )
        return value

    def example(self) -> bytes:
        return bytes(self.min_len)

    def describe(self) -> str:
        return f"bin of {self.min_len}..{self.max_len} bytes"


class OptSpec(Spec):
    """``nil`` or a value of the inner spec."""

    def __init__(self, inner: Spec) -> None:
        self.inner = inner

    def check(self, value: object, where: str) -> Any:
        return None if value is None else self.inner.check(value, where)

    def dump(self, value: Any) -> Any:
        return None if value is None else self.inner.dump(value)

    def example(self) -> Any:
        return self.inner.example()

    def describe(self) -> str:
        return f"nil or {self.inner.describe()}"


class LaterSpec(Spec):
    """A map field a later protocol version added: absent from the map (``None`` here)
    when the sender speaks an older version, else a value of the inner spec.  The
    codec leaves the key out for ``None`` and reads a missing key as ``None``."""

    def __init__(self, inner: Spec, since: int) -> None:
        self.inner = inner
        self.since = since

    def check(self, value: object, where: str) -> Any:
        return None if value is None else self.inner.check(value, where)

    def dump(self, value: Any) -> Any:
        return None if value is None else self.inner.dump(value)

    def example(self) -> Any:
        return self.inner.example()

    def describe(self) -> str:
        return (f"protocol version {self.since} on (absent before): "
                f"{self.inner.describe()}")


class ListSpec(Spec):
    """An array of ``min_len..max_len`` items of one spec, as a tuple."""

    def __init__(
        self, item: Spec, max_len: int, *, min_len: int = 0, unique: bool = False
    ) -> None:
        self.item = item
        self.max_len = max_len
        self.min_len = min_len
        self.unique = unique

    def check(self, value: object, where: str) -> tuple[Any, ...]:
        if not isinstance(value, list | tuple):
            raise _bad(f"{where}: not an array: {_describe(value)}")
        if not self.min_len <= len(value) <= self.max_len:
            raise _bad(f"{where}: {len(value)} items, expected {self.min_len}..{self.max_len}")
        item = self.item
        if type(item) is IntSpec and _plain_ints_within(value, item.lo, item.hi):
            out = tuple(value)  # (what checking each item would make of it)
            if self.unique and len(set(out)) != len(out):
                raise _bad(f"{where}: items repeat")
            return out
        check = item.check
        try:  # name each item's place only when one is wrong (formatting costs)
            out = tuple([check(v, where) for v in value])
        except LocalProtocolError:
            out = tuple(check(v, f"{where}[{i}]") for i, v in enumerate(value))
        if self.unique and len(set(out)) != len(out):
            raise _bad(f"{where}: items repeat")
        return out

    def dump(self, value: Any) -> Any:
        return [self.item.dump(v) for v in value]

    def example(self) -> tuple[Any, ...]:
        return tuple(self.item.example() for _ in range(self.min_len))

    def describe(self) -> str:
        unique = ", no repeats" if self.unique else ""
        size = (
            f"{self.min_len}" if self.min_len == self.max_len else f"{self.min_len}..{self.max_len}"
        )
        return f"array of {size}{unique}: {self.item.describe()}"


class TupleSpec(Spec):
    """A fixed-shape array whose items each have their own spec.

    ``tail`` lists items a newer protocol version added at the end, each with the value
    it stands for when absent: the array then has either ``len(items)`` items (the
    tail all default) or ``len(items) + len(tail)``.  A tail whose values are all their
    defaults is dumped short, so an older receiver gets the shape it knows.  ``text``,
    if given, describes the array instead of listing every item."""

    def __init__(
        self, items: Sequence[Spec], tail: Sequence[tuple[Spec, Any]] = (), text: str = ""
    ) -> None:
        self.base = len(items)
        self.defaults = tuple(default for _, default in tail)
        self.items = (*items, *(spec for spec, _ in tail))
        self.text = text

    def check(self, value: object, where: str) -> tuple[Any, ...]:
        if not isinstance(value, list | tuple):
            raise _bad(f"{where}: not an array: {_describe(value)}")
        if len(value) == self.base and self.defaults:
            value = (*value, *self.defaults)
        if len(value) != len(self.items):
            sizes = f"{self.base} or " if self.defaults else ""
            raise _bad(f"{where}: {len(value)} items, expected {sizes}{len(self.items)}")
        try:  # name each item's place only when one is wrong
            return tuple([s.check(v, where) for s, v in zip(self.items, value, strict=True)])
        except LocalProtocolError:
            pairs = zip(self.items, value, strict=True)
            return tuple(s.check(v, f"{where}[{i}]") for i, (s, v) in enumerate(pairs))

    def short(self, values: Sequence[Any]) -> Sequence[Any]:
        """``values`` without the tail when every tail value is its default."""
        if self.defaults and tuple(values[self.base :]) == self.defaults:
            return values[: self.base]
        return values

    def dump(self, value: Any) -> Any:
        value = self.short(value)
        return [s.dump(v) for s, v in zip(self.items, value, strict=False)]

    def example(self) -> tuple[Any, ...]:
        return tuple(spec.example() for spec in self.items)

    def describe(self) -> str:
        if self.text:
            return self.text
        head = ", ".join(s.describe() for s in self.items[: self.base])
        if not self.defaults:
            return f"[{head}]"
        tail = ", ".join(s.describe() for s in self.items[self.base :])
        return f"[{head}] or [{head}, {tail}]"


def _plain_ints_within(values: Sequence[object], lo: int, hi: int) -> bool:
    """True when every one of ``values`` is a plain int in ``lo..hi`` (False for an
    empty array: the item checks decide then)."""
    if not values or set(map(type, values)) != _INT_ONLY:
        return False
    ints = cast("Sequence[int]", values)
    return lo <= min(ints) and max(ints) <= hi


_INT_ONLY = {int}


def _int_values(spec: Spec) -> Container[int] | None:
    """The plain ints ``spec`` accepts as they are, or None if it is not that simple."""
    if isinstance(spec, IntSpec):
        return range(spec.lo, spec.hi + 1)
    if isinstance(spec, EnumSpec) and spec.kind is int:
        return frozenset(int(m.value) for m in spec.enum if m not in spec.exclude)
    return None


class RecordSpec(Spec):
    """A nested record: an array whose items map onto a frozen class's fields.

    ``build`` receives the checked items in order and returns the record; ``fields``
    returns the record's items in order for dumping.
    """

    def __init__(
        self,
        name: str,
        items: Sequence[Spec],
        build: Callable[..., Any],
        fields: Callable[[Any], Sequence[Any]],
        record_type: type,
        tail: Sequence[tuple[Spec, Any]] = (),
    ) -> None:
        self.name = name
        self.shape = TupleSpec(items, tail)
        self.build = build
        self.fields = fields
        self.record_type = record_type

    def check(self, value: object, where: str) -> Any:
        if isinstance(value, self.record_type):
            return value
        return self.build(*self.shape.check(value, where))

    def dump(self, value: Any) -> Any:
        return self.shape.dump(self.fields(value))

    def example(self) -> Any:
        return self.build(*self.shape.example())

    def describe(self) -> str:
        return f"`{self.name}` record"


class VariantSpec(Spec):
    """An array ``[kind, *operands]`` whose shape depends on its first item.

    ``shapes[kind]`` lists the specs of the operands that follow ``kind``.
    """

    def __init__(self, name: str, shapes: dict[int, tuple[Spec, ...]]) -> None:
        self.name = name
        self.shapes = shapes
        # kind -> the values each operand may take, for kinds whose operands are all
        # plain ints (a quick test that the full check below repeats on failure).
        self._allowed: dict[int, tuple[Container[int], ...]] = {}
        for kind, shape in shapes.items():
            allowed = [_int_values(spec) for spec in shape]
            if all(a is not None for a in allowed):
                self._allowed[int(kind)] = tuple(a for a in allowed if a is not None)

    def check(self, value: object, where: str) -> tuple[int, ...]:
        if (type(value) is list or type(value) is tuple) and value and type(value[0]) is int:
            allowed = self._allowed.get(value[0])
            if allowed is not None and len(value) == len(allowed) + 1:
                for values, v in zip(allowed, value[1:], strict=True):
                    if type(v) is not int or v not in values:
                        break
                else:
                    return tuple(value)
        return self._check(value, where)

    def _check(self, value: object, where: str) -> tuple[int, ...]:
        if not isinstance(value, list | tuple) or not value:
            raise _bad(f"{where}: not a non-empty array: {_describe(value)}")
        kind = value[0]
        if not isinstance(kind, int) or isinstance(kind, bool):
            raise _bad(f"{where}[0]: {self.name} kind must be an int")
        shape = self.shapes.get(int(kind))
        if shape is None:
            raise _bad(f"{where}[0]: unknown {self.name} kind {kind}")
        if len(value) != len(shape) + 1:
            raise _bad(
                f"{where}: {self.name} kind {kind} takes {len(shape)} operands, "
                f"got {len(value) - 1}"
            )
        pairs = zip(shape, value[1:], strict=True)
        rest = [s.check(v, f"{where}[{i + 1}]") for i, (s, v) in enumerate(pairs)]
        return (int(kind), *(int(v) for v in rest))

    def dump(self, value: Any) -> Any:
        return [int(v) for v in value]

    def example(self) -> tuple[int, ...]:
        kind, shape = next(iter(self.shapes.items()))
        return (int(kind), *(int(spec.example()) for spec in shape))

    def describe(self) -> str:
        return f"`{self.name}` array [kind, operands...]"
