"""A move the new host never received is not lost (issue 19), in memory.

The table of ``test_takeover_in_memory`` in standard play.  Bob moves; the host tells
the table and dies, but its frame never reached Ann, the first laptop of the order:
Bob and Cat on version 4 (their votes do not say what they saw), she takes the table
over from the state before Bob's move.  Bob's client, offered the
same decision again by her (same board, same card in play), plays the same move at
once without asking him, and every board ends as everyone saw it.  When Ann did hear
the move nothing is played again; nor in a game for points, whose hands a successor
deals afresh."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_takeover_in_memory import D, Lan, Laptop, play, table

from sorry_lan.client.missed import MissedMove
from sorry_lan.client.model import ClientEvent
from sorry_lan.rules import Card, Variant
from sorry_lan.wire import messages as m
from sorry_lan.wire.records import MoveOption


def deaf(lap: Laptop) -> list[bytes]:
    """``lap`` stops hearing the host (its frames are lost on the way); what it missed."""
    lost: list[bytes] = []

    def receive(data: bytes, now: float) -> list[ClientEvent]:
        lost.append(data)
        return []

    lap.receive_data = receive  # type: ignore[method-assign]
    return lost


def bob_moves_and_the_host_dies(
    variant: Variant, ann_hears: bool
) -> tuple[Lan, list[Laptop], tuple[int, ...]]:
    """Bob's move (the board after it returned), the host dead, Ann hosting."""
    old, laptops, own = table(variant)
    ann, bob, _cat = laptops
    for _ in range(40):  # until it is Bob's turn
        if bob.model.moves is not None:
            break
        play(old, [own, *laptops], moves=1)
    assert bob.model.moves is not None
    lost = [] if ann_hears else deaf(ann)
    bob.model.play(bob.model.moves.moves[-1].id)
    old.pump()
    after = bob.model.pawns
    if not ann_hears:
        del ann.receive_data  # (the host is dead now: nothing more comes from it)
    assert ann_hears or lost  # Bob's move was in what Ann never got
    lan = Lan(old, laptops)
    # Bob's and Cat's laptops speak version 4: they do not say what they saw, so Ann's
    # standby counts their votes (on version 5 Bob, who saw his move, would host:
    # test_newest_wins); the move is played again instead
    lan.v4 = {bob.pid, _cat.pid}
    now = old.now
    lan.host_lost(now + 0.1, laptops)
    lan.tick(now + D + 3)
    assert ann.pid in lan.hosts
    return lan, laptops, after


def test_the_mover_plays_again_the_move_the_new_host_missed() -> None:
    lan, laptops, after = bob_moves_and_the_host_dies(Variant.STANDARD, ann_hears=False)
    ann, bob, cat = laptops
    new = lan.hosts[ann.pid]
    assert bob.model.missed.replayed == 1
    assert [lap.model.pawns for lap in laptops] == [after] * 3  # as everyone saw it
    followed = max(i for i, e in enumerate(bob.events) if getattr(e, "kind", "") == "host_changed")
    replayed = next(i for i, e in enumerate(bob.events) if i > followed and isinstance(e, m.Events))
    assert not [e for e in bob.events[followed:replayed] if isinstance(e, m.LegalMoves)]
    moves = [rec for rec in new.journal if rec.get("k") == "move"]
    assert len(moves) >= 1  # the move is settled in the new host's journal
    play(new, laptops)
    assert new.table.game is not None and new.table.game.over and cat.model.over is not None


def test_nothing_is_played_again_when_the_new_host_heard_the_move() -> None:
    _lan, laptops, after = bob_moves_and_the_host_dies(Variant.STANDARD, ann_hears=True)
    assert [lap.model.pawns for lap in laptops] == [after] * 3
    assert all(lap.model.missed.replayed == 0 for lap in laptops)


def test_in_a_game_for_points_no_move_is_played_again() -> None:
    _lan, laptops, _after = bob_moves_and_the_host_dies(Variant.POINTS, ann_hears=False)
    assert all(lap.model.missed.replayed == 0 for lap in laptops)


def offer(sid: int, *moves: tuple[int, tuple[int, ...]]) -> m.LegalMoves:
    return m.LegalMoves(sid=sid, moves=tuple(MoveOption.trusted(i, "x", mv) for i, mv in moves),
                        timeout=None)


def test_only_the_first_decision_after_following_on_the_same_board_and_card() -> None:
    board = (0,) * 16
    missed = MissedMove()
    missed.made(board, Card.ONE, (1, 2, 3))
    assert missed.again(board, Card.ONE, offer(5, (0, (1, 2, 3)))) is None  # not followed
    missed.followed()
    assert missed.again(board, Card.TWO, offer(5, (0, (1, 2, 3)))) is None  # another card
    assert missed.again(board, Card.ONE, offer(5, (0, (1, 2, 3)))) is None  # only the first
    missed.followed()
    assert missed.again((1,) * 16, Card.ONE, offer(5, (0, (1, 2, 3)))) is None  # moved on
    missed.made(board, Card.ONE, (1, 2, 3))
    missed.followed()
    assert missed.again(board, Card.ONE, offer(5, (0, (9,)), (4, (1, 2, 3)))) == 4
    assert missed.replayed == 1 and missed.last is None
    missed.made(board, None, (1, 2, 3))  # a hand's card (points): nothing kept
    missed.followed()
    assert missed.again(board, Card.ONE, offer(5, (0, (1, 2, 3)))) is None
