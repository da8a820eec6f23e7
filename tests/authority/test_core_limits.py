"""The host core's limits on a fake clock: chat and resync rates, floods, heartbeats,
dead peers, slow readers."""

from __future__ import annotations

from pair import Pair, RawClient, hello, spectate

from sorry_lan.authority.effects import PauseInput
from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.wire import messages as m
from sorry_lan.wire.codec import encode
from sorry_lan.wire.errors import ErrorReason
from sorry_lan.wire.vocab import ByeReason


def test_chat_is_relayed_and_rate_limited() -> None:
    options = HostOptions(chat_burst=2, chat_rate=0.01, heartbeat=1000.0, dead_after=1000.0)
    pair = Pair(Table(TableConfig(seats=4)), options)
    cid, raw = pair.connect(RawClient())
    raw.send(hello("talker"))
    pair.pump()
    _b, bob = pair.join("bob")
    raw.inbox.clear()
    bob.take()
    for i in range(3):
        raw.send(m.Chat(pid=None, text=f"hello {i}"))
    pair.pump()
    chats = [x for x in raw.inbox if isinstance(x, m.Chat)]
    assert [c.text for c in chats] == ["hello 0", "hello 1"]
    (err,) = [x for x in raw.inbox if isinstance(x, m.Error)]
    assert err.reason is ErrorReason.RATE_LIMITED and not err.fatal
    assert [c.text for c in bob.all(m.Chat)] == ["hello 0", "hello 1"]  # relayed to all
    talker = pair.table.player_of(cid)
    assert talker is not None and {c.pid for c in chats} == {talker.pid}
    pair.advance(100.0)  # refilled
    raw.send(m.Chat(pid=None, text="later"))
    pair.pump()
    assert bob.all(m.Chat)[-1].text == "later"


def test_spectators_may_not_chat() -> None:
    pair = Pair(Table(TableConfig(seats=4)))
    _cid, eve = pair.connect(RawClient())
    eve.send(spectate("eve"))
    pair.pump()
    eve.send(m.Chat(pid=None, text="psst"))
    pair.pump()
    err = eve.inbox[-1]
    assert isinstance(err, m.Error) and err.reason is ErrorReason.FORBIDDEN


def test_resync_is_rate_limited_then_a_flood_is_kicked() -> None:
    pair = Pair(options=HostOptions(resync_burst=2, resync_rate=0.01))
    cid, watcher = pair.connect(RawClient())
    watcher.send(spectate("eve"))
    pair.pump()
    assert [type(x) for x in watcher.inbox] == [m.Welcome, m.Lobby]
    watcher.inbox.clear()
    for _ in range(3):
        watcher.send(m.Resync())
    pair.pump()
    assert [type(x) for x in watcher.inbox] == [m.Lobby, m.Lobby, m.Error]
    error = watcher.inbox[-1]
    assert isinstance(error, m.Error) and error.reason is ErrorReason.RATE_LIMITED
    assert not error.fatal
    assert pair.paused[cid] == pair.now + 1.0  # a flood is not even read for a while
    assert PauseInput(cid, 1.0) in pair.effects
    watcher.inbox.clear()
    watcher.out += encode(m.Resync()) * 500
    pair.pump()
    assert watcher.inbox == []  # nothing read during the pause
    pair.advance(1.0)  # read after the pause: a flood
    assert len([x for x in watcher.inbox if isinstance(x, m.Error)]) <= 1
    assert watcher.inbox[-1] == m.Bye(reason=ByeReason.KICKED)
    assert cid not in pair.open and pair.lingers[cid] == pair.core.options.drop_linger


def test_one_answer_per_read_to_requests_past_their_rate() -> None:
    pair = Pair(options=HostOptions(resync_burst=1, resync_rate=0.01, flood_limit=50))
    cid, watcher = pair.connect(RawClient())
    watcher.send(spectate("eve"))
    pair.pump()
    pair.paused.clear()
    watcher.inbox.clear()
    pair.feed(cid, encode(m.Resync()) * 40)  # 39 refused in one read: one answer
    assert [type(x) for x in watcher.inbox] == [m.Lobby, m.Error]
    assert cid in pair.open
    watcher.inbox.clear()
    pair.feed(cid, encode(m.Resync()) * 52)  # past the flood limit in one read
    # what was queued in that read is never written: the bye alone
    assert watcher.inbox == [m.Bye(reason=ByeReason.KICKED)]
    assert cid not in pair.open


def test_an_idle_connection_is_pinged_and_a_silent_one_dropped() -> None:
    pair = Pair(Table(TableConfig(seats=4, grace=60.0)),
                HostOptions(heartbeat=0.5, dead_after=3.0, sweep=0.1))
    cid, ann = pair.join("ann")
    ann.take()
    pair.advance(0.45)
    assert ann.take() == []
    pair.advance(0.1)  # the heartbeat: a ping, which the session answers by itself
    assert ann.take() == []  # (the session does not hand pings on)
    peer = pair.core.peers[cid]
    assert peer.ping_n == 1 and peer.heard == peer.pinged > 0.4  # its pong came back
    _b, bob = pair.connect(RawClient())
    bob.send(hello("bob"))
    pair.pump()
    bob.inbox.clear()
    pair.advance(2.0)  # bob never answers its pings ...
    pings = [x for x in bob.inbox if isinstance(x, m.Ping)]
    assert len(pings) >= 3 and [p.n for p in pings] == list(range(1, len(pings) + 1))
    assert _b in pair.open
    pair.advance(1.5)  # ... and is given up after dead_after
    assert _b not in pair.open and cid in pair.open  # ann, answering, stays
    player = pair.table.by_colour(1)
    assert player is not None and player.name == "bob" and player.away_since is not None


def test_a_slow_reader_is_dropped_after_its_output_with_a_bye_and_keeps_its_seat() -> None:
    pair = Pair(Table(TableConfig(seats=4)))
    cid, ann = pair.join("ann")
    pair.run(pair.core.fell_behind(cid, pair.now))  # the shell saw too much unread
    assert ann.last(m.Bye) == m.Bye(reason=ByeReason.TIMEOUT)
    assert pair.lingers[cid] == pair.core.options.drop_linger
    player = pair.table.player_of(cid)
    assert player is None and len(pair.table.players) == 1  # the seat waits for her
    _again, back = pair.join("ann", token=ann.token)
    assert back.last(m.Welcome).pid == ann.pid
