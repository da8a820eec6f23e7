"""A successor's table from what its laptop knew (authority.takeover): the config and
the seats as they were, the lobby, a game over, the chat, the reveals and what is
refused."""

from __future__ import annotations

import random
import sys
from dataclasses import replace
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from heirs import TID, Commitments, Watching, knowledge_of
from pair import Pair

from sorry_lan.authority.journal_records import RecordBuffer
from sorry_lan.authority.restore import replay, taken_over
from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.authority.takeover import (
    MISMATCH,
    REVEAL_WAIT,
    Revealed,
    TakenOver,
    TakeoverError,
    Unrevealed,
    apply_reveal,
    build_table,
    config_of,
    expected_digests,
    pin_verifier,
    resume_table,
)
from sorry_lan.client.model import ClientModel
from sorry_lan.rules import Phase, Variant
from sorry_lan.succession.commitment import hand_digest
from sorry_lan.succession.knowledge import Knowledge, draws_again
from sorry_lan.wire import messages as m
from sorry_lan.wire.auth import pin_key
from sorry_lan.wire.errors import ErrorReason
from sorry_lan.wire.records import EventKind
from sorry_lan.wire.succession import ChatLine


def seated(variant: Variant = Variant.STANDARD, *, start: bool = True, moves: int = 10,
           seed: int = 4, **config: object) -> tuple[Pair, list[Watching]]:  # fmt: skip
    """A table with ann and bob and a greedy bot, ``moves`` moves into its game."""
    table = Table(TableConfig(variant=variant, seats=3, auto_start=start, seed=seed,
                              **config))  # type: ignore[arg-type]
    table.add_bot(None, level="greedy")
    pair = Pair(table)
    ends = [Watching(ClientModel(n)) for n in ("ann", "bob")]
    for end in ends:
        end.model.join(pair.now)
        pair.connect(end)
        pair.pump()
    pick = random.Random(seed)
    while table.game is not None and table.game.moves_played < moves and not table.game.over:
        movers = [e.model for e in ends if e.model.moves is not None]
        if not movers:
            pair.advance(0.5)
        for model in movers:
            assert model.moves is not None
            model.play(pick.choice(model.moves.moves).id)
        pair.pump()
    return pair, ends


def test_the_seats_keep_pids_names_colours_verifiers_and_the_bots_their_strength() -> None:
    old, ends = seated(grace=30.0, bot_delay=0.25, turn_timeout=20.0, title="kitchen")
    know = knowledge_of(old.table, ends[1])
    table = build_table(know, epoch=2, now=100.0, seed=1)
    for pid, was in old.table.players.items():
        now = table.players[pid]
        assert (now.name, now.colour, now.bot, now.token_hash) == (
            was.name, was.colour, was.bot, was.token_hash)  # fmt: skip
        assert now.conn is None
        assert now.away_since == (None if was.bot else 100.0)  # the grace starts now
        if was.bot:
            assert now.level == "greedy"
    config = table.config
    assert (config.grace, config.bot_delay, config.turn_timeout, config.title) == (
        30.0, 0.25, 20.0, "kitchen")  # fmt: skip
    assert config.seed is None  # the successor shuffles afresh
    assert (config.seats, config.auto_start, config.variant) == (3, True, Variant.STANDARD)
    assert config.host_name == "bob"
    assert table.owner is None  # the table was headless: it stays so
    assert (table.epoch, table.tid) == (2, TID)
    assert table.games_played == 1 and table.phase is Phase.PLAYING
    assert table.next_pid() == max(old.table.players) + 1  # new seats get new pids


def test_a_table_with_an_owner_is_owned_by_the_successor_s_player() -> None:
    old, ends = seated()
    old.table.owner = ends[0].model.pid
    know = knowledge_of(old.table, ends[1])
    assert know.succession.host == ends[0].model.pid
    assert build_table(know, epoch=2, now=0.0, seed=1).owner == ends[1].model.pid


def test_each_reclaims_its_own_seat_with_its_own_token_and_no_other() -> None:
    old, ends = seated()
    table = build_table(knowledge_of(old.table, ends[0]), epoch=2, now=0.0, seed=1)
    for end in ends:
        assert end.model.token is not None
        player = table.reclaim(7, end.model.token, 1.0)
        assert player.pid == end.model.pid and player.away_since is None
    with pytest.raises(Exception, match="not valid"):
        table.reclaim(8, b"x" * 16, 1.0)


def test_a_lobby_is_taken_over_as_a_lobby() -> None:
    old, ends = seated(start=False)
    assert old.table.phase is Phase.LOBBY
    know = knowledge_of(old.table, ends[0])
    assert know.board is None
    table = build_table(know, epoch=3, now=0.0, seed=1)
    assert table.phase is Phase.LOBBY and table.game is None and table.history == []
    assert {p.pid for p in table.players.values()} == set(old.table.players)
    assert table.start_problem() is None


def test_a_game_over_is_taken_over_over_with_its_winners() -> None:
    old, ends = seated(moves=10_000, seed=6)
    game = old.table.game
    assert game is not None and game.over
    know = knowledge_of(old.table, ends[0])
    assert know.board is not None and know.board.over
    table = build_table(know, epoch=2, now=0.0, seed=1)
    assert table.phase is Phase.FINISHED and table.game is not None
    assert table.game.winners == game.winners and table.last_winner == game.winner
    assert table.decision_since == 0.0


def test_the_chat_so_far_is_kept_by_colour() -> None:
    old, ends = seated()
    bob = ends[1].model
    assert bob.pid is not None and bob.colour is not None
    chat = (ChatLine(bob.pid, "hi"), ChatLine(None, "a notice"), ChatLine(250, "gone"))
    table = build_table(knowledge_of(old.table, ends[0], chat=chat), epoch=2, now=0.0, seed=1)
    assert table.chat == [(bob.colour, "hi")]


def test_the_pin_key_is_the_old_host_s() -> None:
    old, ends = seated()
    know = knowledge_of(old.table, ends[0], pin_verifier=pin_key("1234"))
    assert pin_verifier(know) == pin_key("1234")


def test_the_journal_starts_with_a_takeover_that_replays_into_the_same_game() -> None:
    old, ends = seated(moves=12)
    table = build_table(knowledge_of(old.table, ends[0]), epoch=2, now=0.0, seed=77, wall=9.0)
    head = table.history[0]
    assert (head["k"], head["tid"], head["from_epoch"], head["epoch"], head["t"]) == (
        "takeover", TID, 1, 2, 9)  # fmt: skip
    assert head["pids"] == {str(p.colour): p.pid for p in table.players.values()}
    restored = replay(table.history)
    assert restored is not None and table.game is not None
    assert restored.game.deck.pile == table.game.deck.pile
    assert restored.tokens == {p.colour: p.token_hash for p in table.players.values()
                               if p.token_hash}  # fmt: skip


def test_what_cannot_be_a_successor_s_table_is_refused_by_name() -> None:
    old, ends = seated()
    know = knowledge_of(old.table, ends[0])
    with pytest.raises(TakeoverError, match="epoch 1 does not follow the table's 1"):
        build_table(know, epoch=1, now=0.0, seed=1)
    with pytest.raises(TakeoverError, match="seat token is not its seat's"):
        build_table(replace(know, token=b"y" * 16), epoch=2, now=0.0, seed=1)
    assert know.board is not None
    bad = replace(know, board=replace(know.board, turn=3))
    with pytest.raises(TakeoverError, match="the board cannot be played on: colour 3"):
        build_table(bad, epoch=2, now=0.0, seed=1)
    with pytest.raises(ValueError, match="not among the table's seats"):
        Knowledge(know.succession, know.lobby, 250, know.token)


def test_in_points_the_first_decision_waits_for_the_reveals_and_a_mismatch_is_dealt_afresh(
) -> None:
    old, ends = seated(Variant.POINTS, moves=9)
    promised = Commitments()
    know = knowledge_of(old.table, ends[0], commitments=promised)
    bob = ends[1].model.colour
    assert bob is not None and know.colour is not None
    digests = expected_digests(know)
    assert set(digests) == set(old.table.game.hands)  # type: ignore[union-attr]
    lie = Revealed(promised.hands[know.colour], promised.salts[bob])
    table = build_table(know, epoch=2, now=50.0, seed=3, reveals={bob: lie})
    assert table.fresh == set(old.table.game.hands) - {know.colour}  # type: ignore[union-attr]
    assert table.awaited == {bob} and table.hold_until == 50.0 + REVEAL_WAIT
    assert table.offer_held() and table.bot_turn(50.0 + REVEAL_WAIT - 0.1) is None
    assert table.release_offer(50.0 + REVEAL_WAIT - 0.1) is None
    refused = apply_reveal(table, bob, promised.hands[bob], promised.salts[bob], b"\0" * 32)
    assert refused is not None and refused.text == MISMATCH
    assert refused.why is Unrevealed.MISMATCH and refused.reason is ErrorReason.BAD_VALUE
    released = table.release_offer(51.0)  # bob answered: nobody else is awaited
    assert released is not None and table.fresh <= released == table.dealt_afresh
    assert not table.offer_held() and table.decision_since == 51.0
    kept = Revealed(promised.hands[bob], promised.salts[bob])
    table = build_table(know, epoch=2, now=50.0, seed=3, reveals={bob: kept})
    assert tuple(table.game.hands[bob]) == promised.hands[bob]  # type: ignore[union-attr]
    assert bob not in table.fresh


def test_the_first_decision_waits_no_more_for_a_player_who_leaves_nor_past_the_wait() -> None:
    old, ends = seated(Variant.POINTS, moves=9)
    know = knowledge_of(old.table, ends[0], commitments=Commitments())
    bob = ends[1].model.colour
    assert bob is not None
    table = build_table(know, epoch=2, now=50.0, seed=3)
    player = table.by_colour(bob)
    assert player is not None and table.awaited == {bob}
    table.reclaim(7, ends[1].model.token or b"", 50.5)
    table.disconnect(7, 50.6)  # dropped: it may still come back and reveal
    assert table.awaited == {bob} and table.next_deadline() == 50.0 + REVEAL_WAIT
    table.reclaim(8, ends[1].model.token or b"", 51.0)
    table.disconnect(8, 51.2, quit=True)  # said bye: it will not reveal
    assert table.release_offer(51.3) is not None and not table.offer_held()
    waited = build_table(know, epoch=2, now=50.0, seed=3)
    assert waited.release_offer(50.0 + REVEAL_WAIT) is not None  # nobody came: the wait is over


def test_a_reveal_where_there_is_nothing_to_reveal_is_refused() -> None:
    old, ends = seated()
    plain = Table(TableConfig())
    assert apply_reveal(plain, 0, (), b"") is not None
    table = build_table(knowledge_of(old.table, ends[0]), epoch=2, now=0.0, seed=1)
    assert isinstance(table, TakenOver) and table.fresh == set()
    known = apply_reveal(table, 0, (), b"")
    assert known is not None and known.why is Unrevealed.KNOWN
    assert known.reason is ErrorReason.UNEXPECTED


def test_a_draw_again_is_read_from_the_last_card_event() -> None:
    play, again, lost = int(EventKind.PLAY), int(EventKind.DRAW_AGAIN), int(EventKind.TURN_LOST)
    assert draws_again([(play, 0, 2), (again, 0)])
    assert not draws_again([(play, 0, 2), (again, 0), (lost, 0, 4)])
    assert draws_again([(0, 1, 2, 3)], before=True)  # no card event: as before
    assert not draws_again([])


def test_the_config_record_s_milliseconds_are_seconds() -> None:
    old, _ends = seated(bot_budget=1.5)
    succession: m.Succession = knowledge_of(old.table, _ends[0]).succession
    config = config_of(succession.config, host_name="ann")
    assert config.bot_budget == 1.5 and config.host_name == "ann"


def test_the_part_of_a_hand_its_player_knew_is_kept_and_the_rest_dealt_afresh() -> None:
    old, ends = seated(Variant.POINTS, moves=9)
    game = old.table.game
    assert game is not None
    promised = Commitments()
    know = knowledge_of(old.table, ends[0], commitments=promised)
    ann, bob = know.colour, ends[1].model.colour
    assert ann is not None and bob is not None
    # What each knew of its hand: all but the card it drew last (a move ago).
    part = {c: tuple(h[:4]) for c, h in game.hands.items()}
    salts = promised.salts
    assert know.commit is not None and know.board is not None
    digests = list(know.commit.digests)
    for c in part:
        digests[c] = hand_digest(salts[c], part[c])
    commit = m.Commit(sid=know.board.sid, digests=tuple(digests), salt=None)
    know = replace(know, hand=part[ann], commit=commit)
    table = build_table(know, epoch=2, now=0.0, seed=3)
    assert table.game is not None
    assert tuple(table.game.hands[ann][:4]) == part[ann] and table.known == {ann: 4}
    refused = apply_reveal(table, bob, game.hands[bob], salts[bob])  # not committed
    assert refused is not None and refused.why is Unrevealed.MISMATCH
    assert apply_reveal(table, bob, part[bob], salts[bob]) is None
    assert tuple(table.game.hands[bob][:4]) == part[bob] and len(table.game.hands[bob]) == 5
    assert table.known == {ann: 4, bob: 4}
    restored = replay([*table.history, {"k": "reveal", "colour": bob, "hand": list(part[bob])}])
    assert restored is not None and restored.game.hands == table.game.hands


def test_a_successor_s_journal_resumes_with_its_pids_epoch_and_id() -> None:
    old, ends = seated(moves=8)
    old.table.owner = ends[0].model.pid
    table = build_table(knowledge_of(old.table, ends[1]), epoch=4, now=0.0, seed=5)
    new = Pair(table)
    for end in ends:
        end.model.connection_lost()
        end.model.join(new.now)
        new.connect(end)
        new.pump()
    for _ in range(6):
        movers = [e.model for e in ends if e.model.moves is not None]
        for model in movers:
            assert model.moves is not None
            model.play(model.moves.moves[0].id)
        new.pump()
        new.advance(0.5)
    records = [*table.history, *new.journal]
    restored, start = replay(records), taken_over(records)
    assert restored is not None and start is not None
    again = resume_table(TableConfig(), restored, start, 30.0, None)
    assert (again.epoch, again.tid) == (4, TID)
    assert {p.pid: (p.name, p.colour, p.token_hash) for p in again.players.values()} == {
        p.pid: (p.name, p.colour, p.token_hash) for p in table.players.values()}  # fmt: skip
    assert again.owner == table.owner == ends[1].model.pid
    assert again.game is not None and table.game is not None
    assert again.game.state_id == table.game.state_id and again.game.pawns == table.game.pawns
    assert again.fresh == set() and again.next_pid() == max(table.players) + 1
    for end in ends:
        assert end.model.token is not None
        assert again.reclaim(9, end.model.token, 31.0).pid == end.model.pid


def test_the_successor_s_new_journal_is_given_the_takeover_record_first() -> None:
    old, ends = seated(moves=5)
    buffer = RecordBuffer(lambda: 0.0)
    table = build_table(knowledge_of(old.table, ends[0]), epoch=2, now=0.0, seed=1,
                        journal=buffer)  # fmt: skip
    assert buffer.take() == table.history and table.history[0]["k"] == "takeover"
    assert table.journal is buffer
    lobby, lobby_ends = seated(start=False)
    buffer = RecordBuffer(lambda: 0.0)
    build_table(knowledge_of(lobby.table, lobby_ends[0]), epoch=2, now=0.0, seed=1,
                journal=buffer)  # fmt: skip
    assert buffer.take() == []  # a lobby: nothing to resume until a game starts
