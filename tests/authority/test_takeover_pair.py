"""A game goes on at a successor's host core (issue 19), in memory: a host core plays a
game with client models; at some state the successor is built from one client's
knowledge, a new host core serves it, every client reconnects with its own token, and
the game finishes there with every move kept, every board the new host's and every
seat its owner's.  No sockets, no sleeps."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from heirs import Commitments, Watching, knowledge_of
from pair import Pair

from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.restore import replay
from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.authority.takeover import (
    MISMATCH,
    REVEAL_WAIT,
    TakenOver,
    Unrevealed,
    apply_reveal,
    build_table,
    pin_verifier,
)
from sorry_lan.client.model import ClientModel
from sorry_lan.rules import Card, Phase, Variant
from sorry_lan.rules.cards import card_counts
from sorry_lan.wire import messages as m
from sorry_lan.wire.auth import pin_key
from sorry_lan.wire.errors import ErrorReason
from sorry_lan.wire.vocab import RefuseReason


def arrive(pair: Pair, end: Watching) -> None:
    end.model.join(pair.now)
    pair.connect(end)
    pair.pump()
    assert end.model.connected


def play(pair: Pair, ends: list[Watching], pick: random.Random, until: int | None = None) -> None:
    """The people choose at random (the bots as the host has them) until the game is
    over or at state ``until``; every client's board is the host's after each move."""
    for _ in range(5000):
        game = pair.table.game
        assert game is not None
        if game.over or (until is not None and game.state_id >= until):
            return
        movers = [e.model for e in ends if e.model.moves is not None and e.model.connected]
        if not movers:
            pair.advance(1.0)  # a bot's or a person's turn taken by the timer
            continue
        for model in movers:
            offer = model.moves
            assert offer is not None
            model.play(pick.choice(offer.moves).id)
        pair.pump()
        same_boards(pair, ends)
    raise AssertionError("the game did not end")


def same_boards(pair: Pair, ends: list[Watching]) -> None:
    game = pair.table.game
    assert game is not None
    for end in ends:
        model = end.model
        assert model.sid == game.state_id, model.name
        assert model.pawns == game.pawns, model.name
        assert model.discarded == card_counts(game.deck.discards), model.name


def old_table(variant: Variant, people: int, bots: int, seed: int) -> tuple[Pair, list[Watching]]:
    table = Table(TableConfig(variant=variant, seats=people + bots, auto_start=True, seed=seed))
    for _ in range(bots):
        table.add_bot(None, level="greedy")
    pair = Pair(table)
    ends = [Watching(ClientModel(name)) for name in ("ann", "bob", "cy", "di")[:people]]
    for end in ends:
        arrive(pair, end)
    assert table.phase is Phase.PLAYING
    return pair, ends


def take_over(old: Pair, ends: list[Watching], heir: int,
              commitments: Commitments | None = None, so_far: bool = True,
              built: bool = False) -> Pair:  # fmt: skip
    """The old host is lost: the laptop of ``ends[heir]`` builds the table from what it
    knows (``so_far``: with the game's record so far, as a client welcomed mid-game is
    sent it; ``built``: with the game so far its client built, if any) and serves it;
    every client reconnects to it with its token."""
    record = old.core.game_log.record() if so_far else None
    if built:
        record = ends[heir].model.seen.record()
    know = knowledge_of(old.table, ends[heir], commitments=commitments, so_far=record)
    for end in ends:
        end.model.connection_lost()
    table = build_table(know, epoch=2, now=0.0, seed=2024, wall=1.79e9)
    new = Pair(table)
    for end in ends:
        arrive(new, end)
    return new


CASES = [
    (Variant.STANDARD, 2, 1, 30),
    (Variant.STANDARD, 3, 0, 55),
    (Variant.TEAM, 2, 2, 41),
    (Variant.POINTS, 2, 1, 25),
]


@pytest.mark.parametrize(("variant", "people", "bots", "at"), CASES)
def test_the_game_finishes_at_the_successor_with_every_move_and_seat_kept(
    variant: Variant, people: int, bots: int, at: int
) -> None:
    pick = random.Random(at)
    old, ends = old_table(variant, people, bots, seed=at)
    play(old, ends, pick, until=at)
    old_game = old.table.game
    assert old_game is not None and not old_game.over
    sid = old_game.state_id
    seats = {p.pid: (p.name, p.colour, p.token_hash, p.bot) for p in old.table.players.values()}
    seen = [list(e.moves) for e in ends]
    moved = [r for r in old.journal if r["k"] == "move"]
    assert all(len(s) == len(moved) for s in seen)  # every client saw every move made

    promised = Commitments() if variant.rules.deals_hands else None
    new = take_over(old, ends, heir=1, commitments=promised)
    game = new.table.game
    assert game is not None
    assert new.table.history[0]["k"] == "takeover" and new.table.history[0]["sid"] == sid
    assert game.state_id == sid and game.pawns == old_game.pawns
    if promised is not None:  # the people reveal their hands; the bot's is dealt afresh
        for end in ends:
            colour = end.model.colour
            assert colour is not None
            salt = promised.salts[colour]
            said = apply_reveal(new.table, colour, promised.hands[colour], salt)
            assert said is None or said.why is Unrevealed.KNOWN
    bot_to_move = any(p.bot and p.colour == game.turn for p in new.table.players.values())
    if not (variant.rules.deals_hands and bot_to_move):
        assert game.legal_moves() == old_game.legal_moves()
    assert {p.pid: (p.name, p.colour, p.token_hash, p.bot)
            for p in new.table.players.values()} == seats  # fmt: skip
    for end in ends:  # each reclaimed its own seat with its own token
        assert end.model.pid is not None
        player = new.table.players[end.model.pid]
        assert player.conn is not None and player.away_since is None
        assert end.model.colour == player.colour
    same_boards(new, ends)
    if variant.rules.deals_hands:
        new.advance(REVEAL_WAIT)

    play(new, ends, pick)
    assert game.over and new.table.phase is Phase.FINISHED
    for end, before in zip(ends, seen, strict=True):
        assert end.moves[: len(before)] == before  # nothing shown before is lost or changed
        assert end.over == 1
        assert len(end.moves) == len(moved) + sum(1 for r in new.journal if r["k"] == "move")
    same_boards(new, ends)
    # Every client was sent the whole game's record: the old host's turns, then the new.
    for end in ends:
        whole = end.model.records[-1].record
        assert whole["result"] is not None and whole["seed"] is None and "deck" not in whole
        kinds = [t["type"] for t in whole["turns"]]
        assert kinds.count("move") == len(end.moves)
        notations = [t["notation"] for t in whole["turns"] if t["type"] == "move"]
        assert notations == [n for _sid, n in end.moves]
        assert [t["n"] for t in whole["turns"]] == list(range(1, len(kinds) + 1))
    # The successor's journal (its takeover record, then what it appended) resumes it.
    restored = replay([*new.table.history, *new.journal])
    assert restored is not None
    assert (restored.game.pawns, restored.game.state_id) == (game.pawns, game.state_id)
    assert restored.game.over


def test_a_points_game_keeps_the_hands_revealed_and_refuses_a_forged_one() -> None:
    pick = random.Random(5)
    old, ends = old_table(Variant.POINTS, 3, 0, seed=5)
    play(old, ends, pick, until=20)
    old_game = old.table.game
    assert old_game is not None
    hands = {c: tuple(h) for c, h in old_game.hands.items()}
    promised = Commitments()
    new = take_over(old, ends, heir=0, commitments=promised)
    table = new.table
    game = table.game
    assert game is not None
    ann, bob, cy = (end.model.colour for end in ends)
    assert ann is not None and bob is not None and cy is not None
    assert tuple(game.hands[ann]) == hands[ann]  # the successor's own hand: known
    assert table.phase is Phase.PLAYING

    # Each player reveals its hand to the new host over the wire; cy first forges one.
    _ann_end, bob_end, cy_end = ends
    forged = (Card.SORRY,) * 4 + (Card.ONE,)
    for hand, salt in ((forged, promised.salts[cy]), (hands[cy], bytes(16))):
        cy_end.model.send(m.Reveal(hand=hand, salt=salt))
        new.pump()
        refused = cy_end.errors.pop()
        assert (refused.reason, refused.text, refused.fatal) == (
            ErrorReason.BAD_VALUE, MISMATCH, False)  # fmt: skip
    assert isinstance(table, TakenOver) and cy in table.fresh  # a refusal changes nothing
    bob_end.model.send(m.Reveal(hand=hands[bob], salt=promised.salts[bob]))
    cy_end.model.send(m.Reveal(hand=hands[cy], salt=promised.salts[cy]))
    new.pump()
    assert bob_end.errors == cy_end.errors == []
    assert {c: tuple(h) for c, h in game.hands.items()} == hands
    for end in (bob_end, cy_end):  # each was told its hand as the host holds it now
        snap, colour = end.model.snapshot, end.model.colour
        assert snap is not None and colour is not None
        assert snap.hand is not None and sorted(snap.hand) == sorted(hands[colour])
    assert apply_reveal(table, cy, hands[cy], promised.salts[cy]) is not None  # known now

    before = game.moves_played
    new.advance(REVEAL_WAIT)
    reveals = [r for r in new.journal if r["k"] == "reveal"]  # (handed on at the next round)
    assert [r["colour"] for r in reveals] == [bob, cy]
    play(new, ends, pick)
    assert game.over and game.moves_played > before
    for end in ends:
        assert end.over == 1


def test_a_reveal_after_the_game_went_on_is_refused_and_the_fresh_hand_stays() -> None:
    pick = random.Random(9)
    old, ends = old_table(Variant.POINTS, 2, 1, seed=9)
    play(old, ends, pick, until=15)
    promised = Commitments()
    new = take_over(old, ends, heir=0, commitments=promised)
    game = new.table.game
    assert game is not None
    bob = ends[1].model.colour
    assert bob is not None
    true_hand = promised.hands[bob]
    new.advance(REVEAL_WAIT + 1)  # the bot waited for reveals, then moves
    play(new, ends, pick, until=game.state_id + 1)
    table = new.table
    assert isinstance(table, TakenOver)
    assert game.moves_played > table.taken_at
    fresh = list(game.hands[bob])
    said = apply_reveal(table, bob, true_hand, promised.salts[bob])
    assert said is not None and said.why is Unrevealed.TOO_LATE
    assert game.hands[bob] == fresh


def test_a_client_welcomed_by_the_successor_is_told_the_game_in_its_terms() -> None:
    old, ends = old_table(Variant.STANDARD, 2, 0, seed=3)
    play(old, ends, random.Random(3), until=12)
    new = take_over(old, ends, heir=0)
    game = new.table.game
    assert game is not None
    for end in ends:
        model = end.model
        assert model.snapshot is not None and model.snapshot.sid == game.state_id
        assert isinstance(model.welcome, m.Welcome) and model.welcome.pid == model.pid


def test_a_successor_that_was_not_sent_the_game_so_far_records_the_whole_game() -> None:
    # No laptop was sent the game so far (all were there from the start): the heir's
    # client built it from what it was shown (client.so_far), and the successor's
    # record at game over is the old host's record up to the takeover, then its own.
    for variant, people, bots, seed in CASES_BUILT:
        pick = random.Random(seed)
        old, ends = old_table(variant, people, bots, seed=seed)
        play(old, ends, pick, until=20)
        before: dict[str, Any] | None = old.core.game_log.record()
        assert before is not None and ends[0].model.book.so_far is None
        built = ends[0].model.seen.record()
        assert built is not None and built["turns"] == before["turns"]
        moved = len(ends[0].moves)
        new = take_over(old, ends, heir=0, so_far=False, built=True)
        play(new, ends, pick)
        whole = ends[0].model.records[-1].record
        k = len(before["turns"])
        assert whole["turns"][:k] == before["turns"]
        assert whole["first"] == before["first"] and whole["options"] == before["options"]
        after = [t for t in whole["turns"][k:] if t["type"] == "move"]
        assert len(after) == len(ends[0].moves) - moved > 0
        assert [t["n"] for t in whole["turns"]] == list(range(1, len(whole["turns"]) + 1))
        assert whole["result"] is not None and whole["seed"] is None


#: (variant, people, bots, seed) whose first turns a client can tell.
CASES_BUILT = [(Variant.STANDARD, 2, 1, 4), (Variant.TEAM, 2, 2, 4), (Variant.POINTS, 3, 0, 2)]


def test_turns_lost_in_an_order_no_snapshot_tells_still_give_the_whole_game() -> None:
    # Three turns lost before the first decision, the first two of different cards: no
    # snapshot tells their order, so the host sends the game so far at the start
    # (issue 32; before, the heir recorded the game from the takeover on, its first
    # player the colour on turn then): the heir's record is the whole game.
    pick = random.Random(3)
    old, ends = old_table(Variant.STANDARD, 2, 1, seed=3)
    play(old, ends, pick, until=20)
    first = ends[0].model.seen.record()  # the host's turns lost at the start, then ours
    assert first is not None
    new = take_over(old, ends, heir=0, so_far=False, built=True)
    play(new, ends, pick)
    whole = ends[0].model.records[-1].record
    moves = [t for t in whole["turns"] if t["type"] == "move"]
    assert len(moves) == len(ends[0].moves) > 0
    assert whole["result"] is not None and whole["first"] == first["first"]
    assert whole["turns"][:3] == first["turns"][:3]


def test_a_table_with_a_pin_keeps_it_at_the_successor() -> None:
    table = Table(TableConfig(seats=2, auto_start=True, seed=2))
    old = Pair(table, HostOptions(pin="4321"))
    ends = [Watching(ClientModel(name, pin="4321")) for name in ("ann", "bob")]
    for end in ends:
        arrive(old, end)
    play(old, ends, random.Random(2), until=10)
    know = knowledge_of(old.table, ends[0], pin_verifier=pin_key("4321"))
    for end in ends:
        end.model.connection_lost()
    heir = build_table(know, epoch=2, now=0.0, seed=8)
    new = Pair(heir, HostOptions(pin_key=pin_verifier(know)))
    for end in ends:  # the players know the PIN: in again, each in its own seat
        arrive(new, end)
    same_boards(new, ends)
    stranger = Watching(ClientModel("eve", spectate=True, pin="1111"))
    stranger.model.join(new.now)
    new.connect(stranger)
    new.pump()
    refusal = stranger.model.refusal
    assert not stranger.model.connected and refusal is not None
    assert refusal.reason is RefuseReason.BAD_PIN  # the old host's PIN, checked by its key
    assert new.summaries[-1].pin
