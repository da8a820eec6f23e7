"""More time for a turn (protocol version 6): the seat on turn asks once, the timer
runs on by the table's turn timeout, everyone on version 6 is told the time left, and
the bot plays at the new deadline, not the old one (in memory, on the pair's clock)."""

from __future__ import annotations

from pair import Pair, SessionClient

from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.rules import Colour, Variant
from sorry_lan.wire import messages as m
from sorry_lan.wire.errors import ErrorReason

V5 = (1, 2, 3, 4, 5)


def _table(timeout: float | None = 30.0) -> tuple[Pair, SessionClient, SessionClient]:
    """A two-seat game under way; the client on turn (holding an offer) first."""
    table = Table(TableConfig(variant=Variant.STANDARD, seats=2, auto_start=True, seed=43,
                              turn_timeout=timeout))
    pair = Pair(table, HostOptions(heartbeat=1000.0, dead_after=5000.0))
    _a, ann = pair.join("Ann")
    _b, bob = pair.join("Bob")
    game = table.game
    assert game is not None
    mover = ann if _offered(ann, game.state_id) else bob
    assert mover.session.moves is not None and mover.session.moves.sid == game.state_id
    return pair, mover, bob if mover is ann else ann


def _offered(client: SessionClient, sid: int) -> bool:
    return client.session.moves is not None and client.session.moves.sid == sid


def _errors(client: SessionClient) -> list[m.Error]:
    return [x for x in client.take() if isinstance(x, m.Error)]


def test_the_seat_on_turn_gets_one_timeout_more_and_everyone_is_told() -> None:
    pair, mover, other = _table()
    _s, watcher = pair.join("Zoë", spectate=True)
    game = pair.table.game
    assert game is not None
    sid, colour = game.state_id, game.turn
    pair.advance(20.0)
    for c in (mover, other, watcher):
        c.take()
    mover.send(m.AskMoreTime())
    pair.pump()
    told = m.MoreTime(sid=sid, colour=Colour(colour), more=30, left=40)
    assert [x for x in mover.take() if isinstance(x, m.MoreTime)] == [told]
    assert other.take() == [told]
    assert watcher.take() == [told]
    # past the old deadline (30 s) and until the new one (60 s): nobody plays for it
    pair.advance(39.5)
    assert game.state_id == sid and mover.session.moves is not None
    # at the new one, the bot does
    pair.advance(1.0)
    assert game.state_id != sid


def test_more_time_is_once_a_turn_and_only_for_the_seat_on_turn() -> None:
    pair, mover, other = _table()
    game = pair.table.game
    assert game is not None
    sid = game.state_id
    mover.send(m.AskMoreTime())
    pair.pump()
    mover.take()
    mover.send(m.AskMoreTime())
    other.send(m.AskMoreTime())
    pair.pump()
    again, = _errors(mover)
    assert again.reason is ErrorReason.UNEXPECTED and not again.fatal
    off_turn, = _errors(other)
    assert off_turn.reason is ErrorReason.NOT_YOUR_TURN and not off_turn.fatal
    assert pair.table.extended == sid
    # the next decision may be extended again
    pair.play_first_moves([mover, other], rounds=1)
    assert game.state_id != sid
    on_turn = mover if _offered(mover, game.state_id) else other
    on_turn.take()
    on_turn.send(m.AskMoreTime())
    pair.pump()
    assert any(isinstance(x, m.MoreTime) for x in on_turn.take())


def test_without_a_turn_timer_there_is_no_more_time() -> None:
    pair, mover, _other = _table(timeout=None)
    mover.take()
    mover.send(m.AskMoreTime())
    pair.pump()
    refused, = _errors(mover)
    assert refused.reason is ErrorReason.UNEXPECTED and not refused.fatal
    assert pair.table.extended is None


def test_a_version_5_connection_is_not_told() -> None:
    pair, mover, _other = _table()
    _s, old = pair.join("Old", spectate=True, versions=V5)
    old.take()
    mover.send(m.AskMoreTime())
    pair.pump()
    assert not old.all(m.MoreTime) and old.session.version == 5
