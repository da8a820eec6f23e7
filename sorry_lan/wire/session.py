"""Sans-I/O sessions: one host-side and one client-side object per connection.

A session owns a :class:`~sorry_lan.wire.codec.Decoder`, the connection's
:class:`~sorry_lan.wire.transitions.State` and an outgoing byte buffer.  The caller moves
bytes: ``receive_data(bytes) -> [messages to act on]``, ``send(message)``,
``data_to_send() -> bytes``; when :attr:`closed` turns true it flushes
``data_to_send()`` and closes the transport.

What a session does by itself, following :data:`~sorry_lan.wire.transitions.TRANSITIONS`:

* answers an out-of-order message with ``error`` (``unexpected`` or ``forbidden``),
  drops it and changes nothing;
* answers a decoding failure with a fatal ``error`` (or, for a greeting whose
  versions share nothing with ours, ``refuse`` reason ``version``) and closes;
* answers ``ping`` with ``pong``;
* negotiates the protocol version, and runs the PIN challenge-response (host: when
  built with a ``pin_key``; client: when built with a ``pin``, else it surfaces the
  ``challenge`` and waits for :meth:`ClientSession.prove`).

What it does NOT do: sockets, timers, heartbeats' timing, seat bookkeeping, token
checks, or any game rule.  Whether a move is legal, a colour free, or a token valid
is the host application's decision; the session only tracks the last state id sent
(:attr:`HostSession.sid`) so stale moves are easy to spot.
"""

from __future__ import annotations

import math
import os
from typing import Protocol

from sorry_lan.wire import limits as L
from sorry_lan.wire.auth import RandomBytes, check_pin_proof, new_nonce, pin_key, proof_from_key
from sorry_lan.wire.errors import ErrorReason, LocalProtocolError, RemoteProtocolError
from sorry_lan.wire.messages import (
    Challenge,
    Hello,
    LegalMoves,
    Message,
    Move,
    Proof,
    Refuse,
    Spectate,
    Welcome,
)
from sorry_lan.wire.session_base import SID_TYPES, Session
from sorry_lan.wire.transitions import Role, Sender, State
from sorry_lan.wire.vocab import RefuseReason, clip_text


class PinPolicy(Protocol):
    """The host's say over one connection's PIN exchange (``authority/admission.py``)."""

    def exempt(self, greeting: Hello | Spectate) -> bool:
        """True to admit without a PIN (a hello carrying a valid seat token)."""
        ...

    def wait(self) -> float:
        """Seconds before this peer may try a PIN (0: now)."""
        ...

    def failed(self) -> None: ...

    def passed(self) -> None: ...


class HostSession(Session):
    """The host's end of one client connection.

    ``pin_key`` (from :func:`~sorry_lan.wire.auth.pin_key`) turns on the PIN
    challenge: the join request (``Hello``/``Spectate``) is only surfaced once the
    client proved the PIN; a wrong proof is refused with ``bad_pin`` and closed.
    :attr:`pin_policy`, when set, may exempt a greeting from the PIN, may refuse a
    peer that must wait (``rate_limited``) instead of challenging it, and hears of
    every proof's outcome.  After surfacing the join request the application must
    call :meth:`welcome` or :meth:`refuse`.
    """

    SIDE = Sender.HOST

    def __init__(
        self,
        *,
        pin_key: bytes | None = None,
        versions: tuple[int, ...] = L.SUPPORTED_VERSIONS,
        software: str = L.SOFTWARE,
        random_bytes: RandomBytes = os.urandom,
    ) -> None:
        super().__init__(versions)
        self.pin_key = pin_key
        self.software = software
        self._random_bytes = random_bytes
        self._nonce: bytes | None = None
        #: The greeting, once accepted (and PIN-proven when a PIN is set).
        self.join_request: Hello | Spectate | None = None
        self._pending: Hello | Spectate | None = None
        self.peer_versions: tuple[int, ...] = ()
        self.pid: int | None = None
        self.pin_policy: PinPolicy | None = None

    def welcome(self, pid: int | None, token: bytes | None, *, owner: bool = False,
                name: str | None = None) -> None:
        """Admit the client: as a player (``pid`` and ``token``) or a spectator (both None)."""
        if self.join_request is None:
            raise LocalProtocolError(ErrorReason.UNEXPECTED, "no join request to welcome")
        if self.version is None:  # pragma: no cover - set together with join_request
            raise LocalProtocolError(ErrorReason.UNEXPECTED, "no negotiated version")
        self.send(
            Welcome(
                version=self.version,
                software=self.software,
                pid=pid,
                token=token,
                owner=owner,
                name=self.join_request.name if name is None else name,
            )
        )

    def refuse(self, reason: RefuseReason, text: str = "") -> None:
        """Turn the client away (the session closes)."""
        self.send(Refuse(reason=reason, text=clip_text(text), versions=self.versions))

    def sid_is_current(self, move: Move) -> bool:
        """True when ``move`` answers the last state id this session sent."""
        return self.sid is not None and move.sid == self.sid

    def _before_send(self, message: Message) -> None:
        if isinstance(message, Welcome):
            if message.version != self.version:
                raise LocalProtocolError(
                    ErrorReason.BAD_VALUE,
                    f"welcome must carry the negotiated version {self.version}",
                )
            if (message.pid is None) != (message.token is None):
                raise LocalProtocolError(
                    ErrorReason.BAD_VALUE, "a welcome has both pid and token, or neither"
                )
            if isinstance(self.join_request, Spectate) and message.pid is not None:
                raise LocalProtocolError(ErrorReason.BAD_VALUE, "a spectator gets no seat")
            if message.pid is None and message.owner:
                raise LocalProtocolError(ErrorReason.BAD_VALUE, "the owner must hold a seat")

    def _after_send(self, message: Message) -> None:
        if isinstance(message, Welcome):
            self.pid = message.pid
            if message.pid is None:
                self.role = Role.SPECTATOR
            else:
                self.role = Role.OWNER if message.owner else Role.PLAYER

    def _after_receive(self, message: Message) -> list[Message]:
        if isinstance(message, Hello | Spectate):
            self.peer_versions = message.versions
            common = set(message.versions) & set(self.versions)
            # The decoder refuses greetings without a common version before this point.
            self.version = max(common)
            policy = self.pin_policy
            if self.pin_key is None or (policy is not None and policy.exempt(message)):
                self.join_request = message
                return [message]
            wait = 0.0 if policy is None else policy.wait()
            if wait > 0:
                self.refuse(
                    RefuseReason.RATE_LIMITED,
                    f"too many wrong PINs; try again in {math.ceil(wait)} s",
                )
                return []
            self._pending = message
            self._nonce = new_nonce(self._random_bytes)
            self.send(Challenge(version=self.version, nonce=self._nonce))
            return []
        if isinstance(message, Proof):
            assert self.pin_key is not None and self._nonce is not None
            assert self._pending is not None
            if not check_pin_proof(self.pin_key, self._nonce, message.cnonce, message.mac):
                if self.pin_policy is not None:
                    self.pin_policy.failed()
                self.refuse(RefuseReason.BAD_PIN, "wrong PIN")
                return []
            if self.pin_policy is not None:
                self.pin_policy.passed()
            self.join_request = self._pending
            return [self._pending]
        return [message]

    def _fail(self, exc: RemoteProtocolError) -> None:
        if exc.reason is ErrorReason.VERSION and self.state is State.GREETING:
            self.error = exc
            self.peer_versions = exc.peer_versions
            self.refuse(RefuseReason.VERSION, exc.text)
            return
        super()._fail(exc)


class ClientSession(Session):
    """The client's end of the connection to a host.

    Call :meth:`join` to queue the greeting (``hello``, or ``spectate`` when
    ``spectate=True``; ``token`` reclaims a seat; ``seen``, a vote's newest state held,
    goes in the hello only when ``versions`` has version 5).  With ``pin`` set, a challenge is
    answered automatically; otherwise the ``Challenge`` is surfaced and the caller
    answers with :meth:`prove`.  :attr:`moves` holds the legal moves offered for the
    current state id, and :meth:`choose` answers them.
    """

    SIDE = Sender.CLIENT

    def __init__(
        self,
        name: str,
        *,
        token: bytes | None = None,
        spectate: bool = False,
        pin: str | None = None,
        versions: tuple[int, ...] = L.SUPPORTED_VERSIONS,
        software: str = L.SOFTWARE,
        random_bytes: RandomBytes = os.urandom,
        seen: tuple[int, int] | None = None,
        answer_pings: bool = True,
    ) -> None:
        super().__init__(versions, answer_pings=answer_pings)
        if spectate and token is not None:
            raise ValueError("a spectator has no seat token")
        if L.SETTLE_VERSION not in versions:
            seen = None
        self.greeting: Hello | Spectate = (
            Spectate(versions=versions, software=software, name=name)
            if spectate
            else Hello(versions=versions, software=software, name=name, token=token,
                       seen=seen)
        )
        self._pin = pin
        self._random_bytes = random_bytes
        self.challenge: Challenge | None = None
        self.welcomed: Welcome | None = None
        self.refusal: Refuse | None = None
        self.moves: LegalMoves | None = None

    @property
    def pid(self) -> int | None:
        return None if self.welcomed is None else self.welcomed.pid

    @property
    def token(self) -> bytes | None:
        """The seat token to keep for reconnecting (from welcome, else the one we sent)."""
        if self.welcomed is not None and self.welcomed.token is not None:
            return self.welcomed.token
        return self.greeting.token if isinstance(self.greeting, Hello) else None

    def join(self) -> None:
        """Queue the greeting; the first thing to send on a new connection."""
        self.send(self.greeting)

    def prove(self, pin: str) -> None:
        """Answer the pending challenge with a proof for ``pin``."""
        if self.challenge is None or self.state is not State.PROVING:
            raise LocalProtocolError(ErrorReason.UNEXPECTED, "no challenge to answer")
        cnonce = new_nonce(self._random_bytes)
        mac = proof_from_key(pin_key(pin), self.challenge.nonce, cnonce)
        self.send(Proof(cnonce=cnonce, mac=mac))

    def choose(self, move_id: int) -> None:
        """Send ``move`` for one of the offered legal moves (then forget the offer)."""
        offer = self.moves
        if offer is None:
            raise LocalProtocolError(ErrorReason.UNEXPECTED, "no legal moves are on offer")
        if all(option.id != move_id for option in offer.moves):
            raise LocalProtocolError(ErrorReason.ILLEGAL, f"move {move_id} was not offered")
        self.send(Move(sid=offer.sid, id=move_id))
        self.moves = None

    def _before_receive(self, message: Message) -> None:
        if isinstance(message, Challenge | Welcome) and message.version not in self.versions:
            raise RemoteProtocolError(
                ErrorReason.BAD_VALUE,
                f"host chose protocol version {message.version}, we offered {list(self.versions)}",
            )
        if isinstance(message, Welcome):
            if isinstance(self.greeting, Spectate) and message.pid is not None:
                raise RemoteProtocolError(ErrorReason.BAD_VALUE, "a spectator was given a seat")
            if (message.pid is None) != (message.token is None):
                raise RemoteProtocolError(
                    ErrorReason.BAD_VALUE, "welcome has both pid and token, or neither"
                )

    def _after_receive(self, message: Message) -> list[Message]:
        if isinstance(message, Challenge):
            self.version = message.version
            self.challenge = message
            if self._pin is not None:
                self.prove(self._pin)
                return []
            return [message]
        if isinstance(message, Welcome):
            self.version = message.version
            self.welcomed = message
            if message.pid is None:
                self.role = Role.SPECTATOR
            else:
                self.role = Role.OWNER if message.owner else Role.PLAYER
        elif isinstance(message, Refuse):
            self.refusal = message
        elif isinstance(message, LegalMoves):
            self.moves = message
        elif message.TYPE in SID_TYPES and self.moves is not None and self.moves.sid != self.sid:
            self.moves = None
        return [message]
