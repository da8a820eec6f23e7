"""The game's vocabulary rendered from codes, per language."""

from __future__ import annotations

import pytest

from sorry_lan.i18n import LANGUAGES, use_language, words
from sorry_lan.rules.board import HOME, S1, START


def test_english_words_are_the_source() -> None:
    with use_language("en"):
        assert [words.colour_name(c) for c in range(4)] == ["Red", "Blue", "Yellow", "Green"]
        assert words.card_name(13) == "Sorry!" and words.card_name(7) == "7"
        assert words.step_words(0, 4, 6, 2, False, 6, ()) == "R1 forward 2: 4 to 6"
        assert (
            words.step_words(1, 3, 16, 1, False, 19, (4,))
            == "R2 forward 1: 3 to 16, slides to 19, bumps B1"
        )
        assert words.winners_line(["Ann", "Bob"]) == "Ann and Bob win"
        assert words.join_names(["A", "B", "C"]) == "A, B and C"


@pytest.mark.parametrize(
    ("lang", "red", "start", "home", "sorry"),
    [
        ("el", "Κόκκινο", "ΑΡΧΗ", "ΣΠΙΤΙ", "Sorry!"),  # noqa: RUF001
        ("hi", "लाल", "शुरू", "घर", "सॉरी!"),
        ("lo", "ແດງ", "ຈຸດເລີ່ມ", "ເຮືອນ", "ຂໍອະໄພ!"),
        ("th", "แดง", "จุดเริ่ม", "บ้าน", "ขออภัย!"),
        ("cy", "Coch", "DECHRAU", "CARTREF", "Sori!"),
    ],
)
def test_each_language_uses_its_glossary(
    lang: str, red: str, start: str, home: str, sorry: str
) -> None:
    with use_language(lang):
        assert words.colour_name(0) == red
        assert words.location_name(START) == start
        assert words.location_name(HOME) == home
        assert words.card_name(13) == sorry
        line = words.sorry_words(0, 5, 20, 20)
        assert line.startswith(sorry) and "R1" in line and "B2" in line and "20" in line
        assert start in line


def test_colours_parse_in_english_and_the_players_language() -> None:
    with use_language("cy"):
        assert words.parse_colour("coch") == 0
        assert words.parse_colour("GREEN") == 3
        with pytest.raises(ValueError, match="lliw anhysbys 'piws'"):
            words.parse_colour("piws")


@pytest.mark.parametrize("lang", [c for c in LANGUAGES if c != "en"])
def test_no_english_left_in_move_words(lang: str) -> None:
    with use_language(lang):
        texts = [
            words.step_words(0, START, 4, 1, False, 4, ()),
            words.step_words(0, 10, 6, 4, True, 6, (8,)),
            words.step_words(0, 55, S1 + 1, 4, False, S1 + 1, ()),
            words.split_words("a", "b"),
            words.swap_words(0, 3, 4, 9),
            words.decline_words(),
            words.discard_words(5),
            words.reshuffle_line(44),
            words.winners_line(["A"]),
        ]
    for text in texts:
        for english in (
            "forward",
            "back ",
            "slides",
            "bumps",
            "split",
            "swap",
            "decline",
            "discard",
            "shuffled",
            "wins",
            "START",
            "HOME",
        ):
            assert english not in text, (lang, text)
