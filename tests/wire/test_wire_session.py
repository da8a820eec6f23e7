"""Host and client sessions driven against each other in memory (no sockets).

A tiny fake table (``Table``) plays the host application: it hands out seats and
tokens, and checks tokens on rejoin.  The game content is made up; the point is the
flow of messages and states, not the rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import msgpack
import pytest

from sorry_lan.rules.board import START, Colour
from sorry_lan.rules.cards import NO_CARDS, Card
from sorry_lan.rules.variants import Variant
from sorry_lan.wire.auth import new_token, pin_key, tokens_equal
from sorry_lan.wire.codec import encode
from sorry_lan.wire.errors import ErrorReason, LocalProtocolError
from sorry_lan.wire.messages import (
    AddBot,
    Bye,
    Challenge,
    Chat,
    ChooseColour,
    Error,
    Events,
    GameOver,
    Hello,
    LegalMoves,
    Lobby,
    Message,
    Move,
    Ping,
    Pong,
    Profile,
    Ready,
    Refuse,
    Rematch,
    Resync,
    SetVariant,
    Snapshot,
    Spectate,
    Start,
    Turn,
    Welcome,
)
from sorry_lan.wire.records import MoveOption, PlayerInfo, ev_move, ev_play
from sorry_lan.wire.session import ClientSession, HostSession
from sorry_lan.wire.transitions import Role, State
from sorry_lan.wire.vocab import ByeReason, MsgType, RefuseReason

R, B = Colour.RED, Colour.BLUE
KEY_1234 = pin_key("1234")


def state_of(session: HostSession | ClientSession) -> State:
    """The session's state (a call, so that type checkers do not narrow it)."""
    return session.state


def offer_of(client: ClientSession) -> LegalMoves | None:
    return client.moves


def pump(host: HostSession, client: ClientSession) -> tuple[list[Message], list[Message]]:
    """Move bytes both ways until both sides are quiet; return what each surfaced."""
    got_host: list[Message] = []
    got_client: list[Message] = []
    for _ in range(50):
        to_host = client.data_to_send()
        to_client = host.data_to_send()
        if not to_host and not to_client:
            return got_host, got_client
        got_host += host.receive_data(to_host)
        got_client += client.receive_data(to_client)
    raise AssertionError("sessions never went quiet")


def frames(data: bytes) -> list[dict[str, object]]:
    """Decode raw frames without validation (to look at what a session queued)."""
    out = []
    while data:
        n = int.from_bytes(data[:4], "big")
        out.append(msgpack.unpackb(data[4 : 4 + n]))
        data = data[4 + n :]
    return out


@dataclass
class Table:
    """A minimal host application: seats by pid, tokens, an owner."""

    seats: dict[int, bytes] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)
    started: bool = False

    def admit(self, host: HostSession, request: Message) -> None:
        if isinstance(request, Spectate):
            host.welcome(None, None)
            return
        assert isinstance(request, Hello)
        if request.token is not None:
            for pid, token in self.seats.items():
                if tokens_equal(token, request.token):
                    host.welcome(pid, token, owner=pid == 0, name=self.names[pid])
                    return
            host.refuse(RefuseReason.BAD_TOKEN, "no seat holds that token")
            return
        if self.started:
            host.refuse(RefuseReason.STARTED, "game under way")
            return
        if request.name in self.names.values():
            host.refuse(RefuseReason.NAME_TAKEN, f"{request.name} is here already")
            return
        pid = len(self.seats)
        self.seats[pid] = new_token()
        self.names[pid] = request.name
        host.welcome(pid, self.seats[pid], owner=pid == 0)

    def lobby(self) -> Lobby:
        players = tuple(
            PlayerInfo(pid, self.names[pid], Colour(pid), False, True, True) for pid in self.seats
        )
        return Lobby(variant=Variant.STANDARD, seats=4, host=0, players=players, spectators=0)


def connect(table: Table, client: ClientSession, **host_kw: object) -> HostSession:
    host = HostSession(**host_kw)  # type: ignore[arg-type]
    client.join()
    got_host, _ = pump(host, client)
    for request in got_host:
        table.admit(host, request)
    pump(host, client)
    return host


def snapshot(sid: int, you: Colour | None, turn: Colour | None = R) -> Snapshot:
    return Snapshot(
        sid=sid, variant=Variant.STANDARD, you=you, colours=(R, B), pawns=(START,) * 16,
        turn=turn, card=None, hand=None, pile=45, discards=0, top=None, discarded=NO_CARDS,
        scores=None,
    )


OFFER = (MoveOption(0, "R1 start->4", (0, 1, 0, 4)), MoveOption(1, "R2 start->4", (0, 1, 1, 4)))


def test_full_lobby_game_and_rematch_flow() -> None:
    table = Table()
    ann = ClientSession("Ann")
    bob = ClientSession("Bob")
    h_ann = connect(table, ann)
    h_bob = connect(table, bob)
    assert (ann.state, ann.role, ann.pid, ann.version) == (State.LOBBY, Role.OWNER, 0, 5)
    assert (bob.role, h_bob.role, bob.pid) == (Role.PLAYER, Role.PLAYER, 1)
    assert ann.token == table.seats[0] and bob.token == table.seats[1]

    # Lobby: roster, colour choice, readiness, owner-only commands.
    pairs = [(h_ann, ann), (h_bob, bob)]
    for h, _ in pairs:
        h.send(table.lobby())
    assert [pump(h, c)[1] for h, c in pairs] == [[table.lobby()], [table.lobby()]]
    bob.send(ChooseColour(colour=B))
    bob.send(Ready(ready=True))
    assert pump(h_bob, bob)[0] == [ChooseColour(colour=B), Ready(ready=True)]
    with pytest.raises(LocalProtocolError) as info:
        bob.send(Start())
    assert info.value.reason is ErrorReason.FORBIDDEN
    for msg in (SetVariant(variant=Variant.TEAM), AddBot(colour=None, level="greedy"), Start()):
        ann.send(msg)
    assert pump(h_ann, ann)[0] == [
        SetVariant(variant=Variant.TEAM), AddBot(colour=None, level="greedy"), Start()
    ]

    # The game: snapshot, turn, legal moves to the mover, a move, events.
    for h, c in pairs:
        h.send(snapshot(1, R if c is ann else B))
        h.send(Turn(sid=1, colour=R, card=Card.ONE, hand=None, pile=44))
    h_ann.send(LegalMoves(sid=1, moves=OFFER, timeout=None))
    assert [m.TYPE.value for m in pump(h_ann, ann)[1]] == ["snapshot", "turn", "moves"]
    assert [m.TYPE.value for m in pump(h_bob, bob)[1]] == ["snapshot", "turn"]
    assert state_of(ann) is State.PLAYING and state_of(h_ann) is State.PLAYING
    assert ann.moves is not None and bob.moves is None
    with pytest.raises(LocalProtocolError) as info:
        ann.choose(7)
    assert info.value.reason is ErrorReason.ILLEGAL
    ann.choose(1)
    assert offer_of(ann) is None
    [move] = pump(h_ann, ann)[0]
    assert isinstance(move, Move) and move == Move(sid=1, id=1) and h_ann.sid_is_current(move)
    played = (ev_play(R, 1), ev_move(1, START, 4))
    done = Events(sid=2, colour=R, notation="R2 start->4", events=played)
    for h, c in pairs:
        h.send(done)
        assert pump(h, c)[1] == [done]
        assert c.sid == 2 and h.sid == 2

    # Game over, a rematch request, and back to the lobby.
    over = GameOver(sid=3, winners=(R,), scores=None)
    for h, c in pairs:
        h.send(over)
        assert pump(h, c)[1] == [over]
        assert state_of(c) is State.GAME_OVER
    bob.send(Rematch())
    assert pump(h_bob, bob)[0] == [Rematch()]
    for h, c in pairs:
        h.send(Rematch())
        pump(h, c)
        assert state_of(c) is State.LOBBY and state_of(h) is State.LOBBY
    bob.close()
    assert pump(h_bob, bob)[0] == [Bye(reason=ByeReason.QUIT)]
    assert bob.closed and h_bob.closed


def test_rejoin_with_token_mid_game_gets_the_same_seat() -> None:
    table = Table()
    bob = ClientSession("Bob")
    connect(table, ClientSession("Ann"))
    h_bob = connect(table, bob)
    table.started = True
    h_bob.send(snapshot(5, B))
    pump(h_bob, bob)
    token = bob.token
    h_bob.connection_lost()
    bob.connection_lost()
    assert bob.closed and h_bob.data_to_send() == b""

    again = ClientSession("Bob", token=token)
    h_again = connect(table, again)
    assert state_of(again) is State.LOBBY and again.pid == 1 and again.role is Role.PLAYER
    h_again.send(table.lobby())
    h_again.send(snapshot(5, B, turn=B))
    h_again.send(LegalMoves(sid=5, moves=OFFER, timeout=20))
    pump(h_again, again)
    assert state_of(again) is State.PLAYING and again.moves is not None
    again.choose(0)
    [move] = pump(h_again, again)[0]
    assert move == Move(sid=5, id=0)


def test_wrong_token_and_late_newcomer_are_refused() -> None:
    table = Table()
    connect(table, ClientSession("Ann"))
    thief = ClientSession("Eve", token=bytes(16))
    h = connect(table, thief)
    assert thief.closed and h.closed
    assert thief.refusal is not None and thief.refusal.reason is RefuseReason.BAD_TOKEN
    assert thief.pid is None and thief.role is None
    dup = ClientSession("Ann")
    connect(table, dup)
    assert dup.refusal is not None and dup.refusal.reason is RefuseReason.NAME_TAKEN
    table.started = True
    late = ClientSession("Cat")
    connect(table, late)
    assert late.refusal is not None and late.refusal.reason is RefuseReason.STARTED


def test_pin_is_proven_automatically_and_never_sent() -> None:
    table = Table()
    ann = ClientSession("Ann", pin=" 1234 ")
    host = HostSession(pin_key=KEY_1234)
    ann.join()
    wire = ann.data_to_send()
    got = host.receive_data(wire)
    assert got == [] and state_of(host) is State.PROVING
    challenge = host.data_to_send()
    assert ann.receive_data(challenge) == [] and state_of(ann) is State.JOINING
    proof = ann.data_to_send()
    assert b"1234" not in wire + proof
    [request] = host.receive_data(proof)
    assert isinstance(request, Hello) and host.join_request == request
    table.admit(host, request)
    pump(host, ann)
    assert state_of(ann) is State.LOBBY


def test_pin_asked_of_the_user_when_not_given() -> None:
    table = Table()
    ann = ClientSession("Ann")
    host = HostSession(pin_key=KEY_1234)
    ann.join()
    _, got = pump(host, ann)
    assert [type(m) for m in got] == [Challenge] and state_of(ann) is State.PROVING
    with pytest.raises(LocalProtocolError):
        ann.send(Chat(pid=None, text="let me in"))
    ann.prove("1234")
    [request], _ = pump(host, ann)
    table.admit(host, request)
    pump(host, ann)
    assert ann.role is Role.OWNER


def test_wrong_pin_is_refused_and_closed() -> None:
    ann = ClientSession("Ann", pin="9999")
    host = HostSession(pin_key=KEY_1234)
    ann.join()
    got_host, got_client = pump(host, ann)
    assert got_host == [] and host.join_request is None
    assert [type(m) for m in got_client] == [Refuse]
    assert ann.refusal is not None and ann.refusal.reason is RefuseReason.BAD_PIN
    assert ann.closed and host.closed


def test_version_negotiation() -> None:
    both = ClientSession("Ann", versions=(1, 2))  # a peer from before version 3
    host = HostSession()
    both.join()
    [_hello], _ = pump(host, both)
    assert host.version == 2 and host.peer_versions == (1, 2)
    host.welcome(0, new_token())
    pump(host, both)
    assert both.version == 2

    old_client = ClientSession("Ann", versions=(1,))  # a peer from before version 2
    host = HostSession()
    old_client.join()
    pump(host, old_client)
    host.welcome(0, new_token())
    pump(host, old_client)
    assert host.version == old_client.version == 1

    new_client = ClientSession("Ann")
    old_host = HostSession(versions=(1,))
    new_client.join()
    pump(old_host, new_client)
    old_host.welcome(0, new_token())
    pump(old_host, new_client)
    assert old_host.version == new_client.version == 1

    current = ClientSession("Ann")
    host = HostSession()
    current.join()
    pump(host, current)
    host.welcome(0, new_token())
    pump(host, current)
    assert host.version == current.version == 5

    host, before_succession = _settled((1, 2, 3), HostSession().versions)  # before 4
    assert host.version == before_succession.version == 3

    future = ClientSession("Ann", versions=(6, 7))
    host = HostSession()
    future.join()
    got_host, _ = pump(host, future)
    assert got_host == []
    assert future.refusal is not None and future.refusal.reason is RefuseReason.VERSION
    assert future.refusal.versions == (1, 2, 3, 4, 5)
    assert host.closed and future.closed and host.peer_versions == (6, 7)


def test_future_greeting_with_unknown_fields_still_gets_a_version_refusal() -> None:
    host = HostSession()
    body = msgpack.packb(
        {"t": "hello", "versions": [7], "software": "x", "name": "A", "token": None, "new": 1}
    )
    assert host.receive_data(len(body).to_bytes(4, "big") + body) == []
    [reply] = frames(host.data_to_send())
    assert reply["t"] == "refuse" and reply["reason"] == "version"
    assert reply["versions"] == [1, 2, 3, 4, 5]


def test_client_rejects_a_version_it_did_not_offer() -> None:
    ann = ClientSession("Ann")
    ann.join()
    assert frames(ann.data_to_send())[0]["t"] == "hello"
    bad = Welcome(version=6, software="x", pid=0, token=bytes(16), owner=False, name="Ann")
    assert ann.receive_data(encode(bad)) == []
    assert ann.closed
    [reply] = frames(ann.data_to_send())
    assert reply["t"] == "error" and reply["reason"] == "bad_value" and reply["fatal"] is True


def _welcomed(owner: bool = True) -> tuple[HostSession, ClientSession]:
    host = HostSession()
    client = ClientSession("Ann")
    client.join()
    pump(host, client)
    host.welcome(0, new_token(), owner=owner)
    pump(host, client)
    return host, client


def test_out_of_order_message_gets_unexpected_and_changes_nothing() -> None:
    host, client = _welcomed()
    assert host.receive_data(encode(Move(sid=1, id=0))) == []
    [reply] = frames(host.data_to_send())
    assert (reply["t"], reply["reason"], reply["fatal"]) == ("error", "unexpected", False)
    assert state_of(host) is State.LOBBY and not host.closed
    # Still works afterwards.
    assert host.receive_data(encode(Ready(ready=True))) == [Ready(ready=True)]
    # And locally the same message cannot even be sent.
    with pytest.raises(LocalProtocolError) as info:
        client.send(Move(sid=1, id=0))
    assert info.value.reason is ErrorReason.UNEXPECTED
    assert client.data_to_send() == b""


def test_nothing_but_a_greeting_before_welcome() -> None:
    host = HostSession()
    assert host.receive_data(encode(Chat(pid=None, text="hi"))) == []
    [reply] = frames(host.data_to_send())
    assert reply["reason"] == "unexpected" and state_of(host) is State.GREETING
    with pytest.raises(LocalProtocolError):
        host.send(Lobby(variant=Variant.STANDARD, seats=2, host=None, players=(), spectators=0))
    with pytest.raises(LocalProtocolError):
        host.welcome(0, new_token())  # no join request yet


def test_non_owner_commands_are_forbidden() -> None:
    host, _ = _welcomed(owner=False)
    assert host.receive_data(encode(Start())) == []
    [reply] = frames(host.data_to_send())
    assert reply["reason"] == "forbidden" and state_of(host) is State.LOBBY


def test_spectator_sees_but_cannot_act() -> None:
    host = HostSession()
    watcher = ClientSession("Zoë", spectate=True)
    watcher.join()
    [request], _ = pump(host, watcher)
    assert isinstance(request, Spectate)
    with pytest.raises(LocalProtocolError):
        host.welcome(0, new_token())  # a spectator gets no seat
    host.welcome(None, None)
    pump(host, watcher)
    assert watcher.role is Role.SPECTATOR and host.role is Role.SPECTATOR
    host.send(snapshot(4, None))
    pump(host, watcher)
    assert state_of(watcher) is State.PLAYING
    for msg in (Move(sid=4, id=0), ChooseColour(colour=R), Chat(pid=None, text="nice move")):
        with pytest.raises(LocalProtocolError):
            watcher.send(msg)
    for msg in (Move(sid=4, id=0), Chat(pid=None, text="nice move")):
        assert host.receive_data(encode(msg)) == []
        assert frames(host.data_to_send())[0]["reason"] == "forbidden"
    watcher.send(Resync())
    assert pump(host, watcher)[0] == [Resync()]


def test_stale_move_is_visible_to_the_host() -> None:
    host, client = _welcomed()
    host.send(snapshot(10, R))
    host.send(LegalMoves(sid=10, moves=OFFER, timeout=None))
    pump(host, client)
    host.send(Events(sid=11, colour=B, notation="", events=()))  # something else happened
    host.send(Turn(sid=11, colour=R, card=Card.TWO, hand=None, pile=40))
    assert host.receive_data(encode(Move(sid=10, id=0))) == [Move(sid=10, id=0)]
    assert not host.sid_is_current(Move(sid=10, id=0))
    _, got = pump(host, client)
    assert client.moves is None  # the old offer was withdrawn by the newer state id
    assert [m.TYPE.value for m in got] == ["events", "turn"]


def test_garbage_gets_a_fatal_error_then_close() -> None:
    host, client = _welcomed()
    good = encode(Ready(ready=False))
    assert host.receive_data(good + b"\x00\x00\x00\x01\xc1" + good) == [Ready(ready=False)]
    assert host.closed and host.error is not None
    assert host.error.reason is ErrorReason.MALFORMED
    assert host.receive_data(good) == []  # ignored after closing
    got = client.receive_data(host.data_to_send())
    assert [type(m) for m in got] == [Error] and client.closed
    with pytest.raises(LocalProtocolError):
        client.send(Ready(ready=True))


def test_ping_is_answered_automatically() -> None:
    host, client = _welcomed()
    host.send(Ping(n=42))
    got_host, got_client = pump(host, client)
    assert got_client == [] and got_host == [Pong(n=42)]
    client.send(Ping(n=7))
    got_host, got_client = pump(host, client)
    assert got_host == [] and got_client == [Pong(n=7)]


def test_non_fatal_error_is_surfaced_without_closing() -> None:
    host, client = _welcomed()
    host.send(Error(reason=ErrorReason.STALE, text="that move answers state 3", fatal=False))
    _, got = pump(host, client)
    assert [type(m) for m in got] == [Error] and state_of(client) is State.LOBBY


def test_welcome_must_be_consistent() -> None:
    host = HostSession()
    client = ClientSession("Ann")
    client.join()
    pump(host, client)
    with pytest.raises(LocalProtocolError):
        host.welcome(0, None)
    with pytest.raises(LocalProtocolError):
        host.welcome(None, None, owner=True)
    with pytest.raises(LocalProtocolError):
        host.send(Welcome(version=9, software="x", pid=0, token=bytes(16), owner=False, name="A"))
    assert state_of(host) is State.JOINING and host.data_to_send() == b""


def test_client_cannot_choose_without_an_offer() -> None:
    _, client = _welcomed()
    with pytest.raises(LocalProtocolError) as info:
        client.choose(0)
    assert info.value.reason is ErrorReason.UNEXPECTED
    with pytest.raises(ValueError):
        ClientSession("Zoë", spectate=True, token=bytes(16))


def _settled(client_versions: tuple[int, ...], host_versions: tuple[int, ...],
              *, spectate: bool = False) -> tuple[HostSession, ClientSession]:
    client = ClientSession("Ann", versions=client_versions, spectate=spectate)
    host = HostSession(versions=host_versions)
    client.join()
    pump(host, client)
    host.welcome(None, None) if spectate else host.welcome(0, new_token())
    pump(host, client)
    return host, client


def test_a_profile_reaches_the_host_on_version_2() -> None:
    host, client = _settled((1, 2), (1, 2))
    assert client.speaks(MsgType.PROFILE) and host.speaks(MsgType.PROFILE)
    client.send(Profile(lang="hi", program=False))
    got, _ = pump(host, client)
    assert got == [Profile(lang="hi", program=False)]


@pytest.mark.parametrize(("client_v", "host_v"), [((1,), (1, 2)), ((1, 2), (1,))])
def test_a_version_1_connection_has_no_profile(
    client_v: tuple[int, ...], host_v: tuple[int, ...]
) -> None:
    _host, client = _settled(client_v, host_v)
    assert client.version == 1 and not client.speaks(MsgType.PROFILE)
    with pytest.raises(LocalProtocolError) as info:
        client.send(Profile(lang="el", program=False))
    assert info.value.reason is ErrorReason.UNEXPECTED
    assert client.data_to_send() == b"" and client.state is State.LOBBY


def test_a_host_on_version_1_refuses_a_profile_without_closing() -> None:
    host, _ = _settled((1, 2), (1,))
    assert host.receive_data(encode(Profile(lang="el", program=False))) == []
    [reply] = frames(host.data_to_send())
    assert (reply["t"], reply["reason"], reply["fatal"]) == ("error", "unexpected", False)
    assert host.state is State.LOBBY


def test_a_spectator_may_not_send_a_profile() -> None:
    host, client = _settled((1, 2), (1, 2), spectate=True)
    with pytest.raises(LocalProtocolError) as info:
        client.send(Profile(lang="el", program=False))
    assert info.value.reason is ErrorReason.FORBIDDEN
    assert host.receive_data(encode(Profile(lang="el", program=False))) == []
    [reply] = frames(host.data_to_send())
    assert (reply["reason"], reply["fatal"]) == ("forbidden", False)
