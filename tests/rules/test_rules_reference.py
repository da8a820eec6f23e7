"""The engine's move generation against the independent reference in ``rules_reference.py``.

For many positions -- reached by random playouts of every variant, and random valid
layouts biased towards triangles, exits and safety entries -- and for every card, with
and without the team rule's extra card after a 2, the engine must offer exactly the
positions the reference finds, each once, and offer declining the 11 exactly when the
reference does.  This is how engine bugs are found; the reference itself is pinned
by a few hand-worked positions first.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from rules_helpers import canon, canon_spec, layout, random_layout, random_seating
from rules_reference import reference_moves

from sorry_lan.rules import (
    Card,
    CardDrawn,
    DrawAgain,
    Event,
    Game,
    GameOver,
    MoveKind,
    MovePlayed,
    TurnLost,
    TurnStarted,
    Variant,
    generate,
    move_context,
)
from sorry_lan.rules.variants import initial_pawns, winner

SETTINGS = settings(
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.generate],  # no shrinking: a seed is already minimal
)
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
VARIANTS = st.sampled_from(list(Variant))


def assert_agrees(
    pawns: Sequence[int], card: Card, variant: Variant, player: int, after_two: bool
) -> None:
    pawns = tuple(pawns)
    moves = generate(pawns, card, move_context(variant, pawns, player, after_two))
    got = [canon(m.result(pawns)) for m in moves if m.kind != MoveKind.DECLINE]
    declines = sum(m.kind == MoveKind.DECLINE for m in moves)
    want, want_decline = reference_moves(pawns, card, variant, player, after_two)
    where = f"{variant.value} {pawns} player={player} card={card.label} after_two={after_two}"
    assert len(got) == len(set(got)), f"duplicate positions: {where}"
    assert set(got) == want, (
        f"{where}: engine only {set(got) - want}, reference only {want - set(got)}"
    )
    assert declines == int(want_decline), f"decline offered wrongly: {where}"


def assert_agrees_everywhere(pawns: Sequence[int], variant: Variant, player: int) -> None:
    for card in Card:
        for after_two in (False, True):
            assert_agrees(pawns, card, variant, player, after_two)


# -- the reference pinned by hand ----------------------------------------------------


def test_reference_on_hand_worked_positions() -> None:
    std = Variant.STANDARD
    got, _ = reference_moves(layout({"red": ["S2"]}), Card.FOUR, std, 0)
    assert got == {canon_spec({"red": [0]})}
    got, _ = reference_moves(layout({"red": [58]}), Card.TEN, std, 0)
    assert got == {canon_spec({"red": ["home"]}), canon_spec({"red": [57]})}
    got, _ = reference_moves(layout({"red": [12, 27], "yellow": [25]}), Card.TWELVE, std, 0)
    # R1 lands on 24 and slides over R2 and Y1; R2 lands on yellow's 39 and slides to 43.
    assert got == {canon_spec({"red": [28]}), canon_spec({"red": [12, 43], "yellow": [25]})}
    got, decline = reference_moves(layout({"red": [58], "yellow": [40]}), Card.ELEVEN, std, 0)
    assert got == {canon_spec({"red": [40], "yellow": [58]})} and decline
    got, _ = reference_moves(layout({"red": ["S1"]}), Card.SEVEN, std, 0)
    assert got == set()
    got, _ = reference_moves(layout({"red": [14, 18]}), Card.SEVEN, std, 0)
    assert canon_spec({"red": [19]}) not in got  # part one may not bump part two's pawn
    assert canon_spec({"red": [19, 23]}) in got


# -- engine against reference ---------------------------------------------------------


# CPU-bound (about 20 s on a quiet core): a longer hang guard than the suite's 60 s,
# so that a shared, loaded machine does not fail it.
@pytest.mark.timeout(240)
@settings(SETTINGS, max_examples=12)
@given(seed=SEEDS, variant=VARIANTS)
def test_engine_agrees_with_reference_on_reachable_positions(seed: int, variant: Variant) -> None:
    rng = random.Random(seed)
    game = Game(variant, seated=random_seating(rng, variant), seed=seed)
    game.start()
    while not game.over:
        assert_agrees_everywhere(game.pawns, variant, game.turn)
        game.play(rng.choice(game.legal_moves()))


# CPU-bound (about 20 s on a quiet core): a longer hang guard than the suite's 60 s,
# so that a shared, loaded machine does not fail it.
@pytest.mark.timeout(240)
@settings(SETTINGS, max_examples=1500)
@given(seed=SEEDS, variant=VARIANTS)
def test_engine_agrees_with_reference_on_random_layouts(seed: int, variant: Variant) -> None:
    rng = random.Random(seed)
    seated = random_seating(rng, variant)
    pawns = random_layout(rng, seated)
    assert_agrees_everywhere(pawns, variant, rng.choice(seated))


@settings(SETTINGS, max_examples=40)
@given(seed=SEEDS)
def test_points_hand_offers_every_cards_moves_and_discards_by_the_rule(seed: int) -> None:
    rng = random.Random(seed)
    game = Game(Variant.POINTS, seated=random_seating(rng, Variant.POINTS), seed=seed)
    game.start()
    while not game.over:
        pawns, hand = game.pawns, game.hands[game.turn]
        moves = game.legal_moves()
        playable = [m for m in moves if m.kind != MoveKind.DISCARD]
        only_swaps = True
        for card in set(hand):
            want, _ = reference_moves(pawns, card, Variant.POINTS, game.turn, game.after_two)
            got = {canon(m.result(pawns)) for m in playable if m.card == card}
            assert got == want
            only_swaps &= all(m.kind == MoveKind.SWAP for m in playable if m.card == card)
        discards = sorted(m.card for m in moves if m.kind == MoveKind.DISCARD)
        assert discards == (sorted(set(hand)) if only_swaps else [])
        game.play(rng.choice(moves))


def replay(variant: Variant, seated: tuple[int, ...], events: list[Event]) -> tuple[int, ...]:
    """Follow a game through its events alone, judging each step with the reference.

    Returns the final layout.  Checks turn order, that a 2 (played or lost) draws
    again, that a turn is lost exactly when the reference finds no move, that every
    move played leads to a position the reference allows, and that hands (play for
    points) stay at five and are discarded from only when the rules allow it.
    """
    pawns = initial_pawns(variant, seated)
    hands: dict[int, list[Card]] = {c: [] for c in seated}
    player: int | None = None
    card: Card | None = None
    after_two = False
    turn_over = True  # the next decision must start with TurnStarted
    for e in events:
        if isinstance(e, TurnStarted):
            assert turn_over
            if player is not None:
                assert e.player == seated[(seated.index(player) + 1) % len(seated)]
            player, after_two, turn_over = e.player, False, False
        elif isinstance(e, CardDrawn):
            if e.private:
                hands[e.player].append(e.card)
            else:
                assert e.player == player and not turn_over
                card = e.card
        elif isinstance(e, TurnLost):
            assert card is not None and player is not None and e.card == card
            want, _ = reference_moves(pawns, card, variant, player, after_two)
            assert want == set(), f"turn lost with moves available: {e}"
            turn_over = card != Card.TWO
        elif isinstance(e, DrawAgain):
            assert e.player == player
            after_two = True
        elif isinstance(e, MovePlayed):
            assert e.player == player and not turn_over
            m = e.move
            if variant is Variant.POINTS:
                hand = hands[player]
                assert len(hand) == 5
                hand.remove(m.card)
                if m.kind == MoveKind.DISCARD:
                    for c in set([*hand, m.card]):
                        want, _ = reference_moves(pawns, c, variant, player, after_two)
                        swaps = {canon(s) for s in swap_results(pawns, c, variant, player)}
                        assert want <= swaps, f"discarded while {c.label} could move"
            else:
                assert m.card == card
            if m.kind not in (MoveKind.DECLINE, MoveKind.DISCARD):
                want, _ = reference_moves(pawns, m.card, variant, player, after_two)
                assert canon(m.result(pawns)) in want
            pawns = m.result(pawns)
            turn_over = m.card != Card.TWO or m.kind == MoveKind.DISCARD
        elif isinstance(e, GameOver):
            assert player is not None
            assert winner(variant, pawns, seated) == e.winner
            assert player in e.winners
    return pawns


def swap_results(
    pawns: Sequence[int], card: Card, variant: Variant, player: int
) -> list[tuple[int, ...]]:
    """The layouts the engine's 11 swaps lead to (empty for any other card)."""
    if card != Card.ELEVEN:
        return []
    moves = generate(tuple(pawns), card, move_context(variant, pawns, player))
    return [m.result(pawns) for m in moves if m.kind == MoveKind.SWAP]


@settings(SETTINGS, max_examples=100)
@given(seed=SEEDS, variant=VARIANTS)
def test_a_game_replayed_from_its_events_follows_the_rules(seed: int, variant: Variant) -> None:
    rng = random.Random(seed)
    seated = random_seating(rng, variant)
    game = Game(variant, seated=seated, seed=seed)
    events = game.start()
    while not game.over:
        events += game.play(rng.choice(game.legal_moves()))
    assert replay(variant, game.seated, events) == game.pawns
