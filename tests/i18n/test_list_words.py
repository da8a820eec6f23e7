"""``sorry-lan list`` and the find screen describe games in the player's language."""

from __future__ import annotations

import pytest

from sorry_lan.discovery.advert import FoundGame, GameAd, Unjoinable
from sorry_lan.discovery.browser import nothing_found_message
from sorry_lan.i18n import LANGUAGES, use_language


def _game(reason: Unjoinable | None = None, *, pin: bool = False) -> FoundGame:
    ad = GameAd("Nos Wener", "Llŷr", seats_total=4, seats_taken=3, pin_required=pin)
    return FoundGame("svc", "inst", "Nos Wener", ad, ("127.0.0.1",), 7000, reason)


def test_english_is_unchanged() -> None:
    with use_language("en"):
        assert _game().describe() == "Nos Wener - host Llŷr - standard - 3/4 seats - joinable"
        assert _game(Unjoinable.FULL).describe().endswith(" - full - watch")


def test_watch_and_your_seat_are_translated() -> None:
    with use_language("cy"):
        assert _game(Unjoinable.FULL).describe().endswith(" - llawn - gwylio")
        assert _game(Unjoinable.PLAYING).describe(your_seat=True).endswith(
            " - yn chwarae - eich sedd chi"
        )


@pytest.mark.parametrize(
    ("lang", "want"),
    [
        (
            "cy",
            "Nos Wener - gwesteiwr Llŷr - arferol - 3/4 sedd - PIN - ni ellir ymuno: wedi gorffen",
        ),
        ("el", "Nos Wener - οικοδεσπότης Llŷr - κανονικό - 3/4 θέσεις - PIN - κλειστό: τελείωσε"),
        ("th", "Nos Wener - เจ้าของ Llŷr - แบบปกติ - 3/4 ที่นั่ง - PIN - เข้าร่วมไม่ได้: จบแล้ว"),
    ],
)
def test_a_game_line_in_other_languages(lang: str, want: str) -> None:
    with use_language(lang):
        assert _game(Unjoinable.FINISHED, pin=True).describe() == want


@pytest.mark.parametrize("lang", [c for c in LANGUAGES if c != "en"])
def test_nothing_found_is_translated_and_keeps_the_command(lang: str) -> None:
    with use_language(lang):
        text = nothing_found_message(2.0, ["10.0.0.7"], command="list")
    assert "sorry-lan list --address HOST:PORT" in text and "10.0.0.7" in text
    assert "--interface ADDR" in text
    for english in ("No sorry-lan games found", "Is the host running", "firewalls"):
        assert english not in text
    with use_language(lang):
        for reason in Unjoinable:
            line = _game(reason).describe()
            assert reason.value not in line or reason.value == "PIN", (lang, line)


def test_find_screen_rows_are_translated() -> None:
    from sorry_lan.tui.finder import row_for

    with use_language("hi"):
        row = row_for(_game(Unjoinable.PLAYING))
        mine = row_for(_game(Unjoinable.PLAYING), mine=True)
    assert row.detail == "खेल जारी: Enter से देखें · होस्ट Llŷr · सामान्य · 3/4 सीटें"
    assert mine.detail.startswith("आपकी सीट · खेल जारी") and mine.joinable
