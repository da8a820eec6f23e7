"""Fitting the evaluation: seeded self-play examples, a deterministic fit that learns,
and the calibration table's bins."""

from __future__ import annotations

import math

import pytest
from trainscript import script

from sorry_lan.bots.evaluation import B_START, EARLY, FEATURES, Evaluator
from sorry_lan.rules import Variant

train_eval = script()


def test_game_seeds_are_one_seeded_stream() -> None:
    assert train_eval.game_seeds(3, 5) == train_eval.game_seeds(3, 8)[:5]
    assert train_eval.game_seeds(3, 5) != train_eval.game_seeds(4, 5)


def test_a_game_gives_one_example_per_stride_with_its_winner() -> None:
    seed = train_eval.game_seeds(1, 1)[0]
    every = train_eval.play(Variant.STANDARD, 2, seed, 1)
    third = train_eval.play(Variant.STANDARD, 2, seed, 3)
    assert len(every) // 3 <= len(third) <= len(every) // 3 + 1
    assert len({ex.winner for ex in every}) == 1  # one game, one winner
    assert all(len(ex.sides) == 2 for ex in every)
    first = every[0].sides
    # The opening: all eight pawns in START, no danger yet but a Sorry! of nothing.
    assert all(dict(f).get(EARLY + B_START, 0.0) > 0 for f in first)
    assert train_eval.play(Variant.STANDARD, 2, seed, 3) == third


def test_team_play_has_two_sides_and_points_a_hand() -> None:
    seed = train_eval.game_seeds(2, 1)[0]
    team = train_eval.play(Variant.TEAM, 4, seed, 20)
    assert all(len(ex.sides) == 2 for ex in team)
    points = train_eval.play(Variant.POINTS, 2, seed, 5)
    ev = Evaluator(Variant.POINTS, (0, 2), [0.0] * FEATURES)
    hand = range(len(ev.weights) - 12, len(ev.weights))
    assert any(i in hand for ex in points for f in ex.sides for i, _ in f)


def test_the_fit_is_deterministic_and_learns() -> None:
    data = train_eval.positions(Variant.STANDARD, 2, train_eval.game_seeds(11, 60), 3)
    held = train_eval.positions(Variant.STANDARD, 2, train_eval.game_seeds(12, 30), 3)
    seen: list[int] = []
    w = train_eval.fit(data, 5, epochs=1, report=lambda n, _w: seen.append(n),
                       checkpoints=[100])
    assert w == train_eval.fit(data, 5, epochs=1)
    assert w != train_eval.fit(data, 6, epochs=1)  # the seed orders the examples
    assert seen == [100, len(data)]
    assert train_eval.score(w, held).log_loss < math.log(2) - 0.02
    assert train_eval.score([0.0] * FEATURES, held).log_loss == pytest.approx(math.log(2))


def test_calibration_puts_every_chance_in_its_bin() -> None:
    examples = [train_eval.Example((((0, 1.0),), ((0, 0.0),)), 0)] * 3 + [
        train_eval.Example((((0, -1.0),), ((0, 0.0),)), 0)]
    w = [0.0] * FEATURES
    w[0] = math.log(3)  # chances 0.75 / 0.25, and 0.25 / 0.75
    assert train_eval.side_chances(w, examples[0]) == [0.75, 0.25]
    rows = train_eval.calibration(w, examples)
    assert [r.size for r in rows] == [0, 0, 4, 0, 0, 0, 0, 4, 0, 0]
    assert rows[7].predicted == 0.75 and rows[7].observed == 0.75
    assert rows[2].observed == 0.25
