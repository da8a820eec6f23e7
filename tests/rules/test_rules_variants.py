"""The variants registry: one class per variant, its hooks, and the lists built from it."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from sorry_lan.rules.board import HOME, START, colour_pawns
from sorry_lan.rules.game import Game
from sorry_lan.rules.variants import (
    VARIANTS,
    PointsRules,
    TeamRules,
    Variant,
    VariantRules,
    check_seating,
    either_or,
    rules_of,
)

POT = Path(__file__).resolve().parents[2] / "sorry_lan" / "i18n" / "po" / "messages.pot"


def test_the_enum_and_the_registry_name_the_same_variants_in_the_same_order() -> None:
    assert [v.value for v in Variant] == list(VARIANTS) == ["standard", "team", "points"]
    for name, rules in VARIANTS.items():
        assert rules.name == name
        assert Variant(name).rules is rules is rules_of(name) is rules_of(Variant(name))
    assert type(VARIANTS["standard"]) is VariantRules
    assert isinstance(VARIANTS["team"], TeamRules)
    assert isinstance(VARIANTS["points"], PointsRules)
    with pytest.raises(KeyError):
        rules_of("chess")


@pytest.mark.parametrize("rules", list(VARIANTS.values()), ids=list(VARIANTS))
def test_each_variant_s_hooks_agree_with_each_other(rules: VariantRules) -> None:
    assert rules.deals_hands == (rules.hand_size > 0)
    assert set(rules.players) <= {2, 3, 4} and len(rules.players) > 0
    assert bool(rules.heading) == bool(rules.description)
    for colour in range(4):
        side = rules.side(colour)
        assert side[0] == colour and len(side) == (2 if rules.partners else 1)
        assert set(rules.winners(colour)) == set(side)


@pytest.mark.parametrize("rules", list(VARIANTS.values()), ids=list(VARIANTS))
def test_each_variant_s_words_are_in_the_catalog_template(rules: VariantRules) -> None:
    """The words are marked (``N_``) where they are written, so extraction finds them
    and the catalog tests hold every language to translating them."""
    with POT.open("rb") as f:
        template = read_po(f)
    for msgid in (rules.title, rules.heading, rules.description):
        if msgid:
            assert msgid in template, msgid


def test_the_seating_rule_is_asked_of_the_variant_with_the_same_words_as_before() -> None:
    problems = {
        (Variant.STANDARD, (0,)): "a game needs 2 to 4 players",
        (Variant.STANDARD, (0, 0)): "a colour is seated twice",
        (Variant.STANDARD, (0, 7)): "unknown colour",
        (Variant.TEAM, (0, 2)): "team play needs all four colours",
        (Variant.TEAM, (0,)): "a game needs 2 to 4 players",
        (Variant.POINTS, (0, 1, 2, 3)): None,
        (Variant.TEAM, (0, 1, 2, 3)): None,
    }
    for (variant, seated), want in problems.items():
        assert variant.rules.seating_problem(seated) == want, (variant, seated)
        if want is None:
            check_seating(variant, seated)
        else:
            with pytest.raises(ValueError, match=want):
                check_seating(variant, seated)
    assert [r.players_wanted() for r in VARIANTS.values()] == ["2 to 4", "4", "2 to 4"]


def test_lists_of_variants_are_built_from_the_registry() -> None:
    assert Variant.metavar() == "{standard,team,points}"
    with pytest.raises(ValueError, match=r"\(choose standard, team or points\)"):
        Variant.parse("chess")
    assert Variant.parse(" Points ") is Variant.POINTS
    assert [either_or(w) for w in ([], ["a"], ["a", "b"], ["a", "b", "c"])] == [
        "", "a", "a or b", "a, b or c"
    ]


def test_each_hook_gives_what_the_rules_say() -> None:
    standard, team, points = VARIANTS.values()
    assert standard.initial_pawns((0, 2)) == team.initial_pawns((0, 1, 2, 3)) == (START,) * 16
    opening = points.initial_pawns((0, 2))
    assert [opening[p] != START for p in range(16)] == [
        p in (colour_pawns(0)[3], colour_pawns(2)[3]) for p in range(16)
    ]
    assert standard.move_context((START,) * 16, 1).may_decline
    assert not points.move_context((START,) * 16, 1).may_decline
    red_home = tuple(HOME if p in colour_pawns(0) else START for p in range(16))
    assert standard.winner(red_home, (0, 2)) == 0
    assert team.winner(red_home, (0, 1, 2, 3)) is None
    both = tuple(HOME if p in (*colour_pawns(0), *colour_pawns(2)) else START for p in range(16))
    assert team.winner(both, (0, 1, 2, 3)) == 0 and team.winners(2) == (0, 2)
    assert team.move_context(red_home, 0).movers == tuple(colour_pawns(2))  # the partner
    assert standard.scores(red_home, (0, 2), 0) == {0: 4, 2: 0}
    assert points.scores(red_home, (0, 2), 0) == {0: 20 + 20 + 100, 2: 0}


class DuelRules(VariantRules):
    """A variant made for this test: two players only, and each begins with a pawn
    HOME (a new variant is one class; nothing else needs to know it)."""

    name = "duel"
    title = "duel"
    players = range(2, 3)
    seating_rule = "a duel needs two players"

    def initial_pawns(self, seated: Sequence[int]) -> tuple[int, ...]:
        pawns = [START] * 16
        for c in seated:
            pawns[colour_pawns(c)[0]] = HOME
        return tuple(pawns)


def test_a_new_variant_is_one_class_whose_hooks_the_game_asks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    duel = DuelRules()
    assert duel.seating_problem((0, 1, 2)) == "a duel needs two players"
    assert duel.seating_problem((0, 2)) is None and duel.players_wanted() == "2"
    # The game reads every fact of its variant from the hooks: swap standard's for the
    # duel's and the game follows them.
    monkeypatch.setitem(VARIANTS, "standard", duel)
    with pytest.raises(ValueError, match="a duel needs two players"):
        Game(Variant.STANDARD, (0, 1, 2), seed=1)
    game = Game(Variant.STANDARD, (0, 2), seed=1)
    assert game.rules is duel
    assert sum(1 for p in game.pawns if p == HOME) == 2


def test_whether_a_table_can_start_is_asked_of_the_variant() -> None:
    standard, team, points = VARIANTS.values()
    assert standard.start_problem(1, 3) == points.start_problem(1, 3) == (
        "a game needs at least two players (add a bot?)"
    )
    assert standard.start_problem(2, 0) is None and points.start_problem(4, 0) is None
    assert team.start_problem(1, 3) is None  # bots fill the free seats
    assert team.start_problem(2, 1) == "team play needs four seats"
