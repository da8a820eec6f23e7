"""Typed protocol errors and the reason codes they carry on the wire.

Every failure the wire layer reports is a :class:`ProtocolError` whose ``reason`` is
one of :class:`ErrorReason` (defined, with the words a player reads for each, in
:mod:`sorry_lan.codes`); that code is what goes into an ``error`` message (the
session sends it: ``session_base``).  The subclass says who broke the rules:
:class:`LocalProtocolError` (this side tried to send something invalid, or something
the session state forbids) or :class:`RemoteProtocolError` (the peer sent it).
:data:`FATAL_REASONS` says after which reasons the connection closes.

This module raises nothing itself and knows nothing about sockets or game rules;
reasons such as ``stale`` or ``illegal`` exist here only so the host application
can report its own checks with the same vocabulary.
"""

from __future__ import annotations

from sorry_lan.codes import ErrorReason as ErrorReason  # defined with its words there
from sorry_lan.errors import SorryLanError

#: Reasons after which the sender of the ``error`` closes the connection.
FATAL_REASONS = frozenset(
    {
        ErrorReason.MALFORMED,
        ErrorReason.TOO_LARGE,
        ErrorReason.UNKNOWN_TYPE,
        ErrorReason.MISSING_FIELD,
        ErrorReason.EXTRA_FIELD,
        ErrorReason.BAD_VALUE,
        ErrorReason.VERSION,
        ErrorReason.INTERNAL,
    }
)


class ProtocolError(SorryLanError):
    """A broken protocol rule, with the wire reason code that describes it."""

    def __init__(self, reason: ErrorReason, text: str) -> None:
        super().__init__(f"{reason.value}: {text}")
        self.reason = reason
        self.text = text

    @property
    def fatal(self) -> bool:
        """True when the connection must be closed after reporting this error."""
        return self.reason in FATAL_REASONS


class LocalProtocolError(ProtocolError):
    """This side broke the rules: an invalid message, or one the state does not allow."""


class RemoteProtocolError(ProtocolError):
    """The peer broke the rules.

    ``peer_versions`` is set when the failure is a version mismatch in a greeting.
    (The decoder raises :class:`~sorry_lan.wire.codec.DecodeError`, which also keeps
    the messages decoded before the bad frame.)
    """

    def __init__(
        self, reason: ErrorReason, text: str, *, peer_versions: tuple[int, ...] = ()
    ) -> None:
        super().__init__(reason, text)
        self.peer_versions = peer_versions
