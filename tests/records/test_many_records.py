"""Hundreds of games of every variant and player count, exported as records and
replayed to the same result; some through the real host core (its journal), a
resumed table and a rematch among them; every edited record refused at the edited
turn.

Most games are played on the engine (random moves, seeded), the journal records made
as the host makes them; a few run through :class:`~pair.Pair`, the in-memory host on
a fake clock, whose ``Append`` effects are the journal.
"""

from __future__ import annotations

import copy
import random
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "authority"))

from pair import Pair

from sorry_lan.authority.journal_records import game_record, move_record
from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.restore import replay
from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.records import RecordError, check, dump, from_journal, load
from sorry_lan.records.entries import colour_word
from sorry_lan.rules import Game, Variant
from sorry_lan.wire import messages as m

QUIET = HostOptions(heartbeat=1000.0, dead_after=5000.0, stay=True)
SEATINGS = [
    (Variant.STANDARD, (0, 2)),
    (Variant.STANDARD, (0, 1, 3)),
    (Variant.STANDARD, (0, 1, 2, 3)),
    (Variant.TEAM, (0, 1, 2, 3)),
    (Variant.POINTS, (1, 3)),
    (Variant.POINTS, (0, 1, 2)),
    (Variant.POINTS, (0, 1, 2, 3)),
]
GAMES_EACH = 24  # 168 games on the engine (and 19 through the host below)


def engine_journal(variant: Variant, seated: tuple[int, ...], seed: int) -> tuple[
    list[dict[str, Any]], Game]:  # fmt: skip
    game = Game(variant, seated, seed=seed)
    records = [game_record(game, {c: f"p{c}" for c in seated}, [], {}, t=seed)]
    game.start()
    rng = random.Random(seed)
    while not game.over:
        move = rng.choice(game.legal_moves())
        records.append(move_record(game.state_id, move.compact()))
        game.play(move)
    return records, game


def replays_to(records: list[dict[str, Any]], game: Game, number: int | None = None) -> dict[
    str, Any]:  # fmt: skip
    """The record of ``records``' game ``number``, checked to end as ``game`` did."""
    record = load(dump(from_journal(records, number, ended=1e6)))
    checked = check(record).game
    assert checked.pawns == game.pawns and checked.winner == game.winner
    assert checked.final_scores == game.final_scores
    assert record["result"]["winners"] == [colour_word(c) for c in game.winners]
    return record


def edited(record: dict[str, Any], rng: random.Random) -> tuple[dict[str, Any], int]:
    """The record with one move changed (its player, card or a pawn's landing square)."""
    out = copy.deepcopy(record)
    move = rng.choice([t for t in out["turns"] if t["type"] == "move"])
    how = rng.choice(["who", "card", "to"] if move["parts"] else ["who", "card"])
    if how == "who":
        move["who"] = next(s["colour"] for s in out["seats"] if s["colour"] != move["who"])
    elif how == "card":
        move["card"] = "12" if move["card"] != "12" else "3"
    else:
        move["parts"][0]["to"] = 30 if move["parts"][0]["to"] != 30 else 31
    return out, move["n"]


@pytest.mark.parametrize(("variant", "seated"), SEATINGS, ids=lambda v: str(v))
def test_engine_games_replay_and_edits_are_refused_at_their_turn(
    variant: Variant, seated: tuple[int, ...]
) -> None:
    rng = random.Random(20)
    for seed in range(GAMES_EACH):
        records, game = engine_journal(variant, seated, 1000 * len(seated) + seed)
        record = replays_to(records, game)
        if seed % 4 == 0:
            bad, n = edited(record, rng)
            with pytest.raises(RecordError) as info:
                check(bad)
            assert info.value.fields.get("n") == n, (seed, str(info.value))


def _bot_table(variant: Variant, seats: int, seed: int, people: int = 0) -> Table:
    table = Table(TableConfig(variant=variant, seats=seats, auto_start=True, seed=seed,
                              bot_level="random", turn_timeout=0.0))  # fmt: skip
    for _ in range(seats - people):
        table.add_bot(None, level="random")
    return table


@pytest.mark.parametrize(("variant", "seated"), SEATINGS, ids=lambda v: str(v))
def test_host_games_replay_from_the_hosts_journal(
    variant: Variant, seated: tuple[int, ...]
) -> None:
    for seed in (1, 2):
        pair = Pair(_bot_table(variant, len(seated), seed), QUIET)
        game = pair.table.game
        assert game is not None and game.over
        replays_to(pair.journal, game)


def test_a_rematch_is_its_own_record() -> None:
    pair = Pair(_bot_table(Variant.STANDARD, 3, 7, people=1), QUIET)
    _cid, ann = pair.join("ann")
    pair.advance(1.0)
    first = pair.table.game
    assert first is not None and first.over
    ann.send(m.Rematch())
    pair.pump()
    pair.advance(1.0)
    second = pair.table.game
    assert second is not None and second is not first and second.over
    one = replays_to(pair.journal, first, 1)
    two = replays_to(pair.journal, second)
    assert one["seed"] != two["seed"] and two == replays_to(pair.journal, second, 2)
    seats = [s["player"] for s in one["seats"]]
    assert seats.count("person") == 1 and seats.count("bot") == 2


@pytest.mark.parametrize(("variant", "seats"), [(Variant.STANDARD, 4), (Variant.POINTS, 2)])
def test_a_resumed_tables_journal_replays_to_the_resumed_game(variant: Variant, seats: int) -> None:
    played = Pair(_bot_table(variant, seats, 9, people=1), QUIET)
    _cid, _ann = played.join("ann")
    played.advance(1.0)
    moves = [i for i, r in enumerate(played.journal) if r["k"] == "move"]
    kept = played.journal[: moves[len(moves) // 2]]  # the host died halfway
    restored = replay(kept)
    assert restored is not None and not restored.game.over
    config = TableConfig(variant=variant, seats=seats, seed=9, bot_level="random",
                         turn_timeout=0.0, grace=0.0)  # fmt: skip
    resumed = Pair(Table.restore(config, restored, 0.0, None), QUIET)
    resumed.advance(5.0)
    game = resumed.table.game
    assert game is not None and game.over
    journal = kept + resumed.journal
    assert [r["k"] for r in journal].count("game") == 1
    record = replays_to(journal, game)
    assert [s["player"] for s in record["seats"]].count("person") == 1
