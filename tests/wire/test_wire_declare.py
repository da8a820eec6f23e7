"""One declaration makes a message: its MsgType, codec entry, transitions and example.

A scratch message is declared here for the length of a test and withdrawn after it,
so the protocol the other tests see is the real one.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from sorry_lan.rules.board import Colour
from sorry_lan.wire.codec import Decoder, encode, to_wire
from sorry_lan.wire.errors import ErrorReason, LocalProtocolError, RemoteProtocolError
from sorry_lan.wire.messages import (
    MESSAGE_TYPES,
    SINCE_VERSION,
    Message,
    Ping,
    declare,
    withdraw,
)
from sorry_lan.wire.session import ClientSession, HostSession
from sorry_lan.wire.transitions import (
    DECLARED,
    TRANSITIONS,
    WELCOMED,
    Role,
    Rule,
    Sender,
    State,
    Who,
    by_client,
    by_host,
    render_transitions,
    rule_for,
)
from sorry_lan.wire.vocab import COLOUR, MsgType

ROOT = Path(__file__).resolve().parents[2]


def _declare_scratch() -> type[Message]:
    @declare("scratch", by_client(State.PLAYING, who=Who.PLAYER), by_host(WELCOMED), since=2)
    @dataclass(frozen=True, slots=True)
    class ScratchNudge(Message):
        """Either way: hurry up ``colour``, the seat to move."""

        colour: Colour = field(metadata={"spec": COLOUR})

    return ScratchNudge


@pytest.fixture
def scratch() -> Iterator[type[Message]]:
    before = (dict(TRANSITIONS), list(MsgType), dict(MESSAGE_TYPES), dict(SINCE_VERSION))
    cls = _declare_scratch()
    yield cls
    withdraw(cls)
    assert (dict(TRANSITIONS), list(MsgType), dict(MESSAGE_TYPES), dict(SINCE_VERSION)) == before


def test_the_declaration_makes_its_msgtype(scratch: type[Message]) -> None:
    member = MsgType.SCRATCH_NUDGE
    assert scratch.TYPE is member is MsgType("scratch")
    assert member == "scratch" and member.value == "scratch" and member.name == "SCRATCH_NUDGE"
    assert type(member.value) is str
    assert list(MsgType)[-1] is member and len(MsgType) == len(MESSAGE_TYPES)
    assert MESSAGE_TYPES["scratch"] is scratch
    assert [name for name, _ in scratch.FIELDS] == ["colour"]
    assert SINCE_VERSION[member] == 2


def test_the_declared_message_round_trips_through_the_codec(scratch: type[Message]) -> None:
    message = scratch(colour=2)  # type: ignore[call-arg]
    assert message.colour is Colour.YELLOW  # type: ignore[attr-defined]
    assert to_wire(message) == {"t": "scratch", "colour": 2}
    [back] = Decoder().feed(encode(message))
    assert back == message and type(back) is scratch
    with pytest.raises(RemoteProtocolError, match="bad_value"):
        Decoder().feed(encode(message)[:-1] + b"\x07")  # colour 7


def test_the_declared_rules_are_rows_of_the_table(scratch: type[Message]) -> None:
    mtype = scratch.TYPE
    assert rule_for(State.PLAYING, Sender.CLIENT, mtype) == Rule(None, Who.PLAYER)
    assert rule_for(State.LOBBY, Sender.CLIENT, mtype) is None
    assert {s for (s, snd, m) in TRANSITIONS if m is mtype and snd is Sender.HOST} == set(WELCOMED)
    assert len(DECLARED[mtype]) == 2
    table = render_transitions()
    assert "| client | `scratch` | playing -> unchanged | player |" in table
    assert "| host | `scratch` | lobby, playing, game_over -> unchanged | host |" in table


def _playing(session: ClientSession | HostSession, role: Role) -> Any:
    session.state, session.version, session.role = State.PLAYING, 2, role
    return session


def test_a_session_follows_the_declared_rules(scratch: type[Message]) -> None:
    message = scratch(colour=0)  # type: ignore[call-arg]
    client = _playing(ClientSession(name="Ann"), Role.PLAYER)
    client.send(message)
    data = client.data_to_send()
    assert _playing(HostSession(), Role.PLAYER).receive_data(data) == [message]
    watcher = _playing(HostSession(), Role.SPECTATOR)
    assert watcher.receive_data(data) == []
    [error] = Decoder().feed(watcher.data_to_send())
    assert error.reason is ErrorReason.FORBIDDEN  # type: ignore[attr-defined]
    client.state = State.LOBBY
    with pytest.raises(LocalProtocolError, match="unexpected"):
        client.send(message)


def test_gen_vectors_gives_a_message_without_a_sample_its_example(scratch: type[Message]) -> None:
    spec = importlib.util.spec_from_file_location("gen_vectors", ROOT / "scripts/gen_vectors.py")
    assert spec is not None and spec.loader is not None
    gen_vectors: Any = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen_vectors)
    samples = gen_vectors.samples()
    assert samples[-1] == ("scratch", scratch(colour=Colour.RED))  # type: ignore[call-arg]
    hand = list(gen_vectors.SAMPLES)
    assert samples[: len(hand)] == hand  # the hand-written ones first, as they were


def test_withdrawn_the_message_is_gone() -> None:
    cls = _declare_scratch()
    frame = encode(cls(colour=1))  # type: ignore[call-arg]
    withdraw(cls)
    with pytest.raises(AttributeError, match="SCRATCH_NUDGE"):
        _ = MsgType.SCRATCH_NUDGE
    with pytest.raises(ValueError, match="scratch"):
        MsgType("scratch")
    with pytest.raises(RemoteProtocolError, match="unknown_type"):
        Decoder().feed(frame)
    assert not any(m == "scratch" for _, _, m in TRANSITIONS)


def test_a_type_or_a_row_declared_twice_is_refused_and_leaves_nothing() -> None:
    before = (dict(TRANSITIONS), list(MsgType))
    with pytest.raises(ValueError, match="twice"):

        @declare("ping", by_client(State.LOBBY))
        @dataclass(frozen=True, slots=True)
        class Ping2(Message):
            pass

    with pytest.raises(ValueError, match="given twice"):

        @declare("again", by_client(State.LOBBY), by_client(State.LOBBY, State.PLAYING))
        @dataclass(frozen=True, slots=True)
        class Again(Message):
            pass

    with pytest.raises(ValueError, match="no transition"):

        @declare("silent")
        @dataclass(frozen=True, slots=True)
        class Silent(Message):
            pass

    assert (dict(TRANSITIONS), list(MsgType)) == before
    assert MESSAGE_TYPES["ping"] is Ping


def test_every_declared_message_has_an_example_that_round_trips() -> None:
    for cls in MESSAGE_TYPES.values():
        example = cls.example()
        assert Decoder().feed(encode(example)) == [example], cls
