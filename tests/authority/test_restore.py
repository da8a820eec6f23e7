"""Journal records back into a table's game: the same game, checked, or a named bad record."""

from __future__ import annotations

from typing import Any

import pytest

from sorry_lan.authority.journal_format import JournalError
from sorry_lan.authority.restore import BadRecord, replay
from sorry_lan.authority.table import token_hash
from sorry_lan.rules import Game, Variant


def played(moves: int, seed: int = 4) -> tuple[Game, list[dict[str, Any]]]:
    """A game of ``moves`` moves and its records as a host writes them (a seat change
    and a chat line after the second move, an end mark last)."""
    game = Game(Variant.STANDARD, (0, 2), seed=seed)
    records: list[dict[str, Any]] = [
        {
            "k": "game", "variant": "standard", "seated": [0, 2], "seed": seed,
            "first": game.first, "first_arg": None, "names": {"0": "ann", "2": "bob"},
            "bots": [2], "tokens": {"0": token_hash(b"a" * 16)}, "owner": 0,
            "sid0": game.first_sid, "t": 1764580000, "table": "t", "host": "ann",
        }
    ]  # fmt: skip
    game.start()
    for i in range(moves):
        sid = game.state_id
        move = game.legal_moves()[0]
        game.play(move)
        records.append({"k": "move", "sid": sid, "m": list(move.compact())})
        if i == 1:
            records.append({"k": "seat", "colour": 2, "name": "bob", "token": token_hash(b"b")})
            records.append({"k": "chat", "colour": 0, "text": "hi"})
    records.append({"k": "end"})
    return game, records


def test_replay_restores_the_same_game() -> None:
    game, records = played(30)
    restored = replay(records)
    assert restored is not None
    assert restored.moves == 30 and restored.games == 1
    again = restored.game
    assert (again.pawns, again.turn, again.card, again.state_id) == (
        game.pawns,
        game.turn,
        game.card,
        game.state_id,
    )
    assert again.deck.pile == game.deck.pile  # the same cards still to come


def test_restored_table_details_come_back() -> None:
    _game, records = played(6)
    restored = replay(records)
    assert restored is not None
    assert restored.table == "t" and restored.host == "ann" and restored.owner == 0
    assert restored.chat == [(0, "hi")] and restored.ended
    assert restored.started == 1764580000.0 and restored.names == {0: "ann", 2: "bob"}
    assert restored.tokens == {0: token_hash(b"a" * 16), 2: token_hash(b"b")}
    assert restored.bots == set()  # the bot's seat went to a person
    unbound = replay([*records[:-1], {"k": "seat", "colour": 0, "name": "ann", "token": None}])
    assert unbound is not None and unbound.bots == {0} and 0 not in unbound.tokens
    assert not unbound.ended


def test_the_last_game_is_the_one_restored() -> None:
    _first, records = played(3)
    second, more = played(5, seed=11)
    restored = replay(records[:-1] + more[:-1])
    assert restored is not None
    assert restored.games == 2 and restored.moves == 5 and restored.chat == [(0, "hi")]
    assert restored.game.pawns == second.pawns and not restored.ended


def test_no_game_record_is_nothing_to_restore() -> None:
    assert replay([]) is None
    assert replay([{"k": "end"}]) is None


def test_a_move_that_disagrees_with_the_rules_is_named() -> None:
    _game, records = played(3)
    wrong_state = {"k": "move", "sid": 999, "m": [0, 1, 0, 4]}
    with pytest.raises(BadRecord, match="state") as caught:
        replay([*records[:-1], wrong_state])
    assert caught.value.index == len(records) - 1 and "answers state 999" in caught.value.text
    assert isinstance(caught.value, JournalError)
    restored = replay(records)
    assert restored is not None
    illegal = {"k": "move", "sid": restored.game.state_id, "m": [3, 3, 3]}
    with pytest.raises(BadRecord, match="does not replay"):
        replay([*records[:-1], illegal])


def test_malformed_records_are_one_sentence_errors() -> None:
    _game, records = played(2)
    bad_records: list[dict[str, Any]] = [
        {"k": "seat", "name": "x"},
        {"k": "seat", "colour": "red", "name": "x"},
        {"k": "seat", "colour": 2, "name": 5, "token": None},
        {"k": "seat", "colour": 3, "name": "x", "token": None},
        {"k": "chat", "colour": 0},
        {"k": "move", "sid": 1},
        {"k": "what"},
    ]
    for bad in bad_records:
        with pytest.raises(BadRecord) as caught:
            replay([*records[:-1], bad])
        assert caught.value.index == len(records) - 1
        assert "\n" not in str(caught.value)
    head = dict(records[0])
    del head["seed"]
    with pytest.raises(BadRecord, match="malformed game record: no 'seed' field"):
        replay([head])


def test_a_first_player_the_seed_does_not_give_is_refused() -> None:
    _game, records = played(1)
    head = dict(records[0])
    head["first"] = 2 if head["first"] == 0 else 0
    with pytest.raises(BadRecord, match="does not follow from the seed") as caught:
        replay([head, *records[1:]])
    assert caught.value.index == 0


def test_a_game_record_from_before_state_ids_grew_starts_at_zero() -> None:
    _game, records = played(2)
    head = {k: v for k, v in records[0].items() if k not in {"sid0", "t", "table", "host"}}
    restored = replay([head, *records[1:]])
    assert restored is not None and restored.moves == 2
    assert restored.table is None and restored.host is None and restored.started is None
