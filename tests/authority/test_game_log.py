"""The game record every connection on protocol version 3 is sent (``authority/game_log``):
the whole game after ``over`` to players and spectators alike, the game so far (no
seed, no deck) to one welcomed mid-game, nothing to a version-2 peer; with a journal
file or without, and for a table resumed from its journal.  In memory (``pair``)."""

from __future__ import annotations

import zlib
from typing import Any

from pair import Pair, SessionClient

from sorry_lan.authority.game_log import GameLog
from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.restore import replay
from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.records import check, from_journal, load
from sorry_lan.rules import Variant
from sorry_lan.wire import messages as m
from sorry_lan.wire.record_parts import RecordAssembler


def _records(client: SessionClient) -> list[dict[str, Any]]:
    """Every record the client was sent, put together from its parts."""
    out = []
    assembler = RecordAssembler()
    for part in client.all(m.RecordPart):
        data = assembler.take(part)
        if data is not None:
            out.append(load(data))
    return out


def _headless(
    variant: Variant, seats: int, seed: int, bots: int = 0, options: HostOptions | None = None
) -> Pair:
    table = Table(TableConfig(variant=variant, seats=seats, auto_start=True, seed=seed))
    for _ in range(bots):
        table.add_bot(None)
    return Pair(table, options)


def test_every_player_and_spectator_on_version_3_gets_the_whole_game_after_over() -> None:
    pair = _headless(Variant.POINTS, 3, 11)
    _e, eve = pair.connect(SessionClient("eve", spectate=True))
    eve.session.join()
    pair.pump()
    ann = pair.join("ann")[1]
    bob = pair.join("bob")[1]
    old = pair.join("old", versions=(1, 2))[1]  # a version-2 peer: the game starts
    pair.play_first_moves([ann, bob, old])
    game = pair.table.game
    assert game is not None and game.over
    assert old.all(m.RecordPart) == [] and old.session.version == 2
    parts = [c.all(m.RecordPart) for c in (ann, bob, eve)]
    assert parts[0] == parts[1] == parts[2] and len(parts[0]) == 1  # the same bytes to all
    for client in (ann, bob, eve):
        inbox = client.inbox
        over = max(i for i, x in enumerate(inbox) if isinstance(x, m.GameOver))
        assert isinstance(inbox[over + 1], m.RecordPart)  # right after over
        [record] = _records(client)
        assert record["seed"] == game.seed and record["deck"]
        checked = check(record)
        assert checked.game.winner == game.winner and checked.game.pawns == game.pawns
        assert record == from_journal(pair.journal)  # chat left out, as exported
    assert ann.all(m.RecordPart)[0].game == 1


def test_a_player_back_mid_game_gets_the_game_so_far_without_seed_or_deck() -> None:
    pair = _headless(Variant.STANDARD, 2, 918_273_645)
    ann_cid, ann = pair.join("ann")
    bob = pair.join("bob")[1]
    pair.play_first_moves([ann, bob], rounds=6)
    pair.lose(ann_cid)  # its process died
    _again, back = pair.join("ann", token=ann.token)
    inbox = back.inbox
    snap = next(i for i, x in enumerate(inbox) if isinstance(x, m.Snapshot))
    turn = next(i for i, x in enumerate(inbox) if isinstance(x, m.Turn))
    kinds = [type(x) for x in inbox[snap + 1 : turn]]
    assert kinds == [m.RecordPart]  # after the snapshot, before the turn
    [so_far] = _records(back)
    assert so_far["seed"] is None and "deck" not in so_far and so_far["result"] is None
    whole = from_journal(pair.journal)
    assert so_far["turns"] == whole["turns"] and len(so_far["turns"]) >= 6
    text = zlib.decompress(b"".join(p.data for p in back.all(m.RecordPart)))
    assert b"918273645" not in text
    # a resync tells the state again, not the record
    back.inbox.clear()
    back.send(m.Resync())
    pair.pump()
    assert back.all(m.Snapshot) and not back.all(m.RecordPart)
    # and the whole game follows at its end
    pair.play_first_moves([back, bob])
    [record] = _records(back)
    assert record["deck"] and check(record).game.over


def test_a_spectator_welcomed_mid_game_and_a_player_back_after_it_get_the_record() -> None:
    pair = _headless(Variant.STANDARD, 2, 7, options=HostOptions(stay=True))  # stays on
    ann_cid, ann = pair.join("ann")
    bob = pair.join("bob")[1]
    pair.play_first_moves([ann, bob], rounds=3)
    _e, eve = pair.connect(SessionClient("eve", spectate=True))
    eve.session.join()
    pair.pump()
    assert [r["result"] for r in _records(eve)] == [None]
    pair.play_first_moves([ann, bob])
    pair.lose(ann_cid)  # after the end: she comes back to the result
    game = pair.table.game
    assert game is not None and game.over
    assert _records(eve)[-1]["result"] is not None
    _again, back = pair.join("ann", token=ann.token)
    inbox = back.inbox
    over = next(i for i, x in enumerate(inbox) if isinstance(x, m.GameOver))
    assert isinstance(inbox[over + 1], m.RecordPart)
    assert _records(back) == [_records(eve)[-1]]


def test_a_table_without_a_journal_file_still_sends_the_record() -> None:
    table = Table(TableConfig(seats=2, auto_start=True, seed=3))
    pair = Pair(table, journalled=False)
    ann = pair.join("ann")[1]
    bob = pair.join("bob")[1]
    pair.play_first_moves([ann, bob])
    assert pair.journal == []
    *_, record = _records(ann)  # (the game so far at its start, its first turns lost)
    assert check(record).game.winner == table.game.winner  # type: ignore[union-attr]


def test_a_resumed_table_sends_the_whole_game_from_its_first_move() -> None:
    first = _headless(Variant.STANDARD, 2, 9)
    ann = first.join("ann")[1]
    bob = first.join("bob")[1]
    first.play_first_moves([ann, bob], rounds=8)
    restored = replay(first.journal)
    assert restored is not None
    table = Table.restore(TableConfig(seats=2, auto_start=True), restored, 0.0, None)
    pair = Pair(table)
    again = [pair.join(n, token=c.token)[1] for n, c in (("ann", ann), ("bob", bob))]
    so_far = _records(again[0])[0]
    assert so_far["turns"] == from_journal(first.journal)["turns"]
    pair.play_first_moves(again)
    record = _records(again[0])[-1]
    assert check(record).game.over
    assert record == from_journal(first.journal + pair.journal)
    assert record["turns"][: len(so_far["turns"])] == so_far["turns"]


def test_the_log_starts_at_each_game_and_builds_its_record_once_per_change() -> None:
    log = GameLog([{"k": "end"}, {"k": "move", "sid": 1, "m": [0, 1, 0, 1]}])
    assert log.records == [] and log.parts(1) == []  # nothing before a game
    pair = _headless(Variant.STANDARD, 2, 3)
    pair.join("ann")
    pair.join("bob")
    log = GameLog(pair.journal)
    parts = log.parts(1)
    assert parts and log.parts(1) is parts  # the same change: built once
    log.add({"k": "game", **{k: v for k, v in pair.journal[0].items() if k != "k"}})
    assert len(log.records) == 1
