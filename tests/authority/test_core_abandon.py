"""The host ends a game for everyone (its own player left with q): each connection is
told ``over`` with no winner before ``bye`` shutdown; otherwise only ``bye``."""

from __future__ import annotations

from pair import Pair

from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.rules import Variant
from sorry_lan.wire import messages as m
from sorry_lan.wire.vocab import ByeReason


def _playing(variant: Variant = Variant.STANDARD) -> tuple[Pair, list[object]]:
    pair = Pair(Table(TableConfig(variant=variant, seats=2, auto_start=True, seed=5)))
    _a, ann = pair.join("ann")
    _b, bob = pair.join("bob")
    _w, eve = pair.join("eve", spectate=True)
    pair.play_first_moves([ann, bob], rounds=3)
    for c in (ann, bob, eve):
        c.take()
    return pair, [ann, bob, eve]


def test_abandoning_a_game_tells_everyone_over_with_no_winner_then_bye() -> None:
    pair, clients = _playing()
    game = pair.table.game
    assert game is not None and not game.over
    pair.run(pair.core.shutdown(ByeReason.SHUTDOWN, pair.now, abandon=True))
    for client in clients:
        got = client.take()  # type: ignore[attr-defined]
        assert got == [m.GameOver(sid=game.state_id, winners=(), scores=None),
                       m.Bye(reason=ByeReason.SHUTDOWN)]


def test_an_abandoned_points_game_keeps_the_scores_so_far() -> None:
    pair, clients = _playing(Variant.POINTS)
    game = pair.table.game
    assert game is not None
    pair.run(pair.core.shutdown(ByeReason.SHUTDOWN, pair.now, abandon=True))
    over = clients[0].take()[0]  # type: ignore[attr-defined]
    assert isinstance(over, m.GameOver) and over.winners == ()
    assert over.scores == tuple(game.scores().get(c, 0) for c in range(4))


def test_a_plain_shutdown_or_one_with_no_game_under_way_says_only_bye() -> None:
    pair, clients = _playing()
    pair.run(pair.core.shutdown(ByeReason.SHUTDOWN, pair.now))  # a signal: resumable
    assert clients[0].take() == [m.Bye(reason=ByeReason.SHUTDOWN)]  # type: ignore[attr-defined]

    lobby = Pair()
    _a, ann = lobby.join("ann")
    ann.take()
    lobby.run(lobby.core.shutdown(ByeReason.SHUTDOWN, lobby.now, abandon=True))
    assert ann.take() == [m.Bye(reason=ByeReason.SHUTDOWN)]

    done = Pair(Table(TableConfig(seats=2, auto_start=True, seed=5)))
    _a, ann = done.join("ann")
    _b, bob = done.join("bob")
    done.play_first_moves([ann, bob])
    done.advance(1.0)
    ann.take()
    done.run(done.core.shutdown(ByeReason.SHUTDOWN, done.now, abandon=True))
    assert ann.take() == [m.Bye(reason=ByeReason.SHUTDOWN)]  # it ended: its own over stands
