"""A player who says nothing holds up nobody: after the turn timeout a bot moves for
the seat, the offer says how long there was, and the game reaches its end (in memory,
on the pair's clock; was a loopback test with a silent raw client)."""

from __future__ import annotations

from pair import Pair, RawClient, hello

from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.rules import Variant
from sorry_lan.wire import messages as m


def test_turn_timeout_lets_a_bot_move_for_a_silent_player() -> None:
    table = Table(TableConfig(variant=Variant.STANDARD, seats=2, auto_start=True, seed=43,
                              turn_timeout=0.05))
    pair = Pair(table, HostOptions(heartbeat=1000.0, dead_after=5000.0))
    _s, silent = pair.connect(RawClient())
    silent.send(hello("silent"))
    pair.pump()
    assert isinstance(silent.inbox[0], m.Welcome)
    _p, other = pair.join("player")  # the table is full: the game starts
    game = table.game
    assert game is not None
    for _ in range(10_000):
        if game.over:
            break
        pair.play_first_moves([other])
        pair.advance(0.05)
    assert game.over and other.last(m.GameOver).winners == tuple(game.winners)
    offer = next(x for x in silent.inbox if isinstance(x, m.LegalMoves))
    assert offer.timeout == 1  # seconds, at least one on the wire


def test_a_seat_back_mid_turn_is_offered_the_time_left_not_the_whole_timeout() -> None:
    """A player whose connection went 12 s into a 30 s turn and who is back is told 18 s
    are left (the bot moves for the seat when the turn's own timer runs out), not 30."""
    table = Table(TableConfig(variant=Variant.STANDARD, seats=2, auto_start=True, seed=43,
                              turn_timeout=30.0, grace=300.0))  # fmt: skip
    pair = Pair(table, HostOptions(heartbeat=1000.0, dead_after=5000.0))
    ann_cid, ann = pair.join("ann")
    _bob_cid, bob = pair.join("bob")
    game = table.game
    assert game is not None
    offers = ann.all(m.LegalMoves)
    for _ in range(100):  # to a decision of Ann's, offered just now (Bob plays his turns)
        if offers:
            break
        ann.take()
        pair.play_first_moves([bob])
        offers = ann.all(m.LegalMoves)
    first = offers[-1]
    assert first.timeout == 30
    pair.advance(12.0)
    pair.lose(ann_cid)
    _cid, back = pair.join("ann", token=ann.token)
    again = back.last(m.LegalMoves)
    assert again.sid == first.sid and again.timeout == 18
    pair.advance(17.5)
    assert game.state_id == first.sid  # not played for the seat yet
    pair.advance(1.0)
    assert game.state_id != first.sid  # played for it when its turn's time ran out
