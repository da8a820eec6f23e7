"""Peer: a connection's session and bookkeeping (allowances, pings), on a fake clock;
PeerPin: who needs a PIN."""

from __future__ import annotations

from sorry_lan.authority.admission import PinThrottle
from sorry_lan.authority.peers import Allowance, Peer, PeerPin
from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.wire import messages as m
from sorry_lan.wire.limits import SOFTWARE, SUPPORTED_VERSIONS
from sorry_lan.wire.session import HostSession
from sorry_lan.wire.transitions import State


def _peer(now: float = 10.0, chat_burst: int = 2) -> Peer:
    return Peer(1, "10.0.0.5", now, HostSession(), chat_burst=chat_burst)


def test_chat_allowance_and_ping_numbers() -> None:
    conn = _peer()
    t = conn.chat_at
    assert conn.take_chat_token(t, rate=1.0)
    assert conn.take_chat_token(t, rate=1.0)
    assert not conn.take_chat_token(t, rate=1.0)  # the burst is spent
    assert not conn.take_chat_token(t + 0.5, rate=1.0)  # half a line refilled
    assert conn.take_chat_token(t + 1.0, rate=1.0)  # a whole one now
    assert conn.take_chat_token(t + 100, rate=1.0)  # refills to the burst, not beyond
    assert conn.take_chat_token(t + 100, rate=1.0)
    assert not conn.take_chat_token(t + 100, rate=1.0)
    assert [conn.next_ping(t + i) for i in range(3)] == [1, 2, 3]
    assert conn.pinged == t + 2
    conn.ping_n = 2**32 - 1
    assert conn.next_ping(t) == 0  # wraps like the wire's u32


def test_a_new_peer_is_greeting_and_not_admitted() -> None:
    peer = _peer(now=3.0)
    assert peer.session.state is State.GREETING
    assert (peer.opened, peer.heard, peer.pinged) == (3.0, 3.0, 3.0)
    assert (peer.admitted, peer.welcomed, peer.closed) == (False, False, False)
    assert peer.protocol == 1 and peer.lobby_revision == -1
    peer.session.connection_lost()
    assert peer.admitted and not peer.welcomed  # closed: past admission


def test_an_allowance_refills_at_its_rate_up_to_its_burst() -> None:
    a = Allowance(3, 0.0)
    assert [a.take(0.0, 1.0) for _ in range(4)] == [True, True, True, False]
    assert a.take(1.0, 1.0) and not a.take(1.0, 1.0)
    assert a.take(1000.0, 1.0) and a.tokens == 2.0


def test_a_seat_token_needs_no_pin_and_wrong_pins_are_throttled() -> None:
    table = Table(TableConfig())
    _player, token = table.join(None, "ann")
    now = [0.0]
    throttle = PinThrottle(free=1, first_wait=4.0)
    pin = PeerPin(table, throttle, "10.0.0.9", lambda: now[0])
    hello = m.Hello(versions=SUPPORTED_VERSIONS, software=SOFTWARE, name="ann", token=token)
    assert pin.exempt(hello)
    assert not pin.exempt(m.Hello(versions=SUPPORTED_VERSIONS, software=SOFTWARE, name="x",
                                  token=b"\0" * 16))
    assert not pin.exempt(m.Spectate(versions=SUPPORTED_VERSIONS, software=SOFTWARE, name="e"))
    assert pin.wait() == 0
    pin.failed()
    assert pin.wait() == 4.0  # the clock it was given has not moved
    now[0] = 3.0
    assert pin.wait() == 1.0
    pin.passed()
    assert pin.wait() == 0
