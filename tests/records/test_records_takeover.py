"""The game record of a game another host took over (issue 19): the turns the new host
was sent, then its own; no seed and no deck; the hands revealed to it replayed."""

from __future__ import annotations

import copy
import random
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from sim.kept import seen, write_journal

from sorry_lan.authority.journal_records import (
    cover_record,
    game_record,
    move_record,
    reveal_record,
    takeover_record,
)
from sorry_lan.net.journal import SUFFIX
from sorry_lan.net.played import PlayedStore
from sorry_lan.records import RecordError, dump, from_journal, load
from sorry_lan.rules import Card, Game, Variant
from sorry_lan.rules.cards import card_counts
from sorry_lan.rules.midgame import Midgame, rebuild, reveal_hand


def before_and_after(
    variant: Variant, seated: tuple[int, ...], seed: int, known: tuple[int, ...] = ()
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], Game]:
    """An old host's journal of 12 moves, and a successor's from there to the end."""
    game = Game(variant, seated, seed=seed)
    names = {c: f"p{c}" for c in seated}
    old = [game_record(game, names, [seated[-1]], {}, t=0, table="t", host="h")]
    game.start()
    pick = random.Random(seed)
    for _ in range(12):
        move = pick.choice(game.legal_moves())
        old.append(move_record(game.state_id, move.compact()))
        game.play(move)
    so_far = from_journal(old)
    position = Midgame(
        game.variant, game.seated, game.pawns, game.turn, game.state_id, card=game.card,
        after_two=game.after_two, discarded=card_counts(game.deck.discards),
        hands={c: tuple(game.hands[c]) for c in known},
    )  # fmt: skip
    new = [takeover_record(
        position, 9, tid="kitchen7", from_epoch=1, epoch=2, names=names, bots=[seated[-1]],
        tokens={}, pids={c: c for c in seated}, t=5, table="t", host="h2", so_far=so_far,
    )]  # fmt: skip
    heir = rebuild(position, 9)
    hidden = [c for c in seated if c not in known]
    if hidden and variant.rules.deals_hands:
        new.append(reveal_record(hidden[0], game.hands[hidden[0]]))
        reveal_hand(heir, hidden[0], game.hands[hidden[0]], position.known())
    while not heir.over:
        move = pick.choice(heir.legal_moves())
        new.append(move_record(heir.state_id, move.compact()))
        heir.play(move)
    return old, new, heir


@pytest.mark.parametrize(("variant", "seated", "known"), [
    (Variant.STANDARD, (0, 2), ()), (Variant.TEAM, (0, 1, 2, 3), ()),
    (Variant.POINTS, (0, 1, 3), (0,)),
])  # fmt: skip
def test_the_record_goes_on_from_the_turns_sent_to_the_end(
    variant: Variant, seated: tuple[int, ...], known: tuple[int, ...]
) -> None:
    old, new, heir = before_and_after(variant, seated, seed=6, known=known)
    before = from_journal(old)
    record = load(dump(from_journal(new)))
    assert record["seed"] is None and "deck" not in record
    assert record["first"] == before["first"] and record["host"] == "h2"
    assert record["turns"][: len(before["turns"])] == before["turns"]
    moves = [t for t in record["turns"] if t["type"] == "move"]
    assert len(moves) == 12 + heir.moves_played
    assert record["result"] is not None and record["result"]["winners"]
    assert [t["n"] for t in record["turns"]] == list(range(1, len(record["turns"]) + 1))


def test_without_the_game_so_far_the_record_begins_at_the_takeover() -> None:
    _old, new, heir = before_and_after(Variant.STANDARD, (0, 2), seed=3)
    del new[0]["so_far"]
    record = from_journal(new)
    assert len([t for t in record["turns"] if t["type"] == "move"]) == heir.moves_played
    assert record["started"] is None


def test_a_reveal_that_does_not_replay_is_named() -> None:
    _old, new, _heir = before_and_after(Variant.POINTS, (0, 2), seed=3, known=(0,))
    new[1] = reveal_record(2, [Card.SEVEN] * 5)
    with pytest.raises(RecordError, match="journal record 2 does not replay"):
        from_journal(new)


def ended_twice(seed: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """A host's journal of a whole game, its winning move shown to nobody (the host
    died as it made it), and the record of its successor, which took the table over
    at the board before that move: a bot covers the old host's seat (its person is
    away) and plays the same move."""
    seated = (0, 2)
    game = Game(Variant.STANDARD, seated, seed=seed)
    names = {c: f"p{c}" for c in seated}
    old = [game_record(game, names, [], {}, t=0, table="t", host="h", tid="kitchen7")]
    game.start()
    pick = random.Random(seed)
    while True:
        move = pick.choice(game.legal_moves())
        ahead = copy.deepcopy(game)
        ahead.play(move)
        if ahead.over:
            break
        old.append(move_record(game.state_id, move.compact()))
        game.play(move)
    position = Midgame(
        game.variant, game.seated, game.pawns, game.turn, game.state_id, card=game.card,
        after_two=game.after_two, discarded=card_counts(game.deck.discards),
    )  # fmt: skip
    who = game.turn
    last = move_record(game.state_id, move.compact(), t=60)
    new = [takeover_record(
        position, 9, tid="kitchen7", from_epoch=1, epoch=2, names=names, bots=[],
        tokens={}, pids={c: c for c in seated}, t=30, table="t", host="h2",
        so_far=from_journal(old),
    ), cover_record(who, "random"), dict(last)]  # fmt: skip
    return [*old, last], new


def listed(
    root: Path, journals: list[list[dict[str, Any]]], record: dict[str, Any] | None
) -> Any:
    if record is not None:
        PlayedStore(root / "played").save(record)
    for n, journal in enumerate(journals, 1):
        write_journal(root / "journals" / f"n{n:06d}-20260921-141320-1{SUFFIX}", journal)
    return seen(root).rows


def test_a_journal_whose_end_the_successor_played_again_lists_the_successors(
    tmp_path: Path,
) -> None:
    """The old host's journal ends the game at a move nobody else was shown; its
    laptop, back at the successor's table, also kept the successor's record of the
    game, which went on from the board before (a ``cover``, then the move).  Its
    listing shows the game as every other laptop keeps it (before: its own journal's,
    without the cover: one game, two records)."""
    journal, successor = ended_twice(5)
    record = from_journal(successor)
    assert from_journal(journal)["result"] is not None
    assert [t["type"] for t in record["turns"][-2:]] == ["cover", "move"]
    mine = listed(tmp_path / "host", [journal], record)
    theirs = listed(tmp_path / "ann", [], record)
    assert mine == theirs and len(mine) == 1 and mine[0].moves == len(journal) - 1
    # the same when this laptop hosted the table again after the takeover
    assert listed(tmp_path / "again", [journal, successor], None) == theirs


def test_a_journal_the_successor_took_over_at_game_over_lists_the_journals(
    tmp_path: Path,
) -> None:
    """A successor that took over once the game had ended holds the same turns: the
    old host's journal stands for the game (it has the seed and the deck)."""
    journal, successor = ended_twice(5)
    same = {**from_journal(successor), "turns": from_journal(journal)["turns"]}
    root = tmp_path / "host"
    listed(root, [journal], same)
    [game] = [g for g in seen(root).listed]
    assert not game.kept and game.games[0].seed is not None
