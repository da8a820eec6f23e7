"""The machinery both session sides share: decoding, the table lookups, the queue.

:class:`Session` is not used directly; :class:`~sorry_lan.wire.session.HostSession`
and :class:`~sorry_lan.wire.session.ClientSession` add each side's behaviour through
its four hooks.  No sockets, no timers, no game rules.
"""

from __future__ import annotations

from sorry_lan.wire.codec import DecodeError, Decoder, encode
from sorry_lan.wire.errors import ErrorReason, LocalProtocolError, RemoteProtocolError
from sorry_lan.wire.messages import (
    SINCE_VERSION,
    Bye,
    Error,
    Events,
    GameOver,
    LegalMoves,
    Message,
    Ping,
    Pong,
    Snapshot,
    Turn,
)
from sorry_lan.wire.transitions import TRANSITIONS, Role, Sender, State
from sorry_lan.wire.vocab import ByeReason, MsgType, clip_text

SID_TYPES = frozenset({m.TYPE for m in (Snapshot, Turn, LegalMoves, Events, GameOver)})


class Session:
    """Shared machinery; see :class:`HostSession` and :class:`ClientSession`."""

    SIDE: Sender

    def __init__(self, versions: tuple[int, ...], *, answer_pings: bool = True) -> None:
        self.versions = versions
        #: False: a ``ping`` is returned like any message, for the caller to answer in
        #: order with what came before it in the same bytes (a client that may refuse
        #: the host's claim first must not have proved it holds the host's state).
        self.answer_pings = answer_pings
        self.state = State.GREETING
        self.role: Role | None = None
        self.version: int | None = None  # negotiated protocol version
        self.sid: int | None = None  # last state id sent (host) or received (client)
        #: The fatal error that closed the session, if one did (ours or the peer's).
        self.error: RemoteProtocolError | LocalProtocolError | Error | None = None
        self._decoder = Decoder(supported_versions=versions)
        self._out = bytearray()
        self._peer = Sender.HOST if self.SIDE is Sender.CLIENT else Sender.CLIENT

    # -- the caller's interface ------------------------------------------------------

    @property
    def closed(self) -> bool:
        return self.state is State.CLOSED

    def data_to_send(self) -> bytes:
        """Everything queued for the peer since the last call (possibly empty)."""
        data = bytes(self._out)
        self._out.clear()
        return data

    def receive_data(self, data: bytes) -> list[Message]:
        """Feed bytes from the peer; return the messages the application must handle.

        Messages the session answers itself (ping unless :attr:`answer_pings` is False,
        out-of-order ones, PIN steps it handles) are not returned.  After the session
        closes, further data is ignored.
        """
        if self.closed:
            return []
        failure: RemoteProtocolError | None = None
        try:
            messages = self._decoder.feed(data)
        except DecodeError as exc:
            messages = list(exc.messages)
            failure = exc
        out: list[Message] = []
        for message in messages:
            if self._is_closed():
                return out
            try:
                out.extend(self._accept(message))
            except RemoteProtocolError as exc:
                failure = exc
                break
        if failure is not None and not self._is_closed():
            self._fail(failure)
        return out

    def send(self, message: Message, frame: bytes | None = None) -> None:
        """Queue ``message`` for the peer and apply its transition.

        ``frame`` is ``encode(message)`` when the caller already has it (a message
        that goes to many connections is encoded once); it is queued as given,
        unchecked, so it must be exactly that.  Raises :class:`LocalProtocolError`:
        ``unexpected`` when the table does not allow it now, ``forbidden`` when this
        client's role may not send it, ``too_large`` when it does not fit a frame.
        Nothing changes on error.
        """
        if self.closed:
            raise LocalProtocolError(ErrorReason.UNEXPECTED, "the session is closed")
        rule = TRANSITIONS.get((self.state, self.SIDE, message.TYPE))
        if rule is None:
            raise LocalProtocolError(
                ErrorReason.UNEXPECTED,
                f"cannot send {message.TYPE.value} in state {self.state.value}",
            )
        if self.SIDE is Sender.CLIENT and not rule.who.allows(self.role):
            raise LocalProtocolError(
                ErrorReason.FORBIDDEN, f"a {self._role_text()} cannot send {message.TYPE.value}"
            )
        if not self.speaks(message.TYPE):
            raise LocalProtocolError(
                ErrorReason.UNEXPECTED,
                f"{message.TYPE.value} needs protocol version {SINCE_VERSION[message.TYPE]}; "
                f"this connection speaks {self.version}",
            )
        self._before_send(message)
        self._out += encode(message) if frame is None else frame
        if rule.next is not None:
            self.state = rule.next
        if message.TYPE in SID_TYPES:
            self.sid = message.sid  # type: ignore[attr-defined]
        self._after_send(message)

    def close(self, reason: ByeReason = ByeReason.QUIT) -> None:
        """Say ``bye`` (when still open) and close."""
        if not self.closed:
            self.send(Bye(reason=reason))

    def connection_lost(self) -> None:
        """The transport went away: close without sending anything."""
        self.state = State.CLOSED
        self._out.clear()

    def speaks(self, mtype: MsgType) -> bool:
        """True when the version this connection settled on has message type ``mtype``."""
        since = SINCE_VERSION.get(mtype)
        return since is None or (self.version is not None and self.version >= since)

    # -- internals -------------------------------------------------------------------

    def _is_closed(self) -> bool:
        return self.state is State.CLOSED

    def _role_text(self) -> str:
        return "connection not yet welcomed" if self.role is None else self.role.value

    def _accept(self, message: Message) -> list[Message]:
        rule = TRANSITIONS.get((self.state, self._peer, message.TYPE))
        if rule is None:
            self._queue_error(
                ErrorReason.UNEXPECTED,
                f"{message.TYPE.value} is not allowed in state {self.state.value}",
            )
            return []
        if self._peer is Sender.CLIENT and not rule.who.allows(self.role):
            self._queue_error(
                ErrorReason.FORBIDDEN, f"a {self._role_text()} may not send {message.TYPE.value}"
            )
            return []
        if not self.speaks(message.TYPE):
            self._queue_error(
                ErrorReason.UNEXPECTED,
                f"{message.TYPE.value} is not in protocol version {self.version}",
            )
            return []
        self._before_receive(message)
        if rule.next is not None:
            self.state = rule.next
        if message.TYPE in SID_TYPES:
            self.sid = message.sid  # type: ignore[attr-defined]
        if isinstance(message, Ping) and self.answer_pings:
            self.send(Pong(n=message.n))
            return []
        if isinstance(message, Error) and message.fatal:
            self.error = message
            self.state = State.CLOSED
        return self._after_receive(message)

    def _queue_error(self, reason: ErrorReason, text: str, *, fatal: bool = False) -> None:
        self._out += encode(Error(reason=reason, text=clip_text(text), fatal=fatal))

    def _fail(self, exc: RemoteProtocolError) -> None:
        """The peer broke a decoding rule: report it and close."""
        self.error = exc
        self._queue_error(exc.reason, exc.text, fatal=True)
        self.state = State.CLOSED

    # Hooks for the two sides.  _before_* may raise a ProtocolError to reject.
    def _before_send(self, message: Message) -> None:
        pass

    def _after_send(self, message: Message) -> None:
        pass

    def _before_receive(self, message: Message) -> None:
        pass

    def _after_receive(self, message: Message) -> list[Message]:
        return [message]
