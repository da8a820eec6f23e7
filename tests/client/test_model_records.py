"""The game records a ClientModel is sent (protocol version 3), at a real HostCore in
memory: the whole game after ``over`` kept and handed to the shell once, the game so
far to a model welcomed mid-game, the same game told again not filed twice, and parts
that cannot be put together dropped with a log line while the game goes on."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "authority"))
from pair import Pair
from test_model_paired import Heard, arrive

from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.client.model import ClientEvent, ClientModel, GameRecord
from sorry_lan.client.records import RECORDS_KEPT
from sorry_lan.records import check
from sorry_lan.rules import Variant
from sorry_lan.wire import messages as m


def records(end: Heard) -> list[GameRecord]:
    return [ev for ev in end.events if isinstance(ev, GameRecord)]


def test_the_whole_game_is_kept_and_handed_to_the_shell_once() -> None:
    table = Table(TableConfig(variant=Variant.TEAM, seats=2, auto_start=True, seed=8))
    pair = Pair(table)
    ann, bob = ClientModel("ann"), ClientModel("bob")
    ann_cid, ann_end = arrive(pair, ann)
    _b, _bob_end = arrive(pair, bob)  # bots fill the team table
    pair.play_models([ann, bob])
    game = table.game
    assert game is not None and game.over
    *start, got = records(ann_end)
    assert not [r for r in start if r.whole]  # (the game so far, when turns were lost at once)
    assert got.whole and got.game == 1 and ann.records == [got] and ann.book.so_far is None
    assert check(got.record).game.winners == game.winners
    assert ann.take_records() == [got] and ann.take_records() == []
    assert bob.records == ann.records
    # told again (a player back after the game ended): not filed twice
    pair.lose(ann_cid)
    _again, again_end = arrive(pair, ann)
    assert records(again_end) == [got]
    assert ann.take_records() == [] and ann.records == [got]


def test_a_model_welcomed_mid_game_holds_the_game_so_far() -> None:
    table = Table(TableConfig(seats=2, auto_start=True, seed=12))
    pair = Pair(table)
    ann, bob = ClientModel("ann"), ClientModel("bob")
    ann_cid, _a = arrive(pair, ann)
    arrive(pair, bob)
    pair.play_models([ann, bob], turns=5)
    pair.lose(ann_cid)
    again = ClientModel("ann", token=ann.token)  # a new process: it saw nothing
    _c, end = arrive(pair, again)
    [so_far] = records(end)
    assert not so_far.whole and again.book.so_far == so_far and again.records == []
    assert so_far.record["seed"] is None and len(so_far.record["turns"]) >= 5
    assert again.take_records() == []
    pair.play_models([again, bob])
    assert _so_far(again) is None and [r.whole for r in again.take_records()] == [True]


def _so_far(model: ClientModel) -> GameRecord | None:
    return model.book.so_far


def test_records_kept_are_bounded_and_a_broken_record_is_dropped(
    caplog: pytest.LogCaptureFixture,
) -> None:
    model = ClientModel("ann")
    model.join(0.0)
    out: list[ClientEvent] = []
    with caplog.at_level(logging.INFO):
        model.table.fold(m.RecordPart(game=1, part=0, parts=1, data=b"junk"), out)
    assert out == [] and model.records == []
    assert any("dropped" in r.getMessage() for r in caplog.records)
    caplog.clear()
    table = Table(TableConfig(seats=2, auto_start=True, seed=1))
    pair = Pair(table)
    a, b = ClientModel("a"), ClientModel("b")
    arrive(pair, a)
    arrive(pair, b)
    for _ in range(RECORDS_KEPT + 2):
        pair.play_models([a, b])
        a.send(m.Rematch())
        b.send(m.Rematch())
        pair.pump()
    assert len(a.records) == RECORDS_KEPT
    assert [r.game for r in a.records] == list(range(3, RECORDS_KEPT + 3))
    assert len(a.take_records()) == RECORDS_KEPT + 2  # each was handed on as it came
