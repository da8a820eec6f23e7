"""The in-memory pair itself: client ends, the fake clock, Think run or held."""

from __future__ import annotations

from pair import ClientEnd, Pair, RawClient, SessionClient

from sorry_lan.authority.effects import Close, Send
from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.wire import messages as m
from sorry_lan.wire.vocab import ByeReason


def test_a_session_client_is_a_client_end_and_keeps_what_it_was_told() -> None:
    pair = Pair()
    end: ClientEnd = SessionClient("ann")
    assert isinstance(end, SessionClient)
    _cid, client = pair.connect(end)
    client.session.join()
    pair.pump()
    assert client.pid == 0 and client.token is not None
    assert [type(x) for x in client.take()] == [m.Welcome, m.Lobby] and client.inbox == []
    assert bytes(client.raw).count(client.token) == 1


def test_time_moves_only_when_told_and_each_wakeup_runs_on_the_way() -> None:
    pair = Pair(options=HostOptions(hello_timeout=1.0, sweep=0.25))
    cid, raw = pair.connect(RawClient())
    assert pair.now == 0.0
    pair.advance(0.9)
    assert pair.now == 0.9 and cid in pair.open
    pair.advance(5.0)
    assert pair.now == 5.9 and cid not in pair.open
    assert raw.inbox == [m.Bye(reason=ByeReason.TIMEOUT)]
    sends = [e for e in pair.effects if isinstance(e, Send | Close) and e.cid == cid]
    assert [type(e) for e in sends] == [Send, Close]


def test_think_is_decided_at_once_or_held_for_the_test() -> None:
    table = Table(TableConfig(seats=2, auto_start=True, seed=4, bot_level="expert"))
    table.add_bot(None, level="expert")
    pair = Pair(table)
    pair.hold_thinking = True
    _cid, ann = pair.join("ann")
    pair.play_first_moves([ann])
    assert len(pair.held) == 1 and pair.held == pair.thinks
    game = table.game
    assert game is not None
    before = game.moves_played
    pair.release()  # the bot moves (and may be due again: its next Think is held)
    assert game.moves_played > before and pair.thinks[0] not in pair.held
    pair.hold_thinking = False
    pair.release()
    pair.play_first_moves([ann])
    assert game.over
