"""Engine values -> wire messages: what the host may share between seats, over whole games."""

from __future__ import annotations

import random
from collections.abc import Iterator

import msgpack
import pytest

from sorry_lan.authority import seat_messages
from sorry_lan.rules import Event, Game, Variant
from sorry_lan.wire import messages as m
from sorry_lan.wire.codec import encode, to_wire
from sorry_lan.wire.records import MoveOption

SEATINGS = {Variant.STANDARD: (0, 1, 2), Variant.TEAM: (0, 1, 2, 3), Variant.POINTS: (0, 2)}


def whole_game(variant: Variant, seed: int) -> Iterator[tuple[Game, list[Event]]]:
    """Each state of a game played to its end by random choices, with the events that
    led to it (the start first)."""
    game = Game(variant, SEATINGS[variant], seed=seed)
    events = game.start()
    rng = random.Random(seed)
    yield game, events
    while not game.over:
        assert game.moves_played < 3000, "the game does not end"
        events = game.play(rng.choice(game.legal_moves()))
        yield game, events


@pytest.mark.parametrize("variant", list(Variant))
def test_every_seat_is_told_the_same_events_and_turn_unless_it_holds_a_hand(
    variant: Variant,
) -> None:
    private_turns = 0
    for game, events in whole_game(variant, seed=11):
        seats: list[int | None] = [None, *game.seated]
        told = {seat: seat_messages.events_messages(game, events, seat) for seat in seats}
        assert all(msgs == told[None] for msgs in told.values())
        assert [encode(x) for x in told[0]] == [encode(x) for x in told[None]]
        if game.over:
            break
        public = seat_messages.turn(game, None)
        assert public.hand is None
        for seat in game.seated:
            own = seat_messages.turn(game, seat)
            if seat == game.turn and variant.rules.deals_hands:
                assert own.hand == tuple(game.hands[seat])
                private_turns += 1
            else:
                assert own == public
    assert (private_turns > 0) == variant.rules.deals_hands


def test_the_offer_lists_every_legal_move_in_order_with_its_notation() -> None:
    for game, _ in whole_game(Variant.STANDARD, seed=5):
        if game.over:
            break
        offer = seat_messages.legal_moves(game, timeout=30)
        legal = game.legal_moves()
        assert isinstance(offer, m.LegalMoves) and offer.sid == game.state_id
        assert offer.timeout == 30
        assert [o.id for o in offer.moves] == list(range(len(legal)))
        assert [o.move for o in offer.moves] == [mv.compact() for mv in legal]
        for option, move in zip(offer.moves, legal, strict=True):
            full = move.notation()
            assert option.notation == full or (
                option.notation.endswith("...") and full.startswith(option.notation[:-3])
            )


def assert_as_checked(msg: m.Message) -> None:
    """``msg`` is exactly what the checking constructor builds from its fields: same
    types (enum members, tuples, plain ints), same values, same bytes."""
    checked = type(msg)(**m.message_fields(msg))
    assert repr(checked) == repr(msg)
    body = msgpack.packb(to_wire(checked), use_bin_type=True)  # every field dumped
    assert encode(msg) == len(body).to_bytes(4, "big") + body
    if isinstance(msg, m.LegalMoves):
        for option in msg.moves:
            assert repr(MoveOption(option.id, option.notation, option.move)) == repr(option)


@pytest.mark.parametrize("variant", list(Variant))
def test_trusted_messages_are_what_the_checking_constructors_build(variant: Variant) -> None:
    kinds: set[type] = set()
    for seed in (1, 2):
        for game, events in whole_game(variant, seed):
            built: list[m.Message] = [*seat_messages.events_messages(game, events, None)]
            if not game.over:
                built += [seat_messages.turn(game, s) for s in (None, *game.seated)]
                built.append(seat_messages.legal_moves(game, timeout=None))
            for msg in built:
                assert_as_checked(msg)
                kinds.add(type(msg))
    assert kinds == {m.Events, m.Turn, m.LegalMoves}


def test_trusted_refuses_missing_or_unknown_fields() -> None:
    with pytest.raises(TypeError):
        m.Turn.trusted(sid=1, colour=0, card=None, hand=None)
    with pytest.raises(TypeError):
        m.Ping.trusted(n=1, extra=2)


def test_a_snapshot_carries_its_receivers_hand_and_no_other() -> None:
    checked = 0
    for game, _ in whole_game(Variant.POINTS, seed=4):
        if game.over or game.moves_played % 7:
            continue
        sent = {seat: seat_messages.snapshot(game, seat) for seat in (None, *game.seated)}
        assert sent[None].you is None and sent[None].hand is None
        for seat in game.seated:
            assert sent[seat].you == seat and sent[seat].hand == tuple(game.hands[seat])
            hand_bytes = msgpack.packb(list(game.hands[seat]))
            for other in (None, *(s for s in game.seated if s != seat)):
                if other is None or tuple(game.hands[other]) != sent[seat].hand:
                    assert hand_bytes not in encode(sent[other])
            checked += 1
    assert checked > 10
