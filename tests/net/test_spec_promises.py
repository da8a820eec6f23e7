"""What protocol/SPEC.md promises a client about the host, checked on the host itself.

State ids grow for the table's life (rematches and resumes included), scores are nil
outside play for points, spectators do not chat, a ``ready`` that crosses the start
is harmless, the roster shows who asked for a rematch, and the host closes at once
after a ``bye``.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from netkit import RawClient, start_host

from sorry_lan.authority import seat_messages
from sorry_lan.authority.announce import Announcer
from sorry_lan.authority.restore import replay
from sorry_lan.authority.table import Table, TableConfig, TableError
from sorry_lan.bots.registry import play_out
from sorry_lan.net.journal import Journal, load
from sorry_lan.rules import Phase, Variant
from sorry_lan.wire import messages as m
from sorry_lan.wire.errors import ErrorReason
from sorry_lan.wire.vocab import ByeReason


def _finish(table: Table, now: float = 0.0) -> None:
    """Let bots play the table's game to its end."""
    game = table.game
    assert game is not None
    while not game.over:
        table._apply(table.bot_move(), now)


def test_state_ids_grow_across_rematches() -> None:
    t = Table(TableConfig(seats=2, seed=9))
    a, _ = t.join(1, "Ann")
    t.owner = a.pid
    t.add_bot(None)
    last = -1
    for _ in range(3):
        if t.phase is not Phase.LOBBY:
            t.ask_rematch(1, 0.0)  # the owner's: the next game's lobby
        t.start(1, 0.0)
        game = t.game
        assert game is not None
        first = seat_messages.snapshot(game, a.colour).sid
        assert first > last
        _finish(t)
        last = seat_messages.game_over(game).sid
        assert last > first


def test_a_resumed_rematch_keeps_its_state_ids(tmp_path: Path) -> None:
    path = tmp_path / "t.journal"
    journal = Journal(path, sync=False)
    t = Table(TableConfig(seats=2, seed=9), journal)
    a, _ = t.join(1, "Ann")
    t.owner = a.pid
    t.add_bot(None)
    t.start(1, 0.0)
    _finish(t)
    t.ask_rematch(1, 0.0)
    t.start(1, 0.0)
    game = t.game
    assert game is not None and game.first_sid > 0
    for _ in range(5):
        t._apply(t.bot_move(), 0.0)
    journal.close()
    restored = replay(load(path))
    assert restored is not None
    assert restored.game.first_sid == game.first_sid
    assert restored.game.state_id == game.state_id


def test_scores_are_nil_outside_play_for_points() -> None:
    for variant in (Variant.STANDARD, Variant.POINTS):
        t = Table(TableConfig(variant=variant, seats=2, seed=4))
        t.join(1, "Ann")
        t.add_bot(None)
        t.start(None, 0.0)
        game = t.game
        assert game is not None
        snap = seat_messages.snapshot(game, 0)
        _finish(t)
        over = seat_messages.game_over(game)
        if variant is Variant.POINTS:
            assert snap.scores == (0, 0, 0, 0)
            assert over.scores is not None and max(over.scores) > 0
        else:
            assert snap.scores is None and over.scores is None


def test_a_bad_move_gets_the_first_reason_in_the_specs_order() -> None:
    t = Table(TableConfig(seats=2, seed=6))
    a, _ = t.join(1, "Ann")
    t.join(2, "Bob")
    t.start(None, 0.0)
    game = t.game
    assert game is not None
    mover, waiter = (1, 2) if game.turn == a.colour else (2, 1)
    sid = game.state_id

    def reason(conn: int, at: int, move_id: int) -> str:
        with pytest.raises(TableError) as e:
            t.play(conn, at, move_id, 0.0)
        return str(e.value.reason)

    assert reason(99, sid + 5, 9999) == "forbidden"  # not seated
    assert reason(waiter, sid + 5, 9999) == "not_your_turn"  # before stale and illegal
    assert reason(mover, sid + 5, 9999) == "stale"  # a sid from the future is stale too
    assert reason(mover, sid - 1, 0) == "stale"
    assert reason(mover, sid, 9999) == "illegal"
    assert game.state_id == sid  # nothing changed


def test_a_late_ready_changes_nothing_and_is_not_refused() -> None:
    t = Table(TableConfig(seats=2, auto_start=True, seed=2))
    t.join(1, "Ann")
    t.join(2, "Bob")
    assert t.can_auto_start()  # a headless table does not wait for ready
    t.start(None, 0.0)
    revision = t.revision
    t.set_ready(1, True)  # crossed the start: harmless
    assert t.revision == revision
    with pytest.raises(TableError) as e:
        t.set_ready(99, True)
    assert e.value.reason == "forbidden"


def test_the_roster_shows_who_asked_for_a_rematch() -> None:
    t = Table(TableConfig(seats=2, seed=5))
    a, _ = t.join(1, "Ann")
    b, _ = t.join(2, "Bob")
    t.owner = a.pid
    t.start(1, 0.0)
    _finish(t)
    tell: Announcer[object] = Announcer(t, lambda c, msg, frame: None)  # type: ignore[type-var]
    assert not any(p.ready for p in tell.lobby_message().players)
    t.ask_rematch(2, 0.0)  # Ann (the owner) has not asked yet: no lobby
    assert t.phase is Phase.FINISHED
    ready = {p.pid: p.ready for p in tell.lobby_message().players}
    assert ready == {a.pid: False, b.pid: True}


@pytest.mark.asyncio
async def test_spectators_may_not_chat_and_players_may() -> None:
    server = await start_host(seats=2, bots=1, bot_delay=0.05)
    port = server.address[1]
    watcher = await RawClient.open(port)
    player = await RawClient.open(port)
    try:
        watcher.send(m.Spectate(versions=(1,), software="t", name="watcher"))
        await watcher.expect(m.Welcome)
        watcher.send(m.Chat(pid=None, text="hi"))
        err = await watcher.expect(m.Error)
        assert isinstance(err, m.Error) and err.reason is ErrorReason.FORBIDDEN
        assert not err.fatal
        await player.hello("Ann")
        player.send(m.Chat(pid=7, text="hello all"))  # a client's pid is ignored
        line = await player.expect(m.Chat)
        assert isinstance(line, m.Chat) and line.text == "hello all"
        ann = next(p for p in server.table.players.values() if p.name == "Ann")
        assert line.pid == ann.pid
    finally:
        await watcher.close()
        await player.close()
        await server.close()


@pytest.mark.asyncio
async def test_the_host_closes_at_once_after_bye_and_after_a_fatal_error() -> None:
    server = await start_host(seats=2)
    port = server.address[1]
    try:
        raw = await RawClient.open(port)
        await raw.hello("Ann")
        raw.send(m.Bye(reason=ByeReason.QUIT))
        assert await asyncio.wait_for(raw.reader.read(), 2.0) is not None  # EOF, quickly
        assert raw.reader.at_eof()
        await raw.close()
        raw = await RawClient.open(port)
        await raw.hello("Bob")
        raw.writer.write(b"\x00\x00\x00\x01\xc1")  # not msgpack
        err = await raw.expect(m.Error, timeout=2.0)
        assert isinstance(err, m.Error) and err.fatal
        await asyncio.wait_for(raw.reader.read(), 2.0)
        assert raw.reader.at_eof()
        await raw.close()
    finally:
        await server.close()


def test_rules_game_can_be_played_out_from_a_later_first_sid() -> None:
    from sorry_lan.rules import Game

    game = Game(Variant.STANDARD, (0, 2), seed=1, first_sid=1000)
    game.start()
    assert game.state_id > 1000
    play_out(game)
    assert game.over
