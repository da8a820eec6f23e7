"""Typed errors: reasons, fatality, and their wire form."""

from __future__ import annotations

import msgpack
import pytest

from sorry_lan.errors import SorryLanError
from sorry_lan.wire.codec import DecodeError, Decoder, decode_frame_body
from sorry_lan.wire.errors import (
    FATAL_REASONS,
    ErrorReason,
    LocalProtocolError,
    ProtocolError,
    RemoteProtocolError,
)
from sorry_lan.wire.limits import MOVE_ID_MAX
from sorry_lan.wire.messages import Move, Ping


def test_error_classes_and_messages() -> None:
    local = LocalProtocolError(ErrorReason.UNEXPECTED, "not now")
    remote = DecodeError(ErrorReason.MALFORMED, "bad\nbytes" + "x" * 300,
                         messages=(Ping(n=1),))
    assert isinstance(local, ProtocolError) and isinstance(remote, RemoteProtocolError)
    assert not local.fatal and remote.fatal
    assert remote.messages == (Ping(n=1),) and remote.peer_versions == ()
    assert str(local) == "unexpected: not now"


def test_flow_reasons_are_not_fatal() -> None:
    for reason in (ErrorReason.UNEXPECTED, ErrorReason.FORBIDDEN, ErrorReason.STALE,
                   ErrorReason.ILLEGAL, ErrorReason.NOT_YOUR_TURN, ErrorReason.RATE_LIMITED):
        assert reason not in FATAL_REASONS
    assert ErrorReason.TOO_LARGE in FATAL_REASONS and ErrorReason.VERSION in FATAL_REASONS


def test_a_bad_value_is_ours_when_built_and_the_peers_when_decoded() -> None:
    """The specs raise the local error; only the decoder makes it the remote one."""
    with pytest.raises(LocalProtocolError) as built:
        Move(sid=1, id=MOVE_ID_MAX + 1)
    body = msgpack.packb({"t": "move", "sid": 1, "id": MOVE_ID_MAX + 1})
    frame = len(body).to_bytes(4, "big") + body
    with pytest.raises(RemoteProtocolError) as decoded:
        Decoder().feed(frame)
    assert not isinstance(decoded.value, LocalProtocolError)
    assert decoded.value.reason is built.value.reason is ErrorReason.BAD_VALUE
    expected = f"move.id: {MOVE_ID_MAX + 1} not in 0..{MOVE_ID_MAX}"
    assert decoded.value.text == built.value.text == expected
    with pytest.raises(RemoteProtocolError) as versions:
        decode_frame_body(msgpack.packb({"t": "hello", "versions": [0], "software": "x",
                                         "name": "a", "token": None}))
    assert versions.value.reason is ErrorReason.BAD_VALUE
    assert versions.value.text.startswith("versions[0]: 0 not in 1..")


def test_every_protocol_error_is_a_sorry_lan_error() -> None:
    assert issubclass(LocalProtocolError, SorryLanError)
    assert issubclass(RemoteProtocolError, SorryLanError)
