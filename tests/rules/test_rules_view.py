"""Per-seat views: hands are seen by their holder alone; the draw order by nobody."""

from __future__ import annotations

import dataclasses
import random

from sorry_lan.rules import Card, CardDrawn, Colour, Game, Variant
from sorry_lan.rules.view import View, view_for, visible_events

RED, BLUE, YELLOW = Colour.RED, Colour.BLUE, Colour.YELLOW


def points_game() -> tuple[Game, list[CardDrawn]]:
    game = Game(Variant.POINTS, seated=(RED, BLUE, YELLOW), seed=21, first=RED)
    events = game.start()
    return game, [e for e in events if isinstance(e, CardDrawn)]


def test_a_seat_sees_its_own_hand_only() -> None:
    game, _ = points_game()
    for seat in (RED, BLUE, YELLOW):
        view = view_for(game, seat)
        assert view.hand == tuple(game.hands[seat])
        assert view.hand_sizes == {RED: 5, BLUE: 5, YELLOW: 5}
        assert view.seat == seat
    assert view_for(game, None).hand is None
    assert view_for(game, Colour.GREEN).hand is None  # not seated


def test_a_view_carries_no_card_sequence_but_the_own_hand() -> None:
    game, _ = points_game()
    view = view_for(game, RED)
    for f in dataclasses.fields(View):
        value = getattr(view, f.name)
        if isinstance(value, (list, tuple)) and value and isinstance(value[0], Card):
            assert f.name == "hand"
    assert view.draw_pile == len(game.deck.pile) == 30
    assert view.discard_pile == 0 and view.discard_top is None


def test_visible_events_hide_other_players_drawn_cards() -> None:
    _, drawn = points_game()
    for seat in (RED, BLUE, YELLOW, None):
        seen = [e for e in visible_events(list(drawn), seat) if isinstance(e, CardDrawn)]
        assert all(e.player == seat for e in seen)
        assert len(seen) == (5 if seat is not None else 0)


def test_standard_game_cards_are_public() -> None:
    game = Game(Variant.STANDARD, seated=(RED, YELLOW), seed=4)
    events = game.start()
    rng = random.Random(4)
    for _ in range(20):
        events += game.play(rng.choice(game.legal_moves()))
    assert visible_events(events, None) == events
    view = view_for(game, YELLOW)
    assert view.hand is None and view.card == game.card
    assert (view.pawns, view.turn, view.state_id) == (game.pawns, game.turn, game.state_id)
    discards = game.deck.discards
    assert view.discard_top == (discards[-1] if discards else None)


def test_the_discard_pile_is_public_and_counted_by_card_value() -> None:
    game = Game(Variant.STANDARD, seated=(RED, YELLOW), seed=9)
    game.start()
    rng = random.Random(9)
    reshuffled = False
    while not game.over and not (reshuffled and game.deck.discards):
        reshuffles = game.deck.reshuffles
        game.play(rng.choice(game.legal_moves()))
        reshuffled = reshuffled or game.deck.reshuffles != reshuffles
        counts = view_for(game, RED).discard_counts
        assert len(counts) == 14 and sum(counts) == len(game.deck.discards)
        for card in Card:
            assert counts[card] == game.deck.discards.count(card)
        assert counts[0] == counts[6] == counts[9] == 0
        for seat in (YELLOW, None):
            assert view_for(game, seat).discard_counts == counts
    assert reshuffled  # counts start again from the reshuffle
