"""What a page is told of the moves on offer: the line mode's sentences, and a split
7's first pawn's part alone, which the page offers first (a split in two taps)."""

from __future__ import annotations

from sorry_lan.i18n import use_language, words
from sorry_lan.rules.moves import MoveKind
from sorry_lan.tui.options import MoveOption, MovePart
from sorry_lan.tui.telling import Teller
from sorry_lan.web.board import track_cell
from sorry_lan.web.screen import _moves, _turn


def _offered(*options: MoveOption) -> Teller:
    teller = Teller()
    teller.you = 0
    teller.offered = list(options)
    return teller


def test_a_split_says_its_first_part_alone_and_a_plain_move_none() -> None:
    first, second = MovePart(0, 5, 8, 8, (6, 7, 8), (), ()), MovePart(1, 10, 14, 14, (), (), ())
    split = MoveOption(3, MoveKind.SPLIT, 7, (), "", "", (first, second))
    third = MovePart(2, 20, 24, 24, (), (), ())
    other = MoveOption(4, MoveKind.SPLIT, 7, (), "", "", (first, third))
    plain = MoveOption(5, MoveKind.SIMPLE, 7, (), "", "", (MovePart(0, 5, 12, 12, (), (), ()),))
    shown = _moves(_offered(split, other, plain))
    assert shown[0]["text"] == (
        "Move 1: your pawn 1 moves 3, to 60 from home, then pawn 2 moves 4, to 54 from home.")
    assert shown[0]["first"] == shown[1]["first"] == "Your pawn 1 moves 3, to 60 from home."
    assert shown[2]["first"] is None and str(shown[2]["text"]).startswith("Move 3: ")
    assert shown[0]["to"] == [list(track_cell(8)), list(track_cell(14))]


def test_the_turn_says_the_seats_own_hand_and_no_one_elses() -> None:
    teller = Teller()
    teller.you, teller.turn, teller.hand = 1, 1, (7, 1, words.SORRY_CARD, 5)
    with use_language("en"):
        assert _turn(teller) == "It is your turn: your hand is 1, 5, 7 and Sorry!"
        teller.hand = (12, 3)
        assert _turn(teller) == "It is your turn: your hand is 3 and 12."
        teller.hand = (7, 1, words.SORRY_CARD, 5)
        teller.turn, teller.card = 0, None
        assert "hand" not in str(_turn(teller))
