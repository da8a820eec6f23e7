"""A successor's journal (issue 19): its ``takeover`` record, the hands revealed to it and
the moves after them replay into the same game; a journal that ends in ``moved`` says
where the table went."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from sorry_lan.authority.journal_format import encode, frame, scan
from sorry_lan.authority.journal_records import (
    RecordBuffer,
    moved_record,
    reveal_record,
    takeover_record,
)
from sorry_lan.authority.restore import (
    BadRecord,
    Moved,
    TakeoverStart,
    moved_to,
    replay,
    taken_over,
)
from sorry_lan.authority.table import token_hash
from sorry_lan.rules import Card, Game, Variant
from sorry_lan.rules.cards import card_counts
from sorry_lan.rules.midgame import Midgame, rebuild, reveal_hand

Record = dict[str, Any]


def played(variant: Variant, seated: tuple[int, ...], moves: int, seed: int = 3) -> Game:
    game = Game(variant, seated, seed=seed)
    game.start()
    pick = random.Random(seed)
    for _ in range(moves):
        game.play(pick.choice(game.legal_moves()))
    return game


def position_of(game: Game, known: tuple[int, ...] = ()) -> Midgame:
    return Midgame(
        game.variant, game.seated, game.pawns, game.turn, game.state_id, card=game.card,
        after_two=game.after_two, discarded=card_counts(game.deck.discards),
        hands={c: tuple(game.hands[c]) for c in known}, moves_played=game.moves_played,
        first=game.first, first_sid=game.first_sid,
    )  # fmt: skip


def head(position: Midgame, seed: int = 77) -> Record:
    seated = position.seated
    return takeover_record(
        position, seed, tid="abc123", from_epoch=1, epoch=2,
        names={c: f"p{c}" for c in seated}, bots=[seated[-1]],
        tokens={c: token_hash(bytes([c]) * 16) for c in seated[:-1]},
        pids={c: 10 + c for c in seated}, t=1764580000, owner=seated[0],
        levels={seated[-1]: "greedy"}, games=3, table="kitchen", host="ann",
    )  # fmt: skip


def go_on(game: Game, moves: int, records: list[Record]) -> None:
    pick = random.Random(moves)
    for _ in range(moves):
        if game.over:
            return
        sid = game.state_id
        move = pick.choice(game.legal_moves())
        game.play(move)
        records.append({"k": "move", "sid": sid, "m": list(move.compact())})


@pytest.mark.parametrize(("variant", "seated"), [
    (Variant.STANDARD, (0, 2)), (Variant.TEAM, (0, 1, 2, 3)), (Variant.POINTS, (0, 1, 3)),
])  # fmt: skip
def test_a_successor_s_journal_replays_into_the_game_it_played(
    variant: Variant, seated: tuple[int, ...]
) -> None:
    old = played(variant, seated, 15)
    position = position_of(old, known=seated[:1] if variant.rules.deals_hands else ())
    records = [head(position)]
    game = rebuild(position, 77)
    go_on(game, 25, records)
    records.append({"k": "chat", "colour": seated[0], "text": "hi"})
    # What the journal file holds: each record framed and read back.
    data, chain = b"", 0
    for rec in records:
        line, next_chain = frame(encode(rec), chain)
        assert next_chain is not None
        data, chain = data + line, next_chain
    restored = replay(scan(data).records)
    assert restored is not None
    again = restored.game
    assert (again.pawns, again.turn, again.card, again.state_id, again.hands) == (
        game.pawns, game.turn, game.card, game.state_id, game.hands)  # fmt: skip
    assert again.deck.pile == game.deck.pile
    assert restored.moves == sum(1 for r in records if r["k"] == "move") > 0
    assert restored.games == 3  # numbered on from the old host's games
    assert restored.names == {c: f"p{c}" for c in seated}
    assert restored.bots == {seated[-1]} and restored.levels == {seated[-1]: "greedy"}
    assert restored.tokens == {c: token_hash(bytes([c]) * 16) for c in seated[:-1]}
    assert (restored.owner, restored.table, restored.host) == (seated[0], "kitchen", "ann")
    assert restored.chat == [(seated[0], "hi")]
    assert restored.history[0]["k"] == "takeover" and len(restored.history) == len(records)
    assert taken_over(records) == TakeoverStart(  # (its owner's laptop hosts it)
        "abc123", 1, 2, {c: 10 + c for c in seated}, 10 + seated[0])
    assert moved_to(records) is None


def test_reveals_replay_in_their_order() -> None:
    old = played(Variant.POINTS, (0, 1, 2), 12)
    position = position_of(old, known=(0,))
    records = [head(position), reveal_record(2, old.hands[2]), reveal_record(1, old.hands[1])]
    game = rebuild(position, 77)
    reveal_hand(game, 2, old.hands[2], {0: 5})
    reveal_hand(game, 1, old.hands[1], {0: 5, 2: 5})
    assert game.hands == old.hands
    go_on(game, 10, records)
    restored = replay(records)
    assert restored is not None
    assert restored.game.hands == game.hands and restored.game.deck.pile == game.deck.pile


def test_a_reveal_after_a_move_or_of_cards_not_unseen_is_a_bad_record() -> None:
    old = played(Variant.POINTS, (0, 2), 12)
    position = position_of(old, known=(0,))
    late = [head(position)]
    go_on(rebuild(position, 77), 1, late)
    late.append(reveal_record(2, old.hands[2]))
    with pytest.raises(BadRecord, match="revealed after the game went on") as caught:
        replay(late)
    assert caught.value.index == 2
    with pytest.raises(BadRecord, match="does not fit: the cards revealed are not among"):
        replay([head(position), reveal_record(2, [Card.SEVEN] * 5)])


def test_a_takeover_after_a_game_of_its_own_begins_the_last_game() -> None:
    first = played(Variant.STANDARD, (0, 2), 8)
    position = position_of(first)
    records = [head(position)]
    go_on(rebuild(position, 77), 5, records)
    game = Game(Variant.STANDARD, (0, 2), seed=5, first_sid=first.state_id + 50)
    records.append({
        "k": "game", "variant": "standard", "seated": [0, 2], "seed": 5, "first": game.first,
        "first_arg": None, "names": {"0": "a", "2": "b"}, "bots": [], "tokens": {},
        "owner": None, "sid0": game.first_sid, "t": 1,
    })  # fmt: skip
    restored = replay(records)
    assert restored is not None
    assert restored.games == 4  # the takeover's third game, then a rematch
    assert restored.history[0]["k"] == "game"
    assert taken_over(records) is None


def test_a_journal_that_moved_says_where_and_is_otherwise_the_same_game() -> None:
    old = played(Variant.STANDARD, (0, 2), 8)
    position = position_of(old)
    records = [head(position)]
    go_on(rebuild(position, 77), 4, records)
    records.append(moved_record(3, 12, "cy"))
    assert moved_to(records) == Moved(3, 12, "cy")
    restored = replay(records)
    assert restored is not None and restored.moves == 4
    assert all(r["k"] != "moved" for r in restored.history)
    assert moved_to(records[:-1]) is None
    assert moved_to([*records[:-1], moved_record(3, 12)]) == Moved(3, 12, None)
    with pytest.raises(BadRecord, match="malformed moved record: no 'pid'"):
        moved_to([{"k": "moved", "epoch": 3}])


@pytest.mark.parametrize(("change", "problem"), [
    ({"turn": 1}, "the takeover's position is not a game's: colour 1 is to move"),
    ({"seed": "x"}, "malformed takeover record"),
    ({"pawns": None}, "malformed takeover record"),
    ({"games": None}, "malformed takeover record"),
])  # fmt: skip
def test_a_takeover_record_that_cannot_be_rebuilt_is_named(
    change: Record, problem: str
) -> None:
    rec = head(position_of(played(Variant.STANDARD, (0, 2), 6))) | change
    with pytest.raises(BadRecord, match=problem) as caught:
        replay([rec])
    assert caught.value.index == 0
    with pytest.raises(BadRecord, match="malformed takeover record: no 'pids'"):
        taken_over([{k: v for k, v in head(position_of(played(
            Variant.STANDARD, (0, 2), 6))).items() if k != "pids"}])  # fmt: skip


def test_the_records_are_plain_json_and_the_buffer_writes_them() -> None:
    got: list[Record] = []
    buffer = RecordBuffer(lambda: 5.0, seen=got.append)
    buffer.reveal(1, [Card.ONE, Card.TWO, Card.THREE, Card.FOUR, Card.FIVE])
    buffer.moved(4, 2, "bo")
    assert got == [
        {"k": "reveal", "colour": 1, "hand": [1, 2, 3, 4, 5]},
        {"k": "moved", "epoch": 4, "pid": 2, "name": "bo"},
    ]
    rec = head(position_of(played(Variant.POINTS, (0, 2), 5), known=(0,)))
    assert json.loads(json.dumps(rec)) == rec
    assert rec["hands"] and rec["card"] is None and rec["epoch"] == 2
