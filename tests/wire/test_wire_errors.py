"""Typed errors: reasons, fatality, and their wire form."""

from __future__ import annotations

from sorry_lan.wire.errors import (
    FATAL_REASONS,
    ErrorReason,
    LocalProtocolError,
    ProtocolError,
    RemoteProtocolError,
)
from sorry_lan.wire.messages import Error, Ping


def test_error_classes_and_messages() -> None:
    local = LocalProtocolError(ErrorReason.UNEXPECTED, "not now")
    remote = RemoteProtocolError(ErrorReason.MALFORMED, "bad\nbytes" + "x" * 300,
                                 messages=(Ping(n=1),))
    assert isinstance(local, ProtocolError) and isinstance(remote, ProtocolError)
    assert not local.fatal and remote.fatal
    assert local.to_message() == Error(reason=ErrorReason.UNEXPECTED, text="not now", fatal=False)
    wire = remote.to_message()
    assert wire.fatal and wire.text.isprintable() and len(wire.text) == 200
    assert remote.messages == (Ping(n=1),) and remote.peer_versions == ()
    assert str(local) == "unexpected: not now"


def test_flow_reasons_are_not_fatal() -> None:
    for reason in (ErrorReason.UNEXPECTED, ErrorReason.FORBIDDEN, ErrorReason.STALE,
                   ErrorReason.ILLEGAL, ErrorReason.NOT_YOUR_TURN, ErrorReason.RATE_LIMITED):
        assert reason not in FATAL_REASONS
    assert ErrorReason.TOO_LARGE in FATAL_REASONS and ErrorReason.VERSION in FATAL_REASONS
