"""The learned evaluation: a probability, calibrated, its fast path equal to its
features, the shipped weights the training script's, read without numpy."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys

import pytest
from trainscript import ROOT, script

from sorry_lan.bots import Position, evaluation, position_of
from sorry_lan.bots.evaluation import (
    FALLBACK,
    FEATURES,
    MODELS,
    WEIGHTS_FILE,
    Evaluator,
    checksum,
    evaluator,
    load,
    model_name,
    shipped,
    win_probability,
)
from sorry_lan.rules import Card, Game, Variant
from sorry_lan.rules.board import HOME, START

train_eval = script()
TABLES = [(Variant.STANDARD, (0, 2)), (Variant.STANDARD, (0, 1, 2)),
          (Variant.STANDARD, (0, 1, 2, 3)), (Variant.TEAM, (0, 1, 2, 3)),
          (Variant.POINTS, (0, 2)), (Variant.POINTS, (0, 1, 2))]


def layouts(variant: Variant, seated: tuple[int, ...], n: int,
            seed: int) -> list[tuple[tuple[int, ...], int, tuple[Card, ...]]]:
    """(pawns, turn, cards) of ``n`` positions of seeded games played at random."""
    rng = random.Random(seed)
    out: list[tuple[tuple[int, ...], int, tuple[Card, ...]]] = []
    while len(out) < n:
        game = Game(variant, seated, seed=rng.getrandbits(32))
        game.start()
        while not game.over and len(out) < n:
            p = position_of(game)
            out.append((p.pawns, p.turn, p.cards))
            moves = game.legal_moves()
            game.play(moves[rng.randrange(len(moves))])
    return out


@pytest.mark.parametrize(("variant", "seated"), TABLES)
def test_the_chances_are_a_probability_over_the_seated(
        variant: Variant, seated: tuple[int, ...]) -> None:
    ev = evaluator(variant, seated)
    for pawns, turn, cards in layouts(variant, seated, 150, 3):
        hand = cards if variant.rules.deals_hands else None
        chances = ev.chances(pawns, turn, hand)
        assert all(0.0 < chances[c] < 1.0 for c in seated)
        assert all(chances[c] == 0.0 for c in range(4) if c not in seated)
        by_side = {ev.side_of[c]: chances[c] for c in seated}
        assert math.isclose(sum(by_side.values()), 1.0)
        if variant.rules.partners:
            assert chances[0] == chances[2] and chances[1] == chances[3]
        assert ev.chance(pawns, turn, seated[-1], hand) == chances[seated[-1]]


@pytest.mark.parametrize(("variant", "seated"), TABLES)
def test_the_fast_scores_are_the_weights_times_the_features(
        variant: Variant, seated: tuple[int, ...]) -> None:
    rng = random.Random(5)
    ev = Evaluator(variant, seated, [rng.uniform(-1, 1) for _ in range(FEATURES)])
    for pawns, turn, cards in layouts(variant, seated, 200, 4):
        hand = cards if variant.rules.deals_hands else None
        slow = [sum(ev.weights[i] * v for i, v in f.items())
                for f in ev.features(pawns, turn, hand)]
        fast = ev.scores(pawns, turn, hand)
        assert all(math.isclose(a, b, abs_tol=1e-9) for a, b in zip(slow, fast, strict=True))


@pytest.mark.parametrize(("variant", "seated"), TABLES)
def test_a_colour_s_kept_figures_give_the_same_scores_and_are_bounded(
        variant: Variant, seated: tuple[int, ...], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(evaluation, "MEMO", 40)
    weights = shipped()["models"][FALLBACK.get(model_name(variant, len(seated)),
                                               model_name(variant, len(seated)))]
    kept, fresh = Evaluator(variant, seated, weights), Evaluator(variant, seated, weights)
    positions = layouts(variant, seated, 150, 6)
    for pawns, turn, cards in positions + positions:
        hand = cards if variant.rules.deals_hands else None
        for memo in fresh._colours:
            memo.clear()
        # bit for bit: the figures kept are added in the order they would be anew
        assert kept.scores(list(pawns), turn, hand) == fresh.scores(pawns, turn, hand)
        assert all(len(memo) <= 40 for memo in kept._colours)
    assert all(kept._colours[c] for c in seated)


def test_a_kept_hand_counts_the_unknown_card_at_its_average() -> None:
    ev = evaluator(Variant.POINTS, (0, 2))
    pawns = (START,) * 16
    full = ev.hand_features(pawns, (0,), [Card.ONE] * 5)
    four = ev.hand_features(pawns, (0,), [Card.ONE] * 4)
    assert full[0] - four[0] == pytest.approx(1 - 5 / 45)
    assert sum(ev.hand_features(pawns, (0,), [])[:-1]) == pytest.approx(0.0)


def test_more_progress_is_a_better_chance() -> None:
    ev = evaluator(Variant.STANDARD, (0, 2))
    pawns = [START] * 16
    pawns[8:12] = [40, 45, HOME, HOME]
    base = ev.chance(tuple(pawns), 0, 0)
    pawns[0] = HOME
    assert ev.chance(tuple(pawns), 0, 0) > base
    pawns[0:4] = [HOME, HOME, HOME, 63]  # one pawn two squares from winning
    assert ev.chance(tuple(pawns), 0, 0) > 0.8


def test_win_probability_of_a_position_takes_the_best_move() -> None:
    pawns = [START] * 16
    pawns[0:4] = [HOME, HOME, HOME, 62]
    position = Position(Variant.STANDARD, (0, 2), tuple(pawns), 0, (Card.THREE,))
    assert win_probability(position) == 1.0  # the 3 takes the last pawn HOME
    assert win_probability(position, 2) == 0.0
    blocked = position._replace(cards=(Card.TWELVE,))
    assert 0.0 < win_probability(blocked) < 1.0


def test_the_shipped_file_matches_its_checksum_and_the_scripts_parameters() -> None:
    raw = json.loads((ROOT / "sorry_lan/bots" / WEIGHTS_FILE).read_text(encoding="utf-8"))
    assert checksum(raw["models"]) == raw["checksum"]
    assert raw["params"] == script().PARAMS
    assert sorted(raw["models"]) == sorted(MODELS)
    assert all(len(w) == FEATURES for w in raw["models"].values())
    assert shipped()["checksum"] == raw["checksum"]


def test_a_tampered_file_is_refused() -> None:
    raw = json.loads(json.dumps(shipped()))
    assert load(json.dumps(raw)) == raw
    raw["models"]["standard-2"][0] += 0.5
    with pytest.raises(ValueError, match="checksum"):
        load(json.dumps(raw))
    raw["format"] = 99
    with pytest.raises(ValueError, match="format"):
        load(json.dumps(raw))


def test_a_reduced_seeded_run_of_the_script_is_deterministic() -> None:
    train_eval = script()
    params = json.loads(json.dumps(train_eval.PARAMS))
    params["epochs"] = 1
    first = train_eval.train("standard-2", params, 0.004, 1, quiet=True)
    again = train_eval.train("standard-2", params, 0.004, 1, quiet=True)
    assert first == again
    # Pinned: a change to the games, the features or the fit changes this (and then
    # the shipped weights must be made again with the script).
    assert checksum({"standard-2": first}) == "47c787503fca291b"


def test_the_evaluation_reads_its_weights_without_numpy() -> None:
    code = ("import sys; from sorry_lan.bots.evaluation import evaluator; "
            "from sorry_lan.rules import Variant; "
            "print(evaluator(Variant.STANDARD, (0, 2)).chance((66,) * 16, 0, 0)); "
            "assert 'numpy' not in sys.modules")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert 0.0 < float(out.stdout) < 1.0


def calibrated(weights: list[float], held: list[tuple[object, int]]) -> bool:
    """Each decile with 200 or more chances within 8 points of the observed win rate,
    and the mean gap (weighted by positions) within 3.5 points.  (The positions of
    one game share its winner, so the games are few for the positions: one position
    in 16 to 24 is kept.  The shipped weights measure 1.0-1.8 points of mean gap
    here, weights three times too confident 11-16.)"""
    rows = train_eval.calibration(weights, held)
    total = sum(r.size for r in rows)
    gap = sum(r.size * abs(r.predicted - r.observed) for r in rows) / total
    return gap <= 0.035 and all(abs(r.predicted - r.observed) <= 0.08
                               for r in rows if r.size >= 200)


@pytest.mark.parametrize(("name", "games", "stride"),
                         [("standard-2", 800, 16), ("points-2", 600, 12),
                          ("standard-4", 200, 24), ("team-4", 300, 24)])
def test_the_evaluation_is_calibrated_on_held_out_games(
        name: str, games: int, stride: int) -> None:
    variant, players = name.split("-")
    # Master seed 7 is none the script trains on (it uses 24000 and up).
    seeds = train_eval.game_seeds(7, games)
    held = train_eval.positions(Variant(variant), int(players), seeds, stride)
    weights = shipped()["models"][name]
    assert model_name(Variant(variant), int(players)) == name
    sides = len(evaluator(Variant(variant), train_eval.SEATING[int(players)]).sides)
    assert train_eval.score(weights, held).log_loss < math.log(sides) - 0.02
    assert calibrated(weights, held)
    # The same check fails an overconfident evaluation (it can fail).
    assert not calibrated([3 * w for w in weights], held)
