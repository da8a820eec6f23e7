"""Game records: built from a journal's records, dumped and loaded, checked by replay;
an edited record is refused at the edited turn with the reason; bad files get one
sentence; the golden examples in protocol/records/ are what the code writes."""

from __future__ import annotations

import copy
import importlib.util
import json
import random
from pathlib import Path
from typing import Any

import pytest

from sorry_lan.authority.journal_records import game_record, move_record, seat_record
from sorry_lan.codes import RecordFailure
from sorry_lan.records import MAX_BYTES, RecordError, check, dump, from_journal, load
from sorry_lan.rules import Game, Variant

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = sorted((ROOT / "protocol" / "records").glob("*.json"))


def journal(variant: Variant, seated: tuple[int, ...], seed: int, moves: int | None = None
            ) -> list[dict[str, Any]]:  # fmt: skip
    game = Game(variant, seated, seed=seed)
    records = [game_record(game, {c: f"p{c}" for c in seated}, [seated[-1]], {}, t=0)]
    game.start()
    rng = random.Random(seed)
    while not game.over and (moves is None or game.moves_played < moves):
        move = rng.choice(game.legal_moves())
        records.append(move_record(game.state_id, move.compact()))
        game.play(move)
    return records


def refusal(record: dict[str, Any]) -> RecordError:
    with pytest.raises(RecordError) as info:
        check(load(dump(record)))
    return info.value


def first(record: dict[str, Any], kind: str, after: int = 0) -> dict[str, Any]:
    return next(t for t in record["turns"] if t["type"] == kind and t["n"] > after)


@pytest.mark.parametrize(
    ("variant", "seated"),
    [(Variant.STANDARD, (0, 2)), (Variant.TEAM, (0, 1, 2, 3)), (Variant.POINTS, (1, 2, 3))],
)
def test_a_record_replays_to_the_game_it_was_built_from(
    variant: Variant, seated: tuple[int, ...]
) -> None:
    records = journal(variant, seated, 3)
    record = from_journal(records, ended=60.0)
    checked = check(load(dump(record)))
    assert checked.game.over and checked.turns == len(record["turns"])
    winner = checked.game.winner
    assert winner is not None
    assert record["result"]["winner"] == ["red", "blue", "yellow", "green"][winner]
    assert record["ended"] == "1970-01-01T00:01:00Z" and "deck" in record
    assert [t["n"] for t in record["turns"]] == list(range(1, len(record["turns"]) + 1))
    assert record["teams"] == ([["red", "yellow"], ["blue", "green"]] if seated == (0, 1, 2, 3)
                               and variant is Variant.TEAM else [])  # fmt: skip
    assert record["seats"][-1]["player"] == "bot"


def test_an_unfinished_game_has_no_result_no_end_and_no_deck() -> None:
    record = from_journal(journal(Variant.STANDARD, (0, 1), 4, moves=12), ended=99.0)
    assert record["result"] is None and record["ended"] is None and "deck" not in record
    check(record)
    record["deck"] = []
    assert refusal(record).fields["field"] == "deck"


def test_each_game_of_a_journal_is_its_own_record_and_seats_are_table_events() -> None:
    one = journal(Variant.STANDARD, (0, 2), 5)
    two = journal(Variant.STANDARD, (0, 2), 6, moves=3)
    records = [*one[:4], seat_record(2, "bot", None), *one[4:], *two]
    first_game = from_journal(records, 1)
    assert first_game["seed"] == 5 and first_game["result"] is not None
    seat = first(first_game, "seat")
    assert seat["colour"] == "yellow" and seat["player"] == "bot"
    assert from_journal(records)["seed"] == 6
    check(first_game)
    with pytest.raises(RecordError) as info:
        from_journal(records, 3, name="x")
    assert info.value.code is RecordFailure.NO_GAME


def test_chat_is_written_only_when_asked() -> None:
    records = journal(Variant.STANDARD, (0, 2), 5)
    records.insert(2, {"k": "chat", "colour": 0, "text": "hi"})
    assert all(t["type"] != "chat" for t in from_journal(records)["turns"])
    said = from_journal(records, chat=True)
    assert first(said, "chat")["text"] == "hi"
    check(said)


def test_a_journal_record_that_does_not_replay_is_named() -> None:
    records = journal(Variant.STANDARD, (0, 2), 5, moves=5)
    records[3] = {"k": "move", "sid": 0, "m": [0, 1, 99, 99]}
    with pytest.raises(RecordError) as info:
        from_journal(records)
    assert info.value.code is RecordFailure.JOURNAL and info.value.fields["number"] == 4


@pytest.fixture
def record() -> dict[str, Any]:
    return from_journal(journal(Variant.STANDARD, (0, 2), 8))


def test_an_edited_card_is_refused_at_its_turn(record: dict[str, Any]) -> None:
    move = first(record, "move")
    move["card"] = "sorry" if move["card"] != "sorry" else "1"
    err = refusal(record)
    assert err.code is RecordFailure.EDITED_CARD and err.fields["n"] == move["n"]


def test_the_wrong_player_is_refused_at_its_turn(record: dict[str, Any]) -> None:
    move = first(record, "move", after=5)
    move["who"] = "yellow" if move["who"] == "red" else "red"
    err = refusal(record)
    assert err.code is RecordFailure.WRONG_PLAYER and err.fields["n"] == move["n"]
    lost = first(record, "lost", after=move["n"])
    lost["who"] = "yellow" if lost["who"] == "red" else "red"
    move["who"] = "yellow" if move["who"] == "red" else "red"
    assert refusal(record).fields["n"] == lost["n"]


def test_an_illegal_move_is_refused_at_its_turn(record: dict[str, Any]) -> None:
    move = first(record, "move", after=20)
    move["parts"][0]["to"] = 59 if move["parts"][0]["to"] != 59 else 58
    err = refusal(record)
    assert err.code is RecordFailure.ILLEGAL and err.fields["n"] == move["n"]


def test_edited_words_or_effects_are_refused_at_their_turn(record: dict[str, Any]) -> None:
    move = first(record, "move", after=30)
    move["notation"] = "R1 home->home"
    err = refusal(record)
    assert err.code is RecordFailure.EDITED_MOVE and err.fields["n"] == move["n"]


def test_a_removed_or_invented_turn_is_refused(record: dict[str, Any]) -> None:
    cut = copy.deepcopy(record)
    lost = first(cut, "lost", after=10)
    cut["turns"].remove(lost)
    for n, turn in enumerate(cut["turns"], 1):
        turn["n"] = n
    assert refusal(cut).fields["n"] == lost["n"]
    short = copy.deepcopy(record)
    del short["turns"][-1]
    assert refusal(short).code in (RecordFailure.ENDS_EARLY, RecordFailure.RESULT)
    loser = "yellow" if record["result"]["winner"] == "red" else "red"
    record["result"] |= {"winner": loser, "winners": [loser]}
    assert refusal(record).code is RecordFailure.RESULT
    record["result"] = None  # the game was won: not an unfinished game's record
    del record["deck"]
    assert refusal(record).code is RecordFailure.RESULT


def test_an_edited_deck_or_board_is_refused(record: dict[str, Any]) -> None:
    record["deck"][0], record["deck"][-1] = "sorry", "sorry"
    assert refusal(record).fields["part"] in ("deck", "board")
    del record["deck"]
    assert refusal(record).fields["part"] == "deck"


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b"", RecordFailure.NOT_JSON),
        (b'{"format": "sorry-lan game record", "version": 1, "turns": [', RecordFailure.NOT_JSON),
        (b"\xff\xfe", RecordFailure.NOT_UTF8),
        (b"[" * 100_000, RecordFailure.NESTED),
        (b"[1, 2]", RecordFailure.NOT_RECORD),
        (b'{"format": "chess"}', RecordFailure.NOT_RECORD),
        (b'{"format": "sorry-lan game record", "version": 4}', RecordFailure.VERSION),
        (b" " * (MAX_BYTES + 1), RecordFailure.TOO_LARGE),
    ],
)
def test_a_file_that_is_no_record_gets_one_sentence(data: bytes, code: RecordFailure) -> None:
    with pytest.raises(RecordError) as info:
        load(data, "x.json")
    assert info.value.code is code
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    "edit",
    [
        {"seats": "everyone"},
        {"seats": [{"colour": "purple"}]},
        {"seats": [{"colour": "red"}]},
        {"seed": "eleven"},
        {"variant": "chess"},
        {"options": None},
        {"turns": {"1": "move"}},
        {"turns": [None]},
    ],
)
def test_a_malformed_header_is_one_sentence(record: dict[str, Any], edit: dict[str, Any]) -> None:
    record.update(edit)
    err = refusal(record)
    assert err.code is RecordFailure.MALFORMED and "\n" not in str(err)


def test_malformed_turns_are_refused_not_raised(record: dict[str, Any]) -> None:
    for bad in ({"n": 1}, {"n": 1, "type": "move", "who": None}, {"n": 1, "type": "move",
                "who": "red", "card": [], "parts": 3}):  # fmt: skip
        edited = copy.deepcopy(record)
        edited["turns"][0] = bad
        with pytest.raises(RecordError):
            check(edited)


@pytest.mark.parametrize("path", [p for p in GOLDEN if not p.name.startswith("moved-")],
                         ids=lambda p: p.name)  # fmt: skip
def test_each_golden_record_replays(path: Path) -> None:
    record = load(path.read_bytes())
    check(record)
    kinds = {"move", "seat", "chat"} | ({"lost"} if record["variant"] != "points" else set())
    assert {t["type"] for t in record["turns"]} >= kinds  # a hand always offers a play


def test_the_golden_records_are_what_the_code_writes() -> None:
    script = ROOT / "scripts" / "gen_records.py"
    spec = importlib.util.spec_from_file_location("gen_records", script)
    assert spec is not None and spec.loader is not None
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    written = gen.expected()
    assert sorted(written) == GOLDEN
    for path, data in written.items():
        assert path.read_bytes() == data, f"{path.name} is stale: run scripts/gen_records.py"
        assert json.loads(data)["result"] is not None


def test_the_golden_record_of_a_game_that_moved_hosts_is_the_whole_game() -> None:
    """One game, two hosts: its identity names both, and its turns are the first
    host's from the game's first turn, then the successor's to the end."""
    record = load((ROOT / "protocol" / "records" / "moved-standard-2.json").read_bytes())
    assert record["version"] == 3 and record["seed"] is None and "deck" not in record
    assert (record["tid"], record["game"]) == ("k1tchen2", 1)
    assert [(h["epoch"], h["host"]) for h in record["hosts"]] == [(1, "Ann"), (2, "Cai")]
    first = load((ROOT / "protocol" / "records" / "standard-2.json").read_bytes())
    assert first["hosts"] == [{"epoch": 1, "host": "Ann"}] and first["game"] == 1
    turns = record["turns"]
    assert [t["n"] for t in turns] == list(range(1, len(turns) + 1))
    assert sum(t["type"] == "move" for t in turns) > 24 and record["result"] is not None


def test_a_bots_strength_is_the_one_its_name_shows() -> None:
    records = journal(Variant.STANDARD, (0, 1, 2), 5, moves=4)
    records[0]["names"] = {"0": "Ann", "1": "expert bot 1", "2": "Rex"}
    records[0]["bots"] = [1, 2]
    records.append(seat_record(0, "random bot 2", None))
    record = from_journal(records)
    assert [s["strength"] for s in record["seats"]] == [None, "expert", None]
    assert record["turns"][-1] | {"n": 0} == {
        "n": 0, "type": "seat", "colour": "red", "name": "random bot 2", "player": "bot",
        "strength": "random",
    }  # fmt: skip


def test_a_version_1_record_still_reads_and_replays() -> None:
    """Version 2 only added table events and exact times: a record written before it
    (no ``cover`` or ``back``) reads and checks as it is."""
    path = Path(__file__).resolve().parents[2] / "protocol" / "records" / "standard-2.json"
    record = load(path.read_bytes())
    assert record["version"] == 3 and {t["type"] for t in record["turns"]} >= {"cover", "back"}
    record = {k: v for k, v in record.items() if k not in ("tid", "game", "hosts")}
    assert check(load(dump(record | {"version": 2}))).game.over  # (3 added the identity)
    turns = [t for t in record["turns"] if t["type"] not in ("cover", "back")]
    old = record | {"version": 1, "turns": [t | {"n": n} for n, t in enumerate(turns, 1)]}
    assert check(load(dump(old))).game.over
