"""Moves and places as sentences: squares told from the pawn's owner, pawns named by
person, the same words for a move offered and the same move played."""

from __future__ import annotations

import random
import re

import pytest

from sorry_lan.authority.seat_messages import move_events
from sorry_lan.i18n import LANGUAGES, _, use_language
from sorry_lan.rules.board import HOME, S1, START, Colour, forward, start_exit
from sorry_lan.rules.game import Game
from sorry_lan.rules.moves import MoveKind
from sorry_lan.rules.variants import Variant
from sorry_lan.tui.options import option_from_compact
from sorry_lan.tui.sentences import (
    People,
    Played,
    card_words,
    events_played,
    move_words,
    option_played,
    pawn_words,
    place_words,
    record_played,
    sentence,
)
from sorry_lan.wire.records import EventKind

RED, BLUE = int(Colour.RED), int(Colour.BLUE)
ANN_BOB = People({RED: "Ann", BLUE: "Bob"}, None)
TOKEN = re.compile(r"\b[RBYG][1-4]\b|->|<-|\bx[RBYG]|\bS[1-5]\b")


def test_a_square_is_told_as_the_steps_its_pawn_has_left_to_home() -> None:
    assert place_words(RED, 4) == "64 from home"  # red leaves START onto 4
    assert place_words(RED, 9) == "59 from home"
    assert place_words(RED, 2) == "6 from home"  # the square before its safety zone
    assert place_words(RED, 3) == "65 from home"  # 1 behind its start exit: a lap to go
    assert place_words(RED, 0) == "8 from home"  # 4 back from its exit: nearly there
    assert place_words(BLUE, 19) == "64 from home"
    assert place_words(RED, S1 + 2) == "3 from home, safe"
    assert place_words(RED, HOME) == "home" and place_words(RED, START) == "start"


def test_one_count_everywhere_one_less_with_each_step_to_home() -> None:
    """Issue 33: counting switched mid-sentence ("27 squares past its start exit,
    slides to 29 squares before its safety zone"); now each step forward, round the
    track and through the safety zone, takes one off the one count there is."""
    for colour in range(4):
        at, left = start_exit(colour), 64
        while at != HOME:
            assert place_words(colour, at).split()[0] == str(left), (colour, at)
            at, left = forward(colour, at, 1), left - 1
        assert left == 0


def test_pawns_are_named_by_person_never_by_token() -> None:
    listener = People({RED: "Ann", BLUE: "Bob"}, RED)
    assert pawn_words(0, listener, mover=BLUE) == "your pawn 1"
    assert pawn_words(5, listener, mover=BLUE) == "pawn 2"  # the mover's own
    assert pawn_words(5, listener, mover=RED) == "Bob's pawn 2"
    assert pawn_words(8, listener, mover=RED) == "Yellow's pawn 1"  # nobody named there


def test_the_issues_example_reads_as_one_sentence() -> None:
    events = [
        (EventKind.PLAY, RED, 7),
        (EventKind.MOVE, 0, 55, 58),
        (EventKind.BUMP, 4, 58),
        (EventKind.MOVE, 1, 1, S1 + 2),
    ]
    played = events_played(events)
    assert played is not None and played.kind is MoveKind.SPLIT
    text = sentence("Ann played " + card_words(7) + ": " + move_words(played, ANN_BOB, RED))
    assert text == (
        "Ann played a 7: pawn 1 moves 3, to 10 from home, bumps Bob's pawn 1, then pawn 2 "
        "moves 4, to 3 from home, safe."
    )


def test_swaps_sorries_slides_home_and_declines() -> None:
    swap = events_played([(3, RED, 11), (0, 0, 10, 30), (0, 4, 30, 10)])
    assert swap is not None and swap.kind is MoveKind.SWAP
    assert move_words(swap, ANN_BOB, RED) == "pawn 1 swaps with Bob's pawn 1, to 38 from home"
    sorry = events_played([(3, RED, 13), (0, 0, START, 20), (2, 4, 20)])
    assert sorry is not None and sorry.kind is MoveKind.SORRY
    assert move_words(sorry, ANN_BOB, RED) == "pawn 1 bumps Bob's pawn 1, to 48 from home"
    slide = events_played([(3, BLUE, 12), (0, 4, 1, 13), (1, 4, 13, 13)])
    assert slide is not None
    assert "slides" not in move_words(slide, ANN_BOB, BLUE)  # its own colour's triangle
    home = events_played([(3, RED, 3), (0, 0, S1 + 2, HOME)])
    assert home is not None and move_words(home, ANN_BOB, RED) == "pawn 1 reaches home"
    split = events_played([(3, RED, 7), (0, 0, 10, 13), (0, 1, 20, 24)])
    assert split is not None and move_words(split, ANN_BOB, RED) == (
        "pawn 1 moves 3, to 55 from home, then pawn 2 moves 4, to 44 from home"
    )  # (a split says each count; a whole card's count is the card's)
    assert move_words(Played(MoveKind.DECLINE, 11, ()), ANN_BOB, RED) == (
        "you move no pawn, and your turn is lost"
    )
    assert events_played([(5, RED, 12)]) is None  # a lost turn: no card played


def test_a_record_sorry_names_its_target_once() -> None:
    turn = {"kind": "sorry", "parts": [
        {"pawn": "R1", "from": "start", "to": 45, "end": 45, "bumps": []},
        {"pawn": "G4", "from": 45, "to": "start", "end": "start", "bumps": []},
    ]}  # fmt: skip
    played = record_played(turn, 13)
    assert move_words(played, People({RED: "Ann", 3: "Gus"}), RED) == (
        "pawn 1 bumps Gus's pawn 4, to 23 from home"
    )
    with pytest.raises(ValueError):
        record_played({"kind": "simple", "parts": [{"pawn": "Q9"}]}, 1)


def test_sentence_capitalises_and_ends_once() -> None:
    assert sentence("the discards are shuffled") == "The discards are shuffled."
    assert sentence("{who} played {card}", who="greedy bot 1", card="a 4") == (
        "greedy bot 1 played a 4."  # a name keeps its own first letter
    )
    assert sentence("{who} says: {text}", who="Bob", text="{odd}") == "Bob says: {odd}."
    assert sentence("well played!") == "Well played!"
    assert sentence("") == ""


def test_a_bump_or_a_swap_of_your_pawn_says_where_your_pawn_was_in_your_count() -> None:
    """Issue 33: a Sorry! against Ann's pawn said where Bob's pawn landed, counted from
    Bob's side; now the line counts only Ann's squares: where her pawn was."""
    ann = People({RED: "Ann", BLUE: "Bob"}, RED)
    bump = events_played([(3, BLUE, 5), (0, 4, 25, 30), (2, 1, 30)])
    assert bump is not None and move_words(bump, ann, BLUE) == (
        "pawn 1 moves 5, bumps your pawn 2 at 38 from home"  # (Bob's pawn: 53 from his)
    )
    sorry = events_played([(3, BLUE, 13), (0, 4, START, 30), (2, 1, 30)])
    assert sorry is not None and move_words(sorry, ann, BLUE) == (
        "pawn 1 bumps your pawn 2 at 38 from home"
    )
    swap = events_played([(3, BLUE, 11), (0, 4, 40, 20), (0, 1, 20, 40)])
    assert swap is not None and move_words(swap, ann, BLUE) == (
        "pawn 1 swaps with your pawn 2, and your pawn 2 goes to 28 from home"
    )
    bob = People({RED: "Ann", BLUE: "Bob"}, BLUE)  # (Bob hears his own move his way)
    assert move_words(bump, bob, BLUE) == "your pawn 1 to 53 from home, bumps Ann's pawn 2"


def test_sorry_is_said_in_the_players_letters() -> None:
    assert card_words(13) == "a Sorry! card"
    with use_language("el"):
        assert card_words(13) == "μια κάρτα Σόρι!"


@pytest.mark.parametrize("variant", list(Variant))
def test_a_move_offered_reads_as_the_same_move_played(variant: Variant) -> None:
    """Over whole random games: every legal move, worded from its compact form before
    it is played and from the host's events after, gives the same words, with no
    pawn token, arrow or bump notation in any language."""
    rng = random.Random(3)
    seated = (0, 1, 2, 3) if variant is Variant.TEAM else (0, 2)
    people = People({0: "Ann", 1: "Bob", 2: "Cai", 3: "Dee"}, 0)
    sample: list[tuple[tuple[int, ...], tuple[int, ...], int]] = []
    for seed in range(4):
        game = Game(variant, seated, seed=seed)
        game.start()
        while not game.over:
            moves = game.legal_moves()
            mover = game.turn
            for move in moves:
                option = option_from_compact(game.pawns, move.compact(), 0)
                offered = move_words(option_played(option, game.pawns), people, mover)
                played = events_played(move_events(move, mover))
                if played is not None:
                    assert move_words(played, people, mover) == offered, move
                assert not TOKEN.search(offered), offered
                if rng.random() < 0.05:
                    sample.append((game.pawns, move.compact(), mover))
            game.play(rng.choice(moves))
    for lang in LANGUAGES:
        with use_language(lang):
            for pawns, compact, mover in sample:
                option = option_from_compact(pawns, compact, 0)
                text = move_words(option_played(option, pawns), people, mover)
                assert text and not TOKEN.search(text), (lang, text)


def test_a_head_begins_with_a_capital_unless_it_begins_with_a_name() -> None:
    from sorry_lan.tui.sentences import opening

    with use_language("cy"):  # Welsh puts the verb first: "chwaraeodd {who} {card}"
        head = opening(_("{who} played {card}"), who="bot barus 1", card="7")
        assert head.startswith("Chwaraeodd bot barus 1")
        assert sentence(_("{head}: {move}"), head=head, move="x").startswith("Chwaraeodd")
    assert opening(_("{who} played {card}"), who="greedy bot 1", card="a 7") == (
        "greedy bot 1 played a 7")  # a name keeps its case
