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
