"""The host core lets people in, or not: welcomes, refusals, PINs, eviction, timeouts."""

from __future__ import annotations

from pair import Pair, RawClient, hello, spectate

from sorry_lan.authority.admission import PinThrottle
from sorry_lan.authority.effects import Close, Send
from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.wire import messages as m
from sorry_lan.wire.transitions import State
from sorry_lan.wire.vocab import ByeReason, RefuseReason


def _kinds(msgs: list[m.Message]) -> list[str]:
    return [type(x).__name__ for x in msgs]


def test_a_join_is_welcomed_and_told_the_lobby_once() -> None:
    pair = Pair(Table(TableConfig(seats=4)))
    _a, ann = pair.join("ann")
    assert _kinds(ann.take()) == ["Welcome", "Lobby"]
    _b, bob = pair.join("bob")
    assert _kinds(bob.take()) == ["Welcome", "Lobby"]
    # ann, already seated, hears of bob's join once
    told = ann.take()
    assert _kinds(told) == ["Lobby"]
    assert isinstance(told[0], m.Lobby)
    assert [p.name for p in told[0].players] == ["ann", "bob"]
    assert pair.roster_changes > 0


def test_a_seat_or_a_place_refused_is_answered_with_its_reason_and_closed() -> None:
    table = Table(TableConfig(seats=2, max_spectators=1))
    pair = Pair(table)
    pair.join("ann")
    _cid, twin = pair.join("ANN")
    assert twin.last(m.Refuse).reason is RefuseReason.NAME_TAKEN
    assert twin.session.closed and twin.session.state is State.CLOSED
    pair.join("w1", spectate=True)
    _cid, w2 = pair.join("w2", spectate=True)
    assert w2.last(m.Refuse).reason is RefuseReason.NO_SPECTATORS
    _cid, bob = pair.join("bob")  # spectators have a cap of their own: players still come
    assert bob.last(m.Welcome).pid is not None
    _cid, third = pair.join("cy")
    assert third.last(m.Refuse).reason is RefuseReason.FULL
    _cid, bad = pair.join("mallory", token=b"\x01" * 16)
    assert bad.last(m.Refuse).reason is RefuseReason.BAD_TOKEN
    assert len(table.players) == 2 and len(table.spectators) == 1


def test_wrong_version_is_refused() -> None:
    pair = Pair()
    cid, raw = pair.connect(RawClient())
    raw.send(m.Hello(versions=(7,), software="other/9", name="old", token=None))
    pair.pump()
    (refuse,) = raw.inbox
    assert isinstance(refuse, m.Refuse) and refuse.reason is RefuseReason.VERSION
    assert cid not in pair.open


def test_pin_right_and_wrong_and_a_seat_token_walks_in() -> None:
    throttle = PinThrottle(free=2, first_wait=30.0, burst=100)
    pair = Pair(Table(TableConfig(seats=2)), HostOptions(pin="2468", pin_throttle=throttle))
    _cid, nopin = pair.join("nopin")
    assert isinstance(nopin.inbox[-1], m.Challenge)  # it must prove the PIN first
    a, ann = pair.join("Ann", pin="2468")
    assert isinstance(ann.inbox[0], m.Welcome)
    token = ann.token
    pair.lose(a)  # gone without a bye: the seat waits for her
    for expected in (RefuseReason.BAD_PIN, RefuseReason.BAD_PIN, RefuseReason.RATE_LIMITED):
        _cid, mallory = pair.join("Mallory", pin="1111")
        assert mallory.last(m.Refuse).reason is expected
    _cid, back = pair.join("Ann", token=token)  # her token needs no PIN, throttled or not
    welcome = back.last(m.Welcome)
    assert welcome.token == token


def test_a_wrong_pin_is_told_as_such() -> None:
    pair = Pair(options=HostOptions(pin="1234"))
    _cid, wrong = pair.join("wrong", pin="9999")
    refuse = wrong.last(m.Refuse)
    assert refuse.reason is RefuseReason.BAD_PIN and "wrong PIN" in refuse.text
    _cid, right = pair.join("right", pin="1234")
    assert right.last(m.Welcome).name == "right"


def test_a_connection_that_never_says_hello_is_dropped() -> None:
    pair = Pair(options=HostOptions(hello_timeout=0.2, sweep=0.05))
    cid, raw = pair.connect(RawClient())
    pair.advance(0.2)
    assert raw.inbox == [] and cid in pair.open
    pair.advance(0.1)
    assert raw.inbox == [m.Bye(reason=ByeReason.TIMEOUT)]
    assert cid not in pair.open and pair.lingers[cid] is None


def test_a_newcomer_always_gets_its_chance_the_oldest_waiting_make_room() -> None:
    pair = Pair(options=HostOptions(max_waiting=3, max_waiting_per_address=2))
    idle = [pair.connect(RawClient(), "10.0.0.9") for _ in range(2)]
    first, _ = idle[0]
    pair.connect(RawClient(), "10.0.0.9")  # a third from that address: the oldest goes
    refuse = idle[0][1].inbox[-1]
    assert isinstance(refuse, m.Refuse) and refuse.reason is RefuseReason.BUSY
    assert first not in pair.open and first not in pair.core.peers
    pair.connect(RawClient(), "10.0.0.7")
    pair.connect(RawClient(), "10.0.0.8")  # four waiting would pass the total: one goes
    waiting = [p for p in pair.core.peers.values() if p.session.join_request is None]
    assert len(waiting) == 3
    _cid, ann = pair.join("ann", "10.0.0.9")  # and a real player still gets in
    assert ann.last(m.Welcome).name == "ann"


def test_a_spectator_is_welcomed_without_a_seat_and_told_the_state() -> None:
    pair = Pair(Table(TableConfig(seats=2, auto_start=True, seed=3)))
    pair.table.add_bot(None)
    _cid, eve = pair.join("eve", spectate=True)
    welcome = eve.last(m.Welcome)
    assert welcome.pid is None and welcome.token is None
    assert _kinds(eve.take()) == ["Welcome", "Lobby"]
    pair.join("ann")  # the table fills and starts
    assert "Snapshot" in _kinds(eve.inbox) and eve.last(m.Snapshot).you is None


def test_the_effects_of_a_refusal_are_a_send_then_a_close() -> None:
    pair = Pair(Table(TableConfig(seats=2)))
    pair.join("ann")
    pair.join("amy")
    cid, raw = pair.connect(RawClient())
    raw.send(hello("bob"))
    before = len(pair.effects)
    pair.pump()
    mine = [e for e in pair.effects[before:] if isinstance(e, Send | Close) and e.cid == cid]
    assert [type(e) for e in mine] == [Send, Close]
    raw2 = RawClient()
    pair.connect(raw2)
    raw2.send(spectate("w"))
    pair.pump()
    assert isinstance(raw2.inbox[0], m.Welcome)
