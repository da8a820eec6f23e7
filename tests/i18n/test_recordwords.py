"""A record's turns in words: each kind of entry, a move's slides and bumps, what a
file's edited entry holds shown as it is, and the player's language."""

from __future__ import annotations

from sorry_lan.i18n import use_language
from sorry_lan.i18n.recordwords import move_words, record_lines, slide_lines, turn_line

NAMES: dict[object, str] = {"red": "Ann", "blue": "Bob"}


def _move(kind: str, card: str, *parts: dict[str, object], **more: object) -> dict[str, object]:
    return {"type": "move", "who": "red", "card": card, "kind": kind, "notation": "N",
            "parts": list(parts), **more}  # fmt: skip


def _part(pawn: str, frm: object, to: object, end: object = None, bumps: tuple[str, ...] = ()
          ) -> dict[str, object]:  # fmt: skip
    return {"pawn": pawn, "from": frm, "to": to, "end": to if end is None else end,
            "bumps": list(bumps)}  # fmt: skip


def test_each_kind_of_turn_in_a_line() -> None:
    simple = _move("simple", "2", _part("R1", "start", 4, bumps=("B2",)))
    assert turn_line(simple, NAMES) == "Ann: 2: R1 start->4, bumps B2"
    sorry = _move("sorry", "sorry", _part("R1", "start", 30), _part("B2", 30, "start"))
    assert turn_line(sorry, NAMES) == "Ann: Sorry!: R1 start->30, bumps B2"
    swap = _move("swap", "11", _part("R1", 3, 30), _part("B2", 30, 3))
    assert turn_line(swap, NAMES) == "Ann: 11: R1 3 <-> B2 30"
    assert turn_line(_move("decline", "11"), NAMES) == "Ann: 11: decline the 11"
    assert turn_line(_move("discard", "5"), NAMES) == "Ann: discarded 5"
    assert turn_line({"type": "lost", "who": "blue", "card": "8"}, NAMES) == (
        "Bob: 8, no move: turn lost")
    assert turn_line({"type": "reshuffle", "cards": 40}, NAMES).endswith("of 40 cards")
    seat = {"type": "seat", "colour": "blue", "name": "Cy", "player": "person"}
    assert turn_line(seat, NAMES) == "Blue: Cy takes the seat"
    assert turn_line({"type": "chat", "colour": "red", "text": "hi"}, NAMES) == "Ann says: hi"


def test_slides_are_a_line_a_pawn_and_unreadable_parts_keep_the_notation() -> None:
    split = _move("split", "7", _part("R1", 3, 5), _part("R2", 10, 12, end=15))
    assert move_words(split) == "R1 3->5, R2 10->12, slides to 15"
    assert slide_lines(split) == ["R2 slides to 15"]
    edited = _move("simple", "3", {"pawn": "Q9", "from": 1, "to": 4, "end": 4, "bumps": []})
    assert move_words(edited) == "N" and slide_lines(edited) == []
    assert slide_lines({"type": "lost", "who": "red", "card": "8"}) == []


def test_the_text_form_is_in_the_players_language() -> None:
    record = {"table": "T", "variant": "standard", "seed": 1,
              "seats": [{"colour": "red", "name": "Ann", "player": "person"}],
              "turns": [{"n": 1, **_move("simple", "1", _part("R1", "start", 4))}],
              "result": {"winner": "red", "winners": ["red"], "points": {}}}  # fmt: skip
    with use_language("cy"):
        lines = record_lines(record)
    assert lines[1] == "Ann (Coch)" and lines[3].startswith("1. Ann: 1: R1 ")
    assert lines[-1] != "Ann won"
    assert record_lines(record)[-1] == "Ann won"
