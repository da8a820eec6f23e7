"""Moves and places as sentences: squares told from the pawn's owner, pawns named by
person, the same words for a move offered and the same move played."""

from __future__ import annotations

import random
import re

import pytest

from sorry_lan.authority.seat_messages import move_events
from sorry_lan.i18n import LANGUAGES, use_language
from sorry_lan.rules.board import HOME, S1, START, Colour
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


def test_a_square_is_told_from_its_owners_start_exit_or_safety_zone() -> None:
    assert place_words(RED, 4) == "its start exit"  # red leaves START onto 4
    assert place_words(RED, 9) == "5 squares past its start exit"
    assert place_words(RED, 2) == "1 square before its safety zone"
    assert place_words(RED, 58) == "5 squares before its safety zone"
    assert place_words(RED, 3) == "1 square behind its start exit"  # after a 10 back 1
    assert place_words(BLUE, 19) == "its start exit"
    assert place_words(RED, S1 + 2) == "square 3 of its safety zone"
    assert place_words(RED, HOME) == "home" and place_words(RED, START) == "start"


def test_every_track_square_is_within_half_a_lap_of_what_it_is_told_from() -> None:
    for colour in range(4):
        for square in range(60):
            text = place_words(colour, square)
            counts = [int(n) for n in re.findall(r"\d+", text)]
            assert all(n <= 30 for n in counts), (colour, square, text)


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
        "Ann played a 7: pawn 1 moves 3 to 5 squares before its safety zone, and bumps "
        "Bob's pawn 1 back to start, then pawn 2 moves 4 to square 3 of its safety zone."
    )


def test_swaps_sorries_slides_home_and_declines() -> None:
    swap = events_played([(3, RED, 11), (0, 0, 10, 30), (0, 4, 30, 10)])
    assert swap is not None and swap.kind is MoveKind.SWAP
    assert move_words(swap, ANN_BOB, RED) == (
        "pawn 1 swaps places with Bob's pawn 1 and is now at 26 squares past its start exit"
    )
    sorry = events_played([(3, RED, 13), (0, 0, START, 20), (2, 4, 20)])
    assert sorry is not None and sorry.kind is MoveKind.SORRY
    assert move_words(sorry, ANN_BOB, RED) == (
        "pawn 1 leaves start and sends Bob's pawn 1 back to start, landing at 16 squares "
        "past its start exit"
    )
    slide = events_played([(3, BLUE, 12), (0, 4, 1, 13), (1, 4, 13, 13)])
    assert slide is not None
    assert "slides" not in move_words(slide, ANN_BOB, BLUE)  # its own colour's triangle
    home = events_played([(3, RED, 3), (0, 0, S1 + 2, HOME)])
    assert home is not None and move_words(home, ANN_BOB, RED) == "pawn 1 moves 3 and reaches home"
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
        "pawn 1 leaves start and sends Gus's pawn 4 back to start, landing at 18 squares "
        "before its safety zone"
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
                offered = move_words(option_played(option), people, mover)
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
                text = move_words(option_played(option), people, mover)
                assert text and not TOKEN.search(text), (lang, text)
